"""Face signs from MediaPipe's blendshapes (the default backend), relative to the person's neutral.

``score_face_signs(reading, neutral, params)`` is the one function that maps a face to per-gesture
scores (0..1, 0.5 = the decision threshold, as ``FrameScores`` promises) and sides:

* ``FaceReading`` is one frame's face, typed: the 52 blendshapes under their MediaPipe names
  (``mouthPucker``...), our geometry (``trainer.vision.face_features``: head roll, gaze...) and the
  mouth appearance (teeth, tongue). ``Neutral`` is the same three tables for the person's neutral face
  (a calibrated profile, the running baseline of a video, or the population's neutral photos).
* Each sign reads a few named **cues** (``CUES``): a blendshape or a left/right pair relative to
  neutral, an asymmetry between the sides, a geometry value blendshapes lack (``head_roll`` for the
  tilt, the iris for the gaze), the mouth appearance (the tongue has no blendshape). The sign's
  ``SignModel`` is a linear score (logit) over its 1-5 cues: few parameters, fitted by
  ``trainer.lab.face_fit`` on people grouped by MANIFEST ``person`` and judged leave-one-person-out.
* **Signs that compete** (``FaceSignParams.compete``): an eye closure is a wink or both eyes shut,
  never both. A group's scores are a softmax over its members' logits and "none" (logit 0), so one
  face is explained by its most likely sign instead of firing every sign whose cues it brushes. A
  sign outside every group is the logistic of its logit: a group of one. The shipped file groups
  wink and eyes_closed only: a mouth group (one shape at a time) raised precision but lost recall
  held out (tongues, grimaces and pouts open the jaw as far as an open mouth does; docs/vision-face.md).
  Google trained the blendshapes on far more faces than we have labelled; the few weights on top of
  them are what a new face cannot break.

The parameters (``FaceSignParams``) come from ``models/face_signs.json`` through ``load_face_signs``,
once, by the caller (the ``Pipeline``), and are passed in explicitly: nothing here reads a file per
frame. A personal model (another module) may replace the scores of the gestures it was taught; it
reads the same ``FaceReading`` and ``Neutral``.

Imports the standard library, trainer.signals.gestures and trainer.vision only.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from trainer.signals.gestures import Gesture, Side
from trainer.vision.types import BLENDSHAPE_PREFIX, FaceReading, VisionError

SIGNS_SCHEMA = 1
DEFAULT_SIGNS = Path(__file__).resolve().parents[2] / "models" / "face_signs.json"
__all__ = ["BLENDSHAPE_PREFIX", "FaceReading"]  # re-exported: they live in trainer.vision.types

FACE_SIGNS: tuple[Gesture, ...] = (
    Gesture.BROWS_UP,
    Gesture.LOOK_UP,
    Gesture.LIP_CORNER,
    Gesture.HEAD_TILT,
    Gesture.WINK,
    Gesture.EYES_CLOSED,
    Gesture.POUT,
    Gesture.MOUTH_OPEN,
    Gesture.TONGUE_OUT,
    Gesture.LIP_BITE,
    Gesture.GRIMACE,
)
MOUTH_SIGNS = frozenset({Gesture.POUT, Gesture.MOUTH_OPEN, Gesture.TONGUE_OUT, Gesture.LIP_BITE,
                         Gesture.GRIMACE, Gesture.LIP_CORNER})
"""Signs a hand in front of the mouth hides (the face model then reads the hand)."""
EYE_SIGNS = frozenset({Gesture.WINK, Gesture.EYES_CLOSED})
"""Signs read from both eyes' closure, which a hand in front of one eye hides: the face model reads
that eye as closed under the fingers (a raised thumb over her eye read as a wink on
thumb/mps_gesture_test_video_thumb.mp4)."""


def hidden_signs(mouth_hidden: bool, eyes_hidden: bool) -> frozenset[Gesture]:
    """The face signs a hand hides: the face model reads a hand in front of the mouth or of an eye as
    lips or a shut lid, so what it hides is not read (the live pipeline and the replays mute them)."""
    return (MOUTH_SIGNS if mouth_hidden else frozenset()) | (EYE_SIGNS if eyes_hidden else frozenset())


@dataclass(frozen=True, slots=True)
class Neutral:
    """The person's neutral face: the same tables as a ``FaceReading`` (missing names read 0)."""

    blendshapes: Mapping[str, float]
    geometry: Mapping[str, float]
    appearance: Mapping[str, float] = field(default_factory=dict)

    @classmethod
    def from_table(cls, table: Mapping[str, float], fallback: Neutral | None = None) -> Neutral:
        """From a flat table (``FaceReading.flat`` names), each missing name taken from ``fallback``."""
        shapes = dict(fallback.blendshapes) if fallback else {}
        geometry = dict(fallback.geometry) if fallback else {}
        appearance = dict(fallback.appearance) if fallback else {}
        for name, value in table.items():
            if name.startswith(BLENDSHAPE_PREFIX):
                shapes[name[len(BLENDSHAPE_PREFIX):]] = value
            elif name.startswith("mouth_") and name in APPEARANCE_KEYS:
                appearance[name] = value
            else:
                geometry[name] = value
        return cls(shapes, geometry, appearance)

    def to_json(self) -> dict:
        return {"blendshapes": _rounded(self.blendshapes), "geometry": _rounded(self.geometry),
                "appearance": _rounded(self.appearance)}

    @classmethod
    def from_json(cls, data: Mapping) -> Neutral:
        try:
            return cls({k: float(v) for k, v in data["blendshapes"].items()},
                       {k: float(v) for k, v in data["geometry"].items()},
                       {k: float(v) for k, v in data.get("appearance", {}).items()})
        except (KeyError, TypeError, ValueError, AttributeError):
            raise VisionError("bad neutral in the face signs file: "
                              "rerun python -m trainer.lab.face_fit signs") from None


