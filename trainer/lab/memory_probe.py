"""Frames that pile up on the server, measured in seconds instead of a 60-minute soak.

The live camera's path on the server is aiortc's and streamlit-webrtc's, with four frame queues, all
unbounded (:data:`trainer.ui.st_adapter.FRAME_QUEUES`). This probe builds that path in one process
with the libraries' own pieces, without a browser or a network:

    source (30 frames/s, as aiortc's decoder thread hands them to the loop)
      -> RemoteStreamTrack._queue -> MediaRelay -> AsyncVideoProcessTrack (our SignWatcher as the
      frame callback) -> MediaRelay -> a sender stand-in

The sender stand-in reads the processed track as ``RTCRtpSender`` does (``recv`` then encode in an
executor): ``--encoder vp8`` encodes with aiortc's own VP8 encoder, ``--encoder sleep`` takes
``1/--consumer-fps`` seconds a frame (a server starved of processor time, reproducibly). Every
``--every`` seconds it records each queue's depth, Python's traced memory and the process's RSS.

    python -m trainer.lab.memory_probe --seconds 20 --consumer-fps 10
    python -m trainer.lab.memory_probe --seconds 20 --consumer-fps 10 --fix   # trainer.ui.st_adapter's fix

``--fix`` bounds the queues as the app does (:func:`trainer.ui.st_adapter.keep_newest_in`). Imports
aiortc, av and streamlit-webrtc (the app's extras); no Streamlit server.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import threading
import time
import tracemalloc
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from trainer.lab.soak import process_rss_mb
from trainer.ui import st_adapter


@dataclass(frozen=True, slots=True)
class ProbeSettings:
    """One probe run: the camera's rate and size, the sender's rate, how long, whether fixed."""

    seconds: float = 10.0
    source_fps: float = 30.0
    consumer_fps: float = 10.0
    """Frames a second the sender stand-in takes (``encoder="sleep"``)."""
    width: int = 640
    height: int = 480
    encoder: str = "sleep"
    """"sleep" (1/consumer_fps a frame) or "vp8" (aiortc's encoder, at whatever rate it manages)."""
    fix: bool = False
    every: float = 1.0


@dataclass(frozen=True, slots=True)
class Sample:
    """The path's state at one moment."""

    t: float
    depths: tuple[tuple[str, int], ...]
    traced_mb: float
    rss_mb: float
    sent: int


@dataclass
class ProbeResult:
    settings: ProbeSettings
    samples: list[Sample] = field(default_factory=list)
    produced: int = 0
    sent: int = 0
    bound_queues: int = 0

    def max_depth(self, name: str) -> int:
        return max((dict(s.depths).get(name, 0) for s in self.samples), default=0)

    def as_dict(self) -> dict[str, Any]:
        return {"settings": asdict(self.settings), "produced": self.produced, "sent": self.sent,
                "bound_queues": self.bound_queues,
                "samples": [{**asdict(s), "depths": dict(s.depths)} for s in self.samples]}


def _watcher() -> Any:
    """The app's frame callback with no recognizer (its build fails at once, as without the vision
    extras): the frame path, conversions and mirror included, without MediaPipe's cost."""
    from trainer.ui.watcher import SignWatcher

    def no_pipeline(profile: Any) -> Any:
        raise ImportError("the probe runs without a recognizer")

    return SignWatcher(no_pipeline, None, mirror=True)


def _frames(settings: ProbeSettings) -> Any:
    """Distinct decoded frames, as the decoder hands them over (yuv420p, a new object each)."""
    from fractions import Fraction

    import av
    import numpy as np

    plane = np.zeros((settings.height * 3 // 2, settings.width), dtype=np.uint8)
    index = 0
    while True:
        plane[0, 0] = index % 256
        frame = av.VideoFrame.from_ndarray(plane, format="yuv420p")
        frame.pts = int(index * 90000 / settings.source_fps)
        frame.time_base = Fraction(1, 90000)
        index += 1
        yield frame


def _produce(loop: asyncio.AbstractEventLoop, path: st_adapter.VideoPath, settings: ProbeSettings,
             stop: threading.Event, result: ProbeResult) -> None:
    """aiortc's decoder thread: each frame handed to the loop with ``run_coroutine_threadsafe``."""
    frames = _frames(settings)
    period = 1.0 / settings.source_fps
    next_at = time.monotonic()
    while not stop.is_set():
        path.deliver(next(frames), loop)
        result.produced += 1
        next_at += period
        time.sleep(max(0.0, next_at - time.monotonic()))
    path.deliver(None, loop)


def _encoder(settings: ProbeSettings) -> Any:
    if settings.encoder == "vp8":
        from aiortc.codecs import get_encoder
        from aiortc.rtcrtpparameters import RTCRtpCodecParameters

        vp8 = get_encoder(RTCRtpCodecParameters(mimeType="video/VP8", clockRate=90000, payloadType=96))
        return lambda frame: vp8.encode(frame, False)
    return lambda frame: time.sleep(1.0 / settings.consumer_fps)


async def _probe(settings: ProbeSettings) -> ProbeResult:
    from aiortc.mediastreams import MediaStreamError

    result = ProbeResult(settings)
    loop = asyncio.get_running_loop()
    watcher = _watcher()
    path = st_adapter.VideoPath.build(watcher)
    encode = _encoder(settings)
    stop = threading.Event()
    producer = threading.Thread(target=_produce, args=(loop, path, settings, stop, result), daemon=True)

    async def sender() -> None:
        while True:
            try:
                frame = await path.sent.recv()
            except MediaStreamError:
                return
            await loop.run_in_executor(None, encode, frame)
            result.sent += 1

    path.start()
    queues = path.queues()
    if settings.fix:  # before the first frame, as the app does once the connection is answered
        result.bound_queues = st_adapter.keep_newest_in(queues)
    task = asyncio.ensure_future(sender())
    producer.start()
    began = time.monotonic()
    while time.monotonic() - began < settings.seconds:
        await asyncio.sleep(settings.every)
        current, _peak = tracemalloc.get_traced_memory()
        result.samples.append(Sample(
            t=round(time.monotonic() - began, 2),
            depths=tuple((name, q.qsize()) for name, q in queues.items()),
            traced_mb=round(current / 1e6, 1), rss_mb=round(process_rss_mb_self(), 1), sent=result.sent))
    stop.set()
    producer.join()
    path.stop()
    task.cancel()
    watcher.close()
    return result


def process_rss_mb_self() -> float:
    return process_rss_mb(os.getpid())


def run_probe(settings: ProbeSettings) -> ProbeResult:
    """Run the path for ``settings.seconds`` and return what it measured."""
    tracemalloc.start()
    try:
        return asyncio.run(_probe(settings))
    finally:
        tracemalloc.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--source-fps", type=float, default=30.0)
    parser.add_argument("--consumer-fps", type=float, default=10.0)
    parser.add_argument("--encoder", choices=("sleep", "vp8"), default="sleep")
    parser.add_argument("--size", default="640x480", help="frame size WxH")
    parser.add_argument("--fix", action="store_true", help="bound the queues as the app does")
    parser.add_argument("--every", type=float, default=1.0, help="seconds between two samples")
    parser.add_argument("--json", type=Path, help="write every sample here")
    args = parser.parse_args(argv)
    width, height = (int(v) for v in args.size.lower().split("x"))
    settings = ProbeSettings(seconds=args.seconds, source_fps=args.source_fps, consumer_fps=args.consumer_fps,
                             width=width, height=height, encoder=args.encoder, fix=args.fix, every=args.every)
    result = run_probe(settings)
    for s in result.samples:
        depths = " ".join(f"{name} {n:4d}" for name, n in s.depths)
        print(f"t {s.t:5.1f} s · {depths} · traced {s.traced_mb:7.1f} MB · RSS {s.rss_mb:7.1f} MB · sent {s.sent}")
    print(f"produced {result.produced} frames, sent {result.sent}; queues bound: {result.bound_queues}")
    if args.json:
        args.json.write_text(json.dumps(result.as_dict(), indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
