"""The face-mesh FALLBACK's per-frame face gesture scores: features (+ a neutral profile) -> 0..1 score
per face gesture. The default backend (Tasks FaceLandmarker, blendshapes) scores with
``trainer.vision.face_signs``; this module runs when models/face_landmarker.task is missing or fails its
checksum, with the same gesture names.

Each gesture is a small rule: one to three conditions on named features of
``trainer.vision.face_features``, each measured against the face's neutral value (the user's
calibrated ``Profile``, or the population profile of the neutral photos). A condition's score is 0 at
neutral, 0.5 at its threshold and 1 at twice the threshold's distance from neutral; the gesture's
score is the smallest of its conditions' (all must hold). So 0.5 is the decision threshold, as
``FrameScores`` promises, and the temporal recognizer adds hysteresis around it.

Where a hand-written rule generalises badly to new faces (measured leave-one-source-out by the
tuner), a gesture may instead carry a ``LinearModel``: a logistic regression over the same named
features relative to neutral, whose probability is the score (0.5 again the decision threshold).

The rules and thresholds live in ``models/thresholds.json``, written by ``scripts/tune_thresholds.py``
from the labelled photos. The caller loads the rule set it wants once (``load_thresholds``; the
Pipeline picks "mesh+image" or "mesh", and their ":calibrated" sets for a calibrated profile) and passes
it to ``score_face``: nothing is chosen from the features' keys or loaded per frame.

Known confusions handled here: a wink needs one eye clearly more closed than the other and yields to
``eyes_closed`` when both are shut; ``lip_corner`` needs the corners at different heights (a smile
lifts both); a "surprised" face may be brows_up and mouth_open at once (both are reported).

Imports only the standard library, trainer.signals.gestures and trainer.vision (no numpy needed here).
"""

from __future__ import annotations

import json
import math
import os
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Mapping

from trainer.signals.gestures import Gesture, Side
from trainer.vision.calibration import Profile
from trainer.vision.face_signs import FACE_SIGNS
from trainer.vision.types import VisionError

THRESHOLDS_SCHEMA = 1
DEFAULT_THRESHOLDS = Path(__file__).resolve().parents[2] / "models" / "thresholds.json"
FACE_GESTURES: tuple[Gesture, ...] = FACE_SIGNS
"""The fallback scores the same signs as the default scorer, under the same names."""
MODES = ("delta", "ratio", "abs")
"""How a condition compares a feature with its neutral value: difference, quotient, |difference|."""


@dataclass(frozen=True, slots=True)
class Condition:
    """``direction * compare(feature, neutral) >= direction * threshold`` fires the condition.

    ``mode`` is "delta" (value - neutral), "ratio" (value / neutral) or "abs" (|value - neutral|).
    """

    feature: str
    mode: str
    direction: int
    threshold: float

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise VisionError(f"condition on {self.feature!r}: mode {self.mode!r} is not one of {MODES}")
        if self.direction not in (1, -1):
            raise VisionError(f"condition on {self.feature!r}: direction must be 1 or -1, not {self.direction!r}")

    def evidence(self, value: float, neutral: float) -> float:
        """The compared value (the thing the threshold applies to)."""
        if self.mode == "delta":
            return value - neutral
        if self.mode == "ratio":
            return value / neutral if neutral else value
        return abs(value - neutral)

    def score(self, value: float, neutral: float) -> float:
        """0 at neutral, 0.5 at the threshold, 1 at twice the threshold's distance from neutral."""
        reference = 1.0 if self.mode == "ratio" else 0.0
        signed = self.direction * (self.evidence(value, neutral) - reference)
        target = self.direction * (self.threshold - reference)
        # A threshold on the neutral side of the reference would make the scale negative: then use a
        # narrow fixed width around the threshold instead.
        width = target if target > 1e-6 else 0.05
        return min(1.0, max(0.0, 0.5 + 0.5 * (signed - target) / width))

    def to_json(self) -> dict:
        return {
            "feature": self.feature,
            "mode": self.mode,
            "direction": self.direction,
            "threshold": round(self.threshold, 5),
        }

    @classmethod
    def from_json(cls, data: Mapping) -> "Condition":
        try:
            return cls(str(data["feature"]), str(data["mode"]), int(data["direction"]), float(data["threshold"]))
        except (KeyError, TypeError, ValueError):
            raise VisionError(
                f"bad condition {data!r} in the thresholds file: needs feature, mode, direction, threshold; "
                "rerun scripts/tune_thresholds.py"
            ) from None


