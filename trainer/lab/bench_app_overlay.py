"""Frame rate of the live overlay in the browser, with Chromium's fake camera.

Starts the app (headless, localhost, no telemetry), opens the Practice page in Debian's headless
Chromium (Playwright with ``executable_path``) whose fake camera plays a 640x480 clip made from real
photos in ../shared/gestures (a neutral face, then the mouth open), switches the camera on, presses
START, and counts the frames the page's <video> element presents (``requestVideoFrameCallback``):
each one is a frame that went through the app's frame callback and carries the overlay. Also prints
how many frames per second the recognizer analysed (the page's own figure). Target: overlay >= 25 fps.

    python -m trainer.lab.bench_app_overlay [--seconds 10]
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path

from trainer.ui.fakecam import make_sign_clip
from trainer.ui.launch import REPO_ROOT, chromium_page, serve_app

COUNT_FRAMES = """async (seconds) => {
  const video = document.querySelector('video');
  if (!video) return null;
  return await new Promise((resolve) => {
    let frames = 0, first = null, last = null;
    const tick = (now, meta) => {
      frames += 1;
      if (first === null) first = meta.presentedFrames;
      last = meta.presentedFrames;
      video.requestVideoFrameCallback(tick);
    };
    video.requestVideoFrameCallback(tick);
    setTimeout(() => resolve({callbacks: frames, presented: last - first,
                              width: video.videoWidth, height: video.videoHeight}), seconds * 1000);
  });
}"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m trainer.lab.bench_app_overlay", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds to let the stream settle first")
    parser.add_argument("--shared", type=Path, default=REPO_ROOT.parent / "shared", help="the shared data folder")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        clip = make_sign_clip(args.shared / "gestures", Path(folder) / "clip.y4m")
        with serve_app(home=Path(folder)) as app, \
                chromium_page(app.url, fake_video=clip, viewport=(1400, 1000)) as page:
            page.get_by_text("Practice the signs").wait_for(timeout=60_000)
            page.get_by_text("Camera on", exact=True).click()
            page.get_by_text("Mode: live camera.").wait_for(timeout=30_000)
            frame = page.frame_locator('iframe[title*="webrtc"]')
            frame.get_by_role("button", name=re.compile("start", re.I)).click(timeout=60_000)
            page.get_by_text(re.compile(r"frames/s analysed")).first.wait_for(timeout=90_000)
            time.sleep(args.warmup)
            iframe = next(
                f
                for f in page.frames
                if "webrtc" in (f.name or "") or f.url.endswith("index.html") or "component" in f.url
            )
            result = iframe.evaluate(COUNT_FRAMES, args.seconds)
            analysed = page.get_by_text(re.compile(r"frames/s analysed")).first.inner_text()
    if not result:
        print("no <video> element found in the camera widget", file=sys.stderr)
        return 1
    fps = result["presented"] / args.seconds
    print(f"video {result['width']}x{result['height']}: {result['presented']} frames presented in "
          f"{args.seconds:.0f} s = overlay {fps:.1f} fps (target >= 25)")
    print(f"recognizer: {analysed.split('·')[0].strip()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
