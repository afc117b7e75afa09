"""``aluette quiz`` and ``aluette deck`` in this process: the help of every option word for word,
the stats in each language, an answer not understood is named back, a piped answer is echoed
even by a reader that cannot say whether it is a terminal, ``--profile`` and ``--reset-item``
touch only what they name, and ``deck`` writes several cards into a folder (again and again).
Written against mutants of cli.py that the suite let pass (docs/mutation.md, 2026-12-02, third
run: a seeded sample of 300)."""

from __future__ import annotations

import io
import random
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from trainer.cli import build_parser, main
from trainer.quiz import make_question
from trainer.quiz.cli import _until, run
from trainer.quiz.memory import Progress
from trainer.storage import Store

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=timezone.utc)


def _quiz(db: Path, *argv: str, stdin=None, now: datetime = T0) -> str:
    args = build_parser().parse_args(["quiz", "--db", str(db), *argv])
    out = io.StringIO()
    assert run(args, stdin=stdin if stdin is not None else io.StringIO(""), stdout=out, clock=lambda: now) == 0
    return out.getvalue()


def _answer(db: Path, item: str, correct: bool, profile: str = "default") -> None:
    with Store.open(db) as store:
        Progress(store, profile).review(make_question(item, random.Random(0)), correct, seconds=3.0, now=T0)


def _help(command: str, capsys) -> str:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    return " ".join(capsys.readouterr().out.split())


QUIZ_HELP = [
    "Ask questions about the cards, their strength and their signs; what you are about to forget comes back "
    "first. Progress is saved after every answer.",
    "--count N questions in this sitting (default 10)",
    "--language {fr,en,it} fr: French with English beside (default); en: English first; it: Italian",
    "--db PATH database file (default: aluette.sqlite3 in $ALUETTE_HOME or the user data folder)",
    "--profile PROFILE whose progress (default 'default')",
    "--new N at most N new items this sitting (default 10)",
    "--convention CONVENTION sign convention: classic, regional, camera_friendly",
    "--stats show what is due and each item's forecast recall, then exit",
    "--all with --stats: list new items too",
    "--reset forget this profile's progress (asks no question)",
    "--reset-item ITEM forget one item of this profile (repeatable), e.g. a damaged one; --stats --all lists "
    "the items",
]
DECK_HELP = [
    "--out PATH file (one card or the sheet) or folder (several cards); default: print to stdout",
    "--language {fr,en,it}",
    "--width WIDTH width in pixels (height is 1.5 x)",
    "--no-hints no name, level or sign: as the quiz shows cards",
    "--convention CONVENTION which signs the corners show",
]


def test_every_quiz_and_deck_option_is_helped_word_for_word(capsys):
    quiz = _help("quiz", capsys)
    assert [line for line in QUIZ_HELP if line not in quiz] == []
    deck = _help("deck", capsys)
    assert [line for line in DECK_HELP if line not in deck] == []


def test_deck_draws_in_english_when_asked(capsys):
    assert main(["deck", "2C", "--language", "en"]) == 0
    assert "the Cow" in capsys.readouterr().out


def test_stats_speak_the_chosen_language(tmp_path: Path):
    db = tmp_path / "s.sqlite3"
    _answer(db, "name:3D", True)
    _answer(db, "group:9C", False)
    later = T0 + timedelta(minutes=30)
    french = _quiz(db, "--stats", "--language", "fr", now=later).splitlines()
    assert french[0].startswith("Éléments : ") and " · à revoir maintenant : " in french[0]
    assert french[1].startswith("rappel prévu moyen: ") and french[1].endswith("%")
    assert french[2].split() == ["élément", "état", "révision", "rappel", "dans", "7", "j", "vues", "oublis"]
    italian = _quiz(db, "--stats", "--language", "it", now=later).splitlines()
    assert italian[0].startswith("Elementi: ") and " · da ripassare ora: " in italian[0]
    assert " · entro 24 h: " in italian[0] and " · prossimo: " in italian[0]
    assert italian[1].startswith("richiamo previsto medio: ")
    assert italian[2].split() == ["elemento", "stato", "ripasso", "richiamo", "tra", "7", "g", "viste", "errori"]


