"""The face-mesh FALLBACK's gesture scores (trainer.vision.face_gestures; the default Tasks backend is
tested in test_face_signs.py): the rule mechanics, the known confusions on the real stills' cached
features (no MediaPipe; in-sample: the fallback's thresholds were tuned on these photos), and
calibration against a person's own neutral face."""

from __future__ import annotations

import json

import pytest
from face_samples import mesh, rows_with, talking_clips

from trainer.signals.gestures import Gesture, Side
from trainer.vision.calibration import profile_from_samples
from trainer.lab.evaluate import score_stills
from trainer.vision.face_gestures import (
    DEFAULT_THRESHOLDS,
    FACE_GESTURES,
    Condition,
    LinearModel,
    Thresholds,
    load_thresholds,
    mouth_activity,
    score_face,
)
from trainer.lab.labels import read_labels
from trainer.vision.types import VisionError


# -- mechanics -------------------------------------------------------------------------------------

def test_condition_score_is_zero_at_neutral_half_at_threshold_one_at_double():
    up = Condition("brow_raise", "delta", 1, 0.05)
    assert up.score(0.30, 0.30) == 0.0
    assert up.score(0.35, 0.30) == pytest.approx(0.5)
    assert up.score(0.40, 0.30) == pytest.approx(1.0)
    assert up.score(0.50, 0.30) == 1.0
    shut = Condition("eye_open_max", "ratio", -1, 0.4)  # fires at 40 % of the neutral openness
    assert shut.score(0.30, 0.30) == 0.0
    assert shut.score(0.12, 0.30) == pytest.approx(0.5)
    assert shut.score(0.0, 0.30) == pytest.approx(0.5 + 0.5 * 0.4 / 0.6)  # shut: 1.0 ratio below, scale 0.6
    tilt = Condition("head_roll", "abs", 1, 10.0)
    assert tilt.score(-10.0, 0.0) == pytest.approx(0.5) == tilt.score(10.0, 0.0)


