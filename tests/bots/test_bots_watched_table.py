"""A timed table: signs have moments, the opponents' eyes catch them, timed bots wait for a clear way,
and a person catches opponents' signs only by saying "seen!" while they show."""

from __future__ import annotations

import pytest

from trainer.bots.base import BotError, make_bot
from trainer.bots.table import POINT_GAP_S, SIGN_WINDOW_S, Table
from trainer.rules.cards import Card
from trainer.signals.signs import Sign, Signal
from trainer.signals.table import SignalError, Vigilance, honest_signals


def _bots_table(seed: int, *, discreet: bool, level: float = 0.5) -> Table:
    bots = [make_bot("heuristic", discreet=discreet) for _ in range(4)]
    return Table(bots, seed=seed, vigilance=Vigilance(level), timed=True)


def test_bot_signs_at_a_timed_table_are_caught_by_who_looks_during_the_hold():
    made = 0
    for seed in range(12):
        table = _bots_table(seed, discreet=False)
        table.step(max_actions=30)
        for t in table.history:
            e = t.event
            made += 1
            assert e.at is not None
            assert e.caught_by == table.watch.catchers(e.seat, e.at)
            assert e.discreet == table.watch.is_clear(e.seat, e.at)
    assert made > 20


def test_a_timed_bot_signs_only_when_no_opponent_looks_and_is_caught_less():
    shares = {}
    for discreet in (False, True):
        caught = made = 0
        for seed in range(40):
            table = _bots_table(seed, discreet=discreet, level=0.6)
            table.step(max_actions=30)
            ends: dict[int, float] = {}
            for t in table.history:
                e = t.event
                assert e.at >= ends.get(e.seat, 0.0), "a bot makes one sign at a time"
                ends[e.seat] = e.at + table.watch.gaze.hold_s
                if discreet:
                    assert e.discreet and table.watch.is_clear(e.seat, e.at)
                made += 2
                caught += len(e.caught_by)
        shares[discreet] = caught / made
    # Open signs: about the vigilance; timed ones: hold / mean away spell (0.5 at 0.6).
    assert shares[False] == pytest.approx(0.6, abs=0.1)
    assert shares[True] < shares[False] * 0.8


def test_a_bots_table_moves_its_clock_by_sign_point_and_bots_sign_in_the_window():
    table = _bots_table(3, discreet=False)
    table.step(max_actions=10)
    assert table.now_s > 0 and table.now_s % POINT_GAP_S == 0
    first: dict[tuple[int, int], float] = {}
    for t in table.history:
        point = int(t.event.at // POINT_GAP_S)
        first.setdefault((point, t.event.seat), t.event.at)
    assert len(first) >= 4
    for (point, _), at in first.items():
        # An open bot's first sign of a sign point falls in the window after it.
        assert 0.0 <= at - point * POINT_GAP_S <= SIGN_WINDOW_S


def test_a_timed_table_replays_exactly():
    a, b = _bots_table(11, discreet=True), _bots_table(11, discreet=True)
    a.play_out(), b.play_out()
    assert [t.event for t in a.history] == [t.event for t in b.history]
    assert a.game.outcome == b.game.outcome


def _person_table(seed: int = 5, level: float = 0.5) -> Table:
    return Table.create(["human", "heuristic", "heuristic", "heuristic"], seed=seed,
                        vigilance=Vigilance(level), timed=True)


def test_a_persons_sign_is_timed_from_its_own_moment():
    table = _person_table()
    table.step()
    honest = honest_signals(table.game.hand(0))
    signal = table.made(honest[0] if honest else Signal(Sign.MORDIENNE))
    watch = table.watch
    # A moment when an opponent looks, and one when nobody does: the eyes decide, not a flag.
    looked = next(t / 4 for t in range(4, 4000) if watch.looking_at(0, t / 4))
    clear = next(t / 4 for t in range(4, 4000) if watch.is_clear(0, t / 4) and not watch.catchers(0, t / 4))
    e1 = table.submit_sign(0, signal, at=looked, discreet=True)
    assert not e1.discreet and e1.caught_by and e1.caught_by == watch.catchers(0, looked)
    e2 = table.submit_sign(0, signal, at=clear)
    assert e2.discreet and e2.caught_by == ()
    # Without a moment, the table's clock is used.
    table.set_time(clear)
    assert table.submit_sign(0, signal).at == clear
    with pytest.raises(SignalError, match="seconds from 0"):
        table.set_time(-2)


def test_a_person_catches_an_opponents_sign_only_by_eye_while_it_shows():
    caught_any = missed_late = 0
    for seed in range(30):
        table = _person_table(seed, level=1.0)
        table.step()
        theirs = [t.event for t in table.history if t.event.seat in (1, 3)]
        for e in theirs:
            assert 0 not in e.caught_by, "the person's catches are never rolled"
        if not theirs:
            continue
        seat = theirs[0].seat
        mine = sorted((e for e in theirs if e.seat == seat), key=lambda e: e.at)
        first, e = mine[0], mine[-1]
        hold = table.watch.gaze.hold_s
        assert table.catch_by_eye(0, seat, e.at + hold + 0.05) is None  # too late
        missed_late += 1
        if first.at > 0.05:
            assert table.catch_by_eye(0, seat, first.at - 0.05) is None  # too early
        got = table.catch_by_eye(0, seat, e.at + hold / 2)
        assert got is not None and 0 in got.caught_by and got.index == e.index
        assert any(t.event.index == e.index and 0 in t.event.seen_by for t in table.visible_signs(0))
        assert table.catch_by_eye(0, seat, e.at + hold / 2) is None, "a sign is caught once"
        caught_any += 1
    assert caught_any > 5 and missed_late == caught_any


def test_catch_by_eye_refuses_what_is_not_a_persons_watch():
    table = _person_table()
    table.step()
    with pytest.raises(BotError, match="partner"):
        table.catch_by_eye(0, 2, 1.0)
    with pytest.raises(BotError, match="is a bot"):
        table.catch_by_eye(1, 0, 1.0)
    untimed = Table.create(["human", "heuristic", "heuristic", "heuristic"], seed=1)
    with pytest.raises(BotError, match="timed table"):
        untimed.catch_by_eye(0, 1, 1.0)


def test_an_untimed_table_is_unchanged_by_the_watch():
    # The same seeds give the same signs and catches as before timing existed (no moments).
    table = Table([make_bot("heuristic") for _ in range(4)], seed=4, vigilance=Vigilance(0.5))
    table.step(max_actions=20)
    assert table.history and all(t.event.at is None for t in table.history)
    assert table.watch is None
    assert Card.MONSIEUR.level == 1
