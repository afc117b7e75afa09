"""``aluette quiz`` and ``aluette deck`` run in this process (the handler with its own stdin, stdout
and clock), so that what they print is checked where a planted bug in the CLI code is seen.
``test_quiz_cli.py`` drives the same commands as a user would, in a child process."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from trainer.cli import build_parser, main
from trainer.quiz.cli import _until
from trainer.quiz.memory import DOC_KIND, LOG_KIND, Progress
from trainer.quiz.texts import QuizError
from trainer.rules.cards import Card
from trainer.storage import Store

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=timezone.utc)


def _quiz(db: Path, *argv: str, stdin: str = "", now: datetime = T0) -> tuple[int, str]:
    args = build_parser().parse_args(["quiz", "--db", str(db), *argv])
    out = io.StringIO()
    code = args.run(args, stdin=io.StringIO(stdin), stdout=out, clock=lambda: now)
    return code, out.getvalue()


def _first_name_question(out: str) -> tuple[Card, list[str]]:
    block = out.split("[2/")[0]
    assert "What is this card called?" in block, block
    code = next(line.split()[0] for line in block.splitlines() if line.startswith("    ") and len(line.split()[0]) == 2)
    choices = [line.split(") ", 1)[1] for line in block.splitlines() if line.strip()[:2] in {"1)", "2)", "3)", "4)"}]
    return Card.parse(code), choices


def _answers(tmp_path: Path) -> tuple[Card, int, int]:
    """The first question of seed 4 (a card's name), its right and a wrong choice number."""
    _, look = _quiz(tmp_path / "look.sqlite3", "--count", "1", "--seed", "4", "--language", "en", stdin="q\n")
    card, choices = _first_name_question(look)
    assert len(choices) == 4
    right = next(i for i, text in enumerate(choices, 1) if card.name_in("fr") in text)
    wrong = next(i for i, text in enumerate(choices, 1) if card.name_in("fr") not in text)
    return card, right, wrong


def test_a_sitting_echoes_reasks_rates_and_saves(tmp_path: Path):
    card, right, _ = _answers(tmp_path)
    db = tmp_path / "q.sqlite3"
    code, out = _quiz(db, "--count", "5", "--seed", "4", "--language", "en", stdin=f"banana\n\n{right}\nquit\n")
    assert code == 0
    assert out.count("(Answer not understood: ") == 2
    assert "> banana\n" in out  # piped answers are shown as a terminal would
    assert "[1/5] " in out and "[2/5] " in out and "[3/5]" not in out
    # answered at once, so the fastest rating, named in the chosen language
    assert "✓ Right (easy)\n" in out
    with Store.open(db) as store:
        [record] = [e.record for e in store.records(LOG_KIND)]
    assert record["item"] == f"name:{card.code}" and record["correct"] is True and record["rating"] == "Easy"
    due = datetime.fromisoformat(record["due"])
    assert f"  next review {_until(due, T0, 'en')}\n" in out
    assert out.endswith(f"Done: 1/1 right.\nProgress saved in {db}.\n")


def test_a_wrong_answer_shows_the_right_one_and_counts_a_lapse(tmp_path: Path):
    card, _, wrong = _answers(tmp_path)
    db = tmp_path / "w.sqlite3"
    code, out = _quiz(db, "--count", "1", "--seed", "4", "--language", "en", stdin=f"{wrong}\n")
    assert code == 0
    line = next(line for line in out.splitlines() if line.startswith("✗ Wrong — the answer: "))
    assert card.name_in("fr") in line
    assert "  next review in 1 min\n" in out  # a lapse on a new item comes back at FSRS's first step
    assert out.endswith(f"Done: 0/1 right.\nProgress saved in {db}.\n")
    with Store.open(db) as store:
        [(key, doc)] = store.items(DOC_KIND)
    assert key == f"default/name:{card.code}" and doc["reviews"] == 1 and doc["lapses"] == 1


def test_french_and_italian_sittings_speak_their_language(tmp_path: Path):
    card, right, _ = _answers(tmp_path)
    _, fr = _quiz(tmp_path / "fr.sqlite3", "--count", "1", "--seed", "4", stdin=f"{right}\n")
    assert "✓ Juste (facile)\n" in fr and "Fin : 1/1 justes." in fr and "prochaine révision dans " in fr
    _, it = _quiz(tmp_path / "it.sqlite3", "--count", "1", "--seed", "4", "--language", "it", stdin="")
    assert it.rstrip().endswith(f"Fine: 0/0 giuste.\nProgressi salvati in {tmp_path / 'it.sqlite3'}.")


def test_end_of_input_ends_the_sitting_with_what_was_answered(tmp_path: Path):
    db = tmp_path / "eof.sqlite3"
    code, out = _quiz(db, "--count", "3", "--seed", "1", "--language", "en", stdin="1\n")
    assert code == 0
    assert "[2/3]" in out and "[3/3]" not in out
    assert out.endswith(f"> \nDone: {out.count('✓ Right')}/1 right.\nProgress saved in {db}.\n")


def test_nothing_to_review_says_when_the_next_review_is(tmp_path: Path):
    db = tmp_path / "n.sqlite3"
    code, out = _quiz(db, "--no-ahead", "--new", "0", "--language", "en")
    assert code == 0
    assert "Nothing to review now. Next review — (nothing yet)." in out
    assert "[1/" not in out
    # one lapse: due in a minute, so a minute later it is asked again, and before that nothing is due
    _quiz(db, "--count", "1", "--seed", "4", "--language", "en", stdin="9\n1\n")
    _, early = _quiz(db, "--no-ahead", "--new", "0", "--language", "en")
    _, soon = _quiz(db, "--no-ahead", "--new", "0", "--language", "en", now=T0 + timedelta(minutes=2), stdin="q\n")
    assert "Nothing to review now. Next review in 1 min." in early or "Next review in 10 min." in early
    assert "[1/10] " in soon


def test_ordering_questions_number_the_cards_and_ask_for_an_order(tmp_path: Path):
    _, out = _quiz(tmp_path / "o.sqlite3", "--kinds", "order", "--count", "1", "--seed", "2", "--language", "en",
                   stdin="q\n")
    assert "Type the numbers (or codes) strongest first" in out
    numbered = [line for line in out.splitlines() if line.startswith("    ") and line.strip()[:2] in {"1.", "2.", "3."}]
    assert [line.split()[0] for line in numbered][:3] == ["1.", "2.", "3."]
    code = numbered[0].split()[1]
    assert numbered[0].endswith(Card.parse(code).english)
    assert "Type a number (or the name)" not in out


def test_name_questions_show_the_plain_name_in_each_language(tmp_path: Path):
    for language, attribute in (("en", "english"), ("fr", "french"), ("it", "italian")):
        _, out = _quiz(tmp_path / f"{language}.sqlite3", "--count", "1", "--seed", "4", "--language", language,
                       stdin="q\n")
        shown = next(line for line in out.splitlines() if line.startswith("    "))
        card = Card.parse(shown.split()[0])
        assert shown == f"    {card.code}  {getattr(card, attribute)}"


def test_stats_list_the_seen_items_and_with_all_the_new_ones(tmp_path: Path):
    card, right, wrong = _answers(tmp_path)
    db = tmp_path / "s.sqlite3"
    _quiz(db, "--count", "1", "--seed", "4", "--language", "en", stdin=f"{wrong}\n")
    code, out = _quiz(db, "--stats", "--language", "en")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == ("Items: 88 (87 new, 1 learning, 0 in review) · due now: 0 · within 24 h: 1 · "
                        "next: in 1 min")
    assert lines[1] == "mean forecast recall: 100%"
    assert lines[2].split() == ["item", "state", "due", "recall", "in", "7", "d", "seen", "lapses"]
    row = lines[3].split()
    assert row[:2] == [f"name:{card.code}", "learning"] and row[-2:] == ["1", "1"]
    assert row[-4] == "100%" and int(row[-3].rstrip("%")) < 100  # forgotten a week later
    assert len(lines) == 4  # new items only with --all
    _, every = _quiz(db, "--stats", "--all", "--language", "it")
    assert every.splitlines()[0].startswith("Elementi: 88 (87 nuovi, 1 in apprendimento, 0 in ripasso)")
    assert "richiamo previsto medio: 100%" in every
    assert f"{'trick:L19':<22} {'new':<11}" in every.splitlines()
    assert len(every.splitlines()) == 3 + 88
    _, later = _quiz(db, "--stats", "--language", "fr", now=T0 + timedelta(days=2))
    assert later.splitlines()[0].endswith("à revoir maintenant : 1 · dans les 24 h : 1 · prochaine : maintenant")


def test_reset_and_reset_item_report_what_they_forgot(tmp_path: Path):
    card, right, _ = _answers(tmp_path)
    db = tmp_path / "r.sqlite3"
    _quiz(db, "--count", "1", "--seed", "4", stdin=f"{right}\n")
    code, out = _quiz(db, "--reset-item", f"name:{card.code}", "--reset-item", "name:3D")
    assert code == 0
    assert out == f"forgot 1 of 2 item(s) of profile 'default' in {db}\n"
    _quiz(db, "--count", "1", "--seed", "4", "--profile", "bob", stdin=f"{right}\n")
    _, out = _quiz(db, "--reset", "--profile", "bob")
    assert out == f"forgot 1 items of profile 'bob' in {db}\n"
    with Store.open(db) as store:
        assert Progress(store, "bob").seen() == ()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--count", "0"), "--count 0 must be 1 or more"),
        (("--new", "-1"), "--new -1 must be 0 or more"),
        (("--reset-item", "name:ZZ"),
         "--reset-item 'name:ZZ' is not a quiz item: 'aluette quiz --stats --all' lists them"),
        (("--kinds", "colours"), "unknown question kind"),
    ],
)
def test_bad_options_are_clear_errors_and_save_nothing(tmp_path: Path, argv, message):
    db = tmp_path / "bad.sqlite3"
    with pytest.raises(QuizError) as raised:
        _quiz(db, *argv, stdin="1\n")
    assert message in str(raised.value)
    if db.exists():
        with Store.open(db) as store:
            assert store.count(LOG_KIND) == 0 and store.keys(DOC_KIND) == []


