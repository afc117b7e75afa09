"""Quiz questions: the facts to learn (items) and a generator of questions for each.

Imports the rules layer (cards, their strength and groups) and the signals layer (signs, gestures,
conventions) only. Every answer is computed from the engine's own strength order
(``Card.strength``, ``Card.group``, ``Card.nickname``) and the convention's mapping, never from a
second table. Randomness is a ``random.Random`` passed in.

An *item* is one fact the scheduler remembers, named by a stable key ``"kind:argument"``:

=========== ====================== ============================================================
kind        argument               question
=========== ====================== ============================================================
name        card code (``2C``)     this card → its name (choose)
pick        card code              this name → its card (choose among look-alikes)
group       card code              this card → its group (luettes, doubles, figures, bigailles)
trick       level ``L1``..``L19``  which of 2 or 4 cards wins the trick, or is it spoiled (pourri)?
order       a band (``luettes``)   put 3 or 4 cards in strength order
sign        sign (``vache``)       this card (or meaning) → the sign to make (choose a gesture)
sign_card   sign                   this drawn sign → what it says
=========== ====================== ============================================================

In camera mode the app checks a ``sign`` question by watching the user make the sign:
``Question.expected_gestures`` lists the gestures the convention accepts.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

from trainer.quiz.texts import (
    GESTURE_TEXT,
    GROUP_TEXT,
    SPOILED,
    QuizError,
    Text,
    card_name,
    card_text,
    sign_text,
)
from trainer.rules.cards import CARDS, NUMBER_OF_LEVELS, Card, Group, Rank, cards_at_level
from trainer.signals.conventions import CLASSIC, Convention
from trainer.signals.gestures import Gesture
from trainer.signals.signs import Sign

CHOICES = 4
POURRI = "pourri"
"""The answer key of a spoiled trick."""


class Kind(Enum):
    """The kinds of question, in the order a beginner meets them."""

    NAME = "name"
    PICK = "pick"
    SIGN = "sign"
    SIGN_CARD = "sign_card"
    GROUP = "group"
    ORDER = "order"
    TRICK = "trick"

    @classmethod
    def parse(cls, text: str) -> Kind:
        try:
            return cls(text.strip().lower().replace("-", "_"))
        except ValueError:
            raise QuizError(
                f"unknown question kind {text!r}: choose among {', '.join(k.value for k in cls)}"
            ) from None

    @property
    def title(self) -> Text:
        return _KIND_TITLE[self]


_KIND_TITLE = {
    Kind.NAME: Text("carte → nom", "card → name", "carta → nome"),
    Kind.PICK: Text("nom → carte", "name → card", "nome → carta"),
    Kind.SIGN: Text("carte → signe", "card → sign", "carta → segno"),
    Kind.SIGN_CARD: Text("signe → carte", "sign → card", "segno → carta"),
    Kind.GROUP: Text("famille", "group", "famiglia"),
    Kind.ORDER: Text("ordre de force", "strength order", "ordine di forza"),
    Kind.TRICK: Text("qui gagne le pli ?", "who wins the trick?", "chi vince la presa?"),
}

NICKNAMED: tuple[Card, ...] = tuple(card for card in CARDS if card.nickname)
"""The nine cards with a name of their own (the eight strong ones and the bise-dur)."""
STRONG: tuple[Card, ...] = tuple(card for card in CARDS if card.group in (Group.LUETTES, Group.DOUBLES))
GROUP_CARDS: tuple[Card, ...] = tuple(
    card for card in CARDS if card.rank in (Rank.AS, Rank.DEUX, Rank.TROIS, Rank.NEUF)
) + tuple(card for card in CARDS if card.rank in (Rank.ROI, Rank.CAVALIER, Rank.VALET) and card.suit.value == "C")
"""The cards whose group is worth learning: every ace, 2, 3 and 9 (where strong and weak cards
share a value), and one of each court figure."""

# Bands for ordering questions: the cards a question may draw from (at most one per level).
ORDER_BANDS: dict[str, tuple[Card, ...]] = {
    "luettes": tuple(card for card in CARDS if card.group is Group.LUETTES),
    "doubles": tuple(card for card in CARDS if card.group is Group.DOUBLES),
    "strong": STRONG,
    "figures": tuple(card for card in CARDS if card.group is Group.FIGURES),
    "twos": tuple(card for card in CARDS if card.rank is Rank.DEUX) + tuple(
        card for card in CARDS if card.rank in (Rank.AS, Rank.ROI)),
    "nines": tuple(card for card in CARDS if card.rank in (Rank.NEUF, Rank.HUIT, Rank.VALET)),
    "threes": tuple(card for card in CARDS if card.rank in (Rank.TROIS, Rank.QUATRE, Rank.DEUX)),
    "mixed": CARDS,
}
_SIGNS_WITH_CARDS = tuple(sign for sign in Sign if sign.cards)


# -- values --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Choice:
    """One proposed answer: a key the answer is checked by, its words, and what to draw for it."""

    key: str
    text: Text
    card: Card | None = None
    gesture: Gesture | None = None
    sign: Sign | None = None


@dataclass(frozen=True, slots=True)
class Question:
    """A question about one item.

    ``cards`` are shown (draw them *without* hints: ``card_svg(card, hints=False)``), ``gesture``
    is a sign to draw (sign → card questions). ``choices`` are proposed answers; an ordering
    question has none and is answered by the card codes strongest first. ``answer`` holds the
    correct key(s). ``expected_gestures`` (card → sign questions) are the gestures that make the
    right sign under ``convention``: the app may accept one seen by the camera as the answer.
    """

    item: str
    kind: Kind
    prompt: Text
    cards: tuple[Card, ...]
    choices: tuple[Choice, ...]
    answer: tuple[str, ...]
    explanation: Text
    convention: str = CLASSIC.name
    gesture: Gesture | None = None
    meaning: Text | None = None
    expected_gestures: tuple[Gesture, ...] = field(default=())

    @property
    def is_order(self) -> bool:
        return self.kind is Kind.ORDER

    def check(self, response: str | Sequence[str]) -> bool:
        """Whether ``response`` (a choice key, or card codes strongest first) is right."""
        if self.is_order:
            if isinstance(response, str):
                response = response.split()
            try:
                codes = tuple(Card.parse(code).code for code in response)
            except ValueError:
                return False
            return codes == self.answer
        if not isinstance(response, str):
            return False
        return response == self.answer[0]

    def accepts_gesture(self, gesture: Gesture) -> bool:
        """Camera mode: whether making ``gesture`` answers this question right."""
        return gesture in self.expected_gestures

    def parse(self, text: str) -> str | tuple[str, ...]:
        """A typed answer as a response for :meth:`check`.

        Choice questions take the choice's number (``2``), its key (``2C``, ``pourri``) or its
        words in any language (``la vache``, ``the cow``); ordering questions take card codes or
        the numbers of the shown cards, strongest first (``3 1 2``). Raises :class:`QuizError` for
        text that matches nothing, so a prompt can ask again.
        """
        words = text.strip()
        if not words:
            raise QuizError("empty answer: type a number from the list")
        if self.is_order:
            return self._parse_order(words)
        if words.isdigit():
            number = int(words)
            if 1 <= number <= len(self.choices):
                return self.choices[number - 1].key
            raise QuizError(f"{number} is not in the list: type a number from 1 to {len(self.choices)}")
        wanted = _fold(words)
        for choice in self.choices:
            if wanted == _fold(choice.key):
                return choice.key
        matches = [c.key for c in self.choices if any(wanted == _fold(t) for t in _variants(c))]
        if len(matches) == 1:
            return matches[0]
        raise QuizError(f"{words!r} is not one of the choices: type its number (1 to {len(self.choices)})")

    def _parse_order(self, words: str) -> tuple[str, ...]:
        tokens = words.replace(",", " ").replace(">", " ").split()
        shown = len(self.cards)
        if all(token.isdigit() for token in tokens):
            numbers = [int(token) for token in tokens]
            if sorted(numbers) != list(range(1, shown + 1)):
                raise QuizError(f"give each of the numbers 1 to {shown} once, strongest card first")
            return tuple(self.cards[n - 1].code for n in numbers)
        try:
            cards = [Card.parse(token) for token in tokens]
        except ValueError:
            raise QuizError(
                f"{words!r}: give the {shown} card codes (e.g. 3D 2C) or their numbers, strongest first"
            ) from None
        if sorted(c.code for c in cards) != sorted(c.code for c in self.cards):
            raise QuizError(f"give exactly the {shown} cards shown, each once, strongest first")
        return tuple(card.code for card in cards)

    def answer_text(self, language: str = "fr") -> str:
        """The right answer in words, for feedback."""
        if self.is_order:
            # one language only: four cards each with a translation would not fit on a line
            return " > ".join(card_text(Card.parse(code)).only(language) for code in self.answer)
        for choice in self.choices:
            if choice.key == self.answer[0]:
                return choice.text.show(language)
        return self.answer[0]  # every generator includes its answer among the choices


def _fold(text: str) -> str:
    """Lower case without accents, articles or punctuation: what a typed answer is compared by."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    plain = "".join(ch if ch.isalnum() else " " for ch in plain)
    words = [w for w in plain.split() if w not in {"le", "la", "l", "the", "les", "un", "une", "a", "an"}]
    return " ".join(words)


