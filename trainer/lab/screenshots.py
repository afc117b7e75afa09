"""Screenshots of every page into docs/screenshots/, the camera on, taken on purpose (not by tests).

Starts the app (temporary data folder), drives Debian's headless Chromium with a fake camera playing
a real clip from ../shared/gestures (``trainer.ui.fakecam``), and saves Practice (a sign asked and
seen, the meters of the convention), Play (a saved deal in which the person holds one ace, resumed,
with the camera signs the partner received), Quiz (a card → sign question answered by the camera,
what it saw said under the question) and Rules. The footage is of a real person whose
rights are unknown: the video element is masked in every picture. Look at the pictures before
committing them.

    python -m trainer.lab.screenshots [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from pathlib import Path

from trainer.ui.fakecam import make_signing_clip, seed_with_one_ace
from trainer.ui.launch import REPO_ROOT, chromium_page, serve_app

SAVE_NAME = "screenshot-deal"
MASK = "#4a4f5a"


def shoot(page, out: Path, name: str) -> None:
    """The whole page (Streamlit scrolls inside its own container: a tall viewport shows it all),
    the camera's video masked."""
    from playwright.sync_api import expect

    page.set_viewport_size({"width": 1400, "height": 2200})
    expect(page.locator('[data-testid="stSkeleton"]')).to_have_count(0, timeout=60_000)
    page.wait_for_timeout(1500)  # let the layout settle after the resize (a picture, not a test)
    video = page.frame_locator('[data-testid="stSidebar"] iframe[title*="webrtc"]').locator("video")
    page.screenshot(path=str(out / f"{name}.png"), mask=[video], mask_color=MASK)
    page.set_viewport_size({"width": 1400, "height": 1100})
    print(f"saved {out / f'{name}.png'}")


def ask_until_seen(page, asks: int = 3) -> None:
    """Ask for un as until the page says it was seen (a busy machine may let a try time out)."""
    import time

    seen = page.get_by_text(re.compile(r"Seen: un as — recognised .* held"))
    missed = page.get_by_text(re.compile(r"^Not seen: un as"))
    for ask in range(asks):
        if ask:  # the same sign again
            page.get_by_role("button", name="Try again", exact=True).click()
        else:
            page.get_by_label("or choose").first.click()
            page.get_by_role("option", name="un as").click()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if seen.count():
                return
            if missed.count():
                break
            page.wait_for_timeout(250)
    raise SystemExit("un as was never seen on Practice: look at the recognizer (and the machine's load)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m trainer.lab.screenshots", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO_ROOT / "docs" / "screenshots")
    parser.add_argument("--shared", type=Path, default=REPO_ROOT.parent / "shared", help="the shared data folder")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import expect

    with tempfile.TemporaryDirectory() as folder:
        os.environ["ALUETTE_HOME"] = folder
        from trainer.ui import persistence
        from trainer.ui.game_session import GameSession

        persistence.save_game(SAVE_NAME, GameSession.start("vendee", "classic", seed_with_one_ace()).to_json())
        clip, _loop = make_signing_clip(args.shared / "gestures", Path(folder) / "clip.y4m")
        with serve_app(home=Path(folder)) as app, chromium_page(app.url, fake_video=clip) as page:
            expect(page.get_by_role("heading", name="Practice the signs")).to_be_visible(timeout=60_000)
            page.get_by_text("Camera on", exact=True).click()
            camera = page.frame_locator('[data-testid="stSidebar"] iframe[title*="webrtc"]')
            camera.get_by_role("button", name=re.compile("^start$", re.I)).click(timeout=120_000)
            expect(page.get_by_text(re.compile(r"frames/s analysed")).first).to_be_visible(timeout=120_000)
            ask_until_seen(page)
            expect(page.get_by_text("ouvrir la bouche — open the mouth").first).to_be_visible(timeout=30_000)
            shoot(page, args.out, "practice")

            page.get_by_role("link", name=re.compile(r"\bPlay$")).first.click()
            page.get_by_label("Saved games").first.click()
            page.get_by_role("option", name=SAVE_NAME).click()
            page.get_by_role("button", name="Resume", exact=True).click()
            expect(page.get_by_text(re.compile(r"received by your partner [\d.]+ s after")).first).to_be_visible(
                timeout=120_000
            )
            shoot(page, args.out, "play")

            # The quiz: the first question (a card's name) answered by a click, then "which sign tells
            # your partner about this?" answered by the camera, what it saw said above the progress.
            page.get_by_role("link", name=re.compile(r"\bQuiz$")).first.click()
            page.get_by_role("button", name="Start").click()
            page.locator('[class*="st-key-quiz_choice_"] button').first.click()
            page.get_by_role("button", name="Next question").click()
            expect(page.get_by_text(re.compile(r"Seen by the camera: ")).first).to_be_visible(timeout=120_000)
            shoot(page, args.out, "quiz")

            page.get_by_role("link", name=re.compile(r"\bRules$")).first.click()
            expect(page.get_by_role("heading", name="Rules of Aluette").first).to_be_visible(timeout=60_000)
            shoot(page, args.out, "rules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