@pytest.mark.parametrize(
    ("ahead", "language", "text"),
    [
        (None, "en", "— (nothing yet)"),
        (None, "fr", "— (rien encore)"),
        (None, "it", "— (niente ancora)"),
        (timedelta(0), "en", "now"),
        (timedelta(seconds=-5), "fr", "maintenant"),
        (timedelta(0), "it", "adesso"),
        (timedelta(seconds=10), "en", "in 1 min"),
        (timedelta(minutes=10), "fr", "dans 10 min"),
        (timedelta(minutes=59, seconds=50), "en", "in 60 min"),
        (timedelta(hours=1), "en", "in 1 h"),
        (timedelta(hours=5, minutes=40), "it", "tra 6 h"),
        (timedelta(hours=23, minutes=59), "en", "in 24 h"),
        (timedelta(days=1), "en", "in 1 d"),
        (timedelta(days=3, hours=13), "fr", "dans 4 j"),
        (timedelta(days=12), "it", "tra 12 g"),
    ],
)
def test_how_far_ahead_a_review_is_in_words(ahead, language, text):
    assert _until(None if ahead is None else T0 + ahead, T0, language) == text


def test_deck_prints_one_card_or_writes_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    assert main(["deck", "2c", "--width", "90", "--no-hints"]) == 0
    root = ET.fromstring(capsys.readouterr().out)
    assert root.get("data-card") == "2C" and root.get("width") == "90"
    single = tmp_path / "one.svg"
    assert main(["deck", "3d", "--out", str(single)]) == 0
    assert capsys.readouterr().out == f"wrote {single}\n"
    assert ET.parse(single).getroot().get("data-card") == "3D"
    folder = tmp_path / "cards"
    assert main(["deck", "3d", "back", "vc", "--out", str(folder), "--width", "120"]) == 0
    assert capsys.readouterr().out == f"wrote 3 files in {folder}\n"
    assert sorted(p.name for p in folder.iterdir()) == ["3D.svg", "VC.svg", "back.svg"]
    assert ET.parse(folder / "back.svg").getroot().get("width") == "120"
    assert (folder / "VC.svg").read_text(encoding="utf-8").endswith("</svg>\n")


def test_deck_sheet_goes_to_stdout_or_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    assert main(["deck", "--language", "it"]) == 0
    printed = capsys.readouterr().out
    sheet = tmp_path / "sheet.svg"
    assert main(["deck", "--out", str(sheet), "--language", "it"]) == 0
    assert capsys.readouterr().out == f"wrote {sheet}\n"
    assert sheet.read_text(encoding="utf-8") == printed
    codes = {el.get("data-card") for el in ET.parse(sheet).getroot().iter("{http://www.w3.org/2000/svg}svg")}
    assert len(codes - {None}) == 48
