"""Saved games through trainer.ui.persistence, as the Play page uses them: names are checked, each
browser session autosaves in its own slot, and no damaged save reaches the page as an exception."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.ui.ui_setup_panel import open_setup, run_open
from trainer.lab import fuzz_saves as fuzz
from trainer.ui import persistence

APP = str(Path(__file__).resolve().parents[2] / "streamlit_app.py")


@pytest.mark.parametrize("name, message", [
    ("", "the name is empty"),
    ("   ", "the name is empty"),
    ("x" * 201, "201 characters long: shorten it to at most 200"),
    ("autosave mine", "kept for automatic saves"),
])
def test_a_bad_save_name_is_a_message_not_an_exception(data_home, name, message):
    problem = persistence.save_named_game(name, {"any": "thing"})
    assert problem is not None and message in problem
    assert persistence.saved_games() == []
    with pytest.raises(persistence.SaveError, match=message):
        persistence.save_game(name, {"any": "thing"})


def test_a_good_name_is_saved_stripped(data_home):
    assert persistence.save_named_game("  my game ", {"a": 1}) is None
    assert persistence.saved_games() == ["my game"]
    assert persistence.save_named_game("x" * 200, {"a": 1}) is None


def test_a_real_save_resumes_and_replays_through_persistence(data_home):
    save = fuzz.real_save()
    persistence.save_game("real", save)
    session = persistence.resume_game("real")
    assert session.to_json()["inputs"] == save["inputs"]
    assert persistence.replay_game("real").state_key() == session.table.game.state_key()
    with pytest.raises(persistence.SaveError, match="no such save"):
        persistence.resume_game("gone")


def test_300_mutations_of_a_real_save_never_raise_anything_but_a_save_error(data_home):
    summary = fuzz.run(300, seed=20261201)
    assert summary["uncaught"] == 0 and summary["unexpected"] == 0, summary["problems"]
    assert summary["refused"] > 50 and summary["resumed"] > 20  # both sides are reached
    assert summary["replay_refused"] > 20


def _play_page(seed: int) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page("trainer/ui/pages/play.py").run()
    at.session_state["play_seed"] = seed
    at.button(key="play_new").click().run()
    labels = [b.label for b in at.button]
    choice = next(label for label in ("Pass", "No chant", "Refuse") if label in labels)
    next(b for b in at.button if b.label == choice).click().run()  # an action: the page autosaves
    assert not at.exception, at.exception
    return at


def test_two_browser_sessions_autosave_in_two_slots(data_home):
    first, second = _play_page(11), _play_page(12)
    slots = [name for name in persistence.saved_games() if name.startswith(persistence.AUTOSAVE_PREFIX)]
    assert len(slots) == 2
    seeds = sorted(persistence.load_game(name)["seed"] for name in slots)
    assert seeds == [11, 12]
    assert first.session_state["_autosave_name"] != second.session_state["_autosave_name"]


def test_each_game_has_its_own_autosave_named_in_words_and_save_as_names_the_game(data_home):
    """A new game in the same tab keeps the previous game's autosave (one slot per game, named
    after the game and when it began, until deleted), and "Save as" offers the new game's name."""
    at = open_setup(_play_page(11))
    assert at.text_input(key="play_save_name").value == "game-11"
    first = at.session_state["_autosave_name"]
    assert first.startswith("autosave: game 11 at 4 players, begun ") and " at " in first.split("begun ")[1]
    at.session_state["play_seed"] = 12
    at.button(key="play_new").click().run()
    labels = [b.label for b in at.button]
    choice = next(label for label in ("Pass", "No chant", "Refuse") if label in labels)
    next(b for b in at.button if b.label == choice).click().run()
    assert not at.exception, at.exception
    open_setup(at)  # a new game closes the panel
    assert at.text_input(key="play_save_name").value == "game-12"
    slots = [n for n in persistence.saved_games() if n.startswith(persistence.AUTOSAVE_PREFIX)]
    assert len(slots) == 2 and first in slots
    assert sorted(persistence.load_game(n)["seed"] for n in slots) == [11, 12]
    # Deleting is the person's choice: the Delete button removes the chosen save.
    at.selectbox(key="play_saved").select(first)
    run_open(at)
    at.button(key="play_delete").click()
    run_open(at)
    assert not at.exception, at.exception
    assert first not in persistence.saved_games()


