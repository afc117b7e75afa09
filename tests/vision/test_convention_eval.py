"""Each convention's false signs on talking clips, and what its holds cost (constructed events)."""

from __future__ import annotations

from trainer.lab.clip_eval import ClipSpan, SpanKind
from trainer.lab.convention_eval import false_signs, held_signs_lost
from trainer.signals.conventions import CAMERA_FRIENDLY, CLASSIC, REGIONAL
from trainer.signals.gestures import Gesture, GestureEvent


def _e(gesture: Gesture, start: float, seconds: float) -> GestureEvent:
    return GestureEvent(gesture, start, start + seconds, count=1, confidence=0.9)


TALK = [
    ("talking/a.mp4", 30.0,
     (_e(Gesture.GRIMACE, 1.0, 0.6), _e(Gesture.HEAD_TILT, 5.0, 0.4), _e(Gesture.POUT, 9.0, 0.3))),
    ("talking/b.mp4", 30.0, (_e(Gesture.GRIMACE, 2.0, 1.4), _e(Gesture.THUMB, 4.0, 2.0))),
]
PEOPLE = {"talking/a.mp4": "a", "talking/b.mp4": "b"}


def test_each_convention_counts_the_signs_it_would_send_from_talking():
    classic = false_signs(CLASSIC, TALK, PEOPLE)  # pout (la Vache) and thumb (Grand Neuf); no grimace sign
    assert (classic.signs, classic.minutes, classic.clips, classic.people) == (2, 1.0, 2, 2)
    assert classic.per_minute == 2.0 and dict(classic.by_sign) == {"vache": 1, "grand_neuf": 1}
    camera = false_signs(CAMERA_FRIENDLY, TALK, PEOPLE)  # the short grimace is not held 1 s: one misère
    assert dict(camera.by_sign) == {"vache": 1, "grand_neuf": 1, "misere": 1}
    regional = false_signs(REGIONAL, TALK, PEOPLE)  # the 0.4 s tilt is held too short to be Madame
    assert "madame" not in dict(regional.by_sign) and dict(regional.by_sign)["misere"] == 1
    assert "false signs/min" in camera.line()


def test_the_real_signs_a_hold_would_lose():
    spans = [ClipSpan("sequence/x.mp4", Gesture.GRIMACE, "-", 1.0, 1.5, SpanKind.SIGN, "x"),
             ClipSpan("sequence/x.mp4", Gesture.HEAD_TILT, "-", 3.0, 5.0, SpanKind.SIGN, "x")]
    clips = [("sequence/x.mp4", (_e(Gesture.GRIMACE, 1.0, 0.5), _e(Gesture.HEAD_TILT, 3.0, 2.0)))]
    lost = held_signs_lost(CAMERA_FRIENDLY, clips, spans)
    assert [(s.gesture, round(d, 2)) for _, s, d in lost] == [(Gesture.GRIMACE, 0.5)]
    assert held_signs_lost(CLASSIC, clips, spans) == []
    assert len(held_signs_lost(REGIONAL, clips, spans)) == 1  # the 2 s tilt is held long enough
