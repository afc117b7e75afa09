"""The Play table as a card player finds it, in a real headless Chromium at 1280 px: one deal on
screen at a time (a closed deal stays as a review until "Next deal", then the new deal alone), six
seats that read without a sideways scroll with each card beside its own seat, and the drawn faces
whose every sign reads at the table's size.

Games are prepared here as saves (quick ``simple`` bots, seeded) and resumed through the page, so
the page shows a deal's review without playing a whole deal by clicks. Debian's /usr/bin/chromium
through Playwright; no camera. The waits follow the page's own state.
"""

from __future__ import annotations

import re

import pytest

from ui_browser_support import browser_page, server, server_error_report, server_errors  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WIDTH = 1280


def _at_review(players: int, seed: int = 2):
    """A timed game played with the first legal card until its first deal ends: the deal's review."""
    from trainer.bots.table_setup import TableSettings
    from trainer.rules.actions import Declare, Declaration
    from trainer.rules.cards import Card
    from trainer.ui.game_session import HUMAN_SEAT, GameSession

    session = GameSession.begin(TableSettings(players=players, partner="simple", opponents="simple"), seed, timed=True)
    for _ in range(500):
        if session.reviewing:
            return session
        if session.paused:
            session.next()
            continue
        actions = session.table.view(HUMAN_SEAT).legal_actions
        cards = [a for a in actions if isinstance(a, Card)]
        plain = [a for a in actions if not (isinstance(a, Declare) and a.declaration is not Declaration.PASS)]
        session.act(cards[0] if cards else plain[-1])
    raise AssertionError("the first deal never ended")


def _resume(page, name: str) -> None:
    from playwright.sync_api import expect

    page.get_by_role("link", name=re.compile(r"\bPlay$")).first.click()
    expect(page.get_by_role("heading", name="Play Aluette").first).to_be_visible(timeout=60_000)
    page.get_by_label("Saved games").first.click()
    page.get_by_role("option", name=name).click()
    page.get_by_role("button", name="Resume", exact=True).click()


STACKED = """() => {
  // For each card on the table that names its seat: the other seats whose face lies just above or
  // below it (their drawings share a stretch of the page's width, within a card's height): such a
  // card reads as theirs.
  const box = el => el.querySelector('img').getBoundingClientRect();
  const faces = [...document.querySelectorAll('.aluette-seat[data-seat]')].map(el => [+el.dataset.seat, box(el)]);
  return [...document.querySelectorAll('.aluette-card[data-seat]')].map(card => {
    const c = box(card);
    const under = faces.filter(([seat, f]) => f.left < c.right - 4 && c.left + 4 < f.right
                                && f.top < c.bottom + c.height && c.top - c.height < f.bottom).map(([seat]) => seat);
    return [+card.dataset.seat, under];
  });
}"""
SIDEWAYS = """() => {
  // Elements of the score sheet (and the page) wider than their box: a sideways scroll.
  const out = [];
  const sheet = document.querySelector('.st-key-score_sheet');
  if (!sheet) return ['no score sheet'];
  for (const el of [sheet, ...sheet.querySelectorAll('*'), document.scrollingElement])
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible'
        || el === document.scrollingElement && el.scrollWidth > el.clientWidth + 1)
      out.push(`${el.tagName}.${el.className}: ${el.scrollWidth} > ${el.clientWidth}`);
  return out;
}"""


def test_six_seats_read_at_1280_px_with_each_card_beside_its_seat_and_no_sideways_scroll(server, tmp_path):
    from playwright.sync_api import expect

    from trainer.ui import persistence

    session = _at_review(6)
    persistence.save_game("six-review", session.to_json())
    with browser_page(server, tmp_path, viewport=(WIDTH, 1000)) as page:
        _resume(page, "six-review")
        expect(page.get_by_text(re.compile(r"Deal 1 is over")).first).to_be_visible(timeout=60_000)
        page.get_by_text(re.compile(r"^Score sheet")).first.click()
        page.locator(".st-key-score_sheet").wait_for(timeout=30_000)
        page.locator(".aluette-seat").first.scroll_into_view_if_needed()
        page.screenshot(path=str(tmp_path / "six.png"))
        cards = page.evaluate(STACKED)
        assert len(cards) == 6, cards  # the last trick: a card for each seat
        assert all(set(faces) <= {seat} for seat, faces in cards), cards
        assert page.evaluate(SIDEWAYS) == []
    assert server_errors(server.log) == [], server_error_report(server.log)


def test_a_closed_deal_stays_on_screen_alone_until_next_deal(server, tmp_path):
    from playwright.sync_api import expect

    from trainer.ui import persistence

    session = _at_review(4)
    assert session.table.game.to_move is not None
    persistence.save_game("four-review", session.to_json())
    with browser_page(server, tmp_path, viewport=(WIDTH, 1000)) as page:
        _resume(page, "four-review")
        expect(page.get_by_text(re.compile(r"Deal 1 is over")).first).to_be_visible(timeout=60_000)
        # The review: the closed deal's hand is gone, the next deal's cards are not yet shown.
        expect(page.get_by_text(re.compile(r"deal 1 is over: your cards for deal 2"))).to_be_visible()
        assert page.get_by_role("button", name="Play", exact=True).count() == 0
        expect(page.get_by_text(re.compile(r"Tricks of deal 1 \(9\)"))).to_be_visible()
        page.get_by_role("button", name="Next deal").click()
        # The new deal alone: its hand to play, nothing of deal 1 beside it.
        expect(page.get_by_text(re.compile(r"Deal 1 is over"))).to_have_count(0, timeout=60_000)
        expect(page.get_by_role("button", name="Play", exact=True).first).to_be_visible(timeout=30_000)
        assert page.get_by_role("button", name="Play", exact=True).count() == 9
        expect(page.get_by_text(re.compile(r"Tricks of deal 1"))).to_have_count(0)
    assert server_errors(server.log) == [], server_error_report(server.log)
