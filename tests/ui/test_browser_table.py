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
    from trainer.rules.actions import Declaration, Declare
    from trainer.rules.cards import Card
    from trainer.ui.game_session import HUMAN_SEAT, GameSession

    session = GameSession.begin(TableSettings(players=players, partner="simple", opponents="simple"), seed, timed=True)
    for _ in range(500):
        if session.table.game.results:  # the first deal is over (the session shows its review)
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


def test_six_seats_read_at_1280_px_with_each_card_beside_its_seat_and_no_sideways_scroll(server, tmp_path):  # noqa: F811 (a fixture)
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


def test_a_closed_deal_stays_on_screen_alone_until_next_deal(server, tmp_path):  # noqa: F811 (a fixture)
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


# The band of the face (in its 100 x 100 drawing) that carries each face sign.
SIGN_BANDS = {"brows_up": (22, 42), "look_up": (22, 56), "wink": (40, 56), "eyes_closed": (40, 56),
              "lip_corner": (58, 90), "pout": (58, 90), "mouth_open": (58, 90), "tongue_out": (58, 92),
              "lip_bite": (58, 90), "grimace": (58, 90), "head_tilt": (10, 95)}
CHANGED = 60
"""A pixel differs clearly when its grey level moves by more than this (of 255)."""
MIN_SHARE = 0.04
"""A sign reads when at least this share of its band's pixels differs clearly from the neutral face
(the raised brows on the darkest look moved 27 of 1,428 pixels, 1.9 %, before the brows were redrawn)."""


def test_every_face_sign_drawn_at_the_table_size_differs_clearly_from_the_neutral_face(tmp_path):
    """Each face sign of every look drawn at 84 px (the Play page's avatars) by Chromium, against
    the same look's neutral face, in the band that carries the sign."""
    import io

    from PIL import Image, ImageChops
    from ui_browser_support import require_chromium

    from trainer.deck import avatar_svg
    from trainer.deck.pictograms import LOOKS
    from trainer.signals.gestures import BodyPart, Gesture
    from trainer.ui.launch import chromium_page

    require_chromium()
    width = 84
    weak = []
    with chromium_page(None, viewport=(400, 400)) as page:
        def drawn(svg: str):
            page.set_content(f"<body style='margin:0;background:#fff'>"
                             f"<div id='a' style='width:{width}px'>{svg}</div></body>")
            return Image.open(io.BytesIO(page.locator("#a").screenshot())).convert("L")

        for variant in range(len(LOOKS)):
            neutral = drawn(avatar_svg(None, variant=variant, width=width))
            for gesture in (g for g in Gesture if g.body_part is BodyPart.FACE):
                top, bottom = SIGN_BANDS[gesture.value]
                band = (0, int(top * width / 100), width, int(bottom * width / 100))
                diff = ImageChops.difference(neutral, drawn(avatar_svg(gesture, variant=variant,
                                                                       width=width))).crop(band)
                counts = diff.histogram()  # a grey image: pixels at each level 0..255
                share = sum(counts[CHANGED + 1:]) / sum(counts)
                if share < MIN_SHARE:
                    weak.append(f"{gesture.value} on look {variant}: {share:.1%}")
    assert weak == [], "\n".join(weak)
