"""Personal signs: a per-person model of the face signs, taught from a few seconds of neutral face
and one to three takes of each sign.

Why: the population face signs (``face_signs``) were fitted on ~20 faces; a user who makes a sign their
own way (a small pucker, a one-sided smile that is mostly a dimple) is missed, and a face that rests
differently fires signs it never made. Here each sign is a *prototype*: the mean change of the
person's features during their takes, relative to their neutral face, in a space scaled by how much
each feature wanders at rest. The features are MediaPipe's blendshapes (Tasks backend) plus the few
cues blendshapes lack: head roll, gaze, and what shows between the lips (teeth, tongue).

A frame ``x`` is scored against a prototype ``p`` (both as whitened changes from neutral, ``z`` and
``p``) by

* ``strength`` = ``z.p / p.p``: how far along the taught change the face is (1 = as strong as taught);
* ``fit`` = share of the change ``|z|^2`` that ``strength * p`` explains, after taking off the energy a
  resting face shows anyway: a frame with both eyes shut is only half explained by a wink prototype.

The sign is on when ``strength >= strength_min`` and ``fit >= fit_min``. ``strength_min`` starts at
0.5 and is raised per sign above what the person's neutral (and talking, when given) frames reach,
so speech that passes through a taught mouth shape does not fire it: that is the rejection margin.

Sided signs (wink, lip_corner, head_tilt) are also matched mirrored (Left <-> Right blendshapes, roll
negated): teaching a left wink teaches the right one. The side is left to the population scorer,
which reads it reliably.

Pure numpy; no MediaPipe, no clock. ``PersonalSigns`` is frozen and JSON round-trips.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from trainer.signals.gestures import BodyPart, Gesture, Side
from trainer.vision.types import BLENDSHAPE_PREFIX, FaceBackend, FaceReading, VisionError

KIND = "personal_signs"
SCHEMA = 1

BLENDSHAPES: tuple[str, ...] = (
    "browDownLeft", "browDownRight", "browInnerUp", "browOuterUpLeft", "browOuterUpRight",
    "cheekPuff", "cheekSquintLeft", "cheekSquintRight",
    "eyeBlinkLeft", "eyeBlinkRight", "eyeLookDownLeft", "eyeLookDownRight", "eyeLookInLeft",
    "eyeLookInRight", "eyeLookOutLeft", "eyeLookOutRight", "eyeLookUpLeft", "eyeLookUpRight",
    "eyeSquintLeft", "eyeSquintRight", "eyeWideLeft", "eyeWideRight",
    "jawForward", "jawLeft", "jawOpen", "jawRight",
    "mouthClose", "mouthDimpleLeft", "mouthDimpleRight", "mouthFrownLeft", "mouthFrownRight",
    "mouthFunnel", "mouthLeft", "mouthLowerDownLeft", "mouthLowerDownRight", "mouthPressLeft",
    "mouthPressRight", "mouthPucker", "mouthRight", "mouthRollLower", "mouthRollUpper",
    "mouthShrugLower", "mouthShrugUpper", "mouthSmileLeft", "mouthSmileRight", "mouthStretchLeft",
    "mouthStretchRight", "mouthUpperUpLeft", "mouthUpperUpRight", "noseSneerLeft", "noseSneerRight",
    "tongueOut",
)
"""MediaPipe's 52 blendshapes less ``_neutral`` (always ~0)."""

GEOMETRY: dict[str, float] = {
    "head_roll": 2.0,
    "gaze_up": 0.04,
    "mouth_teeth": 0.05,
    "mouth_pink": 0.05,
    "mouth_dark": 0.05,
}
"""Cues blendshapes lack, with the smallest rest spread each may be given (units of the feature:
degrees for the roll, fractions of eye or mouth size for the others)."""

BLENDSHAPE_FLOOR = 0.03
"""Smallest rest spread of a blendshape: a still face for 3 s can wander 0.001 on a shape, and
dividing by that would make noise on an unused shape outweigh the sign."""

