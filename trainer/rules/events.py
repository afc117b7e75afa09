"""What happened when an action was applied: the typed events :meth:`Game.apply` returns.

Standard library only (never signals, bots, vision, UI). Narrators (the terminal, the playthrough
text, the Play page) tell a game from these values, so they need neither a copy of the game before
each action nor the engine's prose. One action may give several events, in the order they happened:
the last card of a deal gives ``CardPlayed``, ``TrickEnded``, ``DealScored`` and perhaps ``GameOver``;
with ``auto_chance`` the chance steps resolved after it add theirs (``CardsDealt`` of the next deal).

:func:`narrate` is the one place that tells events apart: a narrator is a :class:`Phrases` giving a
sentence (or none) per kind of event.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol, TypeAlias

from trainer.rules.actions import Declaration
from trainer.rules.cards import Card
from trainer.rules.errors import RulesError
from trainer.rules.records import DealResult, Outcome, TrickRecord


@dataclass(frozen=True, slots=True)
class DealerChosen:
    """The first dealer; ``face_up`` the cards dealt face up until Madame (empty when agreed)."""

    dealer: int
    face_up: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CardsDealt:
    """Deal number ``deal`` dealt by ``dealer``: ``hands[seat]`` in the order received."""

    deal: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True)
class ChantVoted:
    """A seat voted on the chant."""

    seat: int
    agree: bool


@dataclass(frozen=True, slots=True)
class ChantDecided:
    """The vote is over: the chant is played (everyone agreed; ``receivers`` get the talon) or not
    (one seat said no; ``receivers`` is empty)."""

    played: bool
    receivers: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ChantDealt:
    """The talon dealt to the chant receivers: ``received[i]`` went to ``receivers[i]``."""

    receivers: tuple[int, ...]
    received: tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True)
class CardDiscarded:
    """A chant receiver discarded ``card`` face down, its ``number``-th discard (1..6) of the deal."""

    seat: int
    card: Card
    number: int


@dataclass(frozen=True, slots=True)
class Declared:
    """A declaration before the first trick: pass, announce mordienne, or offer to give up."""

    seat: int
    declaration: Declaration


@dataclass(frozen=True, slots=True)
class Answered:
    """The opponents' answer (by ``seat``) to ``declaration`` made by ``declared_by``: a give-up
    offer accepted or refused, an announced mordienne accepted or declined."""

    seat: int
    accept: bool
    declared_by: int
    declaration: Declaration


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """``seat`` played ``card`` to trick ``trick`` (1-based) of the deal."""

    seat: int
    card: Card
    trick: int


@dataclass(frozen=True, slots=True)
class TrickEnded:
    """A trick is complete: won by ``trick.winner``, or spoiled (*pourri*, winner None)."""

    trick: TrickRecord

    @property
    def winner(self) -> int | None:
        return self.trick.winner

    @property
    def spoiled(self) -> bool:
        return self.trick.winner is None


@dataclass(frozen=True, slots=True)
class DealScored:
    """A deal is over and scored (played, given up, or mordienne declined). ``scores`` are the
    teams' totals after it, ``target`` the points that end the game now (None for a fixed number
    of deals not yet extended), ``deals_played`` the deals scored so far, of ``deals``."""

    result: DealResult
    scores: tuple[int, ...]
    target: int | None
    deals_played: int
    deals: int


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game ended with ``outcome``."""

    outcome: Outcome


Event: TypeAlias = (
    DealerChosen | CardsDealt | ChantVoted | ChantDecided | ChantDealt | CardDiscarded | Declared | Answered
    | CardPlayed | TrickEnded | DealScored | GameOver
)
"""Anything :meth:`Game.apply` reports."""


class Phrases(Protocol):
    """A narrator: the lines it says for each kind of event (an empty list to stay silent)."""

    def dealer_chosen(self, event: DealerChosen) -> list[str]: ...
    def cards_dealt(self, event: CardsDealt) -> list[str]: ...
    def chant_voted(self, event: ChantVoted) -> list[str]: ...
    def chant_decided(self, event: ChantDecided) -> list[str]: ...
    def chant_dealt(self, event: ChantDealt) -> list[str]: ...
    def card_discarded(self, event: CardDiscarded) -> list[str]: ...
    def declared(self, event: Declared) -> list[str]: ...
    def answered(self, event: Answered) -> list[str]: ...
    def card_played(self, event: CardPlayed) -> list[str]: ...
    def trick_ended(self, event: TrickEnded) -> list[str]: ...
    def deal_scored(self, event: DealScored) -> list[str]: ...
    def game_over(self, event: GameOver) -> list[str]: ...


_METHOD = {
    DealerChosen: "dealer_chosen", CardsDealt: "cards_dealt", ChantVoted: "chant_voted",
    ChantDecided: "chant_decided", ChantDealt: "chant_dealt", CardDiscarded: "card_discarded",
    Declared: "declared", Answered: "answered", CardPlayed: "card_played", TrickEnded: "trick_ended",
    DealScored: "deal_scored", GameOver: "game_over",
}


def narrate(events: Iterable[Event], phrases: Phrases) -> list[str]:
    """The lines ``phrases`` says for ``events``, in order."""
    lines: list[str] = []
    for event in events:
        method = _METHOD.get(type(event))
        if method is None:
            raise RulesError(f"{event!r} is not an Aluette event: narrate takes what Game.apply returns")
        lines.extend(getattr(phrases, method)(event))
    return lines


__all__ = [
    "Answered", "CardDiscarded", "CardPlayed", "CardsDealt", "ChantDealt", "ChantDecided", "ChantVoted",
    "DealScored", "DealerChosen", "Declared", "Event", "GameOver", "Phrases", "TrickEnded", "narrate",
]
