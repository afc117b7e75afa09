"""Landmark tracking: a BGR ``Frame`` in, ``Landmarks`` in pixel coordinates out.

One tracker, one runtime: MediaPipe Tasks (mediapipe 1.x), each model a ``.task`` bundle committed in
``models/`` and loaded offline (:mod:`trainer.vision.tasks_models`). The face is the FaceLandmarker with
its 52 blendshapes (:class:`trainer.vision.tasks_backend.TasksFaceTracker`), the hands the
HandLandmarker (up to two), and the body the PoseLandmarker, only when the shrug is wanted.

Coordinates are converted to pixels: ``(x * width, y * height, z * width)``. MediaPipe's z is
expressed on the scale of the image width, so multiplying it by the width keeps the three axes
isotropic and every distance can later be divided by a face or hand size.

Handedness. The Tasks HandLandmarker labels a hand by the subject's own side *on an unmirrored image*
(measured on ``../shared/gestures``: in ``index/mp_hagrid_one_0a0ef3d2.jpg`` the hand at x=114 px, where
the pose puts the subject's RIGHT wrist, is labelled "Right"; the solutions Hands of mediapipe 0.10
labelled it "Left", as if the image were a selfie). The pose's labels are the subject's too. So for
unmirrored frames (``mirrored=False``: files, and webcams, which deliver unmirrored frames that only
the *display* mirrors) the label is kept; for frames flipped for a selfie view (``mirrored=True``) it
is swapped, and the pose's left/right points and the face mesh's indices are re-read
(:mod:`trainer.vision.mirroring`). The result always follows ``trainer.signals.gestures.Side``: the
subject's own side.

Video mode needs strictly increasing timestamps per landmarker (:class:`tasks_models.VideoClock`);
``restart()`` begins a new stream on the same graphs.

MediaPipe's native log lines (:mod:`trainer.vision.quiet`) come while a graph starts and on its first
detections, so the constructor runs each graph once on a blank frame inside the quiet block, and
``process`` stays quiet until some graph has found something (at most ``QUIET_FRAMES``). Trackers
still open when the interpreter exits are closed first: MediaPipe's own finalisers fail noisily then.

Must not import the rules engine, bots, quiz or UI. MediaPipe is imported only when a ``Tracker`` is
built, so importing this module is cheap.
"""

from __future__ import annotations

import atexit
import threading
import weakref
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from trainer.signals.gestures import Side
from trainer.vision.mirroring import POSE_SWAP
from trainer.vision.quiet import QUIET_FRAMES, quiet_native_logs
from trainer.vision.tasks_backend import TasksFaceTracker, import_tasks
from trainer.vision.tasks_models import TasksModel, VideoClock, model_bytes, to_srgb
from trainer.vision.types import Frame, HandLandmarks, Landmarks, VisionError


@dataclass(frozen=True, slots=True)
class TrackerOptions:
    """What to track and how.

    ``static_image_mode`` runs full detection on every image (stills, folders of unrelated photos);
    video mode (False) tracks from frame to frame, which is faster and steadier on a stream.
    ``hands_every`` > 1 runs the hand graph only every n-th frame in video mode and reuses its last
    result in between (a speed knob; hand signs are held, so a frame of delay is harmless).
    """

    face: bool = True
    hands: bool = True
    pose: bool = False
    static_image_mode: bool = False
    max_num_hands: int = 2
    mirrored: bool = False
    min_detection_confidence: float = 0.5
    min_tracking_confidence: float = 0.5
    hands_every: int = 1
    hands_steady_speed: float = 1.5
    """With ``hands_every`` > 1, a hand whose palm moved faster than this (hand sizes a second) since the
    hand graph's last run, or a hand just found, has the graph run on the next frame too. The graph
    tracks a hand from the crop of its last run; a fast hand skipped a frame leaves its crop, and the
    graph can lock onto a wrong reading of the fingers (the thumb clip's raised thumb, read as an index
    for its 5 s hold at half rate, is read as a thumb when the fast raise is tracked on every frame)."""
    face_model: str | Path | None = None
    """A face_landmarker.task to use instead of the bundled one (None: models/, or $ALUETTE_FACE_MODEL)."""
    parallel: bool = True
    """Run the hand graph on a worker thread while the face runs (MediaPipe releases the GIL, so on
    two free cores a frame costs max(face, hands) instead of face + hands)."""

    def __post_init__(self) -> None:
        if not (self.face or self.hands or self.pose):
            raise VisionError("TrackerOptions tracks nothing: enable at least one of face, hands, pose")
        if not 1 <= self.max_num_hands <= 4:
            raise VisionError(f"max_num_hands={self.max_num_hands} is out of range: use 1..4 (2 by default)")
        if self.hands_every < 1:
            raise VisionError(f"hands_every={self.hands_every} must be >= 1 (1 runs hands on every frame)")


