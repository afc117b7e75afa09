"""The Table the app and the terminal drive: people and bots, sign points, delivery and catches."""

from __future__ import annotations

import json
import random

import pytest

from trainer.bots.base import BotError, make_bot
from trainer.bots.knowledge import signs_this_deal
from trainer.bots.table import Table
from trainer.rules.actions import Phase
from trainer.rules.errors import IllegalActionError
from trainer.signals.gestures import Gesture
from trainer.signals.signs import MadeSign, Sign, Signal
from trainer.signals.table import SignalError, Vigilance, decode_message, honest_signals


def test_a_person_plays_a_whole_game_with_three_bots() -> None:
    table = Table.create(["human", "heuristic", "heuristic", "heuristic"], seed=11)
    rng = random.Random(0)
    actions = 0
    while not table.is_over:
        table.step()
        seat = table.human_to_act
        if seat is None:
            break
        assert seat == 0
        view = table.view(0)
        table.submit(0, rng.choice(view.legal_actions))
        actions += 1
    assert table.is_over and actions > 9


def test_the_table_logs_the_events_of_every_action_from_the_first_dealer() -> None:
    """Table.events (what narrators read) holds the events of the bots' and the person's actions and
    of the chance steps, in order: the same as the whole game replayed, ending with its outcome."""
    from trainer.rules.events import CardPlayed, DealerChosen, DealScored, GameOver

    table = Table.create(["human", "heuristic", "random", "heuristic"], seed=4)
    rng = random.Random(1)
    while not table.is_over:
        table.step()
        if table.human_to_act is not None:
            table.submit(0, rng.choice(table.view(0).legal_actions))
    events = table.events
    assert tuple(events) == table.game.events()
    assert isinstance(events[0], DealerChosen) and events[-1] == GameOver(table.game.outcome)
    assert [e.result for e in events if isinstance(e, DealScored)] == table.game.results
    assert sum(isinstance(e, CardPlayed) and e.seat == 0 for e in events) > 9


def test_submit_checks_whose_turn_and_legality() -> None:
    table = Table.create(["human", "heuristic", "heuristic", "heuristic"], seed=3)
    table.step()
    seat = table.human_to_act
    assert seat == 0
    with pytest.raises(BotError, match="is a bot"):
        table.submit(1, table.view(0).legal_actions[0])
    history = list(table.game.history)
    with pytest.raises(IllegalActionError):
        table.submit(0, Signal(Sign.AS))  # not an action at all
    assert table.game.history == history


def test_bots_sign_at_the_sign_points_and_the_partner_sees_it() -> None:
    table = Table.create(["human", "heuristic", "heuristic", "heuristic"], seed=5, vigilance=Vigilance(0.0))
    table.step()  # bots act until the person must act; they sign before the declarations
    while table.game.phase is not Phase.PLAY and not table.is_over:
        table.submit(0, table.view(0).legal_actions[0])
        table.step()
    made = [t.event for t in table.history if t.deal == table.game.deal_number]
    hand2 = set(table.game.hand(2)) | set(table.view(2).played)
    # Seat 2 (heuristic, partner of the person) signed its honest cards, and the person saw them.
    expected = honest_signals(hand2)
    seat2 = [e.signal for e in made if e.seat == 2]
    assert seat2 and all(s in expected or s.sign is Sign.MORDIENNE for s in seat2)
    seen = [t.event.seat for t in table.visible_signs(0)]
    assert 2 in seen and 1 not in seen and 3 not in seen  # blind table: no catches
    assert not table.catches()
    # The signs are in the game record, the views and the save file.
    assert [decode_message(r.message)[0] for r in table.view(0).signals if r.seat == 2] == seat2


def test_human_signs_from_the_camera_go_through_the_convention() -> None:
    table = Table.create(["human", "heuristic", "heuristic", "heuristic"], seed=2, vigilance=Vigilance(1.0))
    hand = table.game.hand(0)
    truthful = honest_signals(hand)
    if not truthful:
        pytest.skip("seed gives seat 0 nothing to sign")
    with pytest.raises(SignalError, match="no sign"):
        table.submit_sign(0, MadeSign(Signal(Sign.MONSIEUR), Gesture.LOOK_UP))  # classic: brows_up for Monsieur
    event = table.submit_sign(0, table.made(truthful[0]))
    assert event.caught_by == (1, 3)  # a hawk-eyed table catches everything
    assert [c.by for c in table.catches()] == [1, 3]
    received = signs_this_deal(table.view(2))
    assert received[-1].signal == truthful[0]
    bad = next(s for s in (Signal(Sign.MONSIEUR), Signal(Sign.MADAME)) if s.sign.cards[0] not in hand)
    with pytest.raises(SignalError, match="truthful"):
        table.submit_sign(0, table.made(bad))


def test_catch_statistics_follow_the_vigilance() -> None:
    for catch in (0.0, 0.5, 1.0):
        caught = made = 0
        for seed in range(30):
            table = Table([make_bot("heuristic") for _ in range(4)], seed=seed, vigilance=Vigilance(catch))
            table.step(max_actions=40)
            for t in table.history:
                made += 2
                caught += len(t.event.caught_by)
        rate = caught / made
        assert abs(rate - catch) < 0.08, (catch, rate)


