"""A human partner's signs reach the bot through a camera: missed, late, or seen when never made.

Two pieces:

- :class:`SignReliability`: how far a bot trusts a sign read by the recognizer, per gesture. A sign
  that arrives with the recognizer's ``confidence`` is believed with chance :meth:`trust` — the
  gesture's precision (how often a detection of it was that gesture) turned into odds and
  multiplied by how much likelier that confidence is for a sign made than for one never made. In
  the app the confidence's odds against the firing threshold (0.5) stand in for that ratio (a
  detection just at the threshold is as reliable as the precision says, a surer one more); the
  simulated camera knows its own shapes and uses their exact ratio
  (:func:`simulated_confidence_ratio`), so the arena's partner believes each read as often as such
  reads are true.
  A partner's *silence* says less when the gesture is often missed: it is believed with the
  gesture's recall. The default figures are data, :data:`EVAL_VISION_HELD_OUT`, with their source.
- :class:`NoisyChannel`: the simulated camera between the partners of one team in the arena
  (``aluette signal-value --channel MISS/FALSE_PER_MIN[/DELAY_S]``): each sign reaches the partner
  with chance ``1 - miss`` after ``delay_s`` seconds, and signs never made are seen at
  ``false_per_min`` per person per minute of play. The receiving bots are told the channel's own
  figures (:meth:`NoisyChannel.reliability`), as a bot in the app is told the recognizer's.
  ``camera`` is the product's own recognizer instead of one global rate: per gesture, its held-out
  recall and its false reads a minute while people talk and laugh (:data:`MEASURED_CAMERA`, from
  ``camera_figures.json``, written by ``python -m trainer.lab.camera_figures`` from
  ``aluette eval-vision --json``). ``+app`` adds the app's rule at a table without lies: a false
  read reaches the partner only when the hand holds what it signs, and only when held as long as
  the app asks of a camera sign (:data:`trainer.signals.table.CAMERA_MIN_HOLD_S`).

The invariant the model keeps: false reads are drawn without looking at the hand, so a receiver that
weighs each read by the channel's own precision gains nothing from them — the signing team's edge
with false reads added is at most its edge over the same channel without them
(``tests/bots/test_bots_false_signs.py``). Under ``+app`` the truth check makes the surviving false
reads true, so they do carry the hand: that is the app's rule, measured apart.

Records of signs read by a camera carry the gesture and confidence at the end of the game's sign
message (``"borgne @wink 0.830"``), written and read by the signals layer
(:func:`trainer.signals.table.record_text`, :func:`~trainer.signals.table.read_record`).

Imports trainer.rules and trainer.signals only.
"""

from __future__ import annotations

import functools
import json
import math
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import resources
from types import MappingProxyType
from typing import Any

from trainer.rules.cards import CARDS, LEVEL
from trainer.signals.conventions import CLASSIC, Convention
from trainer.signals.gestures import Gesture
from trainer.signals.signs import Sign
from trainer.signals.table import honest_signals

THRESHOLD = 0.5
"""The recognizer's firing score: a detection exactly at it is as reliable as the gesture's precision."""

# Held-out precision / recall per gesture (leave-one-person-or-video-out; the honest figure for a new
# face), from `aluette eval-vision ../shared/gestures`, 2026-12-01, as quoted in README.md
# ("Recognising the signs from a single photo") and docs/vision-face.md. Hand signs have no
# held-out figures there (hand-written rules, no fit): their in-sample figures are used. lip_bite's
# held-out 0/0 comes from one person only; its in-sample 1.00/0.75 is used instead. A gesture
# without figures (ring, writing: no real examples) gets DEFAULT_FIGURES.
EVAL_VISION_SOURCE = (
    "aluette eval-vision ../shared/gestures (2026-12-01): held-out precision/recall for face signs, "
    "in-sample for hand signs and lip_bite; README.md 'Recognising the signs from a single photo'"
)
_FIGURES: dict[Gesture, tuple[float, float]] = {
    Gesture.EYES_CLOSED: (1.00, 1.00),
    Gesture.LOOK_UP: (1.00, 1.00),
    Gesture.BROWS_UP: (0.62, 0.93),
    Gesture.MOUTH_OPEN: (0.80, 0.94),
    Gesture.HEAD_TILT: (1.00, 0.86),
    Gesture.WINK: (0.88, 0.88),
    Gesture.TONGUE_OUT: (0.92, 0.86),
    Gesture.LIP_BITE: (1.00, 0.75),
    Gesture.GRIMACE: (1.00, 0.12),
    Gesture.LIP_CORNER: (0.56, 0.71),
    Gesture.POUT: (1.00, 0.22),
    Gesture.THUMB: (1.00, 1.00),
    Gesture.PINKY: (0.93, 1.00),
    Gesture.INDEX: (1.00, 0.94),
    Gesture.INDEX_MIDDLE: (1.00, 1.00),
    Gesture.SHRUG: (0.86, 0.50),
}
DEFAULT_FIGURES = (0.85, 0.85)
# A perfect precision of 1.00 from a dozen photos is not certainty: figures are kept inside these
# bounds so that a strong contrary clue (a low confidence) still counts.
_FLOOR, _CEIL = 0.02, 0.98


