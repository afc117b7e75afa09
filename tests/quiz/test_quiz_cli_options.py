"""``aluette quiz`` and ``aluette deck`` options, in this process: practice ahead is on unless
``--no-ahead``, "nothing to review" counts only the chosen kinds, ``deck --png`` renders the sheet it
wrote at the sheet's own size, and the help a user reads names every option. Written against
mutants of a seeded sample of trainer/quiz/cli.py that the suite let pass (docs/mutation.md,
2026-12-02)."""

from __future__ import annotations

import argparse
import io
import random
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from trainer.cli import build_parser, main
from trainer.quiz import make_question
from trainer.quiz.cli import _until
from trainer.quiz.memory import Progress
from trainer.storage import Store

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=timezone.utc)


def _quiz(db: Path, *argv: str, stdin: str = "", now: datetime = T0) -> str:
    args = build_parser().parse_args(["quiz", "--db", str(db), *argv])
    out = io.StringIO()
    assert args.run(args, stdin=io.StringIO(stdin), stdout=out, clock=lambda: now) == 0
    return out.getvalue()


def _answer(db: Path, item: str, correct: bool) -> datetime:
    """Review ``item`` once at T0; its next due time."""
    with Store.open(db) as store:
        review = Progress(store).review(make_question(item, random.Random(0)), correct, seconds=3.0, now=T0)
    return review.due


def test_practice_ahead_is_on_by_default_and_off_with_no_ahead(tmp_path: Path):
    db = tmp_path / "a.sqlite3"
    due = _answer(db, "name:3D", True)
    later = T0 + timedelta(hours=1)
    assert due > later  # a right first answer is not due again within the hour
    ahead = _quiz(db, "--new", "0", "--count", "1", "--language", "en", now=later, stdin="q\n")
    assert "[1/1] " in ahead and "Nothing to review" not in ahead
    stop = _quiz(db, "--new", "0", "--count", "1", "--language", "en", "--no-ahead", now=later)
    assert "[1/1] " not in stop
    assert f"Nothing to review now. Next review {_until(due, later, 'en')}." in stop


def test_nothing_to_review_names_the_next_review_of_the_chosen_kinds_only(tmp_path: Path):
    db = tmp_path / "k.sqlite3"
    name_due = _answer(db, "name:3D", False)  # a lapse: back within minutes
    group_due = _answer(db, "group:3D", True)  # right: back in days
    assert name_due < group_due
    out = _quiz(db, "--kinds", "group", "--no-ahead", "--new", "0", "--language", "en")
    assert f"Nothing to review now. Next review {_until(group_due, T0, 'en')}." in out
    assert _until(group_due, T0, "en") != _until(name_due, T0, "en")


def test_deck_png_renders_the_written_sheet_at_its_own_size(tmp_path: Path, monkeypatch, capsys):
    calls = []
    # Chromium's screenshot itself is tested in test_deck_svg.py; here: what the command asks of it.
    monkeypatch.setattr("trainer.deck.sheet.render_png", lambda *args: calls.append(args))
    sheet = tmp_path / "sheet.svg"
    assert main(["deck", "--out", str(sheet), "--png"]) == 0
    width, height = re.search(r'width="(\d+)" height="(\d+)"', sheet.read_text(encoding="utf-8")).groups()
    assert calls == [(sheet, tmp_path / "sheet.png", int(width), int(height))]
    assert capsys.readouterr().out == f"wrote {sheet}\nwrote {tmp_path / 'sheet.png'}\n"


def _help(*argv: str, capsys) -> str:
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--help"])
    assert stop.value.code == 0
    return " ".join(capsys.readouterr().out.split())  # argparse wraps lines to the terminal width


def _commands() -> dict[str, argparse.ArgumentParser]:
    subparsers = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return subparsers.choices


def test_every_quiz_and_deck_option_tells_what_it_does(capsys):
    for command in ("quiz", "deck"):
        bare = [
            action.option_strings or action.dest
            for action in _commands()[command]._actions
            if not action.help and action.dest != "language"  # deck --language: its choices say it all
        ]
        assert bare == [], (command, bare)
    quiz = _help("quiz", capsys=capsys)
    assert "--seed SEED seed the question generator (for repeatable runs)" in quiz
    assert "--no-ahead stop when nothing is due instead of practising ahead" in quiz
    assert "--kinds K,K only these kinds: name,pick,sign,sign_card,group,order,trick (default all)" in quiz
    deck = _help("deck", capsys=capsys)
    assert "[CODE ...]" in deck
    assert "CODE card codes such as 3D 2C RB (or 'back')" in deck
    assert ("Without arguments, write the contact sheet of all 48 cards (strongest first), the back and every "
            "sign. With card codes, write those cards.") in deck
    assert "--png with --out: also a PNG of the sheet (headless Chromium)" in deck
    top = _help(capsys=capsys)
    assert "deck write the drawn cards as SVG: one card, the back, a sign, or the whole contact sheet" in top
