"""The shrug, from MediaPipe Pose: how high each shoulder sits under its ear.

Feature per side: ``shoulder_drop`` = vertical distance from the ear down to the shoulder, divided by
the shoulder width (scale-free). A shoulder raised toward the ear makes it smaller.

Measured with our tracker on ../shared/gestures (gym photos, paired with the same person relaxed):
relaxed pairs read 0.61-0.81, shrugged 0.36-0.72, and each shrug is 12-37 % below its own relaxed
photo; but close-up webcam-style neutral faces already read 0.48-0.66, because the shoulders sit at
the frame's edge. So the score is **relative to a baseline** whenever one exists: the user's
calibrated profile (features ``shoulder_drop_left/right``), else the running median of this stream's
last seconds. Only a single still with no baseline falls back to a conservative population threshold
(0.50), which misses mild shrugs rather than firing on every close-up.

Both shoulders raised, or one raised relative to the other (the table's one-shoulder shrug), count;
the side is the shoulder raised more (subject's own side; Pose already labels them so).

Must not import the rules engine, bots, quiz or UI.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from trainer.signals.gestures import Side
from trainer.vision.hand_features import ramp

LEFT_EAR, RIGHT_EAR, LEFT_SHOULDER, RIGHT_SHOULDER = 7, 8, 11, 12


@dataclass(frozen=True, slots=True)
class BodyConfig:
    min_visibility: float = 0.5
    """Pose points less visible than this (shoulders out of frame) give no shrug score."""
    population_drop: float = 0.50
    """Without a baseline: mean shoulder_drop at which the score crosses 0.5."""
    population_span: float = 0.08
    """... and how much lower gives a score of 1."""
    relative_drop: float = 0.10
    """With a baseline: fractional drop of a shoulder (or both) that crosses 0.5 (relaxed-to-shrug
    pairs drop 0.12-0.37)."""
    asymmetry: float = 0.08
    """With a baseline: one shoulder this much (shoulder widths) higher than the other, beyond the
    baseline's own asymmetry, crosses 0.5."""
    baseline_window: float = 10.0
    """Seconds of history whose median is the running baseline."""
    baseline_min_span: float = 1.0
    """History needed before the running baseline is trusted."""


@dataclass(frozen=True, slots=True)
class ShrugReading:
    score: float
    side: Side | None
    features: dict[str, float]


def shoulder_features(pose: np.ndarray | None, min_visibility: float = 0.5) -> dict[str, float]:
    """``shoulder_drop_left/right`` (and their mean, asymmetry) from 33 x 4 pose points, or {}."""
    if pose is None:
        return {}
    p = np.asarray(pose, dtype=np.float64)
    if p.shape[0] < 33:
        return {}
    if p.shape[1] >= 4 and min(p[i, 3] for i in (LEFT_EAR, RIGHT_EAR, LEFT_SHOULDER, RIGHT_SHOULDER)) < min_visibility:
        return {}
    width = float(np.linalg.norm(p[LEFT_SHOULDER, :2] - p[RIGHT_SHOULDER, :2]))
    if width < 1e-6:
        return {}
    left = float(p[LEFT_SHOULDER, 1] - p[LEFT_EAR, 1]) / width
    right = float(p[RIGHT_SHOULDER, 1] - p[RIGHT_EAR, 1]) / width
    return {
        "shoulder_drop_left": round(left, 4),
        "shoulder_drop_right": round(right, 4),
        "shoulder_drop": round((left + right) / 2, 4),
        "shoulder_asymmetry": round(left - right, 4),
    }


def score_shrug(
    features: dict[str, float],
    baseline: tuple[float, float] | None = None,
    config: BodyConfig | None = None,
) -> tuple[float, Side | None]:
    """Shrug score (0..1, 0.5 = threshold) and the raised side; ``baseline`` is the relaxed
    (left, right) shoulder_drop of this person, if known."""
    cfg = config or BodyConfig()
    if "shoulder_drop_left" not in features:
        return 0.0, None
    left, right = features["shoulder_drop_left"], features["shoulder_drop_right"]
    side = Side.LEFT if left < right else Side.RIGHT
    if baseline is None:
        mean = (left + right) / 2
        low = cfg.population_drop - cfg.population_span
        # 0 at population_drop + span, 0.5 at population_drop, 1 at population_drop - span.
        return round(ramp(-mean, -(cfg.population_drop + cfg.population_span), -low), 4), side
    base_left, base_right = baseline
    drops = [
        (base - now) / base if base > 1e-6 else 0.0 for base, now in ((base_left, left), (base_right, right))
    ]
    lift = max(drops)  # one shoulder or both: the shoulder raised most decides
    both_or_one = ramp(lift, 0.0, 2 * cfg.relative_drop)
    skew = abs((left - right) - (base_left - base_right))
    one_sided = ramp(skew, 0.0, 2 * cfg.asymmetry)
    side = Side.LEFT if drops[0] >= drops[1] else Side.RIGHT
    return round(max(both_or_one, one_sided) if lift > 0 else 0.0, 4), side


class BodyScorer:
    """Shrug scores over a stream, with a running baseline (or a calibrated one)."""

    def __init__(self, config: BodyConfig | None = None, baseline: tuple[float, float] | None = None) -> None:
        self.config = config or BodyConfig()
        self.fixed_baseline = baseline
        self._history: deque[tuple[float, float, float]] = deque()

    def reset(self) -> None:
        self._history.clear()

    def baseline(self) -> tuple[float, float] | None:
        if self.fixed_baseline is not None:
            return self.fixed_baseline
        if not self._history or self._history[-1][0] - self._history[0][0] < self.config.baseline_min_span:
            return None
        data = np.array(self._history)
        return float(np.median(data[:, 1])), float(np.median(data[:, 2]))

    def update(self, timestamp: float, pose: np.ndarray | None) -> ShrugReading:
        features = shoulder_features(pose, self.config.min_visibility)
        if not features:
            return ShrugReading(0.0, None, {})
        baseline = self.baseline()
        score, side = score_shrug(features, baseline, self.config)
        # Once a baseline exists only relaxed frames feed it, so a held shrug does not become
        # 'normal'; the first second is taken as the person's relaxed posture.
        if baseline is None or score < 0.5:
            self._history.append((timestamp, features["shoulder_drop_left"], features["shoulder_drop_right"]))
        while self._history and timestamp - self._history[0][0] > self.config.baseline_window:
            self._history.popleft()
        features = dict(features)
        features["shrug"] = score
        return ShrugReading(score, side, features)
