"""The ``aluette replay FILE`` contract, through a real subprocess (RULES.md "A deal", "Mordienne")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_rules_tricks import MORDIENNE_HANDS, MORDIENNE_PLAYS

from trainer.rules.replay import replay

REPO = Path(__file__).resolve().parents[2]


def run_replay(tmp_path: Path, data, *, raw: str | None = None, name: str = "deal.json"):
    path = tmp_path / name
    if raw is not None:
        path.write_text(raw)
    elif data is not None:
        path.write_text(json.dumps(data))
    proc = subprocess.run(
        [sys.executable, "-m", "trainer.cli", "replay", str(path)],
        capture_output=True, text=True, cwd=REPO, timeout=60,
    )
    return proc


def mordienne_file(**changes):
    data = {
        "preset": "vendee",
        "dealer": 3,
        "hands": [h.split() for h in MORDIENNE_HANDS],
        "plays": MORDIENNE_PLAYS.split(),
    }
    data.update(changes)
    return data


def test_finished_deal_with_mordienne(tmp_path):
    """RULES.md "Mordienne": West takes the last three tricks and nothing before: 2 points."""
    proc = run_replay(tmp_path, mordienne_file())
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert set(out) == {"tricks", "tricks_won", "deal_winner", "team", "points", "mordienne"}
    assert out["tricks_won"] == [2, 3, 2, 2]
    assert (out["deal_winner"], out["team"], out["points"], out["mordienne"]) == (1, 1, 2, True)
    assert out["tricks"][0] == {"leader": 0, "cards": ["2C", "3E", "7D", "6E"], "winner": 0}
    assert [t["leader"] for t in out["tricks"]] == [0, 0, 0, 2, 2, 3, 3, 1, 1]
    assert [t["winner"] for t in out["tricks"]] == [0, 0, 2, 2, 3, 3, 1, 1, 1]


def test_unfinished_deal_gives_next_leader(tmp_path):
    proc = run_replay(tmp_path, mordienne_file(plays=MORDIENNE_PLAYS.split()[:12]))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert set(out) == {"tricks", "tricks_won", "next_leader"}
    assert out["next_leader"] == 2 and out["tricks_won"] == [2, 0, 1, 0]


def test_no_plays_the_seat_after_the_dealer_leads(tmp_path):
    """RULES.md "A deal" 4."""
    proc = run_replay(tmp_path, mordienne_file(plays=[], dealer=1))
    out = json.loads(proc.stdout)
    assert out == {"tricks": [], "tricks_won": [0, 0, 0, 0], "next_leader": 2}


SPOIL_HANDS = [
    "AD 4D 4C 4B 4E 5D 5C 5B 5E",
    "AC 6D 6C 6B 6E 7D 7C 7B 7E",
    "AB 8D 8C 8B 8E VD VC VB VE",
    "3E 3B 9E 9B CD CC CB CE RD",
]


@pytest.mark.parametrize("preset, leader", [("vendee", 0), ("pagat", 0), ("english", 2)])
def test_preset_changes_the_lead_after_pourri(tmp_path, preset, leader):
    """RULES.md "A deal" 6: after AD AC AB (spoiled) the leader leads again, or the spoiler."""
    data = {"preset": preset, "dealer": 3, "hands": [h.split() for h in SPOIL_HANDS],
            "plays": ["AD", "AC", "AB", "3E"]}
    out = json.loads(run_replay(tmp_path, data).stdout)
    assert out["tricks"] == [{"leader": 0, "cards": ["AD", "AC", "AB", "3E"], "winner": None}]
    assert out["next_leader"] == leader and out["tricks_won"] == [0, 0, 0, 0]


TIE_HANDS = [
    "AD RD 6D 7C 8D 8B VD 3E 4E",
    "4D 5D 6C 7B 8C 8E VC 3B 5E",
    "4C 5C 2B 2E AC RC CC VB 9E",
    "4B 5B 6B 7D AB RB CB VE 9B",
]
TIE_PLAYS = (
    "AD 4D 4C 4B  RD 5D 5C 5B  6D 6C 2B 6B  2E 7D 7C 7B  AC AB 8D 8C  "
    "RC RB 8B 8E  CC CB VD VC  VB VE 3E 3B  9E 9B 4E 5E"
)


def test_whole_deal_scores_by_the_tie_break():
    """RULES.md "A deal" 8: South and North both take 2 tricks (the rest are spoiled); South
    reached 2 first and wins the deal (in-process replay of the same contract)."""
    data = {"preset": "vendee", "dealer": 3, "hands": [h.split() for h in TIE_HANDS],
            "plays": TIE_PLAYS.split()}
    out = replay(data)
    assert [t["winner"] for t in out["tricks"]] == [0, 0, 2, 2, None, None, None, None, None]
    assert out["tricks_won"] == [2, 0, 2, 0]
    assert (out["deal_winner"], out["team"], out["points"], out["mordienne"]) == (0, 0, 1, False)


@pytest.mark.parametrize(
    "change, fragment",
    [
        (lambda d: d["plays"].__setitem__(0, "3C"), "not in the hand of seat 0"),
        (lambda d: d["plays"].__setitem__(4, "2C"), "played twice"),
        (lambda d: d["plays"].__setitem__(1, "ZZ"), "ZZ"),
        (lambda d: d["hands"][2].__setitem__(0, "11X"), "11X"),
        (lambda d: d["hands"][1].pop(), "seat 1 must hold 9 cards"),
        (lambda d: d["hands"].pop(), "list of 4 hands"),
        (lambda d: d["hands"][3].__setitem__(0, "2C"), "dealt twice"),
        (lambda d: d.update(preset="belote"), "belote"),
        (lambda d: d.update(dealer=4), "dealer"),
        (lambda d: d.update(plays=d["plays"][:6]), "whole tricks"),
        (lambda d: d.update(plays=d["plays"] + ["3D"] * 4), "only 36"),
    ],
)
def test_bad_input_exits_non_zero_naming_the_problem(tmp_path, change, fragment):
    data = mordienne_file()
    change(data)
    proc = run_replay(tmp_path, data)
    assert proc.returncode != 0
    assert fragment in proc.stderr, proc.stderr
    assert proc.stdout == ""


def test_bad_json_and_missing_file(tmp_path):
    proc = run_replay(tmp_path, None, raw="{\"preset\": ")
    assert proc.returncode != 0 and "not valid JSON" in proc.stderr
    proc = run_replay(tmp_path, None, name="missing.json")
    assert proc.returncode != 0 and "does not exist" in proc.stderr
    proc = run_replay(tmp_path, None, raw="[1, 2]")
    assert proc.returncode != 0 and "JSON object" in proc.stderr


def test_all_spoiled_deal_has_no_winner(tmp_path):
    """RULES.md "A deal" 8: nobody took a trick -> deal_winner and team null, 0 points."""
    from test_rules_tricks import ALL_SPOILED_HANDS

    hands = [h.split() for h in ALL_SPOILED_HANDS]
    plays = [hands[seat][trick] for trick in range(9) for seat in range(4)]
    proc = run_replay(tmp_path, {"preset": "vendee", "dealer": 3, "hands": hands, "plays": plays})
    out = json.loads(proc.stdout)
    assert out["tricks_won"] == [0, 0, 0, 0]
    assert (out["deal_winner"], out["team"], out["points"], out["mordienne"]) == (None, None, 0, False)
    assert all(t["winner"] is None and t["leader"] == 0 for t in out["tricks"])
