"""Mirroring: the one definition of how landmarks of a selfie-flipped frame relate to the subject.

The face mesh names its points by where they sit in the image (index 33, "the subject's right eye outer
corner", is always the eye on the image's left), so on a mirrored frame index 33 lands on the subject's
LEFT eye. :func:`reindex_mirrored_face` re-indexes the 478 points with
``trainer.vision.mesh_mirror.FACE_MIRROR`` (a measured left<->right involution of the mesh), so every
index again means the subject's own point; coordinates stay those of the frame, for drawing. Features
that measure in a face frame want the unmirrored geometry as well: :func:`unmirrored_face` gives it.

numpy and trainer.vision only; no MediaPipe.
"""

from __future__ import annotations

from typing import overload

import numpy as np

from trainer.vision.mesh_mirror import FACE_MIRROR
from trainer.vision.types import Landmarks

# Pose landmark pairs (left index, right index): POSE_SWAP re-reads the pose of a mirrored frame.
_POSE_LR_PAIRS = (
    (1, 4), (2, 5), (3, 6), (7, 8), (9, 10), (11, 12), (13, 14), (15, 16), (17, 18), (19, 20),
    (21, 22), (23, 24), (25, 26), (27, 28), (29, 30), (31, 32),
)
POSE_SWAP = np.arange(33)
for _left, _right in _POSE_LR_PAIRS:
    POSE_SWAP[_left], POSE_SWAP[_right] = _right, _left

# Face mesh indices re-read for a mirrored frame (an involution: mirrored[i] = points[_FACE_SWAP[i]]).
_FACE_SWAP = np.array(FACE_MIRROR)


def reindex_mirrored_face(points: np.ndarray) -> np.ndarray:
    """The face mesh of a selfie-flipped frame with every index meaning the subject's own point again.
    The 10 iris points map among themselves, so the first 468 also serve an unrefined mesh."""
    return points[_FACE_SWAP[: points.shape[0]]]


@overload
def mirror_x(points: np.ndarray, width: int) -> np.ndarray: ...


@overload
def mirror_x(points: None, width: int) -> None: ...


@overload
def mirror_x(points: np.ndarray | None, width: int) -> np.ndarray | None: ...


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


