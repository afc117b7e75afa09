"""FSRS scheduling of quiz items: a failed item comes back sooner, a known one later; sessions mix
due and new items; progress survives closing and reopening the database."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from pathlib import Path

import fsrs
import pytest

from trainer.quiz import Kind, Progress, QuizError, RatingPolicy, Session, make_question
from trainer.quiz.memory import DOC_KIND, LOG_KIND
from trainer.signals.conventions import CLASSIC
from trainer.storage import Store

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=timezone.utc)


@pytest.fixture()
def store(tmp_path: Path):
    with Store.open(tmp_path / "quiz.sqlite3") as s:
        yield s


def _right(question):
    return question.answer if question.is_order else question.answer[0]


def _wrong(question):
    if question.is_order:
        return tuple(reversed(question.answer))
    return next(c.key for c in question.choices if c.key != question.answer[0])


def test_rating_from_correctness_and_speed():
    policy = RatingPolicy(easy_seconds=4, hard_seconds=12, seconds_per_extra=1.5)
    one_card = make_question("name:2C", random.Random(0))
    assert policy.rate(False, 1.0, one_card) is fsrs.Rating.Again
    assert policy.rate(True, 2.0, one_card) is fsrs.Rating.Easy
    assert policy.rate(True, 10.0, one_card) is fsrs.Rating.Good
    assert policy.rate(True, 40.0, one_card) is fsrs.Rating.Hard
    four_cards = next(q for q in (make_question("trick:L9", random.Random(s)) for s in range(50)) if len(q.cards) == 4)
    # reading four cards earns more time before an answer counts as slow
    assert policy.rate(True, 13.0, four_cards) is fsrs.Rating.Good
    assert policy.rate(True, 13.0, one_card) is fsrs.Rating.Hard
    order = make_question("order:mixed", random.Random(0))
    assert policy.rate(True, 12.0, order) is fsrs.Rating.Easy


def _learn(progress: Progress, item: str, days: int) -> datetime:
    """Answer ``item`` right (Good speed) each time it falls due, for ``days``; returns the last time."""
    now = T0
    rng = random.Random(1)
    while now < T0 + timedelta(days=days):
        question = make_question(item, rng)
        progress.review(question, True, seconds=8.0, now=now)
        now = max(now, progress.card(item).due)
    return now


def test_a_failed_item_moves_forward_and_a_known_item_back(store: Store):
    progress = Progress(store)
    item = "name:2C"
    now = _learn(progress, item, days=20)
    before = progress.card(item)
    assert before.state is fsrs.State.Review
    interval = before.due - now

    question = make_question(item, random.Random(2))
    progress.review(question, True, seconds=8.0, now=before.due)
    known = progress.card(item)
    assert known.due - before.due > interval, "known item goes further back"

    progress.review(question, False, seconds=3.0, now=known.due)
    failed = progress.card(item)
    assert failed.due - known.due < timedelta(hours=1), "failed item comes back within the hour"
    assert failed.state is fsrs.State.Relearning
    assert progress.status(item, failed.due).lapses == 1


def test_forecast_recall_falls_with_time(store: Store):
    progress = Progress(store)
    _learn(progress, "sign:vache", days=5)
    card = progress.card("sign:vache")
    soon = progress.retrievability("sign:vache", card.last_review + timedelta(hours=1))
    later = progress.retrievability("sign:vache", card.last_review + timedelta(days=30))
    assert 0.0 < later < soon <= 1.0
    assert progress.retrievability("name:3D", T0) == 0.0  # never seen


def test_practising_ahead_does_not_push_an_item_away(store: Store):
    progress = Progress(store)
    question = make_question("name:3D", random.Random(0))
    progress.review(question, True, seconds=2.0, now=T0)
    due = progress.card("name:3D").due
    progress.review(question, True, seconds=2.0, now=T0 + timedelta(minutes=5))
    assert progress.card("name:3D").due == due
    progress.review(question, False, seconds=2.0, now=T0 + timedelta(minutes=6))
    assert progress.card("name:3D").due < due
    assert [r["ahead"] for r in progress.history()] == [True, True, False]


def test_a_session_mixes_due_items_with_a_limited_number_of_new_ones(store: Store):
    progress = Progress(store)
    rng = random.Random(3)
    first = Session(progress, rng=rng, new_limit=6, ahead=False)
    now = T0
    seen = []
    while (question := first.next_question(now)) is not None:
        seen.append(question.item)
        first.answer(question, _right(question), seconds=3.0, now=now)
        now += timedelta(seconds=20)
    assert first.new_seen == 6 and len(set(seen)) == 6
    # a week later all six are due; the next session asks them and two new items in between
    later = T0 + timedelta(days=30)
    assert len(progress.due(later)) == 6
    second = Session(progress, rng=rng, new_limit=2, ahead=False)
    asked = []
    while (question := second.next_question(later)) is not None:
        asked.append(question.item)
        second.answer(question, _right(question), seconds=3.0, now=later)
        later += timedelta(seconds=20)
    new = [item for item in asked if item not in seen]
    assert len(new) == 2 and set(seen) <= set(asked)
    assert asked.index(new[0]) > 0, "due items come first, new ones mixed in"


def test_a_failed_item_is_asked_again_in_the_same_sitting(store: Store):
    progress = Progress(store)
    session = Session(progress, rng=random.Random(5), new_limit=3, ahead=False)
    now = T0
    question = session.next_question(now)
    failed_item = question.item
    session.answer(question, _wrong(question), seconds=2.0, now=now)
    asked = []
    for _ in range(6):
        now += timedelta(minutes=2)
        question = session.next_question(now)
        if question is None:
            break
        asked.append(question.item)
        session.answer(question, _right(question), seconds=2.0, now=now)
    assert failed_item in asked


def test_kinds_filter_and_camera_answers(store: Store):
    progress = Progress(store)
    session = Session(progress, rng=random.Random(0), kinds=[Kind.SIGN], new_limit=3)
    question = session.next_question(T0)
    assert question.kind is Kind.SIGN
    outcome = session.answer_gesture(question, question.expected_gestures[0], seconds=2.0, now=T0)
    assert outcome.correct
    again = make_question(question.item, random.Random(1))
    wrong = next(g for g in CLASSIC.gestures if g not in again.expected_gestures)
    assert not session.answer_gesture(again, wrong, seconds=2.0, now=T0).correct
    assert [r["correct"] for r in progress.history()] == [False, True]


def test_progress_round_trips_through_the_database(tmp_path: Path):
    path = tmp_path / "progress.sqlite3"
    with Store.open(path) as store:
        progress = Progress(store, "alice")
        session = Session(progress, rng=random.Random(9), new_limit=8)
        now = T0
        for i in range(15):
            question = session.next_question(now)
            response = _right(question) if i % 3 else _wrong(question)
            session.answer(question, response, seconds=5.0, now=now)
            now += timedelta(minutes=3)
        cards = {item: progress.card(item).to_dict() for item in progress.seen()}
        summary = progress.summary(now)
        Progress(store, "bob").review(make_question("name:3D", random.Random(0)), True, seconds=1, now=now)
    with Store.open(path) as store:
        again = Progress(store, "alice")
        assert {item: again.card(item).to_dict() for item in again.seen()} == cards
        assert again.summary(now) == summary
        assert len(again.history()) == 15
        assert sum(not r["correct"] for r in again.history()) == 5
        assert Progress(store, "bob").seen() == ("name:3D",)
        assert store.count(LOG_KIND) == 16
        assert len(store.keys(DOC_KIND)) == len(cards) + 1


def test_times_must_be_aware_and_profiles_plain(store: Store):
    progress = Progress(store)
    with pytest.raises(QuizError, match="aware"):
        progress.due(datetime(2026, 1, 1))
    with pytest.raises(QuizError, match="profile"):
        Progress(store, "a/b")
