"""The camera comes back by itself after its connection drops, in a real headless Chromium.

The drop is made as it happens on a busy machine: the server gets no CPU for a while (here SIGSTOP
for :data:`STALL_S` seconds, then SIGCONT). The browser's connection checks go unanswered, the WebRTC
connection turns "disconnected", and streamlit-webrtc's page ends the stream. Before
``trainer.ui.camera_keeper`` the page then said "Camera stopped: press START" for good; now the app
starts the stream again by itself, and the sign asked on Practice is seen without any click on the
camera.

The keeper's restart count proves that a drop did happen (a stall that dropped nothing would test
nothing, and fails here)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
from ui_browser_support import (  # noqa: F401 (a fixture)
    ask_until_seen,
    browser_page,
    camera_button,
    camera_restarts,
    server,
    server_error_report,
    server_errors,
    start_camera,
)

from trainer.ui.fakecam import make_signing_clip

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.vision]

STALL_S = 10.0
"""How long the server gets no CPU: long enough for the browser to call the connection lost (it did
in every probe at 10 s), as a pip install beside the test once did."""


def _stall(pid: int, seconds: float) -> None:
    os.kill(pid, signal.SIGSTOP)
    try:
        time.sleep(seconds)  # the stall itself is what is tested, not a wait for a result
    finally:
        os.kill(pid, signal.SIGCONT)


def _wait_until(predicate, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)  # a poll of the page's state, not a wait for the result


def test_the_camera_reconnects_by_itself_after_the_server_stalls(server, gestures_dir: Path, tmp_path: Path):  # noqa: F811 (a fixture)
    from playwright.sync_api import expect

    clip, _loop = make_signing_clip(gestures_dir, tmp_path / "signing.y4m")
    with browser_page(server, tmp_path, fake_video=clip) as page:
        start_camera(page)
        assert camera_restarts(page) == 0
        _stall(server.process.pid, STALL_S)
        # The stall dropped the stream (a stall that dropped nothing would test nothing) ...
        _wait_until(lambda: camera_restarts(page) >= 1, 60, "the app to start the dropped stream again")
        # ... and the sign asked next is seen, nobody having pressed START.
        asks = ask_until_seen(page, first=True)
        expect(camera_button(page, "stop")).to_be_visible()
        restarts = camera_restarts(page)
    print(f"restarts by the app: {restarts}; asks until un as was seen after the stall: {asks}")
    assert server_errors(server.log) == [], server_error_report(server.log)
