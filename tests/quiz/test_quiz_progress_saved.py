"""Every path that saves quiz progress survives closing and reopening the database: a first answer,
a right answer ahead of schedule, a wrong one ahead, a lapse when due and the recovery after it, and
two writers (two connections, as two app tabs or processes) answering the same item.

Each test writes through one ``Store``/``Progress``, closes it, and reads through a fresh one, so a
write that only reached the in-memory copy fails here.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from pathlib import Path

import fsrs

from trainer.quiz import Progress, make_question
from trainer.storage import Store

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=timezone.utc)
ITEM = "name:3D"


def answer(path: Path, correct: bool, now: datetime, item: str = ITEM, profile: str = "default"):
    """One answer through its own connection, closed afterwards; returns the Review."""
    with Store.open(path) as store:
        return Progress(store, profile).review(make_question(item, random.Random(0)), correct, seconds=6.0, now=now)


def reopened(path: Path, item: str = ITEM, profile: str = "default", now: datetime = T0):
    with Store.open(path) as store:
        progress = Progress(store, profile)
        return progress.status(item, now), progress.card(item), progress.history()


def test_a_first_answer_is_saved(tmp_path: Path):
    path = tmp_path / "q.sqlite3"
    review = answer(path, True, T0)
    status, card, history = reopened(path)
    assert status.reviews == 1 and status.lapses == 0 and status.state != "new"
    assert card.due == review.due > T0
    assert [(h["item"], h["correct"], h["ahead"]) for h in history] == [(ITEM, True, False)]


def test_right_answers_ahead_of_schedule_are_saved_without_moving_the_card(tmp_path: Path):
    path = tmp_path / "q.sqlite3"
    first = answer(path, True, T0)
    ahead = [answer(path, True, T0 + timedelta(minutes=m)) for m in (2, 4)]
    assert all(r.ahead and r.due == first.due for r in ahead)
    status, card, history = reopened(path)
    assert status.reviews == 3 and status.lapses == 0
    assert card.due == first.due  # practice ahead leaves the schedule alone...
    assert [h["ahead"] for h in history] == [True, True, False]  # ...but every answer is kept


def test_a_wrong_answer_ahead_of_schedule_is_a_saved_lapse(tmp_path: Path):
    path = tmp_path / "q.sqlite3"
    first = answer(path, True, T0)
    wrong = answer(path, False, T0 + timedelta(minutes=3))
    assert wrong.ahead and wrong.due < first.due
    status, card, _ = reopened(path)
    assert status.reviews == 2 and status.lapses == 1
    assert card.due == wrong.due


def test_a_lapse_when_due_and_the_recovery_after_it_are_saved(tmp_path: Path):
    path = tmp_path / "q.sqlite3"
    now = T0
    for _ in range(4):  # learn it into the Review state, answering each time it falls due
        now = answer(path, True, now).due
    _, learnt, _ = reopened(path)
    assert learnt.state is fsrs.State.Review
    lapse = answer(path, False, learnt.due)
    assert not lapse.ahead
    status, card, _ = reopened(path, now=learnt.due)
    assert status.reviews == 5 and status.lapses == 1
    assert card.state is fsrs.State.Relearning and card.due == lapse.due < learnt.due + timedelta(hours=1)
    recovered = answer(path, True, card.due)
    status, card, history = reopened(path, now=card.due)
    assert status.reviews == 6 and status.lapses == 1
    assert card.due == recovered.due and card.state is fsrs.State.Review
    assert [h["correct"] for h in history][:2] == [True, False]


def test_two_writers_on_the_same_item_keep_both_answers(tmp_path: Path):
    """Two connections open at once, each with the memory it read at the start (two app tabs):
    every answer of either counts after reopening."""
    path = tmp_path / "q.sqlite3"
    answer(path, True, T0)
    with Store.open(path) as one, Store.open(path) as two:
        tab_one, tab_two = Progress(one), Progress(two)
        question = make_question(ITEM, random.Random(0))
        later = T0 + timedelta(days=30)  # due for both
        tab_one.review(question, False, seconds=6.0, now=later)
        tab_two.review(question, True, seconds=6.0, now=later + timedelta(minutes=1))
        tab_one.review(question, True, seconds=6.0, now=later + timedelta(minutes=2))
    status, _, history = reopened(path, now=later)
    assert len(history) == 4
    assert status.reviews == 4 and status.lapses == 1


def test_two_writers_on_different_items_and_profiles_keep_everything(tmp_path: Path):
    path = tmp_path / "q.sqlite3"
    with Store.open(path) as one, Store.open(path) as two:
        alice, bob = Progress(one, "alice"), Progress(two, "bob")
        alice_too = Progress(two, "alice")
        alice.review(make_question("name:3D", random.Random(0)), True, seconds=3.0, now=T0)
        bob.review(make_question("name:3D", random.Random(0)), False, seconds=3.0, now=T0)
        alice_too.review(make_question("name:2C", random.Random(0)), True, seconds=3.0, now=T0)
    with Store.open(path) as store:
        assert set(Progress(store, "alice").seen()) == {"name:3D", "name:2C"}
        assert Progress(store, "bob").status("name:3D", T0).lapses == 1
        assert Progress(store, "alice").status("name:3D", T0).lapses == 0
