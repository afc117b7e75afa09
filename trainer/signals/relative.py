"""Relative announcements: the cards a player tells aloud relative to the last sign (RULES.md, Signs).

After a sign (say an ace, strength level 9) a player tells more cards aloud, each as a step from a
base level:

- *au-dessus* — one level stronger; *au-dessus de là-dessus* — two levels stronger;
- *au-dessous* (or *en dessous*) — one level weaker; *en dessous de là-dessous* — two weaker;
- prefixed with *après*, the step counts from the previous announcement instead of from the sign.

RULES.md's example: holding an ace, a king and the Deux de chêne, a player opens the mouth (ace,
level 9), says "en dessous" (level 10: a king) and "au-dessus de là-dessus" (level 7: two above the
ace, the Deux de chêne).

Levels are the card levels of :mod:`trainer.rules.cards` (1 strongest .. 19 weakest), so "stronger"
is a smaller number. This module turns messages into levels (:func:`resolve`), levels into
messages (:func:`announce`), and text into announcements and back (:func:`parse`, :func:`format_message`,
with ``parse(format_message(x)) == x``).

Imports the rules layer (cards) and :mod:`trainer.signals.signs` only.
"""

from __future__ import annotations

import enum
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from trainer.rules.cards import NUMBER_OF_LEVELS, Card
from trainer.signals.signs import Sign


class AnnouncementError(ValueError):
    """A relative announcement that cannot be read, or that leads off the strength scale."""


class Step(enum.Enum):
    """One spoken step; the value is the change of strength (positive = stronger)."""

    AU_DESSUS = 1
    """'au-dessus': one level stronger."""
    AU_DESSUS_DE_LA_DESSUS = 2
    """'au-dessus de là-dessus': two levels stronger."""
    AU_DESSOUS = -1
    """'au-dessous' or 'en dessous': one level weaker."""
    EN_DESSOUS_DE_LA_DESSOUS = -2
    """'en dessous de là-dessous': two levels weaker."""

    @property
    def french(self) -> str:
        return _STEP_FRENCH[self]

    @property
    def english(self) -> str:
        return _STEP_ENGLISH[self]

    @property
    def levels(self) -> int:
        """Change of level number (levels count down as cards get stronger)."""
        return -self.value

    @classmethod
    def for_delta(cls, stronger_by: int) -> Step:
        for step in cls:
            if step.value == stronger_by:
                return step
        raise AnnouncementError(
            f"no single announcement moves {stronger_by:+d} levels: steps are -2, -1, +1 or +2"
        )


_STEP_FRENCH = {
    Step.AU_DESSUS: "au-dessus",
    Step.AU_DESSUS_DE_LA_DESSUS: "au-dessus de là-dessus",
    Step.AU_DESSOUS: "au-dessous",
    Step.EN_DESSOUS_DE_LA_DESSOUS: "en dessous de là-dessous",
}
_STEP_ENGLISH = {
    Step.AU_DESSUS: "one above",
    Step.AU_DESSUS_DE_LA_DESSUS: "two above",
    Step.AU_DESSOUS: "one below",
    Step.EN_DESSOUS_DE_LA_DESSOUS: "two below",
}
APRES = "après"


@dataclass(frozen=True, slots=True)
class Announcement:
    """One spoken step; ``after`` ('après') counts it from the previous announcement, not the sign."""

    step: Step
    after: bool = False

    @property
    def french(self) -> str:
        return f"{APRES} {self.step.french}" if self.after else self.step.french

    @property
    def english(self) -> str:
        return f"then {self.step.english}" if self.after else f"{self.step.english} the sign"

    def __str__(self) -> str:
        return self.french


# -- text ---------------------------------------------------------------------------------------

def _fold(text: str) -> str:
    """Lower case, accents removed, hyphens and apostrophes as spaces, single spaces."""
    text = unicodedata.normalize("NFKD", text.lower())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = re.sub(r"[-'’]", " ", text)
    return " ".join(text.split())


# Folded spoken forms. 'en dessous' is a synonym of 'au-dessous' (RULES.md); the long forms are
# matched before their prefixes.
_SPOKEN: tuple[tuple[str, Step], ...] = (
    ("au dessus de la dessus", Step.AU_DESSUS_DE_LA_DESSUS),
    ("en dessous de la dessous", Step.EN_DESSOUS_DE_LA_DESSOUS),
    ("au dessous de la dessous", Step.EN_DESSOUS_DE_LA_DESSOUS),
    ("au dessus", Step.AU_DESSUS),
    ("au dessous", Step.AU_DESSOUS),
    ("en dessous", Step.AU_DESSOUS),
)


