"""``aluette play`` at every table size and preset, with its table settings, driven over stdin:
each game played to the end and checked against the engine's own record, a saved game of each size
resumed with the settings it was played with, and relative announcements typed after a sign.

Seeded, with the quick ``simple`` bots: the nine whole games take about 2 s together."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import trainer.terminal as terminal
from trainer.bots.table_setup import TableSettings, seat_names
from trainer.rules.ruleset import PRESETS
from trainer.signals.table import VIGILANCE_LEVELS

REPO = Path(__file__).resolve().parents[2]


def _play(settings: TableSettings, seed: int, lines: str, monkeypatch, *, save: str | None = None,
          resume=None) -> tuple[str, object]:
    tables = []
    make = terminal._make_table

    def keep(*args, **kwargs):
        table, chosen = make(*args, **kwargs)
        tables.append(table)
        return table, chosen

    monkeypatch.setattr(terminal, "_make_table", keep)
    out = io.StringIO()
    ruleset = resume.ruleset if resume is not None else settings.ruleset
    assert terminal.play(ruleset, seed, None, io.StringIO(lines), out, save=save, resume=resume,
                         settings=settings) == 0
    return out.getvalue(), tables[0]


@pytest.mark.parametrize("players", (3, 4, 6))
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_and_table_size_plays_to_the_end(players, preset, monkeypatch):
    settings = TableSettings(players=players, preset=preset, partner="simple", opponents="simple")
    text, table = _play(settings, 1, "1\n" * 5000, monkeypatch)
    game = table.game
    assert game.is_over and game.ruleset.player_count == players and game.ruleset.name == preset
    names = [terminal.seat_name(s, players) for s in range(players)]
    # Every trick told, in order, with its winner named as the person's table names it.
    tricks = [t for r in game.results for t in r.tricks]
    told = re.findall(r"Trick \d+ (?:goes to (.+?)\.|is spoiled)", text)
    assert told == ["" if t.winner is None else names[t.winner] for t in tricks]
    # Each deal holds the size's number of cards per hand, and the seats' compass names.
    assert all(len(r.tricks) == settings.ruleset.tricks_per_deal for r in game.results if r.tricks)
    assert f"Table: {settings.summary()}." in text
    for name in seat_names(players)[1:]:
        assert name in text
    assert f"Final score {' - '.join(map(str, game.outcome.scores))} ===" in text
    assert text.count("--- Score: ") == len(game.results)


def test_the_table_is_introduced_with_partners_for_its_size(monkeypatch):
    six, _ = _play(TableSettings(players=6, partner="simple", opponents="simple"), 2, "q\n", monkeypatch)
    assert "your partner North (seat 3) faces you" in six
    assert "(South-West and North-East, North-West and South-East in pairs)" in six
    three, _ = _play(TableSettings(players=3, opponents="simple"), 2, "s borgne\na au-dessus\nq\n", monkeypatch)
    assert "everybody plays alone: West (1) and East (2) play against you" in three
    assert "no partner to sign to" in three and "no partner to tell your cards to" in three


@pytest.mark.parametrize("players", (3, 4, 6))
def test_a_saved_game_of_each_size_resumes_with_its_settings(players, tmp_path, monkeypatch):
    settings = TableSettings(players=players, preset="pagat", vigilance="hawk", lies=True,
                             partner="random", opponents="simple")
    target = tmp_path / f"game{players}.json"
    _, first = _play(settings, 9, "1\n" * 25 + "q\n", monkeypatch, save=str(target))
    saved = json.loads(target.read_text())
    assert saved["table"] == settings.to_json()
    game, restored = terminal.load_for_resume(str(target))
    assert restored == settings and game.history == first.game.history and not game.is_over
    text, second = _play(restored, game.seed, "1\n" * 5000, monkeypatch, resume=game)
    assert f"Resumed: deal {first.game.deal_number}," in text
    assert second.game.is_over and second.game.history[:len(first.game.history)] == first.game.history
    # The resumed table is the one saved: size, vigilance, lies and bots.
    assert second.players == players and second.vigilance == VIGILANCE_LEVELS["hawk"] and second.lying_allowed
    partner = settings.partner_seat
    assert [None if b is None else b.name for b in second.seats] == [
        None if s == 0 else "random" if s == partner else "simple" for s in range(players)]


def test_flags_set_the_table_and_are_shown_at_start(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "trainer.cli", "play", "--players", "6", "--preset", "english", "--seed", "3",
         "--vigilance", "blind", "--lies", "--partner", "search", "--opponents", "random",
         "--save", str(tmp_path / "six.json")],
        input="q\n", capture_output=True, text=True, cwd=REPO, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert ("Table: 6 players (english), vigilance blind, 3 'seen!' calls a deal, signs may lie, convention classic; "
            "partner search, opponents random.") in proc.stdout
    saved = json.loads((tmp_path / "six.json").read_text())
    assert saved["ruleset"]["players"] == 6 and saved["table"]["partner"] == "search"


def test_the_all_seeing_bot_is_never_offered():
    proc = subprocess.run([sys.executable, "-m", "trainer.cli", "play", "--partner", "oracle"],
                          input="", capture_output=True, text=True, cwd=REPO, timeout=120)
    assert proc.returncode == 2 and "invalid choice: 'oracle'" in proc.stderr
    with pytest.raises(ValueError, match="shown every hand"):
        TableSettings(opponents="oracle")


def _seed_holding(players: int, want) -> int:
    for seed in range(500):
        hand = TableSettings(players=players, partner="simple", opponents="simple").table(seed).game
        if hand.hand(0) and want(hand.hand(0)):
            return seed
    raise AssertionError("no seed found")


def test_a_lie_is_sent_only_when_the_table_allows_lies(monkeypatch):
    from trainer.rules.cards import Card

    seed = _seed_holding(4, lambda hand: Card.BORGNE not in hand)
    truthful, _ = _play(TableSettings(partner="simple", opponents="simple"), seed, "s borgne\nq\n", monkeypatch)
    assert "Cannot make that sign: your hand does not back le Borgne" in truthful and "--lies" in truthful
    lying, table = _play(TableSettings(lies=True, partner="simple", opponents="simple"), seed, "s borgne\nq\n",
                         monkeypatch)
    assert "You sign le Borgne / the One-eyed to your partner." in lying
    assert [t.event.truthful for t in table.history if t.event.seat == 0] == [False]


def test_announcements_after_a_sign_reach_the_partner_and_lies_are_refused(monkeypatch):
    """Holding an ace and a king: the ace sign, then 'en dessous' tells the king (RULES.md's example);
    the partner's knowledge then requires a king of the person. 'au-dessus' (a level-8 card the
    hand lacks) is refused and reaches nobody."""
    from trainer.bots.knowledge import knowledge_of
    from trainer.rules.cards import ACES, Card

    def ace_and_king_without_deux_d_ecrit(hand):
        return sum(c in ACES for c in hand) == 1 and any(c.level == 10 for c in hand) and Card.DEUX_D_ECRIT not in hand

    seed = _seed_holding(4, ace_and_king_without_deux_d_ecrit)
    text, table = _play(TableSettings(partner="heuristic", opponents="simple"), seed,
                        "a en dessous\ns as 1\na au-dessus\na en dessous\nq\n", monkeypatch)
    assert "Cannot announce that: make a sign first" in text
    assert ("Cannot announce that: after un as / an ace it names Deux d'écrit / Two of Writing, "
            "which you do not hold") in text
    assert "You tell your partner aloud: au-dessous (after un as / an ace: a king)." in text
    event = [t.event for t in table.history if t.event.seat == 0][-1]
    assert [a.french for a in event.announcements] == ["au-dessous"] and event.levels == (10,)
    knowledge = knowledge_of(table.view(2))
    mine = dict(knowledge.holdings)[0]
    kings = frozenset(c.index for c in Card if c.level == 10) - frozenset(c.index for c in table.game.hand(2))
    assert kings in [frozenset(s) for s in mine.some], mine
