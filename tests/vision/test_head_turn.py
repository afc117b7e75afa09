"""A face sign is made with the head steady (``RecognizerConfig.head_moving_speed``): while the head
turns faster than that, no face sign begins and a pending one waits; a sign already reported goes on,
and the hands are not the head's business."""

from __future__ import annotations

from pathlib import Path

import pytest

from trainer.signals.gestures import Gesture
from trainer.vision.recognizer import HEAD_MOVING_SPEED, Recognizer, RecognizerConfig
from trainer.vision.types import FaceReading, FrameScores

REPO = Path(__file__).resolve().parents[2]
FPS = 30.0
FAST = 2 * HEAD_MOVING_SPEED
"""A turn twice the limit (the shipped one: 90 degrees a second)."""


def _yaw(t: float, turn: tuple[float, float], speed: float) -> float:
    """A head that turns at ``speed`` degrees a second between ``turn[0]`` and ``turn[1]`` seconds."""
    start, end = turn
    return speed * (min(max(t, start), end) - start)


def _reported(gesture: Gesture, on: tuple[float, float], turn: tuple[float, float], speed: float,
              config: RecognizerConfig | None = None, axis: str = "head_yaw") -> list[tuple[float, float, float]]:
    """(reported at, start, end) of each event of ``gesture``, shown at 0.9 during ``on``, the head
    turning about ``axis``."""
    recognizer = Recognizer(config)
    reported: dict[float, float] = {}
    events = []
    for i in range(int(4.0 * FPS)):
        t = i / FPS
        score = 0.9 if on[0] <= t < on[1] else 0.0
        pose = {"head_yaw": 0.0, "head_roll": 0.0, "head_pitch": 0.0, axis: _yaw(t, turn, speed)}
        frame = FrameScores(t, {gesture: score}, {}, face=FaceReading({}, pose), mouth_activity=0.0)
        update = recognizer.update(frame)
        reported.update((e.start, t) for e in update.started if e.gesture is gesture)
        events += [e for e in update.finished if e.gesture is gesture]
    events += [e for e in recognizer.flush() if e.gesture is gesture]
    return [(reported[e.start], e.start, e.end) for e in events]


@pytest.mark.parametrize("axis", ["head_yaw", "head_pitch", "head_roll"])
def test_a_face_sign_made_while_the_head_turns_begins_once_the_head_is_steady(axis):
    # Brows raised from 0.5 s to 3 s while the head turns (nods, rolls) fast until 1.5 s.
    (turning,) = _reported(Gesture.BROWS_UP, (0.5, 3.0), (0.3, 1.5), FAST, axis=axis)
    (steady,) = _reported(Gesture.BROWS_UP, (0.5, 3.0), (0.3, 1.5), FAST, RecognizerConfig(head_moving_speed=None),
                          axis=axis)
    assert steady[0] < 0.8  # its usual hold after 0.5 s
    # The window (300 ms) sees the turn until 1.65 s: begun on the first steady frame, held as usual.
    assert 1.65 <= turning[1] < 1.65 + 2 / FPS and turning[0] - turning[1] < 0.2
    assert turning[2] == pytest.approx(steady[2])


def test_a_sign_pending_when_the_head_starts_to_turn_starts_again_once_it_is_steady():
    # A wink (hold 200 ms) from 0.5 s; the head turns at four times the limit from 0.5 to 1.0 s, seen
    # as a turn from 0.575 s (before the hold ends) to 1.225 s.
    (wink,) = _reported(Gesture.WINK, (0.5, 3.0), (0.5, 1.0), 4 * HEAD_MOVING_SPEED)
    assert 1.225 <= wink[1] < 1.225 + 2 / FPS and wink[0] >= wink[1] + 0.2


def test_a_slow_turn_is_not_a_turn():
    slow = _reported(Gesture.BROWS_UP, (0.5, 3.0), (0.3, 1.5), 0.5 * HEAD_MOVING_SPEED)
    assert [r[1] for r in slow] == [r[1] for r in _reported(Gesture.BROWS_UP, (0.5, 3.0), (0.3, 1.5), 0.0)]


def test_a_sign_already_reported_goes_on_while_the_head_turns():
    # Brows raised with the head steady at 0.2 s; the head turns from 1.0 to 1.8 s: one event, whole.
    assert [(round(s, 2), round(e, 2)) for _, s, e in _reported(Gesture.BROWS_UP, (0.2, 2.5), (1.0, 1.8), FAST)] \
        == [(0.2, 2.5)]


def test_a_sign_brief_as_the_turn_is_not_a_sign():
    # A wink of 0.4 s made entirely while the head turns fast (a speaker looking round) is no event.
    assert _reported(Gesture.WINK, (1.0, 1.4), (0.5, 2.0), FAST) == []
    assert len(_reported(Gesture.WINK, (1.0, 1.4), (0.5, 2.0), FAST, RecognizerConfig(head_moving_speed=None))) == 1


def test_the_hands_are_not_held_back_by_the_head():
    config = RecognizerConfig(head_moving_speed=None)
    assert _reported(Gesture.THUMB, (0.5, 2.0), (0.3, 1.5), FAST) == _reported(Gesture.THUMB, (0.5, 2.0), (0.3, 1.5),
                                                                               FAST, config)


def _events(stream: str, speed: float | None) -> list[tuple[str, float, float]]:
    from trainer.vision.pipeline import Pipeline, PipelineOptions
    from trainer.vision.streams import load_stream, replay_events

    options = PipelineOptions(recognizer=RecognizerConfig(head_moving_speed=speed))
    events = replay_events(load_stream(REPO / "samples" / f"streams_{stream}.npz"), Pipeline(options))
    return [(e.gesture.value, round(e.start, 2), round(e.end, 2)) for e in events]


def test_lips_pressed_while_the_head_turns_are_no_sign():
    """talking/lia_vox_driving3 (samples/streams_lia_vox_driving3_talking.npz, a man talking): at 14.0 s
    he presses his lips for 2 s while turning his head, read as a lip bite (mordienne in the classic
    convention). With the steady-head rule, no event there; without it, the lip bite."""
    def bites(speed):
        return [e for e in _events("lia_vox_driving3_talking", speed) if e[0] == "lip_bite" and 13.5 <= e[1] <= 16.5]

    assert bites(HEAD_MOVING_SPEED) == []
    assert bites(None) != []


def test_signs_made_with_a_turn_of_the_head_are_kept():
    """sequence/lp_d3 (samples/streams_lp_d3.npz): her first wink (0.17-0.72 s) and her surprised brows
    (9.55-11.8 s) come with a turn of her head at 35-55 degrees a second. The shipped limit keeps both;
    30 degrees a second, the leave-one-person-out pick on the held-out replays (which miss that wink
    anyway), loses both."""
    def kept(speed):
        events = _events("lp_d3", speed)
        return (any(g == "wink" and s < 0.72 + 0.3 and e > 0.17 for g, s, e in events),
                any(g == "brows_up" and s < 11.8 and e > 9.55 for g, s, e in events))

    assert kept(HEAD_MOVING_SPEED) == (True, True)
    assert kept(30.0) == (False, False)
