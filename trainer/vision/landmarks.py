"""Landmark tracking: a BGR ``Frame`` in, ``Landmarks`` in pixel coordinates out.

Wraps the ``mediapipe.solutions`` graphs of mediapipe==0.10.21 (their models ship inside the wheel, so
nothing is downloaded): FaceMesh with refined eyes and irises (478 points), Hands (up to two), and
Pose only when the shrug is wanted. Pose is always built with ``model_complexity=1``: the 0 and 2
variants are not in the wheel and would try to download their model at run time.

Coordinates are converted to pixels: ``(x * width, y * height, z * width)``. MediaPipe's z is
expressed on the scale of the image width, so multiplying it by the width keeps the three axes
isotropic and every distance can later be divided by a face or hand size.

Handedness. MediaPipe Hands labels a hand *as if the image were a mirrored selfie*. On real,
unmirrored photos in ``../shared/gestures`` its label is therefore the opposite of the subject's own
hand: in ``index/mp_hagrid_one_0a0ef3d2.jpg`` the hand Hands calls "Left" sits at x=114 px, exactly
where Pose puts the subject's RIGHT wrist (x=114), and the hand it calls "Right" sits at x=292 px,
where Pose puts the subject's LEFT wrist (x=297); ``thumb/mp_hagrid_thumbdown_00af1db1.jpg``,
``thumb/mps_gesture_video_f0120_thumb.jpg`` and ``other/mp_hagrid_call_0413d5c5.jpg`` agree. Pose's
own labels are already the subject's (its left shoulder is on the image's right in a frontal photo).
So for unmirrored frames (``mirrored=False``: files, and webcams, which deliver unmirrored frames
that only the *display* mirrors) the Hands label is swapped; for frames that were flipped for a
selfie view (``mirrored=True``) the Hands label is kept and Pose's left/right points are swapped.
The result always follows ``trainer.signals.gestures.Side``: the subject's own side.

The face mesh needs the same care: it names its points by where they sit in the image (index 33,
"the subject's right eye outer corner", is always the eye on the image's left), so on a mirrored frame
index 33 lands on the subject's LEFT eye. With ``mirrored=True`` the 478 points are re-indexed with
``trainer.vision.mesh_mirror.FACE_MIRROR`` (a measured left<->right involution of the mesh), so every
index again means the subject's own point; coordinates stay those of the frame, for drawing.
Features that measure in a face frame (``face_features``) want the unmirrored geometry as well:
``unmirrored_face`` gives it.

MediaPipe's native log lines (absl, TF Lite) are kept off stderr with
``trainer.vision.quiet.quiet_native_logs``. Measured: a graph opens its calculators on its own threads
*after* the constructor returns and they log as they open, so the constructor also runs each graph
once on a blank frame (which waits for every calculator to open: ~80 ms for the three graphs,
mostly time the first real frame used to pay); the only later line
("Using NORM_RECT without IMAGE_DIMENSIONS") comes once per process, on the first frame where any
graph finds landmarks, so ``process`` stays quiet until that frame (at most ``QUIET_FRAMES``).

Must not import the rules engine, bots, quiz or UI. MediaPipe is imported only when a ``Tracker`` is
built, so importing this module is cheap.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import cv2
import numpy as np

from trainer.signals.gestures import Side
from trainer.vision.mesh_mirror import FACE_MIRROR
from trainer.vision.quiet import QUIET_FRAMES, quiet_native_logs
from trainer.vision.types import Frame, HandLandmarks, Landmarks, VisionError

# Pose landmark pairs (left index, right index) swapped when the input frames are mirrored.
_POSE_LR_PAIRS = (
    (1, 4), (2, 5), (3, 6), (7, 8), (9, 10), (11, 12), (13, 14), (15, 16), (17, 18), (19, 20),
    (21, 22), (23, 24), (25, 26), (27, 28), (29, 30), (31, 32),
)
_POSE_SWAP = np.arange(33)
for _left, _right in _POSE_LR_PAIRS:
    _POSE_SWAP[_left], _POSE_SWAP[_right] = _right, _left
_BLANK = np.zeros((64, 64, 3), np.uint8)

# Face mesh indices re-read for a mirrored frame (an involution: mirrored[i] = points[_FACE_SWAP[i]]).
_FACE_SWAP = np.array(FACE_MIRROR)


def reindex_mirrored_face(points: np.ndarray) -> np.ndarray:
    """The face mesh of a selfie-flipped frame with every index meaning the subject's own point again.
    The 10 iris points map among themselves, so the first 468 also serve an unrefined mesh."""
    return points[_FACE_SWAP[: points.shape[0]]]


def mirror_x(points: np.ndarray | None, width: int) -> np.ndarray | None:
    """Points of a frame ``width`` pixels wide as they lie on the horizontally flipped frame:
    ``x -> width - x``. MediaPipe's coordinates are continuous (normalised x times the width, so the
    frame spans 0..width and pixel i covers i..i+1), and flipping maps that span onto itself. The one
    definition of mirroring: the pipeline's unmirrored face and the app's mirrored overlay use it.
    Returns a new float32 array (None stays None); other columns are kept."""
    if points is None:
        return None
    out = np.array(points, dtype=np.float32, copy=True)
    out[:, 0] = width - out[:, 0]
    return out


def unmirrored_face(points: np.ndarray, width: int) -> np.ndarray:
    """The (already re-indexed) face mesh of a mirrored frame, flipped back to lie as in the
    unmirrored frame (:func:`mirror_x`).

    ``face_features`` measures in a face frame whose axes follow the subject's right-to-left eye line
    and point down the face; in mirrored coordinates that frame is left-handed, so head roll would
    read ~180 degrees and brow/lip heights would change sign. Returns a new array.
    """
    return mirror_x(points, width)


def mirrored_landmarks(landmarks: Landmarks) -> Landmarks:
    """The same landmarks drawn on the horizontally flipped frame (:func:`mirror_x`); sides and
    indices stay the subject's own (display only: the recognizer never sees a flipped frame)."""
    from dataclasses import replace

    width = landmarks.width
    return replace(
        landmarks,
        face=mirror_x(landmarks.face, width),
        hands=tuple(replace(h, points=mirror_x(h.points, width)) for h in landmarks.hands),
        pose=mirror_x(landmarks.pose, width),
    )


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
    refine_landmarks: bool = True
    mirrored: bool = False
    min_detection_confidence: float = 0.5
    min_tracking_confidence: float = 0.5
    hands_every: int = 1
    hands_complexity: int = 1
    """1 = full hand model, 0 = lite (faster; both ship in the wheel)."""
    parallel: bool = True
    """Run the hand graph on a worker thread while the face mesh runs (MediaPipe releases the GIL,
    so on two free cores a frame costs max(face, hands) instead of face + hands)."""

    def __post_init__(self) -> None:
        if not (self.face or self.hands or self.pose):
            raise VisionError("TrackerOptions tracks nothing: enable at least one of face, hands, pose")
        if not 1 <= self.max_num_hands <= 4:
            raise VisionError(f"max_num_hands={self.max_num_hands} is out of range: use 1..4 (2 by default)")
        if self.hands_complexity not in (0, 1):
            raise VisionError(f"hands_complexity={self.hands_complexity}: use 0 (lite) or 1 (full)")
        if self.hands_every < 1:
            raise VisionError(f"hands_every={self.hands_every} must be >= 1 (1 runs hands on every frame)")


