"""The ``aluette replay FILE`` contract in this process, through ``replay_file``: the whole output
object and every error message exactly (outside checks read them; the module says "keep it exact").

``test_rules_replay_cli.py`` runs the same contract through a real subprocess, where a planted bug
in trainer/rules/replay.py cannot be seen by mutation testing; these tests can (docs/mutation.md).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_rules_replay_cli import SPOIL_HANDS, mordienne_file
from test_rules_tricks import MORDIENNE_PLAYS

from trainer.rules.cards import CARDS
from trainer.rules.replay import ReplayError, replay_file


def _replay(tmp_path: Path, data) -> dict:
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return replay_file(str(path))


def _refused(tmp_path: Path, data) -> str:
    with pytest.raises(ReplayError) as raised:
        _replay(tmp_path, data)
    return str(raised.value)


def test_a_finished_mordienne_deal_gives_the_whole_output(tmp_path):
    plays = MORDIENNE_PLAYS.split()
    leaders = [0, 0, 0, 2, 2, 3, 3, 1, 1]
    winners = [0, 0, 2, 2, 3, 3, 1, 1, 1]
    assert _replay(tmp_path, mordienne_file()) == {
        "tricks": [
            {"leader": leader, "cards": plays[4 * k:4 * k + 4], "winner": winner}
            for k, (leader, winner) in enumerate(zip(leaders, winners, strict=False))
        ],
        "tricks_won": [2, 3, 2, 2],
        "deal_winner": 1, "team": 1, "points": 2, "mordienne": True,
    }


def test_an_unfinished_deal_says_who_leads_next(tmp_path):
    out = _replay(tmp_path, mordienne_file(plays=MORDIENNE_PLAYS.split()[:12]))
    assert out == {
        "tricks": [
            {"leader": 0, "cards": ["2C", "3E", "7D", "6E"], "winner": 0},
            {"leader": 0, "cards": ["9C", "3B", "7C", "8E"], "winner": 0},
            {"leader": 0, "cards": ["5D", "4E", "9D", "VD"], "winner": 2},
        ],
        "tricks_won": [2, 0, 1, 0],
        "next_leader": 2,
    }
    # No plays: the seat after the dealer leads; the preset defaults to vendee.
    data = mordienne_file(plays=[], dealer=2)
    del data["preset"]
    assert _replay(tmp_path, data) == {"tricks": [], "tricks_won": [0, 0, 0, 0], "next_leader": 3}


@pytest.mark.parametrize("preset, leader", [("vendee", 0), ("english", 2)])
def test_the_preset_decides_who_leads_after_a_spoiled_trick(tmp_path, preset, leader):
    data = {"preset": preset, "dealer": 3, "hands": [h.split() for h in SPOIL_HANDS],
            "plays": ["AD", "AC", "AB", "3E"]}
    assert _replay(tmp_path, data) == {
        "tricks": [{"leader": 0, "cards": ["AD", "AC", "AB", "3E"], "winner": None}],
        "tricks_won": [0, 0, 0, 0],
        "next_leader": leader,
    }


def test_an_all_spoiled_deal_has_no_winner_team_or_points(tmp_path):
    from test_rules_tricks import ALL_SPOILED_HANDS

    hands = [h.split() for h in ALL_SPOILED_HANDS]
    plays = [hands[seat][trick] for trick in range(9) for seat in range(4)]
    out = _replay(tmp_path, {"preset": "vendee", "dealer": 3, "hands": hands, "plays": plays})
    assert (out["deal_winner"], out["team"], out["points"], out["mordienne"]) == (None, None, 0, False)
    assert out["tricks_won"] == [0, 0, 0, 0] and "next_leader" not in out


def _with(change):
    data = mordienne_file()
    change(data)
    return data


def _talon_card() -> str:
    dealt = {c for hand in mordienne_file()["hands"] for c in hand}
    return next(card.value for card in CARDS if card.value not in dealt)


BAD = [
    ([1, 2], "the replay file must hold a JSON object, got list"),
    (_with(lambda d: d.update(preset=3)), "unknown ruleset preset '3': choose one of vendee, pagat, english"),
    (_with(lambda d: d.update(preset="belote")),
     "unknown ruleset preset 'belote': choose one of vendee, pagat, english"),
    (_with(lambda d: d.pop("dealer")), "missing 'dealer': give the dealer's seat, 0..3"),
    (_with(lambda d: d.update(dealer=True)), "'dealer' must be a seat 0..3, got True"),
    (_with(lambda d: d.update(dealer=-1)), "'dealer' must be a seat 0..3, got -1"),
    (_with(lambda d: d.update(dealer=4)), "'dealer' must be a seat 0..3, got 4"),
    (_with(lambda d: d.update(dealer="1")), "'dealer' must be a seat 0..3, got '1'"),
    (_with(lambda d: d.update(hands={"a": 1})), "'hands' must be a list of 4 hands (seats 0..3), got dict"),
    (_with(lambda d: d.pop("hands")), "'hands' must be a list of 4 hands (seats 0..3), got NoneType"),
    (_with(lambda d: d["hands"].pop()), "'hands' must be a list of 4 hands (seats 0..3), got 3"),
    (_with(lambda d: d["hands"].__setitem__(3, "AD")), "the hand of seat 3 must hold 9 cards, got str"),
    (_with(lambda d: d["hands"][2].pop()), "the hand of seat 2 must hold 9 cards, got 8"),
    (_with(lambda d: d["hands"][1].__setitem__(3, 5)),
     "hand of seat 1, card 4: card codes are strings like '3D', got 5"),
    (_with(lambda d: d["hands"][3].__setitem__(0, "2C")), "card 2C is dealt twice: in the hands of seat 0 and seat 3"),
    (_with(lambda d: d.update(plays="AD")), "'plays' must be a list of card codes, got str"),
    (_with(lambda d: d.update(plays=d["plays"] + ["3D"] * 4)), "40 plays: a deal has only 36 (nine tricks of four)"),
    (_with(lambda d: d.update(plays=d["plays"][:6])),
     "6 plays is not whole tricks: give a multiple of 4 cards (the last trick has 2)"),
    (_with(lambda d: d["plays"].__setitem__(0, "3D")),
     "play 1: card 3D is not in the hand of seat 0, whose turn it is; it is in the hand of seat 1"),
    (_with(lambda d: d["plays"].__setitem__(0, _talon_card())),
     f"play 1: card {_talon_card()} is not in the hand of seat 0, whose turn it is; "
     "nobody holds it (it is in the talon)"),
    (_with(lambda d: d["plays"].__setitem__(4, "2C")), "play 5: card 2C was played twice (first at play 1)"),
    (_with(lambda d: d["plays"].__setitem__(1, 7)), "play 2: card codes are strings like '3D', got 7"),
]


@pytest.mark.parametrize("data, message", BAD, ids=[m[:40] for _, m in BAD])
def test_bad_input_is_refused_with_the_exact_reason(tmp_path, data, message):
    assert _refused(tmp_path, data) == message


def test_a_bad_card_code_names_where_it_is(tmp_path):
    assert _refused(tmp_path, _with(lambda d: d["plays"].__setitem__(1, "ZZ"))).startswith("play 2: ")
    assert _refused(tmp_path, _with(lambda d: d["hands"][2].__setitem__(0, "11X"))).startswith(
        "hand of seat 2, card 1: ")


def test_an_unreadable_file_is_named_as_the_replay_file(tmp_path):
    missing = tmp_path / "missing.json"
    with pytest.raises(ReplayError) as raised:
        replay_file(str(missing))
    assert str(raised.value) == f"replay file '{missing}' does not exist"
    broken = tmp_path / "broken.json"
    broken.write_text('{"preset": ', encoding="utf-8")
    with pytest.raises(ReplayError) as raised:
        replay_file(str(broken))
    assert str(raised.value).startswith(f"replay file '{broken}' is not valid JSON")


def test_dealer_zero_and_no_plays_key_are_a_deal_at_its_start(tmp_path):
    data = mordienne_file(dealer=0)
    del data["plays"]
    assert _replay(tmp_path, data) == {"tricks": [], "tricks_won": [0, 0, 0, 0], "next_leader": 1}


def test_the_team_of_a_deal_won_by_seat_two_is_team_zero(tmp_path):
    # The mordienne deal turned one seat clockwise: West's run is now North's (seat 2).
    data = mordienne_file(dealer=0)
    data["hands"] = data["hands"][-1:] + data["hands"][:-1]
    out = _replay(tmp_path, data)
    assert (out["deal_winner"], out["team"], out["points"], out["mordienne"]) == (2, 0, 2, True)
    assert out["tricks_won"] == [2, 2, 3, 2]