def parse_one(text: str) -> Announcement:
    """One announcement such as ``"après au-dessus"`` (accents, case and hyphens are optional)."""
    folded = _fold(text)
    after = False
    if folded.startswith("apres "):
        after, folded = True, folded[len("apres "):]
    for spoken, step in _SPOKEN:
        if folded == spoken:
            return Announcement(step, after)
    known = ", ".join(sorted({s.french for s in Step}))
    raise AnnouncementError(
        f"cannot read the announcement {text!r}: say one of {known}, optionally after '{APRES}'"
    )


def parse(text: str) -> tuple[Announcement, ...]:
    """A message of announcements separated by commas, semicolons or new lines."""
    parts = [p for p in re.split(r"[,;\n]+", text) if p.strip()]
    if not parts:
        raise AnnouncementError("an empty message announces nothing: write e.g. 'au-dessus, après au-dessous'")
    return tuple(parse_one(p) for p in parts)


def format_message(announcements: Iterable[Announcement]) -> str:
    """The message as spoken, comma-separated; :func:`parse` reads it back."""
    return ", ".join(a.french for a in announcements)


# -- levels -------------------------------------------------------------------------------------

def base_level(sign: Sign, count: int = 1) -> int:
    """The level a relative announcement counts from after ``sign``.

    For Monsieur + Madame it is Madame's (the weaker, the last told); misère and mordienne name no
    card, so nothing can be announced relative to them.
    """
    cards = sign.cards
    if not cards:
        raise AnnouncementError(
            f"the {sign.value} sign names no card: make a card sign before announcing relative to it"
        )
    return max(card.level for card in cards)


def resolve(base: int, announcements: Sequence[Announcement]) -> tuple[int, ...]:
    """The level each announcement names, from the sign's level ``base``."""
    _check_level(base, "base")
    levels: list[int] = []
    previous = base
    for a in announcements:
        start = previous if a.after else base
        level = start + a.step.levels
        if not 1 <= level <= NUMBER_OF_LEVELS:
            raise AnnouncementError(
                f"'{a.french}' from level {start} leads to level {level}, off the scale 1..{NUMBER_OF_LEVELS}"
            )
        levels.append(level)
        previous = level
    return tuple(levels)


def announce(base: int, levels: Iterable[int]) -> tuple[Announcement, ...]:
    """Announcements that tell ``levels`` after a sign at level ``base``; :func:`resolve` inverts it.

    Levels are told in the order given; each is said relative to the sign when it is at most two
    levels away, else with *après* relative to the previous announcement. A level that neither
    reaches is left out (a player then keeps that card to themselves); the caller can sort the levels
    (e.g. nearest first) to make more of them reachable.
    """
    _check_level(base, "base")
    out: list[Announcement] = []
    previous: int | None = None
    told = {base}
    for level in levels:
        _check_level(level, "announced")
        if level in told:
            continue  # said already (or the sign itself): nothing new to tell
        if abs(level - base) <= 2:
            out.append(Announcement(Step.for_delta(base - level)))
        elif previous is not None and abs(level - previous) <= 2:
            out.append(Announcement(Step.for_delta(previous - level), after=True))
        else:
            continue
        previous = level
        told.add(level)
    return tuple(out)


def announce_hand(sign: Sign, hand: Iterable[Card], count: int = 1) -> tuple[Announcement, ...]:
    """What a player holding ``hand`` may tell after ``sign``: the other levels near the sign's,
    nearest first, chaining with *après* to reach further. Cards without a level of their own
    near the sign (the bigailles far below) are not told.
    """
    base = base_level(sign, count)
    told = {card.level for card in sign.cards}
    others = sorted({c.level for c in hand if c.level not in told and c.level <= 12}, key=lambda lv: abs(lv - base))
    # Walk outward in each direction so chains of 'après' can reach further cards.
    stronger = sorted((lv for lv in others if lv < base), reverse=True)
    weaker = sorted(lv for lv in others if lv > base)
    return announce(base, weaker + stronger)


def unheld_levels(sign: Sign, announcements: Sequence[Announcement], hand: Iterable[Card], count: int = 1,
                  *, new: int | None = None) -> tuple[int, ...]:
    """The announced levels that ``hand`` holds no card of (empty: the words tell the truth).

    Checked like a sign: each level told aloud must be a card the player holds now. ``new`` counts
    only the last ``new`` announcements (words added after earlier ones were already checked);
    the earlier ones still count as the start of an *après* chain. Raises
    :class:`AnnouncementError` for words that lead off the scale.
    """
    levels = resolve(base_level(sign, count), tuple(announcements))
    held = {card.level for card in hand}
    checked = levels if new is None else levels[len(levels) - new:]
    return tuple(level for level in checked if level not in held)


def _check_level(level: int, what: str) -> None:
    if not isinstance(level, int) or not 1 <= level <= NUMBER_OF_LEVELS:
        raise AnnouncementError(f"{what} level {level!r} does not exist: levels run from 1 to {NUMBER_OF_LEVELS}")