def _variants(choice: Choice) -> tuple[str, ...]:
    texts = list(choice.text.all())
    if choice.card is not None:
        texts += list(card_name(choice.card).all())
    return tuple(texts)


# -- items ---------------------------------------------------------------------------------------


def item_key(kind: Kind, argument: str) -> str:
    return f"{kind.value}:{argument}"


def split_item(item: str) -> tuple[Kind, str]:
    kind, _, argument = item.partition(":")
    if not argument:
        raise QuizError(f"item {item!r} is not 'kind:argument', e.g. 'name:2C'")
    return Kind.parse(kind), argument


def _sign_of(card: Card) -> Sign:
    """The sign of a luette or a double (every one has its own)."""
    sign = Sign.for_card(card)
    if sign is None:
        raise QuizError(f"card {card.code} has no sign of its own")
    return sign


def curriculum(kinds: Sequence[Kind] | None = None) -> tuple[str, ...]:
    """Every item, in the order new ones are introduced: the luettes first, their names, cards and
    signs, then the doubles, aces and groups, then ordering and tricks from strong to weak."""
    chosen = set(kinds) if kinds else set(Kind)
    items: list[str] = []

    def add(kind: Kind, argument: str) -> None:
        if kind in chosen:
            items.append(item_key(kind, argument))

    for band in (tuple(c for c in STRONG if c.group is group) for group in (Group.LUETTES, Group.DOUBLES)):
        for card in band:
            add(Kind.NAME, card.code)
            add(Kind.SIGN, _sign_of(card).value)
        for card in band:
            add(Kind.PICK, card.code)
            add(Kind.SIGN_CARD, _sign_of(card).value)
            add(Kind.GROUP, card.code)
        add(Kind.ORDER, "luettes" if band[0].group is Group.LUETTES else "doubles")
        if band[0].group is Group.LUETTES:
            add(Kind.SIGN, Sign.MONSIEUR_ET_MADAME.value)
            add(Kind.SIGN_CARD, Sign.MONSIEUR_ET_MADAME.value)
    add(Kind.SIGN, Sign.AS.value)
    add(Kind.SIGN_CARD, Sign.AS.value)
    add(Kind.ORDER, "strong")
    for level in range(1, 10):
        add(Kind.TRICK, f"L{level}")
    for card in GROUP_CARDS:
        if card not in STRONG:
            add(Kind.GROUP, card.code)
    add(Kind.ORDER, "figures")
    for sign in (Sign.MISERE, Sign.MORDIENNE):
        add(Kind.SIGN, sign.value)
        add(Kind.SIGN_CARD, sign.value)
    add(Kind.NAME, "5D")
    add(Kind.PICK, "5D")
    for order in ("twos", "nines", "threes", "mixed"):
        add(Kind.ORDER, order)
    for level in range(10, NUMBER_OF_LEVELS + 1):
        add(Kind.TRICK, f"L{level}")
    return tuple(items)


