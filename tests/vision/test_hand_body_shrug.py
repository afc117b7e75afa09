"""The shrug (trainer.vision.body) on the real shrug / shrug_baseline photos (MediaPipe Pose), on the
hand and face close-ups where Pose guesses shoulders, and on constructed pose streams."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from trainer.signals.gestures import Side
from trainer.vision.body import (
    LEFT_EAR,
    LEFT_ELBOW,
    LEFT_EYE,
    LEFT_SHOULDER,
    LEFT_WRIST,
    MOUTH_LEFT,
    MOUTH_RIGHT,
    RIGHT_EAR,
    RIGHT_ELBOW,
    RIGHT_EYE,
    RIGHT_SHOULDER,
    RIGHT_WRIST,
    BodyScorer,
    UpperBody,
    check_upper_body,
    score_shrug,
    shoulder_features,
)

# Every non-shrug photo on which the single-photo shrug fired before the upper-body check (eval-vision
# --no-clips --mistakes, 19 false shrugs): hand close-ups whose shoulders Pose guessed, webcam-style
# face close-ups with the shoulders at the frame's edge, and arms raised in a heart or an X.
FORMER_FALSE_SHRUGS = (
    "eyes_closed/fye_temple_f0036_eyes_closed.jpg", "index_middle/massey_v_hand2.jpg",
    "index_middle/massey_v_hand3.jpg", "index_middle/massey_v_hand4.jpg", "index_middle/sld_2_img_1171.jpg",
    "index_middle/subhi_2hand_2_pic00317.jpg", "open_palm/hagrid_palm.png", "open_palm/hagrid_stop.png",
    "other/hagrid_heart.png", "other/hagrid_xsign.png", "other/mp_hagrid_call_044768ad.jpg",
    "other/sld_0_img_1128.jpg", "pinky/kaggleasl_I1027.jpg", "pinky/kaggleasl_I1055.jpg",
    "pinky/kaggleasl_I1084.jpg", "pinky/kaggleasl_I109.jpg", "pinky/kaggleasl_I1106.jpg",
    "talking/grid_lbbc2a_f0040_talking.jpg",
)
"""18 of the 19; the 19th, head_tilt/lp_s29_f0153_tilt.jpg, shows a real upper body with a short neck
and still fires (the one false shrug left)."""


@pytest.fixture(scope="module")
def pose_tracker():
    from trainer.vision.landmarks import Tracker, TrackerOptions

    with Tracker(TrackerOptions(face=False, hands=False, pose=True, static_image_mode=True)) as tracker:
        yield tracker


def _features(tracker, path: Path) -> dict[str, float]:
    from trainer.vision.sources import read_image
    from trainer.vision.types import Frame

    return shoulder_features(tracker.process(Frame(read_image(path), 0.0)).pose)


@pytest.fixture(scope="module")
def shrug_pairs(gestures_dir: Path, pose_tracker) -> list[tuple[str, dict, dict]]:
    pairs = []
    for up in sorted((gestures_dir / "shrug").glob("*_1_up*.jpg")):
        down = gestures_dir / "shrug_baseline" / up.name.replace("_1_up", "_0_down")
        pairs.append((up.name, _features(pose_tracker, up), _features(pose_tracker, down)))
    return pairs


def test_every_pair_has_shoulders(shrug_pairs):
    assert len(shrug_pairs) == 12
    for name, up, down in shrug_pairs:
        assert up and down, name


def test_shrug_relative_to_the_persons_baseline(shrug_pairs):
    """With the relaxed photo as baseline (what calibration or the running median gives), every
    shrug is recognised and no relaxed photo is."""
    for name, up, down in shrug_pairs:
        baseline = (down["shoulder_drop_left"], down["shoulder_drop_right"])
        assert score_shrug(up, baseline)[0] >= 0.5, name
        assert score_shrug(down, baseline)[0] < 0.5, name


def test_shrug_population_fallback_is_conservative(shrug_pairs):
    """From a single photo with no baseline: never fires on the relaxed photos, catches the strong
    shrugs (measured: 6 of 12; the mild ones need a baseline: barbell 0.57-0.64 and behind-the-back
    0.54-0.68 shrugged read like other people's relaxed 0.51-0.57)."""
    ups = [score_shrug(up)[0] >= 0.5 for _, up, _ in shrug_pairs]
    downs = [score_shrug(down)[0] >= 0.5 for _, _, down in shrug_pairs]
    assert not any(downs)
    assert sum(ups) >= 6


def test_every_gym_photo_passes_the_upper_body_check(shrug_pairs):
    """The check refuses guessed bodies, not real ones: all 24 gym photos (shrugged and relaxed) pass."""
    for name, up, down in shrug_pairs:
        assert check_upper_body(up) is UpperBody.OK, name
        assert check_upper_body(down) is UpperBody.OK, name


def test_close_ups_and_raised_arms_are_not_single_photo_shrugs(gestures_dir: Path, pose_tracker):
    """Pose returns confident shoulders on these photos, but they are guesses (or lifted by the arms):
    no shrug from a single photo, and each is refused for a stated reason."""
    reasons = {}
    for file in FORMER_FALSE_SHRUGS:
        features = _features(pose_tracker, gestures_dir / file)
        assert score_shrug(features)[0] < 0.5, file
        reasons[file] = check_upper_body(features)
    assert UpperBody.OK not in reasons.values(), reasons
    assert reasons["other/hagrid_heart.png"] is UpperBody.ARMS_RAISED
    assert reasons["pinky/kaggleasl_I1027.jpg"] is UpperBody.NOT_A_BODY
    assert reasons["talking/grid_lbbc2a_f0040_talking.jpg"] is UpperBody.NO_ELBOW


def _pose(left_drop: float, right_drop: float, width: float = 200.0) -> np.ndarray:
    """A frontal upper body: shoulders at y=400, head above, elbows and wrists hanging down."""
    pose = np.zeros((33, 4))
    pose[:, 3] = 1.0
    pose[LEFT_SHOULDER, :2] = (400.0, 400.0)
    pose[RIGHT_SHOULDER, :2] = (400.0 - width, 400.0)
    pose[LEFT_EAR, :2] = (350.0, 400.0 - left_drop * width)
    pose[RIGHT_EAR, :2] = (250.0, 400.0 - right_drop * width)
    # Eyes just above the ears, the mouth 0.18 shoulder widths below the eyes (as measured on people).
    eye_y = 400.0 - 0.5 * (left_drop + right_drop) * width - 0.03 * width
    mouth_y = eye_y + 0.18 * width
    pose[LEFT_EYE, :2], pose[RIGHT_EYE, :2] = (330.0, eye_y), (270.0, eye_y)
    pose[MOUTH_LEFT, :2], pose[MOUTH_RIGHT, :2] = (315.0, mouth_y), (285.0, mouth_y)
    pose[LEFT_ELBOW, :2], pose[RIGHT_ELBOW, :2] = (420.0, 550.0), (180.0, 550.0)
    pose[LEFT_WRIST, :2], pose[RIGHT_WRIST, :2] = (420.0, 700.0), (180.0, 700.0)
    return pose


def test_upper_body_check_on_constructed_poses():
    assert check_upper_body(shoulder_features(_pose(0.4, 0.4))) is UpperBody.OK
    assert score_shrug(shoulder_features(_pose(0.4, 0.4)))[0] == 1.0
    hidden_elbows = _pose(0.4, 0.4)
    hidden_elbows[[LEFT_ELBOW, RIGHT_ELBOW], 3] = 0.1
    assert check_upper_body(shoulder_features(hidden_elbows)) is UpperBody.NO_ELBOW
    raised = _pose(0.4, 0.4)
    raised[LEFT_WRIST, :2] = (380.0, 500.0)  # forearm up, wrist half a shoulder width above the elbow
    assert check_upper_body(shoulder_features(raised)) is UpperBody.ARMS_RAISED
    chin = _pose(0.4, 0.4)
    chin[[MOUTH_LEFT, MOUTH_RIGHT], 1] = 395.0  # mouth at shoulder height
    assert check_upper_body(shoulder_features(chin)) is UpperBody.NOT_A_BODY
    no_face = _pose(0.4, 0.4)
    no_face[[LEFT_EYE, RIGHT_EYE], 3] = 0.2
    assert check_upper_body(shoulder_features(no_face)) is UpperBody.HIDDEN
    # Every refusal gives a zero score without a baseline ...
    for pose in (hidden_elbows, raised, chin, no_face):
        assert score_shrug(shoulder_features(pose)) == (0.0, None)
    # ... but the person's own baseline is not blocked by it (a webcam often shows no elbow).
    assert score_shrug(shoulder_features(hidden_elbows), baseline=(0.6, 0.6))[0] == 1.0


def test_one_shoulder_shrug_and_side_on_a_stream():
    """Relaxed for 2 s (the running baseline), then the LEFT shoulder rises."""
    scorer = BodyScorer()
    readings = []
    for i in range(120):
        t = i / 30
        left = 0.70 if t < 2.0 else 0.58
        readings.append((t, scorer.update(t, _pose(left, 0.70))))
    assert all(r.score < 0.5 for t, r in readings if t < 2.0)
    late = [r for t, r in readings if t >= 2.1]
    assert all(r.score >= 0.5 and r.side is Side.LEFT for r in late)
    # A held shrug does not become the baseline.
    assert scorer.baseline() == pytest.approx((0.70, 0.70))


def test_hidden_shoulders_give_no_score():
    pose = _pose(0.4, 0.4)
    pose[LEFT_SHOULDER, 3] = 0.1  # out of frame
    assert shoulder_features(pose) == {}
    assert BodyScorer().update(0.0, pose).score == 0.0
    assert BodyScorer().update(0.0, None).score == 0.0
