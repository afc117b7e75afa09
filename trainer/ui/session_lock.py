"""One lock for a session's state, whichever of its script threads touches it.

Streamlit 1.60 wraps a session's state in a ``SafeSessionState`` per ``ScriptRunner``, each with a
lock of its own. With fast reruns (Streamlit's default) a rerun asked while a run is finishing gets
a new ``ScriptRunner`` at once, and the two threads then edit the same dicts under two different
locks: the finishing run's clean-up (``on_script_finished``: ``_remove_stale_widgets``) against
the new run's start (``on_script_will_rerun``: ``_compact_state``, ``_call_callbacks``). The server
log then shows "dictionary changed size during iteration" — one browser test in about ten, with the
camera's many reruns. ``scripts/rerun_race.py`` shows it in a minute.

Turning fast reruns off was tried and dropped: a rerun then goes to the running ``ScriptRunner``,
which merges a full rerun asked by a click with the camera fragment's next timed run into a
fragment-only run, and the click is lost (a card not played in 60 s in the browser test).

:func:`install` gives every wrapper of one session state the same lock, so those edits take turns.
It touches the private ``_lock`` of the pinned 1.60 series (pyproject), checked by
tests/ui/test_ui_session_lock.py.
"""

from __future__ import annotations

import threading
from typing import Any

_locks: dict[int, Any] = {}
"""One re-entrant lock per session state, by ``id`` (Streamlit's SessionState has slots: no attribute
can be hung on it, and it cannot be weakly referenced). A lock outliving its session costs a few bytes."""
_locks_guard = threading.Lock()


def lock_of(state: Any) -> Any:
    """The lock shared by every wrapper of ``state`` (made on first use)."""
    with _locks_guard:
        lock = _locks.get(id(state))
        if lock is None:
            lock = _locks[id(state)] = threading.RLock()
        return lock


def install() -> None:
    """Make every ``SafeSessionState`` made from now on use its state's shared lock, and give the
    running script's wrapper (made before this was installed) that lock too. Idempotent; called by
    the app on every run, before anything else touches the session state."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx
    from streamlit.runtime.state.safe_session_state import SafeSessionState

    if not getattr(SafeSessionState.__init__, "shares_lock", False):
        original = SafeSessionState.__init__

        def __init__(self, state, yield_callback) -> None:
            original(self, state, yield_callback)
            object.__setattr__(self, "_lock", lock_of(state))

        __init__.shares_lock = True
        SafeSessionState.__init__ = __init__
    ctx = get_script_run_ctx()
    wrapper = getattr(ctx, "session_state", None)
    if isinstance(wrapper, SafeSessionState):
        shared = lock_of(wrapper._state)
        if wrapper._lock is not shared:
            # Safe to swap here: this thread holds no lock between two session-state calls, and the
            # first run of a session has no other script thread yet.
            object.__setattr__(wrapper, "_lock", shared)
