"""Phases of a game of Aluette and the actions that move it on, with a text notation.

Standard library only. A play is simply a :class:`~trainer.rules.cards.Card`; every other action is a
frozen dataclass. Chance steps (choosing the first dealer, the deal, the chant deal) are actions too,
so a game is exactly its seed plus its action list (see :mod:`trainer.rules.game`).

Text notation (``format_action`` / ``parse_action``; ``parse_action(format_action(a)) == a``)::

    dealer 2 face-up 7C RB 3C         ChooseDealer (face-up cards until Madame; may be empty)
    deal 3D 2C ... / ... / ... / ... talon 4E ...   Deal (hands per seat in seat order, then talon)
    chant 5D 9E ... / RB ...          ChantDeal (cards to the first receiver / to the second)
    vote yes | vote no                Vote on the chant
    discard 5E                        Discard one card after a chant
    declare pass | declare mordienne | declare give-up
    answer accept | answer refuse
    play 3D                           a card played to the trick (also just "3D")
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import TypeAlias

from trainer.rules.cards import Card
from trainer.rules.errors import CardError, IllegalActionError


class Phase(Enum):
    """Where a game stands. ``CHOOSE_DEALER``, ``DEAL`` and ``CHANT_DEAL`` are chance steps."""

    CHOOSE_DEALER = "choose_dealer"
    DEAL = "deal"
    CHANT_VOTE = "chant_vote"
    CHANT_DEAL = "chant_deal"
    DISCARD = "discard"
    DECLARE = "declare"
    ANSWER = "answer"
    PLAY = "play"
    GAME_OVER = "game_over"

    @property
    def is_chance(self) -> bool:
        # By value in a frozenset: read several times per action, and each ``Phase.X`` lookup goes
        # through the enum's metaclass.
        return self._value_ in _CHANCE_PHASES


_CHANCE_PHASES = frozenset({Phase.CHOOSE_DEALER.value, Phase.DEAL.value, Phase.CHANT_DEAL.value})


class Declaration(Enum):
    """What a player may say before the first trick (RULES.md "Mordienne", "Giving up")."""

    PASS = "pass"
    MORDIENNE = "mordienne"
    """Announce mordienne (only if the ruleset's ``announced_mordienne`` is not OFF)."""
    GIVE_UP = "give-up"
    """Offer to give the deal up for the team (signalled by *misère*)."""


@dataclass(frozen=True, slots=True)
class ChooseDealer:
    """Chance: the first dealer. ``face_up`` are the cards dealt face up, one per seat from seat 0
    clockwise, until Madame (3C) appears; its holder deals (pagat). Empty when the dealer was agreed."""

    dealer: int
    face_up: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance: the deal. ``hands[seat]`` in the order received (batches of 3 from the dealer's left);
    ``talon`` the undealt cards (12 with 3 or 4 players, none with 6)."""

    hands: tuple[tuple[Card, ...], ...]
    talon: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class ChantDeal:
    """Chance: the talon dealt one at a time, alternately, to the two chant receivers.
    ``received[0]`` goes to the first receiver (left of the dealer), ``received[1]`` to the second."""

    received: tuple[tuple[Card, ...], tuple[Card, ...]]


@dataclass(frozen=True, slots=True)
class Vote:
    """A player's vote on playing the chant; it happens only if every player agrees."""

    agree: bool


@dataclass(frozen=True, slots=True)
class Discard:
    """A chant receiver discards one card face down (six times, back to the normal hand size)."""

    card: Card


@dataclass(frozen=True, slots=True)
class Declare:
    """A player's declaration before the first trick: pass, announce mordienne, or offer to give up."""

    declaration: Declaration


@dataclass(frozen=True, slots=True)
class Answer:
    """The opponents' answer to an announced mordienne or to an offer to give up."""

    accept: bool


Action: TypeAlias = Card | ChooseDealer | Deal | ChantDeal | Vote | Discard | Declare | Answer
"""Anything :meth:`Game.apply` accepts. A :class:`Card` is a play."""

PASS = Declare(Declaration.PASS)
ANNOUNCE_MORDIENNE = Declare(Declaration.MORDIENNE)
GIVE_UP = Declare(Declaration.GIVE_UP)
ACCEPT = Answer(True)
REFUSE = Answer(False)
YES = Vote(True)
NO = Vote(False)


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(c.value for c in cards)


def format_action(action: Action) -> str:
    """The one-line text of an action (see the module docstring)."""
    if isinstance(action, Card):
        return f"play {action.value}"
    if isinstance(action, Vote):
        return "vote yes" if action.agree else "vote no"
    if isinstance(action, Discard):
        return f"discard {action.card.value}"
    if isinstance(action, Declare):
        return f"declare {action.declaration.value}"
    if isinstance(action, Answer):
        return "answer accept" if action.accept else "answer refuse"
    if isinstance(action, ChooseDealer):
        text = f"dealer {action.dealer}"
        return text + (f" face-up {_cards(action.face_up)}" if action.face_up else "")
    if isinstance(action, Deal):
        text = "deal " + " / ".join(_cards(h) for h in action.hands)
        return text + (f" talon {_cards(action.talon)}" if action.talon else "")
    if isinstance(action, ChantDeal):
        return "chant " + " / ".join(_cards(h) for h in action.received)
    raise IllegalActionError(f"{action!r} is not an Aluette action")


def parse_action(text: str) -> Action:
    """Read back :func:`format_action`'s text; a bare card code is a play. Raises
    :class:`IllegalActionError` (or :class:`CardError` for a bad card code) naming the bad text."""
    if not isinstance(text, str) or not text.strip():
        raise IllegalActionError(f"empty or non-text action {text!r}")
    words = text.split()
    head, rest = words[0].lower(), words[1:]
    try:
        if len(words) == 1:
            return Card.parse(words[0])
        if head == "play" and len(rest) == 1:
            return Card.parse(rest[0])
        if head == "vote" and rest in (["yes"], ["no"]):
            return Vote(rest[0] == "yes")
        if head == "discard" and len(rest) == 1:
            return Discard(Card.parse(rest[0]))
        if head == "declare" and len(rest) == 1:
            return Declare(Declaration(rest[0].lower()))
        if head == "answer" and rest in (["accept"], ["refuse"]):
            return Answer(rest[0] == "accept")
        if head == "dealer" and rest:
            dealer = int(rest[0])
            if len(rest) == 1:
                return ChooseDealer(dealer)
            if rest[1] == "face-up":
                return ChooseDealer(dealer, Card.parse_many(rest[2:]))
        if head == "deal" and rest:
            talon: tuple[Card, ...] = ()
            body = " ".join(rest)
            if " talon " in f" {body} ":
                body, _, talon_text = f" {body} ".partition(" talon ")
                talon = Card.parse_many(talon_text.split())
            hands = tuple(Card.parse_many(part.split()) for part in body.split("/"))
            return Deal(hands, talon)
        if head == "chant" and rest:
            parts = " ".join(rest).split("/")
            if len(parts) == 2:
                first, second = (Card.parse_many(p.split()) for p in parts)
                return ChantDeal((first, second))
    except CardError:
        raise
    except ValueError:
        pass
    raise IllegalActionError(
        f"cannot read action {text!r}: write e.g. 'play 3D', 'vote yes', 'discard 5E', "
        "'declare pass|mordienne|give-up', 'answer accept|refuse'"
    )
