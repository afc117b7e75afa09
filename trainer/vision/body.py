"""The shrug, from MediaPipe Pose: how high each shoulder sits under its ear.

Feature per side: ``shoulder_drop`` = vertical distance from the ear down to the shoulder, divided by
the shoulder width (scale-free). A shoulder raised toward the ear makes it smaller.

Measured with our tracker on ../shared/gestures (gym photos, paired with the same person relaxed):
relaxed pairs read 0.58-0.78, shrugged 0.36-0.68, and each shrug is 12-37 % below its own relaxed
photo; six relaxed people in other photos (HaGRID, ASL) read 0.48-0.69. So the score is
**relative to a baseline** whenever one exists: the user's calibrated profile (features
``shoulder_drop_left/right``), else the running median of this stream's last seconds.

Only a single still with no baseline falls back to a conservative population threshold (0.50), and
only on a pose that shows a real upper body (``check_upper_body``). On hand close-ups and face
close-ups Pose still returns confident shoulders, but they are guesses: 18 of the 19 false shrugs
the threshold alone gave on the non-shrug photos were such guesses or raised arms (eval-vision:
shrug precision 0.24 -> 0.86 at the same recall 0.50). The limits below were read off these same
photos (no held-out set exists for them); every gym photo, shrugged or relaxed, passes them:

* ``HIDDEN``: eyes, mouth, ears or shoulders less visible than ``min_visibility``.
* ``NO_ELBOW``: neither elbow visible. The upper arm is not in the picture, so the shoulder points
  are extrapolated (webcam and portrait close-ups, shoulders at or below the frame's edge).
* ``NOT_A_BODY``: the face and shoulders are not in human proportion: eyes above the mouth above
  the shoulders, the shoulders at least ``min_neck`` eye-to-mouth heights below the mouth (shrugs
  measured 1.27-2.03, relaxed 2.2-3.8, poses guessed on a hand 0.1-0.4), and the eye-to-mouth
  height ``head_span`` shoulder widths (people 0.15-0.28; guesses reach 0.6).
* ``ARMS_RAISED``: a wrist ``arm_raise`` shoulder widths or more above its elbow (a heart, an X,
  a stop sign made with the hands): raised arms lift the shoulders without any shrug.

The checks gate the population threshold only: with a baseline the person is compared with
themself, so a webcam that never shows an elbow still gets its (relative) shrug score.

Both shoulders raised, or one raised relative to the other (the table's one-shoulder shrug), count;
the side is the shoulder raised more (subject's own side; Pose already labels them so).

Must not import the rules engine, bots, quiz or UI.
"""

from __future__ import annotations

import enum
from collections import deque
from dataclasses import dataclass

import numpy as np

from trainer.signals.gestures import Side
from trainer.vision.hand_features import ramp

# MediaPipe Pose landmark indices (subject's own sides).
LEFT_EYE, RIGHT_EYE, LEFT_EAR, RIGHT_EAR, MOUTH_LEFT, MOUTH_RIGHT = 2, 5, 7, 8, 9, 10
LEFT_SHOULDER, RIGHT_SHOULDER, LEFT_ELBOW, RIGHT_ELBOW, LEFT_WRIST, RIGHT_WRIST = 11, 12, 13, 14, 15, 16


class UpperBody(enum.Enum):
    """Whether a single pose can be scored without a baseline (see the module docstring)."""

    OK = "ok"
    HIDDEN = "hidden"
    NO_ELBOW = "no_elbow"
    NOT_A_BODY = "not_a_body"
    ARMS_RAISED = "arms_raised"


@dataclass(frozen=True, slots=True)
class BodyConfig:
    min_visibility: float = 0.5
    """Pose points less visible than this (shoulders out of frame) give no shrug score."""
    population_drop: float = 0.50
    """Without a baseline: mean shoulder_drop at which the score crosses 0.5. Set before the checks
    below existed, on the same gym photos; kept because it is conservative: a threshold chosen on the
    gym pairs alone, leave-one-exercise-out (a probe since removed; docs/vision-runtime.md), lands at 0.57-0.59 and
    catches 9 of 12 held-out shrugs (1 of 12 relaxed fires), but then 3 to 5 of the 6 relaxed
    non-gym people who pass the checks fire too; at 0.50, 6 of 12 shrugs and 1 of them."""
    population_span: float = 0.08
    """... and how much lower gives a score of 1."""
    min_neck: float = 0.8
    """Without a baseline: the shoulders must sit at least this many eye-to-mouth heights below the
    mouth (a shrug never lifts them to the chin)."""
    head_span: tuple[float, float] = (0.10, 0.35)
    """Without a baseline: accepted eye-to-mouth height, in shoulder widths."""
    arm_raise: float = 0.15
    """Without a baseline: a visible wrist this many shoulder widths above its visible elbow means
    raised arms, which lift the shoulders by themselves."""
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
    upper_body: UpperBody | None = None
    """The single-photo check, when the population threshold was used (None with a baseline)."""


