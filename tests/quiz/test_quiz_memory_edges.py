"""Progress and Session at their edges: the forecast against FSRS's own definition of stability, the
summary's counts of every FSRS state and its 24-hour boundary, forgetting an item another tab
answered, what a session records for each kind of response, and which items and convention it
asks. Each test was written against a mutant of trainer/quiz/memory.py that the suite let pass
(docs/mutation.md)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from pathlib import Path

import fsrs
import pytest

from trainer.quiz import Kind, Progress, Session, make_question
from trainer.quiz.memory import DOC_KIND
from trainer.signals.conventions import CLASSIC, Convention
from trainer.signals.signs import Sign
from trainer.storage import Store

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=timezone.utc)


@pytest.fixture()
def store(tmp_path: Path):
    with Store.open(tmp_path / "q.sqlite3") as s:
        yield s


def answer(progress: Progress, item: str, correct: bool, now: datetime, seconds: float = 6.0):
    return progress.review(make_question(item, random.Random(0)), correct, seconds=seconds, now=now)


def _in_review(progress: Progress, item: str) -> datetime:
    """Answer ``item`` until FSRS has it in the review state; returns the time of the last answer."""
    now = T0
    for _ in range(6):
        answer(progress, item, True, now, seconds=1.0)
        if progress.status(item, now).state == "review":
            return now
        now = progress.card(item).due
    raise AssertionError(f"{item} never reached the review state")


def test_the_forecast_is_ninety_percent_after_one_stability_and_matches_fsrs_on_whole_days(store):
    """FSRS defines an item's stability as the time in days over which its recall falls to 90 %; and
    fsrs's own retrievability (which floors the elapsed time to whole days) agrees on whole days."""
    progress = Progress(store)
    last = _in_review(progress, "name:3D")
    card = progress.card("name:3D")
    assert card.stability > 1
    at_stability = card.last_review + timedelta(days=card.stability)
    assert progress.retrievability("name:3D", at_stability) == pytest.approx(0.9, abs=1e-9)
    for days in (1, 3, 10, 40):
        when = card.last_review + timedelta(days=days)
        assert progress.retrievability("name:3D", when) == pytest.approx(
            progress.scheduler.get_card_retrievability(card, when), abs=1e-9
        )
    assert progress.retrievability("name:3D", last) == 1.0
    assert progress.retrievability("name:3D", last - timedelta(days=3)) == 1.0  # no time before the answer


def test_a_stored_card_without_stability_forecasts_nothing_instead_of_failing(store):
    progress = Progress(store)
    answer(progress, "name:3D", True, T0)
    doc = store.get(DOC_KIND, "default/name:3D")
    doc["card"]["stability"] = None
    store.put(DOC_KIND, "default/name:3D", doc)
    progress.reload()
    assert progress.card("name:3D").last_review is not None
    assert progress.retrievability("name:3D", T0 + timedelta(days=1)) == 0.0


def test_the_summary_counts_learning_relearning_and_review_items(store):
    progress = Progress(store)
    answer(progress, "name:2C", False, T0)  # learning
    _in_review(progress, "name:3D")  # review
    last = _in_review(progress, "name:9C")
    lapse = progress.card("name:9C").due
    answer(progress, "name:9C", False, lapse)  # a lapse of a reviewed item: relearning
    assert progress.status("name:9C", lapse).state == "relearning"
    summary = progress.summary(lapse, [Kind.NAME])
    assert (summary.learning, summary.review, summary.new) == (2, 1, summary.total - 3)
    assert last < lapse


def test_due_within_24_hours_includes_the_item_due_exactly_a_day_later(store):
    progress = Progress(store)
    _in_review(progress, "name:3D")
    due = progress.card("name:3D").due
    assert progress.summary(due - timedelta(days=1)).due_today == 1
    assert progress.summary(due - timedelta(days=1, seconds=1)).due_today == 0
    assert progress.summary(due - timedelta(days=1.5)).due_today == 0


def test_forgetting_everything_includes_items_another_tab_answered(store):
    mine, other = Progress(store), Progress(store)
    answer(mine, "name:2C", True, T0)
    answer(other, "name:3D", True, T0)  # after `mine` was loaded
    assert mine.reset() == 2
    assert mine.seen() == () and Progress(store).seen() == ()


def test_responses_are_saved_as_plain_text_or_nothing(store):
    progress = Progress(store)
    session = Session(progress, rng=random.Random(1), kinds=[Kind.ORDER])
    question = session.next_question(T0)
    codes = tuple(card.code for card in question.cards)
    session.answer(question, codes, seconds=5.0, now=T0)
    name = Session(progress, rng=random.Random(2), kinds=[Kind.NAME]).next_question(T0)
    Session(progress, rng=random.Random(2), kinds=[Kind.NAME]).answer(name, None, seconds=15.0, now=T0)
    unanswered, ordered = progress.history()[:2]
    assert ordered["response"] == list(codes)
    assert unanswered["response"] is None and unanswered["correct"] is False


