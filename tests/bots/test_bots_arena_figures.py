"""The arena's figures: a game's outcome is 1, 0 or -1 from team A's side and each is counted as
such, and the JSON keeps four decimals of the per-deal figures and three of the decision times.
Written against mutants of trainer/bots/arena.py that the suite let pass (docs/mutation.md,
2026-12-02, fourth run: a seeded sample of 40 of table, arena and channel)."""

from __future__ import annotations

import pytest

from trainer.bots.arena import DealRecord, GameRecord, GameTask, MatchResult, TeamSpec, add_record, game_seed, run_game
from trainer.rules.ruleset import Ruleset
from trainer.signals.table import Vigilance


def _record(outcome: int, deals: tuple[DealRecord, ...] = ()) -> GameRecord:
    return GameRecord(0, outcome, 0, deals, 0, 0, (), ())


def test_wins_draws_and_losses_are_each_counted_as_such():
    result = MatchResult("a", "b", "vendee", 0, 0.0)
    for outcome in (1, 0, 0, -1, 1, 1):
        add_record(result, _record(outcome))
    assert (result.games, result.wins_a, result.draws, result.wins_b) == (6, 3, 2, 1)
    assert result.win_rate_a == pytest.approx(4 / 6)


def test_a_games_outcome_is_one_for_a_win_of_team_a_and_minus_one_for_a_loss():
    spec = TeamSpec.parse("heuristic")
    outcomes = set()
    for index in range(6):
        record = run_game(GameTask(spec, TeamSpec.parse("random"), index, game_seed(3, index),
                                   Ruleset.preset("vendee"), Vigilance()))
        assert record.outcome in (1, 0, -1)
        outcomes.add(record.outcome)
    assert 1 in outcomes  # the heuristic beats random bots, so the "A won" value was seen


def test_the_json_keeps_four_decimals_per_deal_and_three_of_the_times():
    result = MatchResult("a", "b", "vendee", 0, 0.0)
    deals = tuple(DealRecord(points, 0, True, 0, False, False) for points in (1, 0, 0))
    add_record(result, GameRecord(0, 1, 1, deals, 0, 0, (0.0012345, 0.0012345), ()))
    figures = result.to_json()
    assert figures["points_per_deal_a"] == 0.3333
    mean, low, high = result.points_margin
    assert figures["points_margin_per_deal"] == [round(mean, 4), round(low, 4), round(high, 4)]
    assert figures["points_margin_per_deal"][0] == 0.3333
    assert result.decision_ms([0.0012345, 0.0012345])["median"] in (1.234, 1.235)
    assert result.decision_ms([0.0012345])["p99"] in (1.234, 1.235)


def _readings_and_signs(delay_s: float):
    from trainer.bots.channel import NoisyChannel
    from trainer.bots.table import Table

    spec = TeamSpec.parse("heuristic")
    table = Table([spec.build() for _ in range(4)], ruleset=Ruleset.preset("vendee"), seed=1,
                  channel=NoisyChannel(0.0, 0.0, delay_s), channel_team=0)
    table.play_out()
    signals = [r for r in table.game.signals if r.seat == 0]
    made = [r for r in signals if 2 not in r.reached]
    readings = [r for r in signals if r.reached == frozenset({2})]
    return made, readings


def test_a_channel_one_sign_point_late_delivers_every_sign_at_the_next_point():
    """15 s late is one sign point: a sign made as the deal's declarations open reaches the partner
    at the first trick, all of them, none lost or later (the point after that would be trick 1)."""
    from trainer.rules.actions import Phase

    made, readings = _readings_and_signs(15.0)
    assert made and all(r.phase is Phase.DECLARE for r in made)  # this seed signs at the declarations
    for deal in {r.deal for r in made}:
        sent = sorted(r.message for r in made if r.deal == deal)
        got = [r for r in readings if r.deal == deal]
        assert sorted(r.message.split(" @")[0] for r in got) == sent
        assert all((r.phase, r.trick) == (Phase.PLAY, 0) for r in got)
    assert readings


def test_a_bot_that_tells_its_figures_aloud_has_its_words_on_the_table():
    """SearchBot(announce=True) tells its figures after its aces sign: the table keeps those words
    with the sign (and the partner's record carries them)."""
    from trainer.bots.search import SearchBot
    from trainer.bots.table import Table

    told = []
    for seed in range(6):
        table = Table([SearchBot(worlds=2, max_ms=None, announce=True) for _ in range(4)],
                      ruleset=Ruleset.preset("vendee"), seed=seed)
        table.play_out()
        told += [t.event for t in table.history if t.event.announcements]
        if told:
            break
    assert told, "no bot told its figures aloud in six games"
    event = told[0]
    assert any(" | " in r.message for r in table.game.signals if r.seat == event.seat)


def test_a_camera_figure_without_a_confidence_is_trusted_within_bounds():
    """A sign read with no confidence is trusted as the gesture's precision, kept inside 2..98 %."""
    from types import MappingProxyType

    from trainer.bots.channel import SignReliability
    from trainer.signals.gestures import Gesture

    reader = SignReliability(MappingProxyType({Gesture.WINK: 1.0, Gesture.POUT: 0.0, Gesture.THUMB: 0.7}),
                             MappingProxyType({}), "test figures")
    assert reader.trust(Gesture.WINK, None) == 0.98
    assert reader.trust(Gesture.POUT, None) == 0.02
    assert reader.trust(Gesture.THUMB, None) == 0.7
    assert reader.trust(None, None) == 0.85  # the default figures


def test_the_arena_game_goes_through_the_tasks_channel():
    """A channel that misses every sign changes what the partners know, so the same seeded games
    come out differently than at a perfect table."""
    from trainer.bots.channel import NoisyChannel

    spec = TeamSpec.parse("heuristic")
    differ = False
    for index in range(4):
        plain = GameTask(spec, spec, index, game_seed(9, index), Ruleset.preset("vendee"), Vigilance())
        deaf = GameTask(spec, spec, index, game_seed(9, index), Ruleset.preset("vendee"), Vigilance(),
                        channel=NoisyChannel(miss=1.0))
        differ = differ or run_game(plain).deals != run_game(deaf).deals
    assert differ