STRENGTH_MIN = 0.5
"""A sign counts from half the strength of the takes on, unless rest frames reach that far."""
STRENGTH_MAX = 0.8
"""The learned margin never asks for more than this share of the taught strength."""
REST_MARGIN = 1.25
"""strength_min is at least this times the 99th percentile that rest frames reach (with a good fit)."""
REST_ENERGY_FACTOR = 2.0
FIT_MIN = 0.25
"""Share of a frame's change from neutral that a prototype must explain at least. Low: a later take
is often stronger or wider than the one taught (a wide open mouth shows teeth the O did not), and a
take carries whatever else the face did then; the competition below does the finer work."""
FIT_MARGIN = 0.15
"""A sign stays on while its fit is within this of the best fit among the taught signs strong enough."""
OFF_LEVEL = 0.6
"""Level (share of the boundary) a sign is held to when its fit disqualifies it: below the exit."""
CORE_SHARE = 0.6
"""The frames of a take whose change is at least this share of the take's largest change make its
prototype: a take's span also holds the onset and release."""
ENTER = 0.55
"""Score at the decision boundary: the recognizer's default ``enter`` threshold."""
MIN_NEUTRAL_FRAMES = 10
MIN_TAKE_FRAMES = 2

_MIRROR_NAMES = {name: (name[:-4] + "Right" if name.endswith("Left") else name[:-5] + "Left"
                        if name.endswith("Right") else name) for name in BLENDSHAPES}


def teachable(gesture: Gesture) -> bool:
    """Face signs can be taught; hand and body signs keep the population scorers."""
    return gesture.body_part is BodyPart.FACE


def parse_teachable(name: str) -> Gesture:
    """The face gesture named ``name``; VisionError naming the teachable ones otherwise."""
    try:
        gesture = Gesture.parse(name)
    except ValueError:
        gesture = None
    if gesture is None or not teachable(gesture):
        names = ", ".join(g.value for g in Gesture if teachable(g))
        raise VisionError(f"{name!r} is not a face sign that can be taught: use neutral, talking or one of {names}")
    return gesture


@dataclass(frozen=True, slots=True)
class SignPrototype:
    gesture: Gesture
    change: tuple[float, ...]
    """Mean whitened change from neutral of the take frames, one value per ``PersonalSigns.dims``."""
    strength_min: float
    takes: int
    frames: int

    def to_json(self) -> dict:
        return {
            "gesture": self.gesture.value,
            "change": [round(v, 5) for v in self.change],
            "strength_min": round(self.strength_min, 4),
            "takes": self.takes,
            "frames": self.frames,
        }


@dataclass(frozen=True, slots=True)
class SignMatch:
    """How one frame matches one prototype."""

    strength: float
    fit: float
    score: float


