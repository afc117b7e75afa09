"""The words each kind of question asks and explains with, French first; a sitting's echo of piped
answers, its French stats header and a reader that goes away; ``deck --language`` refusing a
language it does not have. Written against the survivors of a second seeded sample (seed 17) of
trainer/quiz/questions.py, cli.py and texts.py (docs/mutation.md, 2026-12-02)."""

from __future__ import annotations

import io
import random
from datetime import datetime, timezone
from pathlib import Path

import pytest

from trainer.cli import build_parser, main
from trainer.quiz import Kind, make_question
from trainer.quiz.questions import curriculum
from trainer.quiz.texts import GESTURE_TEXT, Text

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=timezone.utc)


def test_each_kind_asks_in_french_english_and_italian():
    group = make_question(curriculum([Kind.GROUP])[0], random.Random(0))
    assert group.prompt.all() == ("À quelle famille appartient cette carte ?", "Which group is this card in?",
                                  "A quale famiglia appartiene questa carta?")
    trick = make_question(curriculum([Kind.TRICK])[0], random.Random(0))
    assert trick.prompt.all() == ("Qui gagne ce pli ? (ou est-il pourri ?)",
                                  "Which card wins this trick (or is it spoiled)?",
                                  "Quale carta vince la presa (o è pourri)?")
    order = make_question(curriculum([Kind.ORDER])[0], random.Random(0))
    assert order.prompt.all() == ("Rangez ces cartes de la plus forte à la plus faible.",
                                  "Put these cards in order, strongest first.",
                                  "Metti queste carte in ordine, dalla più forte.")
    signs = [make_question(item, random.Random(seed)) for item in curriculum([Kind.SIGN]) for seed in range(3)]
    about_a_card = [q for q in signs if q.cards]
    assert about_a_card
    for question in about_a_card:
        assert question.prompt.all() == ("Quel signe fait-on pour annoncer cette carte ?",
                                         "Which sign tells your partner about this?",
                                         "Quale segno annuncia questa carta?")
    for question in signs:
        how = GESTURE_TEXT[question.expected_gestures[0]]
        m = question.meaning
        assert question.explanation.all() == (f"{m.fr} : {how.fr}.", f"{m.en}: {how.en}.", f"{m.it}: {how.it}.")


def test_an_orders_explanation_lists_the_cards_strongest_first():
    for item in curriculum([Kind.ORDER]):
        question = make_question(item, random.Random(3))
        text = question.explanation.en
        from trainer.quiz.texts import card_text
        from trainer.rules.cards import Card

        places = [text.index(f"{card_text(Card.parse(code)).en} level") for code in question.answer]
        assert places == sorted(places), (item, text)


def test_a_text_is_shown_in_the_asked_language_first():
    text = Text("la Vache", "the Cow", "la Mucca")
    assert text.show("fr") == text.show() == "la Vache — the Cow"
    assert text.show("en") == "the Cow — la Vache"
    assert text.show("it") == "la Mucca — la Vache"


def _quiz(db: Path, *argv: str, stdin: str = "", out=None) -> tuple[int, str]:
    args = build_parser().parse_args(["quiz", "--db", str(db), *argv])
    out = out if out is not None else io.StringIO()
    code = args.run(args, stdin=io.StringIO(stdin), stdout=out, clock=lambda: T0)
    return code, out.getvalue() if isinstance(out, io.StringIO) else ""


def test_a_piped_answer_is_echoed_once_on_its_own_line(tmp_path: Path):
    _, out = _quiz(tmp_path / "e.sqlite3", "--count", "1", "--seed", "4", "--language", "en", stdin="banana\nq\n")
    assert "> banana\n(Answer not understood: " in out


def test_french_stats_name_their_columns_in_french(tmp_path: Path):
    _, out = _quiz(tmp_path / "s.sqlite3", "--stats")
    header = out.splitlines()[1]
    assert header.split() == ["élément", "état", "révision", "rappel", "dans", "7", "j", "vues", "oublis"]


class _GoneReader(io.StringIO):
    """A pipe whose reader left (``aluette quiz | head -3``) after a few lines."""

    def write(self, text: str) -> int:
        if self.getvalue().count("\n") >= 3:
            raise BrokenPipeError(32, "Broken pipe")
        return super().write(text)


def test_a_reader_that_goes_away_ends_the_sitting_quietly(tmp_path: Path):
    code, _ = _quiz(tmp_path / "p.sqlite3", "--count", "3", "--seed", "4", stdin="1\n2\n3\n", out=_GoneReader())
    assert code == 0


def test_deck_refuses_a_language_it_does_not_have(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["deck", "2c", "--language", "de"])
    assert stop.value.code == 2
    assert "invalid choice: 'de'" in capsys.readouterr().err
