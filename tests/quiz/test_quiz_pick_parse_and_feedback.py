""""Which card is …" offers four plain-named cards, two of them look-alikes of the same value; typed
answers get exact messages when they cannot be read and match a choice by its own words; the
feedback of an ordering question; a fresh sitting starts with the first item of the curriculum; a
saved row that is not an object is reported as such. Written against the survivors of the
2026-12-01 quiz run that the tests added since did not kill (rechecked 2026-12-02, docs/mutation.md)."""

from __future__ import annotations

import random
from datetime import datetime, timezone

import pytest

from trainer.quiz import Kind, QuizError, make_question
from trainer.quiz.memory import DOC_KIND, Progress, Session
from trainer.quiz.questions import POURRI, curriculum
from trainer.quiz.texts import card_text
from trainer.rules.cards import Card
from trainer.storage import Store

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=timezone.utc)


def _picks(seeds: int = 12):
    for item in curriculum([Kind.PICK]):
        for seed in range(seeds):
            yield make_question(item, random.Random(seed))


def test_which_card_is_offers_four_plain_named_cards_two_of_them_of_the_same_value():
    other_values = 0
    for question in _picks():
        card = Card.parse(question.answer[0])
        cards = [choice.card for choice in question.choices]
        assert len(cards) == 4 and len(set(cards)) == 4 and card in cards, question.item
        same_value = [c for c in cards if c is not card and c.rank is card.rank]
        assert len(same_value) >= 2, question.item  # the look-alikes: the same value in other suits
        other_values += any(c.rank is not card.rank for c in cards)
        for choice in question.choices:
            c = choice.card
            # the plain name: a nickname would give the answer away (the question names the card)
            # (and the name only: no card code on screen)
            assert choice.text.all() == (c.french, c.english, c.italian)
    assert other_values > 0  # and not only look-alikes: one choice may be another named card


def test_answers_that_cannot_be_read_get_exact_messages():
    question = make_question("name:3D", random.Random(0))
    with pytest.raises(QuizError) as empty:
        question.parse("   ")
    assert str(empty.value) == "empty answer: type a number from the list"
    with pytest.raises(QuizError) as far:
        question.parse("9")
    assert str(far.value) == "9 is not in the list: type a number from 1 to 4"


def test_a_card_choice_is_found_by_its_own_words_in_any_language():
    found = 0
    for level in (1, 2, 3):
        for seed in range(5):
            question = make_question(f"trick:L{level}", random.Random(seed))
            for choice in question.choices:
                if choice.key == POURRI:
                    continue
                for words in choice.text.all():  # e.g. "la Vache (3D)": nickname and code together
                    assert question.parse(words) == choice.key, (question.item, words)
                    found += 1
    assert found


def test_feedback_is_in_french_by_default_and_an_order_reads_strongest_first():
    order = make_question("order:luettes", random.Random(0))
    assert order.answer_text() == order.answer_text("fr")
    assert order.answer_text("en") == " > ".join(card_text(Card.parse(code)).en for code in order.answer)
    name = make_question("name:3D", random.Random(0))
    assert name.answer_text() == name.answer_text("fr")


def test_a_fresh_sitting_starts_with_the_first_item_of_the_curriculum(tmp_path):
    with Store.open(tmp_path / "s.sqlite3") as store:
        session = Session(Progress(store), rng=random.Random(0))
        assert session.next_item(T0) == curriculum()[0]
        group = Session(Progress(store), rng=random.Random(0), kinds=[Kind.GROUP])
        assert group.next_item(T0) == curriculum([Kind.GROUP])[0]


def test_a_saved_memory_that_is_not_an_object_is_reported_as_such(tmp_path):
    with Store.open(tmp_path / "d.sqlite3") as store:
        store.put(DOC_KIND, "default/name:3D", [1, 2])
        progress = Progress(store)
        with pytest.raises(QuizError) as raised:
            progress.card("name:3D")
    assert "'name:3D'" in str(raised.value) and "is damaged (not an object); forget that item" in str(raised.value)


def test_with_items_due_every_third_question_is_the_next_new_item_in_teaching_order(tmp_path):
    names = curriculum([Kind.NAME])
    yesterday = datetime(2026, 2, 28, 9, 0, tzinfo=timezone.utc)
    with Store.open(tmp_path / "n.sqlite3") as store:
        progress = Progress(store)
        for item in names[:3]:  # three lapses a day ago: all due now
            progress.review(make_question(item, random.Random(0)), False, seconds=2.0, now=yesterday)
        session = Session(progress, rng=random.Random(0), kinds=[Kind.NAME])
        asked = []
        for _ in range(Session.NEW_EVERY):
            question = session.next_question(T0)
            asked.append(question.item)
            session.answer(question, "not a card", seconds=2.0, now=T0)
    assert all(item in names[:3] for item in asked[:-1])  # due items first
    assert progress.due(T0, [Kind.NAME])  # still some due when the new one comes
    assert asked[-1] == names[3]  # the first item not yet seen, in teaching order
