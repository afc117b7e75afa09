"""Practice in a real headless Chromium with the camera on (a fake camera from real photos of
../shared/gestures, made into a .y4m at test time and never kept):

* Tries that match how people sign: the fake camera plays a real clip of a man opening his mouth
  (un as), three times slower, so that he holds it open about 3 s, then rests 2 s. "Try again"
  pressed while the mouth is already open counts that opening once it is held after the ask (it
  used to be ignored, and the try waited for the next opening, 4-7 s later).
* Calibration from the camera: when it is done, "Not calibrated" is replaced, not left beside it.
* The "×" on a sign of the teaching list takes it off the list and it stays off while the camera
  parts redraw (reported not to respond; not reproduced here with the camera stopped or playing:
  this test guards it).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from ui_browser_support import ask_until_seen, browser_page, server, server_error_report, server_errors, start_camera  # noqa: F401 (a fixture)

from trainer.ui.fakecam import make_signing_clip

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.vision]

SEEN = re.compile(r"Seen: un as — recognised ([\d.]+) s after it was asked, held [\d.]+ s")


def test_try_again_while_the_sign_is_held_counts_it(server, gestures_dir: Path, tmp_path: Path):  # noqa: F811 (a fixture)
    from playwright.sync_api import expect

    clip, _loop = make_signing_clip(gestures_dir, tmp_path / "held.y4m", slow=3)
    with browser_page(server, tmp_path, fake_video=clip) as page:
        start_camera(page)
        ask_until_seen(page, first=True)  # a first opening, seen and ended (asked again on a miss)
        verdict = page.get_by_text(SEEN)
        # The newest line of "Signs seen" is that opening's end; the next change is the next
        # opening, confirmed: the mouth is open now, for about 3 s more. "Try again" at once. On a
        # busy machine the click can land after he let go (it then rightly does not count): up to
        # three openings are tried.
        missed = page.get_by_text(re.compile(r"^Not seen: un as"))
        texts = []
        for _ in range(3):
            newest = page.locator("li").filter(has_text="→ un as").first
            before = newest.inner_text()
            expect(newest).not_to_have_text(before, timeout=30_000)
            page.get_by_role("button", name="Try again", exact=True).click()
            expect(verdict.or_(missed)).to_have_count(0, timeout=20_000)  # the new try has begun
            expect(verdict.or_(missed).first).to_be_visible(timeout=60_000)
            texts.append(verdict.or_(missed).first.inner_text())
            print(f"Try again while held: {texts[-1]}")
            if "before the ask" in texts[-1]:
                break
        text = texts[-1]
        assert "before the ask" in text, f"the held opening never counted: {texts}"
        took = float(SEEN.search(text).group(1))
        assert took < 2.0, f"seen {took} s after the ask ({text})"

    assert server_errors(server.log) == [], server_error_report(server.log)


def test_a_camera_calibration_replaces_not_calibrated(server, gestures_dir: Path, tmp_path: Path):  # noqa: F811 (a fixture)
    """Calibration from the camera: once done, its line says so, and "Not calibrated" is gone (it
    stayed beside "Calibrated … and saved": drawn by the page before, never redrawn)."""
    from playwright.sync_api import expect

    clip, _loop = make_signing_clip(gestures_dir, tmp_path / "signing.y4m")
    with browser_page(server, tmp_path, fake_video=clip) as page:
        start_camera(page)
        page.get_by_text("Calibrate (neutral face)").click()
        expect(page.get_by_text("Not calibrated: population defaults are in use.")).to_be_visible(timeout=30_000)
        page.get_by_role("button", name=re.compile(r"^Calibrate from the camera")).click()
        done = page.get_by_text(re.compile(r"^Calibrated( on .+)? from \d+ frames over 3 s and saved"))
        expect(done).to_be_visible(timeout=90_000)
        expect(page.get_by_text("Not calibrated: population defaults are in use.")).to_have_count(0, timeout=5_000)
    assert server_errors(server.log) == [], server_error_report(server.log)


def test_the_cross_takes_a_sign_off_the_teaching_list(server, tmp_path: Path):  # noqa: F811 (a fixture)
    from playwright.sync_api import expect

    with browser_page(server, tmp_path) as page:
        expect(page.get_by_role("heading", name="Practice the signs")).to_be_visible(timeout=60_000)
        page.get_by_text("Camera on", exact=True).click()
        expect(page.get_by_text("Mode: live camera.")).to_be_visible(timeout=60_000)
        page.get_by_text("Teach your signs").click()
        chooser = page.locator(".st-key-teach_signs")
        expect(chooser).to_be_visible(timeout=30_000)
        tags = chooser.locator("[data-tag]")  # Streamlit 1.65+'s own multiselect (BaseWeb's tags before)
        expect(tags.first).to_be_visible(timeout=30_000)  # the chooser draws its tags after itself
        count = tags.count()
        assert count >= 2, f"{count} signs on the list"
        first = tags.first.inner_text()
        tags.first.locator('[aria-label^="Remove"]').click()  # the tag's ×
        expect(tags).to_have_count(count - 1, timeout=20_000)
        assert first not in [t.inner_text() for t in tags.all()]
        # The list stays as chosen while the page's camera parts redraw.
        page.wait_for_timeout(3_000)
        assert tags.count() == count - 1
    assert server_errors(server.log) == [], server_error_report(server.log)
