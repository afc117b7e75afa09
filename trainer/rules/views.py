"""What one seat may know: the view bots decide from.

Standard library only. A :class:`PlayerView` is computed from a game by :func:`view_of` (call
``game.view(seat)``); it holds only what the seat can see: its hand, its own discards, the chant
cards it received, every played card and trick (spoiled tricks are public), tricks won per seat,
scores, declarations, and the signal records that reached the seat. Bots decide from views only.

Hidden worlds consistent with a view are sampled in one place, by the bots
(:func:`trainer.bots.worlds.sample_hands`), which also turn the signs a seat received into
constraints on them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from trainer.rules.actions import Action, Declaration, Phase
from trainer.rules.cards import CARDS, Card
from trainer.rules.ruleset import Ruleset

if TYPE_CHECKING:
    from trainer.rules.game import DealResult, Game, SignalRecord, TrickRecord


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Everything ``seat`` may know at one moment of a game (never another seat's hidden cards)."""

    seat: int
    ruleset: Ruleset
    phase: Phase
    to_move: int | None
    legal_actions: tuple[Action, ...]
    """The seat's legal actions if it is to move, else empty."""
    dealer: int | None
    deal_number: int
    hand: tuple[Card, ...]
    """Strongest first."""
    discards: tuple[Card, ...]
    """This seat's own chant discards (face down for the others)."""
    received: tuple[Card, ...]
    """The talon cards this seat received in a chant."""
    chant: bool | None
    chant_receivers: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    discard_counts: tuple[int, ...]
    tricks: tuple[TrickRecord, ...]
    """Finished tricks of this deal (spoiled ones have winner None: their cards are public)."""
    trick_leader: int | None
    current_trick: tuple[Card, ...]
    tricks_won: tuple[int, ...]
    scores: tuple[int, ...]
    target: int | None
    deals_played: int
    declarations: tuple[tuple[int, Declaration], ...]
    answers: tuple[tuple[int, bool], ...]
    signals: tuple[SignalRecord, ...]
    """Signal records sent by this seat or that reached it."""
    results: tuple[DealResult, ...]

    @property
    def players(self) -> int:
        return self.ruleset.player_count

    @property
    def played(self) -> tuple[Card, ...]:
        """Every card played in this deal, in play order (finished tricks, then the current one)."""
        return tuple(c for t in self.tricks for c in t.cards) + self.current_trick

    @property
    def spoiled_cards(self) -> tuple[Card, ...]:
        return tuple(c for t in self.tricks if t.winner is None for c in t.cards)

    def unseen(self) -> frozenset[Card]:
        """Cards this seat has not seen: in other hands, others' discards, or the unseen talon."""
        seen = set(self.hand) | set(self.discards) | set(self.played)
        return frozenset(c for c in CARDS if c not in seen)


def view_of(game: Game, seat: int) -> PlayerView:
    """The view of ``seat`` in ``game`` (``game.view(seat)`` calls this)."""
    hand = game.hand(seat)  # checks the seat
    to_move = game.to_move
    return PlayerView(
        seat=seat,
        ruleset=game.ruleset,
        phase=game.phase,
        to_move=to_move,
        legal_actions=game.legal_actions() if to_move == seat else (),
        dealer=game.dealer,
        deal_number=game.deal_number,
        hand=hand,
        discards=game.discards(seat),
        received=game.received(seat),
        chant=game.chant,
        chant_receivers=game.chant_receivers,
        hand_sizes=game.hand_sizes,
        discard_counts=game.discard_counts,
        tricks=game.tricks,
        trick_leader=game.leader,
        current_trick=game.current_trick,
        tricks_won=game.tricks_won,
        scores=tuple(game.scores),
        target=game.target,
        deals_played=game.deals_played,
        declarations=game.declarations,
        answers=game.answers,
        signals=tuple(r for r in game.signals if r.seat == seat or seat in r.reached),
        results=tuple(game.results),
    )