ABS_PREFIX = "abs:"
"""A model input named ``abs:feature`` is |feature - neutral| (a signed asymmetry, either side)."""


@dataclass(frozen=True)
class LinearModel:
    """Logistic regression over features relative to neutral: ``sigmoid(bias + sum(w * z))`` with
    ``z = (relative - center) / scale``; relative is ``feature - neutral`` (or its absolute value for
    an ``abs:`` input). Fitted by scripts/tune_thresholds.py; stored as plain numbers in JSON."""

    inputs: tuple[str, ...]
    center: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float

    def __post_init__(self) -> None:
        n = len(self.inputs)
        if not n or not len(self.center) == len(self.scale) == len(self.weights) == n:
            raise VisionError(
                f"linear model with {n} inputs but {len(self.center)} centers, {len(self.scale)} scales and "
                f"{len(self.weights)} weights: rerun scripts/tune_thresholds.py"
            )
        if any(not sc > 0 for sc in self.scale):
            raise VisionError("linear model with a non-positive scale: rerun scripts/tune_thresholds.py")
        # Folded once for the per-frame path (a model reads dozens of inputs every video frame):
        # bias + sum(w * (r - c) / s) = offset + sum(slope * r).
        object.__setattr__(self, "_names", tuple(n.removeprefix(ABS_PREFIX) for n in self.inputs))
        object.__setattr__(self, "_absolute", tuple(n.startswith(ABS_PREFIX) for n in self.inputs))
        object.__setattr__(self, "_slope", tuple(w / sc for w, sc in zip(self.weights, self.scale)))
        object.__setattr__(self, "_offset", self.bias - sum(w * c / sc for w, c, sc in
                                                            zip(self.weights, self.center, self.scale)))
        object.__setattr__(self, "_neutrals", (None, ()))

    def score(self, features: Mapping[str, float], neutral) -> float:
        """Probability of the gesture; 0 when a feature is missing. ``neutral(name)`` is its neutral
        (the same callable for the same profile: its values are read once per profile)."""
        values = [features.get(name) for name in self._names]
        if None in values:
            return 0.0
        seen, neutrals = self._neutrals
        if seen is not neutral:
            neutrals = tuple(neutral(name) for name in self._names)
            object.__setattr__(self, "_neutrals", (neutral, neutrals))  # one tuple: atomic between threads
        total = self._offset
        for value, base, absolute, slope in zip(values, neutrals, self._absolute, self._slope):
            relative = value - base
            total += slope * (abs(relative) if absolute else relative)
        # Clamp the exponent: a far-out face must not overflow.
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, total))))

    def to_json(self) -> dict:
        return {
            "kind": "logistic",
            "inputs": list(self.inputs),
            "center": [round(v, 6) for v in self.center],
            "scale": [round(v, 6) for v in self.scale],
            "weights": [round(v, 6) for v in self.weights],
            "bias": round(self.bias, 6),
        }

    @classmethod
    def from_json(cls, data: Mapping) -> "LinearModel":
        if not isinstance(data, Mapping) or data.get("kind") != "logistic":
            raise VisionError(f"unknown face model {data!r} in the thresholds file: rerun scripts/tune_thresholds.py")
        try:
            return cls(
                inputs=tuple(str(v) for v in data["inputs"]),
                center=tuple(float(v) for v in data["center"]),
                scale=tuple(float(v) for v in data["scale"]),
                weights=tuple(float(v) for v in data["weights"]),
                bias=float(data["bias"]),
            )
        except (KeyError, TypeError, ValueError):
            raise VisionError(
                "bad linear model in the thresholds file: needs inputs, center, scale, weights, bias; "
                "rerun scripts/tune_thresholds.py"
            ) from None


