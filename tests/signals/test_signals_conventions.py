"""Conventions and gestures as values (mutmut survivors, docs/mutation.md): a gesture gives one sign,
names are read forgivingly and refused with the choices, a recognised gesture serialises exactly."""

from __future__ import annotations

import pytest

from trainer.signals.conventions import CLASSIC, CONVENTIONS, Convention, ConventionError
from trainer.signals.gestures import Gesture, GestureEvent, Side
from trainer.signals.signs import Sign


def test_a_gesture_may_not_make_two_signs_but_may_repeat_one():
    with pytest.raises(ConventionError) as error:
        Convention("mine", ((Gesture.WINK, Sign.BORGNE), (Gesture.WINK, Sign.VACHE)))
    assert str(error.value) == "convention 'mine' gives wink two signs (borgne, vache): keep one"
    same = Convention("mine", ((Gesture.WINK, Sign.BORGNE), (Gesture.POUT, Sign.BORGNE), (Gesture.WINK, Sign.BORGNE)))
    assert same.gestures_for(Sign.BORGNE) == (Gesture.WINK, Gesture.POUT, Gesture.WINK)
    assert same.sign_for(Gesture.POUT) is Sign.BORGNE and same.sign_for(Gesture.BROWS_UP) is None


def test_sign_for_each_classic_gesture_and_missing_gestures_are_named():
    for gesture, sign in CLASSIC.pairs:
        assert CLASSIC.sign_for(gesture) is sign
    assert CLASSIC.sign_for(Gesture.BROWS_UP) is Sign.MONSIEUR
    empty = Convention("none", ())
    with pytest.raises(ConventionError) as error:
        empty.gesture_for(Sign.MADAME)
    assert str(error.value) == "convention 'none' has no gesture for madame"


def test_conventions_by_name():
    assert Convention.named("classic") is CLASSIC
    with pytest.raises(ConventionError) as error:
        Convention.named("belote")
    assert str(error.value) == f"unknown convention 'belote': choose one of {', '.join(CONVENTIONS)}"


def test_gesture_names_are_read_forgivingly_and_refused_with_the_list():
    assert Gesture.parse("  WINK ") is Gesture.WINK
    with pytest.raises(ValueError) as error:
        Gesture.parse("nod")
    assert str(error.value) == f"unknown gesture 'nod': known gestures are {', '.join(g.value for g in Gesture)}"


def test_a_gesture_event_serialises_rounded_with_its_side_only_when_known():
    event = GestureEvent(Gesture.WINK, 1.23456, 2.00049, count=1, confidence=0.87654)
    assert event.to_json() == {"gesture": "wink", "start": 1.235, "end": 2.0, "count": 1, "confidence": 0.877}
    side = next(iter(Side))
    sided = GestureEvent(Gesture.WINK, 0.0, 0.5, count=2, confidence=1.0, side=side)
    assert sided.to_json() == {
        "gesture": "wink", "start": 0.0, "end": 0.5, "count": 2, "confidence": 1.0, "side": side.value,
    }


def test_a_gesture_speech_makes_must_be_held_where_it_gives_a_card_or_misere():
    """A laugh's grimace and a talking head's sway are short: where a convention gives them a card or
    misère, the event must last SPEECH_HOLD_S to make the sign; elsewhere nothing changes."""
    from trainer.signals.conventions import CAMERA_FRIENDLY, CLASSIC, REGIONAL, SPEECH_HOLD_S
    from trainer.signals.signs import Sign

    laugh = GestureEvent(Gesture.GRIMACE, 3.0, 3.0 + 0.6, count=1, confidence=0.9)
    held = GestureEvent(Gesture.GRIMACE, 3.0, 3.0 + SPEECH_HOLD_S, count=1, confidence=0.9)
    assert CAMERA_FRIENDLY.read(laugh) is None and CAMERA_FRIENDLY.read(held).signal.sign is Sign.MISERE
    assert REGIONAL.read(laugh) is None and REGIONAL.read(held).signal.sign is Sign.MISERE
    sway = GestureEvent(Gesture.HEAD_TILT, 1.0, 1.5, count=1, confidence=0.9)
    assert REGIONAL.read(sway) is None and REGIONAL.hold(Gesture.HEAD_TILT) == SPEECH_HOLD_S
    # Signs speech does not make keep reading at once, in every convention.
    wink = GestureEvent(Gesture.WINK, 1.0, 1.2, count=1, confidence=0.9)
    for convention in (CLASSIC, REGIONAL, CAMERA_FRIENDLY):
        assert convention.read(wink).signal.sign is Sign.BORGNE
    assert CLASSIC.holds == () and CLASSIC.hold(Gesture.GRIMACE) == 0.0
