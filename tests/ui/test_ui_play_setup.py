"""Play's setup panel under AppTest: open until a game is on the table, then closed and not drawn
(its dozen widgets were a quarter of a card click's time in the browser, docs/app.md), and the table
settings chosen in it kept while it is closed, for the next new game."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.ui.ui_setup_panel import open_setup
from trainer.ui.views.play import SETUP_KEY

APP = str(Path(__file__).resolve().parents[2] / "streamlit_app.py")


def _keys(at: AppTest) -> set[str]:
    widgets = [*at.radio, *at.checkbox, *at.selectbox, *at.number_input, *at.button, *at.text_input]
    return {w.key for w in widgets if w.key}


def test_the_setup_panel_closes_on_a_new_game_and_keeps_the_choices_made_in_it(data_home):
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page("trainer/ui/pages/play.py").run()
    assert at.session_state[SETUP_KEY] is True and "play_new" in _keys(at)  # no game yet: open
    at.radio(key="play_players").set_value(6).run()
    at.checkbox(key="play_lies").check().run()
    at.number_input(key="play_calls").set_value(5).run()
    at.session_state["play_seed"] = 3
    at.button(key="play_new").click().run()
    assert not at.exception, at.exception
    game = at.session_state["game"]
    assert game.players == 6 and game.settings.lies
    # The table is on: the panel is closed and its widgets are not drawn at all.
    assert at.session_state[SETUP_KEY] is False
    assert not {"play_players", "play_lies", "play_calls", "play_new", "play_save"} & _keys(at)
    for _ in range(3):  # clicks on the table while the panel stays closed
        buttons = [b for b in at.button if not b.disabled and b.key and
                   (b.key == "play_next" or b.key.startswith(("decide_", "card_")))]
        if buttons:
            buttons[0].click().run()
        else:
            at.run()
        assert not at.exception, at.exception
    open_setup(at)
    assert at.radio(key="play_players").value == 6
    assert at.checkbox(key="play_lies").value is True
    assert at.number_input(key="play_calls").value == 5
    assert at.text_input(key="play_save_name").value == "game-3"
