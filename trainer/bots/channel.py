"""A human partner's signs reach the bot through a camera: missed, late, or seen when never made.

Two pieces:

- :class:`SignReliability`: how far a bot trusts a sign read by the recognizer, per gesture. A sign
  that arrives with the recognizer's ``confidence`` is believed with chance :meth:`trust` — the
  gesture's precision (how often a detection of it was that gesture) turned into odds and
  multiplied by the confidence's odds against the firing threshold (0.5): a detection just at the
  threshold is as reliable as the gesture's precision says, a surer one more, a weaker one less.
  A partner's *silence* says less when the gesture is often missed: it is believed with the
  gesture's recall. The default figures are data, :data:`EVAL_VISION_HELD_OUT`, with their source.
- :class:`NoisyChannel`: the simulated camera between the partners of one team in the arena
  (``aluette signal-value --channel MISS/FALSE_PER_MIN[/DELAY_S]``): each sign reaches the partner
  with chance ``1 - miss`` after ``delay_s`` seconds, and signs never made are seen at
  ``false_per_min`` per person per minute of play. The receiving bots are told the channel's own
  figures (:meth:`NoisyChannel.reliability`), as a bot in the app is told the recognizer's.

Records of signs read by a camera carry the gesture and confidence at the end of the game's sign
message (``"borgne @wink 0.830"``), written and read by the signals layer
(:func:`trainer.signals.table.record_text`, :func:`~trainer.signals.table.read_record`).

Imports trainer.signals only.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

from trainer.signals.gestures import Gesture

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

    def trust(self, gesture: Gesture | None, confidence: float | None) -> float:
        """Chance that a sign read as ``gesture`` with ``confidence`` was really made."""
        p = self.precision.get(gesture, self.default[0]) if gesture is not None else self.default[0]
        if confidence is None:
            return min(_CEIL, max(_FLOOR, p))
        odds = _odds(p) * _odds(confidence) / _odds(THRESHOLD)
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
class NoisyChannel:
    """The camera between the partners of one team: ``miss`` chance a sign is not read,
    ``false_per_min`` signs read per person and minute that were never made, ``delay_s`` seconds
    before a read sign reaches the partner."""

    miss: float = 0.0
    false_per_min: float = 0.0
    delay_s: float = 0.0
    _figures: tuple = field(default=(), repr=False, compare=False)

    def __post_init__(self) -> None:
        if not 0.0 <= self.miss <= 1.0:
            raise ValueError(f"the channel's miss rate is a share between 0 and 1, got {self.miss!r}")
        if self.false_per_min < 0 or self.delay_s < 0:
            raise ValueError(
                f"false signs per minute and delay are >= 0, got {self.false_per_min!r} and {self.delay_s!r}"
            )

    @classmethod
    def parse(cls, text: str) -> "NoisyChannel":
        """``perfect`` or ``READ/FALSE_PER_MIN[/DELAY_S]`` with READ the share of signs read
        (``0.9/1`` = 90 % read, one false sign a minute; ``70%/3/2`` adds a 2 s delay)."""
        t = text.strip().lower()
        if t in ("perfect", "none", ""):
            return cls()
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
        return cls(1.0 - read, false, delay)

    @property
    def perfect(self) -> bool:
        return self.miss == 0 and self.false_per_min == 0 and self.delay_s == 0

    @property
    def label(self) -> str:
        if self.perfect:
            return "perfect"
        text = f"{100 * (1 - self.miss):.0f}% read, {self.false_per_min:g} false/min"
        return text + (f", {self.delay_s:g} s late" if self.delay_s else "")

    @property
    def false_per_point(self) -> float:
        """Expected false signs per person at one sign point."""
        return self.false_per_min * SECONDS_PER_SIGN_POINT / 60.0

    @property
    def delay_points(self) -> int:
        """Sign points a read sign waits before it reaches the partner."""
        return int(math.ceil(self.delay_s / SECONDS_PER_SIGN_POINT - 1e-9))

    def reliability(self) -> SignReliability:
        """The channel's own figures, the same for every gesture (what the receiving bot is told)."""
        read = 1.0 - self.miss
        true_rate = TRUE_SIGNS_PER_MINUTE * read
        precision = 1.0 if self.false_per_min == 0 else true_rate / (true_rate + self.false_per_min)
        figures = {g: precision for g in Gesture}
        return SignReliability(
            MappingProxyType(figures), MappingProxyType({g: read for g in Gesture}),
            f"simulated channel: {self.label}", default=(precision, read),
        )

    # Confidence the simulated recognizer reports. Assumed shapes (not measured): a real sign is
    # read with a score spread over 0.5..1 leaning high (mean 0.83), a false one near the threshold
    # (0.5..0.8, mean 0.65) — so a confidence is informative, as the product's scores are.
    @staticmethod
    def true_confidence(rng: random.Random) -> float:
        return 0.5 + 0.5 * math.sqrt(rng.random())

    @staticmethod
    def false_confidence(rng: random.Random) -> float:
        return 0.5 + 0.3 * rng.random()

    def false_signs(self, rng: random.Random) -> int:
        """How many false signs one person shows at one sign point (Poisson)."""
        lam = self.false_per_point
        if lam <= 0:
            return 0
        k, p, limit = 0, rng.random(), math.exp(-lam)
        while p > limit:
            k += 1
            p *= rng.random()
        return k
