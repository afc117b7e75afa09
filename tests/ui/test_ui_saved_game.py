"""A saved Play-page game as typed values (trainer.ui.saved_game): the person's inputs are one closed
union, each written in one saved form and read back, checked, once."""

from __future__ import annotations

import pytest

from trainer.rules.actions import Declaration, Declare
from trainer.signals.conventions import CLASSIC
from trainer.signals.gestures import Gesture, GestureEvent
from trainer.signals.signs import MadeSign, Sign, Signal
from trainer.signals.table import honest_signals
from trainer.ui import persistence
from trainer.ui.game_session import HUMAN_SEAT, GameSession
from trainer.ui.saved_game import (
    Act,
    Announce,
    MadeSignInput,
    Next,
    SavedGame,
    SavedGameError,
    Seen,
    input_from_json,
    input_to_json,
)


def _played(seed: int = 3, moves: int = 40) -> GameSession:
    """A timed game with moves, signs (a button's and a camera's), "seen!" calls and "next" clicks."""
    session = GameSession.begin(GameSession.start("vendee", "classic", seed).settings, seed, timed=True,
                                clock=iter(float(t) for t in range(10_000)).__next__)
    signed = False
    for _ in range(moves):
        if session.table.is_over:
            break
        if session.paused:
            session.next()
            continue
        view = session.table.view(HUMAN_SEAT)
        honest = honest_signals(view.hand)
        if not signed and honest:
            session.sign(session.table.made(honest[0]))
            ace = CLASSIC.read(GestureEvent(Gesture.MOUTH_OPEN, 1.0, 2.0, count=1, confidence=0.8))
            if sum(c.code.startswith("A") for c in view.hand) == 1 and ace is not None:
                session.sign(ace, at=1.0)
            session.seen(1)
            signed = True
        action = view.legal_actions[0]
        session.act(Declare(Declaration.PASS) if isinstance(action, Declare) else action)
    return session


def test_every_input_is_a_typed_value_and_its_saved_form_reads_back_the_same():
    session = _played()
    kinds = {type(item) for item in session.log}
    assert {Act, Next, MadeSignInput, Seen} <= kinds
    data = session.to_json()
    saved = SavedGame.from_json(data)
    assert saved.inputs == tuple(session.log)
    assert [input_to_json(item) for item in saved.inputs] == data["inputs"] == session.inputs
    # A button's sign is saved without camera keys and read back with the convention's gesture.
    button = next(i for i in saved.inputs if isinstance(i, MadeSignInput))
    assert button.made == CLASSIC.made(button.made.signal) and "gesture" not in input_to_json(button)
    assert GameSession.replay(saved).table.game.state_key() == session.table.game.state_key()


def test_words_told_aloud_are_saved_as_words_and_read_back_as_announcements():
    item = input_from_json(1, {"announce": "après au-dessus"}, version=3, timed=True)
    assert isinstance(item, Announce) and len(item.words) == 1 and item.words[0].after
    assert input_to_json(item) == {"announce": "après au-dessus"}


@pytest.mark.parametrize("raw, message", [
    ({"sign": "borgne", "count": 2}, "cannot be read"),
    ({"sign": "nothing"}, "cannot be read"),
    ({"act": "play ZZ"}, "cannot be read"),
    ({"seen": 1}, "is not a move"),  # a catch in an untimed game
    ({"next": True, "t": -1}, "moment"),
    ({"sign": "as", "confidence": 1.5}, "is not a move"),
    ("act", "is not a move"),
])
def test_a_bad_input_is_named_once_when_read(raw, message):
    with pytest.raises(SavedGameError, match=f"its input 7 .*{message}"):
        input_from_json(7, raw, version=3, timed=False)


def test_persistence_and_resume_read_a_save_through_the_same_check():
    data = _played(moves=10).to_json()
    data["inputs"].append({"sign": "vache", "count": 3})
    with pytest.raises(persistence.SaveError, match="cannot be read"):
        persistence.read_saved_game(data)
    with pytest.raises(ValueError, match="cannot be read"):
        GameSession.from_json(data)


def test_a_camera_sign_keeps_what_the_camera_saw():
    made = MadeSign(Signal(Sign.AS, 2), Gesture.MOUTH_OPEN, 0.7, None, 3.0, 4.5)
    item = MadeSignInput(made, 5.0, 3.0)
    saved = input_to_json(item)
    assert saved == {"sign": "as", "count": 2, "gesture": "mouth_open", "confidence": 0.7, "start": 3.0,
                     "end": 4.5, "t": 5.0, "at": 3.0}
    assert input_from_json(1, saved, version=3, timed=True) == item
