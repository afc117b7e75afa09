"""What the camera panels say about the camera itself, under AppTest with a live camera stood in for
(``ui_camera_stand_in``): a starved recognizer is named with its rate and what to do (Play and
Practice), and a camera sign the table refused says "not sent" once, with the table's reason."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

pytestmark = pytest.mark.vision


def _run(script) -> AppTest:
    at = AppTest.from_function(script, default_timeout=120).run()
    assert not at.exception, at.exception
    return at


def _play_script(fps: float = 4.0, frames: int = 60) -> None:
    import streamlit as st
    from ui_camera_stand_in import stand_in_camera

    from trainer.rules.cards import ACES
    from trainer.signals.gestures import Gesture, GestureEvent
    from trainer.ui import table_talk
    from trainer.ui.game_session import HUMAN_SEAT, GameSession
    from trainer.ui.views import play_camera
    from trainer.ui.watcher import FrameReport, GestureReport, SignWatcher

    def make_watcher() -> SignWatcher:
        # A deal in which the person holds no ace: the camera's "un as" is refused by the table.
        seed = next(s for s in range(500) if not any(
            c in ACES for c in GameSession.start("vendee", "classic", s).table.view(HUMAN_SEAT).hand))
        st.session_state["session"] = GameSession.start("vendee", "classic", seed)
        watcher = SignWatcher(lambda profile: None, None)
        watcher.reports.put(FrameReport(2.0, (), (), True, 0, frames, fps))
        mouth = GestureEvent(Gesture.MOUTH_OPEN, start=2.0, end=3.0, confidence=0.9)
        watcher.reports.put(GestureReport(mouth, reported_at=3.6, final=True))
        return watcher

    stand_in_camera(make_watcher)
    session = st.session_state["session"]
    settings = st.session_state["settings"]

    def send(made, source, ago=None):
        return table_talk.refusal_text(made.signal, settings.language)  # the table's own words

    play_camera.panel(settings, session, send)


def _play_fast() -> None:
    from test_ui_camera_notices import _play_script

    _play_script(fps=20.0)


def _play_starting() -> None:
    from test_ui_camera_notices import _play_script

    _play_script(fps=1.0, frames=3)  # the stream's first frames: no rate yet


def test_play_says_the_camera_is_starved_with_its_rate_and_what_to_do():
    warnings = [w.value for w in _run(_play_script).warning]
    assert any(w.startswith("The camera is analysing 4 frames a second") and "close other programs" in w
               for w in warnings), warnings


@pytest.mark.parametrize("script", [_play_fast, _play_starting], ids=["20 frames a second", "first frames"])
def test_no_starvation_notice_at_a_useful_rate_or_before_a_rate_is_known(script):
    assert not [w.value for w in _run(script).warning if "frames a second" in w.value]


def test_a_refused_camera_sign_says_not_sent_once_with_the_tables_reason():
    lines = [c.value for c in _run(_play_script).caption if c.value.startswith("✗")]
    assert len(lines) == 1, lines
    assert lines[0].lower().count("not sent") == 1, lines[0]
    assert lines[0].startswith("✗ un as") and "you signed un as, but that is not how many aces you hold" in lines[0]


def _practice_script() -> None:
    import streamlit as st
    from ui_camera_stand_in import stand_in_camera

    from trainer.ui.views import practice
    from trainer.ui.watcher import FrameReport, SignWatcher

    def make_watcher() -> SignWatcher:
        watcher = SignWatcher(lambda profile: None, None)
        watcher.reports.put(FrameReport(5.0, (), (), True, 0, 80, 5.0))
        return watcher

    stand_in_camera(make_watcher)
    st.session_state["practice_started"] = None
    practice.show()


def test_practice_says_the_camera_is_starved_too():
    warnings = [w.value for w in _run(_practice_script).warning]
    assert any(w.startswith("The camera is analysing 5 frames a second") for w in warnings), warnings


def _practice_turning() -> None:
    import streamlit as st
    from ui_camera_stand_in import stand_in_camera

    from trainer.ui.views import practice
    from trainer.ui.watcher import FrameReport, SignWatcher

    def make_watcher() -> SignWatcher:
        watcher = SignWatcher(lambda profile: None, None)
        watcher.reports.put(FrameReport(5.0, (), (), True, 0, 80, 25.0, head_turning=True))
        return watcher

    stand_in_camera(make_watcher)
    st.session_state["practice_started"] = None
    practice.show()


def test_practice_says_when_the_head_turns_too_fast_for_a_face_sign():
    def notes(script):
        return [c.value for c in _run(script).caption if "head is turning" in c.value]

    assert notes(_practice_turning) == ["Your head is turning: a face sign begins once your head is still."]
    assert notes(_practice_script) == []