@dataclass(frozen=True, slots=True)
class GestureRule:
    """A gesture's rule: all ``conditions`` must hold, or (when given) the ``model``'s probability."""

    gesture: Gesture
    conditions: tuple[Condition, ...]
    model: LinearModel | None = None


@dataclass(frozen=True, slots=True)
class Thresholds:
    """The rules of one backend plus the population's neutral profile (the uncalibrated default)."""

    backend: str
    rules: tuple[GestureRule, ...]
    population: Profile
    min_face_px: float = 20.0
    version: str = ""

    def rule(self, gesture: Gesture) -> GestureRule | None:
        for rule in self.rules:
            if rule.gesture is gesture:
                return rule
        return None

    @classmethod
    def from_json(cls, data: Mapping, backend: str = "mesh") -> "Thresholds":
        if not isinstance(data, Mapping) or data.get("schema") != THRESHOLDS_SCHEMA:
            raise VisionError(
                f"thresholds file has schema {data.get('schema') if isinstance(data, Mapping) else None!r}, "
                f"expected {THRESHOLDS_SCHEMA}: rerun scripts/tune_thresholds.py"
            )
        backends = data.get("backends", {})
        if backend not in backends:
            raise VisionError(
                f"thresholds file has no rules for backend {backend!r} (has {sorted(backends)}): "
                "rerun scripts/tune_thresholds.py"
            )
        section = backends[backend]
        rules = []
        for name, rule in section.get("gestures", {}).items():
            try:
                gesture = Gesture(name)
            except ValueError:
                raise VisionError(f"thresholds file names unknown gesture {name!r}") from None
            conditions = tuple(Condition.from_json(c) for c in rule.get("conditions", ()))
            model = LinearModel.from_json(rule["model"]) if rule.get("model") is not None else None
            if conditions or model is not None:
                rules.append(GestureRule(gesture, conditions, model))
        population = Profile.from_json(section["population"])
        return cls(
            backend=backend,
            rules=tuple(rules),
            population=population,
            min_face_px=float(section.get("min_face_px", 20.0)),
            version=str(data.get("version", "")),
        )


def load_thresholds(path: Path | str | None = None, backend: str = "mesh") -> Thresholds:
    """Rules from ``path``, ``$ALUETTE_THRESHOLDS`` or the repository's models/thresholds.json."""
    return _load_named(str(path or os.environ.get("ALUETTE_THRESHOLDS") or DEFAULT_THRESHOLDS), backend)


@lru_cache(maxsize=16)
def _load_named(name: str, backend: str) -> Thresholds:
    # Called for every frame: resolving the path (a few system calls) once per name is enough.
    return _load_cached(str(Path(name).resolve()), backend)


@lru_cache(maxsize=8)
def _load_cached(path: str, backend: str) -> Thresholds:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise VisionError(
            f"no face thresholds at {path}: run scripts/tune_thresholds.py or set ALUETTE_THRESHOLDS"
        ) from None
    except (OSError, json.JSONDecodeError) as error:
        raise VisionError(f"face thresholds {path} unreadable ({error}): rerun scripts/tune_thresholds.py") from None
    return Thresholds.from_json(data, backend)


_NEUTRAL_TABLES: dict[tuple[int, int], tuple[Profile, Profile, Callable[[str], float]]] = {}
_NEUTRAL_TABLES_LOCK = threading.Lock()