def test_an_answer_not_understood_is_named_back_and_asked_again(tmp_path: Path):
    out = _quiz(tmp_path / "a.sqlite3", "--count", "1", "--kinds", "name", "--language", "en",
                stdin=io.StringIO("zebra\nq\n"))
    assert "(Answer not understood: 'zebra' is not one of the choices: type its number (1 to 4))" in out


class _Reader:
    """A pipe-like reader with no ``isatty`` at all (some wrappers have none)."""

    def __init__(self, text: str) -> None:
        self._lines = io.StringIO(text)

    def readline(self) -> str:
        return self._lines.readline()


def test_answers_from_a_reader_that_cannot_say_it_is_a_terminal_are_echoed(tmp_path: Path):
    out = _quiz(tmp_path / "e.sqlite3", "--count", "1", "--kinds", "name", "--language", "en",
                stdin=_Reader("7\nq\n"))
    assert "> 7\n" in out and "> q\n" in out


def test_profile_keeps_each_persons_progress_apart(tmp_path: Path):
    db = tmp_path / "p.sqlite3"
    _answer(db, "name:3D", True, profile="alice")
    alice = _quiz(db, "--stats", "--profile", "alice", "--language", "en")
    bob = _quiz(db, "--stats", "--profile", "bob", "--language", "en")
    assert "name:3D" in alice and "name:3D" not in bob


def test_reset_item_forgets_only_the_items_named(tmp_path: Path):
    db = tmp_path / "r.sqlite3"
    _answer(db, "name:3D", True)
    _answer(db, "group:9C", True)
    out = _quiz(db, "--reset-item", "name:3D")
    assert out == f"forgot 1 of 1 item(s) of profile 'default' in {db}\n"
    stats = _quiz(db, "--stats", "--language", "en")
    assert "group:9C" in stats and "name:3D" not in stats


def test_deck_writes_several_cards_into_a_folder_again_and_again(tmp_path: Path, capsys):
    folder = tmp_path / "cards"
    for _ in range(2):  # the second time the folder is already there
        assert main(["deck", "2E", "3D", "--out", str(folder)]) == 0
        assert capsys.readouterr().out == f"wrote 2 files in {folder}\n"
    assert sorted(p.name for p in folder.iterdir()) == ["2E.svg", "3D.svg"]
    assert "<svg" in (folder / "2E.svg").read_text(encoding="utf-8")


def test_deck_one_card_into_a_folder_or_several_into_a_name_ending_in_svg(tmp_path: Path, capsys):
    one = tmp_path / "one"
    assert main(["deck", "2C", "--out", str(one)]) == 0
    assert one.is_dir() and [p.name for p in one.iterdir()] == ["2C.svg"]
    several = tmp_path / "pair.svg"
    assert main(["deck", "2C", "3D", "--out", str(several)]) == 0
    assert several.is_dir() and sorted(p.name for p in several.iterdir()) == ["2C.svg", "3D.svg"]
    capsys.readouterr()


def test_deck_files_are_utf8_whatever_the_machines_locale(tmp_path: Path, capsys):
    """A machine whose locale encoding is ASCII (LC_CTYPE=C) or cp1252 still gets the accented names."""
    import locale

    before = locale.setlocale(locale.LC_CTYPE)
    locale.setlocale(locale.LC_CTYPE, "C")
    try:
        assert main(["deck", "2E", "back", "--out", str(tmp_path / "cards")]) == 0
        assert main(["deck", "2E", "--out", str(tmp_path / "one.svg")]) == 0
    finally:
        locale.setlocale(locale.LC_CTYPE, before)
    capsys.readouterr()
    for path in (tmp_path / "cards" / "2E.svg", tmp_path / "one.svg"):
        assert "écrit" in path.read_bytes().decode("utf-8")


