"""The live camera's figures in a real browser: START to the first recognised sign, frames analysed
per second, and the time from a sign's onset to "received by your partner" on Play.

Starts the app like ``aluette app`` (headless, localhost, no telemetry, a temporary data folder) and
drives Debian's headless Chromium (Playwright with ``executable_path``) whose fake camera plays a
real clip from ../shared/gestures (a man opening his mouth: one ace; ``trainer.ui.fakecam``, made
now in a temporary folder and deleted after). The times are the page's own:

* START -> first sign: wall time from the click on START until Practice lists the first recognised
  gesture. It includes the WebRTC connection and the wait for the clip's next opening (one every
  loop of the clip, printed), so it is an upper bound of what a person sees.
* frames analysed per second: the recognizer's figure shown on Practice, sampled once a second.
* onset -> received: on Play (a saved deal in which the person holds one ace, so the sign is true),
  each camera sign's "received by your partner N s after you began it", measured on the camera's
  clock from the gesture's first frame to the moment the page handed it to the table. A camera sign
  is sent when the gesture *ends* (its repeat count is then known), so this includes the hold.

    python -m trainer.lab.bench_app_camera [--seconds 20] [--signs 4]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

from trainer.ui.fakecam import make_signing_clip, seed_with_one_ace
from trainer.ui.launch import REPO_ROOT, chromium_page, serve_app

SAVE_NAME = "bench-deal"


def _found(pattern: str, text: str) -> str:
    """The first group of ``pattern`` in a page's text; a clear error when the page says otherwise."""
    match = re.search(pattern, text)
    if match is None:
        raise SystemExit(f"the page no longer says what this benchmark reads ({pattern!r} in {text!r})")
    return match.group(1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m trainer.lab.bench_app_camera", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to sample frames/s on Practice")
    parser.add_argument("--signs", type=int, default=4, help="camera signs to time on Play (the page lists 4)")
    parser.add_argument("--shared", type=Path, default=REPO_ROOT.parent / "shared", help="the shared data folder")
    args = parser.parse_args(argv)
    from playwright.sync_api import expect

    with tempfile.TemporaryDirectory() as folder:
        os.environ["ALUETTE_HOME"] = folder
        from trainer.ui import persistence
        from trainer.ui.game_session import GameSession

        persistence.save_game(SAVE_NAME, GameSession.start("vendee", "classic", seed_with_one_ace()).to_json())
        clip, loop = make_signing_clip(args.shared / "gestures", Path(folder) / "clip.y4m")
        with serve_app(home=Path(folder)) as app, \
                chromium_page(app.url, fake_video=clip, viewport=(1400, 1000)) as page:
            expect(page.get_by_role("heading", name="Practice the signs")).to_be_visible(timeout=60_000)
            page.get_by_text("Camera on", exact=True).click()
            camera = page.frame_locator('[data-testid="stSidebar"] iframe[title*="webrtc"]')
            start_button = camera.get_by_role("button", name=re.compile("^start$", re.I))
            start_button.wait_for(timeout=120_000)
            started = time.monotonic()
            start_button.click()
            page.locator("li", has_text=re.compile(r"→")).first.wait_for(timeout=180_000)
            first_sign = time.monotonic() - started
            rates = []
            for _ in range(int(args.seconds)):
                text = page.get_by_text(re.compile(r"\d+ frames/s analysed")).first.inner_text()
                rates.append(int(_found(r"(\d+) frames/s", text)))
                page.wait_for_timeout(1000)
            page.get_by_role("link", name=re.compile(r"\bPlay$")).first.click()
            page.get_by_label("Saved games").first.click()
            page.get_by_role("option", name=SAVE_NAME).click()
            page.get_by_role("button", name="Resume", exact=True).click()
            count = re.compile(r"Camera signs received by your partner this deal: (\d+)")
            deadline = time.monotonic() + 120 + args.signs * 2 * loop
            while time.monotonic() < deadline:
                shown = page.get_by_text(count).first
                if shown.count() and int(_found(count.pattern, shown.inner_text())) >= args.signs:
                    break
                page.wait_for_timeout(500)
            received = page.get_by_text(re.compile(r"received by your partner [\d.]+ s after"))
            latencies = [float(_found(r"([\d.]+) s after", received.nth(i).inner_text()))
                         for i in range(received.count())]
    print(f"load average at the end: {os.getloadavg()[0]:.1f} (2 cores)")
    print(f"START -> first recognised sign: {first_sign:.1f} s (the clip opens the mouth once every {loop:.1f} s)")
    print(f"frames analysed per second on Practice: median {statistics.median(rates)} "
          f"(min {min(rates)}, max {max(rates)}, {len(rates)} samples)")
    if latencies:
        values = sorted(latencies)
        print(f"sign onset -> received by the partner on Play: median {statistics.median(values):.1f} s "
              f"over {len(values)} signs ({', '.join(f'{v:.1f}' for v in values)})")
    else:
        print("no camera sign reached the partner on Play")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
