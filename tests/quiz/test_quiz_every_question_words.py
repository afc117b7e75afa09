"""Every quiz question reads in French, English and Italian: its prompt, its explanation and each
choice are words in all three languages, and the fixed prompts and the explanations say the right
thing (levels, the winner, the strongest card first). Written against mutants of questions.py that
the suite let pass (docs/mutation.md, 2026-12-02, third run: a seeded sample of 300)."""

from __future__ import annotations

import random

import pytest

from trainer.quiz import make_question
from trainer.quiz.questions import ALL_ITEMS, POURRI, Kind, Question
from trainer.quiz.texts import GESTURE_TEXT, Text, card_text, sign_text
from trainer.rules.cards import Card
from trainer.signals.conventions import CLASSIC
from trainer.signals.signs import Sign


def _texts(question: Question) -> list[Text]:
    return [question.prompt, question.explanation, *(choice.text for choice in question.choices),
            *([question.meaning] if question.meaning is not None else [])]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_question_reads_in_all_three_languages(seed: int):
    for item in ALL_ITEMS:
        question = make_question(item, random.Random(seed))
        for text in _texts(question):
            assert all(isinstance(words, str) and words.strip() for words in text.all()), (item, text)
            assert all(text.show(language) for language in ("fr", "en", "it"))


# The fixed prompts, word for word in each language.
PROMPTS = {
    "name:3D": Text("Comment s'appelle cette carte ?", "What is this card called?", "Come si chiama questa carta?"),
    "group:9C": Text("À quelle famille appartient cette carte ?", "Which group is this card in?",
                     "A quale famiglia appartiene questa carta?"),
    "trick:L5": Text("Qui gagne ce pli ? (ou est-il pourri ?)", "Which card wins this trick (or is it spoiled)?",
                     "Quale carta vince la presa (o è pourri)?"),
    "order:luettes": Text("Rangez ces cartes de la plus forte à la plus faible.",
                          "Put these cards in order, strongest first.",
                          "Metti queste carte in ordine, dalla più forte."),
    "sign:vache": Text("Quel signe fait-on pour annoncer cette carte ?", "Which sign tells your partner about this?",
                       "Quale segno annuncia questa carta?"),
}


@pytest.mark.parametrize("item", sorted(PROMPTS))
def test_the_fixed_prompts_word_for_word(item: str):
    assert make_question(item, random.Random(3)).prompt == PROMPTS[item]


def test_prompts_that_quote_a_name_or_a_meaning_quote_it_in_each_language():
    pick = make_question("pick:2C", random.Random(0))
    assert pick.prompt == Text("Quelle carte est « la Vache » ?", "Which card is “the Cow” (la Vache)?",
                               "Quale carta è « la Vache »?")
    misere = make_question("sign:misere", random.Random(0))
    meaning = sign_text(Sign.MISERE)
    assert misere.prompt == Text(f"Quel signe dit « {meaning.fr} » ?", f"Which sign says “{meaning.en}”?",
                                 f"Quale segno dice « {meaning.it} »?")
    assert meaning.it == "mano debole (misère)"


def test_a_name_question_explains_the_card_with_its_level_and_draws_each_choice():
    question = make_question("name:2C", random.Random(0))
    vache = Card.parse("2C")
    assert question.explanation == Text(
        f"{card_text(vache).fr}, {vache.french}, niveau {vache.level}.",
        f"{card_text(vache).en}, {vache.english}, level {vache.level}.",
        f"{card_text(vache).it}, livello {vache.level}.")
    assert question.explanation.it == f"la Vache, {vache.italian}, livello {vache.level}."  # no code
    # each proposed name carries the card it names, to be drawn beside it
    assert [choice.card.code for choice in question.choices] == [choice.key for choice in question.choices]


def test_a_group_question_explains_the_group_and_level_in_each_language():
    card = Card.parse("9C")
    question = make_question("group:9C", random.Random(0))
    assert question.explanation == Text(
        f"{card_text(card).fr} : {card.group.value}, niveau {card.level}.",
        f"{card_text(card).en}: {card.group.value}, level {card.level}.",
        f"{card_text(card).it}: {card.group.value}, livello {card.level}.")