@dataclass(frozen=True, slots=True)
class PersonalSigns:
    """One person's taught face signs. ``score(features)`` gives the taught gestures' scores."""

    name: str
    dims: tuple[str, ...]
    neutral: tuple[float, ...]
    spread: tuple[float, ...]
    rest_energy: float
    """Whitened energy |z|^2 that this person's resting face shows anyway (``REST_ENERGY_FACTOR`` x
    the median over the neutral frames): not a change."""
    signs: tuple[SignPrototype, ...]
    fit_min: float = FIT_MIN
    created: str = ""
    neutral_frames: int = 0
    rest_frames: int = 0
    _compiled: _Compiled | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def gestures(self) -> tuple[Gesture, ...]:
        return tuple(s.gesture for s in self.signs)

    def _arrays(self) -> _Compiled:
        """The model as arrays, built once (scoring runs on every camera frame)."""
        compiled = self._compiled
        if compiled is None:
            compiled = _Compiled.of(self)
            object.__setattr__(self, "_compiled", compiled)
        return compiled

    def change(self, features: Mapping[str, float]) -> np.ndarray:
        """Whitened change from this person's neutral of a flat table of the FaceLandmarker's backend
        (``FaceReading.flat``); a missing feature reads as no change."""
        c = self._arrays()
        values = (features.get(k, n) for k, n in zip(c.keys, self.neutral, strict=False))
        x = np.fromiter(values, dtype=np.float64, count=len(c.keys))
        return (x - c.neutral) / c.spread

    def matches(self, features: Mapping[str, float]) -> dict[Gesture, SignMatch]:
        z = self.change(features)
        c = self._arrays()
        # Every candidate prototype at once (sided signs also mirrored): strength and fit.
        dots = c.prototypes @ z
        strengths = np.maximum(dots / c.norms, 0.0)
        energy = float(z @ z)
        residual = energy - 2.0 * strengths * dots + strengths ** 2 * c.norms
        fits = np.clip(1.0 - np.maximum(residual - self.rest_energy, 0.0) / max(energy, 1e-9), 0.0, 1.0)
        raw: dict[Gesture, tuple[float, float]] = {}
        for i, gesture in enumerate(c.owners):
            if gesture not in raw or fits[i] > raw[gesture][1]:
                raw[gesture] = (float(strengths[i]), float(fits[i]))
        # Taught signs compete: a sign is on only if it explains the face about as well as the best
        # taught sign that is strong enough (a wide grin is the grimace, not the mouth_open taught).
        minimum = c.minimum
        passing = [fit for g, (strength, fit) in raw.items() if strength >= minimum[g]]
        best = max(passing, default=0.0)
        out: dict[Gesture, SignMatch] = {}
        for gesture, (strength, fit) in raw.items():
            level = strength / minimum[gesture]
            if fit < self.fit_min or fit < best - FIT_MARGIN:
                level = min(level, OFF_LEVEL)
            out[gesture] = SignMatch(strength, fit, float(min(1.0, max(0.0, ENTER * level))))
        return out

    def score(self, features: Mapping[str, float]) -> dict[Gesture, tuple[float, Side | None]]:
        """Scores (0..1, ``ENTER`` at the decision boundary) of the taught gestures on a flat table of
        the FaceLandmarker's backend (``has_blendshapes``); sides are left to the population scorer (None)."""
        return {g: (m.score, None) for g, m in self.matches(features).items()}

    def score_face(self, face: FaceReading) -> dict[Gesture, tuple[float, Side | None]]:
        """``score`` of one face as read; {} for a face read without blendshapes (a recording made
        without them): then the population scores stand."""
        if face.backend is not FaceBackend.TASKS:
            return {}
        return self.score(face.flat())

    # -- files ------------------------------------------------------------------------------------
    def to_json(self) -> dict:
        return {
            "kind": KIND,
            "schema": SCHEMA,
            "name": self.name,
            "created": self.created,
            "dims": list(self.dims),
            "neutral": [round(v, 5) for v in self.neutral],
            "spread": [round(v, 5) for v in self.spread],
            "rest_energy": round(self.rest_energy, 4),
            "fit_min": self.fit_min,
            "neutral_frames": self.neutral_frames,
            "rest_frames": self.rest_frames,
            "signs": [s.to_json() for s in self.signs],
        }

    @classmethod
    def from_json(cls, data: object) -> PersonalSigns:
        """Rebuild from ``to_json`` output; VisionError naming what is wrong otherwise."""
        if not isinstance(data, dict) or data.get("kind") != KIND:
            raise VisionError(f"not a personal sign profile (no \"kind\": \"{KIND}\"): teach the signs again "
                              "with `aluette enroll`")
        if data.get("schema") != SCHEMA:
            raise VisionError(f"personal sign profile schema {data.get('schema')!r} is not {SCHEMA}: teach the "
                              "signs again with `aluette enroll`")
        try:
            dims = tuple(str(d) for d in data["dims"])
            neutral = tuple(float(v) for v in data["neutral"])
            spread = tuple(float(v) for v in data["spread"])
            signs = tuple(
                SignPrototype(
                    gesture=parse_teachable(s["gesture"]),
                    change=tuple(float(v) for v in s["change"]),
                    strength_min=float(s["strength_min"]),
                    takes=int(s["takes"]),
                    frames=int(s["frames"]),
                )
                for s in data["signs"]
            )
            result = cls(
                name=str(data.get("name", "")),
                dims=dims,
                neutral=neutral,
                spread=spread,
                rest_energy=float(data["rest_energy"]),
                signs=signs,
                fit_min=float(data.get("fit_min", FIT_MIN)),
                created=str(data.get("created", "")),
                neutral_frames=int(data.get("neutral_frames", 0)),
                rest_frames=int(data.get("rest_frames", 0)),
            )
        except (KeyError, TypeError, ValueError) as error:
            if isinstance(error, VisionError):
                raise
            raise VisionError(f"personal sign profile is malformed ({error!r}): teach the signs again") from None
        n = len(dims)
        if not n or len(neutral) != n or len(spread) != n or any(len(s.change) != n for s in signs):
            raise VisionError("personal sign profile: 'dims', 'neutral', 'spread' and every sign's 'change' "
                              "must have the same length: teach the signs again")
        if any(not v > 0 for v in spread):
            raise VisionError("personal sign profile: every 'spread' must be > 0: teach the signs again")
        return result

    def save(self, path: Path | str) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path | str) -> PersonalSigns:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as error:
            raise VisionError(f"cannot read the personal sign profile {path}: {error.strerror}") from None
        except json.JSONDecodeError as error:
            raise VisionError(f"{path} is not JSON ({error.msg} at line {error.lineno}): give a file written "
                              "by `aluette enroll`") from None
        return cls.from_json(data)


