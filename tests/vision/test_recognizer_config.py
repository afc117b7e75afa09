"""The recognizer's timing table at its limits and a reset that keeps the configuration: constructed
score streams, no footage (the real clips are in test_runtime_recognizer.py)."""

from __future__ import annotations

import pytest

from trainer.signals.gestures import Gesture
from trainer.vision.recognizer import GestureTiming, Recognizer, RecognizerConfig, with_timing
from trainer.vision.types import FaceReading, FrameScores


def _frame(t: float, score: float = 0.0) -> FrameScores:
    return FrameScores(t, {Gesture.BROWS_UP: score}, {}, face=FaceReading({}, {}), mouth_activity=0.0)


@pytest.mark.parametrize(
    ("enter", "exit_"),
    [(0.5, 0.0), (0.5, 0.5), (1.0, 0.4), (1.0, 1.0), (0.0, 0.0)],
)
def test_thresholds_may_touch_each_other_and_the_ends_of_the_scale(enter, exit_):
    timing = GestureTiming(enter=enter, exit=exit_)
    assert (timing.enter, timing.exit) == (enter, exit_)


@pytest.mark.parametrize(("enter", "exit_"), [(0.4, 0.5), (1.01, 0.4), (0.5, -0.01)])
def test_thresholds_out_of_order_or_off_the_scale_are_refused_with_their_values(enter, exit_):
    with pytest.raises(ValueError) as raised:
        GestureTiming(enter=enter, exit=exit_)
    assert str(raised.value) == f"need 0 <= exit ({exit_}) <= enter ({enter}) <= 1"


@pytest.mark.parametrize("name", ["hold_ms", "release_ms", "min_closure_ms", "refractory_ms"])
def test_a_negative_time_is_refused_by_name(name):
    with pytest.raises(ValueError) as raised:
        GestureTiming(**{name: -1.0})
    assert str(raised.value) == f"{name}=-1.0 must be >= 0 ms"
    assert getattr(GestureTiming(**{name: 0.0}), name) == 0.0


def _starts(recognizer: Recognizer, t0: float, seconds: float, score: float) -> list:
    """Frames at 30 fps from ``t0`` with ``score``; the events reported as started."""
    started = []
    for i in range(round(seconds * 30)):
        started += recognizer.update(_frame(t0 + i / 30, score)).started
    return started


def test_reset_forgets_the_stream_but_keeps_the_configuration():
    slow = with_timing(RecognizerConfig(), Gesture.BROWS_UP, hold_ms=700.0)
    recognizer = Recognizer(slow)
    assert _starts(recognizer, 0.0, 1.5, 0.0) == []  # a still face: the talking detector warms up
    held = _starts(recognizer, 1.5, 0.5, 0.9)
    assert held == []  # 0.5 s is shorter than this configuration's hold
    recognizer.reset()
    assert recognizer.live().active == {} and recognizer.config is slow
    # a new stream may start at 0 again; its brows must still be held 0.7 s
    assert _starts(recognizer, 0.0, 1.5, 0.0) == []
    assert _starts(recognizer, 1.5, 0.5, 0.9) == []
    late = _starts(recognizer, 2.0, 0.4, 0.9)
    assert [e.gesture for e in late] == [Gesture.BROWS_UP]
    assert late[0].start == pytest.approx(1.5)


def test_a_gesture_still_held_at_the_end_of_the_stream_ends_at_the_last_frame():
    recognizer = Recognizer()
    _starts(recognizer, 0.0, 1.5, 0.0)
    started = _starts(recognizer, 1.5, 1.0, 0.9)  # held to the last frame, at 2.4667 s
    assert [e.gesture for e in started] == [Gesture.BROWS_UP]
    [event] = recognizer.flush()
    assert event.start == pytest.approx(1.5)
    assert event.end == pytest.approx(1.5 + 29 / 30)
    assert recognizer.flush() == []  # nothing left open


def test_a_gesture_released_just_before_the_end_ends_when_it_fell():
    recognizer = Recognizer()
    _starts(recognizer, 0.0, 1.5, 0.0)
    _starts(recognizer, 1.5, 0.5, 0.9)  # held 1.5-1.9667 s
    _starts(recognizer, 2.0, 0.2, 0.0)  # fell at 2.0 s, within the release time when the stream ends
    [event] = recognizer.flush()
    assert event.gesture is Gesture.BROWS_UP
    assert (event.start, event.end) == (pytest.approx(1.5), pytest.approx(2.0))