def test_a_camera_answer_saves_the_gesture_it_saw(store):
    progress = Progress(store)
    session = Session(progress, rng=random.Random(3), kinds=[Kind.SIGN])
    question = session.next_question(T0)
    gesture = question.expected_gestures[0]
    outcome = session.answer_gesture(question, gesture, seconds=2.0, now=T0)
    assert outcome.correct
    [record] = progress.history()
    assert record["response"] == gesture.value and record["item"] == question.item


def test_practice_ahead_goes_round_the_items_asked_longest_ago(store):
    progress = Progress(store)
    for item in ("name:2C", "name:3D", "name:9C"):
        _in_review(progress, item)
    session = Session(progress, rng=random.Random(0), kinds=[Kind.NAME], new_limit=0)
    now = T0 + timedelta(hours=1)  # nothing due yet: every question is practice ahead
    assert progress.due(now, [Kind.NAME]) == []
    asked = []
    for _ in range(4):
        question = session.next_question(now)
        asked.append(question.item)
        session.answer(question, question.answer[0], seconds=2.0, now=now)
    assert sorted(asked[:3]) == ["name:2C", "name:3D", "name:9C"]
    assert asked[3] == asked[0]


def test_a_session_of_some_kinds_never_asks_a_due_item_of_another_kind(store):
    progress = Progress(store)
    answer(progress, "name:3D", False, T0)  # due again in a minute
    later = T0 + timedelta(minutes=5)
    assert progress.due(later) == ["name:3D"]
    session = Session(progress, rng=random.Random(0), kinds=[Kind.SIGN], new_limit=0, ahead=False)
    assert session.next_question(later) is None


@pytest.mark.parametrize("name", ["regional", "camera_friendly"])
def test_a_session_asks_in_its_convention(store, name):
    convention = Convention.named(name)
    assert any(convention.gestures_for(s)[:1] != CLASSIC.gestures_for(s)[:1]
               for s in Sign if convention.gestures_for(s))
    session = Session(Progress(store), rng=random.Random(0), kinds=[Kind.SIGN], convention=convention)
    for _ in range(len([s for s in Sign if convention.gestures_for(s)])):
        question = session.next_question(T0)
        sign = Sign(question.item.split(":", 1)[1])
        assert question.convention == name
        assert question.answer == (convention.gestures_for(sign)[0].value,)
        session.answer(question, question.answer[0], seconds=2.0, now=T0)


def test_reading_time_allowance_at_its_limits():
    """Four things to read (a card and its choices) need no extra time; each one more adds 1.5 s; an
    ordering question adds 2.5 s per card on top; with no question there is no allowance."""
    from dataclasses import replace

    from trainer.quiz.memory import RatingPolicy

    policy = RatingPolicy()  # Easy within 4 s, Good within 12 s, as RatingPolicy documents
    assert policy.rate(True, 4.0, None) is fsrs.Rating.Easy
    assert policy.rate(True, 4.1, None) is fsrs.Rating.Good
    assert policy.rate(True, 12.1, None) is fsrs.Rating.Hard
    six = make_question("sign:monsieur_et_madame", random.Random(0))  # two cards, four choices
    assert (len(six.cards), len(six.choices)) == (2, 4)
    assert policy.rate(True, 5.5, six) is fsrs.Rating.Easy and policy.rate(True, 5.6, six) is fsrs.Rating.Good
    five = replace(six, cards=six.cards[:1])
    assert policy.rate(True, 4.0, five) is fsrs.Rating.Easy and policy.rate(True, 4.1, five) is fsrs.Rating.Good
    order = make_question("order:strong", random.Random(0))
    six_cards = replace(order, cards=order.cards + order.cards[:2])  # more to read than the limit of five
    allowance = 1.5 * (6 - 5) + 2.5 * 6
    assert policy.rate(True, 4.0 + allowance, six_cards) is fsrs.Rating.Easy
    assert policy.rate(True, 4.1 + allowance, six_cards) is fsrs.Rating.Good


@pytest.mark.parametrize("seconds", [-0.5, "5", None])
def test_a_response_time_that_is_not_a_duration_is_refused_and_nothing_is_saved(store, seconds):
    from trainer.quiz import QuizError

    progress = Progress(store)
    with pytest.raises(QuizError, match=r"response time .* must be a non-negative number of seconds"):
        progress.review(make_question("name:3D", random.Random(0)), True, seconds=seconds, now=T0)
    assert progress.history() == [] and store.keys(DOC_KIND) == []


