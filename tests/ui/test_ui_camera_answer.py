"""The quiz's camera answer (trainer.ui.camera_answer): only a sign begun after the question, once
the person is ready (a relaxed face held, or "show me"), answers it; nothing while the camera is
stopped."""

from __future__ import annotations

from trainer.signals.gestures import Gesture, GestureEvent
from trainer.ui import camera_answer as ca

FRAME = 1 / 15


def _frames(state, start: float, end: float, *, neutral: bool):
    t = start
    while t <= end + 1e-9:
        state = ca.on_frame(state, t, neutral=neutral)
        t += FRAME
    return state


def _open(start: float) -> GestureEvent:
    return GestureEvent(Gesture.MOUTH_OPEN, start=start, end=start + 0.13, confidence=0.9)


def test_a_sign_queued_from_before_the_question_never_answers_it():
    # The watcher's queue still holds frames and the sign of the last feedback's reading time.
    state = ca.ask(after=10.0)
    state = _frames(state, 8.0, 10.0, neutral=True)  # analysed before the question showed
    assert not state.ready
    assert ca.answer(state, _open(9.2)) is None


def test_the_camera_waits_for_a_relaxed_face_then_takes_the_first_sign_begun_after_it():
    state = ca.ask(after=10.0)
    state = _frames(state, 10.05, 10.3, neutral=True)
    assert not state.ready, "ready before the face was relaxed for NEUTRAL_S"
    state = _frames(state, 10.3 + FRAME, 10.1 + ca.NEUTRAL_S + 2 * FRAME, neutral=True)
    assert state.ready and state.ready_at >= 10.05 + ca.NEUTRAL_S - 1e-9
    assert ca.answer(state, _open(state.ready_at - 0.2)) is None, "a sign already held when ready"
    later = _open(state.ready_at + 0.4)
    assert ca.answer(state, later) is later


def test_a_sign_breaks_the_relaxed_face_so_holding_one_never_makes_the_camera_ready():
    state = ca.ask(after=0.0)
    for i in range(60):  # four seconds: relaxed 0.3 s, a sign 0.2 s, and again
        state = ca.on_frame(state, FRAME * (i + 1), neutral=(i % 8) < 5)
    assert not state.ready


def test_show_me_makes_the_camera_ready_at_the_next_frame_even_without_a_relaxed_face():
    state = ca.show_me(ca.ask(after=5.0))
    state = ca.on_frame(state, 4.9, neutral=False)  # an old frame: not "the next"
    assert not state.ready
    state = ca.on_frame(state, 5.1, neutral=False)
    assert state.ready_at == 5.1
    assert ca.answer(state, _open(5.2)) is not None


def test_a_stopped_camera_forgets_the_ready_moment():
    state = _frames(ca.ask(after=0.0), FRAME, 1.0, neutral=True)
    assert state.ready
    state = ca.stopped(state)
    assert not state.ready and ca.answer(state, _open(2.0)) is None


def test_relaxed_means_a_face_and_every_score_under_its_threshold():
    scores = ((Gesture.BROWS_UP, 0.3), (Gesture.MOUTH_OPEN, 0.55))
    assert not ca.relaxed(scores, ((Gesture.MOUTH_OPEN, 0.5),), face_found=True)
    assert ca.relaxed(scores, ((Gesture.MOUTH_OPEN, 0.6),), face_found=True)
    assert not ca.relaxed(((Gesture.BROWS_UP, 0.1),), (), face_found=False)
