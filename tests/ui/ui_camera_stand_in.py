"""A live camera stood in for in AppTest scripts (AppTest cannot run the WebRTC widget): a real
SignWatcher whose queue holds the reports a stream would bring, behind a stand-in for
streamlit-webrtc's context that says it plays.

Call :func:`stand_in_camera` at the top of a script given to ``AppTest.from_function`` (the script
imports it: tests/ui is on the path), then draw the page; run it with the ``camera_page`` fixture of
the test module, which checks that the camera path never reran the whole page."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from trainer.ui import camera
from trainer.ui.settings import Settings
from trainer.ui.state import init_session_state, set_settings
from trainer.ui.watcher import SignWatcher


class Playing:
    """The shape of streamlit-webrtc's context, playing."""

    class state:  # noqa: N801 - the library's attribute name
        playing = True
        signalling = False

    @staticmethod
    def _get_worker():
        return None


def stand_in_camera(make_watcher: Callable[[], SignWatcher]) -> None:
    """Session state initialised, this full run counted (``runs``), the camera switched on, and the
    session's camera a watcher built once by ``make_watcher`` (which also sets up whatever else the
    page needs, with the settings already in place)."""
    init_session_state()
    st.session_state["runs"] = st.session_state.get("runs", 0) + 1
    set_settings(Settings(camera=True))
    if "fake_watcher" not in st.session_state:
        st.session_state["fake_watcher"] = make_watcher()
    st.session_state["camera_live"] = camera.Live(Playing(), st.session_state["fake_watcher"])
