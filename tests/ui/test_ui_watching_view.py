"""The eyes drawn on the Play page (trainer.ui.watch_view) and the coach's words on a caught sign."""

from __future__ import annotations

import re

import pytest

from trainer.bots.table import Table
from trainer.signals.signs import Sign, Signal
from trainer.signals.table import Vigilance, honest_signals
from trainer.ui import coach, watch_view
from trainer.ui.views.play import SHORT_NAMES


def test_look_keyframes_follow_the_spells_from_the_moment_of_drawing():
    spells = ((5.0, 7.0), (100.0, 101.5), (900.0, 902.0))
    css = watch_view.look_keyframes("k", spells, now=6.0, ahead=100.0)
    stops = re.findall(r"([\d.]+)%\{opacity:(\d)\}", css)
    # Looking already (6 is inside 5..7), away at 7 (1%), looking at 100 (94%), away at 101.5 (95.5%).
    assert stops == [("0", "1"), ("1.0000", "0"), ("94.0000", "1"), ("95.5000", "0"), ("100", "0")]
    away = watch_view.look_keyframes("k", spells, now=50.0, ahead=10.0)
    assert re.findall(r"([\d.]+)%\{opacity:(\d)\}", away) == [("0", "0"), ("100", "0")]


def test_signs_to_show_are_those_not_yet_over():
    table = Table.create(["human", "heuristic", "heuristic", "heuristic"], seed=3, vigilance=Vigilance(0.5), timed=True)
    table.step()
    events = [t.event for t in table.history]
    assert events
    e = events[0]
    hold = table.watch.gaze.hold_s
    assert e in watch_view.to_show(events, now=e.at - 1.0, hold=hold)
    assert e in watch_view.to_show(events, now=e.at + hold - 0.01, hold=hold)
    assert e not in watch_view.to_show(events, now=e.at + hold + 0.01, hold=hold)
    html = watch_view.seat_html(1, base_svg="<svg/>", looking_svg="<svg/>", spells=((0.0, 2.0),), now=1.0,
                                showing=(watch_view.Showing.of(e, "<svg/>", 0.75, hold),), width=84, title="West")
    assert f"data-at='{e.at:.3f}'" in html and "animation-delay:0.750s" in html
    assert f"animation-duration:{hold:.3f}s" in html and "aluette-look" in html


def _person_sign_caught(seed: int):
    table = Table.create(["human", "heuristic", "heuristic", "heuristic"], seed=seed, vigilance=Vigilance(0.5),
                         timed=True)
    table.step()
    honest = honest_signals(table.game.hand(0))
    signal = honest[0] if honest else Signal(Sign.MORDIENNE)
    watch = table.watch
    moment = next(t / 10 for t in range(10, 3000) if watch.looking_at(0, t / 10))
    event = table.submit_sign(0, table.made(signal), at=moment)
    return table, event


def test_the_coach_says_which_sign_was_caught_by_whom_and_when_the_way_was_clear():
    table, event = _person_sign_caught(8)
    assert event.caught_by
    notes = coach.watched_notes(table.history, table.watch, table.game.deal_number)
    note = next(n for n in notes if n.at == event.at)
    assert note.caught_by == event.caught_by and set(note.looking) <= set(event.caught_by) and note.looking
    after = table.watch.clear_spells(0, event.at, event.at + coach.WATCH_WINDOW_S)
    assert note.clear_after == pytest.approx(after[0][0] - event.at)
    assert note.clear_for == pytest.approx(after[0][1] - after[0][0])
    assert table.watch.is_clear(0, event.at + note.clear_after + 0.001)
    text = coach.watched_text(note, SHORT_NAMES, lambda s: s.sign.value)
    assert event.signal.sign.value in text
    assert all(SHORT_NAMES[s] in text for s in event.caught_by)
    assert f"clear again {note.clear_after:.1f} s later" in text
    # Signs nobody caught get no note.
    assert all(n.caught_by for n in notes)