def test_discreet_signs_wait_for_the_next_sign_point_and_are_caught_less() -> None:
    from trainer.bots.heuristic import HeuristicBot
    from trainer.bots.signing import SignPolicy

    rates = {}
    for policy_discreet in (False, True):
        caught = made = 0
        for seed in range(40):
            bots = [HeuristicBot(policy=SignPolicy(max_level=9, discreet=policy_discreet)) for _ in range(4)]
            table = Table(bots, seed=seed, vigilance=Vigilance(0.6, discreet_factor=0.25))
            while table.game.deal_number == 1 and not table.is_over:
                table.step(max_actions=1)
                if table.game.phase is Phase.DECLARE and policy_discreet:
                    assert not [t for t in table.history if t.deal == 1]  # still waiting
            for t in table.history:
                if t.deal == 1:
                    made += 2
                    caught += len(t.event.caught_by)
                    assert t.event.discreet == policy_discreet
        rates[policy_discreet] = caught / max(1, made)
    assert rates[True] < rates[False] / 2


def test_arena_json_has_the_exact_keys(capsys) -> None:
    from trainer.cli import main

    assert main(["arena", "heuristic", "random", "--games", "4", "--seed", "3", "--json"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1
    data = json.loads(out[0])
    for key in ("games", "wins_a", "wins_b", "draws", "win_rate_a", "ci95", "decision_ms"):
        assert key in data
    assert data["games"] == 4 == data["wins_a"] + data["wins_b"] + data["draws"]
    lo, hi = data["ci95"]
    assert 0 <= lo <= data["win_rate_a"] <= hi <= 1
    assert set(data["decision_ms"]) == {"median", "p99"}
    assert main(["arena", "heuristic", "random", "--games", "2", "--no-signs-a", "--vigilance", "sharp"]) == 0
    assert "win rate A" in capsys.readouterr().out


def test_wilson_interval() -> None:
    from trainer.bots.arena import wilson

    lo, hi = wilson(60, 100)
    assert lo == pytest.approx(0.502, abs=0.002) and hi == pytest.approx(0.691, abs=0.002)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)


def test_bluffing_bots_lie_only_at_a_table_with_lies() -> None:
    from trainer.bots.heuristic import HeuristicBot

    for lying in (False, True):
        bots = [HeuristicBot(lie_rate=1.0) for _ in range(4)]
        table = Table(bots, seed=4, lying_allowed=lying)
        table.step(max_actions=60)
        lies = [t.event for t in table.history if not t.event.truthful]
        assert bool(lies) == lying
        assert all(e.signal.sign in (Sign.MONSIEUR, Sign.MADAME, Sign.BORGNE, Sign.VACHE) for e in lies)


def test_choose_policy_signs_less_as_the_table_gets_sharper() -> None:
    from trainer.bots.signing import choose_policy

    # Discreet signs caught as often as open ones: the policy signs fewer cards, then none.
    levels = [choose_policy(Vigilance(v, discreet_factor=1.0)).max_level for v in (0.0, 0.25, 0.5, 0.75, 1.0)]
    assert levels == sorted(levels, reverse=True) and levels[0] == 9 and levels[-1] == 0
    # Discreet signs caught a third as often: it keeps signing far longer.
    assert choose_policy(Vigilance(0.75, discreet_factor=0.3)).max_level == 9
    assert all(choose_policy(Vigilance(v)).discreet for v in (0.0, 0.5, 1.0))


def test_search_bot_chooses_its_signing_policy_for_the_table() -> None:
    sharp = Vigilance(1.0, discreet_factor=1.0)
    bots = [make_bot("search", worlds=2, max_ms=None) for _ in range(4)]
    Table(bots, seed=1, vigilance=sharp)
    assert all(b.policy.max_level == 0 for b in bots)
    fixed = make_bot("search", worlds=2, max_ms=None, sign_level=9)
    Table([fixed] + [make_bot("random") for _ in range(3)], seed=1, vigilance=sharp)
    assert fixed.policy.max_level == 9


def test_a_camera_sign_of_two_aces_reaches_the_partner_with_its_count_gesture_and_confidence() -> None:
    """The camera's repeat count is the number of aces (the old Gesture path signed one ace), and
    the partner reads the recognizer's confidence; the opponents who caught it read the plain sign."""
    from trainer.bots.channel import EVAL_VISION_HELD_OUT
    from trainer.bots.knowledge import knowledge_of
    from trainer.rules.cards import ACES
    from trainer.signals.conventions import CLASSIC
    from trainer.signals.gestures import GestureEvent

    table = next(
        t for t in (Table.create(["human", "heuristic", "heuristic", "heuristic"], seed=s, vigilance=Vigilance(1.0))
                    for s in range(200))
        if sum(c in ACES for c in t.game.hand(0)) == 2
    )
    made = CLASSIC.read(GestureEvent(Gesture.MOUTH_OPEN, 12.0, 13.5, count=2, confidence=0.58))
    event = table.submit_sign(0, made)
    assert event.signal == Signal(Sign.AS, 2) and event.made.start == 12.0
    (partner,) = [r for r in signs_this_deal(table.view(2)) if r.seat == 0]
    assert (partner.signal, partner.gesture, partner.confidence) == (Signal(Sign.AS, 2), Gesture.MOUTH_OPEN, 0.58)
    (opponent,) = [r for r in signs_this_deal(table.view(1)) if r.seat == 0]
    assert opponent.signal == Signal(Sign.AS, 2) and not opponent.read_by_camera
    knowledge = knowledge_of(table.view(2))
    assert 0 not in dict(knowledge.holdings)  # uncertain: a soft holding, kept by its trust
    assert knowledge.soft_chances == (pytest.approx(EVAL_VISION_HELD_OUT.trust(Gesture.MOUTH_OPEN, 0.58)),)
