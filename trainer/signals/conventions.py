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
    holds: tuple[tuple[Gesture, float], ...] = ()
    """Seconds a gesture must last to make its sign in this convention (others: any event). For the
    gestures speech and laughter make too (``SPEECH_MADE``) where they give a card or misère: the
    grimace of a laugh and the sway of a talking head are short, a sign made on purpose is held."""

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

    def sign_of(self, gesture: Gesture) -> Sign:
        """The sign one of this convention's gestures makes; :class:`ConventionError` for a gesture
        it does not use (:meth:`sign_for` answers None instead)."""
        sign = self.sign_for(gesture)
        if sign is None:
            raise ConventionError(f"convention {self.name!r} gives no sign to {gesture.value}: its gestures are "
                                  f"{', '.join(g.value for g in self.gestures)}")
        return sign

    def hold(self, gesture: Gesture) -> float:
        """Seconds ``gesture`` must be held to make its sign in this convention (0: no minimum)."""
        return next((s for g, s in self.holds if g is gesture), 0.0)

    def read(self, event: GestureEvent) -> MadeSign | None:
        """The sign a gesture the camera saw makes at the table (None: no sign in this convention,
        or not held as long as this convention asks for it, ``holds``).

        The one place a camera's gesture becomes a sign: the gesture, side, confidence and times
        are kept; the repeats count the aces (one mouth opening per ace, at most four)."""
        sign = self.sign_for(event.gesture)
        if sign is None or event.duration + 1e-9 < self.hold(event.gesture):
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
    def named(cls, name: str) -> Convention:
        try:
            return CONVENTIONS[name]
        except KeyError:
            raise ConventionError(
                f"unknown convention {name!r}: choose one of {', '.join(CONVENTIONS)}"
            ) from None


SPEECH_MADE = frozenset({Gesture.GRIMACE, Gesture.HEAD_TILT})
"""Face gestures that speech and laughter make on their own (a laugh's grimace, a talking head's sway)
and that a convention may give a card or misère: such a convention asks for them to be held
(``SPEECH_HOLD_S``) and says so where it is chosen."""
SPEECH_HOLD_S = 1.0
"""How long a speech-made gesture must last to make a sign, in the conventions that use one."""


def _speech_holds(pairs: tuple[tuple[Gesture, Sign], ...]) -> tuple[tuple[Gesture, float], ...]:
    return tuple((g, SPEECH_HOLD_S) for g, _ in pairs if g in SPEECH_MADE)


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

_REGIONAL = (
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
)
REGIONAL = Convention("regional", _REGIONAL, _speech_holds(_REGIONAL))
"""The alternatives RULES.md lists: look up, tilt the head, index + middle, ring finger, tongue, grimace.
The head tilt (Madame) and the grimace (misère) must be held ``SPEECH_HOLD_S``."""

_CAMERA_FRIENDLY = CLASSIC.pairs[:-5] + (
    (Gesture.INDEX_MIDDLE, Sign.DEUX_D_ECRIT),
    (Gesture.MOUTH_OPEN, Sign.AS),
    (Gesture.EYES_CLOSED, Sign.MONSIEUR_ET_MADAME),
    (Gesture.GRIMACE, Sign.MISERE),
    (Gesture.LIP_BITE, Sign.MORDIENNE),
)
CAMERA_FRIENDLY = Convention("camera_friendly", _CAMERA_FRIENDLY, _speech_holds(_CAMERA_FRIENDLY))
"""The default, but with static gestures where the default one moves or leaves the frame
(index + middle pointed down for the Deux d'écrit, a grimace for misère instead of a shrug); the
grimace must be held ``SPEECH_HOLD_S``."""

CONVENTIONS: dict[str, Convention] = {c.name: c for c in (CLASSIC, REGIONAL, CAMERA_FRIENDLY)}
