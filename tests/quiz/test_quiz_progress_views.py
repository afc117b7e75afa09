"""What Progress and Session report (mutmut survivors in trainer/quiz/memory.py, docs/mutation.md):
the status of new and seen items, the due list at its boundary, the summary's counts, the history,
forgetting, and a session's defaults and mixing of new items."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from trainer.quiz import Kind, Progress, QuizError, Session, make_question
from trainer.storage import Store

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=timezone.utc)


@pytest.fixture()
def store(tmp_path: Path):
    with Store.open(tmp_path / "q.sqlite3") as s:
        yield s


def answer(progress: Progress, item: str, correct: bool, now: datetime):
    return progress.review(make_question(item, random.Random(0)), correct, seconds=6.0, now=now)


def test_a_new_item_reads_as_new_with_nothing_learnt(store):
    status = Progress(store).status("name:3D", T0)
    assert (status.item, status.kind, status.state, status.due) == ("name:3D", Kind.NAME, "new", None)
    assert (status.retrievability, status.stability, status.reviews, status.lapses) == (0.0, None, 0, 0)
    assert status.is_new


def test_a_seen_item_reads_its_card(store):
    progress = Progress(store)
    review = answer(progress, "name:3D", True, T0)
    status = progress.status("name:3D", T0)
    assert (status.item, status.kind, status.state, status.due) == ("name:3D", Kind.NAME, "learning", review.due)
    assert status.retrievability == progress.retrievability("name:3D", T0) == 1.0
    assert status.stability == progress.card("name:3D").stability and (status.reviews, status.lapses) == (1, 0)


def test_statuses_list_seen_items_by_due_time_then_new_ones_in_teaching_order(store):
    progress = Progress(store)
    answer(progress, "name:2C", False, T0)  # due in a minute
    answer(progress, "name:3D", True, T0)  # due later
    statuses = progress.statuses(T0, [Kind.NAME])
    assert [s.item for s in statuses[:2]] == ["name:2C", "name:3D"]
    assert all(s.is_new for s in statuses[2:]) and all(s.kind is Kind.NAME for s in statuses)
    assert len(statuses) == len(progress.statuses(T0 + timedelta(days=1), [Kind.NAME])) > 2
    assert {s.kind for s in progress.statuses(T0, [Kind.SIGN])} == {Kind.SIGN}


def test_an_item_is_due_from_its_due_time_on(store):
    progress = Progress(store)
    due = answer(progress, "name:3D", True, T0).due
    assert progress.due(due - timedelta(seconds=1)) == []
    assert progress.due(due) == ["name:3D"]
    assert progress.due(due, [Kind.SIGN]) == []


def test_the_summary_counts(store):
    progress = Progress(store)
    failed = answer(progress, "name:2C", False, T0).due
    answer(progress, "name:3D", True, T0)
    summary = progress.summary(failed, [Kind.NAME])
    names = len(progress.statuses(T0, [Kind.NAME]))
    assert (summary.total, summary.new, summary.learning, summary.review) == (names, names - 2, 2, 0)
    assert (summary.due_now, summary.due_today, summary.next_due) == (1, 2, failed)
    assert summary.mean_retrievability == pytest.approx(
        (progress.retrievability("name:2C", failed) + progress.retrievability("name:3D", failed)) / 2
    )
    empty = Progress(store, "nobody").summary(T0)
    assert (empty.next_due, empty.mean_retrievability, empty.due_now) == (None, None, 0)


def test_history_is_newest_first_with_the_time_and_a_limit(store):
    progress = Progress(store)
    for minutes in range(3):
        answer(progress, "name:3D", True, T0 + timedelta(minutes=minutes))
    history = progress.history()
    assert [h["time"] for h in history] == sorted((h["time"] for h in history), reverse=True) and len(history) == 3
    assert progress.history(limit=2) == history[:2]


def test_forgetting_chosen_items_of_this_profile_only(store):
    alice, bob = Progress(store, "alice"), Progress(store, "bob")
    for item in ("name:3D", "name:2C", "name:2D"):
        answer(alice, item, True, T0)
    answer(bob, "name:3D", True, T0)
    assert alice.reset(["name:2C", "name:2C", "name:9C"]) == 1
    assert set(alice.seen()) == {"name:3D", "name:2D"} and not alice.has_seen("name:2C")
    assert set(Progress(store, "alice").seen()) == {"name:3D", "name:2D"}
    assert alice.reset() == 2 and alice.seen() == () and Progress(store, "alice").seen() == ()
    assert Progress(store, "bob").seen() == ("name:3D",)


def test_session_defaults_and_refusals(store):
    session = Session(Progress(store), rng=random.Random(0))
    assert (session.new_limit, session.ahead, session.asked, session.right, session.new_seen) == (10, True, 0, 0, 0)
    assert Session(Progress(store), rng=random.Random(0), new_limit=0).next_item(T0) is None
    with pytest.raises(QuizError) as error:
        Session(Progress(store), rng=random.Random(0), new_limit=-1)
    assert str(error.value) == "new_limit -1 must be zero or more"


def test_a_session_brings_in_a_new_item_every_third_question_when_items_are_due(store):
    progress = Progress(store)
    session = Session(progress, rng=random.Random(0), kinds=[Kind.NAME], new_limit=20, ahead=False)
    now = T0
    asked = []
    for _ in range(9):
        question = session.next_question(now)
        asked.append((question.item, progress.has_seen(question.item)))
        session.answer(question, "wrong-on-purpose", seconds=3.0, now=now)  # keeps the items due
        now += timedelta(minutes=10)
    new_at = [i for i, (_, seen) in enumerate(asked) if not seen]
    assert new_at[:2] == [0, 1] and all(i % 3 == 2 for i in new_at[2:]) and len(new_at) >= 3
    assert session.asked == 9 and session.right == 0


def test_an_answer_reports_the_verdict_and_saves_the_response_as_text(store):
    import fsrs

    progress = Progress(store)
    session = Session(progress, rng=random.Random(3), kinds=[Kind.NAME], language="en")
    question = session.next_question(T0)
    right = question.answer[0]
    outcome = session.answer(question, right, seconds=2.5, now=T0)
    assert (outcome.item, outcome.correct, outcome.rating, outcome.seconds) == (
        question.item, True, fsrs.Rating.Easy, 2.5)
    assert outcome.answer == question.answer_text("en") and outcome.explanation == question.explanation.show("en")
    assert outcome.due == progress.card(question.item).due
    assert progress.history()[0]["response"] == str(right)
    again = session.next_question(T0)
    assert again.item != question.item  # never the same item twice in a row
    wrong = session.answer(again, "nonsense", seconds=1.0, now=T0)
    assert not wrong.correct and (session.asked, session.right) == (2, 1)
    assert progress.history()[0]["response"] == "nonsense"


def test_practice_ahead_asks_the_item_asked_longest_ago(store):
    progress = Progress(store)
    session = Session(progress, rng=random.Random(1), kinds=[Kind.NAME], new_limit=2, ahead=True)
    asked = []
    for minute in range(6):
        question = session.next_question(T0 + timedelta(minutes=minute))
        asked.append(question.item)
        session.answer(question, question.answer[0], seconds=2.0, now=T0 + timedelta(minutes=minute))
    first, second = asked[:2]
    assert first != second and asked[2:] == [first, second, first, second]
