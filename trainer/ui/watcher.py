"""The live camera's frame callback: one frame in, the annotated frame out, typed records to the page.

``streamlit-webrtc`` calls :meth:`SignWatcher.__call__` on its own worker thread for every video
frame; the watcher returns the frame at once with the latest overlay drawn and hands the newest frame
to its own analysis thread, so the video keeps the camera's rate while recognition skips frames it
cannot keep up with. Neither thread may call ``st.*``: everything the page needs crosses over through
``SignWatcher.reports``, a bounded ``queue.Queue`` of frozen records (:class:`FrameReport` for the
live meters, :class:`GestureReport` for each recognised gesture, :class:`WatcherFailure` when the
recognizer cannot run). The page drains it from a fragment that reruns a few times a second.

The recognizer itself (landmarks, features, thresholds, hysteresis) is the vision layer's
``Pipeline``; this module holds no feature math. The pipeline is built lazily on the first frame,
on the analysis thread, so the page renders at once and MediaPipe is imported only when a camera
actually sends frames. Time is the frame's own timestamp (``av.VideoFrame.time``), never the wall
clock, so detection times are measured on the camera's clock.

One watcher lives as long as the browser session, across camera streams (STOP then START, a page
change, a new track). Each stream's clock starts again near zero, while MediaPipe's graphs and the
recognizer need one clock that only moves forward. So the watcher keeps a *session clock*: when a
stream begins (source time going back, or no frame for :data:`STREAM_GAP_S` of wall time), it sets an
offset that places the new stream's first frame one frame after the last one analysed, and closes
whatever gesture the old stream left open. Within a stream, time is the source's own, unchanged.
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from trainer.signals.gestures import Gesture, GestureEvent
from trainer.ui.analysis_slots import FairSlots

STREAM_GAP_S = 1.0
"""Wall seconds without a frame after which the next frame begins a new stream (camera restarted)."""
FRAME_STEP_S = 1 / 30
"""Session-clock gap placed between the last frame of one stream and the first of the next."""


@dataclass(frozen=True, slots=True)
class FrameReport:
    """The live state after one frame: a 0..1 score per gesture (0.5 is the threshold)."""

    timestamp: float
    scores: tuple[tuple[Gesture, float], ...]
    thresholds: tuple[tuple[Gesture, float], ...]
    """The score at which each gesture turns on (the recognizer's enter threshold)."""
    face_found: bool
    hands_found: int
    frames: int
    """Frames analysed since this stream started."""
    fps: float
    """Processed frames per second of source time over the last second or so."""
    head_turning: bool = False
    """The head was turning too fast for a face sign to begin (``LiveState.head_turning``)."""
    stream_start: float = 0.0
    """Session-clock time of this stream's first frame. The session clock runs on across a camera
    restart without the pause, so a gesture begun before it (its end never seen: the stream stopped)
    can look recent; anything older than this is from a stream that is gone."""


@dataclass(frozen=True, slots=True)
class GestureReport:
    """A gesture the recognizer reported, with the source time of the frame that reported it.

    ``final`` is False when the gesture was just confirmed (reported within its hold time: what a
    drill answers at once) and True when it ended (final repeat count and end time: what a partner
    reads, e.g. how many aces)."""

    event: GestureEvent
    reported_at: float
    final: bool = False


@dataclass(frozen=True, slots=True)
class CalibrationProgress:
    """How far the neutral-face calibration is (0..1); ``profile`` is set when it is done."""

    progress: float
    frames: int
    profile: Any = None
    error: str = ""


@dataclass(frozen=True, slots=True)
class WatcherFailure:
    """The recognizer could not run (model missing, vision extras not installed): why, and what to do."""

    message: str


Report = FrameReport | GestureReport | CalibrationProgress | WatcherFailure


class Analysis(Protocol):
    """What the app reads from the vision pipeline's per-frame result (vision's FrameResult)."""

    scores: Any  # trainer.vision.types.FrameScores
    started: tuple[GestureEvent, ...]
    finished: tuple[GestureEvent, ...]
    live: Any  # trainer.vision.recognizer.LiveState


class Analyser(Protocol):
    def process(self, frame: Any) -> Analysis: ...



def mirror_image(image: np.ndarray) -> np.ndarray:
    """``image`` flipped left-right, as a new contiguous array.

    OpenCV's flip when OpenCV is loaded (0.15 ms at 640x480); numpy's reversed-stride copy of a
    3-byte pixel takes about 9 ms, which every shown frame paid on the frame callback (a quarter of a
    core at 30 frames/s, taken from the analysis; python -m trainer.lab.profile_camera_path)."""
    cv2 = sys.modules.get("cv2")
    flip = getattr(cv2, "flip", None)  # None too while another thread is still importing OpenCV
    if flip is not None:
        return flip(image, 1)
    return np.ascontiguousarray(image[:, ::-1])


class SignWatcher:
    """Per-session frame callback. Build one per browser session, pass ``watcher`` as
    ``video_frame_callback``; read ``reports`` from the page.

    ``make_pipeline(profile)`` builds the recognizer for a calibration profile (None: population
    defaults); it is called on the first frame, on the worker thread, and again after a calibration;
    ``draw(image, analysis, mirror)`` returns the frame to show, landmarks and meters drawn (the vision
    layer's annotate module). ``mirror`` flips the *display* only: the recognizer always sees the
    camera's unmirrored frame, so left and right stay the subject's own.
    """

    def __init__(
        self,
        make_pipeline: Callable[[Any], Analyser],
        draw: Callable[[np.ndarray, Analysis, bool], np.ndarray] | None,
        *,
        mirror: bool = True,
        queue_size: int = 256,
        clock: Callable[[], float] = time.monotonic,
        slots: FairSlots | None = None,
    ) -> None:
        self._make_pipeline = make_pipeline
        self._slots = slots  # shared by the server's sessions (analysis_slots); None: never waits
        self._draw = draw
        self.mirror = mirror
        self.reports: queue.Queue[Report] = queue.Queue(maxsize=queue_size)
        self._pipeline: Analyser | None = None
        self._failed: str | None = None
        self._lock = threading.Lock()  # the pipeline is stateful: one frame at a time
        self._frames = 0
        self._recent: list[float] = []
        self.latest_timestamp: float | None = None
        """Session-clock time of the last analysed frame (read by the page to time a drill)."""
        self._last_time: float | None = None
        self._last_source: float | None = None
        self._offset = 0.0  # session clock = source time + offset (set when a stream begins)
        self.streams = 0
        """Streams seen so far (a STOP -> START or a new track begins a new one)."""
        self._stream_start = 0.0  # session-clock time of the current stream's first frame
        self._last_submit_wall: float | None = None
        self._clock = clock  # wall time, only to notice a pause between two streams
        self._profile: Any = None
        self._calibrator: Any = None
        self._calibration_created = ""
        # Live mode: the newest frame waiting for analysis (image, source time, begins a stream),
        # and the newest analysis to draw.
        self._pending: tuple[np.ndarray, float, bool] | None = None
        self._wake = threading.Condition()
        self._latest: Any = None
        self._worker: threading.Thread | None = None
        self._closed = False
        self.shown_frames = 0
        """Frames returned to the browser (with the overlay of the latest analysis)."""

    # -- the webrtc callback -------------------------------------------------------------------

    def __call__(self, frame):  # av.VideoFrame -> av.VideoFrame
        """Show every frame at once with the latest analysis drawn; analyse the newest frame on a
        separate thread. The video then runs at the camera's rate even when recognition is slower
        (it skips frames, never queues them), and the overlay lags by at most one analysis."""
        import av  # imported here: only the live camera path needs PyAV

        image = frame.to_ndarray(format="bgr24")
        timestamp = float(frame.time) if frame.time is not None else self.shown_frames / 30.0
        self.submit(image, timestamp)
        shown = self.display(image, self._latest)
        out = av.VideoFrame.from_ndarray(shown, format="bgr24")
        out.pts = frame.pts
        out.time_base = frame.time_base
        return out

    def submit(self, image: np.ndarray, timestamp: float) -> None:
        """Hand the newest frame to the analysis thread (replacing one it has not started yet).
        A frame after a pause of :data:`STREAM_GAP_S` (camera stopped and started) begins a new
        stream, even if its source time happens to move forward."""
        now = self._clock()
        with self._wake:
            gap = self._last_submit_wall is not None and now - self._last_submit_wall > STREAM_GAP_S
            self._last_submit_wall = now
            # A stream start must not be lost when a later frame replaces this one before analysis.
            begins = gap or (self._pending is not None and self._pending[2])
            self._pending = (image, timestamp, begins)
            if self._worker is None or not self._worker.is_alive():
                self._closed = False
                self._worker = threading.Thread(target=self._analyse_loop, name="sign-watcher", daemon=True)
                self._worker.start()
            self._wake.notify()

    @property
    def ready(self) -> bool:
        """Whether the recognizer is built (or failed to build, with a report queued)."""
        return self._pipeline is not None or self._failed is not None

    def prepare(self) -> None:
        """Build the recognizer now (on the caller's thread) instead of on the first frame."""
        with self._lock:
            self._ensure_pipeline()

    def _analyse_loop(self) -> None:
        while True:
            with self._wake:
                # Leave after a few idle seconds (camera stopped); the next frame restarts the thread.
                if self._pending is None and not self._wake.wait_for(
                    lambda: self._pending is not None or self._closed, timeout=5.0
                ):
                    self._worker = None
                    return
                if self._closed:
                    return
            with self._slots.held() if self._slots is not None else nullcontext():
                # Taken once the slot is ours: the newest frame, not the one that was waiting for it.
                with self._wake:
                    pending, self._pending = self._pending, None
                if pending is None:  # closed while waiting for the slot: the loop's top sees it
                    continue
                image, timestamp, begins = pending
                try:
                    analysis = self.analyse(image, timestamp, new_stream=begins)
                except RuntimeError as error:
                    # The interpreter is shutting down (the server stops) or the recognizer broke:
                    # say so once and stop analysing; the video keeps playing without an overlay.
                    with self._wake:
                        self._worker = None
                    if not self._closed:
                        self._failed = f"recognition stopped on a frame: {error}"
                        self._put(WatcherFailure(self._failed), droppable=False)
                    return
            if analysis is not None:
                self._latest = analysis

    # -- the testable core ---------------------------------------------------------------------

    def process_image(self, image: np.ndarray, timestamp: float) -> np.ndarray:
        """Analyse one BGR frame taken at ``timestamp`` (seconds, source clock); return what to show."""
        return self.display(image, self.analyse(image, timestamp))

    def display(self, image: np.ndarray, analysis: Analysis | None) -> np.ndarray:
        """The frame to show: the overlay of ``analysis`` drawn on it, mirrored if asked."""
        self.shown_frames += 1
        if analysis is None or self._draw is None:
            return mirror_image(image) if self.mirror else image
        return self._draw(image, analysis, self.mirror)

    def analyse(self, image: np.ndarray, timestamp: float, *, new_stream: bool = False) -> Analysis | None:
        """Run the recognizer on one frame taken at source time ``timestamp`` and queue its reports
        (times on the session clock); None if it cannot run. ``new_stream``: the camera restarted
        (also inferred when the source time goes back)."""
        with self._lock:
            begins = self._last_source is None or new_stream or timestamp <= self._last_source
            if begins:
                self._begin_stream(timestamp)
            self._last_source = timestamp
            timestamp = timestamp + self._offset
            if begins:
                self._stream_start = timestamp
            self._last_time = timestamp
            pipeline = self._ensure_pipeline()
            if pipeline is None:
                return None
            from trainer.vision.types import Frame

            analysis = pipeline.process(Frame(image=image, timestamp=timestamp, index=self._frames))
            self._frames += 1
            self.latest_timestamp = timestamp
            self._recent = [t for t in self._recent if t > timestamp - 1.0] + [timestamp]
            fps = (len(self._recent) - 1) / (self._recent[-1] - self._recent[0]) if len(self._recent) > 1 else 0.0
            scores = analysis.scores
            live = analysis.live
            meter = live.scores if live is not None else scores.scores
            thresholds = live.thresholds if live is not None else {}
            self._put(
                FrameReport(
                    timestamp=timestamp,
                    # In the Gesture enum's order, as the overlay's meters list them.
                    scores=tuple((g, float(meter[g])) for g in Gesture if g in meter),
                    thresholds=tuple((g, float(thresholds[g][0])) for g in Gesture if g in thresholds),
                    face_found=bool(scores.face_found),
                    hands_found=int(scores.hands_found),
                    frames=self._frames,
                    fps=fps,
                    head_turning=live is not None and live.head_turning,
                    stream_start=self._stream_start,
                ),
                droppable=True,
            )
            for event in analysis.started:
                self._put(GestureReport(event=event, reported_at=timestamp, final=False), droppable=False)
            for event in analysis.finished:
                self._put(GestureReport(event=event, reported_at=timestamp, final=True), droppable=False)
            if self._calibrator is not None:
                self._calibrate(scores, timestamp)
            return analysis

    def _begin_stream(self, first_source_time: float) -> None:
        """A new stream: its first frame goes one frame after the last analysed one on the session
        clock (MediaPipe needs strictly increasing times), the per-stream counters start over, and
        a gesture the old stream left open is dropped (its end was never seen)."""
        self.streams += 1
        if self._last_time is None:
            self._offset = 0.0
        else:
            self._offset = self._last_time + FRAME_STEP_S - first_source_time
        self._frames = 0
        self._recent = []
        finish = getattr(self._pipeline, "finish", None)
        if finish is not None:
            finish()

    def start_calibration(self, calibrator: Any, created: str = "") -> None:
        """Feed the next frames' features (face found only) to ``calibrator`` (vision's Calibrator);
        when it is done, report the profile and rebuild the recognizer around it."""
        with self._lock:
            self._calibrator = calibrator
            self._calibration_created = created

    def use_profile(self, profile: Any) -> None:
        """Recognise with ``profile`` from the next frame on (None: population defaults)."""
        with self._lock:
            self._profile = profile
            self._close_pipeline()

    def tune(self, change: Callable[[Analyser], None]) -> None:
        """Apply ``change`` to the running recognizer, between two frames (nothing when none runs
        yet: the next one is built with the settings of the moment)."""
        with self._lock:
            if self._pipeline is not None:
                change(self._pipeline)

    def _calibrate(self, scores: Any, timestamp: float) -> None:
        calibrator = self._calibrator
        if scores.face_found:
            calibrator.add(scores.features, timestamp)
        if not calibrator.done:
            self._put(CalibrationProgress(calibrator.progress, calibrator.frames), droppable=True)
            return
        self._calibrator = None
        try:
            profile = calibrator.profile(created=self._calibration_created)
        except ValueError as error:
            self._put(CalibrationProgress(1.0, calibrator.frames, error=str(error)), droppable=False)
            return
        self._profile = profile
        self._close_pipeline()
        self._put(CalibrationProgress(1.0, calibrator.frames, profile=profile), droppable=False)

    def _close_pipeline(self) -> None:
        close = getattr(self._pipeline, "close", None)
        if close is not None:
            close()
        self._pipeline = None

    def _ensure_pipeline(self) -> Analyser | None:
        if self._pipeline is None and self._failed is None:
            try:
                self._pipeline = self._make_pipeline(self._profile)
            except (ImportError, ValueError, OSError, RuntimeError) as error:
                self._failed = f"the recognizer could not start: {error}"
                self._put(WatcherFailure(self._failed), droppable=False)
        return self._pipeline

    def _put(self, report: Report, *, droppable: bool) -> None:
        try:
            self.reports.put_nowait(report)
        except queue.Full:
            if droppable:
                return  # a live meter value may be skipped; the next frame brings a fresh one
            # A recognised sign must reach the page: make room by dropping the oldest record.
            try:
                self.reports.get_nowait()
            except queue.Empty:
                pass
            self.reports.put_nowait(report)

    def drain(self) -> list[Report]:
        """Everything queued so far, oldest first (called from the page's thread)."""
        out: list[Report] = []
        while True:
            try:
                out.append(self.reports.get_nowait())
            except queue.Empty:
                return out

    @property
    def failure(self) -> str | None:
        return self._failed

    def close(self) -> None:
        """Stop the analysis thread and release the recognizer (MediaPipe graphs)."""
        with self._wake:
            self._closed = True
            self._pending = None
            self._wake.notify_all()
        worker = self._worker
        if worker is not None and worker is not threading.current_thread():
            worker.join(timeout=5.0)
        with self._lock:
            self._close_pipeline()