def test_a_sign_card_question_explains_the_gesture_and_its_meaning_in_each_language():
    question = make_question("sign_card:vache", random.Random(0))
    how = GESTURE_TEXT[CLASSIC.gestures_for(Sign.VACHE)[0]]
    meaning = sign_text(Sign.VACHE)
    assert question.explanation == Text(f"{how.fr} : {meaning.fr}.", f"{how.en}: {meaning.en}.",
                                        f"{how.it}: {meaning.it}.")


def test_order_and_trick_explanations_list_the_cards_strongest_first_in_each_language():
    for item in ("order:mixed", "order:figures", "trick:L12", "trick:L3", "trick:L17"):
        for seed in range(6):
            question = make_question(item, random.Random(seed))
            strongest_first = sorted(question.cards, key=lambda c: -c.strength)
            for language, level_word in (("fr", "niveau"), ("en", "level"), ("it", "livello")):
                words = question.explanation.only(language)
                positions = [words.index(f"{card_text(card).only(language)} {level_word} {card.level}")
                             for card in strongest_first]
                assert positions == sorted(positions), (item, seed, language, words)
            if question.kind is Kind.ORDER:
                assert all(text.endswith(".") for text in question.explanation.all())
            elif question.answer[0] != POURRI:
                winner = Card.parse(question.answer[0])
                assert question.explanation.it.startswith(f"{card_text(winner).it} vince (")
                assert question.explanation.fr.startswith(f"{card_text(winner).fr} gagne (")


def test_each_question_says_its_kind():
    for item in ALL_ITEMS:
        question = make_question(item, random.Random(1))
        assert question.kind.value == item.split(":")[0]


def test_explanations_list_cards_with_a_comma_between_them():
    question = make_question("order:mixed", random.Random(4))
    strongest_first = sorted(question.cards, key=lambda c: -c.strength)
    for language, level_word in (("fr", "niveau"), ("en", "level"), ("it", "livello")):
        assert question.explanation.only(language) == ", ".join(
            f"{card_text(card).only(language)} {level_word} {card.level}" for card in strongest_first) + "."


def test_a_sign_card_question_under_a_convention_without_that_sign_says_so():
    from trainer.quiz.texts import QuizError
    from trainer.signals.conventions import Convention

    without_vache = Convention("no_vache", tuple(pair for pair in CLASSIC.pairs if pair[1] is not Sign.VACHE))
    for item in ("sign_card:vache", "sign:vache"):
        with pytest.raises(QuizError) as raised:
            make_question(item, random.Random(0), without_vache)
        assert str(raised.value) == "convention 'no_vache' has no gesture for vache: choose another convention"


def test_a_sign_card_question_offers_four_signs_each_carrying_its_sign():
    for item in (i for i in ALL_ITEMS if i.startswith("sign_card:")):
        question = make_question(item, random.Random(2))
        assert len(question.choices) == 4
        assert [choice.sign.value for choice in question.choices] == [choice.key for choice in question.choices]


def test_a_sign_question_offers_four_gestures_each_carrying_its_gesture():
    for item in (i for i in ALL_ITEMS if i.startswith("sign:")):
        question = make_question(item, random.Random(2))
        assert [choice.gesture.value for choice in question.choices] == [choice.key for choice in question.choices]


def test_only_some_tricks_at_a_tying_level_hold_a_twin_of_a_card():
    """About a third of the tricks at a level where two cards tie hold both (spoiling is learnt),
    not all of them."""
    from trainer.rules.cards import cards_at_level

    level = next(lv for lv in range(1, 20) if len(cards_at_level(lv)) >= 2)
    twins = 0
    for seed in range(80):
        question = make_question(f"trick:L{level}", random.Random(seed))
        twins += sum(card.level == level for card in question.cards) >= 2
    assert 10 <= twins <= 60, twins
