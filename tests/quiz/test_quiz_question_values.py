"""What each generated question holds, for every item: the cards shown are a tuple (none for "which
card is"), the convention it was made under is recorded, a trick's card choices name the cards as
the quiz names them (nickname first), a spoiled trick is explained in all three languages, and the
French words of the misère and mordienne signs. Written against mutants of a seeded sample of
trainer/quiz/questions.py and texts.py that the suite let pass (docs/mutation.md, 2026-12-02)."""

from __future__ import annotations

import random

import pytest

from trainer.quiz import Kind, QuizError, make_question
from trainer.quiz.questions import ALL_ITEMS, POURRI, curriculum, split_item
from trainer.quiz.texts import card_text, sign_text
from trainer.rules.cards import Card
from trainer.signals.conventions import CONVENTIONS
from trainer.signals.signs import Sign


def test_every_question_shows_a_tuple_of_cards_and_a_name_to_card_question_shows_none():
    for item in ALL_ITEMS:
        question = make_question(item, random.Random(1))
        assert isinstance(question.cards, tuple), item
        assert all(isinstance(card, Card) for card in question.cards), item
        if question.kind is Kind.PICK:
            assert question.cards == (), item  # the name is asked: showing the card would give it away


@pytest.mark.parametrize("name", sorted(CONVENTIONS))
def test_every_question_records_the_convention_it_was_made_under(name):
    convention = CONVENTIONS[name]
    for item in ALL_ITEMS:
        try:
            question = make_question(item, random.Random(2), convention)
        except QuizError:
            # a convention with no gesture for a sign cannot ask about it (tested elsewhere)
            assert split_item(item)[0] in (Kind.SIGN, Kind.SIGN_CARD), item
            continue
        assert question.convention == name, item


def _tricks(count: int = 40):
    for item in curriculum([Kind.TRICK]):
        for seed in range(count):
            yield make_question(item, random.Random(seed))


def test_a_tricks_card_choices_name_each_card_as_the_quiz_does_nickname_first():
    nicknamed = 0
    for question in _tricks(5):
        card_choices = [c for c in question.choices if c.key != POURRI]
        assert [c.card for c in card_choices] == list(question.cards)
        for choice in card_choices:
            assert choice.text == card_text(choice.card), (question.item, choice)
            nicknamed += bool(choice.card.nickname)
    assert nicknamed > 0  # the check above only tells the two namings apart on nicknamed cards


def test_a_spoiled_trick_is_explained_in_french_english_and_italian():
    spoiled = [q for q in _tricks() if q.answer == (POURRI,)]
    assert spoiled, "no spoiled trick in the seeds: widen the search"
    for question in spoiled:
        best = max(card.strength for card in question.cards)
        top = [c for c in question.cards if c.strength == best]
        why = question.explanation
        names = {lang: " = ".join(card_text(c).only(lang) for c in top) for lang in ("fr", "en", "it")}
        assert why.fr.startswith(f"Pourri : {names['fr']} sont égales (") and why.fr.endswith(").")
        assert why.en.startswith(f"Spoiled: {names['en']} tie (") and why.en.endswith(").")
        assert why.it.startswith(f"Pourri: {names['it']} sono pari (") and why.it.endswith(").")
        assert not any(f"{c.code} " in why.en or f"({c.code})" in why.en for c in top), why.en
        # the same strongest-first list of cards and levels in each language
        assert why.it.count("livello") == why.en.count("level") == why.fr.count("niveau") == len(question.cards)


def test_the_french_words_of_misere_and_mordienne_say_what_they_mean():
    assert sign_text(Sign.MISERE).fr == "misère (main faible)"
    assert sign_text(Sign.MORDIENNE).fr == "je tente la mordienne"
    # the other signs keep the French of the signals layer
    others = [s for s in Sign if s not in (Sign.MISERE, Sign.MORDIENNE)]
    assert all(sign_text(s).fr.startswith(s.french) for s in others)