APPEARANCE_KEYS = frozenset({"mouth_area", "mouth_dark", "mouth_pink", "mouth_teeth", "mouth_teeth_low",
                             "mouth_teeth_share", "mouth_teeth_white", "mouth_tongue"})


def _rounded(table: Mapping[str, float]) -> dict[str, float]:
    return {k: round(float(v), 5) for k, v in sorted(table.items())}


# -- cues ----------------------------------------------------------------------------------------
Cue = Callable[[FaceReading, Neutral], float]


def _bs(name: str) -> Cue:
    return lambda r, n: r.blendshapes.get(name, 0.0) - n.blendshapes.get(name, 0.0)


def _pair(stem: str) -> Cue:
    """Mean of the Left/Right blendshapes above neutral."""
    left, right = _bs(stem + "Left"), _bs(stem + "Right")
    return lambda r, n: 0.5 * (left(r, n) + right(r, n))


def _asym(stem: str) -> Cue:
    """|Left - Right| above neutral: one side moves, not the other."""
    left, right = _bs(stem + "Left"), _bs(stem + "Right")
    return lambda r, n: abs(left(r, n) - right(r, n))


def _low(stem: str) -> Cue:
    """The smaller of Left/Right above neutral: both sides move."""
    left, right = _bs(stem + "Left"), _bs(stem + "Right")
    return lambda r, n: min(left(r, n), right(r, n))


def _geo(name: str, absolute: bool = False) -> Cue:
    def cue(r: FaceReading, n: Neutral) -> float:
        value = r.geometry.get(name, 0.0) - n.geometry.get(name, 0.0)
        return abs(value) if absolute else value
    return cue


def _look(r: FaceReading, n: Neutral) -> float:
    """Eyes up minus eyes down (blendshapes), both eyes."""
    return _pair("eyeLookUp")(r, n) - _pair("eyeLookDown")(r, n)


def _app(name: str) -> Cue:
    return lambda r, n: r.appearance.get(name, 0.0) - n.appearance.get(name, 0.0)


CUES: dict[str, Cue] = {
    "blink_asym": _asym("eyeBlink"),
    "blink_low": _low("eyeBlink"),
    "squint_asym": _asym("eyeSquint"),
    "eye_ratio": _geo("eye_open_ratio"),
    "eye_max": _geo("eye_open_max"),
    "brow_inner": _bs("browInnerUp"),
    "brow_outer": _pair("browOuterUp"),
    "brow_down": _pair("browDown"),
    "brow_raise": _geo("brow_raise"),
    "eye_wide": _pair("eyeWide"),
    "look": _look,
    "gaze_up": _geo("gaze_up"),
    "head_pitch": _geo("head_pitch"),
    "smile": _pair("mouthSmile"),
    "smile_asym": _asym("mouthSmile"),
    "dimple_asym": _asym("mouthDimple"),
    "shift": lambda r, n: abs(_bs("mouthLeft")(r, n) - _bs("mouthRight")(r, n)),
    "corner_asym": _geo("lip_corner_diff", absolute=True),
    "roll": _geo("head_roll", absolute=True),
    "pucker": _bs("mouthPucker"),
    "protrusion": _geo("lip_protrusion"),
    "mouth_width": _geo("mouth_width"),
    "funnel": _bs("mouthFunnel"),
    "jaw": _bs("jawOpen"),
    "mouth_open": _geo("mouth_open"),
    "roll_lower": _bs("mouthRollLower"),
    "roll_upper": _bs("mouthRollUpper"),
    "upper_up": _pair("mouthUpperUp"),
    "lower_down": _pair("mouthLowerDown"),
    "stretch": _pair("mouthStretch"),
    "press": _pair("mouthPress"),
    "frown": _pair("mouthFrown"),
    "shrug_lower": _bs("mouthShrugLower"),
    "sneer": _pair("noseSneer"),
    "tongue": _app("mouth_tongue"),
    "pink": _app("mouth_pink"),
    "teeth": _app("mouth_teeth"),
    "teeth_low": _app("mouth_teeth_low"),
    "dark": _app("mouth_dark"),
}
"""Every cue a sign may read, by name (the names stored in models/face_signs.json)."""