def test_a_damaged_save_is_a_message_on_the_play_page(data_home):
    persistence.save_game("broken", {"format": "aluette-app-game", "version": 1, "preset": "vendee",
                                      "convention": "classic", "seed": 1, "partner": "nobody",
                                      "opponents": "heuristic", "inputs": []})
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page("trainer/ui/pages/play.py").run()
    at.selectbox(key="play_saved").select("broken").run()
    at.button(key="play_resume").click().run()
    assert not at.exception, at.exception
    assert any("Cannot resume 'broken'" in e.value and "'nobody' is not one of the bots" in e.value for e in at.error)


@pytest.mark.parametrize("name", ["", "x" * 201])
def test_a_bad_save_name_on_the_play_page_is_a_message(data_home, name):
    at = open_setup(_play_page(5))
    at.text_input(key="play_save_name").input(name)
    run_open(at)
    at.button(key="play_save").click()
    run_open(at)
    assert not at.exception, at.exception
    assert any(e.value.startswith("Not saved: ") for e in at.error), [e.value for e in at.error]


def test_a_failing_store_is_a_warning_for_practice_and_calibration(data_home, monkeypatch: pytest.MonkeyPatch):
    """A store that fails under the page (here: closed, as after a fault) never raises into it."""
    import sqlite3

    from trainer.signals.signs import Sign
    from trainer.storage import Store
    from trainer.ui import drill

    path = data_home / "aluette.sqlite3"
    with Store.open(path) as db:
        db.append(persistence.PRACTICE_KIND, {"target": "not a sign"}, time=1.0)  # a hand-edited record
        db.append(persistence.PRACTICE_KIND, persistence.attempt_to_json(drill.Attempt(Sign.MONSIEUR, True)), time=2.0)
        db.put(persistence.PROFILE_KIND, persistence.PROFILE_KEY, {"schema": "wrong"})
    live = Store.open(path)
    monkeypatch.setattr(persistence, "store", lambda: live)
    assert [a.target for a in persistence.practice_history()] == [Sign.MONSIEUR]
    assert persistence.load_profile() is None  # damaged profile: population defaults, and a warning
    live.close()
    assert persistence.save_attempt(drill.Attempt(Sign.MONSIEUR, False)) is False

    class _Kept:  # a calibration or a sensitivity: anything that writes itself as JSON
        def to_json(self) -> dict:
            return {"schema": 1}

    assert persistence.save_profile(_Kept()) is False  # kept for the session, a warning shown
    assert persistence.save_sensitivity(_Kept()) is False
    assert persistence.practice_history() == []
    persistence.forget_profile()
    assert sqlite3.connect(path).execute("SELECT COUNT(*) FROM log").fetchone()[0] == 2


def test_a_stale_personal_model_or_sensitivity_counts_as_none(data_home, monkeypatch: pytest.MonkeyPatch):
    """A record from an older schema loads as None: taught signs silently (the panel offers to teach
    again), the sensitivity with a warning; a record that reads comes back."""
    from trainer.storage import Store
    from trainer.vision.sensitivity import Sensitivity

    warnings: list[str] = []
    monkeypatch.setattr(persistence, "_problem", lambda doing, error: warnings.append(doing))
    with Store.open(data_home / "aluette.sqlite3") as db:
        db.put(persistence.PERSONAL_KIND, persistence.PROFILE_KEY, {"schema": "old"})
        db.put(persistence.SENSITIVITY_KIND, persistence.PROFILE_KEY, {"schema": "old"})
    assert persistence.load_personal() is None and warnings == []
    assert persistence.load_sensitivity() is None
    assert warnings == ["Your saved sensitivity could not be used (set it again in Practice)"]
    assert persistence.save_sensitivity(Sensitivity()) is True
    assert persistence.load_sensitivity() == Sensitivity()
