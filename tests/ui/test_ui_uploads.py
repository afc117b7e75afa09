"""Without a camera: an uploaded photo or clip goes through the same recognizer (real files)."""

from __future__ import annotations

from pathlib import Path

import pytest

from trainer.signals.gestures import Gesture
from trainer.ui import recognition
from trainer.ui.fakecam import MOUTH_OPEN_PHOTO, NEUTRAL_PHOTO, make_sign_clip

pytestmark = pytest.mark.vision


def test_a_photo_of_an_open_mouth_gives_that_gesture(gestures_dir: Path):
    result = recognition.analyse_file(gestures_dir / MOUTH_OPEN_PHOTO)
    assert result.frames == 1 and result.face_found
    assert Gesture.MOUTH_OPEN in {e.gesture for e in result.events}


def test_a_neutral_photo_gives_no_sign(gestures_dir: Path):
    result = recognition.analyse_file(gestures_dir / NEUTRAL_PHOTO)
    assert result.face_found and not result.events


def test_a_clip_gives_timed_events_on_its_own_clock(gestures_dir: Path, tmp_path: Path):
    clip = make_sign_clip(gestures_dir, tmp_path / "clip.y4m", neutral_s=1.0, sign_s=1.0)
    result = recognition.analyse_file(clip)
    assert result.frames == 60
    mouth = [e for e in result.events if e.gesture is Gesture.MOUTH_OPEN]
    assert mouth and 1.0 <= mouth[0].start <= 1.25 and mouth[0].duration > 0.5


def test_calibration_from_a_neutral_photo(gestures_dir: Path):
    profile = recognition.profile_from_file(gestures_dir / NEUTRAL_PHOTO, created="2026-01-01")
    assert profile.frames == 1 and profile.stats and profile.created == "2026-01-01"


def test_a_file_without_a_face_cannot_calibrate(gestures_dir: Path):
    hand_only = next((gestures_dir / "fist").glob("massey_*.jpg"))
    with pytest.raises(ValueError, match="no face found"):
        recognition.profile_from_file(hand_only, created="")


def test_an_unreadable_upload_says_so(tmp_path: Path):
    bad = tmp_path / "not-a-photo.jpg"
    bad.write_text("hello")
    with pytest.raises(ValueError):
        recognition.analyse_file(bad)
