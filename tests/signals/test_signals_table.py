"""Signing at the table: truth, delivery to the partner, catching by opponents (RULES.md, Signs)."""

from __future__ import annotations

import math
import random

import pytest

from trainer.rules.cards import Card
from trainer.signals.gestures import Gesture
from trainer.signals.relative import parse
from trainer.signals.signs import Sign, Signal
from trainer.signals.table import (
    SignalError,
    SignLog,
    Vigilance,
    honest_signals,
    is_truthful,
    is_weak_hand,
    partner_of,
)

HAND = Card.parse_many("3D 3C AD AB RB 7E 5D 4C 3B".split())
WEAK = Card.parse_many("RB CD VE 9E 8D 7C 6B 5E 4C".split())


def test_truth_of_each_kind_of_sign() -> None:
    assert is_truthful(Signal(Sign.MONSIEUR), HAND)
    assert is_truthful(Signal(Sign.MONSIEUR_ET_MADAME), HAND)
    assert not is_truthful(Signal(Sign.BORGNE), HAND)
    assert is_truthful(Signal(Sign.AS, 2), HAND)
    assert not is_truthful(Signal(Sign.AS, 1), HAND)  # the count tells how many aces
    assert not is_truthful(Signal(Sign.MISERE), HAND)
    assert is_truthful(Signal(Sign.MISERE), WEAK) and is_weak_hand(WEAK)
    assert is_truthful(Signal(Sign.MORDIENNE), WEAK)


def test_honest_signals_lists_what_a_hand_can_tell() -> None:
    assert honest_signals(HAND) == (Signal(Sign.MONSIEUR_ET_MADAME), Signal(Sign.AS, 2))
    assert honest_signals(WEAK) == (Signal(Sign.MISERE),)
    assert all(is_truthful(s, HAND) for s in honest_signals(HAND))


def test_partners_face_each_other() -> None:
    assert [partner_of(s, 4) for s in range(4)] == [2, 3, 0, 1]
    assert [partner_of(s, 6) for s in range(6)] == [3, 4, 5, 0, 1, 2]
    assert partner_of(1, 3) is None


def test_partner_always_sees_and_blind_opponents_never_catch() -> None:
    log = SignLog(players=4, vigilance=Vigilance.named("blind"))
    rng = random.Random(3)
    for _ in range(200):
        event = log.make(1, log.convention.made(Signal(Sign.AS, 2)), HAND, rng)
        assert event.seen_by == (1, 3) and event.caught_by == ()
    assert [s.seat for s in log.seen_by(3)] == [1] * 200
    assert log.seen_by(0) == () and log.seen_by(2) == ()


def _catch_rate(vigilance: Vigilance, discreet: bool, n: int, seed: int) -> float:
    log = SignLog(players=4, vigilance=vigilance)
    rng = random.Random(seed)
    caught = 0
    for _ in range(n):
        caught += len(log.make(0, log.convention.made(Signal(Sign.MONSIEUR)), HAND, rng, discreet=discreet).caught_by)
    return caught / (2 * n)  # two opponents watch each sign


@pytest.mark.parametrize("catch", [0.1, 0.5, 0.9])
def test_catch_rate_matches_vigilance_and_discreet_signs_are_caught_less(catch: float) -> None:
    n = 4000
    vigilance = Vigilance(catch, discreet_factor=0.3)
    for discreet, expected in ((False, catch), (True, catch * 0.3)):
        rate = _catch_rate(vigilance, discreet, n, seed=int(catch * 100) + discreet)
        sigma = math.sqrt(expected * (1 - expected) / (2 * n))
        assert abs(rate - expected) < 4 * sigma + 1e-9, (discreet, rate, expected)


def test_lies_are_refused_unless_allowed() -> None:
    strict = SignLog(players=4)
    with pytest.raises(SignalError, match="truthful at this table"):
        strict.make(0, strict.convention.made(Signal(Sign.BORGNE)), HAND, random.Random(0))
    assert strict.events == []
    loose = SignLog(players=4, lying_allowed=True)
    event = loose.make(0, loose.convention.made(Signal(Sign.BORGNE)), HAND, random.Random(0))
    assert not event.truthful
    # What the partner sees carries no truth flag.
    assert not hasattr(loose.seen_by(2)[0], "truthful")


def test_event_carries_the_conventions_gesture_and_resolved_announcements() -> None:
    log = SignLog(players=4, vigilance=Vigilance(0.0))
    event = log.make(0, log.convention.made(Signal(Sign.AS, 2)), HAND, random.Random(0),
                     announcements=parse("en dessous"))
    assert event.gesture is Gesture.MOUTH_OPEN
    assert event.levels == (Card.ROI_BATONS.level,)
    assert log.seen_by(2)[0].levels == (Card.ROI_BATONS.level,)
    assert event.announcements == parse("au-dessous")


@pytest.mark.parametrize("bad", [-0.1, 1.5])
def test_vigilance_is_a_chance(bad: float) -> None:
    with pytest.raises(SignalError, match="between 0 and 1"):
        Vigilance(bad)
    assert Vigilance.parse("0.4").catch == 0.4 and Vigilance.parse("sharp") == Vigilance.named("sharp")


def test_game_record_messages_round_trip() -> None:
    from trainer.signals.table import decode_message, encode_message

    for signal in (Signal(Sign.AS, 3), Signal(Sign.MONSIEUR_ET_MADAME), Signal(Sign.MISERE)):
        for words in ((), parse("au-dessous, après au-dessus de là-dessus")):
            assert decode_message(encode_message(signal, words)) == (signal, tuple(words))
    with pytest.raises(SignalError, match="cannot read"):
        decode_message("wink")
