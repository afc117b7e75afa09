"""The random bot: a legal action at random, and no signs. The baseline every other bot must beat.

Imports trainer.rules and the bots' base only.
"""

from __future__ import annotations

import random

from trainer.bots.base import SignIntent, require_turn
from trainer.bots.signing import SignPolicy
from trainer.rules.actions import Action
from trainer.rules.views import PlayerView


class RandomBot:
    """Chooses uniformly among ``view.legal_actions`` with the generator it is given."""

    name = "random"

    def __init__(self) -> None:
        self.last_rule = "random"

    def seated(self, seat: int, partner_policy: SignPolicy | None, lying_allowed: bool = False) -> None:
        pass

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        require_turn(view)
        return rng.choice(view.legal_actions)

    def signals(self, view: PlayerView, rng: random.Random) -> list[SignIntent]:
        return []
