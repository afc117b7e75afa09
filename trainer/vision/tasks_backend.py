"""The face tracker: MediaPipe Tasks ``FaceLandmarker`` (478 points + 52 blendshapes).

The model ships in the repository (``models/face_landmarker.task``, Apache-2.0, see models/README.md)
and is loaded offline after its sha256 check (:mod:`trainer.vision.tasks_models`); a path given by the
caller or ``$ALUETTE_FACE_MODEL`` overrides it. There is no other face backend: a missing or altered
model is an error that says how to restore it.

It produces ``Landmarks`` (face points in pixels, x*w, y*h, z*w) with ``blendshapes``;
``blendshape_features`` turns those into ``bs_<name>`` features and left/right summaries. Video mode
needs strictly increasing timestamps (MediaPipe's rule); we pass the source's own timestamps, never the
wall clock.

Imports numpy and trainer.vision; MediaPipe only when a tracker is built.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from trainer.vision.mirroring import reindex_mirrored_face
from trainer.vision.quiet import quiet_native_logs
from trainer.vision.tasks_models import ModelChoice, TasksModel, VideoClock, model_bytes, resolve_model, to_srgb
from trainer.vision.types import Frame, Landmarks, VisionError

MODEL_NAME = TasksModel.FACE.file


def resolve_face_model(path: Path | str | None = None) -> ModelChoice:
    """The face model file to use, or why none can be (:func:`tasks_models.resolve_model`)."""
    return resolve_model(TasksModel.FACE, path)


def find_face_model(path: Path | str | None = None) -> Path | None:
    """The face model file to use, or None when none is usable."""
    return resolve_face_model(path).path


def import_tasks():
    """``(mediapipe, mediapipe.tasks.python.vision, BaseOptions)``, or VisionError saying what to install."""
    try:
        with quiet_native_logs():
            import mediapipe as mp  # noqa: PLC0415 - heavy, loaded only when a tracker is built
            from mediapipe.tasks.python import BaseOptions, vision  # noqa: PLC0415
    except ImportError as error:  # pragma: no cover - the vision extra is installed in dev and CI
        raise VisionError(
            f"mediapipe is not installed ({error}): install the vision extras (pip install -e '.[vision]')"
        ) from error
    return mp, vision, BaseOptions


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
        swapped, so both name the subject's own side."""
        model, data = model_bytes(TasksModel.FACE, model_path)
        mp, vision, base_options = import_tasks()
        self._mp = mp
        self.video = video
        self.model_path = model
        options = vision.FaceLandmarkerOptions(
            base_options=base_options(model_asset_buffer=data),
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
        self._clock = VideoClock()

    def restart(self) -> None:
        """A new stream whose clock starts again (see :class:`tasks_models.VideoClock`)."""
        with self._lock:
            self._clock.restart()

    def close(self) -> None:
        with self._lock:
            if self._landmarker is not None:
                self._landmarker.close()
                self._landmarker = None

    def __enter__(self) -> TasksFaceTracker:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def process(self, frame: Frame) -> Landmarks:
        rgb = to_srgb(frame.image, frame.index)
        return self.detect(self._mp.Image(image_format=self._mp.ImageFormat.SRGB, data=rgb), frame)

    def detect(self, mp_image, frame: Frame) -> Landmarks:
        """The face in ``mp_image`` (an SRGB ``mediapipe.Image`` of ``frame``, converted once by the caller)."""
        width, height = mp_image.width, mp_image.height
        with self._lock:
            if self._landmarker is None:
                raise VisionError("this TasksFaceTracker was closed: build a new one")
            if self.video:
                result = self._landmarker.detect_for_video(mp_image, self._clock.stamp(frame.timestamp, frame.index))
            else:
                result = self._landmarker.detect(mp_image)
        if not result.face_landmarks:
            return Landmarks(timestamp=frame.timestamp, width=width, height=height)
        points = np.array([(p.x, p.y, p.z) for p in result.face_landmarks[0]], dtype=np.float32)
        points[:, 0] *= width
        points[:, 1] *= height
        points[:, 2] *= width
        shapes = ({c.category_name: float(c.score) for c in result.face_blendshapes[0]}
                  if result.face_blendshapes else None)
        if self.mirrored:
            points = reindex_mirrored_face(points)
            shapes = mirror_blendshapes(shapes)
        return Landmarks(
            timestamp=frame.timestamp, width=width, height=height, face=points, blendshapes=shapes
        )