class _Landmarker:
    """One Tasks landmarker (hands or pose) with its own video clock."""

    def __init__(self, landmarker, video: bool) -> None:
        self.landmarker = landmarker
        self.video = video
        self.clock = VideoClock()

    def detect(self, mp_image, frame: Frame):
        if self.video:
            return self.landmarker.detect_for_video(mp_image, self.clock.stamp(frame.timestamp, frame.index))
        return self.landmarker.detect(mp_image)

    def close(self) -> None:
        self.landmarker.close()


_BLANK = np.zeros((64, 64, 3), np.uint8)
_OPEN: weakref.WeakSet[Tracker] = weakref.WeakSet()


@atexit.register
def _close_open_trackers() -> None:
    for tracker in list(_OPEN):
        tracker.close()


def palm(hand: HandLandmarks) -> tuple[float, float, float]:
    """(x, y) of the palm's centre (the wrist and the four finger roots) and the hand's size (wrist to
    middle-finger root), pixels."""
    points = hand.points[[0, 5, 9, 13, 17], :2]
    x, y = points.mean(axis=0)
    return float(x), float(y), float(np.linalg.norm(hand.points[9, :2] - hand.points[0, :2]))


def hand_speed(before: tuple[HandLandmarks, ...], after: tuple[HandLandmarks, ...], seconds: float) -> float:
    """The fastest palm among ``after`` since ``before`` (hand sizes a second): infinite for a hand with
    no hand of its side before (just found), 0 with no hand now."""
    speed = 0.0
    for hand in after:
        earlier = next((h for h in before if h.side is hand.side), None)
        if earlier is None or seconds <= 0:
            return float("inf")
        (x0, y0, _), (x1, y1, size) = palm(earlier), palm(hand)
        speed = max(speed, float(np.hypot(x1 - x0, y1 - y0)) / max(size, 1e-6) / seconds)
    return speed


