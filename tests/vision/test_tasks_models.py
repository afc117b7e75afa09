"""The bundled Tasks models (checked, never downloaded, no fallback) and what every Tasks call needs:
3-channel images and strictly increasing video stamps."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest

from trainer.vision.tasks_models import TasksModel, VideoClock, resolve_model, to_srgb
from trainer.vision.types import Frame, VisionError

REPO = Path(__file__).resolve().parents[2]
BUNDLED = [model for model in TasksModel if model.sha256]


@pytest.mark.parametrize("model", BUNDLED, ids=lambda m: m.file)
def test_each_bundled_model_is_the_file_its_readme_names(model):
    data = model.bundled.read_bytes()
    assert hashlib.sha256(data).hexdigest() == model.sha256
    readme = (REPO / "models" / "README.md").read_text(encoding="utf-8")
    assert model.file in readme and model.sha256 in readme and "Apache-2.0" in readme


@pytest.mark.parametrize("model", BUNDLED, ids=lambda m: m.file)
def test_an_altered_or_missing_model_is_refused_with_the_way_out(model, tmp_path, monkeypatch, data_home):
    monkeypatch.delenv(model.env, raising=False)
    assert resolve_model(model).path == model.bundled
    original = model.bundled.read_bytes()
    altered = tmp_path / "models" / model.file
    altered.parent.mkdir()
    altered.write_bytes(original[:1000] + bytes([original[1000] ^ 1]) + original[1001:])  # one bit
    monkeypatch.setattr("trainer.vision.tasks_models.MODELS_DIR", altered.parent)
    choice = resolve_model(model)
    assert choice.path is None and "sha256" in choice.reason
    altered.unlink()
    assert "missing" in resolve_model(model).reason


def test_a_tracker_without_its_model_says_how_to_restore_it(tmp_path, monkeypatch, data_home):
    pytest.importorskip("mediapipe")
    from trainer.vision.landmarks import Tracker, TrackerOptions

    monkeypatch.delenv("ALUETTE_HAND_MODEL", raising=False)
    monkeypatch.setattr("trainer.vision.tasks_models.MODELS_DIR", tmp_path)
    with pytest.raises(VisionError, match=r"hand_landmarker\.task.*git checkout"):
        Tracker(TrackerOptions(face=False, hands=True))


def test_grey_and_bgra_images_become_three_channel_rgb():
    bgr = np.zeros((6, 8, 3), np.uint8)
    bgr[..., 0] = 255  # blue
    assert to_srgb(bgr)[0, 0].tolist() == [0, 0, 255]
    bgra = np.dstack([bgr, np.full((6, 8), 7, np.uint8)])
    assert to_srgb(bgra).shape == (6, 8, 3) and to_srgb(bgra)[0, 0].tolist() == [0, 0, 255]
    grey = np.full((6, 8), 90, np.uint8)
    for image in (grey, grey[..., None]):
        out = to_srgb(image)
        assert out.shape == (6, 8, 3) and (out == 90).all()
    with pytest.raises(VisionError, match="uint8"):
        to_srgb(np.zeros((6, 8, 3), np.float32), index=4)
    with pytest.raises(VisionError, match="frame 5 has shape"):
        to_srgb(np.zeros((6, 8, 2), np.uint8), index=5)
    with pytest.raises(VisionError, match="too small"):
        to_srgb(np.zeros((1, 8, 3), np.uint8))


@pytest.mark.vision
def test_a_grey_photo_is_read_like_its_colour_version(gestures_dir):
    """mediapipe 1.2 refuses 1-channel images: a grey photo (CK+, LFW) must still find its face."""
    import cv2

    from trainer.vision.landmarks import Tracker, TrackerOptions
    from trainer.vision.sources import read_image

    colour = read_image(gestures_dir / "wink" / "lp_d3_f0006_wink_left.jpg")
    grey = cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY)
    with Tracker(TrackerOptions(hands=False, static_image_mode=True)) as tracker:
        a = tracker.process(Frame(cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR), 0.0))
        b = tracker.process(Frame(grey, 0.0))
    assert a.face is not None and b.face is not None
    assert np.abs(a.face - b.face).max() < 1e-3


def test_video_stamps_increase_and_a_restarted_stream_follows_the_last():
    clock = VideoClock()
    assert [clock.stamp(t) for t in (0.0, 0.033, 0.066)] == [0, 33, 66]
    with pytest.raises(VisionError, match="increasing"):
        clock.stamp(0.05, index=3)
    clock.restart()
    assert clock.stamp(0.0) == 67 and clock.stamp(0.033) == 100
