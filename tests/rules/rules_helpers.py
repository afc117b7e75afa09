"""Test helpers for the rules tests: build deals from short card lists, drive games to a phase."""

from __future__ import annotations

import random

from trainer.rules.actions import Phase, Vote
from trainer.rules.cards import CARDS, Card
from trainer.rules.game import Game
from trainer.rules.ruleset import Ruleset


def cards(text: str) -> tuple[Card, ...]:
    return Card.parse_many(text.split())


def fill_hands(partial: list[str], players: int = 4, hand_size: int = 9) -> tuple[tuple[Card, ...], ...]:
    """Hands whose first cards are given (codes per seat, in play order); the rest are filled with
    the weakest unused cards, so the tests control the tricks they name."""
    given = [list(cards(p)) for p in partial]
    used = {c for hand in given for c in hand}
    spare = [c for c in reversed(CARDS) if c not in used]
    hands = []
    for hand in given:
        while len(hand) < hand_size:
            hand.append(spare.pop(0))
        hands.append(tuple(hand))
    return tuple(hands)


def game_at_play(ruleset: Ruleset, dealer: int, hands, *, seed: int = 0) -> Game:
    """A game whose first deal is ``hands``, past the chant vote and declarations, at trick 1."""
    game = Game.from_deal(ruleset, dealer, hands, seed=seed)
    while game.phase is not Phase.PLAY:
        if game.phase is Phase.CHANT_VOTE:
            game.apply(Vote(False))
        else:
            game.apply(game.legal_actions()[0])  # PASS comes first among declarations
    return game


def random_game(ruleset: Ruleset, seed: int, steps: int | None = None) -> Game:
    """A game played with uniformly random legal actions (all of it, or ``steps`` actions)."""
    game = Game.new(ruleset, seed)
    rng = random.Random(seed)
    done = 0
    while not game.is_over and (steps is None or done < steps):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
        done += 1
    return game
