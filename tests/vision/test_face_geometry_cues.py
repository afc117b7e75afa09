"""Geometric cues for look_up and pout on the recorded meshes of the real photos.

The meshes are the face-mesh landmarks recorded from ../shared/gestures (samples/face_landmarks.npz),
so these tests need neither MediaPipe nor the photos. Cues: the white bared under the iris
(``gaze_low_*``) and the raised upper lid (``eye_lid_up*``) of a gaze up; the mouth width against the
nose wings' (``mouth_width_nose``) of a pout; the corner height difference of a one-sided smirk.
"""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from trainer.vision.face_features import face_features
from trainer.vision.types import VisionError

LANDMARKS = Path(__file__).resolve().parents[2] / "samples" / "face_landmarks.npz"
NEW = ("gaze_low_left", "gaze_low_right", "gaze_low_max", "eye_lid_up_left", "eye_lid_up_right",
       "eye_lid_up", "mouth_width_nose")


@lru_cache(maxsize=1)
def _meshes() -> dict[str, np.ndarray]:
    data = np.load(LANDMARKS)
    return {f: p for f, p in zip(data["files"].tolist(), data["points"], strict=False) if "#" not in f}


def _features(label: str) -> dict[str, dict[str, float]]:
    return {f: face_features(p) for f, p in _meshes().items() if f.startswith(label + "/")}


def test_a_gaze_up_bares_more_white_under_the_iris_than_any_neutral_or_surprised_face():
    ups, neutral, surprised = _features("look_up"), _features("neutral"), _features("brows_up")
    assert len(ups) == 5 and len(neutral) >= 15 and len(surprised) >= 13
    lowest_up = min(f["gaze_low_max"] for f in ups.values())
    assert lowest_up > max(f["gaze_low_max"] for f in neutral.values())
    assert lowest_up > max(f["gaze_low_max"] for f in surprised.values())
    # ... and lifts the upper lid above every neutral face's.
    assert min(f["eye_lid_up"] for f in ups.values()) > max(f["eye_lid_up"] for f in neutral.values())


def test_a_wide_eyed_stare_lifts_the_lid_like_a_gaze_up_but_leaves_the_iris_on_the_lower_lid():
    # The same person (lp_d14): brows up with wide eyes vs eyes rolled up.
    stare = face_features(_meshes()["brows_up/lp_d14_f0072_brows_up.jpg"])
    up = face_features(_meshes()["look_up/lp_d14_f0472_look_up.jpg"])
    assert stare["eye_lid_up"] == pytest.approx(up["eye_lid_up"], abs=0.02)
    assert up["gaze_low_max"] > stare["gaze_low_max"] + 0.2


def test_the_o_shaped_puckers_narrow_the_mouth_far_below_every_neutral_face_and_smiles_widen_it():
    pouts, neutral, smiles = _features("pout"), _features("neutral"), _features("smile")
    puckers = [f["mouth_width_nose"] for name, f in pouts.items() if "lp_d6_" in name]
    assert len(puckers) == 2
    narrowest_neutral = min(f["mouth_width_nose"] for f in neutral.values())
    assert max(puckers) < 0.7 * narrowest_neutral
    assert np.median([f["mouth_width_nose"] for f in smiles.values()]) > np.median(
        [f["mouth_width_nose"] for f in neutral.values()]) + 0.1


def test_one_sided_smirks_tilt_the_corners_more_than_any_smile():
    smirks = [f["lip_corner_diff"] for name, f in _features("lip_corner").items() if "lp_d19_" in name]
    smiles = [f["lip_corner_diff"] for f in _features("smile").values()]
    assert len(smirks) == 3 and len(smiles) >= 19
    assert min(abs(d) for d in smirks) > 1.5 * max(abs(d) for d in smiles)
    assert min(smirks) < 0 < max(smirks)  # both sides occur among them


@pytest.mark.parametrize("file", ["look_up/lp_d10_f0112_look_up.jpg", "pout/lp_d6_f0530_pout.jpg",
                                  "neutral/lp_d3_f0000_neutral.jpg"])
@pytest.mark.parametrize(("scale", "angle"), [(0.4, -20.0), (1.0, 12.0), (3.0, 25.0)])
def test_new_cues_ignore_image_scale_position_and_in_plane_rotation(file, scale, angle):
    points = _meshes()[file].astype(np.float64)
    a = math.radians(angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    moved = points.copy()
    moved[:, :2] = moved[:, :2] @ rot.T * scale + (123.0, -45.0)
    moved[:, 2] *= scale
    base, out = face_features(points), face_features(moved)
    for name in NEW:
        assert out[name] == pytest.approx(base[name], rel=1e-6, abs=1e-9), name


# Left/right twins among the points the new cues read (the iris rings only give a radius).
_PAIRS = ((33, 263), (133, 362), (7, 249), (163, 390), (144, 373), (145, 374), (153, 380), (154, 381),
          (155, 382), (160, 387), (159, 386), (158, 385), (468, 473), (469, 474), (470, 475), (471, 476),
          (472, 477), (129, 358), (61, 291))


def test_mirroring_swaps_the_sides_of_the_new_cues():
    points = _meshes()["look_up/lp_d10_f0112_look_up.jpg"].astype(np.float64)
    order = np.arange(len(points))
    for a, b in _PAIRS:
        order[a], order[b] = b, a
    mirrored = points[order]
    mirrored[:, 0] = -mirrored[:, 0]
    a, b = face_features(points), face_features(mirrored)
    for left, right in (("gaze_low_left", "gaze_low_right"), ("eye_lid_up_left", "eye_lid_up_right")):
        assert b[left] == pytest.approx(a[right], rel=1e-6) and b[right] == pytest.approx(a[left], rel=1e-6)
    for name in ("gaze_low_max", "eye_lid_up", "mouth_width_nose"):
        assert b[name] == pytest.approx(a[name], rel=1e-6), name


def test_degenerate_meshes_give_finite_cues_or_a_clear_error():
    points = _meshes()["neutral/lp_d3_f0000_neutral.jpg"].astype(np.float64).copy()
    # Iris rings collapsed onto their centres, nose wings on one point, a lower lid flattened to a
    # vertical line: the cues fall back to 0 instead of dividing by zero.
    points[469:473] = points[468]
    points[474:478] = points[473]
    points[358] = points[129]
    points[[7, 163, 144, 145, 153, 154, 155], 0] = points[33, 0]
    out = face_features(points)
    assert all(math.isfinite(out[name]) for name in NEW)
    assert out["gaze_low_right"] == 0.0 and out["gaze_low_left"] == 0.0 and out["mouth_width_nose"] == 0.0
    with pytest.raises(VisionError, match="degenerate"):
        face_features(np.full((478, 3), 7.0))
