"""The 48 cards of Aluette: notation, names, groups and the 19 strength levels of RULES.md.

Standard library only. Every other layer names cards through this module.

Notation: value then suit, case-insensitive. Values ``A 2 3 4 5 6 7 8 9 V C R`` (ace, 2..9, valet,
cavalier, roi); suits ``D`` deniers (coins), ``C`` coupes (cups), ``B`` bâtons (batons), ``E`` épées
(swords). ``Card.parse("3d") is Card.MONSIEUR``.

Cards are numbered 0..47 strongest first (``card.index``), so the fast engine can work on small
integers and look strength up in the ``STRENGTH`` tuple.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum

from trainer.rules.errors import CardError


class _Named:
    """The French, English and Italian names of a suit or a rank, the two parts of a card's name
    (from the ``_NAMES`` table below the cards)."""

    __slots__ = ()

    @property
    def french(self) -> str:
        return _NAMES[self][0]

    @property
    def english(self) -> str:
        return _NAMES[self][1]

    @property
    def italian(self) -> str:
        return _NAMES[self][2]


class Suit(_Named, Enum):
    """The four Spanish suits. The value is the one-letter code."""

    DENIERS = "D"
    COUPES = "C"
    BATONS = "B"
    EPEES = "E"


class Rank(_Named, Enum):
    """Card values: ace to nine, then valet, cavalier (the cavalière) and roi. Value is the code."""

    AS = "A"
    DEUX = "2"
    TROIS = "3"
    QUATRE = "4"
    CINQ = "5"
    SIX = "6"
    SEPT = "7"
    HUIT = "8"
    NEUF = "9"
    VALET = "V"
    CAVALIER = "C"
    ROI = "R"


class Group(Enum):
    """The four families of cards, strongest first."""

    LUETTES = "luettes"
    DOUBLES = "doubles"
    FIGURES = "figures"
    BIGAILLES = "bigailles"


class Card(Enum):
    """One of the 48 cards. Members are listed strongest first; the value is the code (``"3D"``)."""

    # Annotations only (no member is made): the code, and the position 0..47 set on each member below
    # the class. With ``_index`` declared, mypy types ``self.value`` as Any: the code reads ``_value_``.
    _value_: str
    _index: int

    MONSIEUR = "3D"
    """Three of coins, 'Mister': the strongest card."""
    MADAME = "3C"
    """Three of cups, 'Mistress'."""
    BORGNE = "2D"
    """Two of coins, 'the One-eyed'."""
    VACHE = "2C"
    """Two of cups, 'the Cow'."""
    GRAND_NEUF = "9C"
    """Nine of cups, 'Great Nine'."""
    PETIT_NEUF = "9D"
    """Nine of coins, 'Little Nine'."""
    DEUX_DE_CHENE = "2B"
    """Two of batons, 'Two of Oaks'."""
    DEUX_D_ECRIT = "2E"
    """Two of swords, 'Two of Writing' (also 'La Rochelle')."""
    AS_DENIERS = "AD"
    AS_COUPES = "AC"
    AS_BATONS = "AB"
    AS_EPEES = "AE"
    ROI_DENIERS = "RD"
    ROI_COUPES = "RC"
    ROI_BATONS = "RB"
    ROI_EPEES = "RE"
    CAVALIER_DENIERS = "CD"
    CAVALIER_COUPES = "CC"
    CAVALIER_BATONS = "CB"
    CAVALIER_EPEES = "CE"
    VALET_DENIERS = "VD"
    VALET_COUPES = "VC"
    VALET_BATONS = "VB"
    VALET_EPEES = "VE"
    NEUF_EPEES = "9E"
    NEUF_BATONS = "9B"
    HUIT_DENIERS = "8D"
    HUIT_COUPES = "8C"
    HUIT_BATONS = "8B"
    HUIT_EPEES = "8E"
    SEPT_DENIERS = "7D"
    SEPT_COUPES = "7C"
    SEPT_BATONS = "7B"
    SEPT_EPEES = "7E"
    SIX_DENIERS = "6D"
    SIX_COUPES = "6C"
    SIX_BATONS = "6B"
    SIX_EPEES = "6E"
    CINQ_DENIERS = "5D"
    """Five of coins, 'bise-dur' (a kissing couple): a nickname with no special power."""
    CINQ_COUPES = "5C"
    CINQ_BATONS = "5B"
    CINQ_EPEES = "5E"
    QUATRE_DENIERS = "4D"
    QUATRE_COUPES = "4C"
    QUATRE_BATONS = "4B"
    QUATRE_EPEES = "4E"
    TROIS_EPEES = "3E"
    TROIS_BATONS = "3B"

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def parse(cls, code: str) -> Card:
        """The card for a code such as ``"3D"`` or ``"cc"``; raises :class:`CardError` otherwise."""
        if not isinstance(code, str):
            raise CardError(f"card code must be a string like '3D', got {code!r}")
        card = _BY_CODE.get(code.strip().upper())
        if card is None:
            raise CardError(
                f"unknown card code {code!r}: write a value (A 2-9 V C R) then a suit "
                f"(D deniers, C coupes, B batons, E epees), e.g. '3D' or 'RB'"
            )
        return card

    @classmethod
    def parse_many(cls, codes: Iterable[str]) -> tuple[Card, ...]:
        return tuple(cls.parse(code) for code in codes)

    @classmethod
    def from_index(cls, index: int) -> Card:
        return CARDS[index]

    # -- properties ---------------------------------------------------------------------------

    @property
    def code(self) -> str:
        return self._value_

    @property
    def rank(self) -> Rank:
        return _RANK_OF[self.value[0]]

    @property
    def suit(self) -> Suit:
        return _SUIT_OF[self.value[1]]

    @property
    def index(self) -> int:
        """Position 0..47, strongest first; stable, used by the fast engine and save files."""
        return self._index

    @property
    def level(self) -> int:
        """Strength level 1 (Monsieur) to 19 (3E, 3B), as in RULES.md. Lower is stronger."""
        return LEVEL[self._index]

    @property
    def strength(self) -> int:
        """20 minus the level: higher is stronger, equal strengths tie (and spoil a trick)."""
        return STRENGTH[self._index]

    @property
    def group(self) -> Group:
        level = self.level
        if level <= 4:
            return Group.LUETTES
        if level <= 8:
            return Group.DOUBLES
        if level <= 12:
            return Group.FIGURES
        return Group.BIGAILLES

    @property
    def nickname(self) -> str | None:
        """The French nickname (``"la Vache"``) or None for a card without one."""
        return _NICKNAMES.get(self.value, (None, None))[0]

    @property
    def nickname_english(self) -> str | None:
        return _NICKNAMES.get(self.value, (None, None))[1]

    @property
    def french(self) -> str:
        """Plain French name, e.g. ``"deux de coupe"``."""
        suit = self.suit.french
        joiner = "d'" if suit[0] in "aeiouéè" else "de "
        return f"{self.rank.french} {joiner}{suit}"

    @property
    def english(self) -> str:
        return f"{self.rank.english} of {self.suit.english}"

    @property
    def italian(self) -> str:
        return f"{self.rank.italian} di {self.suit.italian}"

    def name_in(self, language: str = "fr") -> str:
        """Display name in ``"fr"``, ``"en"`` or ``"it"``: nickname first where the card has one."""
        if language == "fr":
            return self.nickname or self.french
        if language == "en":
            return self.nickname_english or self.english
        if language == "it":
            return self.italian
        raise CardError(f"unknown language {language!r}: use 'fr', 'en' or 'it'")

    def beats(self, other: Card) -> bool:
        return self.strength > other.strength

    def ties(self, other: Card) -> bool:
        return self.strength == other.strength

    def __str__(self) -> str:
        return self._value_

    def __repr__(self) -> str:
        return f"Card.parse({self.value!r})"


_NAMES: dict[_Named, tuple[str, str, str]] = {
    # French, English, Italian
    Suit.DENIERS: ("deniers", "coins", "denari"),
    Suit.COUPES: ("coupe", "cups", "coppe"),
    Suit.BATONS: ("bâton", "batons", "bastoni"),
    Suit.EPEES: ("épée", "swords", "spade"),
    Rank.AS: ("as", "ace", "asso"),
    Rank.DEUX: ("deux", "two", "due"),
    Rank.TROIS: ("trois", "three", "tre"),
    Rank.QUATRE: ("quatre", "four", "quattro"),
    Rank.CINQ: ("cinq", "five", "cinque"),
    Rank.SIX: ("six", "six", "sei"),
    Rank.SEPT: ("sept", "seven", "sette"),
    Rank.HUIT: ("huit", "eight", "otto"),
    Rank.NEUF: ("neuf", "nine", "nove"),
    Rank.VALET: ("valet", "jack", "fante"),
    Rank.CAVALIER: ("cavalier", "knight", "cavallo"),
    Rank.ROI: ("roi", "king", "re"),
}
_NICKNAMES = {
    "3D": ("Monsieur", "Mister"),
    "3C": ("Madame", "Mistress"),
    "2D": ("le Borgne", "the One-eyed"),
    "2C": ("la Vache", "the Cow"),
    "9C": ("Grand Neuf", "Great Nine"),
    "9D": ("Petit Neuf", "Little Nine"),
    "2B": ("Deux de chêne", "Two of Oaks"),
    "2E": ("Deux d'écrit", "Two of Writing"),
    "5D": ("bise-dur", "the kissing couple"),
}

# The 19 levels of RULES.md, keyed by the cards at each level.
_LEVEL_OF_CODE: dict[str, int] = {"3D": 1, "3C": 2, "2D": 3, "2C": 4, "9C": 5, "9D": 6, "2B": 7, "2E": 8}
for _suit in "DCBE":
    _LEVEL_OF_CODE["A" + _suit] = 9
    _LEVEL_OF_CODE["R" + _suit] = 10
    _LEVEL_OF_CODE["C" + _suit] = 11
    _LEVEL_OF_CODE["V" + _suit] = 12
    for _level, _value in ((14, "8"), (15, "7"), (16, "6"), (17, "5"), (18, "4")):
        _LEVEL_OF_CODE[_value + _suit] = _level
_LEVEL_OF_CODE.update({"9E": 13, "9B": 13, "3E": 19, "3B": 19})

CARDS: tuple[Card, ...] = tuple(Card)
"""All 48 cards, strongest first; ``CARDS[i].index == i``."""
_INDEX: dict[Card, int] = {card: i for i, card in enumerate(CARDS)}
for _i, _card in enumerate(CARDS):
    # Stored on the member: ``card.index`` is read in the engine's hot paths, and a dict lookup
    # would hash the enum member in Python code each time.
    _card._index = _i
_BY_CODE: dict[str, Card] = {card.value: card for card in CARDS}
_RANK_OF: dict[str, Rank] = {rank.value: rank for rank in Rank}
_SUIT_OF: dict[str, Suit] = {suit.value: suit for suit in Suit}
LEVEL: tuple[int, ...] = tuple(_LEVEL_OF_CODE[card.value] for card in CARDS)
"""Strength level of card index i (1 strongest .. 19 weakest)."""
STRENGTH: tuple[int, ...] = tuple(20 - level for level in LEVEL)
"""20 - level of card index i: compare with ``>``; equal values tie."""
LUETTES: tuple[Card, ...] = (Card.MONSIEUR, Card.MADAME, Card.BORGNE, Card.VACHE)
ACES: tuple[Card, ...] = (Card.AS_DENIERS, Card.AS_COUPES, Card.AS_BATONS, Card.AS_EPEES)
NUMBER_OF_LEVELS = 19


def cards_at_level(level: int) -> tuple[Card, ...]:
    """The cards at a strength level (1..19); several from level 9 down."""
    if not 1 <= level <= NUMBER_OF_LEVELS:
        raise CardError(f"strength level {level!r} does not exist: levels run from 1 to 19")
    return tuple(card for card in CARDS if card.level == level)


def format_cards(cards: Iterable[Card]) -> str:
    """Codes separated by spaces; ``Card.parse_many(s.split())`` reads it back."""
    return " ".join(card.value for card in cards)
