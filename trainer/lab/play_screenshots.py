"""Screenshots of the Play page as a card player sees it, taken on purpose (not by the tests):
a new game, the person's turn, a closed trick with the coach, a deal's end, the game-over screen.

    .venv/bin/python -m trainer.lab.play_screenshots [--out docs/screenshots] [--port 8512]

Starts the app on a localhost port with a fresh data folder, drives Debian's Chromium through
Playwright (no browser download), clicks through a whole game (Pass / No chant / Refuse, the weakest
legal card, Next), and writes play-*.png. Look at them before committing them.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from trainer.ui.launch import REPO_ROOT, chromium_page, serve_app


def _shot(page, out: Path, name: str) -> None:
    page.set_viewport_size({"width": 1280, "height": 2200})
    page.wait_for_timeout(1500)
    page.screenshot(path=str(out / f"{name}.png"))
    page.set_viewport_size({"width": 1280, "height": 1100})
    print(f"wrote {out / (name + '.png')}")


def _shot_once(page, out: Path, name: str, taken: set[str]) -> None:
    """``_shot`` the first time ``name`` comes up."""
    if name not in taken:
        _shot(page, out, name)
        taken.add(name)


def _visible(page, role_name: str) -> bool:
    button = page.get_by_role("button", name=role_name, exact=True)
    return button.count() > 0 and button.first.is_visible() and button.first.is_enabled()


def _click(page, role_name: str, *, last: bool = False) -> None:
    button = page.get_by_role("button", name=role_name, exact=True)
    (button.last if last else button.first).click()
    page.wait_for_timeout(1500)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m trainer.lab.play_screenshots", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO_ROOT / "docs" / "screenshots")
    parser.add_argument("--port", type=int, default=8512)
    parser.add_argument("--max-seconds", type=float, default=900)
    parser.add_argument("--language", default=None, help="pick this language in the sidebar first (e.g. English)")
    parser.add_argument("--prefix", default="play", help="file names: PREFIX-chant.png, ...")
    parser.add_argument("--players", type=int, choices=(3, 4, 6), default=4,
                        help="table size chosen in the table settings before New game")
    args = parser.parse_args(argv)
    from playwright.sync_api import expect

    args.out.mkdir(parents=True, exist_ok=True)
    home = tempfile.mkdtemp(prefix="aluette-shots-")
    with serve_app(home=Path(home), log=Path(home) / "streamlit.log", port=args.port) as app, \
            chromium_page(app.url) as page:
        if args.language:
            page.get_by_label("Language", exact=False).first.click()
            page.get_by_role("option", name=args.language).click()
            page.wait_for_timeout(1500)
        page.get_by_role("link", name="Play").first.click()
        expect(page.get_by_role("heading", name="Play Aluette").first).to_be_visible(timeout=60_000)
        if args.players != 4:
            page.get_by_text(f"{args.players} (", exact=False).first.click()
            page.wait_for_timeout(1500)
        page.get_by_role("button", name="New game").first.click()
        expect(page.get_by_text("Your hand").first).to_be_visible(timeout=60_000)
        page.wait_for_timeout(2000)
        taken: set[str] = set()
        start = time.monotonic()
        while time.monotonic() - start < args.max_seconds:
            if page.get_by_text("Game over —").count():
                _shot(page, args.out, f"{args.prefix}-game-over")
                break
            if _visible(page, "Next deal"):
                _shot_once(page, args.out, f"{args.prefix}-deal-over", taken)
                _click(page, "Next deal")
            elif _visible(page, "Next trick"):
                _shot_once(page, args.out, f"{args.prefix}-closed-trick", taken)
                _click(page, "Next trick")
            elif _visible(page, "Play"):
                if page.get_by_text("Trick in progress").count():
                    _shot_once(page, args.out, f"{args.prefix}-your-turn", taken)
                enabled = [b for b in page.get_by_role("button", name="Play", exact=True).all() if b.is_enabled()]
                enabled[-1].click()
                page.wait_for_timeout(1500)
            else:
                for choice in ("Pass", "No chant", "Refuse"):
                    if _visible(page, choice):
                        if choice == "No chant":
                            _shot_once(page, args.out, f"{args.prefix}-chant", taken)
                        _click(page, choice)
                        break
                else:
                    page.wait_for_timeout(1000)


if __name__ == "__main__":
    main()