ALL_ITEMS = curriculum()


# -- generators ----------------------------------------------------------------------------------


def make_question(item: str, rng: random.Random, convention: Convention = CLASSIC) -> Question:
    """A fresh question about ``item`` (see the table in the module docstring)."""
    kind, argument = split_item(item)
    if item not in ALL_ITEMS:
        raise QuizError(f"unknown quiz item {item!r}: see trainer.quiz.questions.ALL_ITEMS")
    maker = _MAKERS[kind]
    return maker(item, argument, rng, convention)


def _shuffled(rng: random.Random, values: Sequence) -> list:
    out = list(values)
    rng.shuffle(out)
    return out


def _level_text(card: Card) -> Text:
    return Text(f"niveau {card.level}", f"level {card.level}", f"livello {card.level}")


def _gloss(term: Text, sense: Text) -> Text:
    """``term : sense.`` in each language: French puts a space before the colon, English and Italian
    do not (the explanation of both sign questions, one way round or the other)."""
    return Text(f"{term.fr} : {sense.fr}.", f"{term.en}: {sense.en}.", f"{term.it}: {sense.it}.")


def _with_levels(cards: Sequence[Card]) -> Text:
    parts = [(card_text(c), _level_text(c)) for c in cards]
    return Text(
        ", ".join(f"{n.fr} {lv.fr}" for n, lv in parts),
        ", ".join(f"{n.en} {lv.en}" for n, lv in parts),
        ", ".join(f"{n.it} {lv.it}" for n, lv in parts),
    )