def _neutral_table(profile: Profile, population: Profile) -> Callable[[str], float]:
    """``name -> neutral value`` (the profile's, else the population's, else 0) as one dict lookup:
    a model reads dozens of neutrals per frame. Kept for the last few profile pairs (a running
    baseline is rebuilt every few frames; the pair itself is kept so the ids stay valid)."""
    key = (id(profile), id(population))
    hit = _NEUTRAL_TABLES.get(key)
    if hit is not None and hit[0] is profile and hit[1] is population:
        return hit[2]
    table = {name: stat.mean for name, stat in population.stats.items()}
    table.update((name, stat.mean) for name, stat in profile.stats.items())
    neutral_of = lambda name, _get=table.get: _get(name, 0.0)  # noqa: E731 - the cached callable
    # Each app session scores on its own thread: the eviction must not interleave with another's.
    with _NEUTRAL_TABLES_LOCK:
        if len(_NEUTRAL_TABLES) >= 8:
            _NEUTRAL_TABLES.pop(next(iter(_NEUTRAL_TABLES)))
        _NEUTRAL_TABLES[key] = (profile, population, neutral_of)
    return neutral_of


def score_face(
    features: Mapping[str, float],
    profile: Profile | None,
    thresholds: Thresholds,
) -> tuple[dict[Gesture, float], dict[Gesture, Side]]:
    """Scores (0..1, 0.5 = threshold) and sides (subject's own) of every face gesture.

    ``profile`` is the user's calibrated neutral face; None uses the population's. ``thresholds`` is
    the rule set (``load_thresholds``). An empty ``features`` (no face) or a face too small to read
    scores 0 everywhere.
    """
    rules = thresholds
    base = profile or rules.population
    scores = {gesture: 0.0 for gesture in FACE_GESTURES}
    sides: dict[Gesture, Side] = {}
    if not features or features.get("face_px", rules.min_face_px) < rules.min_face_px:
        return scores, sides
    neutral_of = _neutral_table(base, rules.population)
    for rule in rules.rules:
        if rule.model is not None:
            scores[rule.gesture] = rule.model.score(features, neutral_of)
            continue
        value = 1.0
        for condition in rule.conditions:
            x = features.get(condition.feature)
            if x is None:
                value = 0.0
                break
            value = min(value, condition.score(x, neutral_of(condition.feature)))
        scores[rule.gesture] = value
    # Both eyes shut is eyes_closed, not a wink, even if one lid is lower (MediaPipe often reads a
    # firm one-eye closure as both eyes partly closing, and a blink as uneven).
    scores[Gesture.WINK] = min(scores[Gesture.WINK], 1.0 - scores[Gesture.EYES_CLOSED])

    def rel(name: str) -> float:
        neutral = neutral_of(name)
        return features.get(name, neutral) - neutral

    def eye(name: str) -> float:
        # Openness as a fraction of the neutral eye: eyes differ in size, so compare ratios.
        neutral = neutral_of(name) or 1.0
        return features.get(name, neutral) / neutral

    sides[Gesture.WINK] = Side.LEFT if eye("eye_open_left") < eye("eye_open_right") else Side.RIGHT
    sides[Gesture.LIP_CORNER] = Side.LEFT if rel("lip_corner_left") > rel("lip_corner_right") else Side.RIGHT
    sides[Gesture.HEAD_TILT] = Side.LEFT if rel("head_roll") > 0 else Side.RIGHT
    return scores, sides


CALIBRATED = ":calibrated"
"""Suffix of the rule sets fitted against each person's own neutral face (used with a Profile)."""


def mouth_activity(features: Mapping[str, float], profile: Profile | None, thresholds: Thresholds) -> float:
    """Lip opening above neutral (fraction of the inter-ocular distance), for talking detection.

    The recognizer looks at how this wanders over about a second: speech opens and closes the lips
    several times a second, a deliberate mouth opening holds.
    """
    rules = thresholds
    base = profile or rules.population
    if "mouth_open" not in features:
        return 0.0
    return max(0.0, features["mouth_open"] - _neutral_table(base, rules.population)("mouth_open"))
