"""Colour cues of the mouth (``mouth_appearance``) on the real photos: tongue, white teeth, lower teeth,
teeth share of the opening.

The meshes are the landmarks recorded from ../shared/gestures (samples/face_landmarks.npz), so these
tests need the photos but not MediaPipe. Every colour is measured against the subject's own cheeks and
lips, so the cues must hold across skin tones, lighting and grayscale (Yale) photos.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
import pytest

from trainer.vision.face_features import APPEARANCE_NAMES, mouth_appearance
from trainer.vision.types import VisionError

LANDMARKS = Path(__file__).resolve().parents[2] / "samples" / "face_landmarks.npz"
NEW = ("mouth_tongue", "mouth_teeth_white", "mouth_teeth_low", "mouth_teeth_share")
# A wide jaw drop with the tongue lying inside the mouth: the one open mouth that shows as much tongue
# as a tongue out (a known confusion, see docs/vision-face.md).
WIDE_OPEN = "mouth_open/lp_d18_f0132_mouth_open.jpg"


@lru_cache(maxsize=1)
def _meshes() -> dict[str, np.ndarray]:
    data = np.load(LANDMARKS)
    return {f: p for f, p in zip(data["files"].tolist(), data["points"], strict=False) if "#" not in f}


@pytest.fixture(scope="module")
def cues(gestures_dir):
    """Appearance cues of every recorded still, by file."""
    out = {}
    for file, points in _meshes().items():
        image = cv2.imread(str(gestures_dir / file))
        assert image is not None, file
        out[file] = mouth_appearance(image, points)
    return out


def _of(cues: dict, label: str) -> dict[str, dict[str, float]]:
    return {f: c for f, c in cues.items() if f.startswith(label + "/")}


def test_every_tongue_out_shows_more_tongue_than_the_round_open_mouths(cues):
    tongues, opened = _of(cues, "tongue_out"), _of(cues, "mouth_open")
    assert len(tongues) == 13 and len(opened) == 5
    least = min(c["mouth_tongue"] for c in tongues.values())
    others = [c["mouth_tongue"] for f, c in opened.items() if f != WIDE_OPEN]
    assert least > 1.2 * max(others)
    # The old pink cue (any reddish pixel) read two round, brownish cavities as pink as a tongue.
    assert sum(c["mouth_pink"] > min(t["mouth_pink"] for t in tongues.values()) for c in opened.values()) >= 2


def test_grayscale_photos_never_show_tongue(cues):
    yale = {f: c for f, c in cues.items() if "/yale_" in f}
    assert len(yale) >= 40
    assert all(c["mouth_tongue"] == 0.0 for c in yale.values())


def test_closed_neutral_mouths_show_little_tongue_or_teeth(cues):
    neutral = _of(cues, "neutral")
    assert len(neutral) >= 15
    least_tongue = min(c["mouth_tongue"] for c in _of(cues, "tongue_out").values())
    assert max(c["mouth_tongue"] for c in neutral.values()) < 0.5 * least_tongue
    assert np.median([c["mouth_teeth_white"] for c in neutral.values()]) < 0.005


def test_white_teeth_finds_the_shaded_teeth_of_a_warm_photo(cues):
    # lp_d3's teeth are darker than her brightly lit cheeks: the cheek-brightness cue sees none.
    grimace = cues["grimace/lp_d3_f0018_grimace_wink.jpg"]
    neutral = cues["neutral/lp_d3_f0000_neutral.jpg"]
    assert grimace["mouth_teeth"] < 0.005
    assert grimace["mouth_teeth_white"] > 0.02 > neutral["mouth_teeth_white"]


def test_a_bitten_lip_keeps_the_teeth_from_filling_the_opening(cues):
    bites = _of(cues, "lip_bite")
    clenched = [cues["grimace/lp_d14_f0032_clenched_teeth.jpg"], cues["grimace/lp_d6_f0090_grimace.jpg"],
                cues["wink/lp_d6_f0050_wink_left_partial.jpg"]]
    assert len(bites) == 4
    assert max(c["mouth_teeth_share"] for c in bites.values()) < min(c["mouth_teeth_share"] for c in clenched)


def test_smiles_show_their_teeth_mostly_in_the_upper_half(cues):
    toothy = [c for c in _of(cues, "smile").values() if c["mouth_teeth_white"] > 0.03]
    assert len(toothy) >= 4
    assert all(c["mouth_teeth_low"] < 0.6 * c["mouth_teeth_white"] for c in toothy)
    assert np.median([c["mouth_teeth_low"] / c["mouth_teeth_white"] for c in toothy]) < 0.45


def test_cues_are_scale_free_and_bounded(gestures_dir):
    file = "tongue_out/lp_d6_f0200_tongue.jpg"
    image, points = cv2.imread(str(gestures_dir / file)), _meshes()[file]
    small = mouth_appearance(image, points)
    big = mouth_appearance(cv2.resize(image, None, fx=2, fy=2, interpolation=cv2.INTER_LINEAR), points * 2)
    for name in NEW:
        assert big[name] == pytest.approx(small[name], abs=0.01 + 0.15 * small[name]), name
    assert 0.0 <= small["mouth_teeth_share"] <= 1.0
    assert small["mouth_teeth_low"] <= small["mouth_teeth_white"] <= small["mouth_area"] + 0.05


def test_bad_or_empty_input():
    points = _meshes()["neutral/lp_d3_f0000_neutral.jpg"]
    with pytest.raises(VisionError, match="BGR image"):
        mouth_appearance(np.zeros((480, 640), np.uint8), points)
    with pytest.raises(VisionError, match="478"):
        mouth_appearance(np.zeros((480, 640, 3), np.uint8), points[:468])
    # A mouth outside the frame or a collapsed mesh gives zeros, never an error or NaN.
    assert mouth_appearance(np.zeros((480, 640, 3), np.uint8), points + 5000) == dict.fromkeys(APPEARANCE_NAMES, 0.0)
    flat = mouth_appearance(np.full((480, 640, 3), 128, np.uint8), np.zeros((478, 3)))
    assert flat == dict.fromkeys(APPEARANCE_NAMES, 0.0)
