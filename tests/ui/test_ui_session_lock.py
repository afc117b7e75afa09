"""Streamlit's script threads of one session take turns on its state (trainer.ui.session_lock).

Two ScriptRunners of one session overlap when a rerun arrives while a run finishes; Streamlit 1.60
gives each its own SafeSessionState lock, and the old run's clean-up then iterates a dict the new run
edits ("dictionary changed size during iteration" in the browser tests' server log)."""

from __future__ import annotations

import threading

import pytest

pytest.importorskip("streamlit")

from streamlit.runtime.state.safe_session_state import SafeSessionState  # noqa: E402
from streamlit.runtime.state.session_state import SessionState  # noqa: E402

from trainer.ui import session_lock  # noqa: E402


@pytest.fixture
def installed():
    original = SafeSessionState.__init__
    session_lock.install()
    yield
    SafeSessionState.__init__ = original


def _wrappers(state: SessionState) -> tuple[SafeSessionState, SafeSessionState]:
    """The wrappers two ScriptRunners of one session make (script_runner.py builds one each)."""
    return SafeSessionState(state, lambda: None), SafeSessionState(state, lambda: None)


def test_a_second_script_thread_waits_while_the_first_edits_the_state(installed):
    finishing, starting = _wrappers(SessionState())
    finishing["seen"] = 0
    inside = threading.Event()
    release = threading.Event()
    order: list[str] = []

    def finishing_run() -> None:
        # Holds the state the way on_script_finished does, for as long as its clean-up lasts.
        with finishing._lock:
            inside.set()
            release.wait(5)
            order.append("clean-up done")

    def starting_run() -> None:
        inside.wait(5)
        starting["seen"] = 1  # what on_script_will_rerun's compaction does to the same dicts
        order.append("new run wrote")

    threads = [threading.Thread(target=finishing_run), threading.Thread(target=starting_run)]
    for thread in threads:
        thread.start()
    assert inside.wait(5)
    threads[1].join(0.3)
    assert threads[1].is_alive(), "the new run edited the state while the old run's clean-up held it"
    release.set()
    for thread in threads:
        thread.join(5)
    assert order == ["clean-up done", "new run wrote"]
    assert starting["seen"] == 1


def test_other_sessions_keep_their_own_lock(installed):
    one, _ = _wrappers(SessionState())
    other, _ = _wrappers(SessionState())
    assert one._lock is not other._lock


def test_install_twice_wraps_once(installed):
    patched = SafeSessionState.__init__
    session_lock.install()
    assert SafeSessionState.__init__ is patched
