"""End to end in a real headless Chromium: the app's Practice page, a fake camera playing a clip made
now from real photos (a neutral face, then the same face with the mouth open: one ace), and the page
must report that sign. Also takes a screenshot of every page: into the test's temporary folder, or into
docs/screenshots/ when ALUETTE_UPDATE_SCREENSHOTS=1 (so a test run leaves the checkout unchanged).

Debian's /usr/bin/chromium is driven by Playwright's Python package with ``executable_path``; no
browser is downloaded. The Streamlit server is started on a free localhost port and stopped in
``finally``.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

from ui_browser_support import launch_browser, require_chromium

from trainer.ui.fakecam import make_sign_clip
from trainer.ui.launch import REPO_ROOT, free_port, start_server, stop_server, wait_healthy

pytestmark = [pytest.mark.browser, pytest.mark.slow]

DOCS_SCREENSHOTS = REPO_ROOT / "docs" / "screenshots"
SCREENSHOTS = DOCS_SCREENSHOTS


@pytest.fixture(autouse=True)
def _screenshot_folder(tmp_path: Path, monkeypatch):
    update = os.environ.get("ALUETTE_UPDATE_SCREENSHOTS") == "1"
    monkeypatch.setattr(sys.modules[__name__], "SCREENSHOTS", DOCS_SCREENSHOTS if update else tmp_path / "screenshots")


@pytest.fixture()
def app_url(tmp_path: Path, data_home: Path):
    port = free_port()
    log = tmp_path / "streamlit.log"
    process = start_server(port, env={"ALUETTE_HOME": str(data_home)}, log=log)
    try:
        wait_healthy(port, timeout=60, process=process)
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_server(process)
        text = log.read_text(errors="replace")
        print("\n".join(line for line in text.splitlines() if not line.startswith("W0000"))[-4000:])


def _switch_camera_on(page) -> None:
    page.get_by_text("Camera on", exact=True).click()


def _start_webrtc(page) -> None:
    frame = page.frame_locator('iframe[title*="webrtc"]')
    frame.get_by_role("button", name=re.compile("start", re.I)).click(timeout=60_000)


def _screenshot(page, name: str, height: int = 2000) -> None:
    """Streamlit scrolls inside its own container, so a tall viewport shows the whole page."""
    page.set_viewport_size({"width": 1400, "height": height})
    page.wait_for_timeout(800)
    # The fake camera plays a real person's face from ../shared/gestures, whose footage may not be
    # republished: the committed screenshots show the page around a masked video.
    video = page.frame_locator('iframe[title*="webrtc"]').locator("video")
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), mask=[video], mask_color="#4a4f5a")
    page.set_viewport_size({"width": 1400, "height": 1100})


def _open(page, name: str, heading: str) -> None:
    from playwright.sync_api import expect

    page.get_by_role("link", name=name).first.click()
    expect(page.get_by_role("heading", name=heading).first).to_be_visible(timeout=60_000)


def _screenshot_other_pages(page) -> None:
    """Play (a game started, first decision answered), Quiz (a question), Rules."""
    from playwright.sync_api import expect

    _open(page, "Play", "Play Aluette")
    page.get_by_role("button", name="New game").click()
    expect(page.get_by_text("Your hand").first).to_be_visible(timeout=60_000)
    play_buttons = page.get_by_role("button", name="Play", exact=True)
    for _ in range(8):  # answer what the engine asks before the first trick
        if play_buttons.count() and play_buttons.first.is_enabled():
            break
        for choice in ("Pass", "No chant", "Refuse"):
            button = page.get_by_role("button", name=choice, exact=True)
            if button.count() and button.first.is_visible():
                button.first.click()
                break
        page.wait_for_timeout(2500)
    expect(play_buttons.last).to_be_enabled(timeout=30_000)
    play_buttons.last.click()  # play the weakest card: the bots answer and the trick shows
    expect(page.get_by_text("Last trick").first.or_(page.get_by_text("Trick in progress").first)).to_be_visible(timeout=30_000)
    page.wait_for_timeout(3000)
    _screenshot(page, "play")

    _open(page, "Quiz", "Quiz: cards and signs")
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("button", name="Start")).to_have_count(0, timeout=60_000)
    expect(page.get_by_role("heading", name="Your progress")).to_be_visible(timeout=60_000)
    page.wait_for_timeout(2000)
    _screenshot(page, "quiz")

    _open(page, "Rules", "Rules of Aluette")
    page.wait_for_timeout(2000)
    _screenshot(page, "rules")


def test_practice_reports_the_sign_made_to_the_fake_camera(app_url, gestures_dir: Path, tmp_path: Path):
    require_chromium()
    from playwright.sync_api import expect, sync_playwright

    clip = make_sign_clip(gestures_dir, tmp_path / "mouth_open.y4m")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = launch_browser(playwright, clip)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1100})
            page.goto(app_url, wait_until="domcontentloaded")
            expect(page.get_by_text("Practice the signs")).to_be_visible(timeout=60_000)
            # Ask for the sign the clip makes: one ace ("un as": open the mouth).
            page.get_by_label("or choose").first.click()
            page.get_by_role("option", name="un as").click()
            expect(page.get_by_text("Make: un as")).to_be_visible(timeout=30_000)
            _switch_camera_on(page)
            expect(page.get_by_text("Mode: live camera.")).to_be_visible(timeout=30_000)
            _start_webrtc(page)
            # The page says at once that it saw the sign asked, with its timing…
            verdict = page.get_by_text(re.compile(r"Seen: un as — .*held"))
            expect(verdict.first).to_be_visible(timeout=120_000)
            # …and lists the gesture the recognizer reported.
            expect(page.get_by_text(re.compile(r"Seen: mouth_open.*un as")).first).to_be_visible(timeout=10_000)
            page.wait_for_timeout(4000)  # a few more frames, so the overlay is on the picture
            _screenshot(page, "practice")
            _screenshot_other_pages(page)
        finally:
            browser.close()
