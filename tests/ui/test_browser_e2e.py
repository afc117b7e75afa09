"""End to end in a real headless Chromium: the app's Practice page, a fake camera playing a clip made
now from real photos (a neutral face, then the same face with the mouth open: one ace), and the page
must report that sign. Also saves a screenshot of every page to docs/screenshots/.

Debian's /usr/bin/chromium is driven by Playwright's Python package with ``executable_path``; no
browser is downloaded. The Streamlit server is started on a free localhost port and stopped in
``finally``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ui_browser_support import launch_browser, require_chromium

from trainer.ui.fakecam import make_sign_clip
from trainer.ui.launch import REPO_ROOT, free_port, start_server, stop_server, wait_healthy

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SCREENSHOTS = REPO_ROOT / "docs" / "screenshots"


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
            page.wait_for_timeout(1500)
            page.screenshot(path=str(SCREENSHOTS / "practice.png"), full_page=True)
            for name in ("Play", "Quiz", "Rules"):
                page.get_by_role("link", name=name).first.click()
                page.wait_for_load_state("networkidle")
                page.wait_for_timeout(2500)
                page.screenshot(path=str(SCREENSHOTS / f"{name.lower()}.png"), full_page=True)
        finally:
            browser.close()
