"""Checking what teaching learns: is a take of a sign really that sign, and how reliably will the
taught signs be seen?

Why: teaching used to accept any footage. A session that ignored all its prompts (the person sat,
talked, looked around) was "taught" seven signs, and two of them then fired on its own footage. A
take is now judged as soon as it ends (``check_take``), against the person's own neutral face and
talking, in the whitened space of ``personal.RestSpace`` (changes in units of how much each feature
wanders at rest):

* **The asked sign moved.** The sign's own features (``SIGN_FEATURES``: the brows for raised brows,
  one eye more than the other for a wink, the pucker or funnel for a pout...) changed by at least
  ``CUE_MIN`` rest spreads over the take's core. A take where the face changed, but not there, shows
  something else.
* **Not speech.** The neutral and talking frames reach at most ``SPEECH_MAX`` of the take's strength
  along its own change (the 99th percentile, frames with a fit that counts, as the rejection margin
  of ``personal.teach``): a take that speech reaches anyway teaches a sign that speech fires. And the
  take is *held*: its strength along its own change reverses direction at most ``REVERSALS_MAX``
  times (a sign rises, holds and falls: 0-1 reversals on every sign span of the recorded clips;
  lp_d13 talking for 2.5 s: 7).
* **Like the other takes.** From the second take on, its change points the same way as the takes of
  that sign already accepted (cosine at least ``LIKE_MIN``, a sided sign also mirrored).

Each criterion is a ratio to its bar; the smallest is the take's ``meter`` (1 = just clear enough),
which the Teach page shows beside the reason. A refused take keeps nothing.

After teaching, ``reliability`` says per sign how reliably it will be seen: each take held out in
turn (taught from the others, the take scored frame by frame; seen when ``HOLD_FRAMES`` frames in a
row reach the threshold) and the talking held out by halves.

Pure numpy; no MediaPipe, no clock. Must not import the rules engine, bots, quiz or UI.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from trainer.signals.gestures import Gesture
from trainer.vision.hand_gestures import count_reversals
from trainer.vision.personal import (
    ENTER,
    FIT_MIN,
    MIN_TAKE_FRAMES,
    FeatureFrames,
    PersonalSigns,
    RestSpace,
    has_blendshapes,
    mirror_index,
    mirrored,
    rest_reach,
    teach,
)
from trainer.vision.types import VisionError

CUE_MIN = 3.0
"""The asked sign's own features must move at least this many rest spreads (3 x how much they wander
at rest, and at least 0.09 of a blendshape, 6 degrees of roll, 0.12 of gaze)."""
SPEECH_MAX = 0.85
"""Rest frames (neutral and talking) may reach at most this share of the take's strength (the 99th
percentile). lp_d13's pout (lips pushed forward and to one side) is reached to 0.76 by her talking,
which puckers too: the recognizer's talking rule (a mouth sign held 800 ms while talking) keeps
speech from firing it, so it is taught; talking given as a take reaches itself to 0.99-1.31."""
REVERSALS_MAX = 2
"""A take's strength along its own change may reverse direction this often (moves of at least
``REVERSAL_MOVE`` of its strength): a sign rises, is held and falls; speech goes back and forth."""
REVERSAL_MOVE = 0.35
LIKE_MIN = 0.35
"""Cosine between a take's change and the mean of the accepted takes of that sign. Low on purpose: a
round O and a wide opening with teeth are both an open mouth (cosine 0.45 on lp_d18), a take that
shows another thing entirely scores near 0 (a glance down against a smirk: 0.19 on lp_d19)."""
HOLD_FRAMES = 3
"""Frames in a row at or over the threshold that make a held-out take "seen" (100 ms at 30 fps, the
recognizer's hold)."""


def _mean(*values: float) -> float:
    return sum(values) / len(values)


SIGN_FEATURES: dict[Gesture, Callable[[Mapping[str, float]], float]] = {
    Gesture.BROWS_UP: lambda z: max(z["browInnerUp"], _mean(z["browOuterUpLeft"], z["browOuterUpRight"])),
    Gesture.LOOK_UP: lambda z: max(_mean(z["eyeLookUpLeft"], z["eyeLookUpRight"]), z["gaze_up"]),
    Gesture.LIP_CORNER: lambda z: max(abs(z["mouthSmileLeft"] - z["mouthSmileRight"]),
                                      abs(z["mouthDimpleLeft"] - z["mouthDimpleRight"]),
                                      abs(z["mouthUpperUpLeft"] - z["mouthUpperUpRight"]),
                                      abs(z["mouthLeft"] - z["mouthRight"])),
    Gesture.HEAD_TILT: lambda z: abs(z["head_roll"]),
    Gesture.WINK: lambda z: abs(z["eyeBlinkLeft"] - z["eyeBlinkRight"]),
    Gesture.EYES_CLOSED: lambda z: min(z["eyeBlinkLeft"], z["eyeBlinkRight"]),
    Gesture.POUT: lambda z: max(z["mouthPucker"], z["mouthFunnel"]),
    Gesture.MOUTH_OPEN: lambda z: max(z["jawOpen"], _mean(z["mouthLowerDownLeft"], z["mouthLowerDownRight"])),
    Gesture.TONGUE_OUT: lambda z: max(z["tongueOut"], z["mouth_pink"]),
    Gesture.LIP_BITE: lambda z: max(z["mouthRollLower"], _mean(z["mouthPressLeft"], z["mouthPressRight"])),
    Gesture.GRIMACE: lambda z: max(_mean(z["mouthStretchLeft"], z["mouthStretchRight"]),
                                   _mean(z["mouthUpperUpLeft"], z["mouthUpperUpRight"]),
                                   _mean(z["noseSneerLeft"], z["noseSneerRight"]), z["mouth_teeth"]),
}
"""How far each face sign's own features moved, in rest spreads, from a take's mean change (a
feature this face model lacks reads 0). The features a person cannot make a sign without: raised
brows raise the brows, a wink closes one eye more than the other, a pout puckers or funnels the lips."""

NOUNS: dict[Gesture, str] = {
    Gesture.BROWS_UP: "raised brows",
    Gesture.LOOK_UP: "look up",
    Gesture.LIP_CORNER: "raised lip corner",
    Gesture.HEAD_TILT: "head tilt",
    Gesture.WINK: "wink",
    Gesture.EYES_CLOSED: "closed eyes",
    Gesture.POUT: "pout",
    Gesture.MOUTH_OPEN: "open mouth",
    Gesture.TONGUE_OUT: "tongue out",
    Gesture.LIP_BITE: "lip bite",
    Gesture.GRIMACE: "grimace",
}


class TakeRefused(VisionError):
    """A take (or a span given as one) does not show its sign clearly; nothing was kept from it."""


@dataclass(frozen=True, slots=True)
class TakeCheck:
    """The verdict on one take: accepted or not, why, and how close to the bar (``meter``)."""

    gesture: Gesture
    accepted: bool
    meter: float
    """The smallest of the criteria's ratios to their bars: 1 = just clear enough."""
    cue: float
    """How far the sign's own features moved (rest spreads)."""
    speech: float
    """Share of the take's strength that the neutral and talking frames reach along it."""
    reversals: int
    """How often the take's strength along its own change reversed (a held sign: 0-1)."""
    likeness: float | None
    """Cosine to the accepted takes of the sign (None for the first take)."""
    reason: str = ""

    def message(self) -> str:
        """What the person is told: "" when accepted."""
        return "" if self.accepted else f"{self.reason}: try again"


def _named(space: RestSpace, change: np.ndarray) -> dict[str, float]:
    named = dict.fromkeys(_ALL_FEATURES, 0.0)
    named.update(zip(space.dims, (float(v) for v in change), strict=False))
    return named


_ALL_FEATURES = ("browInnerUp", "browOuterUpLeft", "browOuterUpRight", "eyeLookUpLeft", "eyeLookUpRight",
                 "gaze_up", "mouthSmileLeft", "mouthSmileRight", "mouthDimpleLeft", "mouthDimpleRight",
                 "mouthUpperUpLeft", "mouthUpperUpRight", "mouthLeft", "mouthRight", "head_roll",
                 "eyeBlinkLeft", "eyeBlinkRight", "mouthPucker", "mouthFunnel", "jawOpen",
                 "mouthLowerDownLeft", "mouthLowerDownRight", "tongueOut", "mouth_pink", "mouthRollLower",
                 "mouthPressLeft", "mouthPressRight", "mouthStretchLeft", "mouthStretchRight",
                 "noseSneerLeft", "noseSneerRight", "mouth_teeth")


def take_change(space: RestSpace, take: FeatureFrames) -> np.ndarray:
    """A take's mean change over its core (whitened); TakeRefused when it has too few face frames."""
    return space.core(_whitened_take(space, take))


def _whitened_take(space: RestSpace, take: FeatureFrames) -> np.ndarray:
    z = space.whiten(take)
    if len(z) < MIN_TAKE_FRAMES:
        raise TakeRefused(f"{len(z)} frame(s) with a face: stay in view of the camera and hold the sign")
    return z


def check_take(
    gesture: Gesture,
    take: FeatureFrames,
    space: RestSpace,
    rest: FeatureFrames = (),
    accepted: Sequence[FeatureFrames] = (),
) -> TakeCheck:
    """Whether ``take`` (frames of one take of ``gesture``) shows the sign clearly: its own features
    moved, speech does not reach it, and it is like the ``accepted`` takes of that sign. ``space`` is
    the person's neutral (``RestSpace.of``), ``rest`` their talking frames."""
    if gesture not in SIGN_FEATURES:
        raise VisionError(f"{gesture.value} is not a face sign that can be taught")
    noun = NOUNS[gesture]
    try:
        z = _whitened_take(space, take)
    except TakeRefused as refused:
        return TakeCheck(gesture, False, 0.0, 0.0, 1.0, 0, None, f"no face seen in that take of the {noun} ({refused})")
    change = space.core(z)
    cue = SIGN_FEATURES[gesture](_named(space, change))
    norm = float(change @ change)
    reversals = count_reversals(list(z @ change / norm), REVERSAL_MOVE) if norm > 0 else 0
    rest_z = np.vstack([space.whiten(space.neutral_rows), space.whiten(rest)])
    candidates = [change]
    mirror = mirror_index(space.dims)
    if gesture.sided:
        candidates.append(mirrored(change, space.dims, mirror))
    speech = rest_reach(rest_z, change, FIT_MIN, space.rest_energy) if float(change @ change) > 0 else 1.0
    likeness = None
    if accepted:
        others = np.mean([take_change(space, t) for t in accepted], axis=0)
        likeness = max(_cosine(c, others) for c in candidates)
    ratios = {"cue": cue / CUE_MIN, "speech": SPEECH_MAX / max(speech, 1e-9),
              "held": (REVERSALS_MAX + 1) / (reversals + 1)}
    if likeness is not None:
        ratios["like"] = likeness / LIKE_MIN
    # The meter shows how much of the sign the take showed; a take that came and went is held to the
    # "held" ratio too, so its meter never reads as clear.
    meter = min(v for k, v in ratios.items() if k != "held")
    if ratios["held"] < 1.0:
        meter = min(meter, ratios["held"])
    meter = max(0.0, meter)
    if ratios["cue"] < 1.0:
        reason = f"no clear {noun} in that take"
    elif ratios["speech"] < 1.0:
        reason = f"that take of the {noun} looks like your talking or resting face: make it bigger and hold it"
    elif ratios["held"] < 1.0:
        reason = f"that take of the {noun} came and went {reversals} times, as speech does: make it once and hold it"
    elif likeness is not None and ratios["like"] < 1.0:
        reason = f"that take is not like your other take{'s' if len(accepted) > 1 else ''} of the {noun}: " \
                 "make it the same way"
    else:
        reason = ""
    return TakeCheck(gesture, not reason, meter, cue, speech, reversals, likeness, reason)


def _cosine(a: np.ndarray, b: np.ndarray) -> float:
    na, nb = float(np.linalg.norm(a)), float(np.linalg.norm(b))
    return float(a @ b / (na * nb)) if na > 0 and nb > 0 else 0.0


def check_takes(
    neutral: FeatureFrames,
    takes: Mapping[Gesture, Sequence[FeatureFrames]],
    rest: FeatureFrames = (),
) -> dict[Gesture, tuple[TakeCheck, ...]]:
    """Every take checked in order, each against the takes of its sign accepted before it (as the
    live session checks them one by one)."""
    space = RestSpace.of(neutral)
    out: dict[Gesture, tuple[TakeCheck, ...]] = {}
    for gesture, gesture_takes in takes.items():
        kept: list[FeatureFrames] = []
        checks = []
        for take in gesture_takes:
            check = check_take(gesture, take, space, rest, kept)
            checks.append(check)
            if check.accepted:
                kept.append(take)
        out[gesture] = tuple(checks)
    return out


# -- how reliably the taught signs will be seen -----------------------------------------------------

@dataclass(frozen=True, slots=True)
class SignReliability:
    """Held out across the takes: how many held-out takes were seen; how often talking reaches it."""

    gesture: Gesture
    takes: int
    seen: int
    """Held-out takes seen (0 when the sign has one take: nothing to hold out)."""
    tested: int
    talking_frames: int
    talking_over: float
    """Share of the held-out talking frames at or over the threshold (in runs of ``HOLD_FRAMES``)."""

    def describe(self) -> str:
        noun = NOUNS.get(self.gesture, self.gesture.value)
        if self.tested:
            text = f"{noun}: seen in {self.seen} of {self.tested} held-out takes"
        else:
            text = f"{noun}: one take, nothing to hold out (teach 2 or 3 takes to know how reliably it is seen)"
        if self.talking_frames:
            text += f"; talking reaches it on {100 * self.talking_over:.0f} % of {self.talking_frames} frames"
        return text


def _held(scores: np.ndarray) -> np.ndarray:
    """Frames inside a run of at least ``HOLD_FRAMES`` frames at or over the threshold."""
    over = scores >= ENTER
    out = np.zeros_like(over)
    run = 0
    for i, on in enumerate(over):
        run = run + 1 if on else 0
        if run >= HOLD_FRAMES:
            out[i - run + 1:i + 1] = True
    return out


def _scores(model: PersonalSigns, frames: FeatureFrames, gesture: Gesture) -> np.ndarray:
    return np.array([model.matches(f)[gesture].score for f in frames if has_blendshapes(f)], dtype=float)


def reliability(
    neutral: FeatureFrames,
    takes: Mapping[Gesture, Sequence[FeatureFrames]],
    rest: FeatureFrames = (),
) -> dict[Gesture, SignReliability]:
    """Per taught sign: each take held out in turn (taught from the others, every other sign with all
    its takes) and seen or not; the talking held out by halves (taught from one half, scored on the
    other)."""
    out: dict[Gesture, SignReliability] = {}
    rest = [f for f in rest if has_blendshapes(f)]
    halves = (rest[: len(rest) // 2], rest[len(rest) // 2:]) if len(rest) >= 2 else ()
    talk_models = [(teach(neutral, takes, half), other) for half, other in (halves, halves[::-1])] if halves else []
    for gesture, gesture_takes in takes.items():
        seen = tested = 0
        if len(gesture_takes) >= 2:
            for k, held in enumerate(gesture_takes):
                others = {g: (list(ts[:k]) + list(ts[k + 1:]) if g is gesture else ts) for g, ts in takes.items()}
                model = teach(neutral, others, rest)
                tested += 1
                seen += bool(_held(_scores(model, held, gesture)).any())
        over = frames = 0
        for model, other in talk_models:
            talked = _held(_scores(model, other, gesture))
            over += int(talked.sum())
            frames += len(talked)
        out[gesture] = SignReliability(gesture, len(gesture_takes), seen, tested, frames,
                                       over / frames if frames else 0.0)
    return out