def shoulder_features(pose: np.ndarray | None, min_visibility: float = 0.5) -> dict[str, float]:
    """``shoulder_drop_left/right`` (and their mean, asymmetry) from 33 x 4 pose points, or {}.

    Also, for ``check_upper_body``: ``pose_neck_length`` (mouth to shoulders in eye-to-mouth
    heights), ``pose_head_span`` (eye-to-mouth height in shoulder widths), ``pose_elbow_seen`` (the
    more visible elbow's visibility), ``pose_arm_raise`` (highest wrist above its elbow, in shoulder
    widths; both visible) and ``pose_face_seen`` (the least visible of eyes and mouth corners).
    """
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
    out = {
        "shoulder_drop_left": round(left, 4),
        "shoulder_drop_right": round(right, 4),
        "shoulder_drop": round((left + right) / 2, 4),
        "shoulder_asymmetry": round(left - right, 4),
    }
    if p.shape[1] >= 4:
        out.update(_upper_body_measures(p, width, min_visibility))
    return out


def _upper_body_measures(p: np.ndarray, width: float, min_visibility: float) -> dict[str, float]:
    eyes = 0.5 * (p[LEFT_EYE, 1] + p[RIGHT_EYE, 1])
    ears = 0.5 * (p[LEFT_EAR, 1] + p[RIGHT_EAR, 1])
    mouth = 0.5 * (p[MOUTH_LEFT, 1] + p[MOUTH_RIGHT, 1])
    shoulders = 0.5 * (p[LEFT_SHOULDER, 1] + p[RIGHT_SHOULDER, 1])
    head = mouth - eyes  # y grows downward: > 0 when the mouth is below the eyes
    # Ears below the mouth are no head at all: report a neck of 0 so the check refuses.
    neck = (shoulders - mouth) / head if head > 1e-6 and ears < mouth else 0.0
    raise_ = -1.0
    for wrist, elbow in ((LEFT_WRIST, LEFT_ELBOW), (RIGHT_WRIST, RIGHT_ELBOW)):
        if p[wrist, 3] >= min_visibility and p[elbow, 3] >= min_visibility:
            raise_ = max(raise_, float(p[elbow, 1] - p[wrist, 1]) / width)
    return {
        "pose_neck_length": round(float(neck), 4),
        "pose_head_span": round(float(head) / width, 4),
        "pose_elbow_seen": round(float(max(p[LEFT_ELBOW, 3], p[RIGHT_ELBOW, 3])), 4),
        "pose_arm_raise": round(raise_, 4),
        "pose_face_seen": round(float(min(p[i, 3] for i in (LEFT_EYE, RIGHT_EYE, MOUTH_LEFT, MOUTH_RIGHT))), 4),
    }


def check_upper_body(features: dict[str, float], config: BodyConfig | None = None) -> UpperBody:
    """Can these ``shoulder_features`` be scored against the population (no baseline)?"""
    cfg = config or BodyConfig()
    if "shoulder_drop" not in features or "pose_neck_length" not in features:
        return UpperBody.HIDDEN
    if features["pose_face_seen"] < cfg.min_visibility:
        return UpperBody.HIDDEN
    if features["pose_elbow_seen"] < cfg.min_visibility:
        return UpperBody.NO_ELBOW
    low, high = cfg.head_span
    if features["pose_neck_length"] < cfg.min_neck or not low <= features["pose_head_span"] <= high:
        return UpperBody.NOT_A_BODY
    if features["pose_arm_raise"] > cfg.arm_raise:
        return UpperBody.ARMS_RAISED
    return UpperBody.OK


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
        if check_upper_body(features, cfg) is not UpperBody.OK:
            return 0.0, None
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
        check = check_upper_body(features, self.config) if baseline is None else None
        return ShrugReading(score, side, features, check)
