"""signal-value --timed: a timed signer against an open one, both signing, at a timed table."""

from __future__ import annotations

from trainer.bots.arena import TeamSpec, play_game
from trainer.bots.signal_value import markdown, measure
from trainer.rules.ruleset import Ruleset
from trainer.signals.table import Vigilance


def test_a_timed_match_seats_a_timed_team_against_an_open_one_at_a_timed_table():
    team = TeamSpec.parse("heuristic")
    timed, open_ = team.with_options(signs=True, discreet=True), team.with_options(signs=True, discreet=False)
    table = play_game(timed, open_, seed=3, a_even=True, ruleset=Ruleset(), vigilance=Vigilance(0.5), timed=True)
    assert table.watch is not None
    mine = [t.event for t in table.history if t.event.seat % 2 == 0]
    theirs = [t.event for t in table.history if t.event.seat % 2 == 1]
    assert mine and theirs
    # The timed team signs only while no opponent looks; the open one whenever it chose.
    assert all(e.discreet and table.watch.is_clear(e.seat, e.at) for e in mine)
    assert not all(e.discreet for e in theirs)


def test_signal_value_timed_rows_say_what_they_compare():
    rows = measure(TeamSpec.parse("heuristic"), [0.5], games=2, seed=1, ruleset=Ruleset(), timed=True)
    assert rows[0]["compare"] == "timed vs open signer" and rows[0]["games"] == 2
    assert "timed team wins" in markdown(rows)
    plain = measure(TeamSpec.parse("heuristic"), [0.5], games=2, seed=1, ruleset=Ruleset())
    assert plain[0]["compare"] == "signs vs none" and "signing team wins" in markdown(plain)