def _odds(p: float) -> float:
    p = min(_CEIL, max(_FLOOR, p))
    return p / (1.0 - p)


@dataclass(frozen=True, slots=True)
class SignReliability:
    """Per-gesture precision and recall of the sign reader, with where the figures come from."""

    precision: Mapping[Gesture, float]
    recall: Mapping[Gesture, float]
    source: str
    default: tuple[float, float] = DEFAULT_FIGURES
    confidence_ratio: Callable[[float], float] | None = None
    """When the reader's confidence shapes are known (the simulated camera): how many times likelier
    a read at this confidence is from a sign made than from none. Without it, the confidence's odds
    against the threshold stand in for that ratio (the app's recognizer: its shapes are not known)."""

    def trust(self, gesture: Gesture | None, confidence: float | None) -> float:
        """Chance that a sign read as ``gesture`` with ``confidence`` was really made: the
        gesture's precision (the chance before looking at the confidence) updated by Bayes' rule
        with how much likelier that confidence is for a real sign than for a false one."""
        p = self.precision.get(gesture, self.default[0]) if gesture is not None else self.default[0]
        if confidence is None:
            return min(_CEIL, max(_FLOOR, p))
        if self.confidence_ratio is None:
            odds = _odds(p) * _odds(confidence) / _odds(THRESHOLD)
        elif p >= 1.0:  # a channel that never invents a sign: every read is a sign made
            return _CEIL
        else:
            odds = min(_odds(_CEIL), max(_odds(_FLOOR), p / (1.0 - p) * self.confidence_ratio(confidence)))
        return odds / (1.0 + odds)

    def silence_trust(self, gesture: Gesture | None) -> float:
        """Chance that a sign made with ``gesture`` would have been read (a silence means no sign)."""
        return self.recall.get(gesture, self.default[1]) if gesture is not None else self.default[1]


EVAL_VISION_HELD_OUT = SignReliability(
    precision=MappingProxyType({g: pr[0] for g, pr in _FIGURES.items()}),
    recall=MappingProxyType({g: pr[1] for g, pr in _FIGURES.items()}),
    source=EVAL_VISION_SOURCE,
)
"""The recognizer's figures, per gesture: what a bot assumes of a person's signs in the app."""


# -- the simulated channel -------------------------------------------------------------------------

SECONDS_PER_SIGN_POINT = 15.0
"""Assumed time between two sign points at a table of people (about one trick): turns the channel's
per-minute false-sign rate and its delay in seconds into sign points."""

TRUE_SIGNS_PER_MINUTE = 1.0
"""Assumed rate of real signs by one player (the arena's bots make about two a deal of about two
minutes): with the false-sign rate it gives the channel's precision."""


@dataclass(frozen=True, slots=True)
class GestureRate:
    """One gesture's figures in a measured camera: the share of its signs read, and its false
    reads per person and minute (while talking and laughing)."""

    gesture: Gesture
    recall: float
    false_per_min: float


