"""Being watched: the opponents' look schedules and the catch model (trainer.signals.watching).

The schedules are seeded; the figures below are measured over many seeds and moments, and compared
with the closed forms the module's docstring derives (an open sign is caught with the vigilance's
chance, a discreet one with hold / mean away spell)."""

from __future__ import annotations

import math
import random

import pytest

from trainer.rules.cards import Card
from trainer.signals.signs import Sign, Signal
from trainer.signals.table import SignalError, SignLog, Vigilance
from trainer.signals.watching import SIGN_HOLD_S, Gaze, Watch


def _sample(level: float, seeds: int = 120, moments: int = 50):
    """Over random moments of many seeded games: (open catches, discreet catches among the moments
    when opponent 1 looked away, share of moments opponent 1 looked) for signer 0."""
    vigilance = Vigilance(level)
    rng = random.Random(level)
    n = opened = away = away_caught = looked = 0
    for seed in range(seeds):
        watch = Watch(f"test-{seed}", vigilance, 4)
        for _ in range(moments):
            t = rng.uniform(0.0, 550.0)
            n += 1
            caught = 1 in watch.catchers(0, t)
            opened += caught
            if watch.looking(1, 0, t):
                looked += 1
            else:
                away += 1
                away_caught += caught
    return opened / n, away_caught / max(1, away), looked / n


@pytest.mark.parametrize("level", [0.1, 0.25, 0.5, 0.9])
def test_an_open_sign_is_caught_with_the_vigilance_chance(level):
    # 6,000 moments: the standard error of a share near 0.5 is 0.0065, so 0.03 is more than 4 of them.
    opened, discreet, looked = _sample(level)
    gaze = Gaze.for_vigilance(Vigilance(level))
    assert opened == pytest.approx(level, abs=0.03)
    assert discreet == pytest.approx(gaze.discreet_chance(), abs=0.035)
    assert looked == pytest.approx(gaze.looking_share, abs=0.03)
    # Made while the opponent looks away, a sign is caught less than an open one.
    assert discreet < opened


def test_a_blind_table_never_looks_and_a_hawk_looks_most_of_the_time():
    blind = Watch("b", Vigilance(0.0), 4)
    assert blind.looks(1, 0, 3000.0) == ()
    assert blind.catchers(0, 10.0) == () and blind.is_clear(0, 10.0)
    assert blind.next_clear(0, 5.0, 1.0) == 5.0
    hawk = Gaze.for_vigilance(Vigilance.named("hawk"))
    casual = Gaze.for_vigilance(Vigilance.named("casual"))
    assert hawk.looking_share > 0.4 > 0.1 > casual.looking_share


def test_schedules_are_seeded_and_spells_are_ordered_and_long_enough():
    watch = Watch("42", Vigilance(0.5), 4)
    spells = watch.looks(1, 0, 1000.0)
    assert spells == Watch("42", Vigilance(0.5), 4).looks(1, 0, 1000.0)
    assert spells != Watch("43", Vigilance(0.5), 4).looks(1, 0, 1000.0)
    assert spells != watch.looks(3, 0, 1000.0), "each opponent has its own eyes"
    assert spells[-1][1] >= 1000.0
    gaze = watch.gaze
    for (a, b), (c, _) in zip(spells, spells[1:], strict=False):
        assert b - a >= gaze.look_min_s - 1e-9 or a == 0.0  # the first may be a spell under way
        assert c - b >= gaze.hold_s - 1e-9, "an away spell lasts at least one hold"
    # A longer horizon extends the schedule without changing its start.
    assert watch.looks(1, 0, 2500.0)[: len(spells) - 1] == spells[:-1]


