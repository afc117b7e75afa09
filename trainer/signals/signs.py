"""Signs: what a partner tells with a gesture at the table (RULES.md, 'Signs (mimiques)').

Imports the rules layer for cards only.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from trainer.rules.cards import ACES, Card
from trainer.signals.gestures import Gesture, Side


class Sign(enum.Enum):
    """A message one partner sends the other. French names stay French; docstrings give English."""

    MONSIEUR = "monsieur"
    """I hold Monsieur (3D)."""
    MADAME = "madame"
    """I hold Madame (3C)."""
    BORGNE = "borgne"
    """I hold le Borgne, the One-eyed (2D)."""
    VACHE = "vache"
    """I hold la Vache, the Cow (2C)."""
    GRAND_NEUF = "grand_neuf"
    """I hold the Grand Neuf, Great Nine (9C)."""
    PETIT_NEUF = "petit_neuf"
    """I hold the Petit Neuf, Little Nine (9D)."""
    DEUX_DE_CHENE = "deux_de_chene"
    """I hold the Deux de chêne, Two of Oaks (2B)."""
    DEUX_D_ECRIT = "deux_d_ecrit"
    """I hold the Deux d'écrit, Two of Writing (2E)."""
    AS = "as"
    """I hold aces: one per repeat (count)."""
    MONSIEUR_ET_MADAME = "monsieur_et_madame"
    """I hold both Monsieur and Madame."""
    MISERE = "misere"
    """My hand is weak (misère)."""
    MORDIENNE = "mordienne"
    """I am going for mordienne."""

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards this sign says its maker holds (any one of them for aces)."""
        return _SIGN_CARDS.get(self, ())

    @property
    def french(self) -> str:
        return _FRENCH[self]

    @property
    def english(self) -> str:
        return _ENGLISH[self]

    @property
    def italian(self) -> str:
        """The Italian words where there are some (``un asso``); else the French name, as Italian
        players of Aluette keep it."""
        return _ITALIAN.get(self, _FRENCH[self])

    @classmethod
    def for_card(cls, card: Card) -> Sign | None:
        """The sign that announces ``card`` on its own, or None for a card without a sign."""
        if card in ACES:
            return cls.AS
        for sign, cards in _SIGN_CARDS.items():
            if cards == (card,):
                return sign
        return None


_SIGN_CARDS: dict[Sign, tuple[Card, ...]] = {
    Sign.MONSIEUR: (Card.MONSIEUR,),
    Sign.MADAME: (Card.MADAME,),
    Sign.BORGNE: (Card.BORGNE,),
    Sign.VACHE: (Card.VACHE,),
    Sign.GRAND_NEUF: (Card.GRAND_NEUF,),
    Sign.PETIT_NEUF: (Card.PETIT_NEUF,),
    Sign.DEUX_DE_CHENE: (Card.DEUX_DE_CHENE,),
    Sign.DEUX_D_ECRIT: (Card.DEUX_D_ECRIT,),
    Sign.AS: ACES,
    Sign.MONSIEUR_ET_MADAME: (Card.MONSIEUR, Card.MADAME),
}
_FRENCH = {
    Sign.MONSIEUR: "Monsieur", Sign.MADAME: "Madame", Sign.BORGNE: "le Borgne", Sign.VACHE: "la Vache",
    Sign.GRAND_NEUF: "Grand Neuf", Sign.PETIT_NEUF: "Petit Neuf", Sign.DEUX_DE_CHENE: "Deux de chêne",
    Sign.DEUX_D_ECRIT: "Deux d'écrit", Sign.AS: "un as", Sign.MONSIEUR_ET_MADAME: "Monsieur et Madame",
    Sign.MISERE: "misère", Sign.MORDIENNE: "mordienne",
}
_ENGLISH = {
    Sign.MONSIEUR: "Mister", Sign.MADAME: "Mistress", Sign.BORGNE: "the One-eyed", Sign.VACHE: "the Cow",
    Sign.GRAND_NEUF: "Great Nine", Sign.PETIT_NEUF: "Little Nine", Sign.DEUX_DE_CHENE: "Two of Oaks",
    Sign.DEUX_D_ECRIT: "Two of Writing", Sign.AS: "an ace", Sign.MONSIEUR_ET_MADAME: "Mister and Mistress",
    Sign.MISERE: "weak hand", Sign.MORDIENNE: "going for mordienne",
}

_ITALIAN = {
    Sign.AS: "un asso",
    Sign.MONSIEUR_ET_MADAME: "Monsieur e Madame",
    Sign.MISERE: "mano debole (misère)",
    Sign.MORDIENNE: "si punta alla mordienne",
}


@dataclass(frozen=True, slots=True)
class Signal:
    """A sign with its repeat count (aces: one per repeat)."""

    sign: Sign
    count: int = 1

    def __post_init__(self) -> None:
        if self.count < 1 or (self.count > 1 and self.sign is not Sign.AS) or self.count > 4:
            raise ValueError(
                f"a {self.sign.value} sign cannot be repeated {self.count} times: only aces repeat, 1 to 4"
            )


@dataclass(frozen=True, slots=True)
class MadeSign:
    """One sign made at the table: what it says (``signal``) and how it was made.

    The one value a sign travels as from the camera to the bots (the table's log, the partner's
    reading, the save). A sign from the camera comes from :meth:`Convention.read
    <trainer.signals.conventions.Convention.read>` and keeps the gesture the person actually made,
    its side, the recognizer's ``confidence`` and the event's own times (``start``/``end``,
    seconds on the camera's clock); a button's or a bot's comes from :meth:`Convention.made
    <trainer.signals.conventions.Convention.made>`: the convention's gesture, certain, untimed.
    ``gesture`` is None only for a record read back from text that did not name it.
    """

    signal: Signal
    gesture: Gesture | None = None
    confidence: float | None = None
    """The recognizer's confidence (0..1) for a sign read by a camera; None: seen, certain."""
    side: Side | None = None
    start: float | None = None
    end: float | None = None

    def __post_init__(self) -> None:
        if self.confidence is not None and not (
            isinstance(self.confidence, (int, float)) and 0.0 <= self.confidence <= 1.0
        ):
            raise ValueError(f"a recognizer confidence is between 0 and 1, got {self.confidence!r}")

    @property
    def sign(self) -> Sign:
        return self.signal.sign

    @property
    def count(self) -> int:
        return self.signal.count

    @property
    def read_by_camera(self) -> bool:
        return self.confidence is not None