# One serialized NormalizedLandmark holding exactly x, y and z: field 1 of the list (tag 0x0A, 15
# bytes), then three fixed32 fields (tags 0x0D, 0x15, 0x1D). The face mesh and hands fill exactly these.
_RECORD_SIZE = 17
_RECORD_TAGS = ((0, 0x0A), (1, 15), (2, 0x0D), (7, 0x15), (12, 0x1D))
"""(byte offset in a record, value) of the list-entry tag, its length and the x, y, z field tags."""
_X_OFFSET, _FIELD_STRIDE = 3, 5
"""x sits after the three header bytes; y and z follow it 5 bytes apart (4-byte float + tag)."""


def _xyz(landmarks) -> np.ndarray:
    """(n, 3) float32 normalised coordinates (possibly a read-only view). Reading the serialized
    message as one strided numpy view is far cheaper than touching 478 protobuf objects from Python
    (0.016 vs 0.215 ms for a face with warm caches); in the video loop, where the graphs have just
    run, checking the layout on the bytes and taking one strided view instead of a structured array's
    fields took the landmark reading from 0.23 to 0.13 ms a frame (measured). A list whose records do
    not have exactly that layout takes the slow, general path."""
    buffer = landmarks.SerializeToString()
    count = len(landmarks.landmark)
    # The layout check on the bytes themselves: a stepped slice of bytes is one C loop per tag.
    if len(buffer) == count * _RECORD_SIZE and all(
            buffer[offset::_RECORD_SIZE] == bytes((value,)) * count for offset, value in _RECORD_TAGS):
        return np.ndarray((count, 3), dtype="<f4", buffer=buffer, offset=_X_OFFSET,
                          strides=(_RECORD_SIZE, _FIELD_STRIDE))
    return np.array([(p.x, p.y, p.z) for p in landmarks.landmark], dtype=np.float32).reshape(-1, 3)


