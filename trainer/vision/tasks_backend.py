"""The default face backend: MediaPipe Tasks ``FaceLandmarker`` (478 points + 52 blendshapes).

The model ships in the repository (``models/face_landmarker.task``, Apache-2.0, see models/README.md)
and is loaded offline; its sha256 is checked before use. A path given by the caller or
``$ALUETTE_FACE_MODEL`` overrides it. ``resolve_face_model`` says which file to use, or why none can be
used: then the app and the commands fall back to the solutions face mesh (same gesture names) and say so
in one line.

It produces the same ``Landmarks`` as ``trainer.vision.landmarks.Tracker`` (face points in pixels,
x*w, y*h, z*w) plus ``blendshapes``; ``blendshape_features`` turns those into ``bs_<name>`` features so
``trainer.vision.face_gestures`` can score the same gesture names with the ``tasks`` rules of
models/thresholds.json. Video mode needs strictly increasing timestamps (MediaPipe's rule); we pass
the source's own timestamps, never the wall clock.

Imports numpy and trainer.vision; MediaPipe only when a tracker is built.
"""

from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

import numpy as np

from trainer.vision.calibration import data_folder
from trainer.vision.landmarks import reindex_mirrored_face
from trainer.vision.quiet import quiet_native_logs
from trainer.vision.types import Frame, Landmarks, VisionError

MODEL_NAME = "face_landmarker.task"
BUNDLED_MODEL = Path(__file__).resolve().parents[2] / "models" / MODEL_NAME
BUNDLED_SHA256 = "64184e229b263107bc2b804c6625db1341ff2bb731874b0bcc2fe6544e0bc9ff"
"""sha256 of Google's face_landmarker.task (float16, version 1) as committed in models/."""


@dataclass(frozen=True, slots=True)
class ModelChoice:
    """Which Tasks model file to use (``path``), or None with ``reason`` saying why not."""

    path: Path | None
    reason: str = ""


_VERIFIED: dict[tuple[str, float, int], bool] = {}


def _sha256_ok(path: Path) -> bool:
    stat = path.stat()
    key = (str(path.resolve()), stat.st_mtime, stat.st_size)
    if key not in _VERIFIED:  # 3.7 MB hashed once per process and file version (~10 ms)
        _VERIFIED[key] = hashlib.sha256(path.read_bytes()).hexdigest() == BUNDLED_SHA256
    return _VERIFIED[key]


def resolve_face_model(path: Path | str | None = None) -> ModelChoice:
    """The model file to use: ``path``, else ``$ALUETTE_FACE_MODEL``, else the data folder's copy, else
    the bundled models/face_landmarker.task when its sha256 is Google's. A path given explicitly must
    exist (VisionError: the user asked for it); a missing or altered bundled file gives ``path=None``
    and the reason (the caller falls back to the solutions face mesh)."""
    if path is not None:
        chosen = Path(path)
        if not chosen.is_file():
            raise VisionError(
                f"face model {chosen} not found: give the path of a {MODEL_NAME} file, or leave it out "
                "to use the bundled one"
            )
        return ModelChoice(chosen)
    for candidate in (os.environ.get("ALUETTE_FACE_MODEL"), data_folder() / MODEL_NAME):
        if candidate and Path(candidate).is_file():
            return ModelChoice(Path(candidate))
    if not BUNDLED_MODEL.is_file():
        return ModelChoice(None, f"{BUNDLED_MODEL} is missing")
    if not _sha256_ok(BUNDLED_MODEL):
        return ModelChoice(None, f"{BUNDLED_MODEL} fails its sha256 check (expected {BUNDLED_SHA256[:12]}...)")
    return ModelChoice(BUNDLED_MODEL)


def find_face_model(path: Path | str | None = None) -> Path | None:
    """The model file to use, or None when none is usable (then use the solutions face mesh)."""
    return resolve_face_model(path).path


def mirror_blendshapes(shapes: dict[str, float] | None) -> dict[str, float] | None:
    """The blendshapes of a mirrored face: every ``…Left`` score becomes ``…Right`` and back."""
    if shapes is None:
        return None

    def swapped(name: str) -> str:
        if name.endswith("Left"):
            return name[:-4] + "Right"
        if name.endswith("Right"):
            return name[:-5] + "Left"
        return name

    return {swapped(name): score for name, score in shapes.items()}


def blendshape_features(blendshapes: Mapping[str, float] | None) -> dict[str, float]:
    """``{"bs_<name>": score}`` for every blendshape, plus left/right summaries the rules use."""
    if not blendshapes:
        return {}
    out = {f"bs_{name}": float(value) for name, value in blendshapes.items() if not name.startswith("_")}
    get = lambda name: out.get(f"bs_{name}", 0.0)  # noqa: E731 - tiny local accessor
    # MediaPipe names blendshapes for the subject's side (eyeBlinkLeft = the subject's left eye).
    out["bs_blink_min"] = min(get("eyeBlinkLeft"), get("eyeBlinkRight"))
    out["bs_blink_diff"] = abs(get("eyeBlinkLeft") - get("eyeBlinkRight"))
    out["bs_look_up"] = 0.5 * (get("eyeLookUpLeft") + get("eyeLookUpRight"))
    out["bs_brows_up"] = get("browInnerUp") + 0.5 * (get("browOuterUpLeft") + get("browOuterUpRight"))
    out["bs_smile_diff"] = abs(get("mouthSmileLeft") - get("mouthSmileRight"))
    out["bs_smile_mean"] = 0.5 * (get("mouthSmileLeft") + get("mouthSmileRight"))
    out["bs_stretch"] = 0.5 * (get("mouthStretchLeft") + get("mouthStretchRight"))
    out["bs_upper_up"] = 0.5 * (get("mouthUpperUpLeft") + get("mouthUpperUpRight"))
    out["bs_sneer"] = 0.5 * (get("noseSneerLeft") + get("noseSneerRight"))
    return out


