"""The MediaPipe Tasks model files the product ships, and what every Tasks call needs around them.

mediapipe 1.x has only the Tasks API and ships no models: each tracker loads a ``.task`` bundle from
``models/`` (Apache-2.0, sources in models/README.md), offline, after checking its sha256. A bundled file
that is missing or altered is refused with the way out (restore it from git), never replaced by a download.

Also here, because every Tasks landmarker needs them:

* :func:`to_srgb` — Tasks takes 3-channel SRGB only (mediapipe 1.2 rejects 1-channel images), so grey
  and BGRA images are converted before every call.
* :class:`VideoClock` — VIDEO mode needs strictly increasing integer milliseconds per landmarker; a
  stream that starts again (a new clip, a camera restart) is shifted past the last stamp.

Imports numpy and cv2 only (MediaPipe is imported by the trackers that use these files).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

import numpy as np

from trainer.vision.types import VisionError

MODELS_DIR = Path(__file__).resolve().parents[2] / "models"


class TasksModel(Enum):
    """A bundled Tasks model: its file name and the sha256 it must have."""

    FACE = ("face_landmarker.task", "64184e229b263107bc2b804c6625db1341ff2bb731874b0bcc2fe6544e0bc9ff",
            "ALUETTE_FACE_MODEL")
    """Google's Face Landmarker (float16, v1): 478 points + 52 blendshapes."""
    HANDS = ("hand_landmarker.task", "9fa7143ff64131ec1e5dd3ba499d344901b69f1d82d0255b6be0357c535d69b4",
             "ALUETTE_HAND_MODEL")
    """Palm detector + 21-point hand landmarks ("full"), bundled from mediapipe 0.10.21's Apache-2.0 files."""
    POSE = ("pose_landmarker.task", "1c7112887e08d948b0d4d79b5b237aff84240d57cf28c6852df02923a272cf8b",
            "ALUETTE_POSE_MODEL")
    """Pose detector + 33-point pose landmarks ("full") for the shrug, bundled from mediapipe 0.10.21's Apache-2.0
    files with the metadata Tasks needs (trainer.lab.model_bundles)."""

    def __init__(self, file: str, sha256: str, env: str) -> None:
        self.file = file
        self.sha256 = sha256
        self.env = env

    @property
    def bundled(self) -> Path:
        return MODELS_DIR / self.file


@dataclass(frozen=True, slots=True)
class ModelChoice:
    """Which file to load for a model (``path``), or None with ``reason`` saying why none can be."""

    path: Path | None
    reason: str = ""


_VERIFIED: dict[tuple[str, float, int, str], bool] = {}


def sha256_matches(path: Path, expected: str) -> bool:
    """Whether ``path`` has the sha256 ``expected`` (hashed once per process and file version)."""
    stat = path.stat()
    key = (str(path.resolve()), stat.st_mtime, stat.st_size, expected)
    if key not in _VERIFIED:
        _VERIFIED[key] = hashlib.sha256(path.read_bytes()).hexdigest() == expected
    return _VERIFIED[key]


def resolve_model(model: TasksModel, path: Path | str | None = None) -> ModelChoice:
    """The file to use: ``path``, else ``$ALUETTE_…_MODEL``, else a copy in the user's data folder, else
    the bundled file when its sha256 is the expected one. A path the caller names must exist
    (VisionError: they asked for it); a bundled file that is missing or altered gives ``path=None`` and the reason."""
    if path is not None:
        chosen = Path(path)
        if not chosen.is_file():
            raise VisionError(
                f"model {chosen} not found: give the path of a {model.file} file, or leave it out to use "
                "the bundled one"
            )
        return ModelChoice(chosen)
    from trainer.vision.calibration import data_folder  # noqa: PLC0415 - the user's own copy

    for candidate in (os.environ.get(model.env), data_folder() / model.file):
        if candidate and Path(candidate).is_file():
            return ModelChoice(Path(candidate))
    bundled = model.bundled
    if not bundled.is_file():
        return ModelChoice(None, f"{bundled} is missing")
    if not model.sha256 or not sha256_matches(bundled, model.sha256):
        return ModelChoice(None, f"{bundled} fails its sha256 check (expected {model.sha256[:12]}...)")
    return ModelChoice(bundled)


def model_bytes(model: TasksModel, path: Path | str | None = None) -> tuple[Path, bytes]:
    """The chosen file and its bytes, or VisionError naming the file and the way out."""
    choice = resolve_model(model, path)
    if choice.path is None:
        raise VisionError(f"no usable {model.file} ({choice.reason}): restore it with `git checkout -- models/`")
    return choice.path, choice.path.read_bytes()


def to_srgb(image: np.ndarray, index: int = 0) -> np.ndarray:
    """A BGR, BGRA or grey uint8 image as the contiguous 3-channel RGB array Tasks takes.
    Anything else is a VisionError naming the frame and its shape."""
    import cv2  # noqa: PLC0415 - cvtColor is ~10x faster than a numpy channel flip + copy

    if not isinstance(image, np.ndarray) or image.dtype != np.uint8:
        raise VisionError(
            f"frame {index} has dtype {getattr(image, 'dtype', type(image).__name__)}: expected a uint8 image"
        )
    if image.ndim == 2 or (image.ndim == 3 and image.shape[2] == 1):
        code = cv2.COLOR_GRAY2RGB
        image = image.reshape(image.shape[:2])
    elif image.ndim == 3 and image.shape[2] == 3:
        code = cv2.COLOR_BGR2RGB
    elif image.ndim == 3 and image.shape[2] == 4:
        code = cv2.COLOR_BGRA2RGB
    else:
        raise VisionError(f"frame {index} has shape {image.shape}: expected an H x W (x 1, 3 or 4) image")
    height, width = image.shape[:2]
    if width < 2 or height < 2:
        raise VisionError(f"frame {index} is {width}x{height}: too small to find a face or hand")
    return cv2.cvtColor(image, code)


class VideoClock:
    """Strictly increasing millisecond stamps for one VIDEO-mode landmarker, on the source's own clock.

    ``restart()`` begins a new stream whose clock may start again from 0: its stamps are shifted past
    the last one given (the graph keeps its own last stamp for ever)."""

    def __init__(self) -> None:
        self._last_ms: int | None = None
        self._offset_ms = 0
        self._started = True

    def restart(self) -> None:
        if self._last_ms is not None:
            self._offset_ms = self._last_ms + 1
            self._started = False

    def stamp(self, timestamp: float, index: int = 0) -> int:
        """The stamp for a frame at ``timestamp`` seconds; VisionError if it is not after the last."""
        ms = int(round(timestamp * 1000))
        if not self._started:
            self._offset_ms -= ms  # the new stream's first frame lands just after the old stream's last
            self._started = True
        stamp = ms + self._offset_ms
        if self._last_ms is not None and stamp <= self._last_ms:
            raise VisionError(
                f"frame {index} at {timestamp:.3f} s is not after the previous frame: "
                "video mode needs strictly increasing timestamps"
            )
        self._last_ms = stamp
        return stamp