@dataclass(frozen=True, slots=True)
class NoisyChannel:
    """The camera between the partners of one team: ``miss`` chance a sign is not read,
    ``false_per_min`` signs read per person and minute that were never made, ``delay_s`` seconds
    before a read sign reaches the partner. ``per_gesture``: a measured camera's own figures per
    gesture (then ``miss`` and ``false_per_min`` are their totals, for the label and the JSON);
    ``app_rule``: the app's truth check and minimum hold applied to false reads (module docstring)."""

    miss: float = 0.0
    false_per_min: float = 0.0
    delay_s: float = 0.0
    _figures: tuple[object, ...] = field(default=(), repr=False, compare=False)
    per_gesture: tuple[GestureRate, ...] = ()
    app_rule: bool = False
    name: str = ""

    def __post_init__(self) -> None:
        if not 0.0 <= self.miss <= 1.0:
            raise ValueError(f"the channel's miss rate is a share between 0 and 1, got {self.miss!r}")
        if self.false_per_min < 0 or self.delay_s < 0:
            raise ValueError(
                f"false signs per minute and delay are >= 0, got {self.false_per_min!r} and {self.delay_s!r}"
            )
        for r in self.per_gesture:
            if not 0.0 <= r.recall <= 1.0 or r.false_per_min < 0:
                raise ValueError(f"bad figures for {r.gesture.value}: recall {r.recall!r}, "
                                 f"false/min {r.false_per_min!r}")

    @classmethod
    def measured(cls, figures: CameraFigures | None = None, *, delay_s: float = 0.0,
                 app_rule: bool = False, convention: Convention = CLASSIC) -> NoisyChannel:
        """The product's camera: per gesture of ``convention``, the recognizer's measured recall and
        false reads a minute (default :data:`MEASURED_CAMERA_FIGURES`). Gestures without figures
        read with :data:`DEFAULT_FIGURES`' recall and no false reads. Under ``app_rule`` the false
        reads are those held at least the app's minimum hold."""
        figures = figures if figures is not None else measured_camera_figures()
        rates = tuple(
            GestureRate(g, figures.recall(g), figures.false_per_min(g, held=app_rule)) for g in convention.gestures
        )
        shares = sign_shares(convention)
        miss = sum(shares[r.gesture] * (1.0 - r.recall) for r in rates)
        return cls(round(miss, 4), round(sum(r.false_per_min for r in rates), 4), delay_s,
                   per_gesture=rates, app_rule=app_rule, name="measured camera")

    @classmethod
    def parse(cls, text: str) -> NoisyChannel:
        """``perfect``, ``READ/FALSE_PER_MIN[/DELAY_S]`` with READ the share of signs read
        (``0.9/1`` = 90 % read, one false sign a minute; ``70%/3/2`` adds a 2 s delay), or ``camera``
        (the recognizer's measured figures per gesture, :meth:`measured`); ``+app`` after either
        applies the app's rule to the false reads (``camera+app``, ``1/4+app``)."""
        t = text.strip().lower()
        app = t.endswith("+app")
        if app:
            t = t[: -len("+app")].strip()
        if t in ("perfect", "none", "") and not app:
            return cls()
        if t.startswith("camera"):
            parts = t.split("/")
            try:
                delay = float(parts[1]) if len(parts) == 2 else 0.0
                if parts[0] != "camera" or len(parts) > 2:
                    raise ValueError(text)
            except ValueError:
                raise ValueError(f"bad channel {text!r}: write camera, camera/DELAY_S or camera+app") from None
            return cls.measured(delay_s=delay, app_rule=app)
        if t in ("perfect", "none", ""):
            return cls(app_rule=True)
        parts = t.split("/")
        try:
            read = float(parts[0].rstrip("%")) / (100.0 if parts[0].endswith("%") else 1.0)
            false = float(parts[1]) if len(parts) > 1 else 0.0
            delay = float(parts[2]) if len(parts) > 2 else 0.0
            if len(parts) > 3:
                raise ValueError(text)
        except ValueError:
            raise ValueError(
                f"bad channel {text!r}: write perfect or READ/FALSE_PER_MIN[/DELAY_S], e.g. 0.9/1 or 70%/3/2"
            ) from None
        return cls(1.0 - read, false, delay, app_rule=app)

    @property
    def perfect(self) -> bool:
        return self.miss == 0 and self.false_per_min == 0 and self.delay_s == 0 and not self.per_gesture

    @property
    def label(self) -> str:
        if self.perfect:
            return "perfect"
        if self.per_gesture:
            text = (f"{self.name or 'measured camera'} ({100 * (1 - self.miss):.0f}% read, "
                    f"{self.false_per_min:.2g} false/min)")
        else:
            text = f"{100 * (1 - self.miss):.0f}% read, {self.false_per_min:g} false/min"
        text += f", {self.delay_s:g} s late" if self.delay_s else ""
        return text + (", app rule" if self.app_rule else "")

    def miss_for(self, gesture: Gesture | None) -> float:
        """The chance a sign made with ``gesture`` is not read."""
        for r in self.per_gesture:
            if r.gesture is gesture:
                return 1.0 - r.recall
        return self.miss

    @property
    def false_per_point(self) -> float:
        """Expected false signs per person at one sign point."""
        return self.false_per_min * SECONDS_PER_SIGN_POINT / 60.0

    @property
    def delay_points(self) -> int:
        """Sign points a read sign waits before it reaches the partner."""
        return int(math.ceil(self.delay_s / SECONDS_PER_SIGN_POINT - 1e-9))

    def reliability(self) -> SignReliability:
        """The channel's own figures (what the receiving bot is told): the same for every gesture
        for a channel of global rates; per gesture for a measured camera, its precision the share
        of its reads that were made, from its recall, its false reads and how often the sign is
        made (:func:`sign_shares` of :data:`TRUE_SIGNS_PER_MINUTE`)."""
        if self.per_gesture:
            shares = sign_shares(CLASSIC)
            precision, recall = {}, {}
            for r in self.per_gesture:
                true_rate = TRUE_SIGNS_PER_MINUTE * shares.get(r.gesture, 0.0) * r.recall
                total = true_rate + r.false_per_min
                precision[r.gesture] = 1.0 if r.false_per_min == 0 else true_rate / total
                recall[r.gesture] = r.recall
            mean_p = sum(shares.get(g, 0.0) * p for g, p in precision.items())
            return SignReliability(
                MappingProxyType(precision), MappingProxyType(recall), f"simulated channel: {self.label}",
                default=(mean_p, 1.0 - self.miss), confidence_ratio=simulated_confidence_ratio,
            )
        read = 1.0 - self.miss
        true_rate = TRUE_SIGNS_PER_MINUTE * read
        share = 1.0 if self.false_per_min == 0 else true_rate / (true_rate + self.false_per_min)
        figures = {g: share for g in Gesture}
        return SignReliability(
            MappingProxyType(figures), MappingProxyType({g: read for g in Gesture}),
            f"simulated channel: {self.label}", default=(share, read),
            confidence_ratio=simulated_confidence_ratio,
        )

    # Confidence the simulated recognizer reports. Assumed shapes (not measured): a real sign is
    # read with a score spread over 0.5..1 leaning high (mean 0.83), a false one near the threshold
    # (0.5..0.8, mean 0.65) — so a confidence is informative, as the product's scores are.
    @staticmethod
    def true_confidence(rng: random.Random) -> float:
        return THRESHOLD + (1.0 - THRESHOLD) * math.sqrt(rng.random())

    @staticmethod
    def false_confidence(rng: random.Random) -> float:
        return THRESHOLD + (_FALSE_TOP - THRESHOLD) * rng.random()

    def false_signs(self, rng: random.Random) -> int:
        """How many false signs one person shows at one sign point (Poisson)."""
        return _poisson(rng, self.false_per_point)

    def false_gestures(self, rng: random.Random, gestures: tuple[Gesture, ...]) -> Iterator[Gesture]:
        """The gestures read falsely from one person at one sign point, drawn without looking at
        the hand: a global rate spread evenly over ``gestures`` (the convention's), or each
        measured gesture at its own rate. A generator: the caller's own draws between two reads
        (their confidence) keep the order of the generator's draws, so a run replays."""
        if not self.per_gesture:
            for _ in range(self.false_signs(rng)):
                yield gestures[int(rng.random() * len(gestures))]
            return
        for r in self.per_gesture:
            if r.gesture in gestures:
                for _ in range(_poisson(rng, r.false_per_min * SECONDS_PER_SIGN_POINT / 60.0)):
                    yield r.gesture