class TasksFaceTracker:
    """FaceLandmarker with blendshapes on BGR frames; same ``Landmarks`` as the default tracker.

    ``video=True`` uses the VIDEO running mode (tracking between frames; timestamps must increase).
    """

    def __init__(self, model_path: Path | str | None = None, *, video: bool = False, mirrored: bool = False) -> None:
        self.mirrored = mirrored
        """Frames flipped like a selfie view: the mesh is re-indexed and the blendshapes' Left/Right
        swapped, so both name the subject's own side (as the solutions ``Tracker`` does)."""
        choice = resolve_face_model(model_path)
        model = choice.path
        if model is None:
            raise VisionError(
                f"no usable {MODEL_NAME} ({choice.reason}): restore it from git (models/) or use the "
                "solutions face mesh backend (--backend mesh)"
            )
        try:
            with quiet_native_logs():
                import mediapipe as mp  # noqa: PLC0415 - heavy
                from mediapipe.tasks.python import BaseOptions, vision  # noqa: PLC0415
        except ImportError as error:  # pragma: no cover - vision extras installed in dev and CI
            raise VisionError("mediapipe is not installed: pip install mediapipe==0.10.21") from error
        self._mp = mp
        self.video = video
        self.model_path = model
        options = vision.FaceLandmarkerOptions(
            base_options=BaseOptions(model_asset_buffer=model.read_bytes()),
            running_mode=vision.RunningMode.VIDEO if video else vision.RunningMode.IMAGE,
            num_faces=1,
            output_face_blendshapes=True,
        )
        try:
            # Its native start-up log lines come here (measured: none on later detect calls).
            with quiet_native_logs():
                self._landmarker = vision.FaceLandmarker.create_from_options(options)
        except (RuntimeError, ValueError) as error:
            raise VisionError(f"{model} is not a usable {MODEL_NAME} ({error}): get the official model") from None
        self._lock = threading.Lock()
        self._last_ms: int | None = None
        self._offset_ms = 0

    def restart(self) -> None:
        """A new stream whose clock starts again (the graph itself needs increasing timestamps, so the
        new stream's are shifted past the last one)."""
        with self._lock:
            if self._last_ms is not None:
                self._offset_ms = self._last_ms + 1
                self._started = False

    def close(self) -> None:
        with self._lock:
            if self._landmarker is not None:
                self._landmarker.close()
                self._landmarker = None

    def __enter__(self) -> "TasksFaceTracker":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def process(self, frame: Frame) -> Landmarks:
        image = frame.image
        if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
            raise VisionError(
                f"frame {frame.index} has shape {getattr(image, 'shape', None)}: expected H x W x 3 uint8 BGR"
            )
        height, width = image.shape[:2]
        import cv2  # noqa: PLC0415 - cvtColor is ~10x faster than a numpy channel flip + copy

        rgb = cv2.cvtColor(image, cv2.COLOR_BGR2RGB)
        mp_image = self._mp.Image(image_format=self._mp.ImageFormat.SRGB, data=rgb)
        with self._lock:
            if self._landmarker is None:
                raise VisionError("this TasksFaceTracker was closed: build a new one")
            if self.video:
                if not getattr(self, "_started", True):
                    self._offset_ms -= int(round(frame.timestamp * 1000))  # the new stream's first frame
                    self._started = True
                stamp = int(round(frame.timestamp * 1000)) + self._offset_ms
                if self._last_ms is not None and stamp <= self._last_ms:
                    raise VisionError(
                        f"frame {frame.index} at {frame.timestamp:.3f} s is not after the previous frame: "
                        "video mode needs strictly increasing timestamps"
                    )
                self._last_ms = stamp
                result = self._landmarker.detect_for_video(mp_image, stamp)
            else:
                result = self._landmarker.detect(mp_image)
        if not result.face_landmarks:
            return Landmarks(timestamp=frame.timestamp, width=width, height=height)
        points = np.array([(p.x, p.y, p.z) for p in result.face_landmarks[0]], dtype=np.float32)
        points[:, 0] *= width
        points[:, 1] *= height
        points[:, 2] *= width
        shapes = {c.category_name: float(c.score) for c in result.face_blendshapes[0]} if result.face_blendshapes else None
        if self.mirrored:
            points = reindex_mirrored_face(points)
            shapes = mirror_blendshapes(shapes)
        return Landmarks(
            timestamp=frame.timestamp, width=width, height=height, face=points, blendshapes=shapes
        )
