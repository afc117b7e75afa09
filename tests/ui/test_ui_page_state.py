"""The pages' typed state (trainer.ui.page_state): each note belongs to a moment of the game and is
shown only while that moment lasts."""

from __future__ import annotations

from trainer.signals.conventions import CLASSIC, REGIONAL
from trainer.signals.gestures import Gesture, GestureEvent
from trainer.signals.signs import Sign, Signal
from trainer.ui.page_state import CatchNote, PlayPage, Refusal, SeenGesture, SentSign


def test_a_refusal_and_a_catch_note_last_as_long_as_their_moment():
    page = PlayPage()
    trick = (1, 2, 3, False)
    page.refusal = Refusal(trick, "Not allowed now: not your turn.")
    assert page.refusal_at(trick) == "Not allowed now: not your turn."
    assert page.refusal_at((1, 2, 4, False)) is None  # the next trick: said no more
    deal = (1, 2)
    page.catch = CatchNote(deal, True, "Caught!")
    assert page.catch_at(deal) is not None and page.catch_at((1, 3)) is None


def test_the_signs_sent_are_listed_for_their_deal_only():
    page = PlayPage()
    page.sent.append(SentSign("button", object(), (1, 2)))  # type: ignore[arg-type]
    page.sent.append(SentSign("camera", object(), (1, 3)))  # type: ignore[arg-type]
    assert [s.source for s in page.sent_at((1, 3))] == ["camera"]


def test_a_gesture_seen_in_practice_is_read_as_the_table_reads_it():
    brief = GestureEvent(Gesture.GRIMACE, 10.0, 10.4, confidence=0.9)
    held = GestureEvent(Gesture.GRIMACE, 10.0, 11.2, confidence=0.9)
    # The regional convention asks a grimace (misère) to be held a second: a brief one makes no sign.
    assert SeenGesture(brief, REGIONAL.read(brief), 10.4).sign is None
    assert SeenGesture(held, REGIONAL.read(held), 11.2).sign is Sign.MISERE
    # The default convention has no grimace at all.
    assert SeenGesture(held, CLASSIC.read(held), 11.2).sign is None
    wink = GestureEvent(Gesture.WINK, 1.0, 1.1)
    assert SeenGesture(wink, CLASSIC.read(wink), 1.1).made.signal == Signal(Sign.BORGNE)
