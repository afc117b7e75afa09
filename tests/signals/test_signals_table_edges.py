"""Signing at the table, at the edges (mutmut survivors, docs/mutation.md): misère's two limits,
counting aces, the honest signs of every hand shape, partners at four and six, vigilance names and
numbers, the sign log's refusals and records, and the game-record text."""

from __future__ import annotations

import random

import pytest

from trainer.rules.cards import ACES, Card
from trainer.signals.conventions import CLASSIC
from trainer.signals.relative import Announcement, Step
from trainer.signals.signs import Sign, Signal
from trainer.signals.table import (
    SignalError,
    SignLog,
    Vigilance,
    decode_message,
    encode_message,
    honest_signals,
    is_truthful,
    is_weak_hand,
    partner_of,
)


def hand(codes: str) -> tuple[Card, ...]:
    return Card.parse_many(codes.split())


def test_misere_allows_aces_but_only_one_and_nothing_stronger():
    """RULES.md "Signs": misère — nothing better than an ace, at most one ace."""
    assert is_weak_hand(hand("RB CD VE 9E 8D 7C 6B 5E 4C"))
    assert is_weak_hand(hand("AD CD VE 9E 8D 7C 6B 5E 4C"))  # one ace (level 9) is still weak
    assert not is_weak_hand(hand("AD AC VE 9E 8D 7C 6B 5E 4C"))  # two aces
    assert not is_weak_hand(hand("2E CD VE 9E 8D 7C 6B 5E 4C"))  # Deux d'écrit, level 8


def test_an_ace_sign_tells_exactly_how_many_aces():
    two = hand("AD AB RB 7E 5D")
    assert is_truthful(Signal(Sign.AS, 2), two)
    assert not is_truthful(Signal(Sign.AS, 1), two) and not is_truthful(Signal(Sign.AS, 3), two)
    assert is_truthful(Signal(Sign.AS, 4), ACES) and not is_truthful(Signal(Sign.AS, 1), hand("RB 7E"))


@pytest.mark.parametrize(
    ("codes", "signs"),
    [
        ("3D 3C 2D 5E", [Signal(Sign.MONSIEUR_ET_MADAME), Signal(Sign.BORGNE)]),
        ("3D 2C 5E", [Signal(Sign.MONSIEUR), Signal(Sign.VACHE)]),
        ("3C 9C 9D 5E", [Signal(Sign.MADAME), Signal(Sign.GRAND_NEUF), Signal(Sign.PETIT_NEUF)]),
        ("2B 2E AD AC AB", [Signal(Sign.DEUX_DE_CHENE), Signal(Sign.DEUX_D_ECRIT), Signal(Sign.AS, 3)]),
        ("AD RB 5E", [Signal(Sign.AS, 1), Signal(Sign.MISERE)]),
        ("RB 5E", [Signal(Sign.MISERE)]),
    ],
)
def test_honest_signals_of_each_hand_shape(codes, signs):
    assert list(honest_signals(hand(codes))) == signs


def test_partners_face_each_other_at_four_and_six():
    assert [partner_of(s, 4) for s in range(4)] == [2, 3, 0, 1]
    assert [partner_of(s, 6) for s in range(6)] == [3, 4, 5, 0, 1, 2]
    assert all(isinstance(partner_of(s, 6), int) for s in range(6))
    assert partner_of(1, 3) is None


def test_vigilance_from_a_name_or_a_number():
    assert Vigilance.parse("sharp") == Vigilance(0.5) and Vigilance.parse(" Hawk ") == Vigilance(0.9)
    assert Vigilance.parse("0.4") == Vigilance(0.4) and Vigilance.parse(1) == Vigilance(1.0)
    assert Vigilance(1.0).catch == 1.0 and Vigilance(0.0, 1.0).discreet_factor == 1.0
    with pytest.raises(SignalError) as error:
        Vigilance.parse("eagle")
    assert str(error.value) == (
        "unknown vigilance 'eagle': choose one of blind, casual, normal, sharp, hawk or a number 0..1"
    )


