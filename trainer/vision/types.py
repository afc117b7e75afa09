"""Typed values that cross the vision pipeline's stages. The contract between its modules.

Landmark coordinates are in **pixels** (x right, y down, z in the same pixel scale, as MediaPipe's
normalised z is relative to image width), so distances are isotropic and features can divide them by a
face or hand size to become scale-free.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

import numpy as np

from trainer.signals.gestures import Gesture, Side


class VisionError(ValueError):
    """Bad input to the vision layer (unreadable file, empty clip, wrong image shape); names the
    input and what to do."""


@dataclass(frozen=True, slots=True)
class Frame:
    """One BGR image (H x W x 3, uint8) with its timestamp in seconds on the source's own clock."""

    image: np.ndarray
    timestamp: float
    index: int = 0

    @property
    def size(self) -> tuple[int, int]:
        return int(self.image.shape[1]), int(self.image.shape[0])


@dataclass(frozen=True, slots=True)
class HandLandmarks:
    """21 hand points (MediaPipe order, pixels) and which of the subject's hands it is."""

    points: np.ndarray
    side: Side
    score: float = 1.0


@dataclass(frozen=True, slots=True)
class Landmarks:
    """Everything the trackers found in one frame."""

    timestamp: float
    width: int
    height: int
    face: np.ndarray | None = None
    """478 x 3 refined face mesh in pixels, or None when no face was found."""
    blendshapes: dict[str, float] | None = None
    """The FaceLandmarker's 52 blendshape scores (None when no face was found)."""
    hands: tuple[HandLandmarks, ...] = ()
    pose: np.ndarray | None = None
    """33 x 4 pose points (x, y, z pixels; visibility), only when the shrug is wanted."""


BLENDSHAPE_PREFIX = "bs_"
"""Blendshapes inside a flat feature table (a running baseline, a profile) are ``bs_<MediaPipe name>``."""


class FaceBackend(Enum):
    """Where a face reading comes from, said once where it is read (never guessed from its keys)."""

    TASKS = "tasks"
    """MediaPipe's FaceLandmarker: the 52 blendshapes and the mesh geometry. The face signs and a
    personal model read this backend only."""
    GEOMETRY = "geometry"
    """The mesh geometry alone (a recording made without blendshapes): no face sign is scored."""


@dataclass(frozen=True, slots=True)
class FaceReading:
    """One face in one frame."""

    blendshapes: Mapping[str, float]
    """MediaPipe's blendshape scores by their own names (``mouthPucker``, ``eyeBlinkLeft``...; the
    side is the subject's own). Empty only for recordings made without them."""
    geometry: Mapping[str, float]
    """``trainer.vision.face_features`` of the 478 points."""
    appearance: Mapping[str, float] = field(default_factory=dict)
    """``trainer.vision.face_features.mouth_appearance`` (empty when not measured)."""
    backend: FaceBackend = FaceBackend.TASKS
    """What read the face: the pipeline sets it from what the tracker (or the recording) gave."""

    def flat(self) -> dict[str, float]:
        """One table (geometry, appearance, ``bs_``-prefixed blendshapes): what profiles and the
        running baseline store."""
        out = dict(self.geometry)
        out.update(self.appearance)
        out.update((BLENDSHAPE_PREFIX + k, v) for k, v in self.blendshapes.items())
        return out


@dataclass(frozen=True, slots=True)
class FrameScores:
    """Per-frame output of the static stage: the face as read, the other features, and a 0..1 score
    per gesture.

    A score of 0.5 is the decision threshold (population default or the user's calibrated one);
    the temporal recognizer adds hysteresis around it. The face is held once, in ``face``: the flat
    ``features`` table and ``jaw_open`` are views of it.
    """

    timestamp: float
    scores: dict[Gesture, float] = field(default_factory=dict)
    sides: dict[Gesture, Side] = field(default_factory=dict)
    face: FaceReading | None = None
    """The face as read this frame (blendshapes, geometry, mouth appearance), None without a face."""
    hands_found: int = 0
    body_features: dict[str, float] = field(default_factory=dict)
    """The hands' and the shoulders' named features (``hand_right_on_mouth``...): not the face's."""
    mouth_hidden: bool = False
    """A hand was in front of the mouth: the mouth signs were muted."""
    eyes_hidden: bool = False
    """A hand was in front of an eye: the signs read from both eyes' closure were muted."""
    mouth_activity: float | None = None
    """How far the lips are apart beyond a fixed neutral (the user's, or the population's: a running
    baseline taken during speech would clip the strokes), in fractions of the inter-ocular distance:
    the recognizer's talking detector counts its reversals. None without a face."""
    neutral_known: bool = True
    """False while the pipeline is still learning this stream's neutral face (video without a
    calibrated profile, before its running baseline exists): the recognizer then holds face signs
    back unless they are as clear as on a photo (``RecognizerConfig.unsure_enter``)."""

    @property
    def face_found(self) -> bool:
        return self.face is not None

    @property
    def features(self) -> dict[str, float]:
        """One flat table: the face's (``FaceReading.flat``: geometry, appearance, ``bs_`` blendshapes)
        then the hands' and shoulders'. What a calibration, a teacher or a recording stores."""
        out = self.face.flat() if self.face is not None else {}
        out.update(self.body_features)
        return out

    @property
    def blendshapes(self) -> Mapping[str, float]:
        """The face's blendshapes under their MediaPipe names (empty without a face): a view of ``face``."""
        return self.face.blendshapes if self.face is not None else {}

    @property
    def jaw_open(self) -> float | None:
        """MediaPipe's ``jawOpen`` blendshape (None without a face or without blendshapes): the talking
        detector's second channel. Some speakers articulate with the jaw more than with the lips' gap."""
        return self.face.blendshapes.get("jawOpen") if self.face is not None else None


class Rates:
    """Precision, recall and F1 of a subclass's ``tp``, ``fp`` and ``fn`` counts (0 when undefined):
    one definition for the photo evaluation and the leave-one-person-out fit."""

    __slots__ = ()
    tp: int
    fp: int
    fn: int

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0
