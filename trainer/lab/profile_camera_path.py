"""Where a live camera frame's time goes on the server, stage by stage, without a browser.

The app's camera (``trainer.ui.camera``, SENDRECV) does for every frame the browser sends: decode
the VP8 packet (aiortc), convert the YUV frame to BGR (``to_ndarray``), hand it to the analysis
thread (``SignWatcher.submit``), draw the latest analysis on it (``SignWatcher.display``), convert
it back (``from_ndarray``) and encode it in VP8 to send it back. The analysis thread runs the vision
pipeline on the newest frame. This script times each of those stages, one after the other on one
thread, on the frames of the real clip the browser test's fake camera plays (``trainer.ui.fakecam``,
made in a temporary folder from ../shared/gestures and deleted after), at the camera's 640x480:

    nice python -m trainer.lab.profile_camera_path [--frames 150] [--shared ../shared]

It prints milliseconds per frame for each stage and what they leave for analysis on one core at
30 frames/s. Browser-side costs (Chromium's fake camera, its encoder and decoder, rendering) are not
in it: ``python -m trainer.lab.bench_app_camera`` measures the whole thing in a real browser.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

from trainer.ui.fakecam import make_signing_clip
from trainer.ui.launch import REPO_ROOT


def _timed(samples: dict[str, list[float]], name: str, work, *args, **kwargs):
    started = time.perf_counter()
    value = work(*args, **kwargs)
    samples.setdefault(name, []).append((time.perf_counter() - started) * 1000.0)
    return value


def _report(samples: dict[str, list[float]], frames: int, width: int, height: int) -> None:
    """Print each stage's milliseconds a frame, the cost outside the pipeline and the pipeline's rate."""
    warm = slice(min(10, frames // 5), None)  # MediaPipe's first frames build its graphs
    print(f"{frames} frames of {width}x{height}, ms per frame "
          f"(median, mean; first {warm.start} left out)")
    callback = 0.0
    for name, values in samples.items():
        kept = values[warm]
        mean = statistics.fmean(kept)
        print(f"  {name:<40} {statistics.median(kept):6.2f} {mean:6.2f}")
        if not name.startswith("pipeline"):
            callback += mean
    pipeline = statistics.fmean(samples["pipeline (analysis thread)"][warm])
    print(f"  every shown frame costs {callback:.1f} ms outside the pipeline: {callback * 30 / 10:.0f} % "
          f"of one core at 30 frames/s")
    print(f"  the pipeline alone: {1000 / pipeline:.1f} frames/s on one core "
          f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m trainer.lab.profile_camera_path", description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=150, help="frames to time (the clip loops)")
    parser.add_argument("--shared", type=Path, default=REPO_ROOT.parent / "shared", help="the shared data folder")
    args = parser.parse_args(argv)

    import av
    from aiortc.codecs.vpx import Vp8Encoder

    from trainer.ui.recognition import make_watcher
    from trainer.ui.settings import Settings
    from trainer.vision.sources import open_source

    with tempfile.TemporaryDirectory() as folder:
        clip, _ = make_signing_clip(args.shared / "gestures", Path(folder) / "clip.y4m")
        source = open_source(str(clip))
        images = [frame.image for frame in source]
    # what the browser would send: the clip's frames as YUV 4:2:0 VideoFrames, VP8-encoded
    height, width = images[0].shape[:2]
    send = av.CodecContext.create("libvpx", "w")
    send.width, send.height, send.pix_fmt, send.time_base = width, height, "yuv420p", Fraction(1, 30)
    receive = av.CodecContext.create("libvpx", "r")  # what aiortc's Vp8Decoder wraps
    back = Vp8Encoder()
    watcher = make_watcher(Settings())
    watcher.prepare()
    samples: dict[str, list[float]] = {}
    analysis = None
    for n in range(args.frames):
        bgr = images[n % len(images)]
        incoming = av.VideoFrame.from_ndarray(bgr, format="bgr24").reformat(format="yuv420p")
        incoming.pts = n
        packets = send.encode(incoming)
        if not packets:
            continue
        # the browser's packet -> a frame on the server (aiortc), then the watcher's callback path
        decoded = _timed(samples, "VP8 decode (aiortc)", lambda ps: [f for p in ps for f in receive.decode(p)], packets)
        if not decoded:
            continue
        frame = decoded[-1]
        frame.pts, frame.time_base = n * 3000, Fraction(1, 90000)
        image = _timed(samples, "to_ndarray bgr24", frame.to_ndarray, format="bgr24")
        analysis = _timed(samples, "pipeline (analysis thread)", watcher.analyse, image, n / 30.0) or analysis
        shown = _timed(samples, "display (mirror + landmarks)", watcher.display, image, analysis)
        out = _timed(samples, "from_ndarray bgr24", av.VideoFrame.from_ndarray, shown, format="bgr24")
        out.pts, out.time_base = frame.pts, frame.time_base
        _timed(samples, "VP8 encode of the shown frame (aiortc)", back.encode, out)
    _report(samples, args.frames, width, height)
    return 0


if __name__ == "__main__":
    sys.exit(main())
