"""``aluette play``: a full game in the terminal driven by scripted input (RULES.md "A game")."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from trainer.rules.ruleset import Ruleset
from trainer.terminal import play

REPO = Path(__file__).resolve().parents[2]


def run(lines: str, seed: int = 3, preset: str = "vendee", bot: str | None = "simple") -> tuple[int, str]:
    out = io.StringIO()
    code = play(Ruleset.preset(preset), seed, bot, io.StringIO(lines), out)
    return code, out.getvalue()


def test_full_game_to_the_end_with_card_names_and_scores():
    code, text = run("1\n" * 3000, seed=3, bot="random")
    assert code == 0
    assert "Game over" in text and "Final score" in text
    assert "Monsieur / Mister" in text or "la Vache / the Cow" in text or "Madame / Mistress" in text
    assert "Trick 1 goes to" in text or "Trick 1 is spoiled" in text
    assert "--- Score:" in text


def test_bad_input_is_asked_again_and_eof_leaves_cleanly():
    code, text = run("banana\n0\n99\nZZ\n?\n")
    assert code == 0
    assert text.count("is not one of the choices") == 4
    assert "Type the number of your choice" in text
    assert text.rstrip().endswith("End of input: leaving the game.")


def test_card_codes_are_accepted_and_quit_works():
    # Play the strongest card by code at every card prompt, answer the rest by number.
    out = io.StringIO()

    class Lines(io.StringIO):
        def readline(self, *args):
            text = out.getvalue()
            last = text.rsplit("play a card:", 1)
            if len(last) == 2 and "\n>" not in last[1]:
                code = last[1].split("\n")[1].split()[1]
                return code.lower() + "\n"
            return "1\n"

    code = play(Ruleset(), 5, "simple", Lines(), out)
    assert code == 0 and "Game over" in out.getvalue()
    code, text = run("q\n")
    assert code == 0 and "You leave the table." in text


def test_aluette_play_command_runs(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "trainer.cli", "play", "--seed", "4", "--bot", "random"],
        input="1\n" * 3000, capture_output=True, text=True, cwd=REPO, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Game over" in proc.stdout


def test_random_keyboard_input_never_crashes():
    """Any mix of numbers, letters, codes and junk: the game re-asks and still ends."""
    import random

    tokens = ["1", "2", "3", "9", "y", "n", "p", "m", "g", "3d", "2c", "zz", "", "?", "0", "-1", " 1 ", "15"]
    for preset in ("vendee", "pagat", "english"):
        rng = random.Random(preset)
        lines = "\n".join(rng.choice(tokens) for _ in range(4000)) + "\n"
        code, text = run(lines, seed=len(preset), preset=preset, bot="random")
        assert code == 0
        assert "Game over" in text or text.rstrip().endswith("leaving the game.")


def test_signing_to_the_partner_from_the_terminal():
    """RULES.md "Signs": the user signs with 's NAME'; a sign the hand does not back is refused
    (signs are truthful by default) and the game goes on."""
    code, text = run("s vache\ns borgne\ns nonsense\n1\nq\n", seed=3, bot="heuristic")
    assert code == 0
    assert "You sign la Vache / the Cow to your partner." in text  # seed 3: South holds 2C
    assert "Cannot make that sign" in text and text.count("Cannot make that sign") == 2


def test_play_saves_the_game_that_loads_back(tmp_path):
    from trainer.rules.saves import load_game

    target = tmp_path / "game.json"
    out = io.StringIO()
    code = play(Ruleset(), 8, "simple", io.StringIO("1\n" * 40 + "q\n"), out, save=str(target))
    assert code == 0 and f"Game saved to {target}" in out.getvalue()
    game = load_game(target)
    assert game.seed == 8 and len(game.history) > 40
    assert game.copy() == game


def test_the_terminal_tells_every_trick_deal_and_hand_from_the_games_events(tmp_path):
    """The narration (events through TerminalPhrases) matches the saved game: each trick told once
    with its winner, each deal's score line with the running totals, the person's own hand only."""
    from trainer.rules.game import DealEnd
    from trainer.rules.saves import load_game
    from trainer.terminal import seat_name

    target = tmp_path / "game.json"
    out = io.StringIO()
    play(Ruleset.preset("pagat"), 6, "random", io.StringIO("1\n" * 3000), out, save=str(target))
    text, game = out.getvalue(), load_game(target)
    assert game.is_over
    told = [line.strip() for line in text.splitlines()
            if line.strip().startswith("Trick ") and ("goes to" in line or "spoiled" in line)]
    expected = [
        f"Trick {t.number} is spoiled (pourri): equal highest cards; nobody wins it." if t.winner is None
        else f"Trick {t.number} goes to {seat_name(t.winner)}."
        for r in game.results for t in r.tricks
    ]
    assert told == expected
    totals = [0, 0]
    scores = [line for line in text.splitlines() if line.startswith("--- Score:")]
    assert len(scores) == len(game.results)
    for line, result in zip(scores, game.results, strict=False):
        totals = [a + b for a, b in zip(totals, result.points, strict=False)]
        assert line.startswith(f"--- Score: your team {totals[0]}, opponents {totals[1]}")
    assert text.count("--- Deal ") == sum(r.end is DealEnd.PLAYED for r in game.results)
    from trainer.rules.actions import Deal

    lines = text.splitlines()
    dealt = [lines[i + 1] for i, line in enumerate(lines) if line.startswith("=== Deal ")]
    deals = [a for a in game.history if isinstance(a, Deal)]
    # The hand in words, French names first, never in codes ("3C 9D RB…").
    assert dealt == ["Your hand: " + ", ".join(
        c.name_in("fr") if c.name_in("en") == c.name_in("fr") else f"{c.name_in('fr')} ({c.name_in('en')})"
        for c in sorted(d.hands[0], key=lambda c: c.index)) for d in deals]
    assert not [line for line in dealt if any(f" {c.value}" in line for d in deals for c in d.hands[0])]
