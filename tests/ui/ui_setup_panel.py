"""Play's setup panel (New game, table settings, saved games) is drawn only while it is open, and it
closes when a game starts: a test that saves, resumes or starts a game mid-game opens it first, as
the person clicks on its header."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from trainer.ui.views.play import SETUP_KEY


def open_setup(at: AppTest) -> AppTest:
    at.session_state[SETUP_KEY] = True
    return at.run()
