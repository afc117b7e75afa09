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
    for bad, words in (({"players": 5}, "3, 4, 6"), ({"vigilance": "owl"}, "blind"),
                       ({"partner": "oracle"}, "shown every hand"), ({"preset": "x"}, "vendee"),
                       ({"lies": "yes"}, "true or false"), ({"convention": "z"}, "classic")):
        with pytest.raises(TableSetupError, match=words):
            TableSettings(**bad)
    old = {"preset": "pagat", "convention": "classic", "partner": "search", "opponents": "heuristic", "seed": 3}
    # A save from before the "seen!" limit replays without one (its inputs may hold more calls).
    assert TableSettings.from_json(old) == TableSettings(preset="pagat", partner="search", calls=None)
    assert TableSettings().calls == 3
    with pytest.raises(TableSetupError, match="whole number from 1 to 20"):
        TableSettings(calls=0)
    assert TableSettings.from_json(TableSettings(players=6, lies=True).to_json()) == TableSettings(players=6, lies=True)


def test_at_six_the_partner_facing_reads_the_persons_sign_and_the_coach_follows_it():
    """Seat 3 is the partner at six: it sees the person's sign, and the session records what it
    believed when it played (the coach's source), as seat 2 does at four."""
    from trainer.signals.table import honest_signals
    from trainer.ui.game_session import GameSession

    for seed in range(50):
        session = GameSession.begin(TableSettings(players=6, partner="heuristic", opponents="simple"), seed)
        honest = [s for s in honest_signals(session.table.game.hand(0)) if s.sign.cards]
        if honest:
            break
    event = session.sign(session.table.made(honest[0]))
    assert 3 in event.seen_by and event.seen_by[:1] == (0,)
    before = len(session.moves)  # the partner may have played already, before the sign
    while not any(m.seat == 3 for m in session.moves[before:]):
        view = session.table.view(0)
        if session.paused:
            session.next()
        else:
            session.act(view.legal_actions[-1])  # the weakest: the signed card stays in hand
    move = next(m for m in session.moves[before:] if m.seat == 3)
    assert move.belief is not None and (move.belief.required or move.belief.aces)


def test_at_three_the_bots_make_no_sign():
    """Nobody has a partner at three (RULES.md): a bot's sign would only tell its opponents. The
    same bots sign at four."""
    from trainer.bots.table import Table

    for players, signs in ((Players.THREE, False), (Players.FOUR, True)):
        table = Table.create(["heuristic"] * players.value, ruleset=Ruleset.preset("vendee", players=players), seed=1)
        table.play_out()
        assert table.game.is_over and bool(table.history) is signs
