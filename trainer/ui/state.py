"""The one place that initialises ``st.session_state`` for a browser session.

Every key the app keeps across reruns is declared here with its default, so pages never invent
keys of their own and a test can see the whole per-session state at a glance. Per-session objects
(the game, the recognizer's frame watcher, the practice drill) live in session state; nothing here
is shared between sessions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from trainer.bots.table_setup import DEFAULT_CALLS
from trainer.ui.page_state import PlayPage
from trainer.ui.settings import Settings

# key -> factory of its default. Factories, not values, so mutable defaults are never shared.
_DEFAULTS: dict[str, Callable[[], Any]] = {
    "settings": Settings,
    # Practice
    "practice_target": lambda: None,  # the Sign the user is asked to make
    "practice_started": lambda: None,  # source time (s) when the target was named
    "practice_feedback": lambda: None,  # last Attempt shown to the user
    "practice_log": list,  # Attempts of this session, newest last
    "practice_seen": list,  # page_state.SeenGesture recently recognised, newest last
    "practice_live": lambda: None,  # the latest FrameReport (live meters)
    "practice_failure": lambda: None,  # why the recognizer stopped, if it did
    "practice_seed": lambda: None,  # seed of the next target pick (None: fresh entropy)
    "practice_upload_done": lambda: None,  # (name, size) of the upload already analysed
    "practice_try": lambda: None,  # trainer.ui.tries.Try: the live try at the asked sign
    "practice_open": list,  # GestureEvents confirmed by the camera and not yet ended, newest last
    "watcher": lambda: None,  # trainer.ui.watcher.SignWatcher: built once, lives as long as the session
    "calibration": lambda: None,  # the latest CalibrationProgress of a camera calibration
    # The camera (trainer.ui.camera; streamlit-webrtc keeps its own context under camera.WIDGET_KEY)
    "camera_live": lambda: None,  # camera.Live of this run (None: camera off)
    "camera_page": lambda: None,  # the page the camera's reports are for (changes drop old reports)
    "play_camera_log": list,  # play_camera.CameraSign: camera signs sent on Play, newest last
    "play_camera_frame": lambda: None,  # the latest FrameReport seen on Play
    "play_camera_failure": lambda: None,  # why the recognizer stopped, on Play
    # Play
    "game": lambda: None,  # trainer.ui.game_session.GameSession
    "play_page": PlayPage,  # page_state.PlayPage: signs sent, the last refusal, the "seen!" note
    "play_seed": lambda: None,  # seed of the next new game (None: fresh entropy; tests set it)
    "replay": lambda: None,  # a saved game being replayed trick by trick
    # Play's table settings (the setup panel's widgets; their defaults live here because the panel is
    # drawn only while open, and a widget given a default and a session-state value warns)
    "play_players": lambda: 4,
    "play_vigilance": lambda: "normal",
    "play_lies": lambda: False,
    "play_partner": lambda: "heuristic",
    "play_opponents": lambda: "heuristic",
    "play_calls": lambda: DEFAULT_CALLS,
    # Quiz
    "quiz": lambda: None,  # ((convention, language), trainer.quiz.Session) of this sitting
    "quiz_question": lambda: None,  # the Question on screen
    "quiz_asked_at": lambda: 0.0,  # time.monotonic() when it was shown (answer speed)
    "quiz_feedback": lambda: None,  # the quiz Outcome of the last answer
    "quiz_order": list,  # an ordering answer being built
    "quiz_camera": lambda: None,  # trainer.ui.camera_answer.CameraAnswer of the question on screen
    "quiz_seen": lambda: None,  # the Gesture the camera took as the answer (None: answered by a click)
}


def init_session_state() -> None:
    """Give every key its default if this session does not have it yet. Safe to call every rerun."""
    for key, factory in _DEFAULTS.items():
        if key not in st.session_state:
            st.session_state[key] = factory()


def settings() -> Settings:
    return st.session_state["settings"]


def set_settings(value: Settings) -> None:
    st.session_state["settings"] = value


KEYS: tuple[str, ...] = tuple(_DEFAULTS)