def test_a_sign_log_seats_three_four_or_six():
    for players in (3, 4, 6):
        assert SignLog(players=players).players == players
    for players in (2, 5, 7):
        with pytest.raises(SignalError) as error:
            SignLog(players=players)
        assert str(error.value) == f"a table seats 3, 4 or 6 players, not {players}"


def test_the_log_refuses_a_seat_off_the_table_and_a_lie_naming_the_sign():
    log = SignLog(players=4, vigilance=Vigilance(0.0))
    with pytest.raises(SignalError) as error:
        log.make(4, log.convention.made(Signal(Sign.MONSIEUR)), hand("3D"), random.Random(0))
    assert str(error.value) == "seat 4 is not at this table of 4: seats are 0..3"
    with pytest.raises(SignalError) as error:
        log.make(1, log.convention.made(Signal(Sign.AS, 2)), hand("AD 5E"), random.Random(0))
    assert str(error.value) == (
        "seat 1 signs as x2 but its hand does not hold it: "
        "signs are truthful at this table (allow lies in the table settings to bluff)"
    )
    with pytest.raises(SignalError) as error:
        log.make(1, log.convention.made(Signal(Sign.MADAME)), hand("AD 5E"), random.Random(0))
    assert str(error.value).startswith("seat 1 signs madame but its hand")
    assert log.events == []


def test_the_log_records_what_was_made_and_who_saw_it():
    log = SignLog(players=4, vigilance=Vigilance(1.0))
    first = log.make(0, log.convention.made(Signal(Sign.MONSIEUR)), hand("3D 5E"), random.Random(0))
    assert (first.index, first.moment, first.discreet, first.truthful) == (0, 0, False, True)
    assert first.gesture is CLASSIC.gesture_for(Sign.MONSIEUR)
    assert first.seen_by == (0, 1, 2, 3) and first.caught_by == (1, 3)  # a catch chance of 1: always
    second = log.make(
        3, log.convention.made(Signal(Sign.AS, 1)), hand("AD 9E"), random.Random(0), moment=2, discreet=True,
        announcements=(Announcement(Step.AU_DESSOUS),),
    )
    assert (second.index, second.moment, second.discreet) == (1, 2, True)
    seen = log.seen_by(1)
    assert [(s.seat, s.signal, s.moment) for s in seen] == [(0, Signal(Sign.MONSIEUR), 0), (3, Signal(Sign.AS), 2)]
    assert seen[1].levels == (10,)
    alone = SignLog(players=3, vigilance=Vigilance(0.0)).make(2, CLASSIC.made(Signal(Sign.VACHE)), hand("2C"),
                                                              random.Random(0))
    assert alone.seen_by == (2,)


def test_game_record_text_for_one_sign_and_repeated_aces():
    assert encode_message(Signal(Sign.MONSIEUR)) == "monsieur"
    assert encode_message(Signal(Sign.AS)) == "as"
    assert encode_message(Signal(Sign.AS, 2)) == "as x2"
    assert decode_message("AS X3") == (Signal(Sign.AS, 3), ())
    assert decode_message("as x1") == (Signal(Sign.AS, 1), ())
    for bad in ("as x2 x3", "as 2", "monsieur x2", "as xx", "", "belote"):
        with pytest.raises(SignalError, match=r"cannot read the sign record .*'x2'..'x4' for aces"):
            decode_message(bad)


def test_an_unreadable_record_lists_every_sign_and_the_forms():
    with pytest.raises(SignalError) as error:
        decode_message("belote")
    known = ", ".join(s.value for s in Sign)
    assert str(error.value) == (
        f"cannot read the sign record 'belote': write a sign ({known}), 'x2'..'x4' for aces, "
        "then optionally '| au-dessus, ...'"
    )
