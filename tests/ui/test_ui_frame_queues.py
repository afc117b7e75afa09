"""Frames never pile up between the browser and the watcher when the server falls behind (issue 28's
soak: the server's memory followed the machine's load, 467 MB at minute 5 to 972 MB at minute 60).

The path is built with the libraries' own pieces by trainer.lab.memory_probe; a sender slower than the
camera (10 frames a second against 30) stands for the VP8 encoder of a starved server."""

from __future__ import annotations

import asyncio
import dataclasses
import queue
from types import SimpleNamespace

import pytest

pytest.importorskip("aiortc")
pytest.importorskip("streamlit_webrtc")

from trainer.lab.memory_probe import ProbeSettings, run_probe  # noqa: E402
from trainer.ui import st_adapter  # noqa: E402

SLOW_SENDER = ProbeSettings(seconds=2.5, source_fps=30, consumer_fps=10, width=64, height=48, every=0.5)


def test_a_slow_sender_lets_frames_pile_up_in_the_libraries_unbounded_queue():
    """The cause, as a control: without the fix, the processed frames wait in the relay's queue to
    the sender, 20 more each second (30 in, 10 out), and nothing else grows."""
    result = run_probe(SLOW_SENDER)
    assert result.bound_queues == 0 and result.sent >= 8
    assert result.max_depth("relay_out") >= 30
    assert max(result.max_depth(name) for name in ("decoded", "relay_in", "process_in")) <= 3


def test_with_the_fix_only_the_newest_frame_waits_and_frames_still_flow():
    result = run_probe(dataclasses.replace(SLOW_SENDER, fix=True))
    assert result.bound_queues == 3  # decoded, relay_in, relay_out (process_in keeps the newest itself)
    assert all(result.max_depth(name) <= st_adapter.NEWEST_FRAMES for name in ("decoded", "relay_in", "relay_out"))
    assert result.sent >= 8  # the sender still gets a frame whenever it asks (10 a second; slack for a busy machine)


def _worker_with_real_tracks():
    """A stand-in for streamlit-webrtc's WebRtcWorker holding the real aiortc / streamlit-webrtc tracks
    it holds once it has answered a browser (what st_adapter.frame_queues reads)."""
    path = st_adapter.VideoPath.build(lambda frame: frame)
    path.start()  # makes the processing track's in-queue, as its first recv does
    audio = SimpleNamespace(kind="audio", receiver=SimpleNamespace(track=None), sender=SimpleNamespace(track=None))
    receiver = SimpleNamespace(track=path.incoming, _RTCRtpReceiver__decoder_queue=queue.Queue())
    video = SimpleNamespace(kind="video", receiver=receiver, sender=SimpleNamespace(track=path.sent))
    pc = SimpleNamespace(getTransceivers=lambda: [audio, video])
    return SimpleNamespace(pc=pc, _output_video_track=path.processed), path


def test_the_app_bounds_every_asyncio_frame_queue_of_its_worker_once():
    worker, path = _worker_with_real_tracks()
    try:
        assert set(st_adapter.frame_queues(worker)) == {st_adapter.ENCODED, *st_adapter.FRAME_QUEUES}
        assert st_adapter.keep_newest_frames(worker) == 3
        encoded = st_adapter.frame_queues(worker)[st_adapter.ENCODED]
        for item in ("key frame", "delta 1", "delta 2"):
            encoded.put_nowait(item)
        assert encoded.qsize() == 3  # a VP8 frame needs the ones before it: never dropped
        assert st_adapter.keep_newest_frames(worker) == 0  # every run calls it: bound once
        out = st_adapter.frame_queues(worker)["relay_out"]
        for item in ("frame 1", "frame 2", "frame 3", None):
            out.put_nowait(item)
        assert out.qsize() == 1 and out.get_nowait() is None  # the end of the stream is never dropped
        decoded = st_adapter.frame_queues(worker)["decoded"]

        async def decoder_puts():  # aiortc's decoder thread goes through Queue.put
            for item in ("a", "b", "c"):
                await decoded.put(item)

        asyncio.run(decoder_puts())
        assert decoded.qsize() == 1 and decoded.get_nowait() == "c"
        assert st_adapter.queue_depths(worker) == {st_adapter.ENCODED: 3, **dict.fromkeys(st_adapter.FRAME_QUEUES, 0)}
    finally:
        path.stop()


def test_no_worker_no_queues():
    assert st_adapter.frame_queues(None) == {} and st_adapter.keep_newest_frames(None) == 0
    assert st_adapter.frame_queues(SimpleNamespace()) == {}


def test_the_camera_widget_bounds_the_queues_of_the_connection_it_answered(monkeypatch):
    """trainer.ui.camera.live_camera, on the run that answers a browser's offer (the worker holds its
    tracks before the answer goes out, so before the first frame)."""
    import streamlit_webrtc

    from trainer.ui import camera

    worker, path = _worker_with_real_tracks()
    ctx = SimpleNamespace(state=SimpleNamespace(playing=True, signalling=False))
    monkeypatch.setattr(streamlit_webrtc, "webrtc_streamer", lambda **kwargs: ctx)
    monkeypatch.setattr(st_adapter, "worker_of", lambda context: worker if context is ctx else None)
    try:
        assert camera.live_camera("probe-camera", watcher=object()) is ctx
        assert all(getattr(q, "keeps_newest", None) == st_adapter.NEWEST_FRAMES
                   for name, q in st_adapter.frame_queues(worker).items()
                   if name not in ("process_in", st_adapter.ENCODED))
    finally:
        path.stop()


def test_the_camera_widget_asks_for_video_only(monkeypatch):
    """No sound is sent or sent back: with ``sendback_audio`` on, the browser adds an audio transceiver
    whose ICE transport failed to start when eight sessions connected at once (the soak's three
    InvalidStateError tracebacks)."""
    import streamlit_webrtc

    from trainer.ui import camera

    asked = {}
    ctx = SimpleNamespace(state=SimpleNamespace(playing=False, signalling=False))
    monkeypatch.setattr(streamlit_webrtc, "webrtc_streamer", lambda **kwargs: asked.update(kwargs) or ctx)
    monkeypatch.setattr(st_adapter, "worker_of", lambda context: None)
    camera.live_camera("probe-video-only", watcher=object())
    assert asked["sendback_audio"] is False and asked["media_stream_constraints"]["audio"] is False
