"""Issue 15's scaffolding out of the runtime, and issue 12's last suggested action that did not exist:

- the app probes only its optional extras (MediaPipe, OpenCV, streamlit-webrtc, PyAV), never its own
  modules, on every rerun;
- mirroring is defined once (vision's ``mirror_x``): a landmark lands on the flipped frame's pixel;
- every action the Play page suggests with the camera off exists there (no upload on Play)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from trainer.ui import modes

APP = str(Path(__file__).resolve().parents[2] / "streamlit_app.py")
EXTRAS = {"mediapipe", "cv2", "streamlit_webrtc", "av"}


def test_the_app_probes_only_its_optional_extras(data_home, monkeypatch):
    probed: list[str] = []
    real = modes.has_module

    def recording(module: str) -> bool:
        probed.append(module)
        return real(module)

    monkeypatch.setattr(modes, "has_module", recording)
    at = AppTest.from_file(APP, default_timeout=120)
    for page in ("play", "practice", "quiz", "rules"):
        at.switch_page(f"trainer/ui/pages/{page}.py").run()
        assert not at.exception, (page, at.exception)
    assert probed, "the pages no longer say whether the recognizer is there"
    assert set(probed) <= EXTRAS, sorted(set(probed) - EXTRAS)


def test_mirroring_puts_each_landmark_on_the_flipped_frames_pixel():
    """MediaPipe's coordinates are continuous (pixel i covers i..i+1): flipping maps x to width - x,
    so the pixel a point falls in maps to width - 1 - that pixel, as numpy's ``image[:, ::-1]`` does."""
    from trainer.signals.gestures import Side
    from trainer.vision.mirroring import mirror_x, mirrored_landmarks, unmirrored_face
    from trainer.vision.types import HandLandmarks, Landmarks

    width = 640
    rng = np.random.default_rng(5)
    points = np.column_stack([rng.uniform(0, width, 200), rng.uniform(0, 480, 200), np.zeros(200)]).astype(np.float32)
    flipped = mirror_x(points, width)
    assert np.array_equal(np.floor(flipped[:, 0]).astype(int), width - 1 - np.floor(points[:, 0]).astype(int))
    assert np.allclose(mirror_x(flipped, width), points, atol=1e-3) and np.array_equal(flipped[:, 1:], points[:, 1:])
    assert np.array_equal(unmirrored_face(points, width), flipped)
    hand = HandLandmarks(points[:21], Side.LEFT)
    marks = Landmarks(timestamp=0.0, width=width, height=480, face=points, hands=(hand,), pose=None)
    shown = mirrored_landmarks(marks)
    assert np.array_equal(shown.face, flipped) and np.array_equal(shown.hands[0].points, flipped[:21])
    assert shown.hands[0].side is Side.LEFT and shown.pose is None  # sides stay the subject's own


@pytest.mark.parametrize("upload", [True, False])
def test_a_page_without_upload_is_never_told_to_upload(upload, monkeypatch):
    monkeypatch.setattr(modes, "recognizer", lambda: modes.Piece("recognizer", True))
    off = modes.input_mode(False, upload=upload)
    assert ("upload" in off.why.lower()) is upload
    assert off.mode is (modes.InputMode.UPLOAD if upload else modes.InputMode.BUTTONS)
    monkeypatch.setattr(modes, "live_camera_support", lambda: modes.Piece("live camera", False, "no webrtc"))
    missing = modes.input_mode(True, upload=upload)
    assert ("upload" in missing.why.lower()) is upload and "no webrtc" in missing.why


def test_play_with_the_camera_off_suggests_only_what_play_has(data_home):
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page("trainer/ui/pages/play.py").run()
    at.session_state["play_seed"] = 3
    at.button(key="play_new").click().run()
    assert not at.exception, at.exception
    (off,) = [c.value for c in at.caption if c.value.startswith("Camera signs: off")]
    assert "upload" not in off.lower()
    # What it suggests is there: the sidebar's camera switch and the sign buttons.
    assert "“Camera on”" in off and at.toggle(key="opt_camera").label == "Camera on"
    assert "buttons" in off and [b for b in at.button if str(b.key).startswith("sign_")]
