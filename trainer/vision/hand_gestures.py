"""Hand gesture scores: the static finger signs (thumb, pinky, index, index+middle, ring) from one
frame, and the dynamic ``writing`` mime from a short history of the hand's motion.

A static sign is a fuzzy AND over the fingers: each finger that must be out contributes its
extension, each finger that must be folded contributes 1 - extension, and the score is the minimum.
Because every extension ramp crosses 0.5 at its decision point, a score above 0.5 means every finger
is on the right side of its boundary, matching FrameScores' "0.5 is the threshold" contract. Open
palm, fist, call, rock, four, O-shape... then never score above 0.5 because at least one finger
is on the wrong side.

The writing mime (no real example exists in ../shared/gestures) is recognised from motion: thumb and
index pinched like holding a pen, while the pinch point makes small up-and-down strokes (toward the
table and back) at handwriting rates, typically drifting sideways. A pinched hand held still, a big
sweep, or an open hand waving do not count.

Must not import the rules engine, bots, quiz or UI.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from trainer.signals.gestures import Gesture, Side
from trainer.vision.hand_features import HandFeatures, ramp

# Which fingers must be out (True) or folded (False) for each static sign; thumb, index, middle,
# ring, pinky.
STATIC_SHAPES: dict[Gesture, tuple[bool, bool, bool, bool, bool]] = {
    Gesture.THUMB: (True, False, False, False, False),
    Gesture.INDEX: (False, True, False, False, False),
    Gesture.INDEX_MIDDLE: (False, True, True, False, False),
    Gesture.RING: (False, False, False, True, False),
    Gesture.PINKY: (False, False, False, False, True),
}
HAND_GESTURES = (*STATIC_SHAPES, Gesture.WRITING)


SHOWN_RAMP = (0.4, 0.9)
"""A finger that *makes* the sign must be clearly out: its extension is re-mapped so that 0.65 is the
boundary (the half-curled little finger of a 'grip' pinch reaches 0.52; a shown finger is 0.9-1)."""


def shape_score(features: HandFeatures, shape: tuple[bool, ...]) -> float:
    """Fuzzy AND of the fingers' states for one shape (0..1, 0.5 = boundary)."""
    return min(
        ramp(e, *SHOWN_RAMP) if want else 1.0 - e for e, want in zip(features.extension, shape, strict=False)
    )


def score_hand(features: HandFeatures) -> dict[Gesture, float]:
    """Static sign scores of one hand."""
    return {gesture: round(shape_score(features, shape), 4) for gesture, shape in STATIC_SHAPES.items()}


def open_palm_score(features: HandFeatures) -> float:
    """Diagnostic (not a sign): the four fingers out (the thumb of a flat 'stop' hand lies close
    to the index, so it is not required)."""
    return min(ramp(e, *SHOWN_RAMP) for e in features.extension[1:])


def fist_score(features: HandFeatures) -> float:
    """Diagnostic (not a sign): all five fingers folded."""
    return shape_score(features, (False, False, False, False, False))


@dataclass(frozen=True, slots=True)
class WritingConfig:
    """The writing mime, in seconds and hand sizes."""

    window: float = 1.2
    """History looked at, seconds."""
    min_span: float = 0.5
    """The history must cover at least this long before writing can score."""
    gap_reset: float = 0.3
    """A hand unseen for longer starts a new history."""
    pinch_ramp: tuple[float, float] = (0.55, 0.35)
    """Thumb-index tip distance (hand sizes) scoring 0 and 1 for 'pinched'."""
    pen_ramp: tuple[float, float] = (0.6, 0.8)
    """Index tip to palm centre (hand sizes) scoring 0 and 1 for 'holding a pen' rather than a fist
    whose thumb rests on the index."""
    stroke_min: float = 0.08
    """A stroke must move the pen at least this far (hand sizes) before it reverses."""
    reversals_ramp: tuple[float, float] = (2.0, 4.0)
    """Direction reversals of the vertical motion within the window scoring 0 and 1."""
    amplitude_ramp: tuple[float, float] = (0.05, 0.12)
    """Peak-to-peak vertical travel (hand sizes, after removing the drift) scoring 0 and 1."""
    max_amplitude: tuple[float, float] = (1.0, 1.6)
    """Travel above this is waving, not writing (scores fall from 1 to 0 across the range)."""
    lateral_ratio: tuple[float, float] = (2.0, 4.0)
    """Sideways back-and-forth travel over the vertical travel (both after removing the drift)
    above which the motion is a wave, not pen strokes (scores fall from 1 to 0)."""


def count_reversals(values: np.ndarray | Sequence[float], min_move: float) -> int:
    """Direction changes of a 1-D path, ignoring wiggles smaller than ``min_move`` (a zigzag filter)."""
    if len(values) < 3:
        return 0
    reversals, direction = 0, 0
    low = high = extreme = float(values[0])
    for value in values[1:]:
        v = float(value)
        if direction == 0:
            low, high = min(low, v), max(high, v)
            if v - low >= min_move:
                direction, extreme = 1, v
            elif high - v >= min_move:
                direction, extreme = -1, v
        elif direction > 0:
            if v > extreme:
                extreme = v
            elif extreme - v >= min_move:
                reversals, direction, extreme = reversals + 1, -1, v
        else:
            if v < extreme:
                extreme = v
            elif v - extreme >= min_move:
                reversals, direction, extreme = reversals + 1, 1, v
    return reversals


