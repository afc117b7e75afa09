"""Conventions: which gesture makes which sign. Regional variants differ (RULES.md), so the mapping
is a value the user picks, with the default and the alternatives the sources name.
"""

from __future__ import annotations

from dataclasses import dataclass

from trainer.signals.gestures import Gesture, GestureEvent
from trainer.signals.signs import MadeSign, Sign, Signal

MAX_ACES = 4


class ConventionError(ValueError):
    """A convention name that does not exist, or a mapping that gives one gesture two signs."""


@dataclass(frozen=True, slots=True)
class Convention:
    """A named mapping from gestures to signs. Several gestures may make the same sign."""

    name: str
    pairs: tuple[tuple[Gesture, Sign], ...]

    def __post_init__(self) -> None:
        seen: dict[Gesture, Sign] = {}
        for gesture, sign in self.pairs:
            if gesture in seen and seen[gesture] is not sign:
                raise ConventionError(
                    f"convention {self.name!r} gives {gesture.value} two signs "
                    f"({seen[gesture].value}, {sign.value}): keep one"
                )
            seen[gesture] = sign

    def sign_for(self, gesture: Gesture) -> Sign | None:
        for g, sign in self.pairs:
            if g is gesture:
                return sign
        return None

    def read(self, event: GestureEvent) -> MadeSign | None:
        """The sign a gesture the camera saw makes at the table (None: no sign in this convention).

        The one place a camera's gesture becomes a sign: the gesture, side, confidence and times
        are kept; the repeats count the aces (one mouth opening per ace, at most four)."""
        sign = self.sign_for(event.gesture)
        if sign is None:
            return None
        count = min(MAX_ACES, max(1, event.count)) if sign is Sign.AS else 1
        return MadeSign(Signal(sign, count), event.gesture, event.confidence, event.side, event.start, event.end)

    def made(self, signal: Signal) -> MadeSign:
        """A sign given without a camera (a button, a bot): the convention's gesture for it, certain."""
        return MadeSign(signal, self.gesture_for(signal.sign))

    def gestures_for(self, sign: Sign) -> tuple[Gesture, ...]:
        """The gestures that make ``sign``, the convention's preferred one first."""
        return tuple(g for g, s in self.pairs if s is sign)

    def gesture_for(self, sign: Sign) -> Gesture:
        gestures = self.gestures_for(sign)
        if not gestures:
            raise ConventionError(f"convention {self.name!r} has no gesture for {sign.value}")
        return gestures[0]

    @property
    def gestures(self) -> tuple[Gesture, ...]:
        return tuple(g for g, _ in self.pairs)

    @classmethod
    def named(cls, name: str) -> "Convention":
        try:
            return CONVENTIONS[name]
        except KeyError:
            raise ConventionError(
                f"unknown convention {name!r}: choose one of {', '.join(CONVENTIONS)}"
            ) from None


CLASSIC = Convention(
    "classic",
    (
        (Gesture.BROWS_UP, Sign.MONSIEUR),
        (Gesture.LIP_CORNER, Sign.MADAME),
        (Gesture.WINK, Sign.BORGNE),
        (Gesture.POUT, Sign.VACHE),
        (Gesture.THUMB, Sign.GRAND_NEUF),
        (Gesture.PINKY, Sign.PETIT_NEUF),
        (Gesture.INDEX, Sign.DEUX_DE_CHENE),
        (Gesture.WRITING, Sign.DEUX_D_ECRIT),
        (Gesture.MOUTH_OPEN, Sign.AS),
        (Gesture.EYES_CLOSED, Sign.MONSIEUR_ET_MADAME),
        (Gesture.SHRUG, Sign.MISERE),
        (Gesture.LIP_BITE, Sign.MORDIENNE),
    ),
)
"""The default signs of RULES.md."""

REGIONAL = Convention(
    "regional",
    (
        (Gesture.LOOK_UP, Sign.MONSIEUR),
        (Gesture.HEAD_TILT, Sign.MADAME),
        (Gesture.WINK, Sign.BORGNE),
        (Gesture.POUT, Sign.VACHE),
        (Gesture.THUMB, Sign.GRAND_NEUF),
        (Gesture.PINKY, Sign.PETIT_NEUF),
        (Gesture.INDEX_MIDDLE, Sign.DEUX_DE_CHENE),
        (Gesture.RING, Sign.DEUX_D_ECRIT),
        (Gesture.TONGUE_OUT, Sign.AS),
        (Gesture.EYES_CLOSED, Sign.MONSIEUR_ET_MADAME),
        (Gesture.GRIMACE, Sign.MISERE),
        (Gesture.LIP_BITE, Sign.MORDIENNE),
    ),
)
"""The alternatives RULES.md lists: look up, tilt the head, index + middle, ring finger, tongue, grimace."""

CAMERA_FRIENDLY = Convention(
    "camera_friendly",
    CLASSIC.pairs[:-5]
    + (
        (Gesture.INDEX_MIDDLE, Sign.DEUX_D_ECRIT),
        (Gesture.MOUTH_OPEN, Sign.AS),
        (Gesture.EYES_CLOSED, Sign.MONSIEUR_ET_MADAME),
        (Gesture.GRIMACE, Sign.MISERE),
        (Gesture.LIP_BITE, Sign.MORDIENNE),
    ),
)
"""The default, but with static gestures where the default one moves or leaves the frame
(index + middle pointed down for the Deux d'écrit, a grimace for misère instead of a shrug)."""

CONVENTIONS: dict[str, Convention] = {c.name: c for c in (CLASSIC, REGIONAL, CAMERA_FRIENDLY)}