def cue_values(reading: FaceReading, neutral: Neutral, names: tuple[str, ...]) -> tuple[float, ...]:
    return tuple(CUES[name](reading, neutral) for name in names)


# -- models --------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SignModel:
    """``sigmoid(bias + sum(weight * (cue - center) / scale))`` over the sign's named cues."""

    gesture: Gesture
    cues: tuple[str, ...]
    center: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float

    def __post_init__(self) -> None:
        n = len(self.cues)
        if not n or not len(self.center) == len(self.scale) == len(self.weights) == n:
            raise VisionError(f"{self.gesture.value}: {n} cues but {len(self.weights)} weights: "
                              "rerun python -m trainer.lab.face_fit signs")
        unknown = [c for c in self.cues if c not in CUES]
        if unknown:
            raise VisionError(f"{self.gesture.value}: unknown cues {unknown}: "
                              "rerun python -m trainer.lab.face_fit signs")
        if any(not s > 0 for s in self.scale):
            raise VisionError(f"{self.gesture.value}: a non-positive scale: rerun python -m trainer.lab.face_fit signs")

    def logit(self, values: tuple[float, ...]) -> float:
        terms = zip(self.weights, values, self.center, self.scale, strict=False)
        total = self.bias + sum(w * (v - c) / s for w, v, c, s in terms)
        return max(-60.0, min(60.0, total))

    def probability(self, values: tuple[float, ...]) -> float:
        """The sign alone (no competitor): the logistic of its logit."""
        return 1.0 / (1.0 + math.exp(-self.logit(values)))

    def score(self, reading: FaceReading, neutral: Neutral) -> float:
        return self.probability(cue_values(reading, neutral, self.cues))

    def to_json(self) -> dict:
        return {"cues": list(self.cues), "center": [round(v, 6) for v in self.center],
                "scale": [round(v, 6) for v in self.scale], "weights": [round(v, 6) for v in self.weights],
                "bias": round(self.bias, 6)}

    @classmethod
    def from_json(cls, gesture: Gesture, data: Mapping) -> SignModel:
        try:
            fields = (tuple(str(c) for c in data["cues"]), tuple(float(v) for v in data["center"]),
                      tuple(float(v) for v in data["scale"]), tuple(float(v) for v in data["weights"]),
                      float(data["bias"]))
        except (KeyError, TypeError, ValueError):
            raise VisionError(f"bad model for {gesture.value} in the face signs file: "
                              "rerun python -m trainer.lab.face_fit signs") from None
        return cls(gesture, *fields)


@dataclass(frozen=True, slots=True)
class FaceSignParams:
    """Everything the population scorer needs: a model per sign and the population's neutral face."""

    models: tuple[SignModel, ...]
    population: Neutral
    min_face_px: float = 20.0
    held_out: Mapping[str, Mapping] = field(default_factory=dict)
    """Leave-one-person-out figures of the fit, per gesture (for reports; not used to score)."""
    compete: tuple[tuple[Gesture, ...], ...] = ()
    """Groups of signs that exclude each other on one face: scored by a softmax with "none"."""

    def __post_init__(self) -> None:
        seen: set[Gesture] = set()
        modelled = {m.gesture for m in self.models}
        for group in self.compete:
            missing = [g.value for g in group if g not in modelled]
            twice = [g.value for g in group if g in seen]
            if missing or twice or len(set(group)) != len(group):
                raise VisionError(f"face signs: competing group {[g.value for g in group]} names "
                                  f"{'signs without a model ' + str(missing) if missing else 'a sign twice'}: "
                                  "rerun python -m trainer.lab.face_fit signs")
            seen |= set(group)

    def model(self, gesture: Gesture) -> SignModel | None:
        return next((m for m in self.models if m.gesture is gesture), None)

    def to_json(self, about: Mapping | None = None) -> dict:
        return {"schema": SIGNS_SCHEMA, **(dict(about) if about else {}),
                "min_face_px": self.min_face_px, "population": self.population.to_json(),
                "signs": {m.gesture.value: m.to_json() for m in self.models},
                "compete": [[g.value for g in group] for group in self.compete],
                "held_out": dict(self.held_out)}

    @classmethod
    def from_json(cls, data: Mapping) -> FaceSignParams:
        if not isinstance(data, Mapping) or data.get("schema") != SIGNS_SCHEMA:
            raise VisionError(f"face signs file: schema {data.get('schema') if isinstance(data, Mapping) else None!r}"
                              f", expected {SIGNS_SCHEMA}: rerun python -m trainer.lab.face_fit signs")
        models = []
        for name, model in dict(data.get("signs", {})).items():
            try:
                gesture = Gesture(name)
            except ValueError:
                raise VisionError(f"face signs file names unknown gesture {name!r}") from None
            models.append(SignModel.from_json(gesture, model))
        try:
            compete = tuple(tuple(Gesture(name) for name in group) for group in data.get("compete", ()))
        except (TypeError, ValueError):
            raise VisionError(f"face signs file: bad competing groups {data.get('compete')!r}: "
                              "rerun python -m trainer.lab.face_fit signs") from None
        return cls(tuple(models), Neutral.from_json(data["population"]),
                   float(data.get("min_face_px", 20.0)), dict(data.get("held_out", {})), compete)


