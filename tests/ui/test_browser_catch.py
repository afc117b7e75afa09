"""Watching, in a real headless Chromium: on the Play page an opponent's sign shows on its avatar for
its hold; the person clicks "seen!" while it shows and catches it, then clicks late — after another
sign has shown and ended — and misses it.

The game is a timed save prepared here with a seed whose opponents sign 12 s or more after the game
starts (its clock restarts when the page resumes it; a busy machine draws the page 10 s late). The
test waits on the page's own state — a sign's layer visible, or hidden past its ``data-until`` — never
on a fixed sleep. The autosave then shows both clicks at their moments. Debian's /usr/bin/chromium
through Playwright's ``executable_path``; no camera.
"""

from __future__ import annotations

import re

import pytest
from ui_browser_support import browser_page, server, server_error_report, server_errors  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SAVE_NAME = "watched-game"
SHOWING_NOW = """(opponents) => {
  // An opponent's sign shown now with at least 0.6 s of its hold left: [seat, index], else null.
  const now = Date.now();
  for (const el of document.querySelectorAll('.aluette-sign[data-until]')) {
    if (!opponents.includes(+el.closest('.aluette-seat').dataset.seat)) continue;
    if (getComputedStyle(el).visibility === 'visible' && now < +el.dataset.until - 600)
      return [+el.closest('.aluette-seat').dataset.seat, +el.dataset.index];
  }
  return null;
}"""
ENDED = """([caught, opponents]) => {
  // An opponent's sign (not the one caught) that showed and ended, on a seat showing nothing now
  // nor in the next 2 s: [seat, index], else null.
  const now = Date.now();
  const layers = [...document.querySelectorAll('.aluette-sign[data-until]')].map(el => ({
    seat: +el.closest('.aluette-seat').dataset.seat, index: +el.dataset.index, from: +el.dataset.from,
    until: +el.dataset.until, hidden: getComputedStyle(el).visibility === 'hidden'}));
  for (const e of layers) {
    if (e.index === caught || !opponents.includes(e.seat) || !e.hidden || now < e.until + 300) continue;
    if (layers.some(o => o.seat === e.seat && o.from <= now + 2000 && now < o.until)) continue;
    return [e.seat, e.index];
  }
  return null;
}"""


def _watched_game():
    """A timed game whose opponents both sign, the first of them 12 s or more after the game starts
    (a busy machine draws the resumed page 10 s late), at least four signs in all."""
    from trainer.bots.table_setup import TableSettings
    from trainer.ui.game_session import GameSession

    for seed in range(300):
        session = GameSession.begin(TableSettings(), seed, timed=True)
        theirs = sorted((t.event for t in session.table.history if t.event.seat in (1, 3)), key=lambda e: e.at)
        if len(theirs) >= 4 and theirs[0].at >= 12.0 and {e.seat for e in theirs} == {1, 3}:
            return session
    raise AssertionError("no seed in 0..299 with both opponents signing late enough")


def _seen_button(page, seat: int):
    """The "seen!" button under that opponent's avatar (its key's container holds one button)."""
    return page.locator(f".st-key-seen_{seat}").get_by_role("button", name="seen!")


def test_seen_catches_a_bots_sign_while_it_shows_and_misses_one_clicked_late(server, tmp_path):  # noqa: F811 (a fixture)
    from playwright.sync_api import expect

    from trainer.ui import persistence

    session = _watched_game()
    persistence.save_game(SAVE_NAME, session.to_json())
    names = {1: "West", 3: "East"}
    with browser_page(server, tmp_path) as page:
        page.get_by_role("link", name=re.compile(r"\bPlay$")).first.click()
        expect(page.get_by_role("heading", name="Play Aluette").first).to_be_visible(timeout=60_000)
        page.get_by_label("Saved games").first.click()
        page.get_by_role("option", name=SAVE_NAME).click()
        page.get_by_role("button", name="Resume", exact=True).click()
        page.get_by_text("Your hand").first.wait_for(timeout=60_000)

        # Caught: click while an opponent's sign shows on its avatar.
        seat, caught = page.wait_for_function(SHOWING_NOW, arg=[1, 3], timeout=60_000, polling=25).json_value()
        _seen_button(page, seat).click()
        expect(page.get_by_text(re.compile(rf"Caught! {names[seat]} signed"))).to_be_visible(timeout=30_000)
        expect(page.get_by_text(re.compile(rf"Caught by you this deal: {names[seat]}'s sign"))).to_be_visible()

        # Missed: another sign has shown and ended, and nothing shows on that seat: click late.
        late_seat, late = page.wait_for_function(ENDED, arg=[caught, [1, 3]], timeout=60_000, polling=25).json_value()
        _seen_button(page, late_seat).click()
        expect(page.get_by_text(re.compile(rf"Missed: nothing of {names[late_seat]}'s was showing"))).to_be_visible(
            timeout=30_000)
    # The page autosaved both clicks at their moments: the catch inside the first sign's hold, the
    # miss after the late sign's end; the autosave resumes with the first sign caught, the late one not.
    from trainer.ui.game_session import GameSession

    slots = [n for n in persistence.saved_games() if n.startswith(persistence.AUTOSAVE_PREFIX)]
    assert len(slots) == 1, slots
    saved = persistence.load_game(slots[0])
    seen = [item for item in saved["inputs"] if "seen" in item]
    hold = session.table.watch.gaze.hold_s
    events = {t.event.index: t.event for t in session.table.history}
    assert [item["seen"] for item in seen] == [seat, late_seat]
    assert events[caught].at <= seen[0]["t"] <= events[caught].at + hold
    assert seen[1]["t"] > events[late].at + hold
    resumed = GameSession.from_json(saved)
    by_index = {t.event.index: t.event.caught_by for t in resumed.table.history}
    assert 0 in by_index[caught] and 0 not in by_index[late]
    assert server_errors(server.log) == [], server_error_report(server.log)
