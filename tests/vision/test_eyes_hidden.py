"""A hand in front of an eye hides it: the face model reads the fingers over it as a shut lid, so
the signs read from both eyes' closure (wink, eyes_closed) are muted there, as the mouth signs are
behind a hand over the mouth.

Replays samples/streams_mps_gesture_test_video_thumb.npz (landmarks, blendshapes and eye centres of
../shared/gestures/thumb/mps_gesture_test_video_thumb.mp4, by python -m trainer.lab.record_streams): she raises
her thumb in front of her eye from 2.2 s; live, the pipeline read a wink at 2.64-3.08 s there.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from trainer.signals.gestures import Gesture, Side
from trainer.vision.pipeline import HAND_OVER_EYE, Pipeline, PipelineOptions
from trainer.vision.streams import load_stream, replay_events
from trainer.vision.types import HandLandmarks

STREAM = Path(__file__).resolve().parents[2] / "samples" / "streams_mps_gesture_test_video_thumb.npz"


def _winks(stream) -> list[tuple[float, float]]:
    with Pipeline(PipelineOptions()) as pipe:
        events = replay_events(stream, pipe)
    return [(round(e.start, 2), round(e.end, 2)) for e in events if e.gesture in (Gesture.WINK, Gesture.EYES_CLOSED)]


def test_a_thumb_in_front_of_the_eye_is_not_a_wink():
    stream = load_stream(STREAM)
    assert all(f.eyes is not None for f in stream.frames if f.face is not None)
    assert _winks(stream) == []
    # The same frames without the eyes' positions: the thumb over her eye reads as a wink again.
    blind = replace(stream, frames=tuple(replace(f, eyes=None) for f in stream.frames))
    assert any(2.4 < start < 3.2 for start, _ in _winks(blind))


def test_the_thumb_hides_one_eye_and_lies_far_from_the_other():
    """The muting rests on a hand point lying on the eye, not near the face: while her wink read, the
    thumb's nearest point is within HAND_OVER_EYE face widths of one eye and far outside it for the
    other."""
    stream = load_stream(STREAM)
    frames = [f for f in stream.frames if 2.64 <= f.timestamp <= 3.08 and f.eyes and f.hands]
    assert len(frames) >= 5
    for frame in frames:
        near = [min(float(np.min(np.hypot(*(h.points[:, :2] - np.asarray(eye)).T))) for h in frame.hands)
                / frame.face_width for eye in frame.eyes]
        assert min(near) < HAND_OVER_EYE < 3 * HAND_OVER_EYE < max(near), near


def test_a_hand_beside_the_face_hides_no_eye():
    """A hand raised beside the head, half a face width from the nearer eye, leaves the eyes readable;
    the same hand moved onto the eye hides it."""
    stream = load_stream(STREAM)
    frame = next(f for f in stream.frames if f.eyes and f.face_width and not f.hands)
    (lx, ly), (rx, ry) = frame.eyes
    shape = np.array([[4.0 * i, 6.0 * i, 0.0] for i in range(21)])  # a hand-sized stroke of 21 points

    def hidden(x: float, y: float) -> bool:
        hand = HandLandmarks(shape + np.array([x, y, 0.0]), Side.LEFT)
        with Pipeline(PipelineOptions()) as pipe:
            return pipe.score_parts(1.0, frame.face, frame.mouth, frame.face_width, (hand,),
                                    blendshapes=frame.blendshapes, eyes=frame.eyes).eyes_hidden

    assert not hidden(max(lx, rx) + 0.5 * frame.face_width, ly)
    assert hidden(lx, ly)