def test_a_first_sitting_starts_with_the_first_item_in_teaching_order(store):
    from trainer.quiz.questions import curriculum

    for kinds in ([Kind.NAME], [Kind.SIGN], None):
        session = Session(Progress(store), rng=random.Random(0), kinds=kinds)
        assert session.next_question(T0).item == curriculum(kinds)[0]


def test_an_answer_is_rated_with_the_reading_time_of_its_own_question(store):
    """A trick question shows four cards and five choices: 6 s more to read than one card with four
    choices, so 9 s is still a fast (Easy) answer to it."""
    progress = Progress(store)
    trick = make_question("trick:L1", random.Random(0))
    assert (len(trick.cards), len(trick.choices)) == (4, 5)
    assert progress.review(trick, True, seconds=9.0, now=T0).rating is fsrs.Rating.Easy
    assert progress.review(make_question("name:3D", random.Random(0)), True, seconds=9.0, now=T0).rating \
        is fsrs.Rating.Good
    assert progress.review(make_question("name:2C", random.Random(0)), True, seconds=0, now=T0).rating \
        is fsrs.Rating.Easy  # an instant answer is a duration too


def test_answering_a_damaged_item_says_how_to_reset_it_and_keeps_the_row(store):
    import sqlite3

    from trainer.quiz import QuizError

    progress = Progress(store)
    answer(progress, "name:3D", True, T0)
    raw = sqlite3.connect(store.path)
    raw.execute("UPDATE documents SET body='{broken' WHERE key='default/name:3D'")
    raw.commit()
    raw.close()
    with pytest.raises(QuizError) as raised:
        answer(progress, "name:3D", True, T0 + timedelta(days=1))
    message = str(raised.value)
    assert "is not valid JSON" in message  # the cause, from the store
    assert "aluette quiz --profile default --reset-item name:3D" in message
    from trainer.storage import DamagedEntryError

    with pytest.raises(DamagedEntryError):
        store.get(DOC_KIND, "default/name:3D")  # still the damaged row: nothing was written over it
    assert len(progress.history()) == 1


def test_an_item_forgotten_in_another_tab_starts_again_from_new(store):
    mine = Progress(store)
    answer(mine, "name:3D", True, T0)
    Progress(store).reset(["name:3D"])  # another tab forgets it after `mine` was loaded
    review = answer(mine, "name:3D", False, T0 + timedelta(days=1))
    doc = store.get(DOC_KIND, "default/name:3D")
    assert (doc["reviews"], doc["lapses"]) == (1, 1)
    assert mine.status("name:3D", T0 + timedelta(days=1)).reviews == 1
    assert review.ahead is False


def test_an_items_card_id_is_the_same_in_every_database(tmp_path: Path):
    ids = []
    for name in ("a", "b"):
        with Store.open(tmp_path / f"{name}.sqlite3") as store:
            answer(Progress(store), "name:3D", True, T0)
            answer(Progress(store), "name:2C", True, T0)
            ids.append((store.get(DOC_KIND, "default/name:3D")["card"]["card_id"],
                        store.get(DOC_KIND, "default/name:2C")["card"]["card_id"]))
    assert ids[0] == ids[1] and ids[0][0] != ids[0][1]


def test_each_answer_is_logged_whole_and_the_item_row_carries_its_time(store):
    import sqlite3

    progress = Progress(store)
    question = make_question("name:3D", random.Random(0))
    review = progress.review(question, False, seconds=2.34567, now=T0, response=3)
    [record] = progress.history()
    assert record == {
        "profile": "default", "item": "name:3D", "kind": "name", "correct": False, "rating": "Again",
        "seconds": 2.346, "response": "3", "answer": list(question.answer), "due": review.due.isoformat(),
        "ahead": False, "time": T0.timestamp(),
    }
    raw = sqlite3.connect(store.path)
    [(updated,)] = raw.execute("SELECT updated FROM documents WHERE key='default/name:3D'").fetchall()
    raw.close()
    assert updated == T0.timestamp()


def test_rating_limits_are_inclusive():
    from trainer.quiz.memory import RatingPolicy

    policy = RatingPolicy()
    assert policy.rate(True, 4.0, None) is fsrs.Rating.Easy
    assert policy.rate(True, 12.0, None) is fsrs.Rating.Good
    assert policy.rate(True, 12.0001, None) is fsrs.Rating.Hard


