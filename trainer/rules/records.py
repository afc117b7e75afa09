"""The values a game records: how it ended, how each deal ended, tricks, signs and deal results.

Standard library only, and nothing of the engine: a leaf module, so that the engine
(:mod:`trainer.rules.game`, which re-exports these names), its events (:mod:`trainer.rules.events`)
and the player views (:mod:`trainer.rules.views`) all read the same types without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from trainer.rules.actions import Phase
from trainer.rules.cards import Card


class Termination(Enum):
    """Why the game ended."""

    TARGET_REACHED = "target_reached"
    """A team reached the points target (5, or 10 after an announced mordienne)."""
    DEALS_PLAYED = "deals_played"
    """The fixed number of deals was played; most points wins, equal points draw."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: why, the winning team (None for a draw) and the final scores per team."""

    termination: Termination
    winner: int | None
    scores: tuple[int, ...]

    @property
    def draw(self) -> bool:
        return self.winner is None


class DealEnd(Enum):
    """How a deal ended."""

    PLAYED = "played"
    GIVEN_UP = "given_up"
    """A team gave the deal up and the opponents took their point."""
    MORDIENNE_DECLINED = "mordienne_declined"
    """Mordienne was announced and declined: not played, the announcer's team scores 1."""


class Contract(Enum):
    """What the deal's scoring depends on, set by the declarations."""

    NORMAL = "normal"
    ANNOUNCED = "announced"
    """Announced mordienne accepted (accept/decline rule): the deal winner scores 2."""
    COMMITTED = "committed"
    """Giving up refused: the refusing team must make mordienne (2 for them) or the other team gets 2."""


@dataclass(frozen=True, slots=True)
class TrickRecord:
    """A finished (or, in views, the current) trick: who led, the cards in play order, the winner
    (None if spoiled — *pourri* — or not finished)."""

    number: int
    leader: int
    cards: tuple[Card, ...]
    winner: int | None

    @property
    def spoiled(self) -> bool:
        return self.winner is None and len(self.cards) > 0

    def seat_of(self, position: int, players: int) -> int:
        """The seat that played the card at ``position`` in this trick."""
        return (self.leader + position) % players

    def plays(self, players: int) -> tuple[tuple[int, Card], ...]:
        """``(seat, card)`` in play order."""
        return tuple(((self.leader + i) % players, c) for i, c in enumerate(self.cards))


@dataclass(frozen=True, slots=True)
class SignalRecord:
    """A sign made at the table, stored opaquely (the rules layer does not know signs).

    ``message`` is whatever the signals layer writes (e.g. ``"BORGNE"`` or ``"AS x2"``); ``reached``
    the seats that saw it (the sender always knows its own sign). ``deal`` and ``trick`` (tricks
    finished in that deal) and ``phase`` say when; ``index`` is the number of actions before it."""

    seat: int
    message: str
    reached: frozenset[int]
    deal: int
    trick: int
    phase: Phase
    index: int


@dataclass(frozen=True, slots=True)
class DealResult:
    """One scored deal: its tricks, who won it and how, and the points it gave each team. Values
    only: the words for them are the narration's (``trainer/narration``) and the playthrough's
    (``saves.PlaythroughPhrases.deal_result``)."""

    deal: int
    dealer: int
    chant: bool
    end: DealEnd
    tricks: tuple[TrickRecord, ...]
    tricks_won: tuple[int, ...]
    deal_winner: int | None
    mordienne: bool
    points: tuple[int, ...]
    contract: Contract
    declared_by: int | None
