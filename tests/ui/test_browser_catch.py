"""Watching, in a real headless Chromium: on the Play page an opponent's sign shows on its avatar for
its hold; the person clicks "seen!" while it shows and catches it, and clicks late on another
opponent's sign and misses it.

The game is a timed save prepared here with a seed whose opponents sign a few seconds after the
game starts (its clock restarts when the page resumes it). The test waits on the page's own state —
the sign's layer turning visible, then hidden, as the page's CSS animation runs — never on a fixed
sleep. Debian's /usr/bin/chromium through Playwright's ``executable_path``; no camera.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ui_browser_support import launch_browser, require_chromium

from trainer.ui.launch import free_port, start_server, stop_server, wait_healthy

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SAVE_NAME = "watched-game"
SHOWING = "([i, state]) => { const el = document.querySelector(`.aluette-sign[data-index=\"${i}\"]`);" \
          " return !!el && getComputedStyle(el).visibility === state; }"


@pytest.fixture()
def server(tmp_path: Path, data_home: Path):
    port = free_port()
    log = tmp_path / "streamlit.log"
    process = start_server(port, env={"ALUETTE_HOME": str(data_home)}, log=log)
    try:
        wait_healthy(port, timeout=60, process=process)
        yield f"http://127.0.0.1:{port}", log
    finally:
        stop_server(process)


def _watched_game():
    """A timed game whose first opponent sign begins 14-19 s in (a busy machine draws the page 10 s late), and
    whose other opponent's last sign begins well after the first one ends (to be clicked late)."""
    from trainer.bots.table_setup import TableSettings
    from trainer.ui.game_session import GameSession

    for seed in range(300):
        session = GameSession.begin(TableSettings(), seed, timed=True)
        hold = session.table.watch.gaze.hold_s
        theirs = sorted((t.event for t in session.table.history if t.event.seat in (1, 3)), key=lambda e: e.at)
        if not theirs or not 14.0 <= theirs[0].at <= 19.0:
            continue
        first = theirs[0]
        others = [e for e in theirs if e.seat != first.seat]
        if others and others[-1].at >= first.at + hold + 1.0:
            return session, first, others[-1]
    raise AssertionError("no seed in 0..299 with two opponents signing at those moments")


def _seen_button(page, seat: int):
    """The "seen!" button under that opponent's avatar (its key's container holds one button)."""
    return page.locator(f".st-key-seen_{seat}").get_by_role("button", name="seen!")


def test_seen_catches_a_bots_sign_while_it_shows_and_misses_one_clicked_late(server):
    require_chromium()
    from playwright.sync_api import expect, sync_playwright

    from trainer.ui import persistence

    url, log = server
    session, first, late = _watched_game()
    persistence.save_game(SAVE_NAME, session.to_json())
    names = {1: "West", 3: "East"}
    with sync_playwright() as playwright:
        browser = launch_browser(playwright)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1100})
            page.goto(url, wait_until="domcontentloaded")
            page.get_by_role("link", name=re.compile(r"\bPlay$")).first.click()
            expect(page.get_by_role("heading", name="Play Aluette").first).to_be_visible(timeout=60_000)
            page.get_by_label("Saved games").first.click()
            page.get_by_role("option", name=SAVE_NAME).click()
            page.get_by_role("button", name="Resume", exact=True).click()

            page.get_by_text("Your hand").first.wait_for(timeout=60_000)
            # Caught: click as soon as the first opponent's sign shows on its avatar.
            page.wait_for_function(SHOWING, arg=[first.index, "visible"], timeout=30_000, polling=25)
            _seen_button(page, first.seat).click()
            expect(page.get_by_text(re.compile(rf"Caught! {names[first.seat]} signed"))).to_be_visible(timeout=30_000)
            expect(page.get_by_text(re.compile(rf"Caught by you this deal: {names[first.seat]}'s sign"))).to_be_visible()

            # Missed: the other opponent's last sign shows, ends, and only then comes the click.
            page.wait_for_function(SHOWING, arg=[late.index, "visible"], timeout=30_000, polling=25)
            page.wait_for_function(SHOWING, arg=[late.index, "hidden"], timeout=30_000, polling=25)
            _seen_button(page, late.seat).click()
            expect(page.get_by_text(re.compile(rf"Missed: nothing of {names[late.seat]}'s was showing"))).to_be_visible(
                timeout=30_000)
            expect(page.get_by_text(re.compile(rf"Caught by you this deal: .*{names[late.seat]}'s sign"))).to_have_count(0)
        finally:
            browser.close()
    # The page autosaved both clicks at their moments: the catch inside the first sign's hold, the
    # miss after the late sign's end; the autosave resumes with the first sign caught, the late one not.
    from trainer.ui.game_session import GameSession

    slots = [n for n in persistence.saved_games() if n.startswith(persistence.AUTOSAVE_PREFIX)]
    assert len(slots) == 1, slots
    saved = persistence.load_game(slots[0])
    seen = [item for item in saved["inputs"] if "seen" in item]
    hold = session.table.watch.gaze.hold_s
    assert [item["seen"] for item in seen] == [first.seat, late.seat]
    assert first.at <= seen[0]["t"] <= first.at + hold and seen[1]["t"] > late.at + hold
    resumed = GameSession.from_json(saved)
    caught = {t.event.index: t.event.caught_by for t in resumed.table.history}
    assert 0 in caught[first.index] and 0 not in caught[late.index]
    errors = [line for line in log.read_text(errors="replace").splitlines() if "Traceback" in line or "Exception in" in line]
    assert errors == [], "\n".join(errors)