@pytest.mark.parametrize("bad", [True, -3, "5", 2.5, None])
def test_a_stored_counter_that_is_not_a_count_reads_as_zero(store, bad):
    progress = Progress(store)
    answer(progress, "name:3D", True, T0)
    doc = store.get(DOC_KIND, "default/name:3D")
    doc["reviews"] = doc["lapses"] = bad
    store.put(DOC_KIND, "default/name:3D", doc)
    progress.reload()
    status = progress.status("name:3D", T0)
    assert (status.reviews, status.lapses) == (0, 0)
    answer(progress, "name:3D", False, T0 + timedelta(days=1))
    assert (progress.status("name:3D", T0).reviews, progress.status("name:3D", T0).lapses) == (1, 1)


@pytest.mark.parametrize(
    ("stored", "reason"),
    [([1, 2], "not an object"), ({"reviews": 1}, "'card'"), ("{broken", "is not valid JSON")],
)
def test_a_damaged_item_names_itself_and_the_way_out_and_the_others_stay_usable(store, stored, reason):
    import sqlite3

    from trainer.quiz import QuizError

    progress = Progress(store, "ann")
    answer(progress, "name:2C", True, T0)
    if stored == "{broken":
        store.put(DOC_KIND, "ann/name:3D", {})
        raw = sqlite3.connect(store.path)
        raw.execute("UPDATE documents SET body='{broken' WHERE key='ann/name:3D'")
        raw.commit()
        raw.close()
    else:
        store.put(DOC_KIND, "ann/name:3D", stored)
    progress = Progress(store, "ann")  # loads although one row is damaged
    assert progress.seen() == ("name:3D", "name:2C")
    with pytest.raises(QuizError) as raised:
        progress.card("name:3D")
    message = str(raised.value)
    assert message.startswith(f"the saved memory of 'name:3D' in {store.path} is damaged (")
    assert reason in message
    assert message.endswith("); forget that item with 'aluette quiz --profile ann --reset-item name:3D' "
                            "(the other items are kept)")
    assert progress.status("name:2C", T0).reviews == 1


def test_a_profile_reads_only_its_own_known_items(store):
    import sqlite3

    answer(Progress(store, "bob"), "name:3D", True, T0)
    store.put(DOC_KIND, "ann/name:ZZ", {"card": {}, "reviews": 1})  # not a quiz item (an old version's?)
    store.put(DOC_KIND, "bob/name:2C", {})
    raw = sqlite3.connect(store.path)
    raw.execute("UPDATE documents SET body='{broken' WHERE key='bob/name:2C'")  # bob's damage is bob's
    raw.commit()
    raw.close()
    ann = Progress(store, "ann")
    assert ann.seen() == () and ann.card("name:3D") is None and ann.card("name:2C") is None
    assert Progress(store, "bob").seen() == ("name:3D", "name:2C")


def test_the_schedule_has_no_random_fuzz(tmp_path: Path):
    """The same answers at the same times give the same schedule (the scheduler's fuzz is off)."""
    dues = []
    for name in ("a", "b", "c"):
        with Store.open(tmp_path / f"{name}.sqlite3") as store:
            progress = Progress(store)
            now = T0
            for _ in range(8):
                answer(progress, "name:3D", True, now, seconds=1.0)
                now = progress.card("name:3D").due
            dues.append(now)
    assert dues[0] == dues[1] == dues[2]
    assert dues[0] - T0 > timedelta(days=30)  # far enough for fuzz to have moved it


def test_times_are_stored_in_utc_whatever_the_machines_zone(store, monkeypatch):
    import time

    monkeypatch.setenv("TZ", "America/New_York")
    time.tzset()
    try:
        progress = Progress(store)
        paris = timezone(timedelta(hours=1))
        review = answer(progress, "name:3D", True, T0.astimezone(paris))
        [record] = progress.history()
        assert record["due"].endswith("+00:00") and review.due.utcoffset() == timedelta(0)
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def test_ordering_answers_take_numbers_or_codes_with_any_separator_and_say_what_is_wrong():
    from trainer.quiz import QuizError

    question = make_question("order:strong", random.Random(0))
    codes = [card.code for card in question.cards]
    assert question.parse("1,2,3,4") == question.parse("1 > 2 > 3 > 4") == question.parse("1>2>3>4") == tuple(codes)
    assert question.parse(",".join(reversed(codes))) == tuple(reversed(codes))
    for typed, message in (
        ("1 2 3", "give each of the numbers 1 to 4 once, strongest card first"),
        ("1 1 2 3", "give each of the numbers 1 to 4 once, strongest card first"),
        ("big small", "'big small': give the 4 card codes (e.g. 3D 2C) or their numbers, strongest first"),
        (" ".join(codes[:3]), "give exactly the 4 cards shown, each once, strongest first"),
    ):
        with pytest.raises(QuizError) as raised:
            question.parse(typed)
        assert str(raised.value) == message