def _to_pixels(landmarks, width: int, height: int) -> np.ndarray:
    """MediaPipe NormalizedLandmarkList -> (n, 3) float32 pixels (x*w, y*h, z*w)."""
    # One multiplication makes the new, contiguous and writable array.
    return np.multiply(_xyz(landmarks), np.array((width, height, width), dtype=np.float32))


class Tracker:
    """Runs the MediaPipe graphs selected by ``TrackerOptions`` on BGR frames.

    One Tracker holds native graphs with internal state (video mode tracks between frames), so it
    must see one stream in order; ``process`` is guarded by a lock so that a Streamlit callback thread
    and a reader cannot interleave calls. Use it as a context manager or call ``close()``.
    """

    def __init__(self, options: TrackerOptions | None = None) -> None:
        self.options = options or TrackerOptions()
        self._lock = threading.Lock()
        self._frames_seen = 0
        self._last_hands: tuple[HandLandmarks, ...] = ()
        self._last_hands_size: tuple[int, int] | None = None
        try:
            with quiet_native_logs():
                import mediapipe as mp  # noqa: PLC0415 - heavy, loaded only when a tracker is built
        except ImportError as error:  # pragma: no cover - the vision extra is installed in dev and CI
            raise VisionError(
                "mediapipe is not installed: install the vision extras (pip install mediapipe==0.10.21)"
            ) from error
        self._face = None
        self._hands = None
        self._pose = None
        self._worker = None
        self._quiet_frames = QUIET_FRAMES
        with quiet_native_logs():
            self._build(mp)
            for graph in (self._face, self._hands, self._pose):
                if graph is not None:
                    graph.process(_BLANK)  # returns once every calculator has opened (and logged)

    def _build(self, mp) -> None:
        opts = self.options
        if opts.parallel and opts.face and opts.hands:
            from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415

            self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="aluette-hands")
        if opts.face:
            self._face = mp.solutions.face_mesh.FaceMesh(
                static_image_mode=opts.static_image_mode,
                max_num_faces=1,
                refine_landmarks=opts.refine_landmarks,
                min_detection_confidence=opts.min_detection_confidence,
                min_tracking_confidence=opts.min_tracking_confidence,
            )
        if opts.hands:
            self._hands = mp.solutions.hands.Hands(
                static_image_mode=opts.static_image_mode,
                max_num_hands=opts.max_num_hands,
                model_complexity=opts.hands_complexity,
                min_detection_confidence=opts.min_detection_confidence,
                min_tracking_confidence=opts.min_tracking_confidence,
            )
        if opts.pose:
            # model_complexity=1 only: its model ships in the wheel (0 and 2 download theirs).
            self._pose = mp.solutions.pose.Pose(
                static_image_mode=opts.static_image_mode,
                model_complexity=1,
                smooth_landmarks=not opts.static_image_mode,
                enable_segmentation=False,
                min_detection_confidence=opts.min_detection_confidence,
                min_tracking_confidence=opts.min_tracking_confidence,
            )

    # -- lifecycle -------------------------------------------------------------------------------
    def close(self) -> None:
        with self._lock:
            if self._worker is not None:
                self._worker.shutdown(wait=True)
                self._worker = None
            for graph in (self._face, self._hands, self._pose):
                if graph is not None:
                    graph.close()
            self._face = self._hands = self._pose = None

    def __enter__(self) -> "Tracker":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    @property
    def closed(self) -> bool:
        return self._face is None and self._hands is None and self._pose is None

    # -- work ------------------------------------------------------------------------------------
    def process(self, frame: Frame) -> Landmarks:
        """Track one frame. Raises VisionError on an image MediaPipe cannot take."""
        image = frame.image
        if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3:
            shape = getattr(image, "shape", None)
            raise VisionError(f"frame {frame.index} has shape {shape}: expected an H x W x 3 BGR image")
        if image.dtype != np.uint8:
            raise VisionError(f"frame {frame.index} has dtype {image.dtype}: expected uint8 BGR")
        height, width = image.shape[:2]
        if width < 2 or height < 2:
            raise VisionError(f"frame {frame.index} is {width}x{height}: too small to find a face or hand")
        with self._lock:
            if self.closed:
                raise VisionError("this Tracker was closed: build a new one")
            # cvtColor is ~10x faster than a numpy channel flip + copy at 640x480.
            rgb = cv2.cvtColor(image, cv2.COLOR_BGR2RGB)
            rgb.flags.writeable = False
            if self._quiet_frames <= 0:
                face, hands, pose = self._run_all(rgb, width, height)
            else:
                # Until some graph finds something: its first landmarks print a warning (measured).
                # The hand worker runs inside the block too.
                with quiet_native_logs():
                    face, hands, pose = self._run_all(rgb, width, height)
                found = face is not None or bool(hands) or pose is not None
                self._quiet_frames = 0 if found else self._quiet_frames - 1
            self._frames_seen += 1
        return Landmarks(
            timestamp=frame.timestamp, width=width, height=height, face=face, hands=hands, pose=pose
        )

    def _run_all(self, rgb: np.ndarray, width: int, height: int):
        if self._worker is not None:
            pending = self._worker.submit(self._run_hands, rgb, width, height)
            face = self._run_face(rgb, width, height)
            hands = pending.result()
        else:
            face = self._run_face(rgb, width, height)
            hands = self._run_hands(rgb, width, height)
        return face, hands, self._run_pose(rgb, width, height)

    def _run_face(self, rgb: np.ndarray, width: int, height: int) -> np.ndarray | None:
        if self._face is None:
            return None
        result = self._face.process(rgb)
        if not result.multi_face_landmarks:
            return None
        points = _to_pixels(result.multi_face_landmarks[0], width, height)
        return reindex_mirrored_face(points) if self.options.mirrored else points

    def _run_hands(self, rgb: np.ndarray, width: int, height: int) -> tuple[HandLandmarks, ...]:
        if self._hands is None:
            return ()
        opts = self.options
        reuse = (
            not opts.static_image_mode
            and opts.hands_every > 1
            and self._frames_seen % opts.hands_every != 0
            and self._last_hands_size == (width, height)
        )
        if reuse:
            return self._last_hands
        result = self._hands.process(rgb)
        hands: list[HandLandmarks] = []
        if result.multi_hand_landmarks:
            for points, handedness in zip(result.multi_hand_landmarks, result.multi_handedness):
                label = handedness.classification[0]
                hands.append(
                    HandLandmarks(
                        points=_to_pixels(points, width, height),
                        side=self._subject_side(label.label),
                        score=float(label.score),
                    )
                )
        self._last_hands = tuple(hands)
        self._last_hands_size = (width, height)
        return self._last_hands

    def _subject_side(self, mediapipe_label: str) -> Side:
        """MediaPipe's label assumes a mirrored selfie; see the module docstring."""
        labelled_left = mediapipe_label.lower() == "left"
        if self.options.mirrored:
            return Side.LEFT if labelled_left else Side.RIGHT
        return Side.RIGHT if labelled_left else Side.LEFT

    def _run_pose(self, rgb: np.ndarray, width: int, height: int) -> np.ndarray | None:
        if self._pose is None:
            return None
        result = self._pose.process(rgb)
        if not result.pose_landmarks:
            return None
        points = np.array(
            [(p.x * width, p.y * height, p.z * width, p.visibility) for p in result.pose_landmarks.landmark],
            dtype=np.float32,
        )
        if self.options.mirrored:
            points = points[_POSE_SWAP]
        return points