@dataclass(frozen=True, slots=True)
class _Compiled:
    keys: tuple[str, ...]
    neutral: np.ndarray
    spread: np.ndarray
    prototypes: np.ndarray
    """One row per candidate: each sign, and its mirror for a sided sign."""
    norms: np.ndarray
    owners: tuple[Gesture, ...]
    minimum: dict[Gesture, float]

    @classmethod
    def of(cls, model: PersonalSigns) -> _Compiled:
        mirror = mirror_index(model.dims)
        rows, owners = [], []
        for sign in model.signs:
            p = np.asarray(sign.change, dtype=np.float64)
            rows.append(p)
            owners.append(sign.gesture)
            if sign.gesture.sided:
                rows.append(mirrored(p, model.dims, mirror))
                owners.append(sign.gesture)
        prototypes = np.vstack(rows) if rows else np.zeros((0, len(model.dims)))
        return cls(
            keys=tuple(_feature_key(d) for d in model.dims),
            neutral=np.asarray(model.neutral, dtype=np.float64),
            spread=np.asarray(model.spread, dtype=np.float64),
            prototypes=prototypes,
            norms=np.einsum("ij,ij->i", prototypes, prototypes),
            owners=tuple(owners),
            minimum={s.gesture: s.strength_min for s in model.signs},
        )


def is_personal_json(data: object) -> bool:
    """Whether a parsed JSON document is a personal sign profile (else maybe a calibration Profile)."""
    return isinstance(data, dict) and data.get("kind") == KIND


# -- teaching ---------------------------------------------------------------------------------------

FeatureFrames = Sequence[Mapping[str, float]]


