"""The default face backend's signs (trainer.vision.face_signs on MediaPipe Tasks blendshapes), checked
against the labels people gave, on people held out of the fit.

The held-out tests refit the parameters inside the test without each person in turn
(``face_fit.lopo_scores``, MANIFEST ``person``) and score that person with the product's own
``score_face_signs``: a test of how the product does on a face it has never seen, not a replay of the
figures the fit wrote. Faces come from samples/face_signs.json (what the bundled model reads on every
still of ../shared/gestures, with its labels); talking from the recorded streams of every talking clip.
"""

from __future__ import annotations

import csv
from functools import lru_cache
from pathlib import Path

import pytest
from face_samples import TALKING_CLIPS

from trainer.lab.face_fit import HAND_LABELS, count, faces_from_samples, lopo_scores
from trainer.signals.gestures import Gesture, Side
from trainer.vision.face_signs import (
    DEFAULT_SIGNS,
    FACE_SIGNS,
    FaceReading,
    FaceSignParams,
    Neutral,
    load_face_signs,
    score_face_signs,
)
from trainer.vision.pipeline import Pipeline, PipelineOptions
from trainer.vision.streams import load_stream
from trainer.vision.types import VisionError

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "samples" / "face_signs.json"



@lru_cache(maxsize=1)
def faces():
    return tuple(faces_from_samples(SAMPLES))


@lru_cache(maxsize=1)
def held_out():
    """Every face scored by parameters fitted without its person (hand-sign photos stay in the
    scoring, out of the fit; the shipped positive shares)."""
    shipped = load_face_signs()
    shares = {g: float(shipped.held_out[g.value]["positive_share"]) for g in FACE_SIGNS}
    return tuple(lopo_scores(faces(), shares, fit_on=lambda f: f.label not in HAND_LABELS))


# Floors a little under what the product reaches held out (docs/vision-face.md has the table), so a
# change that makes new faces worse fails here. Measured on the grown set of December (156 people, the
# LFW grimaces, tilts and one-sided smiles and their neutral faces among them; mediapipe 1.2.3), with
# the shipped parameters' positive shares: eyes_closed 0.88 / 0.88, wink 0.94 / 0.79, mouth_open
# 0.87 / 0.84, head_tilt 0.85 / 0.77, brows_up 0.81 / 0.66, grimace 0.58 / 0.60, tongue_out 0.75 / 0.67
# (before the set grew: 1.00 / 0.94, 1.00 / 0.88, 0.95 / 0.87, ... on 113 people).
FLOORS = {
    Gesture.EYES_CLOSED: (0.85, 0.85),
    Gesture.WINK: (0.9, 0.75),
    Gesture.MOUTH_OPEN: (0.85, 0.8),
    Gesture.HEAD_TILT: (0.8, 0.75),
    Gesture.BROWS_UP: (0.78, 0.63),
    Gesture.GRIMACE: (0.55, 0.55),
    Gesture.TONGUE_OUT: (0.7, 0.6),
}


@pytest.mark.parametrize("gesture", list(FLOORS), ids=lambda g: g.value)
def test_face_signs_on_people_never_fitted(gesture):
    c = count(held_out(), gesture)
    precision, recall = FLOORS[gesture]
    assert c.people >= 4, f"{gesture.value}: positives of {c.people} people only"
    assert c.precision >= precision and c.recall >= recall, (gesture.value, c.to_json())


def test_held_out_figures_cover_many_people():
    people = {f.person for f in faces()}
    assert len(people) >= 80
    assert count(held_out(), Gesture.MOUTH_OPEN).people >= 20  # CK+ surprise faces
    assert count(held_out(), Gesture.BROWS_UP).people >= 20


def test_wink_side_is_the_closed_eye_on_held_out_people():
    """The side of a wink is the subject's own closed eye (folder notes / file names say which)."""
    shipped = load_face_signs()
    checked = right = 0
    for face, scores in held_out():
        name = Path(face.file).stem
        side = Side.LEFT if "wink_left" in name else Side.RIGHT if "wink_right" in name else None
        if side is None or face.truth.get(Gesture.WINK) is not True or scores[Gesture.WINK] < 0.5:
            continue
        checked += 1
        right += score_face_signs(face.reading, None, shipped).sides[Gesture.WINK] is side
    assert checked >= 8 and right == checked


def test_a_closed_mouth_is_not_open_however_the_jaw_reads():
    """mouth_open is the lips apart, not the jawOpen blendshape alone: on a bearded signer's closed lips
    (the subhi hand-sign photos) jawOpen reads +0.34..+0.66 above the population's neutral with the
    lips' gap at its neutral value. With the shipped parameters none is an open mouth; held out (fitted
    without that person, on the grown set of December) at most 2 of them."""
    population = load_face_signs().population
    closed = {f.file for f in faces() if f.truth.get(Gesture.MOUTH_OPEN) is False
              and f.reading.geometry["mouth_open"] - population.geometry["mouth_open"] < 0.05
              and f.reading.blendshapes["jawOpen"] - population.blendshapes["jawOpen"] > 0.3}
    assert len(closed) >= 6
    assert len([f.file for f, s in held_out() if f.file in closed and s[Gesture.MOUTH_OPEN] >= 0.5]) <= 2
    shipped = load_face_signs()
    assert not [f.file for f in faces() if f.file in closed
                and score_face_signs(f.reading, None, shipped).scores[Gesture.MOUTH_OPEN] >= 0.5]