class WritingTracker:
    """Per-hand motion history and the writing score. Not thread-safe: one per pipeline."""

    def __init__(self, config: WritingConfig | None = None) -> None:
        self.config = config or WritingConfig()
        self._history: dict[Side, deque[tuple[float, float, float, float, float]]] = {
            Side.LEFT: deque(),
            Side.RIGHT: deque(),
        }

    def reset(self) -> None:
        for history in self._history.values():
            history.clear()

    def update(self, timestamp: float, hands: dict[Side, HandFeatures]) -> dict[Side, float]:
        """Add this frame's hands; returns the writing score per side seen in the frame."""
        cfg = self.config
        scores: dict[Side, float] = {}
        for side, history in self._history.items():
            if history and timestamp - history[-1][0] > cfg.gap_reset:
                history.clear()
            feats = hands.get(side)
            if feats is None:
                continue
            grip = min(ramp(feats.pinch, *cfg.pinch_ramp), ramp(feats.index_reach, *cfg.pen_ramp))
            history.append((timestamp, float(feats.pinch_point[0]), float(feats.pinch_point[1]),
                            feats.size, grip))
            while history and timestamp - history[0][0] > cfg.window:
                history.popleft()
            scores[side] = self._score(history)
        return scores

    def _score(self, history: deque) -> float:
        cfg = self.config
        if len(history) < 5 or history[-1][0] - history[0][0] < cfg.min_span:
            return 0.0
        data = np.array(history, dtype=np.float64)
        t, x, y, size, grip = data[:, 0], data[:, 1], data[:, 2], data[:, 3], data[:, 4]
        unit = float(np.median(size))
        pinched = float(np.mean(grip))
        # Remove the slow drift (a line written across the page) before measuring the strokes.
        y_rel = (y - np.polyval(np.polyfit(t - t[0], y, 1), t - t[0])) / unit
        travel = float(np.ptp(y_rel))
        amplitude = ramp(travel, *cfg.amplitude_ramp) * (1.0 - ramp(travel, *cfg.max_amplitude))
        strokes = ramp(count_reversals(y_rel, cfg.stroke_min), *cfg.reversals_ramp)
        x_rel = (x - np.polyval(np.polyfit(t - t[0], x, 1), t - t[0])) / unit
        lateral = 1.0 - ramp(float(np.ptp(x_rel)) / max(travel, 1e-6), *cfg.lateral_ratio)
        return round(min(pinched, amplitude, strokes, lateral), 4)


MOUTH_RAMP = (0.45, 0.25)
"""Distance of the nearest extended fingertip to the mouth centre, in face widths, scoring 0 and 1
for 'finger on the lips' (HaGRID 'mute': the index touches the lips at about 0.1 face widths)."""


def finger_on_mouth(features: HandFeatures, mouth: tuple[float, float], face_width: float) -> float:
    """0..1: a shown finger (index or middle) rests on the lips."""
    best = 0.0
    for finger in (1, 2):
        if features.extension[finger] < 0.5:
            continue
        distance = float(np.linalg.norm(features.tip_points[finger] - np.asarray(mouth))) / face_width
        best = max(best, ramp(distance, *MOUTH_RAMP))
    return best


@dataclass(frozen=True, slots=True)
class HandScores:
    """Scores of the hand signs in one frame: max over the hands, with the side of the best hand."""

    scores: dict[Gesture, float]
    sides: dict[Gesture, Side]
    features: dict[str, float]


class HandScorer:
    """Scores every hand sign for the hands of a frame (stateful because of the writing mime)."""

    def __init__(self, writing: WritingConfig | None = None) -> None:
        self.writing = WritingTracker(writing)

    def reset(self) -> None:
        self.writing.reset()

    def score(
        self,
        timestamp: float,
        hands: list[HandFeatures] | tuple[HandFeatures, ...],
        mouth: tuple[float, float] | None = None,
        face_width: float | None = None,
    ) -> HandScores:
        """``mouth`` (pixels) and ``face_width`` (pixels), when a face is seen, let a finger laid on
        the lips ('shh', HaGRID 'mute') not count as the index sign."""
        scores = {gesture: 0.0 for gesture in HAND_GESTURES}
        sides: dict[Gesture, Side] = {}
        features: dict[str, float] = {}
        by_side: dict[Side, HandFeatures] = {}
        for feats in hands:
            # Two hands labelled the same side (two people, or a tracker slip): keep the larger.
            if feats.side not in by_side or feats.size > by_side[feats.side].size:
                by_side[feats.side] = feats
        for side, feats in by_side.items():
            features.update(feats.as_dict(f"hand_{side.value}"))
            features[f"hand_{side.value}_open_palm"] = round(open_palm_score(feats), 4)
            features[f"hand_{side.value}_fist"] = round(fist_score(feats), 4)
            static = score_hand(feats)
            if mouth is not None and face_width:
                near = finger_on_mouth(feats, mouth, face_width)
                features[f"hand_{side.value}_on_mouth"] = round(near, 4)
                static = {g: round(v * (1.0 - near), 4) for g, v in static.items()}
            for gesture, value in static.items():
                if value > scores[gesture]:
                    scores[gesture], sides[gesture] = value, side
        # Extra hands beyond one per side still count for the static signs (e.g. two people).
        for feats in hands:
            if by_side.get(feats.side) is feats:
                continue
            for gesture, value in score_hand(feats).items():
                if value > scores[gesture]:
                    scores[gesture], sides[gesture] = value, feats.side
        for side, value in self.writing.update(timestamp, by_side).items():
            features[f"hand_{side.value}_writing"] = value
            if value > scores[Gesture.WRITING]:
                scores[Gesture.WRITING], sides[Gesture.WRITING] = value, side
        return HandScores(scores=scores, sides=sides, features=features)