def test_q_ends_the_sitting_and_count_bounds_the_questions(tmp_path: Path):
    db = tmp_path / "q.sqlite3"
    out = _quiz(db, "--count", "1", "--kinds", "name", "--language", "en", stdin=io.StringIO("1\n1\n1\n"))
    assert "[1/1] " in out and "[2/1] " not in out and out.count("Type a number (or the name). q to quit.") == 1
    quit_ = _quiz(db, "--count", "3", "--kinds", "name", "--language", "en", stdin=io.StringIO("Q\n"))
    assert "not understood" not in quit_ and "[2/3]" not in quit_ and "Done: 0/0 right." in quit_


def test_a_piped_answer_is_echoed_as_typed(tmp_path: Path):
    out = _quiz(tmp_path / "x.sqlite3", "--count", "1", "--kinds", "name", "--language", "en",
                stdin=io.StringIO("zebraX\nq\n"))
    assert "> zebraX\n" in out


def test_a_sitting_without_a_given_clock_runs_on_the_real_time(tmp_path: Path):
    args = build_parser().parse_args(["quiz", "--db", str(tmp_path / "c.sqlite3"), "--count", "1",
                                      "--kinds", "name", "--language", "en"])
    out = io.StringIO()
    assert run(args, stdin=io.StringIO("1\n"), stdout=out) == 0
    assert "next review in " in out.getvalue()


def test_stats_list_only_the_chosen_kinds_with_each_items_week_ahead_recall(tmp_path: Path):
    db = tmp_path / "k.sqlite3"
    _answer(db, "name:3D", True)
    _answer(db, "group:9C", True)
    stats = _quiz(db, "--stats", "--kinds", "name", "--language", "en")
    assert "name:3D" in stats and "group:9C" not in stats
    with Store.open(db) as store:
        week = Progress(store).retrievability("name:3D", T0 + timedelta(days=7))
    row = next(line for line in stats.splitlines() if line.startswith("name:3D"))
    assert row.split()[-3] == f"{week:.0%}"


def test_deck_cards_are_drawn_in_the_chosen_language_and_hints(capsys):
    from trainer.deck import card_svg
    from trainer.rules.cards import Card
    from trainer.signals.conventions import CLASSIC

    vache = Card.parse("2C")
    for argv, language, hints in (([], "fr", True), (["--language", "it"], "it", True),
                                  (["--language", "en", "--no-hints"], "en", False)):
        assert main(["deck", "2C", *argv]) == 0
        assert capsys.readouterr().out == card_svg(vache, language=language, width=None, hints=hints,
                                                   convention=CLASSIC) + "\n"


class _GonePipe:
    """The standard output of ``aluette quiz | head`` once head has quit: writes fail, its file
    descriptor stays (a temporary file here)."""

    def __init__(self, fd: int) -> None:
        self._fd = fd

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self) -> None:
        raise BrokenPipeError(32, "Broken pipe")

    def fileno(self) -> int:
        return self._fd


def test_a_reader_that_went_away_leaves_the_output_on_dev_null_for_writing(tmp_path: Path, monkeypatch):
    """Python flushes stdout at exit: pointed at /dev/null (write-only), that flush cannot raise a
    second BrokenPipeError over a sitting whose answers are all saved."""
    import fcntl
    import os
    import sys

    fd = os.open(tmp_path / "stdout", os.O_WRONLY | os.O_CREAT)
    try:
        monkeypatch.setattr(sys, "stdout", _GonePipe(fd))
        args = build_parser().parse_args(["quiz", "--db", str(tmp_path / "g.sqlite3"), "--count", "1"])
        assert run(args, stdin=io.StringIO("1\n"), clock=lambda: T0) == 0
        monkeypatch.undo()
        assert os.fstat(fd).st_rdev == os.stat(os.devnull).st_rdev
        assert fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_WRONLY
    finally:
        os.close(fd)