def test_bad_conditions_and_threshold_files(tmp_path):
    with pytest.raises(VisionError, match="mode"):
        Condition("x", "times", 1, 1.0)
    with pytest.raises(VisionError, match="direction"):
        Condition("x", "delta", 0, 1.0)
    with pytest.raises(VisionError, match="bad condition"):
        Condition.from_json({"feature": "x"})
    with pytest.raises(VisionError, match="schema"):
        Thresholds.from_json({"schema": 0})
    with pytest.raises(VisionError, match="no rules for backend"):
        Thresholds.from_json({"schema": 1, "backends": {}}, "mesh")
    with pytest.raises(VisionError, match="tune_thresholds"):
        load_thresholds(tmp_path / "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    with pytest.raises(VisionError, match="unreadable"):
        load_thresholds(broken)


def test_linear_model_scores_relative_to_neutral_and_round_trips():
    model = LinearModel(("brow_height", "abs:head_roll"), (0.0, 5.0), (0.1, 5.0), (2.0, 1.0), -1.0)
    neutral = {"brow_height": 0.5, "head_roll": 0.0}.get
    at_neutral = model.score({"brow_height": 0.5, "head_roll": 5.0}, neutral)
    assert at_neutral == pytest.approx(1 / (1 + 2.718281828 ** 1.0))
    raised = model.score({"brow_height": 0.6, "head_roll": -5.0}, neutral)  # |roll| either side
    assert raised == pytest.approx(1 / (1 + 2.718281828 ** -1.0))
    assert model.score({"brow_height": 0.6}, neutral) == 0.0  # a feature missing: no score
    assert model.score({"brow_height": 1e9, "head_roll": 0.0}, neutral) == pytest.approx(1.0)
    assert LinearModel.from_json(json.loads(json.dumps(model.to_json()))) == model
    with pytest.raises(VisionError, match="3 weights"):
        LinearModel(("a", "b"), (0.0, 0.0), (1.0, 1.0), (1.0, 1.0, 1.0), 0.0)
    with pytest.raises(VisionError, match="scale"):
        LinearModel(("a",), (0.0,), (0.0,), (1.0,), 0.0)
    with pytest.raises(VisionError, match="unknown face model"):
        LinearModel.from_json({"kind": "forest"})
    with pytest.raises(VisionError, match="bad linear model"):
        LinearModel.from_json({"kind": "logistic", "inputs": ["a"]})


def test_thresholds_file_is_versioned_and_names_its_data():
    data = json.loads(DEFAULT_THRESHOLDS.read_text(encoding="utf-8"))
    assert data["schema"] == 1 and data["version"] and data["created"]
    assert data["source"]["script"] == "scripts/tune_thresholds.py"
    for variant in ("mesh", "mesh+image"):
        names = set(data["backends"][variant]["gestures"])
        assert names == {g.value for g in FACE_GESTURES}, variant


RULES = load_thresholds(backend="mesh+image")


def test_no_face_or_tiny_face_scores_nothing():
    scores, sides = score_face({}, None, RULES)
    assert set(scores) == set(FACE_GESTURES) and not any(scores.values()) and not sides
    tiny = dict(mesh("wink/lp_d3_f0006_wink_left.jpg"), face_px=5.0)
    assert not any(score_face(tiny, None, RULES)[0].values())


# -- the shipped thresholds on the real stills (cached features) -----------------------------------

def _replay(variant: str):
    labels = {item.file: item for item in read_labels_cached()}
    thresholds = load_thresholds(backend=variant)
    items = []
    for row in rows_with("mesh"):
        features = row["backends"]["mesh"]
        scores, sides = score_face(features, None, thresholds)
        items.append((labels[row["file"]], scores, True, 0, sides))
    return items


_LABELS = []


def read_labels_cached():
    if not _LABELS:
        from conftest import shared_dir

        _LABELS.extend(read_labels(shared_dir() / "gestures"))
    return _LABELS


def test_eyes_closed_and_head_tilt_meet_the_target_with_population_defaults():
    items = _replay("mesh+image")
    stats, _, _ = score_stills([i[:4] for i in items], [Gesture.EYES_CLOSED, Gesture.HEAD_TILT, Gesture.WINK])
    by = {s.gesture: s for s in stats}
    assert by[Gesture.EYES_CLOSED].precision >= 0.9 and by[Gesture.EYES_CLOSED].recall >= 0.9
    assert by[Gesture.HEAD_TILT].recall >= 0.9 and by[Gesture.HEAD_TILT].precision >= 0.85
    assert by[Gesture.WINK].recall >= 0.9 and by[Gesture.WINK].precision >= 0.8


def test_wink_reports_the_closed_eye_and_yields_to_eyes_closed():
    items = _replay("mesh+image")
    sided = 0
    for item, scores, _face, _hands, sides in items:
        if item.side is not None and scores[Gesture.WINK] >= 0.5:
            assert sides[Gesture.WINK] is item.side, item.file
            sided += 1
        if item.label == "eyes_closed" and Gesture.WINK not in item.positives:
            # Both eyes shut is never also a wink (MediaPipe often reads them unevenly).
            assert not (scores[Gesture.WINK] >= 0.5 and scores[Gesture.EYES_CLOSED] >= 0.5), item.file
    assert sided >= 12
    assert any(item.side is Side.RIGHT for item, s, *_ in items if s[Gesture.WINK] >= 0.5)


def test_smiles_do_not_read_as_one_raised_lip_corner():
    items = _replay("mesh+image")
    smiles = [s for item, s, *_ in items if item.label == "smile"]
    assert sum(s[Gesture.LIP_CORNER] >= 0.5 for s in smiles) <= 1


CALIBRATED_RULES = load_thresholds(backend="mesh+image:calibrated")


def test_yale_surprised_is_brows_up_and_mouth_open_at_once_for_a_calibrated_face():
    """With the person's own neutral photo as profile both gestures of a surprised face fire."""
    both = 0
    for subject in range(1, 11):
        neutral = mesh(f"neutral/yale_s{subject:02d}_normal.jpg")
        profile = profile_from_samples(f"yale_s{subject:02d}", [neutral])
        scores, _ = score_face(mesh(f"brows_up/yale_s{subject:02d}_surprised.jpg"), profile, CALIBRATED_RULES)
        calm, _ = score_face(neutral, profile, CALIBRATED_RULES)
        assert calm[Gesture.BROWS_UP] == 0.0 and calm[Gesture.MOUTH_OPEN] < 0.5
        both += scores[Gesture.BROWS_UP] >= 0.5 and scores[Gesture.MOUTH_OPEN] >= 0.5
    assert both >= 5


def test_calibration_helps_brows_up():
    """Population defaults vs the person's own neutral face, on the 10 Yale subjects."""
    own = population = 0
    for subject in range(1, 11):
        neutral = mesh(f"neutral/yale_s{subject:02d}_normal.jpg")
        surprised = mesh(f"brows_up/yale_s{subject:02d}_surprised.jpg")
        profile = profile_from_samples("me", [neutral])
        own += score_face(surprised, profile, CALIBRATED_RULES)[0][Gesture.BROWS_UP] >= 0.5
        population += score_face(surprised, None, RULES)[0][Gesture.BROWS_UP] >= 0.5
    assert own >= population


def test_mouth_activity_follows_the_lips():
    closed = mesh("neutral/lp_d18_f0000_neutral.jpg")
    wide = mesh("mouth_open/lp_d18_f0132_mouth_open.jpg")
    assert mouth_activity(closed, None, RULES) < 0.05 < mouth_activity(wide, None, RULES)
    assert mouth_activity({}, None, RULES) == 0.0


def test_talking_frames_rarely_look_like_eye_or_brow_signs():
    """Sampled frames of people talking (cached), each measured against its own clip's median face as
    the Pipeline measures a video: the population rules seldom fire the non-mouth gestures there
    (mouth gestures during speech are the recognizer's talking suppression's job)."""
    from trainer.vision.calibration import profile_from_samples

    clips = talking_clips("mesh")
    frames = [(clip, f) for clip, fs in clips.items() for f in fs]
    assert len(frames) > 200
    baselines = {clip: profile_from_samples(clip, fs, kind="baseline") for clip, fs in clips.items()}
    thresholds = load_thresholds(backend="mesh+image")
    fired = {g: 0 for g in FACE_GESTURES}
    for clip, features in frames:
        scores, _ = score_face(features, baselines[clip], thresholds)
        for g in FACE_GESTURES:
            fired[g] += scores[g] >= 0.5
    rates = {g: n / len(frames) for g, n in fired.items()}
    for g in (Gesture.WINK, Gesture.BROWS_UP, Gesture.LOOK_UP, Gesture.HEAD_TILT, Gesture.LIP_CORNER):
        assert rates[g] < 0.03, g