def test_catchers_are_those_who_look_during_the_hold():
    watch = Watch("7", Vigilance(0.5), 4)
    for watcher in watch.watchers(0):
        start, end = watch.looks(watcher, 0, 400.0)[5]
        # Looking as the sign begins; turning to look just before it ends; turned away just before.
        assert watcher in watch.catchers(0, start + 0.01)
        assert watcher in watch.catchers(0, start - SIGN_HOLD_S + 0.01)
        assert watcher not in watch.catchers(0, start - SIGN_HOLD_S - 0.01) or \
            watch.looking(watcher, 0, start - SIGN_HOLD_S - 0.01)
        assert watcher in watch.looking_at(0, (start + end) / 2)
    assert watch.watchers(0) == (1, 3) and watch.watchers(1) == (0, 2)
    assert Watch("7", Vigilance(0.5), 3).watchers(0) == (1, 2)
    assert Watch("7", Vigilance(0.5), 6).watchers(0) == (1, 2, 4, 5)


def test_next_clear_is_the_first_moment_nobody_looks():
    watch = Watch("9", Vigilance(0.9), 4)
    found = 0
    for k in range(200):
        t = 7.3 * k
        moment = watch.next_clear(0, t, 4.0)
        if moment is None:
            # Someone looked at every moment of the window.
            assert all(watch.looking_at(0, t + x / 10) for x in range(41))
            continue
        found += 1
        assert t <= moment <= t + 4.0 and watch.is_clear(0, moment)
        assert all(watch.looking_at(0, x) for x in _steps(t, moment)), "no earlier clear moment"
    assert 20 < found < 200


def _steps(start: float, end: float, step: float = 0.05):
    t = start
    while t < end - 1e-6:
        yield t
        t += step


def test_clear_spells_and_looks_cover_the_window():
    watch = Watch("3", Vigilance(0.25), 4)
    clear = watch.clear_spells(0, 100.0, 160.0)
    assert clear and all(100.0 <= a < b <= 160.0 for a, b in clear)
    for a, b in clear:
        assert watch.is_clear(0, (a + b) / 2)
    looked = 60.0 - sum(b - a for a, b in clear)
    assert 0.0 < looked < 60.0


def test_a_timed_sign_in_the_log_is_caught_by_the_eyes_and_discreet_when_nobody_looked():
    watch = Watch("5", Vigilance(0.5), 4)
    log = SignLog(players=4, vigilance=Vigilance(0.5), watch=watch)
    rng = random.Random(0)
    seen_discreet = seen_open = 0
    for k in range(60):
        t = 11.0 * k + 0.37
        event = log.make(0, log.convention.made(Signal(Sign.MONSIEUR)), hand=(Card.MONSIEUR,), rng=rng, at=t,
                         discreet=False)
        assert event.at == t
        assert event.caught_by == watch.catchers(0, t)
        assert event.discreet == watch.is_clear(0, t)
        seen_discreet += event.discreet
        seen_open += not event.discreet
        assert set(event.seen_by) == {0, 2, *event.caught_by}
    assert seen_discreet and seen_open


def test_a_seat_that_catches_by_eye_is_never_rolled_for():
    log = SignLog(players=4, vigilance=Vigilance(1.0), by_eye=frozenset({0}))
    event = log.make(1, log.convention.made(Signal(Sign.MADAME)), hand=(Card.MADAME,), rng=random.Random(1))
    assert event.caught_by == (2,)
    caught = event.caught_also_by(0)
    assert caught.caught_by == (0, 2) and 0 in caught.seen_by


def test_untimed_signs_keep_the_vigilance_draws():
    # No time, no watch: the old catch draws, seeded.
    log = SignLog(players=4, vigilance=Vigilance(0.5))
    caught = [len(log.make(0, log.convention.made(Signal(Sign.MONSIEUR)), hand=(Card.MONSIEUR,),
                           rng=random.Random(i)).caught_by)
              for i in range(400)]
    assert sum(caught) / (2 * len(caught)) == pytest.approx(0.5, abs=0.06)


def test_bad_times_and_gazes_are_refused_with_the_way_out():
    watch = Watch("1", Vigilance(0.5), 4)
    with pytest.raises(SignalError, match="from 0 seconds"):
        watch.looks(1, 0, -1.0)
    with pytest.raises(SignalError, match="not at this table"):
        watch.watchers(4)
    with pytest.raises(SignalError, match="at least a sign's hold"):
        Gaze(look_s=1.0, away_s=0.5, hold_s=1.0)
    assert math.isinf(Gaze.for_vigilance(Vigilance(0.0)).away_s)