def test_each_answer_is_explained_in_the_sittings_output(tmp_path: Path, capsys):
    out = _quiz(tmp_path / "w.sqlite3", "--count", "1", "--kinds", "name", "--language", "en", "--seed", "1",
                stdin=io.StringIO("1\n"))
    assert capsys.readouterr().out == ""  # nothing went to the process's own output
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(("✓ Right", "✗ Wrong")))
    assert lines[at + 1].startswith("  ") and ", level " in lines[at + 1]  # the explanation
    assert lines[at + 2].startswith("  next review ")


def test_exit_and_quit_end_a_sitting_too(tmp_path: Path):
    for word in ("exit", "quit", "QUIT"):
        out = _quiz(tmp_path / f"{word}.sqlite3", "--count", "2", "--kinds", "name", "--language", "en",
                    stdin=io.StringIO(f"{word}\n"))
        assert "not understood" not in out and "Done: 0/0 right." in out


class _Terminal(io.StringIO):
    """Output that remembers whether the prompt was flushed before the answer was read."""

    flushed = False

    def write(self, text: str) -> int:
        self.flushed = False
        return super().write(text)

    def flush(self) -> None:
        self.flushed = True


class _Keyboard:
    def __init__(self, out: _Terminal, answers: list[str]) -> None:
        self._out, self._answers, self.saw_prompt = out, answers, []

    def readline(self) -> str:
        self.saw_prompt.append(self._out.getvalue().endswith("> ") and self._out.flushed)
        return self._answers.pop(0) if self._answers else ""

    def isatty(self) -> bool:
        return True


def test_the_prompt_is_on_screen_before_the_answer_is_read(tmp_path: Path):
    args = build_parser().parse_args(["quiz", "--db", str(tmp_path / "t.sqlite3"), "--count", "2", "--kinds", "name"])
    out = _Terminal()
    keyboard = _Keyboard(out, ["1\n", "zebra\n", "q\n"])
    assert run(args, stdin=keyboard, stdout=out, clock=lambda: T0) == 0
    assert keyboard.saw_prompt == [True, True, True]


def test_stats_count_only_the_chosen_kinds(tmp_path: Path):
    from trainer.quiz.questions import ALL_ITEMS

    names = sum(item.startswith("name:") for item in ALL_ITEMS)
    stats = _quiz(tmp_path / "n.sqlite3", "--stats", "--kinds", "name", "--language", "en")
    assert stats.startswith(f"Items: {names} ({names} new, 0 learning, 0 in review)")


def test_reviews_a_day_and_a_half_ahead_round_to_two_days():
    assert _until(T0 + timedelta(days=1.5), T0, "en") == "in 2 d"
    assert _until(T0 + timedelta(days=1.4), T0, "fr") == "dans 1 j"


def test_the_quiz_command_is_listed_with_what_it_does(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    top = " ".join(capsys.readouterr().out.split())
    assert "quiz learn the cards and signs with a spaced-repetition quiz (FSRS)" in top


def test_several_kinds_are_chosen_with_commas(tmp_path: Path):
    stats = _quiz(tmp_path / "m.sqlite3", "--stats", "--all", "--kinds", "name,group", "--language", "en")
    kinds = {line.split(":")[0] for line in stats.splitlines()[2:] if ":" in line.split()[0]}
    assert kinds == {"name", "group"}


def test_reset_forgets_the_whole_profile_and_succeeds(tmp_path: Path):
    db = tmp_path / "z.sqlite3"
    _answer(db, "name:3D", True)
    _answer(db, "group:9C", True)
    assert _quiz(db, "--reset") == f"forgot 2 items of profile 'default' in {db}\n"
    assert "name:3D" not in _quiz(db, "--stats", "--language", "en")
