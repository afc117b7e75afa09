"""TableSettings: the one value the Play page and ``aluette play`` build a table from (issue 17)."""

from __future__ import annotations

import pytest

from trainer.bots.base import bot_names, make_bot
from trainer.bots.table_setup import (
    TableSettings,
    TableSetupError,
    partner_seat,
    playable_bots,
    seat_names,
    team_names,
)
from trainer.rules.ruleset import Players, Ruleset
from trainer.signals.table import VIGILANCE_LEVELS


def test_every_fair_bot_is_offered_and_no_all_seeing_one():
    fair = tuple(n for n in bot_names() if not getattr(make_bot(n), "sees_all", False))
    assert playable_bots() == fair and "oracle" not in fair and "heuristic" in fair


@pytest.mark.parametrize("players", (3, 4, 6))
def test_seats_partners_and_teams_follow_the_engine(players):
    rules = Ruleset(players=Players(players))
    assert len(seat_names(players)) == players and seat_names(players)[0] == "South"
    partners = rules.partners(0)
    assert partner_seat(players) == (partners[0] if partners else None)
    settings = TableSettings(players=players, partner="search", opponents="random")
    seats = settings.seats()
    assert seats[0] == "human"
    assert [s for s in range(players) if seats[s] == "search"] == list(partners)
    assert all(seats[s] == "random" for s in range(1, players) if s not in partners)
    names = team_names(players)
    assert len(names) == rules.team_count and names[0] == ("you" if players == 3 else "your team")
    table = settings.table(3)
    assert table.players == players and table.ruleset.hand_size == rules.hand_size
    assert [b is None for b in table.seats] == [s == 0 for s in range(players)]


def test_settings_reach_the_table():
    table = TableSettings(vigilance="hawk", lies=True, convention="regional").table(1)
    assert table.vigilance == VIGILANCE_LEVELS["hawk"] and table.lying_allowed and table.convention.name == "regional"


def test_bad_settings_name_the_choices_and_old_saves_take_defaults():
    for bad, words in (({"players": 5}, "3, 4, 6"), ({"vigilance": "owl"}, "blind"), ({"partner": "oracle"}, "shown every hand"),
                       ({"preset": "x"}, "vendee"), ({"lies": "yes"}, "true or false"), ({"convention": "z"}, "classic")):
        with pytest.raises(TableSetupError, match=words):
            TableSettings(**bad)
    old = {"preset": "pagat", "convention": "classic", "partner": "search", "opponents": "heuristic", "seed": 3}
    assert TableSettings.from_json(old) == TableSettings(preset="pagat", partner="search")
    assert TableSettings.from_json(TableSettings(players=6, lies=True).to_json()) == TableSettings(players=6, lies=True)
