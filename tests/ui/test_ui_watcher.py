"""The live camera's frame callback, driven directly with real frames from ../shared/gestures
(no browser, no camera): a neutral face then the same face with the mouth open."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from trainer.signals.gestures import Gesture
from trainer.ui import recognition
from trainer.ui.fakecam import MOUTH_OPEN_PHOTO, NEUTRAL_PHOTO, fit
from trainer.ui.watcher import CalibrationProgress, FrameReport, SignSeen, SignWatcher, WatcherFailure

pytestmark = pytest.mark.vision


@pytest.fixture(scope="module")
def faces(gestures_dir: Path) -> tuple[np.ndarray, np.ndarray]:
    import cv2

    return fit(cv2.imread(str(gestures_dir / NEUTRAL_PHOTO))), fit(cv2.imread(str(gestures_dir / MOUTH_OPEN_PHOTO)))


def test_the_watcher_reports_the_open_mouth_as_soon_as_the_recognizer_confirms_it(faces):
    neutral, open_mouth = faces
    watcher = SignWatcher(recognition.make_pipeline, recognition.draw, mirror=False)
    try:
        for i, image in enumerate([neutral] * 30 + [open_mouth] * 20):
            shown = watcher.process_image(image, i / 30)
            assert shown.shape == image.shape
        reports = watcher.drain()
    finally:
        watcher.close()
    frames = [r for r in reports if isinstance(r, FrameReport)]
    assert len(frames) == 50 and all(f.face_found for f in frames)
    assert abs(frames[-1].fps - 30.0) < 1.0  # measured on the frames' own clock
    seen = [r for r in reports if isinstance(r, SignSeen) and r.event.gesture is Gesture.MOUTH_OPEN]
    assert seen, [r.event.gesture for r in reports if isinstance(r, SignSeen)]
    onset = 30 / 30
    # Reported on the frame that confirmed it (the recognizer's hold; vision's target is 250 ms),
    # never before the onset, and passed on at once (not when the gesture ends).
    assert onset <= seen[0].reported_at <= onset + 1.0
    assert seen[0].reported_at == seen[0].event.end < 50 / 30
    assert not seen[0].final
    # Nothing was reported on the neutral frames.
    assert all(r.reported_at >= onset for r in reports if isinstance(r, SignSeen))
    mouth_scores = [dict(f.scores)[Gesture.MOUTH_OPEN] for f in frames]
    threshold = dict(frames[-1].thresholds)[Gesture.MOUTH_OPEN]
    assert max(mouth_scores[:30]) < threshold <= mouth_scores[-1]


def test_mirroring_flips_only_what_is_shown(faces):
    neutral, _ = faces
    plain = SignWatcher(recognition.make_pipeline, None, mirror=False)
    mirrored = SignWatcher(recognition.make_pipeline, None, mirror=True)
    try:
        a = plain.process_image(neutral, 0.0)
        b = mirrored.process_image(neutral, 0.0)
    finally:
        plain.close()
        mirrored.close()
    assert np.array_equal(b, a[:, ::-1])


def test_calibration_from_neutral_frames_gives_a_profile(faces):
    neutral, _ = faces
    watcher = SignWatcher(recognition.make_pipeline, None, mirror=False)
    watcher.start_calibration(recognition.new_calibrator(seconds=0.5), created="2026-01-01T00:00:00+00:00")
    try:
        for i in range(20):
            watcher.process_image(neutral, i / 30)
        done = [r for r in watcher.drain() if isinstance(r, CalibrationProgress) and r.profile is not None]
    finally:
        watcher.close()
    assert len(done) == 1
    profile = done[0].profile
    assert profile.frames >= 15 and profile.stats and profile.created.startswith("2026")


def test_a_recognizer_that_cannot_start_is_reported_not_raised(faces):
    neutral, _ = faces

    def broken(profile):
        raise ImportError("mediapipe is not installed")

    watcher = SignWatcher(broken, None, mirror=False)
    shown = watcher.process_image(neutral, 0.0)
    assert np.array_equal(shown, neutral)
    (failure,) = watcher.drain()
    assert isinstance(failure, WatcherFailure) and "mediapipe is not installed" in failure.message


def test_live_mode_shows_every_frame_at_once_and_analyses_the_newest_on_its_own_thread(faces):
    import time

    neutral, open_mouth = faces
    watcher = SignWatcher(recognition.make_pipeline, recognition.draw, mirror=False)
    try:
        start = time.perf_counter()
        for i, image in enumerate([neutral] * 30 + [open_mouth] * 30):
            watcher.submit(image, i / 30)
            watcher.display(image, watcher._latest)
            time.sleep(1 / 30)
        shown_in = time.perf_counter() - start
        deadline = time.monotonic() + 20
        while watcher.latest_timestamp is None or watcher.latest_timestamp < 59 / 30:
            assert time.monotonic() < deadline, "the analysis thread never caught up with the last frame"
            time.sleep(0.05)
    finally:
        watcher.close()
    assert watcher.shown_frames == 60
    # Showing never waited for the recognizer: 60 frames in about 2 s of pacing.
    assert shown_in < 2 / 1 + 1.0
    reports = watcher.drain()
    analysed = [r for r in reports if isinstance(r, FrameReport)]
    assert 1 <= len(analysed) <= 60 and analysed[-1].timestamp == 59 / 30
