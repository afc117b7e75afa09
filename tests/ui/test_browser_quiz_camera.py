"""The quiz with the camera on, in a real headless Chromium whose fake camera plays a real clip of a
man opening his mouth every few seconds (un as under every convention; ../shared/gestures, made into
a .y4m at test time and never kept).

* A card → sign question asked while the camera's queue holds a sign made during the last feedback
  is not answered by it: the answer is a sign begun after the question, once the face was relaxed
  (the quiz said "you answered in 0.2 s" before).
* The feedback says what the camera read ("Seen by the camera: … → un as") and shows under the
  question, above the progress table (it was drawn below it, off screen), which counts the answer.
* The camera's answer leaves the stream playing, and "Next question" (drawn by the page, not the
  camera's fragment) takes the click made right after STOP: inside the fragment, that click was lost
  when STOP's full run replaced the fragment (seen with two browser tests at once).
* With the camera stopped, a card → sign question waits for a click and says so.

The curriculum asks Monsieur's name first, then "which sign tells your partner about this?"
(Monsieur's); other questions are answered with a click.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
import ui_browser_support
from ui_browser_support import browser_page, camera_button, server, server_error_report, server_errors, start_camera  # noqa: F401 (a fixture)

from trainer.ui.fakecam import make_signing_clip

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.vision]

FEEDBACK = re.compile(r"^(Right!|Not quite:)")
CAMERA_QUESTION = "…or answer by making the sign to the camera"
ANSWERED_IN = re.compile(r"you answered in ([\d.]+) s")


def _feedback(page):
    return page.locator('[data-testid="stAlert"]').filter(has_text=ANSWERED_IN)  # right or wrong


def _answer_by_click_then_next(page) -> None:
    """Answer the question on screen with its first choice; press Next question."""
    from playwright.sync_api import expect

    page.locator('[class*="st-key-quiz_choice_"] button').first.click()
    expect(_feedback(page).first).to_be_visible(timeout=60_000)
    _next(page)


def _next(page) -> None:
    """Press Next question and wait for the new question (no feedback on the page)."""
    from playwright.sync_api import expect

    page.get_by_role("button", name="Next question").click()
    expect(_feedback(page)).to_have_count(0, timeout=60_000)


def test_the_quiz_takes_a_sign_begun_after_the_question_says_what_it_saw_and_waits_when_stopped(
        server, gestures_dir: Path, tmp_path: Path):  # noqa: F811 (a fixture)
    from playwright.sync_api import expect

    clip, loop = make_signing_clip(gestures_dir, tmp_path / "signing.y4m")
    with browser_page(server, tmp_path, fake_video=clip) as page:
        start_camera(page)
        page.get_by_role("link", name=re.compile(r"\bQuiz$")).first.click()
        expect(page.get_by_role("heading", name="Quiz: cards and signs")).to_be_visible(timeout=60_000)
        page.get_by_role("button", name="Start").click()

        # Monsieur's name, by a click; the feedback stays up for more than a loop of the clip, so
        # the camera's queue holds a mouth opening made before the next question.
        page.locator('[class*="st-key-quiz_choice_"] button').first.click()
        expect(_feedback(page).first).to_be_visible(timeout=60_000)
        time.sleep(loop + 1.0)  # the clip's next opening happens while the feedback is read
        _next(page)

        # Monsieur's sign: the camera answers with the clip's next opening, begun after the question.
        expect(page.get_by_text(CAMERA_QUESTION)).to_be_visible(timeout=60_000)
        feedback = _feedback(page).first
        expect(feedback).to_be_visible(timeout=90_000)
        text = feedback.inner_text()
        seconds = float(ANSWERED_IN.search(text).group(1))
        print(f"camera answer after {seconds:.1f} s: {text}")
        assert "Seen by the camera: " in text and "→ un as" in text, text
        assert seconds >= 0.5, f"answered {seconds} s after the question: a sign made before it"
        progress = page.get_by_role("heading", name="Your progress")
        assert feedback.bounding_box()["y"] < progress.bounding_box()["y"], "the feedback is below the progress"
        # The progress under it counts the camera's answer ("This sitting" once stayed at the
        # click's 0/1 or 1/1), and the page's one full run after the answer left the stream playing.
        sitting = page.get_by_test_id("stMetric").filter(has_text="This sitting")
        expect(sitting).to_contain_text(re.compile(r"[012]/2"), timeout=10_000)
        time.sleep(2.0)
        assert ui_browser_support.camera_restarts(page) == 0, "the stream ended after the camera's answer"
        expect(camera_button(page, "stop")).to_be_visible()

        # STOP, then on to the next card → sign question (others answered by a click): no answer comes.
        camera_button(page, "stop").click()
        expect(camera_button(page, "start")).to_be_visible(timeout=60_000)
        _next(page)
        for _ in range(12):
            expect(page.get_by_role("heading", name="Your progress")).to_be_visible(timeout=60_000)
            if page.get_by_text(CAMERA_QUESTION).count():
                break
            _answer_by_click_then_next(page)
        expect(page.get_by_text(CAMERA_QUESTION)).to_be_visible(timeout=60_000)
        expect(page.get_by_text(re.compile("^Camera stopped: answer with a click"))).to_be_visible(timeout=30_000)
        time.sleep(2 * loop)  # two of the clip's openings, had the camera been on
        assert _feedback(page).count() == 0, "a question answered with the camera stopped"
    assert server_errors(server.log) == [], server_error_report(server.log)
