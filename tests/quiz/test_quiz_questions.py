"""Quiz question generators give only right answers: checked against the rules engine (card
strength, groups, names, and real trick play on FastDeal) and the signals layer's conventions."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.quiz import ALL_ITEMS, POURRI, Kind, QuizError, curriculum, make_question
from trainer.rules.cards import CARDS, Card, Group
from trainer.rules.fastdeal import NO_WINNER, FastDeal
from trainer.signals.conventions import CONVENTIONS, Convention
from trainer.signals.signs import Sign

conventions = st.sampled_from(sorted(CONVENTIONS))


def _engine_trick(cards: tuple[Card, ...]) -> str | None:
    """Play the trick on the engine's own FastDeal (4 seats, one card each); None if it cannot be padded."""
    top = max(card.strength for card in cards)
    pads = [c for c in CARDS if c not in cards and c.strength < top]
    needed = 4 - len(cards)
    if len(pads) < needed:
        return None
    hands = [[c.index] for c in cards] + [[c.index] for c in pads[-needed:]] if needed else [[c.index] for c in cards]
    deal = FastDeal(hands, leader=0, total_tricks=1)
    for seat in range(4):
        deal.apply(hands[seat][0])
    winner = deal.winners[0]
    return POURRI if winner == NO_WINNER else cards[winner].code


def _check(question, convention: Convention) -> None:
    keys = [choice.key for choice in question.choices]
    assert len(keys) == len(set(keys)), "choices must be distinct"
    if not question.is_order:
        assert question.answer[0] in keys, "the right answer is among the choices"
        # exactly one choice is right
        assert [k for k in keys if question.check(k)] == [question.answer[0]]
    kind = question.kind
    if kind is Kind.TRICK:
        assert len(question.cards) in (2, 4) and len(set(question.cards)) == len(question.cards)
        engine = _engine_trick(question.cards)
        if engine is not None:
            assert question.answer[0] == engine
        best = max(c.strength for c in question.cards)
        tops = [c for c in question.cards if c.strength == best]
        assert (question.answer[0] == POURRI) == (len(tops) > 1)
    elif kind is Kind.ORDER:
        answer = [Card.parse(code) for code in question.answer]
        assert sorted(answer, key=lambda c: c.index) == sorted(question.cards, key=lambda c: c.index)
        strengths = [c.strength for c in answer]
        assert all(a > b for a, b in zip(strengths, strengths[1:], strict=False)), "strictly strongest first"
        assert question.check(question.answer)
        assert not question.check(tuple(reversed(question.answer)))
    elif kind is Kind.NAME:
        (card,) = question.cards
        assert question.answer == (card.code,) and card.nickname
        assert all(Card.parse(k).nickname for k in keys)
    elif kind is Kind.PICK:
        card = Card.parse(question.answer[0])
        assert question.meaning.fr == card.nickname
        assert all(Card.parse(k).nickname != card.nickname for k in keys if k != card.code)
    elif kind is Kind.GROUP:
        (card,) = question.cards
        assert question.answer == (card.group.value,)
        assert keys == [g.value for g in Group]
    elif kind is Kind.SIGN:
        sign = Sign(question.item.split(":")[1])
        if question.cards:
            told = {Sign.for_card(c) for c in question.cards}
            if sign is Sign.MONSIEUR_ET_MADAME:
                assert set(question.cards) == {Card.MONSIEUR, Card.MADAME}
            else:
                assert told == {sign}
        assert convention.sign_for(question.expected_gestures[0]) is sign
        assert question.answer == (question.expected_gestures[0].value,)
        for choice in question.choices:
            assert question.accepts_gesture(choice.gesture) == (convention.sign_for(choice.gesture) is sign)
    elif kind is Kind.SIGN_CARD:
        assert convention.sign_for(question.gesture) is Sign(question.answer[0])


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), item=st.sampled_from(ALL_ITEMS), name=conventions)
def test_every_generated_answer_is_right(seed: int, item: str, name: str):
    convention = Convention.named(name)
    _check(make_question(item, random.Random(seed), convention), convention)


def test_all_items_over_many_seeds_and_tricks_spoil_sometimes():
    spoiled = won = 0
    for seed in range(12):
        rng = random.Random(seed)
        for _name, convention in CONVENTIONS.items():
            for item in ALL_ITEMS:
                question = make_question(item, rng, convention)
                _check(question, convention)
                if question.kind is Kind.TRICK:
                    spoiled += question.answer[0] == POURRI
                    won += question.answer[0] != POURRI
    assert spoiled > 20 and won > 200


def test_curriculum_covers_every_kind_once_per_item():
    assert len(ALL_ITEMS) == len(set(ALL_ITEMS))
    assert {item.split(":")[0] for item in ALL_ITEMS} == {k.value for k in Kind}
    assert ALL_ITEMS[0] == "name:3D"  # Monsieur first
    only = curriculum([Kind.TRICK])
    assert only == tuple(f"trick:L{level}" for level in range(1, 20))
    assert set(curriculum([Kind.SIGN])) == {f"sign:{s.value}" for s in Sign}


def test_typed_answers_are_understood_or_refused():
    rng = random.Random(7)
    question = make_question("name:2C", rng)
    right = question.choices.index(next(c for c in question.choices if c.key == "2C")) + 1
    assert question.parse(str(right)) == "2C"
    for typed in ("la vache", "La Vache", "the cow", "vache", "2c"):
        assert question.parse(typed) == "2C", typed
    for bad in ("", "9", "0", "une vache folle"):
        with pytest.raises(QuizError):
            question.parse(bad)
    order = make_question("order:luettes", rng)
    numbers = " ".join(str(order.cards.index(Card.parse(code)) + 1) for code in order.answer)
    assert order.check(order.parse(numbers))
    assert order.check(order.parse(" ".join(order.answer).lower()))
    with pytest.raises(QuizError):
        order.parse("1 1 2")
    with pytest.raises(QuizError):
        order.parse("RB AD")
    trick = make_question("trick:L12", rng)
    assert trick.parse("pourri") == POURRI


def test_unknown_items_and_kinds_are_clear_errors():
    with pytest.raises(QuizError, match="unknown quiz item"):
        make_question("name:RB", random.Random(0))
    with pytest.raises(QuizError, match="kind"):
        make_question("colour:RB", random.Random(0))
    with pytest.raises(QuizError, match="fr"):
        make_question("name:2C", random.Random(0)).prompt.show("de")
