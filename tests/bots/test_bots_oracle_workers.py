"""The oracle searches the one true world; games spread over worker processes give the serial results."""

from __future__ import annotations

import random

import pytest

from trainer.bots import playout
from trainer.bots.arena import TeamSpec, play_match
from trainer.bots.base import BotError, make_bot
from trainer.bots.channel import NoisyChannel
from trainer.bots.table import Table
from trainer.rules.actions import Phase
from trainer.rules.cards import CARDS
from trainer.rules.game import Game
from trainer.rules.ruleset import Ruleset

RULES = Ruleset.preset("vendee", chant_allowed=False)


def test_the_oracle_samples_only_the_true_world(monkeypatch) -> None:
    table = Table([make_bot("oracle", worlds=6, max_ms=None), make_bot("heuristic"),
                   make_bot("heuristic"), make_bot("heuristic")], ruleset=RULES, seed=11)
    real = playout.sample_hands
    worlds: list[bool] = []

    def spy(knowledge, rng, *args, **kwargs):
        hands = real(knowledge, rng, *args, **kwargs)
        truth = [sorted(c.index for c in table.game.hand(s)) for s in range(4)]
        worlds.append([sorted(h) for h in hands] == truth)
        return hands

    monkeypatch.setattr(playout, "sample_hands", spy)
    table.step(max_actions=120)
    assert len(worlds) > 20
    assert all(worlds), f"{worlds.count(False)} of {len(worlds)} sampled worlds were not the true one"


def _two_games(seed: int) -> tuple[Game, Game]:
    """Seat 0 holds the same cards in both; the other hands differ."""
    rng = random.Random(seed)
    deck = list(CARDS)
    rng.shuffle(deck)
    mine, rest = deck[:9], deck[9:]
    other = rest[:]
    rng.shuffle(other)
    games = []
    for pool in (rest, other):
        game = Game.from_deal(RULES, 3, [mine] + [pool[9 * i: 9 * i + 9] for i in range(3)], pool[27:])
        while game.phase is Phase.DECLARE:
            game.apply(game.legal_actions()[0])
        games.append(game)
    return games[0], games[1]


def test_the_oracle_decides_on_the_hidden_cards_that_search_cannot_see() -> None:
    differ = 0
    for seed in range(12):
        games = _two_games(seed)
        choices = []
        for game in games:
            bot = make_bot("oracle", worlds=8, max_ms=None)
            bot.seated(0, None)
            bot.reveal(tuple(tuple(c.index for c in game.hand(s)) for s in range(4)))
            choices.append(bot.choose(game.view(0), random.Random(seed)))
        differ += choices[0] != choices[1]
    # Same view, different true hands: the all-seeing bound plays differently at least sometimes.
    assert differ >= 2


def test_the_oracle_never_sits_with_a_person_and_needs_the_true_hands() -> None:
    with pytest.raises(BotError, match="oracle"):
        Table.create(["human", "oracle", "heuristic", "oracle"], ruleset=RULES, seed=1)
    game = _two_games(0)[0]
    bot = make_bot("oracle")
    bot.seated(0, None)
    with pytest.raises(BotError, match="every hand"):
        bot.choose(game.view(0), random.Random(0))


def _figures(result) -> dict:
    j = result.to_json()
    for key in ("decision_ms", "decision_ms_a", "decision_ms_b"):
        j.pop(key)
    j["game_margins"] = result.game_margin_a
    j["deal_margins"] = result.deal_margin_a
    return j


@pytest.mark.parametrize("channel", [None, NoisyChannel(0.3, 3.0, 20.0)])
def test_workers_give_the_serial_results(channel) -> None:
    a, b = TeamSpec.parse("heuristic"), TeamSpec.parse("heuristic:signs=false")
    serial = play_match(a, b, games=6, seed=5, ruleset=RULES, channel=channel)
    spread = play_match(a, b, games=6, seed=5, ruleset=RULES, channel=channel, workers=2)
    assert _figures(spread) == _figures(serial)
    assert serial.games == 6 and len(serial.times_a) == len(spread.times_a)


def test_workers_must_be_positive() -> None:
    with pytest.raises(BotError, match="workers"):
        play_match(TeamSpec.parse("random"), TeamSpec.parse("random"), games=2, workers=0)


def test_ismcts_plays_whole_games_legally_and_reproducibly() -> None:
    seats = [make_bot("ismcts", worlds=40, max_ms=None), make_bot("heuristic"),
             make_bot("ismcts", worlds=40, max_ms=None), make_bot("heuristic")]
    table = Table(seats, ruleset=RULES, seed=3)
    table.step(max_actions=80)  # the engine refuses an illegal card
    game = _two_games(1)[0]
    picks = []
    for _ in range(2):
        bot = make_bot("ismcts", worlds=200, max_ms=None)
        bot.seated(0, None)
        picks.append(bot.choose(game.view(0), random.Random(9)))
        shares = bot.last_search.values
        assert abs(sum(shares.values()) - 1.0) < 1e-9 and bot.last_search.worlds == 200
    assert picks[0] == picks[1]


def test_ismcts_takes_the_last_trick_it_can_take() -> None:
    # Seat 0 holds Monsieur and a low card with two tricks left in every world: leading Monsieur
    # wins a trick for sure; the search must find it from visit counts alone.
    from trainer.bots.ismcts import ismcts_values
    from trainer.bots.playout import PublicPlay
    from trainer.bots.worlds import Knowledge

    mon, low = 0, 47
    others = [1, 2, 3, 4, 5, 6]
    k = Knowledge(0, (mon, low), (2, 2, 2, 2), frozenset(others))
    public = PublicPlay(leader=0, trick=(), tricks=tuple((0, (40 + i, 30 + i, 20 + i, 10 + i), -1) for i in range(7)),
                        total_tricks=9)
    result = ismcts_values(k, public, [mon, low], lambda s: s % 2, random.Random(1), iterations=300, max_seconds=None)
    assert max(result.values, key=result.values.get) == mon
