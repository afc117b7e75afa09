"""Play's setup panel (New game, table settings, saved games) is drawn only while it is open, and it
closes when a game starts: a test that saves, resumes or starts a game mid-game opens it first, as
the person clicks on its header."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from trainer.ui.views.play import SETUP_KEY


def open_setup(at: AppTest) -> AppTest:
    at.session_state[SETUP_KEY] = True
    return at.run()


def run_open(at: AppTest) -> AppTest:
    """Run after an interaction with a widget inside the panel, the panel kept open as the person
    left it. A browser sends the panel's state with every run (checked in Chromium on Streamlit 1.65
    and 1.67); AppTest on 1.65 (the last release for Python 3.10) does not, so a panel the test
    opened would close at that run and the widget's code would not run."""
    return open_setup(at)