class Tracker:
    """Runs the Tasks landmarkers selected by ``TrackerOptions`` on BGR (or grey, or BGRA) frames.

    One Tracker holds native graphs with internal state (video mode tracks between frames), so it
    must see one stream in order; ``process`` is guarded by a lock so that a Streamlit callback thread
    and a reader cannot interleave calls. Use it as a context manager or call ``close()``.
    """

    def __init__(self, options: TrackerOptions | None = None) -> None:
        self.options = opts = options or TrackerOptions()
        self._lock = threading.Lock()
        self._frames_seen = 0
        self._last_hands: tuple[HandLandmarks, ...] = ()
        self._last_hands_size: tuple[int, int] | None = None
        self._last_hands_time = 0.0
        self._hands_steady = True
        self.hand_runs = 0
        """How many frames the hand graph has run on (``hands_every`` skips some)."""
        mp, vision, base_options = import_tasks()
        self._mp = mp
        video = not opts.static_image_mode
        mode = vision.RunningMode.VIDEO if video else vision.RunningMode.IMAGE
        self._face = TasksFaceTracker(opts.face_model, video=video, mirrored=opts.mirrored) if opts.face else None
        self._hands = self._pose = None
        try:
            with quiet_native_logs():
                if opts.hands:
                    _, data = model_bytes(TasksModel.HANDS)
                    self._hands = _Landmarker(vision.HandLandmarker.create_from_options(vision.HandLandmarkerOptions(
                        base_options=base_options(model_asset_buffer=data),
                        running_mode=mode,
                        num_hands=opts.max_num_hands,
                        min_hand_detection_confidence=opts.min_detection_confidence,
                        min_hand_presence_confidence=opts.min_tracking_confidence,
                        min_tracking_confidence=opts.min_tracking_confidence,
                    )), video)
                if opts.pose:
                    _, data = model_bytes(TasksModel.POSE)
                    self._pose = _Landmarker(vision.PoseLandmarker.create_from_options(vision.PoseLandmarkerOptions(
                        base_options=base_options(model_asset_buffer=data),
                        running_mode=mode,
                        num_poses=1,
                        min_pose_detection_confidence=opts.min_detection_confidence,
                        min_pose_presence_confidence=opts.min_tracking_confidence,
                        min_tracking_confidence=opts.min_tracking_confidence,
                    )), video)
        except (RuntimeError, ValueError) as error:
            self.close()
            if isinstance(error, VisionError):
                raise
            raise VisionError(f"a bundled Tasks model would not load ({error}): restore models/ from git") from None
        self._worker = (ThreadPoolExecutor(max_workers=1, thread_name_prefix="aluette-hands")
                        if opts.parallel and opts.face and opts.hands else None)
        self._quiet_frames = QUIET_FRAMES
        _OPEN.add(self)
        with quiet_native_logs():
            self.process(Frame(_BLANK, 0.0, -1))  # every graph starts (and logs) here
        self.restart()
        self._frames_seen = 0

    # -- lifecycle -------------------------------------------------------------------------------
    def close(self) -> None:
        with self._lock:
            worker = getattr(self, "_worker", None)
            if worker is not None:
                worker.shutdown(wait=True)
                self._worker = None
            with quiet_native_logs():  # each graph logs as it shuts its accelerator down
                for graph in (self._face, self._hands, self._pose):
                    if graph is not None:
                        graph.close()
            self._face = self._hands = self._pose = None

    def __enter__(self) -> Tracker:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    @property
    def closed(self) -> bool:
        return self._face is None and self._hands is None and self._pose is None

    def restart(self) -> None:
        """A new stream on the same graphs: its clock may start again from 0."""
        with self._lock:
            if self._face is not None:
                self._face.restart()
            for graph in (self._hands, self._pose):
                if graph is not None:
                    graph.clock.restart()
            self._last_hands_size = None

    # -- work ------------------------------------------------------------------------------------
    def process(self, frame: Frame) -> Landmarks:
        """Track one frame. Raises VisionError on an image MediaPipe cannot take."""
        rgb = to_srgb(frame.image, frame.index)
        height, width = rgb.shape[:2]
        with self._lock:
            if self.closed:
                raise VisionError("this Tracker was closed: build a new one")
            mp_image = self._mp.Image(image_format=self._mp.ImageFormat.SRGB, data=rgb)
            if self._quiet_frames > 0:
                # Until some graph finds something: the first landmarks log once (measured; a hand
                # found later on the thumb clip printed nothing more). Not longer: while quiet, fd 2 is
                # redirected, and every other thread's stderr (a server's log) would go with it.
                with quiet_native_logs():
                    face, hands, pose = self._run_all(mp_image, frame, width, height)
                found = (face is not None and face.face is not None) or bool(hands) or pose is not None
                self._quiet_frames = 0 if found else self._quiet_frames - 1
            else:
                face, hands, pose = self._run_all(mp_image, frame, width, height)
            self._frames_seen += 1
        return Landmarks(
            timestamp=frame.timestamp, width=width, height=height,
            face=face.face if face is not None else None,
            blendshapes=face.blendshapes if face is not None else None,
            hands=hands, pose=pose,
        )

    def _run_all(self, mp_image, frame: Frame, width: int, height: int):
        face: Landmarks | None
        if self._worker is not None and self._face is not None:  # a worker is made only with both graphs
            pending = self._worker.submit(self._run_hands, mp_image, frame, width, height)
            face = self._face.detect(mp_image, frame)
            hands = pending.result()
        else:
            face = self._face.detect(mp_image, frame) if self._face is not None else None
            hands = self._run_hands(mp_image, frame, width, height)
        return face, hands, self._run_pose(mp_image, frame, width, height)

    def _run_hands(self, mp_image, frame: Frame, width: int, height: int) -> tuple[HandLandmarks, ...]:
        if self._hands is None:
            return ()
        opts = self.options
        reuse = (
            not opts.static_image_mode
            and opts.hands_every > 1
            and self._frames_seen % opts.hands_every != 0
            and self._last_hands_size == (width, height)
            and self._hands_steady
        )
        if reuse:
            return self._last_hands
        result = self._hands.detect(mp_image, frame)
        self.hand_runs += 1
        scale = np.array((width, height, width), dtype=np.float32)
        hands = []
        for points, handedness in zip(result.hand_landmarks, result.handedness, strict=False):
            label = handedness[0]
            hands.append(HandLandmarks(
                points=np.array([(p.x, p.y, p.z) for p in points], dtype=np.float32) * scale,
                side=self._subject_side(label.category_name),
                score=float(label.score),
            ))
        found = tuple(hands)
        speed = hand_speed(self._last_hands, found, frame.timestamp - self._last_hands_time)
        self._hands_steady = speed <= opts.hands_steady_speed
        self._last_hands, self._last_hands_time = found, frame.timestamp
        self._last_hands_size = (width, height)
        return self._last_hands

    def _subject_side(self, mediapipe_label: str) -> Side:
        """The label is the subject's side on an unmirrored image; see the module docstring."""
        labelled_left = mediapipe_label.lower() == "left"
        if self.options.mirrored:
            return Side.RIGHT if labelled_left else Side.LEFT
        return Side.LEFT if labelled_left else Side.RIGHT

    def _run_pose(self, mp_image, frame: Frame, width: int, height: int) -> np.ndarray | None:
        if self._pose is None:
            return None
        result = self._pose.detect(mp_image, frame)
        if not result.pose_landmarks:
            return None
        points = np.array(
            [(p.x * width, p.y * height, p.z * width, p.visibility if p.visibility is not None else 1.0)
             for p in result.pose_landmarks[0]],
            dtype=np.float32,
        )
        if self.options.mirrored:
            points = points[POSE_SWAP]
        return points