_FALSE_TOP = 0.8
"""The simulated camera never reads a false sign above this confidence."""


def simulated_confidence_ratio(confidence: float) -> float:
    """How many times likelier a read at ``confidence`` is from a sign made than from none, for the
    simulated camera's shapes (:meth:`NoisyChannel.true_confidence`, :meth:`~NoisyChannel.false_confidence`):
    a real sign's confidence has density 8 (c - 0.5) on 0.5..1, a false one's is flat on 0.5..0.8.
    A receiver told the channel's precision and this ratio believes each read as often as such reads
    are true (``tests/bots/test_bots_channel_calibration.py``); the odds against the threshold it
    replaces believed a false-looking read at 0.65 through a camera inventing four signs a minute
    0.46 of the time, when 0.08 of such reads are real."""
    if confidence > _FALSE_TOP:
        return 1e6  # only real signs read this high: certain, short of the bounds trust keeps
    true_density = 2.0 * (confidence - THRESHOLD) / (1.0 - THRESHOLD) ** 2
    false_density = 1.0 / (_FALSE_TOP - THRESHOLD)
    return max(0.0, true_density / false_density)


def _poisson(rng: random.Random, lam: float) -> int:
    if lam <= 0:
        return 0
    k, p, limit = 0, rng.random(), math.exp(-lam)
    while p > limit:
        k += 1
        p *= rng.random()
    return k


