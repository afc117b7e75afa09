"""Bots cannot reach hidden cards: they get a view, and the view carries no other hand."""

from __future__ import annotations

import dataclasses
import random

import pytest

from trainer.bots.base import make_bot
from trainer.rules.actions import Phase
from trainer.rules.cards import CARDS
from trainer.rules.game import Game
from trainer.rules.ruleset import Ruleset

RULES = Ruleset.preset("vendee", chant_allowed=False)


def _two_games(seed: int) -> tuple[Game, Game]:
    """Two first deals in which seat 0 holds the same cards and the other seats' cards differ."""
    rng = random.Random(seed)
    deck = list(CARDS)
    rng.shuffle(deck)
    mine, rest = deck[:9], deck[9:]
    hands_a = [mine] + [rest[9 * i: 9 * i + 9] for i in range(3)]
    other = rest[:]
    rng.shuffle(other)
    hands_b = [mine] + [other[9 * i: 9 * i + 9] for i in range(3)]
    assert hands_a[1] != hands_b[1]
    return Game.from_deal(RULES, 3, hands_a, rest[27:]), Game.from_deal(RULES, 3, hands_b, other[27:])


def _advance_to_seat0_play(game: Game) -> None:
    """Everyone passes the declarations; then seat 0 (left of dealer 3) leads."""
    while game.phase is Phase.DECLARE:
        game.apply(game.legal_actions()[0])


def test_view_holds_no_other_hand() -> None:
    game, _ = _two_games(1)
    view = game.view(0)
    names = {f.name for f in dataclasses.fields(view)}
    assert not names & {"hands", "talon", "world", "game", "_hands", "fast_deal"}
    others = {c for s in range(1, 4) for c in game.hand(s)}
    # No field of the view mentions a card of another hand (played cards are public: none yet).
    text = repr(view)
    assert not [c for c in others if f"'{c.value}'" in text or f"{c.name}" in text]


@pytest.mark.parametrize("name,options", [
    ("random", {}), ("heuristic", {}), ("search", {"worlds": 12, "max_ms": None}),
])
def test_bots_decide_the_same_when_only_hidden_cards_differ(name: str, options: dict) -> None:
    for seed in range(6):
        game_a, game_b = _two_games(seed)
        _advance_to_seat0_play(game_a)
        _advance_to_seat0_play(game_b)
        view_a, view_b = game_a.view(0), game_b.view(0)
        assert view_a == view_b
        bot_a, bot_b = make_bot(name, **options), make_bot(name, **options)
        assert bot_a.choose(view_a, random.Random(seed)) == bot_b.choose(view_b, random.Random(seed))