def _card_choice(card: Card, *, plain: bool = False) -> Choice:
    if plain:
        return Choice(card.code, Text(card.french, card.english, card.italian), card=card)
    return Choice(card.code, card_text(card), card=card)


def _name(item: str, code: str, rng: random.Random, convention: Convention) -> Question:
    card = Card.parse(code)
    others = rng.sample([c for c in NICKNAMED if c is not card], CHOICES - 1)
    choices = tuple(Choice(c.code, card_name(c), card=c) for c in _shuffled(rng, [card, *others]))
    return Question(
        item, Kind.NAME,
        Text("Comment s'appelle cette carte ?", "What is this card called?", "Come si chiama questa carta?"),
        (card,), choices, (card.code,),
        Text(f"{card_text(card).fr}, {card.french}, niveau {card.level}.",
             f"{card_text(card).en}, {card.english}, level {card.level}.",
             f"{card_text(card).it}, livello {card.level}."),
        convention.name,
    )


def _pick(item: str, code: str, rng: random.Random, convention: Convention) -> Question:
    card = Card.parse(code)
    # look-alikes: the same value in other suits, and other named cards
    pool = [c for c in CARDS if c is not card and (c.rank is card.rank or c in NICKNAMED)]
    same_value = [c for c in pool if c.rank is card.rank]
    others = rng.sample(same_value, min(2, len(same_value)))
    rest = [c for c in pool if c not in others]
    others += rng.sample(rest, CHOICES - 1 - len(others))
    choices = tuple(_card_choice(c, plain=True) for c in _shuffled(rng, [card, *others]))
    name = card_name(card)
    return Question(
        item, Kind.PICK,
        Text(f"Quelle carte est « {name.fr} » ?", f"Which card is “{name.en}” ({name.fr})?",
             f"Quale carta è « {name.it} »?"),
        (), choices, (card.code,),
        Text(f"{name.fr} est le {card.french}.", f"{name.en} is the {card.english}.",
             f"{name.it} è il {card.italian}."),
        convention.name,
        meaning=name,
    )


def _group(item: str, code: str, rng: random.Random, convention: Convention) -> Question:
    card = Card.parse(code)
    choices = tuple(Choice(group.value, GROUP_TEXT[group]) for group in Group)
    return Question(
        item, Kind.GROUP,
        Text("À quelle famille appartient cette carte ?", "Which group is this card in?",
             "A quale famiglia appartiene questa carta?"),
        (card,), choices, (card.group.value,),
        Text(f"{card_text(card).fr} : {card.group.value}, niveau {card.level}.",
             f"{card_text(card).en}: {card.group.value}, level {card.level}.",
             f"{card_text(card).it}: {card.group.value}, livello {card.level}."),
        convention.name,
    )


def _trick(item: str, argument: str, rng: random.Random, convention: Convention) -> Question:
    level = int(argument[1:])
    focus = rng.choice(cards_at_level(level))
    size = rng.choice((2, 4))
    near = [c for c in CARDS if c is not focus and abs(c.level - level) <= 3]
    others: list[Card] = []
    twins = [c for c in cards_at_level(level) if c is not focus]
    # A third of the tricks at tying levels hold a twin of the focus card: spoiling must be learnt.
    if twins and rng.random() < 0.35:
        others.append(rng.choice(twins))
    others += rng.sample([c for c in near if c not in others], size - 1 - len(others))
    cards = tuple(_shuffled(rng, [focus, *others]))
    best = max(card.strength for card in cards)
    top = [card for card in cards if card.strength == best]
    answer = POURRI if len(top) > 1 else top[0].code
    choices = tuple(_card_choice(c) for c in cards) + (Choice(POURRI, SPOILED),)
    detail = _with_levels(sorted(cards, key=lambda c: -c.strength))
    if answer == POURRI:
        names = Text(*(" = ".join(getattr(card_text(c), lang) for c in top) for lang in ("fr", "en", "it")))
        why = Text(f"Pourri : {names.fr} sont égales ({detail.fr}).", f"Spoiled: {names.en} tie ({detail.en}).",
                   f"Pourri: {names.it} sono pari ({detail.it}).")
    else:
        winner = top[0]
        why = Text(f"{card_text(winner).fr} gagne ({detail.fr}).", f"{card_text(winner).en} wins ({detail.en}).",
                   f"{card_text(winner).it} vince ({detail.it}).")
    return Question(
        item, Kind.TRICK,
        Text("Qui gagne ce pli ? (ou est-il pourri ?)", "Which card wins this trick (or is it spoiled)?",
             "Quale carta vince la presa (o è pourri)?"),
        cards, choices, (answer,), why, convention.name,
    )


