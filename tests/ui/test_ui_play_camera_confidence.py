"""A camera sign on the Play page reaches the bot partner with the recognizer's confidence (issue 12's
leftover, issue 15): the page hands the whole MadeSign to the table, so the partner weighs a doubtful
reading as the noisy channel (trainer/bots/channel.py) was designed to; the save keeps the reading.

Runs the real Play page (``play.show()``) under AppTest with a live camera stood in for by a real
SignWatcher whose queue holds one finished, low-confidence mouth opening (AppTest cannot run WebRTC)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

pytestmark = pytest.mark.vision

CONFIDENCE = 0.56


def _play_page_script() -> None:
    import streamlit as st
    from ui_camera_stand_in import stand_in_camera

    from trainer.rules.cards import ACES
    from trainer.signals.gestures import Gesture, GestureEvent
    from trainer.ui.game_session import HUMAN_SEAT, GameSession
    from trainer.ui.views import play
    from trainer.ui.watcher import GestureReport, SignWatcher

    def make_watcher() -> SignWatcher:
        seed = next(s for s in range(500) if sum(
            c in ACES for c in GameSession.start("vendee", "classic", s).table.view(HUMAN_SEAT).hand) == 1)
        st.session_state["game"] = GameSession.start("vendee", "classic", seed)
        watcher = SignWatcher(lambda profile: None, None)
        mouth = GestureEvent(Gesture.MOUTH_OPEN, start=2.0, end=2.7, confidence=0.56)
        watcher.reports.put(GestureReport(mouth, reported_at=3.3, final=True))
        return watcher

    stand_in_camera(make_watcher)
    play.show()


def test_a_low_confidence_camera_sign_reaches_the_partner_with_that_confidence(data_home):
    from trainer.bots.channel import EVAL_VISION_HELD_OUT
    from trainer.bots.knowledge import knowledge_of, signs_this_deal
    from trainer.signals.gestures import Gesture
    from trainer.signals.signs import Sign, Signal
    from trainer.ui.game_session import HUMAN_SEAT, PARTNER_SEAT, GameSession

    at = AppTest.from_function(_play_page_script, default_timeout=120).run()
    assert not at.exception, at.exception
    session = at.session_state["game"]
    assert any(c.value.startswith("✓ un as: received by your partner") for c in at.caption)
    received = [r for r in signs_this_deal(session.table.view(PARTNER_SEAT)) if r.seat == HUMAN_SEAT]
    assert [(r.signal, r.gesture, r.confidence) for r in received] == [(Signal(Sign.AS), Gesture.MOUTH_OPEN,
                                                                        CONFIDENCE)]
    trust = EVAL_VISION_HELD_OUT.trust(Gesture.MOUTH_OPEN, CONFIDENCE)
    assert trust < 0.9  # a doubtful reading, believed less than a seen sign
    assert knowledge_of(session.table.view(PARTNER_SEAT)).soft_chances == (pytest.approx(trust),)
    # The save keeps what the camera saw: a resumed game gives the partner the same reading.
    assert session.inputs[-1] == {"sign": "as", "count": 1, "gesture": "mouth_open", "confidence": CONFIDENCE,
                                  "start": 2.0, "end": 2.7}
    again = GameSession.from_json(session.to_json())
    assert [(r.signal, r.confidence) for r in signs_this_deal(again.table.view(PARTNER_SEAT)) if r.seat == HUMAN_SEAT] \
        == [(Signal(Sign.AS), CONFIDENCE)]


def test_a_saved_camera_reading_is_checked_field_by_field():
    """A save's camera sign is read back only when its reading makes sense; a damaged one is refused
    with the input named (the game is not replayed half-way), and a button's sign still reads."""
    from trainer.ui import persistence
    from trainer.ui.game_session import SAVE_FORMAT

    def save(item: dict) -> dict:
        return {"format": SAVE_FORMAT, "version": 2, "preset": "vendee", "convention": "classic",
                "partner": "heuristic", "opponents": "heuristic", "seed": 1, "inputs": [item]}

    good = {"sign": "borgne", "count": 1, "gesture": "wink", "confidence": 0.7, "side": "left",
            "start": 1.5, "end": 2.0}
    for ok in (good, {"sign": "as", "count": 2}, {"sign": "as", "count": 2, "confidence": 0.9}):
        assert persistence.check_saved_game(save(ok))["inputs"] == [ok]
    for bad in ({**good, "confidence": 1.7}, {**good, "gesture": "nod"}, {**good, "side": "up"},
                {**good, "start": float("nan")}, {**good, "confidence": True},
                {"sign": "borgne", "count": 1, "gesture": "wink"}):
        with pytest.raises(persistence.SaveError, match="input 1 .* is not a move, a sign"):
            persistence.check_saved_game(save(bad))
