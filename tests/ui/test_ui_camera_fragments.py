"""The camera fragments of Play and Practice under AppTest, with a live camera stood in for by a real
SignWatcher whose queue holds the reports a stream would bring (AppTest cannot run the WebRTC widget).

What they guard: the camera path hands signs to the page through session state and draws inside its
own fragment; it never reruns the whole page (a script-initiated rerun is what tore the stream down
after every sign). Each script counts its full runs."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

pytestmark = pytest.mark.vision


@pytest.fixture()
def camera_page(data_home):
    """Run an AppTest script that stands in for the camera (``ui_camera_stand_in``): no exception,
    and ``runs`` full runs (1: the camera path never reran the whole page)."""
    def run(script, runs: int = 1) -> AppTest:
        at = AppTest.from_function(script, default_timeout=120).run()
        assert not at.exception, at.exception
        assert at.session_state["runs"] == runs, f"{at.session_state['runs']} full runs, expected {runs}"
        return at
    return run


def _play_script() -> None:
    import streamlit as st
    from ui_camera_stand_in import stand_in_camera

    from trainer.rules.cards import ACES
    from trainer.signals.gestures import Gesture, GestureEvent
    from trainer.ui.game_session import HUMAN_SEAT, GameSession
    from trainer.ui.views import play_camera
    from trainer.ui.watcher import GestureReport, SignWatcher

    def make_watcher() -> SignWatcher:
        seed = next(s for s in range(500) if sum(
            c in ACES for c in GameSession.start("vendee", "classic", s).table.view(HUMAN_SEAT).hand) == 1)
        st.session_state["session"] = GameSession.start("vendee", "classic", seed)
        watcher = SignWatcher(lambda profile: None, None)
        mouth = GestureEvent(Gesture.MOUTH_OPEN, start=2.0, end=3.0, confidence=0.9)
        watcher.reports.put(GestureReport(mouth, reported_at=2.2, final=False))
        watcher.reports.put(GestureReport(mouth, reported_at=3.6, final=True))
        return watcher

    stand_in_camera(make_watcher)
    session = st.session_state["session"]

    def send(signal, source, ago=None):
        session.sign(session.table.made(signal))
        return None

    play_camera.panel(st.session_state["settings"], session, send)


def test_a_camera_sign_on_play_reaches_the_partner_without_rerunning_the_page(camera_page):
    at = camera_page(_play_script)
    session = at.session_state["session"]
    assert [e.signal.sign.value for e in session.table.signs.events if e.seat == 0] == ["as"]
    assert any("received by your partner this deal: **1**" in m.value for m in at.markdown)
    assert any(c.value.startswith("✓ un as: received by your partner") for c in at.caption)


def _practice_script() -> None:
    import streamlit as st
    from ui_camera_stand_in import stand_in_camera

    from trainer.signals.gestures import Gesture, GestureEvent
    from trainer.signals.signs import Sign
    from trainer.ui import tries
    from trainer.ui.views import practice
    from trainer.ui.watcher import FrameReport, GestureReport, SignWatcher

    def make_watcher() -> SignWatcher:
        watcher = SignWatcher(lambda profile: None, None)
        watcher.reports.put(FrameReport(1.0, (), (), True, 0, 30, 30.0))
        blink = GestureEvent(Gesture.EYES_CLOSED, start=1.2, end=1.5, confidence=0.9)
        mouth = GestureEvent(Gesture.MOUTH_OPEN, start=2.0, end=2.8, confidence=0.9)
        watcher.reports.put(GestureReport(blink, reported_at=1.4, final=False))
        watcher.reports.put(GestureReport(mouth, reported_at=2.3, final=False))
        watcher.reports.put(GestureReport(blink, reported_at=2.5, final=True))
        watcher.reports.put(GestureReport(mouth, reported_at=3.4, final=True))
        st.session_state["practice_target"] = Sign.AS
        st.session_state["practice_try"] = tries.ask(Sign.AS, None)
        return watcher

    stand_in_camera(make_watcher)
    practice.show()


def test_a_practice_try_is_judged_in_the_camera_fragment_without_rerunning_the_page(camera_page):
    at = camera_page(_practice_script)
    (attempt,) = at.session_state["practice_log"]  # the blink was not a try
    assert attempt.success and attempt.detect_s == pytest.approx(1.3) and attempt.hold_s == pytest.approx(0.8)
    assert any(s.value.startswith("Seen: un as — recognised 1.30 s after it was asked, held 0.80 s")
               for s in at.success)
    # Signs seen, newest first, with when each began after the ask.
    seen = [m.value for m in at.markdown if m.value.startswith("- +")]
    assert [s.split(" · ")[0] for s in seen] == ["- +1.0 s", "- +0.2 s"]
    assert "ouvrir la bouche" in seen[0] and "fermer les deux yeux" in seen[1]
    assert not [s for s in seen if "mouth_open" in s or "eyes_closed" in s], seen


def _restart_script() -> None:
    import streamlit as st
    from ui_camera_stand_in import stand_in_camera

    from trainer.signals.gestures import Gesture, GestureEvent
    from trainer.signals.signs import Sign
    from trainer.ui.views import practice
    from trainer.ui.watcher import FrameReport, GestureReport, SignWatcher

    mouth = ((Gesture.MOUTH_OPEN, 0.9),)
    limit = ((Gesture.MOUTH_OPEN, 0.5),)

    def make_watcher() -> SignWatcher:
        watcher = SignWatcher(lambda profile: None, None)
        st.session_state["watcher"] = watcher
        settings = st.session_state["settings"]
        # The first stream: a mouth opened at 1.5 s, still open when the camera was stopped.
        left_open = GestureEvent(Gesture.MOUTH_OPEN, start=1.5, end=1.5, confidence=0.9)
        practice._take([FrameReport(1.9, mouth, limit, True, 0, 57, 30.0, stream_start=0.0),
                        GestureReport(left_open, reported_at=1.7, final=False)], settings)
        # START again, and un as is asked on the session clock's 1.9 s.
        watcher.latest_timestamp = 1.9
        practice._ask(Sign.AS)
        # The new stream begins one frame later with the mouth already open (the recognizer wants an
        # onset from a still face, so it reports nothing), then a sign made from 8.5 s to 9.3 s.
        start = 1.9 + 1 / 30
        for i in range(76):
            watcher.reports.put(FrameReport(start + 0.1 * i, mouth, limit, True, 0, i + 1, 10.0,
                                            stream_start=start))
        made = GestureEvent(Gesture.MOUTH_OPEN, start=8.5, end=9.3, confidence=0.9)
        watcher.reports.put(GestureReport(made, reported_at=8.7, final=False))
        watcher.reports.put(GestureReport(made, reported_at=9.4, final=True))
        return watcher

    stand_in_camera(make_watcher)
    practice.show()


def test_a_sign_left_open_by_a_stopped_stream_does_not_answer_the_next_ask(camera_page):
    # The first stream's open mouth never ends (its stream is gone): it is not "held at the ask" on
    # the new stream, whose own sign answers it, timed and with its hold.
    at = camera_page(_restart_script)
    (attempt,) = at.session_state["practice_log"]
    assert attempt.success
    assert attempt.detect_s == pytest.approx(6.8) and attempt.hold_s == pytest.approx(0.8)
    assert not at.session_state["practice_open"]


def _quiz_script(relaxed_first: bool = True) -> None:
    import time

    import streamlit as st
    from ui_camera_stand_in import stand_in_camera

    from trainer.signals.gestures import GestureEvent
    from trainer.ui.views import quiz
    from trainer.ui.watcher import FrameReport, GestureReport, SignWatcher

    def make_watcher() -> SignWatcher:
        import random

        from trainer.quiz.questions import make_question
        from trainer.signals.conventions import CLASSIC

        quiz._session(st.session_state["settings"])
        question = make_question("sign:borgne", random.Random(0), CLASSIC)  # card -> sign: a wink
        st.session_state["quiz_question"] = question
        st.session_state["quiz_asked_at"] = time.monotonic()
        watcher = SignWatcher(lambda profile: None, None)
        gesture = question.expected_gestures[0]
        # A relaxed face for 0.8 s of camera time (the camera is then ready), or the same frames with
        # the wink already over its threshold (never ready: the sign was not begun after a ready moment).
        for i in range(9):
            score = 0.1 if relaxed_first else 0.9
            watcher.reports.put(FrameReport(0.1 * i, ((gesture, score),), ((gesture, 0.5),), True, 0, i + 1, 10.0))
        made = GestureEvent(gesture, start=1.0, end=1.4, confidence=0.9)
        watcher.reports.put(GestureReport(made, reported_at=1.2, final=False))
        return watcher

    stand_in_camera(make_watcher)
    quiz.show()


def test_a_card_to_sign_question_is_answered_by_the_camera_then_the_page_runs_once(camera_page):
    # The fragment takes the answer; one full run then draws the feedback and its "Next question"
    # outside the fragment (a button inside it lost its click when a full run replaced the fragment).
    at = camera_page(_quiz_script, runs=2)
    assert at.session_state["quiz_feedback"].correct
    right = [s.value for s in at.success if s.value.startswith("Right!")]
    assert right and "Seen by the camera: cligner d'un œil — wink (one eye closed) → le Borgne" in right[0], right
    assert [b.label for b in at.button if b.key == "quiz_next"] == ["Next question"]
    assert all(b.disabled for b in at.button if b.key.startswith("quiz_choice_")), "a click could still answer"


def _quiz_script_without_a_ready_moment() -> None:
    from test_ui_camera_fragments import _quiz_script

    _quiz_script(relaxed_first=False)


def test_a_sign_the_camera_saw_before_the_face_was_ready_does_not_answer_the_quiz(camera_page):
    at = camera_page(_quiz_script_without_a_ready_moment)
    assert at.session_state["quiz_feedback"] is None
    assert any("waiting for a relaxed face" in c.value for c in at.caption)


def _calibration_script() -> None:
    import streamlit as st
    from ui_camera_stand_in import stand_in_camera

    from trainer.ui import persistence, recognition
    from trainer.ui.views import practice
    from trainer.ui.watcher import CalibrationProgress, SignWatcher

    def make_watcher() -> SignWatcher:
        # The camera's calibration just finished: its profile (here from a real neutral photo of
        # ../shared/gestures) arrives in the queue; the page saves it.
        from conftest import shared_dir

        from trainer.ui.fakecam import NEUTRAL_PHOTO

        profile = recognition.profile_from_file(shared_dir() / "gestures" / NEUTRAL_PHOTO, persistence.iso_now())
        watcher = SignWatcher(lambda profile: None, None)
        watcher.reports.put(CalibrationProgress(1.0, 90, profile=profile))
        st.session_state["calibration"] = CalibrationProgress(0.5, 45)
        return watcher

    stand_in_camera(make_watcher)
    practice.show()


def test_a_camera_calibration_once_done_is_said_once(data_home, shared):
    """"Not calibrated: population defaults are in use." stood beside "Calibrated from … and saved":
    the calibration's line now says its state once."""
    at = AppTest.from_function(_calibration_script, default_timeout=120).run()
    assert not at.exception, at.exception
    assert not [c.value for c in at.caption if c.value.startswith("Not calibrated")], [c.value for c in at.caption]
    done = [s.value for s in at.success if s.value.startswith("Calibrated")]
    assert len(done) == 1 and "and saved" in done[0], done