def load_face_signs(path: Path | str | None = None) -> FaceSignParams:
    """The population parameters from ``path`` (default models/face_signs.json); VisionError naming
    the file and the fix when it is missing or unreadable."""
    source = Path(path) if path is not None else DEFAULT_SIGNS
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise VisionError(f"no face signs parameters at {source}: run python -m trainer.lab.face_fit signs") from None
    except (OSError, json.JSONDecodeError) as error:
        raise VisionError(f"face signs parameters {source} unreadable ({error}): "
                          "rerun python -m trainer.lab.face_fit signs") from None
    return FaceSignParams.from_json(data)


# -- scoring -------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class FaceSignScores:
    scores: dict[Gesture, float]
    """0..1 per face sign; 0.5 is the decision threshold."""
    sides: dict[Gesture, Side]
    """The subject's own side of the sided signs (wink, lip_corner, head_tilt)."""


def score_face_signs(reading: FaceReading | None, neutral: Neutral | None,
                     params: FaceSignParams) -> FaceSignScores:
    """Scores and sides of every face sign for one face relative to ``neutral`` (None: the
    population's). No face, or one too small to read, scores 0 everywhere."""
    scores = {g: 0.0 for g in FACE_SIGNS}
    if reading is None or reading.geometry.get("face_px", params.min_face_px) < params.min_face_px:
        return FaceSignScores(scores, {})
    base = neutral or params.population
    scores.update(sign_probabilities(reading, base, params))
    # Both eyes shut is eyes_closed, not a wink (a firm one-eye closure often reads as both closing
    # a little; a blink is never perfectly even).
    scores[Gesture.WINK] = min(scores[Gesture.WINK], 1.0 - scores[Gesture.EYES_CLOSED])
    return FaceSignScores(scores, face_sides(reading, base))


def sign_probabilities(reading: FaceReading, neutral: Neutral, params: FaceSignParams) -> dict[Gesture, float]:
    """Each modelled sign's probability: a softmax with "none" inside a competing group, the logistic
    of its logit for a sign alone."""
    logits = {m.gesture: m.logit(cue_values(reading, neutral, m.cues)) for m in params.models}
    grouped = {g: group for group in params.compete for g in group}
    out = {}
    for gesture, z in logits.items():
        group = grouped.get(gesture, (gesture,))
        top = max(0.0, *(logits[g] for g in group))  # subtracted: exp stays finite
        out[gesture] = math.exp(z - top) / (math.exp(-top) + sum(math.exp(logits[g] - top) for g in group))
    return out


def face_sides(reading: FaceReading, neutral: Neutral) -> dict[Gesture, Side]:
    """The subject's side of a wink (the more closed eye), a lip corner (the higher corner) and a
    head tilt (the way the head rolls)."""
    b = _bs
    wink_left = b("eyeBlinkLeft")(reading, neutral) - b("eyeBlinkRight")(reading, neutral)
    if not reading.blendshapes:  # a recording without blendshapes: eye openness
        wink_left = -(_geo("eye_open_left")(reading, neutral) - _geo("eye_open_right")(reading, neutral))
    smile_left = b("mouthSmileLeft")(reading, neutral) - b("mouthSmileRight")(reading, neutral)
    corner_left = _geo("lip_corner_left")(reading, neutral) - _geo("lip_corner_right")(reading, neutral)
    # Blendshapes read a one-sided smile well; the corner heights settle it when they disagree little.
    lip_left = smile_left if abs(smile_left) >= 0.05 or not reading.blendshapes else corner_left
    return {
        Gesture.WINK: Side.LEFT if wink_left > 0 else Side.RIGHT,
        Gesture.LIP_CORNER: Side.LEFT if lip_left > 0 else Side.RIGHT,
        Gesture.HEAD_TILT: Side.LEFT if _geo("head_roll")(reading, neutral) > 0 else Side.RIGHT,
    }
