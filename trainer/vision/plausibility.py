"""Sanity checks on what the trackers report, before features are computed from it.

The face mesh, run on a photo of a hand held up to the camera, sometimes "finds" a face in the hand
itself (``thumb/hagrid_like.png`` of ../shared/gestures: a thumbs-up with no face in the picture
gives a face mesh whose box is 88 % covered by the hand's landmarks), and that phantom face then
winks and pouts. A real face next to a sign is much larger than the hand's landmark box or only partly
covered by it, so a face whose box lies mostly inside a detected hand's box is dropped.

The reverse happens too: the hand detector "finds" a tiny hand inside a face (CK+ ``S080`` and
``S084`` surprise photos: a "hand" a tenth of the face's width, all its points on the open mouth and
chin), and a hand near the mouth mutes the mouth signs; or in the background beside it (a talking
clip, ``pcavs_00098``: 0.30-0.40 face widths in the studio's stripes, read as a raised index).
A player's hand is at most as far from the camera as their face, so it looks about as large as the face
is wide or larger (the real hands within 0.6 face widths of a mouth in ../shared/gestures span 0.78 to
1.56 face widths; hands making a sign beside a face, 0.59 to 2.4); ``hand_is_credible`` rejects one
spanning under ``HAND_MIN_SPAN`` face widths, and the pipeline reads no sign and no hidden mouth from it.

Standard library and numpy only.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from trainer.vision.types import HandLandmarks

HAND_COVER_LIMIT = 0.6
"""A face box covered by a hand's landmark box beyond this fraction is taken for the hand itself."""


HAND_MIN_SPAN = 0.37
"""A hand whose landmark box's diagonal is under this many face widths is not the player's. A hand at
the face's distance spans about 1.1 face widths (the median of the hand photos and clips with a face);
under 0.37 it would be three times as far from the camera as the face. The phantom hands span
0.10-0.11 inside faces and 0.30-0.40 in a background (its few frames above the limit make no sign);
real hands near a mouth 0.78 or more, real hand signs 0.59 or more, every real hand beside a face in
../shared/gestures 0.42 or more."""


def _box(points: np.ndarray) -> tuple[float, float, float, float]:
    xy = np.asarray(points)[:, :2]
    (x0, y0), (x1, y1) = xy.min(axis=0), xy.max(axis=0)
    return float(x0), float(y0), float(x1), float(y1)


def hand_cover(face: np.ndarray, hand: np.ndarray) -> float:
    """Fraction of the face's bounding box (image plane) inside the hand's landmark box."""
    fx0, fy0, fx1, fy1 = _box(face)
    hx0, hy0, hx1, hy1 = _box(hand)
    area = (fx1 - fx0) * (fy1 - fy0)
    if area <= 0:
        return 1.0  # a degenerate face box is no face either
    inter = max(0.0, min(fx1, hx1) - max(fx0, hx0)) * max(0.0, min(fy1, hy1) - max(fy0, hy0))
    return inter / area


def face_is_a_hand(face: np.ndarray, hands: Iterable[HandLandmarks]) -> bool:
    """True when the face mesh lies mostly inside a detected hand (see the module doc)."""
    return any(hand_cover(face, hand.points) > HAND_COVER_LIMIT for hand in hands)


def hand_span(hand: np.ndarray, face_width: float) -> float:
    """The diagonal of the hand's landmark box (image plane) in face widths."""
    x0, y0, x1, y1 = _box(hand)
    return float(np.hypot(x1 - x0, y1 - y0)) / face_width if face_width > 0 else 0.0


def hand_is_credible(hand: HandLandmarks, face_width: float) -> bool:
    """False for a "hand" too small beside the face to be one (see the module doc)."""
    return hand_span(hand.points, face_width) >= HAND_MIN_SPAN


def credible_hands(hands: Iterable[HandLandmarks], face_width: float) -> tuple[HandLandmarks, ...]:
    """The hands that can be the player's beside a face ``face_width`` pixels wide."""
    return tuple(hand for hand in hands if hand_is_credible(hand, face_width))
