"""``aluette play``: the opponents' signs only when caught, and ``--resume FILE`` (a damaged or
missing file refused with the reason, the file left as it was). Driven over stdin."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

from trainer.rules.ruleset import Ruleset
from trainer.rules.saves import load_game
from trainer.terminal import _make_table, play

REPO = Path(__file__).resolve().parents[2]


def _aluette(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "trainer.cli", "play", *args], input=stdin,
                          capture_output=True, text=True, cwd=REPO, timeout=120)


def test_opponents_signs_are_shown_only_when_caught(monkeypatch):
    """Every opponent sign the table made: printed if and only if South caught it."""
    import trainer.terminal as terminal

    tables = []

    def keep(*args, **kwargs):
        table, name = _make_table(*args, **kwargs)
        tables.append(table)
        return table, name

    monkeypatch.setattr(terminal, "_make_table", keep)
    out = io.StringIO()
    assert play(Ruleset(), 21, "heuristic", io.StringIO("1\n" * 3000), out) == 0
    text = out.getvalue()
    history = tables[0].history
    opponents = [t.event for t in history if t.event.seat in (1, 3)]
    caught = [e for e in opponents if 0 in e.caught_by]
    assert caught and len(caught) < len(opponents), "the seed must give both caught and uncaught signs"
    printed = re.findall(r"\[sign\] You caught (West|East)'s sign: ", text)
    assert len(printed) == len(caught)
    assert [("West", "East")[e.seat == 3] for e in caught] == printed
    # No other line shows an opponent's sign; the partner's are all shown.
    assert not re.search(r"\[sign\] (West|East) signs", text)
    partner = [t.event for t in history if t.event.seat == 2]
    assert text.count("[sign] North (partner) signs to you: ") == len(partner) > 0


def test_a_lie_is_refused_in_plain_words():
    out = io.StringIO()
    play(Ruleset(), 3, "heuristic", io.StringIO("s borgne\nq\n"), out)  # seed 3: South has no 2D
    text = out.getvalue()
    assert "Cannot make that sign: your hand does not back le Borgne / the One-eyed" in text
    refusal = next(line for line in text.splitlines() if "Cannot make that sign" in line)
    assert "seat 0" not in refusal and "settings" not in refusal


def test_resume_goes_on_from_the_saved_moment_and_saves_back(tmp_path):
    target = tmp_path / "game.json"
    first = _aluette("--seed", "8", "--bot", "heuristic", "--save", str(target), stdin="1\n" * 30 + "q\n")
    assert first.returncode == 0, first.stderr
    saved = load_game(target)
    second = _aluette("--resume", str(target), stdin="1\n" * 20 + "q\n")
    assert second.returncode == 0, second.stderr
    assert f"Resumed: deal {saved.deal_number}," in second.stdout
    assert f"{len(saved.history)} moves so far" in second.stdout
    # Nothing of the first sitting is told again: the game goes on from where it was.
    assert "first" not in second.stdout.split("Resumed:")[1].split("\n")[0]
    assert f"Game saved to {target}" in second.stdout
    after = load_game(target)
    assert after.history[: len(saved.history)] == saved.history and len(after.history) > len(saved.history)
    assert after.signals[: len(saved.signals)] == saved.signals


def test_resume_refuses_a_missing_or_damaged_file_and_leaves_it_untouched(tmp_path):
    missing = tmp_path / "nope.json"
    proc = _aluette("--resume", str(missing), stdin="1\n")
    assert proc.returncode == 2
    assert f"cannot resume: {missing} does not exist" in proc.stderr
    assert not missing.exists()

    damaged = tmp_path / "damaged.json"
    good = _aluette("--seed", "8", "--bot", "simple", "--save", str(damaged), stdin="1\n" * 10 + "q\n")
    assert good.returncode == 0, good.stderr
    content = damaged.read_bytes()[:-40]  # a save cut short, as by a full disk
    damaged.write_bytes(content)
    proc = _aluette("--resume", str(damaged), stdin="1\n" * 5)
    assert proc.returncode == 2
    assert f"cannot resume: {damaged} is damaged, it is not JSON" in proc.stderr
    assert "left as it is" in proc.stderr and "Traceback" not in proc.stderr
    assert damaged.read_bytes() == content

    other = tmp_path / "other.json"
    other.write_text('{"format": "something else"}', encoding="utf-8")
    proc = _aluette("--resume", str(other))
    assert proc.returncode == 2 and "is not a game this version can replay" in proc.stderr
    assert other.read_text(encoding="utf-8") == '{"format": "something else"}'


def test_deal_summaries_name_who_answered_for_which_team():
    from trainer.rules.game import Contract, DealEnd, DealResult
    from trainer.terminal import deal_summary

    declined = DealResult(1, 0, False, DealEnd.MORDIENNE_DECLINED, (), (0, 0, 0, 0), None, False, (0, 1),
                          Contract.NORMAL, 1)
    text = deal_summary(declined)
    assert text.startswith("West announced mordienne; North (partner) declined for your team (you were not asked")
    assert text.endswith("The deal is not played. The opponents score 1.") and "seat" not in text
    # Over whole games, no summary speaks of seats by number.
    played = io.StringIO()
    play(Ruleset(), 6, "heuristic", io.StringIO("1\n" * 3000), played)
    summaries = [line for line in played.getvalue().splitlines() if line.startswith("--- ") and "Score" not in line
                 and "over. Tricks" not in line]
    assert summaries and not any("seat" in line or "team 0" in line for line in summaries)
