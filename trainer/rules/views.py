"""What one seat may know: the view bots decide from.

Standard library only, and never the engine: :meth:`trainer.rules.game.Game.view` builds a
:class:`PlayerView` (so the game imports this module, never the reverse). A view holds only what the
seat can see: its hand, its own discards, the chant cards it received, every played card and trick
(spoiled tricks are public), tricks won per seat, scores, declarations, and the signal records that
reached the seat. Bots decide from views only.

Hidden worlds consistent with a view are sampled in one place, by the bots
(:func:`trainer.bots.worlds.sample_hands`), which also turn the signs a seat received into
constraints on them.
"""

from __future__ import annotations

from dataclasses import dataclass

from trainer.rules.actions import Action, Declaration, Phase
from trainer.rules.cards import CARDS, Card
from trainer.rules.records import DealResult, SignalRecord, TrickRecord
from trainer.rules.ruleset import Ruleset


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