@dataclass(frozen=True, slots=True)
class RestSpace:
    """The person's resting face as a yardstick: which features are measured (``dims``), their neutral
    values (median of the neutral frames) and how much each wanders at rest (MAD, floored), and the
    whitened energy a resting face shows anyway. Teaching and the take checks measure in it."""

    dims: tuple[str, ...]
    centre: np.ndarray
    spread: np.ndarray
    rest_energy: float
    neutral_rows: tuple[Mapping[str, float], ...]

    @classmethod
    def of(cls, neutral: FeatureFrames) -> RestSpace:
        """From the neutral frames (those without a face or blendshapes are skipped); VisionError
        when fewer than ``MIN_NEUTRAL_FRAMES`` remain."""
        rows = tuple(f for f in neutral if has_blendshapes(f))
        if len(rows) < MIN_NEUTRAL_FRAMES:
            raise VisionError(
                f"only {len(rows)} neutral frame(s) with a face and blendshapes (need {MIN_NEUTRAL_FRAMES}): "
                "give a longer neutral stretch, face the camera, and use the Tasks face backend (face_landmarker.task)"
            )
        # The dimensions every neutral frame has (a model build may lack a shape, e.g. tongueOut).
        dims = tuple(k for k in BLENDSHAPES + tuple(GEOMETRY) if all(_feature_key(k) in f for f in rows))
        table = _table(rows, dims)
        centre = np.median(table, axis=0)
        mad = np.median(np.abs(table - centre), axis=0) * 1.4826
        floors = np.array([GEOMETRY.get(d, BLENDSHAPE_FLOOR) for d in dims])
        spread = np.maximum(mad, floors)
        z = (table - centre) / spread
        # Twice the median: a neutral stretch often catches the start of the next sign at its edge.
        rest_energy = REST_ENERGY_FACTOR * float(np.median(np.sum(z ** 2, axis=1)))
        return cls(dims, centre, spread, rest_energy, rows)

    def whiten(self, rows: FeatureFrames) -> np.ndarray:
        """Frames x dims: each frame's change from neutral in units of the rest spread (frames
        without blendshapes are left out)."""
        rows = [f for f in rows if has_blendshapes(f)]
        if not rows:
            return np.zeros((0, len(self.dims)))
        return (_table(rows, self.dims, self.centre) - self.centre) / self.spread

    def core(self, z: np.ndarray) -> np.ndarray:
        """The mean change over a take's core: its frames whose change is at least ``CORE_SHARE`` of
        the take's largest (a span also holds the onset and release)."""
        energy = np.sum(z ** 2, axis=1)
        return z[energy >= CORE_SHARE * energy.max()].mean(axis=0)


def teach(
    neutral: FeatureFrames,
    takes: Mapping[Gesture, Sequence[FeatureFrames]],
    rest: FeatureFrames = (),
    name: str = "",
    created: str = "",
) -> PersonalSigns:
    """A personal model from neutral-face frames, one or more takes (frame lists) per sign, and
    optional other rest frames (talking): their energy sets the rejection margins.

    Frames are the pipeline's face features (``FrameScores.features``, Tasks backend). Frames without
    a face or without blendshapes are skipped; VisionError when too few remain.
    """
    space = RestSpace.of(neutral)
    if not takes:
        raise VisionError("no sign takes given: teach at least one sign")
    dims, centre, spread, rest_energy = space.dims, space.centre, space.spread, space.rest_energy
    whiten = space.whiten
    neutral_rows = space.neutral_rows
    rest_z = np.vstack([whiten(neutral_rows), whiten(rest)])
    mirror = mirror_index(dims)
    for gesture in takes:
        if not teachable(gesture):
            raise VisionError(f"{gesture.value} is a hand or body sign: only face signs can be taught")
    whitened: dict[Gesture, list[np.ndarray]] = {g: [whiten(t) for t in ts] for g, ts in takes.items()}
    changes = {gesture: _take_change(space, gesture, zs) for gesture, zs in whitened.items()}
    signs: list[SignPrototype] = []
    for gesture, change in changes.items():
        # Rejection margin: the strength that frames which are NOT this sign reach along it (with a
        # fit that counts): the neutral face, talking, and the takes of the other signs taught.
        others = [z for g, zs in whitened.items() if g is not gesture for z in zs]
        negatives = np.vstack([rest_z, *others]) if others else rest_z
        candidates = [change] + ([mirrored(change, dims, mirror)] if gesture.sided else [])
        strength_min = _strength_min(negatives, candidates, rest_energy)
        gesture_takes = takes[gesture]
        frames = sum(len(t) for t in gesture_takes)
        signs.append(SignPrototype(gesture, tuple(float(v) for v in change), float(strength_min),
                                   len(gesture_takes), frames))
    return PersonalSigns(
        name=name,
        dims=dims,
        neutral=tuple(float(v) for v in centre),
        spread=tuple(float(v) for v in spread),
        rest_energy=rest_energy,
        signs=tuple(signs),
        fit_min=FIT_MIN,
        created=created,
        neutral_frames=len(neutral_rows),
        rest_frames=len(rest_z) - len(neutral_rows),
    )