def test_smiles_are_not_one_raised_lip_corner_on_held_out_people():
    smiles = [s for f, s in held_out() if f.label == "smile"]
    assert len(smiles) >= 25
    assert sum(s[Gesture.LIP_CORNER] >= 0.5 for s in smiles) <= 0.1 * len(smiles)


def test_a_person_s_own_neutral_is_the_reference():
    """The Yale subjects' surprised faces against their own neutral photo fire brows_up at least as
    often as against the population's; against a neutral that already has the brows up (the surprised
    face itself), never."""
    params = load_face_signs()
    by_file = {f.file: f.reading for f in faces()}
    own = population = raised = 0
    for subject in range(1, 11):
        surprised = by_file.get(f"brows_up/yale_s{subject:02d}_surprised.jpg")
        calm = by_file.get(f"neutral/yale_s{subject:02d}_normal.jpg")
        if surprised is None or calm is None:
            continue
        as_neutral = lambda r: Neutral(dict(r.blendshapes), dict(r.geometry), dict(r.appearance))  # noqa: E731
        own += score_face_signs(surprised, as_neutral(calm), params).scores[Gesture.BROWS_UP] >= 0.5
        population += score_face_signs(surprised, None, params).scores[Gesture.BROWS_UP] >= 0.5
        raised += score_face_signs(surprised, as_neutral(surprised), params).scores[Gesture.BROWS_UP] >= 0.5
    assert own >= population and own >= 5 and raised == 0


def test_no_face_or_a_tiny_face_scores_nothing():
    params = load_face_signs()
    empty = score_face_signs(None, None, params)
    assert set(empty.scores) == set(FACE_SIGNS) and not any(empty.scores.values())
    wink = next(f for f in faces() if f.file == "wink/yale_s01_wink_left.jpg").reading
    tiny = FaceReading(wink.blendshapes, dict(wink.geometry, face_px=5.0), wink.appearance)
    assert not any(score_face_signs(tiny, None, params).scores.values())


def test_parameters_file_round_trips_and_bad_files_are_named(tmp_path):
    params = load_face_signs()
    assert {m.gesture for m in params.models} == set(FACE_SIGNS)
    again = FaceSignParams.from_json(params.to_json())
    assert again.models == params.models
    with pytest.raises(VisionError, match="trainer.lab.face_fit signs"):
        load_face_signs(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema": 1, "population": {"blendshapes": {}, "geometry": {}}, '
                   '"signs": {"wink": {"cues": ["no_such_cue"], "center": [0], "scale": [1], '
                   '"weights": [1], "bias": 0}}}', encoding="utf-8")
    with pytest.raises(VisionError, match="unknown cues"):
        load_face_signs(bad)
    assert DEFAULT_SIGNS.is_file()


# -- talking: every talking clip is recorded (test_runtime_recognizer replays them all) -------------

def test_every_talking_clip_of_the_manifest_is_recorded(gestures_dir):
    with (gestures_dir / "MANIFEST.tsv").open(newline="", encoding="utf-8") as handle:
        clips = {Path(r["file"]).stem for r in csv.DictReader(handle, delimiter="\t")
                 if r["label"] == "talking" and Path(r["file"]).suffix in (".mp4", ".mpg")}
    assert clips == set(TALKING_CLIPS)


def test_frame_scores_carry_the_blendshapes_by_their_mediapipe_names():
    stream = load_stream(REPO / "samples" / "streams_lp_d20_talking.npz")
    frame = next(f for f in stream.frames if f.blendshapes)
    with Pipeline(PipelineOptions()) as pipe:
        scores = pipe.score_parts(frame.timestamp, frame.face, frame.mouth, frame.face_width, frame.hands,
                                  blendshapes=frame.blendshapes)
    assert "mouthPucker" in scores.blendshapes and "eyeBlinkLeft" in scores.blendshapes
    assert scores.blendshapes == frame.blendshapes == dict(scores.face.blendshapes)


def test_a_calibration_on_frame_features_keeps_the_person_s_blendshapes():
    """The app calibrates on FrameScores.features: the profile then holds the person's neutral
    blendshapes, and the Tasks scores are measured against them (not the population's)."""
    from trainer.vision.calibration import profile_from_samples

    stream = load_stream(REPO / "samples" / "streams_lp_d20_talking.npz")
    with Pipeline(PipelineOptions()) as pipe:
        features = [pipe.score_parts(f.timestamp, f.face, f.mouth, f.face_width, f.hands,
                                     blendshapes=f.blendshapes).features
                    for f in stream.frames[:60] if f.blendshapes]
        profile = profile_from_samples("me", features)
        neutral = pipe.neutral(profile)
    assert neutral.blendshapes["mouthPucker"] == pytest.approx(profile.stats["bs_mouthPucker"].mean)
    assert neutral.blendshapes["browInnerUp"] != pytest.approx(load_face_signs().population.blendshapes["browInnerUp"])


