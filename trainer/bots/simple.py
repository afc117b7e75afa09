"""A tiny, always-legal bot for the terminal game when the real bots are not available.

Imports trainer.rules only. Plays the lowest card that wins the trick so far, else its lowest card;
never votes for the chant, discards its weakest cards, always passes and refuses.
"""

from __future__ import annotations

import random

from trainer.bots.base import SignIntent
from trainer.bots.signing import SignPolicy
from trainer.rules.actions import Action, Answer, Declaration, Declare, Discard, Vote
from trainer.rules.cards import Card
from trainer.rules.views import PlayerView


class SimpleBot:
    """Lowest winning card, else lowest card. Same interface as trainer.bots.base.Bot."""

    name = "simple"

    def __init__(self) -> None:
        self.seat: int | None = None

    def seated(self, seat: int, partner_policy: SignPolicy | None = None, lying_allowed: bool = False) -> None:
        self.seat = seat

    def signals(self, view: PlayerView, rng: random.Random) -> list[SignIntent]:
        return []

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action now (phase {view.phase.value})")
        first = legal[0]
        if isinstance(first, Card):
            best = max((c.strength for c in view.current_trick), default=-1)
            # legal plays come strongest first: the last winning one is the cheapest winner.
            winners = [c for c in legal if isinstance(c, Card) and c.strength > best]
            return winners[-1] if winners else legal[-1]
        if isinstance(first, Vote):
            return Vote(False)
        if isinstance(first, Discard):
            return legal[-1]
        if isinstance(first, Declare):
            return Declare(Declaration.PASS)
        if isinstance(first, Answer):
            return Answer(True)
        return first
