"""``aluette quiz`` driven as a user would: a real process, answers on stdin."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from trainer.quiz.memory import LOG_KIND
from trainer.storage import DB_NAME, Store


def _quiz(*args: str, stdin: str = "", env_home: Path | None = None) -> subprocess.CompletedProcess:
    env = None
    if env_home is not None:
        import os

        env = dict(os.environ, ALUETTE_HOME=str(env_home))
    return subprocess.run(
        [sys.executable, "-m", "trainer.cli", "quiz", *args],
        input=stdin, capture_output=True, text=True, timeout=60, env=env,
    )


def test_a_sitting_reasks_bad_input_and_saves_every_answer(tmp_path: Path):
    db = tmp_path / "q.sqlite3"
    answers = "banana\n\n0\n1\n2\nq\n"
    result = _quiz("--db", str(db), "--count", "5", "--seed", "4", "--language", "en", stdin=answers)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.count("Answer not understood") == 3
    assert "[3/5]" in out and "[4/5]" not in out  # q at the third question ends the sitting
    assert "Done: " in out and str(db) in out
    with Store.open(db) as store:
        records = [e.record for e in store.records(LOG_KIND)]
    assert len(records) == 2
    assert out.count("✓ Right") + out.count("✗ Wrong") == 2
    # The verdicts, judged apart from what the quiz wrote: the first question shows a card and asks
    # its name; typing "1" picked the choice printed as 1), right only if that is the card's name.
    card, choices = _first_name_question(out)
    typed = choices[0]
    assert records[0]["item"] == f"name:{card.code}"
    assert records[0]["correct"] is (card.name_in("fr") in typed)


def _first_name_question(out: str):
    """The card and the printed choices of the first question, which must ask a card's name."""
    from trainer.rules.cards import Card

    block = out.split("[2/")[0]
    assert "What is this card called?" in block, block
    code = next(line.split()[0] for line in block.splitlines() if line.startswith("    ") and len(line.split()[0]) == 2)
    choices = [line.split(") ", 1)[1] for line in block.splitlines() if line.strip()[:2] in {"1)", "2)", "3)", "4)"}]
    return Card.parse(code), choices


def test_a_right_answer_is_saved_as_right_and_a_wrong_one_as_wrong(tmp_path: Path):
    """The saved verdict against the card's name from the rules (RULES.md: 3D is Monsieur), not
    against another field the quiz wrote."""
    look = _quiz("--db", str(tmp_path / "look.sqlite3"), "--count", "1", "--seed", "4", "--language", "en", stdin="q\n")
    card, choices = _first_name_question(look.stdout)
    right = next(i for i, text in enumerate(choices, 1) if card.name_in("fr") in text)
    wrong = next(i for i, text in enumerate(choices, 1) if card.name_in("fr") not in text)
    for typed, verdict in ((right, True), (wrong, False)):
        db = tmp_path / f"{typed}.sqlite3"
        result = _quiz("--db", str(db), "--count", "1", "--seed", "4", "--language", "en", stdin=f"{typed}\n")
        assert result.returncode == 0, result.stderr
        with Store.open(db) as store:
            [record] = [e.record for e in store.records(LOG_KIND)]
            [(key, doc)] = store.items("quiz.item")
        assert record["item"] == key.split("/", 1)[1] == f"name:{card.code}"
        assert record["correct"] is verdict and (record["rating"] == "Again") is not verdict
        assert doc["reviews"] == 1 and doc["lapses"] == (0 if verdict else 1)


def test_end_of_input_exits_cleanly_and_stats_show_the_forecast(tmp_path: Path):
    result = _quiz("--count", "8", "--seed", "1", stdin="1\n", env_home=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Fin : " in result.stdout and "Traceback" not in result.stderr
    assert (tmp_path / DB_NAME).is_file()
    stats = _quiz("--stats", "--language", "en", env_home=tmp_path)
    assert stats.returncode == 0, stats.stderr
    assert "Items: 88 (87 new" in stats.stdout
    assert "name:3D" in stats.stdout and "recall" in stats.stdout
    italian = _quiz("--stats", "--language", "it", "--all", env_home=tmp_path)
    assert "trick:L19" in italian.stdout and "richiamo" in italian.stdout


def test_kinds_filter_and_ordering_answers(tmp_path: Path):
    db = tmp_path / "order.sqlite3"
    result = _quiz("--db", str(db), "--kinds", "order", "--count", "2", "--seed", "2", "--language", "en",
                   stdin="1 1 1\n1 2 3 4\n4 3 2 1\n")
    assert result.returncode == 0, result.stderr
    assert "strength order" in result.stdout and "Answer not understood" in result.stdout
    with Store.open(db) as store:
        assert {e.record["kind"] for e in store.records(LOG_KIND)} == {"order"}


def test_a_bad_database_file_is_refused_and_left_alone(tmp_path: Path):
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database\n", encoding="utf-8")
    result = _quiz("--db", str(notes), "--count", "1", stdin="1\n")
    assert result.returncode == 2
    assert str(notes) in result.stderr and "untouched" in result.stderr
    assert notes.read_text(encoding="utf-8") == "not a database\n"
    bad = _quiz("--db", str(tmp_path / "x.db"), "--kinds", "colours")
    assert bad.returncode == 2 and "unknown question kind" in bad.stderr


def test_reset_forgets_only_this_profile(tmp_path: Path):
    db = str(tmp_path / "r.sqlite3")
    assert _quiz("--db", db, "--count", "1", "--seed", "0", stdin="1\n").returncode == 0
    assert _quiz("--db", db, "--count", "1", "--profile", "bob", stdin="1\n").returncode == 0
    reset = _quiz("--db", db, "--reset")
    assert reset.returncode == 0 and "forgot 1 items" in reset.stdout
    with Store.open(db) as store:
        assert [key.split("/")[0] for key in store.keys("quiz.item")] == ["bob"]
        assert store.count(LOG_KIND) == 2  # the log of answers is append-only


def test_deck_command_writes_cards_and_the_sheet(tmp_path: Path):
    import xml.etree.ElementTree as ET

    one = subprocess.run([sys.executable, "-m", "trainer.cli", "deck", "2c", "--width", "90", "--no-hints"],
                         capture_output=True, text=True, timeout=60)
    assert one.returncode == 0, one.stderr
    root = ET.fromstring(one.stdout)
    assert root.get("data-card") == "2C" and root.get("width") == "90"
    sheet = tmp_path / "sheet.svg"
    made = subprocess.run([sys.executable, "-m", "trainer.cli", "deck", "--out", str(sheet), "--language", "it"],
                          capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    codes = {el.get("data-card") for el in ET.parse(sheet).getroot().iter("{http://www.w3.org/2000/svg}svg")}
    assert len(codes - {None}) == 48
    bad = subprocess.run([sys.executable, "-m", "trainer.cli", "deck", "ZZ"], capture_output=True, text=True,
                         timeout=60)
    assert bad.returncode == 2 and "unknown card code" in bad.stderr
