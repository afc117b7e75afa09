"""The Streamlit app's frame: page config, session state, sidebar and the navigation between pages.

``streamlit_app.py`` calls :func:`run`. Pages are files in ``trainer/ui/pages`` (thin: each calls
its view in ``trainer/ui/views``). Nothing heavy is imported here: MediaPipe and the vision stack
load only when the camera or an upload needs them, so the first page is usable quickly.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from trainer.ui import camera, run_log, session_lock, st_adapter
from trainer.ui.sidebar import render_sidebar
from trainer.ui.state import init_session_state, settings

PAGES_DIR = Path(__file__).resolve().parent / "pages"

PAGES = (
    ("practice.py", "Practice", ":material/face:"),
    ("play.py", "Play", ":material/playing_cards:"),
    ("quiz.py", "Quiz", ":material/school:"),
    ("rules.py", "Rules", ":material/menu_book:"),
)


def run() -> None:
    # First: the script threads of one session must take turns on its state (session_lock's doc).
    session_lock.install()
    with run_log.full_run() as timing:
        _run(timing)


def _run(timing: dict) -> None:
    st.set_page_config(page_title="Aluette Signal Trainer", page_icon="🐄", layout="wide")
    problems = st_adapter.check_versions()
    if problems:
        # The app reaches into these libraries' internals (st_adapter): say so now, not mid-game.
        for problem in problems:
            st.error(problem.message, icon=":material/error:")
        st.stop()
    init_session_state()
    navigation = st.navigation(
        [st.Page(PAGES_DIR / file, title=title, icon=icon, default=(i == 0))
         for i, (file, title, icon) in enumerate(PAGES)]
    )
    render_sidebar()
    # Before the page, at the same place on every page: the session's one camera stream.
    camera.dock(settings(), navigation.title)
    timing.update(page=navigation.title, session=run_log.session_tag(st.session_state))
    navigation.run()
