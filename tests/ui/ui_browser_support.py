"""Browser helpers for the end-to-end test: Debian Chromium through Playwright with
``executable_path`` (never a browser download), skipped only when Chromium is absent and CI does not
require it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from trainer.ui.launch import CHROMIUM, chromium_args, free_port, start_server, stop_server, wait_healthy


def require_chromium() -> None:
    if CHROMIUM.is_file():
        return
    message = f"Debian chromium not found at {CHROMIUM}: apt-get install chromium"
    if os.environ.get("ALUETTE_REQUIRE_BROWSER"):
        pytest.fail(message)
    pytest.skip(message)


def launch_browser(playwright, fake_video: Path | None = None):
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, args=chromium_args(fake_video),
    )


@pytest.fixture()
def server(tmp_path: Path, data_home: Path):
    """A Streamlit server of the app on a free local port with its own data folder; yields its URL and
    the log file (the browser tests read exceptions from it)."""
    port = free_port()
    log = tmp_path / "streamlit.log"
    process = start_server(port, env={"ALUETTE_HOME": str(data_home)}, log=log)
    try:
        wait_healthy(port, timeout=60, process=process)
        yield f"http://127.0.0.1:{port}", log
    finally:
        stop_server(process)
