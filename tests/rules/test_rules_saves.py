"""Save/load (JSON), the playthrough text and the golden playthroughs in samples/playthroughs/."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rules_helpers import GOLDEN_GAMES, golden_game, random_game

from trainer.rules.errors import SaveFormatError
from trainer.rules.ruleset import PRESETS, Players, Ruleset
from trainer.rules.saves import (
    dumps_game,
    format_playthrough,
    game_to_json,
    load_game,
    loads_game,
    parse_playthrough,
    save_game,
)

GOLDEN_DIR = Path(__file__).resolve().parents[2] / "samples" / "playthroughs"


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(sorted(PRESETS)), st.sampled_from(list(Players)),
    st.integers(min_value=0, max_value=10**6), st.integers(min_value=0, max_value=300),
)
def test_save_load_round_trip(name, players, seed, steps):
    game = random_game(Ruleset.preset(name, players=players), seed, steps)
    if not game.is_over and game.to_move is not None:
        game.record_signal(game.to_move, "VACHE", [0])
    loaded = loads_game(dumps_game(game))
    assert loaded == game
    assert loaded.legal_actions() == game.legal_actions()
    assert loaded.view(0) == game.view(0)


def test_save_is_atomic_and_loads_back(tmp_path):
    game = random_game(Ruleset(), 4, 60)
    target = tmp_path / "games" / "one.json"
    save_game(game, target)
    assert load_game(target) == game
    assert [p.name for p in target.parent.iterdir()] == ["one.json"]  # no temporary file left
    # Saving over an existing file replaces it whole.
    game.apply(game.legal_actions()[0])
    save_game(game, target)
    assert load_game(target) == game


def test_failed_write_leaves_the_old_file(tmp_path, monkeypatch):
    game = random_game(Ruleset(), 4, 30)
    target = tmp_path / "g.json"
    save_game(game, target)
    original = target.read_text()

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    game.apply(game.legal_actions()[0])
    with pytest.raises(OSError):
        save_game(game, target)
    assert target.read_text() == original
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]


@pytest.mark.parametrize(
    "mutate, fragment",
    [
        (lambda d: d.update(format="chess"), "not an Aluette save"),
        (lambda d: d.update(version=99), "version 99"),
        (lambda d: d.pop("seed"), "no 'seed'"),
        (lambda d: d["ruleset"].update(players=5), "ruleset"),
        (lambda d: d["actions"].append("play ZZ"), "ZZ"),
        (lambda d: d["actions"].insert(3, "vote maybe"), "action 4"),
        (lambda d: d.update(actions="nope"), "must be lists"),
        (lambda d: d["signals"].append({"seat": 0}), "signal 1"),
    ],
)
def test_bad_save_files_raise_save_format_error(mutate, fragment):
    data = game_to_json(random_game(Ruleset(), 2, 40))
    mutate(data)
    with pytest.raises(SaveFormatError, match=fragment):
        loads_game(json.dumps(data))


def test_unreadable_files(tmp_path):
    with pytest.raises(SaveFormatError, match="does not exist"):
        load_game(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(SaveFormatError, match="not valid JSON"):
        load_game(bad)


@pytest.mark.parametrize("name", sorted(GOLDEN_GAMES))
def test_golden_playthroughs_replay_identically(name):
    """Each golden file parses back to a game that prints the same text, and the engine still
    plays the same game from the same seed and choices."""
    text = (GOLDEN_DIR / f"{name}.txt").read_text()
    game = parse_playthrough(text)
    assert format_playthrough(game) == text
    assert format_playthrough(golden_game(name)) == text


def test_golden_playthroughs_show_the_rules():
    """The goldens cover chant, discards, pourri, a given-up deal, signals and a game end."""
    texts = "\n".join(p.read_text() for p in GOLDEN_DIR.glob("*.txt"))
    for needle in ("Everyone agrees: chant", "discards", "spoiled (pourri)", "gave the deal up",
                   "signal {", "Game over", "reached", "took the most tricks"):
        assert needle in texts, needle


def test_playthrough_rejects_other_text():
    with pytest.raises(SaveFormatError, match="first line"):
        parse_playthrough("hello\n")