def _take_change(space: RestSpace, gesture: Gesture, takes: Sequence[np.ndarray]) -> np.ndarray:
    """The mean change of a sign's whitened takes (each take's core); VisionError when a take is too
    short or the takes hardly differ from the neutral face."""
    cores = []
    for i, z in enumerate(takes, 1):
        if len(z) < MIN_TAKE_FRAMES:
            raise VisionError(f"take {i} of {gesture.value} has {len(z)} frame(s) with a face: give a longer span "
                              "(the sign held for half a second or more)")
        cores.append(space.core(z))
    change = np.mean(cores, axis=0)
    if float(change @ change) <= space.rest_energy:
        raise VisionError(
            f"the takes of {gesture.value} hardly differ from the neutral face: make the sign more clearly, "
            "or check the time span"
        )
    return change


def _strength_min(negatives: np.ndarray, candidates: Sequence[np.ndarray], rest_energy: float) -> float:
    """The strength a sign asks for: ``STRENGTH_MIN``, raised above what frames that are not the sign
    reach along it (or its mirror), at most ``STRENGTH_MAX``."""
    strength_min = STRENGTH_MIN
    for p in candidates:
        reach = rest_reach(negatives, p, FIT_MIN, rest_energy)
        strength_min = max(strength_min, REST_MARGIN * reach)
    return min(strength_min, STRENGTH_MAX)


def rest_reach(rest_z: np.ndarray, p: np.ndarray, fit_min: float, rest_energy: float) -> float:
    """99th percentile of the strength that rest frames reach along ``p`` with a fit that counts."""
    if len(rest_z) == 0:
        return 0.0
    strengths, fits = _strength_fit(rest_z, p, rest_energy)
    good = strengths[fits >= fit_min]
    return float(np.percentile(good, 99)) if len(good) else 0.0


def _strength_fit(z: np.ndarray, p: np.ndarray, rest_energy: float) -> tuple[np.ndarray, np.ndarray]:
    z = np.atleast_2d(z)
    pp = float(p @ p)
    strength = np.maximum(z @ p / pp, 0.0)
    residual = np.sum((z - strength[:, None] * p) ** 2, axis=1)
    energy = np.sum(z ** 2, axis=1)
    explained = 1.0 - np.maximum(residual - rest_energy, 0.0) / np.maximum(energy, 1e-9)
    return strength, np.clip(explained, 0.0, 1.0)


def has_blendshapes(table: Mapping[str, float]) -> bool:
    """A stored flat table (a recording, a teacher's frames; ``FaceReading.flat`` names) was read by
    the FaceLandmarker: it holds its blendshapes. The only place a table's keys say its backend: a
    live face carries it (``FaceReading.backend``)."""
    return BLENDSHAPE_PREFIX + "jawOpen" in table


def _feature_key(dim: str) -> str:
    return dim if dim in GEOMETRY else BLENDSHAPE_PREFIX + dim


def _table(rows: Iterable[Mapping[str, float]], dims: Sequence[str],
           defaults: Sequence[float] | np.ndarray | None = None) -> np.ndarray:
    """Rows x dims; a missing feature reads as its default (the neutral value: no change)."""
    fill = defaults if defaults is not None else [math.nan] * len(dims)
    return np.array([[float(f.get(_feature_key(d), v)) for d, v in zip(dims, fill, strict=False)] for f in rows],
                    dtype=np.float64)


def mirror_index(dims: Sequence[str]) -> list[int]:
    where = {d: i for i, d in enumerate(dims)}
    return [where.get(_MIRROR_NAMES.get(d, d), i) for i, d in enumerate(dims)]


def mirrored(p: np.ndarray, dims: Sequence[str], mirror: list[int]) -> np.ndarray:
    """The same change on the other side of the face: Left/Right shapes swapped, roll negated."""
    q = p[mirror].copy()
    for i, d in enumerate(dims):
        if d == "head_roll":
            q[i] = -q[i]
    return q
