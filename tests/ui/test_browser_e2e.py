"""End to end in a real headless Chromium, the camera fed by a real clip of a man opening his mouth
(one ace under every convention), turned into an I420 .y4m at test time from ../shared/gestures and
never kept. One START for the whole test: the stream must survive signs, reruns and page changes.

* Practice: the sign asked is seen, with the time it took and the hold.
* Play: a whole deal with the camera on; the partner receives at least three camera signs in that
  deal, and nobody presses START again.
* Practice -> Play -> Practice: after each switch the page shows a freshly analysed frame within 2 s.
* The server log has no exception over the whole test (Exception in ASGI application, a thread's
  traceback, a script error).

Debian's /usr/bin/chromium is driven by Playwright's Python package with ``executable_path``; no
browser is downloaded. The test waits on the page's own state, never on fixed sleeps. Screenshots
are taken by ``scripts/screenshots.py``, not here.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

from ui_browser_support import launch_browser, require_chromium, server  # noqa: F401 (a fixture)

from trainer.ui.fakecam import make_signing_clip, seed_with_one_ace

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.vision]

SAVE_NAME = "camera-deal"
SWITCH_LIMIT_S = 2.0
"""A page change must show a newly analysed frame within this time (the issue's target)."""
RECEIVED = re.compile(r"Camera signs received by your partner this deal: (\d+)")


def server_errors(log: Path) -> list[str]:
    """Lines of the server log that show an exception (MediaPipe's W0000/I0000 chatter aside)."""
    text = log.read_text(errors="replace")
    return [line for line in text.splitlines()
            if "Traceback" in line or "Exception in" in line or re.match(r"\w*Error:", line)]


def _sidebar_camera(page):
    return page.frame_locator('[data-testid="stSidebar"] iframe[title*="webrtc"]')


def _open(page, name: str, heading: str) -> float:
    """Click a page link; return the monotonic time at which the new page's heading showed."""
    from playwright.sync_api import expect

    page.get_by_role("link", name=re.compile(rf"\b{name}$")).first.click()
    expect(page.get_by_role("heading", name=heading).first).to_be_visible(timeout=60_000)
    return time.monotonic()


def _fresh_frame_within(page, shown_at: float, pattern: str) -> float:
    """Wait for the page's camera status (cleared on a page change) to show an analysed frame;
    returns the seconds since the page showed."""
    from playwright.sync_api import expect

    expect(page.get_by_text(re.compile(pattern)).first).to_be_visible(timeout=60_000)
    return time.monotonic() - shown_at


def _choose_un_as(page, attempts: int = 3) -> None:
    """Choose "un as" in the Practice drop-down until the page shows it as the asked sign: the camera
    fragment redraws a few times a second, and on a busy machine the option click can land on a
    list being redrawn and be lost (seen once in six runs with both cores busy)."""
    from playwright.sync_api import expect

    asked = page.get_by_role("heading", name="Make: un as")
    for _ in range(attempts):
        page.get_by_label("or choose").first.click()
        page.get_by_role("option", name="un as").click()
        try:
            expect(asked).to_be_visible(timeout=15_000)
            return
        except AssertionError:
            page.keyboard.press("Escape")  # close the list if it is still open, and choose again
    raise AssertionError(f"choosing un as in Practice did not ask it in {attempts} attempts")


def _try_again(page, seen, missed, attempts: int = 3) -> None:
    """Press "Try again" until the verdict leaves the page (the new try has begun). With both cores
    busy a click can land while the page is being redrawn and be lost (it showed the button's tooltip
    and the old verdict stayed for a minute): the page's own state says whether to press again."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import expect

    for _ in range(attempts):
        page.get_by_role("button", name="Try again", exact=True).click()
        try:
            expect(seen.or_(missed)).to_have_count(0, timeout=20_000)
            return
        except (AssertionError, PlaywrightTimeout):
            continue
    raise AssertionError(f"'Try again' did not start a new try in {attempts} clicks")


def _ask_until_seen(page, *, first: bool = False, asks: int = 3) -> int:
    """Ask for un as on Practice until the verdict says it was seen, with both times; returns how
    many asks it took. On a busy machine the recognizer (a few frames a second) can miss the clip's
    opening for the whole try, which then ends "Not seen" after its timeout: that is a verdict too,
    so the test asks again (at most ``asks`` times) rather than failing on recognition recall."""
    from playwright.sync_api import expect

    seen = page.get_by_text(re.compile(r"Seen: un as — recognised [\d.]+ s after it was asked, held [\d.]+ s"))
    missed = page.get_by_text(re.compile(r"^Not seen: un as"))
    for ask in range(asks):
        if ask or not first:  # after a verdict: the same sign again
            _try_again(page, seen, missed)
        else:
            _choose_un_as(page)
        expect(missed).to_have_count(0, timeout=60_000)  # the new try has begun
        expect(seen).to_have_count(0, timeout=60_000)
        expect(seen.or_(missed).first).to_be_visible(timeout=60_000)
        if seen.count():
            return ask + 1
    raise AssertionError(f"un as was not seen in {asks} tries of the clip that makes it every few seconds")


def _received(page) -> int:
    text = page.get_by_text(RECEIVED).first.inner_text(timeout=60_000)
    return int(RECEIVED.search(text).group(1))


def _wait_until(predicate, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)  # a poll of the page's state, not a wait for the result


def _play_the_deal(page) -> None:
    """Answer what the engine asks and play a card whenever it is the person's turn, until the deal's
    result shows. Each click waits for the page to change (hand smaller, or the question gone)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    play = page.get_by_role("button", name=re.compile(r"^(Play|Discard)$"))
    result = page.get_by_text(re.compile(r"^Deal 1: "))
    deadline = time.monotonic() + 300
    while not result.count():
        assert time.monotonic() < deadline, "the deal did not end"
        # One snapshot of the buttons (the page may redraw between two separate queries).
        snapshot = play.evaluate_all("els => els.map(e => !e.disabled)")
        enabled = [i for i, on in enumerate(snapshot) if on]
        if enabled:
            before = len(snapshot)
            try:
                play.nth(enabled[-1]).click(timeout=5_000)
            except PlaywrightTimeout:
                continue  # the page redrew under the click: look again
            _wait_until(lambda: play.count() < before or result.count() or not play.count(), 60,
                        "the card to be played")
            continue
        # The table pauses on each closed trick until "Next trick" (docs/play.md).
        for choice in ("Next trick", "Pass", "No chant", "Refuse"):
            button = page.get_by_role("button", name=choice, exact=True)
            if button.count() and button.first.is_visible():
                try:
                    button.first.click(timeout=5_000)
                except PlaywrightTimeout:
                    break  # the page redrew under the click: look again
                if choice == "Next trick":
                    _wait_until(lambda b=button: not b.count() or result.count(), 60, "the bots to play on")
                else:
                    _wait_until(lambda b=button: not b.count() or result.count() or play.count(), 60,
                                f"the answer {choice} to be taken")
                break
        else:
            time.sleep(0.2)  # the bots are playing: poll again


def test_one_stream_signs_a_whole_deal_and_follows_page_changes(server, gestures_dir: Path, tmp_path: Path):
    require_chromium()
    from playwright.sync_api import expect, sync_playwright

    from trainer.ui import persistence
    from trainer.ui.game_session import GameSession

    url, log = server
    clip, _loop = make_signing_clip(gestures_dir, tmp_path / "signing.y4m")
    persistence.save_game(SAVE_NAME, GameSession.start("vendee", "classic", seed_with_one_ace()).to_json())
    with sync_playwright() as playwright:
        browser = launch_browser(playwright, clip)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1100})
            page.goto(url, wait_until="domcontentloaded")
            expect(page.get_by_role("heading", name="Practice the signs")).to_be_visible(timeout=60_000)
            page.get_by_text("Camera on", exact=True).click()
            expect(page.get_by_text("Mode: live camera.")).to_be_visible(timeout=60_000)
            _sidebar_camera(page).get_by_role("button", name=re.compile("^start$", re.I)).click(timeout=120_000)
            live = r"\d+ frames/s analysed · face found"
            expect(page.get_by_text(re.compile(live)).first).to_be_visible(timeout=120_000)

            # Practice: the try at un as ends with the sign seen, how long it took and the hold.
            first_asks = _ask_until_seen(page, first=True)

            # Play: resume the prepared deal; the partner receives camera signs while the person
            # waits, then the deal is played to its end with the camera still on.
            _open(page, "Play", "Play Aluette")
            page.get_by_label("Saved games").first.click()
            page.get_by_role("option", name=SAVE_NAME).click()
            page.get_by_role("button", name="Resume", exact=True).click()
            expect(page.get_by_text("Your hand").first).to_be_visible(timeout=60_000)
            _wait_until(lambda: _received(page) >= 3, 120, "three camera signs received in deal 1")
            received_before_cards = _received(page)
            _play_the_deal(page)
            # Nobody pressed START again: the stream that started on Practice is still the one playing.
            expect(_sidebar_camera(page).get_by_role("button", name=re.compile("^stop$", re.I))).to_be_visible()

            # Back to Practice and again to Play and Practice: a fresh frame within 2 s each time.
            shown = _open(page, "Practice", "Practice the signs")
            to_practice = _fresh_frame_within(page, shown, live)
            shown = _open(page, "Play", "Play Aluette")
            to_play_again = _fresh_frame_within(page, shown, r"Camera on · \d+ frames/s analysed")
            shown = _open(page, "Practice", "Practice the signs")
            to_practice_again = _fresh_frame_within(page, shown, live)
            expect(_sidebar_camera(page).get_by_role("button", name=re.compile("^stop$", re.I))).to_be_visible()

            # STOP -> START: the new stream (its clock starts again at 0) is recognised at once.
            camera = _sidebar_camera(page)
            camera.get_by_role("button", name=re.compile("^stop$", re.I)).click()
            camera.get_by_role("button", name=re.compile("^start$", re.I)).click(timeout=60_000)
            expect(camera.get_by_role("button", name=re.compile("^stop$", re.I))).to_be_visible(timeout=60_000)
            expect(page.get_by_text(re.compile(live)).first).to_be_visible(timeout=60_000)
            restart_asks = _ask_until_seen(page)
        except BaseException:
            folder = Path(os.environ.get("ALUETTE_FAILURE_DIR", tmp_path))
            page.screenshot(path=str(folder / "failure.png"), full_page=True)
            print(f"screenshot of the failure: {folder / 'failure.png'}")
            raise
        finally:
            browser.close()
    switches = [to_practice, to_play_again, to_practice_again]
    print(f"asks until seen: {first_asks} at first, {restart_asks} after STOP -> START; "
          f"camera signs received before the first card: {received_before_cards}; "
          f"fresh frame after each switch: {', '.join(f'{s:.2f} s' for s in switches)}")
    assert max(switches) <= SWITCH_LIMIT_S, switches
    assert server_errors(log) == [], "\n".join(server_errors(log))
