"""Browser helpers for the end-to-end test: Debian Chromium through Playwright with
``executable_path`` (never a browser download), skipped only when Chromium is absent and CI does not
require it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from trainer.ui.launch import CHROMIUM, chromium_args


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
