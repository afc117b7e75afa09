"""One lock for a session's state, whichever of its script threads touches it.

Streamlit (1.60 to 1.67 at least) wraps a session's state in a ``SafeSessionState`` per ``ScriptRunner``, each with a
lock of its own. With fast reruns (Streamlit's default) a rerun asked while a run is finishing gets
a new ``ScriptRunner`` at once, and the two threads then edit the same dicts under two different
locks: the finishing run's clean-up (``on_script_finished``: ``_remove_stale_widgets``) against
the new run's start (``on_script_will_rerun``: ``_compact_state``, ``_call_callbacks``). The server
log then shows "dictionary changed size during iteration" — one browser test in about ten, with the
camera's many reruns. A probe (since removed) showed it: docs/app.md.

Turning fast reruns off was tried and dropped: a rerun then goes to the running ``ScriptRunner``,
which merges a full rerun asked by a click with the camera fragment's next timed run into a
fragment-only run, and the click is lost (a card not played in 60 s in the browser test).

:func:`install` gives every wrapper of one session state the same lock, so those edits take turns.
It touches ``SafeSessionState``'s private ``_lock`` through :mod:`trainer.ui.st_adapter` (where every
library internal lives, behind a version check), checked by tests/ui/test_ui_session_lock.py.
"""

from __future__ import annotations

from trainer.ui.st_adapter import lock_of, share_session_state_lock

__all__ = ["install", "lock_of"]


def install() -> None:
    """Make every wrapper of one session state use one lock (idempotent; called by the app on every
    run, before anything else touches the session state)."""
    share_session_state_lock()
