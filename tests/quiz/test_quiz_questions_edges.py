"""Quiz questions at their edges: the curriculum of each kind is the full one filtered in teaching
order and every item in it can be asked; typed answers are compared without articles, accents or
punctuation; ordering answers read back strongest first; look-alike choices for "which card is".
Written against mutants of trainer/quiz/questions.py the suite let pass (docs/mutation.md)."""

from __future__ import annotations

import random

import pytest

from trainer.quiz import Kind, QuizError, make_question
from trainer.quiz.questions import ALL_ITEMS, Choice, Question, curriculum, split_item
from trainer.quiz.texts import Text
from trainer.rules.cards import Card, Group


@pytest.mark.parametrize("kind", list(Kind), ids=lambda k: k.value)
def test_each_kinds_curriculum_is_the_full_one_filtered_and_every_item_can_be_asked(kind):
    items = curriculum([kind])
    assert items == tuple(item for item in ALL_ITEMS if split_item(item)[0] is kind)
    for item in items:
        assert make_question(item, random.Random(0)).item == item


def test_the_full_curriculum_starts_with_the_luettes_and_ends_with_the_weakest_tricks():
    assert curriculum() == ALL_ITEMS == curriculum(list(Kind))
    names = [split_item(i)[1] for i in curriculum([Kind.NAME])]
    assert [Card.parse(c).group for c in names[:4]] == [Group.LUETTES] * 4
    assert names[-1] == "5D"
    orders = [split_item(i)[1] for i in curriculum([Kind.ORDER])]
    assert orders == ["luettes", "doubles", "strong", "figures", "twos", "nines", "threes", "mixed"]
    tricks = [int(split_item(i)[1][1:]) for i in curriculum([Kind.TRICK])]
    assert tricks == sorted(tricks) and tricks[0] == 1


def _question(*texts: str) -> Question:
    choices = tuple(Choice(f"k{n}", Text(t, t, t)) for n, t in enumerate(texts))
    return Question("name:3D", Kind.NAME, Text("?", "?", "?"), (), choices, ("k0",), Text(".", ".", "."))


@pytest.mark.parametrize(
    ("choice", "typed"),
    [("le Borgne", "borgne"), ("la Vache", "VACHE"), ("l'As", "as"), ("the Cow", "cow"), ("les Doubles", "doubles"),
     ("un Deux", "deux"), ("une Dame", "dame"), ("a Card", "card"), ("an Ace", "ace"), ("Élodie", "elodie"),
     ("Monsieur", "monsieur!"), ("petit-deux", "petit deux")],
)
def test_typed_answers_are_compared_without_articles_accents_or_punctuation(choice, typed):
    question = _question(choice, "something else", "another one", "a last one")
    assert question.parse(typed) == "k0"


def test_a_typed_answer_matching_two_choices_is_refused():
    question = _question("la Vache", "le Vache", "x", "y")
    with pytest.raises(QuizError, match="is not one of the choices"):
        question.parse("vache")


def test_a_card_choice_also_answers_to_the_cards_nickname():
    question = make_question("pick:3D", random.Random(0))
    right = next(c for c in question.choices if c.key == "3D")
    assert question.parse("monsieur") == right.key


def test_the_answer_in_words():
    order = make_question("order:strong", random.Random(0))
    parts = order.answer_text("en").split(" > ")
    assert len(parts) == len(order.answer) == len(order.cards)
    assert "—" not in order.answer_text("fr")  # one language only, to fit on a line
    orphan = Question("name:3D", Kind.NAME, Text("?", "?", "?"), (), (), ("3D", "2C"), Text(".", ".", "."))
    assert orphan.answer_text("en") == "3D"


def test_which_card_offers_look_alikes_only():
    """The wrong choices of "which card is X" are the same value in other suits or other named cards."""
    from trainer.quiz.questions import NICKNAMED

    for item in curriculum([Kind.PICK]):
        for seed in range(5):
            question = make_question(item, random.Random(seed))
            card = Card.parse(question.answer[0])
            for choice in question.choices:
                other = Card.parse(choice.key)
                assert other == card or other.rank is card.rank or other in NICKNAMED, (item, choice.key)
