"""One value for a sign made at the table (issue 15): the convention reads a camera's gesture into a
MadeSign once, the sign log keeps the gesture actually made, and game records decode once into it."""

from __future__ import annotations

import random

import pytest

from trainer.rules.cards import Card
from trainer.signals.conventions import CLASSIC, Convention
from trainer.signals.gestures import Gesture, GestureEvent, Side
from trainer.signals.relative import Announcement, Step
from trainer.signals.signs import MadeSign, Sign, Signal
from trainer.signals.table import SignalError, SignLog, Vigilance, read_record, record_text


def hand(codes: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in codes.split())


def test_a_camera_gesture_becomes_a_made_sign_that_keeps_what_the_camera_saw():
    mouth = GestureEvent(Gesture.MOUTH_OPEN, start=1.0, end=2.5, count=3, confidence=0.62)
    assert CLASSIC.read(mouth) == MadeSign(Signal(Sign.AS, 3), Gesture.MOUTH_OPEN, 0.62, None, 1.0, 2.5)
    # More repeats than there are aces: at most four; another sign never repeats.
    assert CLASSIC.read(GestureEvent(Gesture.MOUTH_OPEN, 0.0, 4.0, count=7)).count == 4
    wink = CLASSIC.read(GestureEvent(Gesture.WINK, 3.0, 3.4, count=2, confidence=0.8, side=Side.LEFT))
    assert (wink.signal, wink.side, wink.start, wink.end) == (Signal(Sign.BORGNE), Side.LEFT, 3.0, 3.4)
    assert wink.read_by_camera
    assert CLASSIC.read(GestureEvent(Gesture.LOOK_UP, 0.0, 1.0)) is None  # regional only
    button = CLASSIC.made(Signal(Sign.AS, 2))
    assert button == MadeSign(Signal(Sign.AS, 2), Gesture.MOUTH_OPEN) and not button.read_by_camera
    with pytest.raises(ValueError, match="between 0 and 1"):
        MadeSign(Signal(Sign.BORGNE), Gesture.WINK, 1.2)


def test_the_log_keeps_the_gesture_actually_made_not_the_conventions_first():
    two_ways = Convention("two ways", ((Gesture.WINK, Sign.BORGNE), (Gesture.HEAD_TILT, Sign.BORGNE)))
    log = SignLog(players=4, vigilance=Vigilance(0.0), convention=two_ways)
    tilt = two_ways.read(GestureEvent(Gesture.HEAD_TILT, 5.0, 5.6, confidence=0.7, side=Side.RIGHT))
    event = log.make(0, tilt, hand("2D 5E"), random.Random(0))
    assert event.gesture is Gesture.HEAD_TILT
    assert event.made == tilt and log.seen_by(2)[0].made == tilt
    # The camera's reading reaches the partner only: the maker knows its sign, opponents see it.
    assert log.seen_by(0)[0].confidence is None and log.seen_by(0)[0].gesture is Gesture.HEAD_TILT
    # A button's sign is drawn with the convention's own gesture.
    assert log.make(0, log.convention.made(Signal(Sign.BORGNE)), hand("2D 5E"),
                    random.Random(0)).gesture is Gesture.WINK
    with pytest.raises(SignalError, match="no sign to look_up, not borgne: borgne is made with wink, head_tilt"):
        log.make(0, MadeSign(Signal(Sign.BORGNE), Gesture.LOOK_UP, 0.9), hand("2D"), random.Random(0))
    with pytest.raises(SignalError, match="the sign monsieur, not borgne"):
        SignLog().make(0, MadeSign(Signal(Sign.BORGNE), Gesture.BROWS_UP), hand("2D 3D"), random.Random(0))


def test_a_record_is_decoded_once_into_typed_values():
    read_record.cache_clear()
    made = MadeSign(Signal(Sign.AS, 2), Gesture.MOUTH_OPEN, 0.62)
    words = (Announcement(Step.AU_DESSUS),)
    text = record_text(made, words, as_read=True)
    assert text == "as x2 | au-dessus @mouth_open 0.620"
    assert record_text(made, words) == "as x2 | au-dessus"  # what the opponents' eyes get
    first = read_record(text)
    assert first == (made, words)
    assert read_record(text) is first and read_record.cache_info().misses == 1
    assert read_record("monsieur") == (MadeSign(Signal(Sign.MONSIEUR)), ())
    assert read_record("belote x9") is None and read_record("borgne @wink 7") is None


def test_a_record_reaches_the_seat_as_a_seen_sign_and_bad_input_is_named():
    from trainer.rules.actions import Phase
    from trainer.rules.game import SignalRecord
    from trainer.signals.table import seen_from_record

    record = SignalRecord(2, "as x2 | au-dessus @mouth_open 0.700", frozenset({0}), 1, 3, Phase.PLAY, 40)
    seen = seen_from_record(record)
    assert (seen.seat, seen.signal, seen.trick, seen.moment) == (2, Signal(Sign.AS, 2), 3, None)
    assert seen.read_by_camera and seen.confidence == 0.7 and seen.levels == (8,)
    # Words that lead off the scale (nothing is above Monsieur) give no levels rather than an error.
    off = seen_from_record(SignalRecord(0, "monsieur | au-dessus", frozenset({2}), 1, 0, Phase.PLAY, 0))
    assert off.sign is Sign.MONSIEUR and off.levels == ()
    assert seen_from_record(SignalRecord(0, "belote", frozenset({2}), 1, 0, Phase.PLAY, 0)) is None
    with pytest.raises(SignalError, match="a sign is a MadeSign, got str"):
        SignLog().make(0, "borgne", hand("2D"), random.Random(0))
