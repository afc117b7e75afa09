"""10,000 seeded random games through the public API (Game.new, legal_actions, apply) without an
error, across the three presets and the 3-, 4- and 6-player tables."""

from __future__ import annotations

import random

from trainer.rules.actions import Phase
from trainer.rules.game import Game
from trainer.rules.ruleset import PRESETS, Players, Ruleset

GAMES = 10_000


def test_ten_thousand_seeded_random_games():
    rulesets = [Ruleset.preset(name, players=p) for name in sorted(PRESETS) for p in Players]
    finished = 0
    deals = 0
    for seed in range(GAMES):
        # Mostly the 4-player presets (the real game), every ninth game another table.
        ruleset = rulesets[seed % len(rulesets)] if seed % 9 == 0 else Ruleset.preset(
            ("vendee", "pagat", "english")[seed % 3]
        )
        game = Game.new(ruleset, seed)
        rng = random.Random(seed)
        while game.phase is not Phase.GAME_OVER:
            legal = game.legal_actions()
            game.apply(legal[int(rng.random() * len(legal))])
        outcome = game.outcome
        assert outcome is not None and outcome.scores == tuple(game.scores)
        assert sum(sum(r.points) for r in game.results) == sum(game.scores)
        finished += 1
        deals += len(game.results)
    assert finished == GAMES
    assert deals > 4 * GAMES
