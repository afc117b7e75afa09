"""Seeded self-play: every bot plays whole games through the table with legal actions only."""

from __future__ import annotations

import pytest

from trainer.bots.base import Bot, bot_names, make_bot
from trainer.bots.table import Table
from trainer.rules.ruleset import Players, Ruleset


class Checked:
    """Wraps a bot and checks that every action it picks is in the view's legal actions."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.policy = getattr(bot, "policy", None)
        self.signs_enabled = getattr(bot, "signs_enabled", True)
        self.decisions = 0

    def seated(self, seat, partner_policy, lying_allowed=False):
        self.bot.seated(seat, partner_policy, lying_allowed)

    def choose(self, view, rng):
        action = self.bot.choose(view, rng)
        assert action in view.legal_actions, (self.name, action, view.legal_actions)
        self.decisions += 1
        return action

    def signals(self, view, rng):
        return self.bot.signals(view, rng)


def _play(names, games, seed, ruleset=None, **options):
    deals = 0
    for g in range(games):
        n = (ruleset or Ruleset()).player_count
        bots = [Checked(make_bot(names[s % len(names)], **options.get(names[s % len(names)], {}))) for s in range(n)]
        table = Table(bots, ruleset=ruleset, seed=seed + g)
        table.play_out()
        assert table.game.is_over and table.game.outcome is not None
        deals += len(table.game.results)
    return deals


def test_registry_lists_the_bots() -> None:
    assert {"random", "heuristic", "search"} <= set(bot_names())


def test_random_bots_play_thousands_of_deals() -> None:
    assert _play(["random"], 250, seed=100) >= 2000


def test_heuristic_against_random_plays_thousands_of_deals() -> None:
    assert _play(["heuristic", "random"], 120, seed=200) + _play(["heuristic"], 80, seed=300) >= 1000


@pytest.mark.parametrize("preset", ["vendee", "pagat", "english"])
def test_every_preset_and_lies(preset: str) -> None:
    ruleset = Ruleset.preset(preset)
    _play(["heuristic", "random"], 10, seed=400, ruleset=ruleset)
    table = Table([make_bot("heuristic") for _ in range(4)], ruleset=ruleset, seed=9, lying_allowed=True)
    table.play_out()
    assert table.game.is_over


@pytest.mark.parametrize("players", [Players.THREE, Players.SIX])
def test_three_and_six_player_tables(players: Players) -> None:
    ruleset = Ruleset.preset("vendee", players=players)
    deals = _play(["heuristic", "random", "search"], 3, seed=500, ruleset=ruleset, search={"worlds": 3, "max_ms": None})
    assert deals >= 3  # three games played to their end, each of at least one deal


def test_search_bot_self_play_with_a_tiny_budget() -> None:
    deals = _play(["search", "heuristic"], 4, seed=600, search={"worlds": 4, "max_ms": None})
    assert deals >= 20


def test_same_seed_same_game() -> None:
    def run():
        table = Table([make_bot("search", worlds=4, max_ms=None), make_bot("heuristic"),
                       make_bot("search", worlds=4, max_ms=None), make_bot("random")], seed=77)
        table.play_out()
        return table.game.history, [t.event for t in table.history]

    assert run() == run()