def _order(item: str, band: str, rng: random.Random, convention: Convention) -> Question:
    pool = ORDER_BANDS.get(band)
    if pool is None:
        raise QuizError(f"unknown ordering band {band!r}: choose among {', '.join(ORDER_BANDS)}")
    by_level: dict[int, list[Card]] = {}
    for card in pool:
        by_level.setdefault(card.level, []).append(card)
    # one card per level, so the order is strict (ties are the trick questions' business)
    count = min(4, len(by_level))
    levels = rng.sample(sorted(by_level), count)
    cards = tuple(_shuffled(rng, [rng.choice(by_level[level]) for level in levels]))
    answer = tuple(card.code for card in sorted(cards, key=lambda c: -c.strength))
    detail = _with_levels(sorted(cards, key=lambda c: -c.strength))
    return Question(
        item, Kind.ORDER,
        Text("Rangez ces cartes de la plus forte à la plus faible.", "Put these cards in order, strongest first.",
             "Metti queste carte in ordine, dalla più forte."),
        cards, (), answer, Text(detail.fr + ".", detail.en + ".", detail.it + "."), convention.name,
    )


def _sign_meaning(sign: Sign, rng: random.Random) -> tuple[tuple[Card, ...], Text]:
    """What a card → sign question shows: the card(s), or the meaning for signs without a card."""
    if sign is Sign.AS:
        return (rng.choice(sign.cards),), sign_text(sign)
    return sign.cards, sign_text(sign)


def _gestures_for(sign: Sign, convention: Convention) -> tuple[Gesture, ...]:
    gestures = convention.gestures_for(sign)
    if not gestures:
        raise QuizError(f"convention {convention.name!r} has no gesture for {sign.value}: choose another convention")
    return gestures


def _sign(item: str, value: str, rng: random.Random, convention: Convention) -> Question:
    sign = Sign(value)
    expected = _gestures_for(sign, convention)
    wrong = [g for g in dict.fromkeys(convention.gestures) if g not in expected]
    gestures = _shuffled(rng, [expected[0], *rng.sample(wrong, CHOICES - 1)])
    choices = tuple(Choice(g.value, GESTURE_TEXT[g], gesture=g) for g in gestures)
    cards, meaning = _sign_meaning(sign, rng)
    if cards:
        prompt = Text("Quel signe fait-on pour annoncer cette carte ?", "Which sign tells your partner about this?",
                      "Quale segno annuncia questa carta?")
    else:
        prompt = Text(f"Quel signe dit « {meaning.fr} » ?", f"Which sign says “{meaning.en}”?",
                      f"Quale segno dice « {meaning.it} »?")
    how = GESTURE_TEXT[expected[0]]
    return Question(
        item, Kind.SIGN, prompt, cards, choices, (expected[0].value,),
        _gloss(meaning, how),
        convention.name, meaning=meaning, expected_gestures=expected,
    )


def _sign_card(item: str, value: str, rng: random.Random, convention: Convention) -> Question:
    sign = Sign(value)
    gestures = _gestures_for(sign, convention)
    signed = [s for s in Sign if s is not sign and convention.gestures_for(s)]
    options = _shuffled(rng, [sign, *rng.sample(signed, CHOICES - 1)])
    choices = tuple(Choice(s.value, sign_text(s), sign=s) for s in options)
    gesture = gestures[0]
    how = GESTURE_TEXT[gesture]
    meaning = sign_text(sign)
    return Question(
        item, Kind.SIGN_CARD,
        Text(f"Que dit ce signe ? ({how.fr})", f"What does this sign say? ({how.en})",
             f"Che cosa dice questo segno? ({how.it})"),
        (), choices, (sign.value,),
        _gloss(how, meaning),
        convention.name, gesture=gesture,
    )


_MAKERS = {
    Kind.NAME: _name,
    Kind.PICK: _pick,
    Kind.GROUP: _group,
    Kind.TRICK: _trick,
    Kind.ORDER: _order,
    Kind.SIGN: _sign,
    Kind.SIGN_CARD: _sign_card,
}