# -- how often each sign is made, and the measured camera ------------------------------------------

@functools.lru_cache(maxsize=8)
def sign_shares(convention: Convention = CLASSIC, hands: int = 4000) -> Mapping[Gesture, float]:
    """The share of a player's true signs made with each gesture of ``convention``: the honest signs
    of ``hands`` random 9-card hands (a fixed seed, so always the same figures), and the mordienne
    intention for a hand made for it (three luettes, or two luettes and two doubles, as the
    heuristic's ``mordienne_hand``). Turns one true-sign rate into one per gesture."""
    rng = random.Random(0)
    counts: dict[Gesture, int] = {g: 0 for g in convention.gestures}
    for _ in range(hands):
        hand = rng.sample(CARDS, 9)
        signs = [s.sign for s in honest_signals(hand)]
        luettes = sum(1 for c in hand if LEVEL[c.index] <= 4)
        doubles = sum(1 for c in hand if 5 <= LEVEL[c.index] <= 8)
        if luettes >= 3 or (luettes >= 2 and doubles >= 2):
            signs.append(Sign.MORDIENNE)
        for sign in signs:
            gestures = convention.gestures_for(sign)
            if gestures:
                counts[gestures[0]] += 1
    total = sum(counts.values()) or 1
    return MappingProxyType({g: n / total for g, n in counts.items()})


@dataclass(frozen=True, slots=True)
class CameraFigures:
    """The recognizer's measured figures per gesture, with their source (``camera_figures.json``)."""

    source: str
    minutes: float
    """Minutes of talking and laughing clips the false reads were counted over."""
    recalls: Mapping[Gesture, float]
    false_events: Mapping[Gesture, tuple[float, ...]]
    """Per gesture, how long (s) each false read lasted on those clips."""
    min_hold_s: float = 0.0
    """The app's minimum hold for a camera sign: false reads shorter than it are not sent."""

    def recall(self, gesture: Gesture) -> float:
        return self.recalls.get(gesture, DEFAULT_FIGURES[1])

    def false_per_min(self, gesture: Gesture, *, held: bool = False) -> float:
        """False reads a minute of ``gesture`` (``held``: only those lasting the app's minimum hold)."""
        durations = self.false_events.get(gesture, ())
        if held:
            durations = tuple(d for d in durations if d >= self.min_hold_s)
        return len(durations) / self.minutes if self.minutes > 0 else 0.0

    @classmethod
    def from_json(cls, data: dict[str, Any], min_hold_s: float = 0.0) -> CameraFigures:
        gestures = data["gestures"]
        return cls(
            source=str(data["source"]), minutes=float(data["talking_minutes"]),
            recalls=MappingProxyType({Gesture(g): float(v["recall"]) for g, v in gestures.items()
                                      if v.get("recall") is not None}),
            # A duration the source does not give (null) counts as held long: it passes any hold.
            false_events=MappingProxyType({Gesture(g): tuple(math.inf if d is None else float(d)
                                                             for d in v.get("false_durations_s", ()))
                                           for g, v in gestures.items()}),
            min_hold_s=min_hold_s,
        )


@functools.lru_cache(maxsize=1)
def measured_camera_figures() -> CameraFigures:
    """The shipped figures (``trainer/bots/camera_figures.json``), with the app's minimum hold."""
    from trainer.signals.table import CAMERA_MIN_HOLD_S

    text = resources.files("trainer.bots").joinpath("camera_figures.json").read_text(encoding="utf-8")
    return CameraFigures.from_json(json.loads(text), CAMERA_MIN_HOLD_S)
