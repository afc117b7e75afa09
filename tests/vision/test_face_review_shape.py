"""Reviewed labels, face-shape components and the phantom-face check, on the real photos and recorded
landmarks of ../shared/gestures (samples/face_landmarks.npz names its source files)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from trainer.lab.labels import DEFAULT_REVIEW, read_labels, read_review
from trainer.signals.gestures import Gesture
from trainer.vision.face_shape import ShapeBasis, load_shape_basis, shape_features
from trainer.vision.types import VisionError

REPO = Path(__file__).resolve().parents[2]
LANDMARKS = REPO / "samples" / "face_landmarks.npz"


@pytest.fixture(scope="module")
def recorded():
    data = np.load(LANDMARKS)
    return {name: data[name] for name in data.files}


# -- reviewed labels ---------------------------------------------------------------------------------

def test_review_rows_name_real_files_and_say_why(gestures_dir):
    files = {item.file for item in read_labels(gestures_dir, review=None)}
    rows = read_review(DEFAULT_REVIEW)
    assert len(rows) >= 10
    for row in rows:
        assert row.file in files, row.file
        assert len(row.reason) > 10


def test_review_makes_visible_co_gestures_dont_care_only(gestures_dir):
    reviewed = {item.file: item for item in read_labels(gestures_dir)}
    manifest = {item.file: item for item in read_labels(gestures_dir, review=None)}
    tongue = "tongue_out/lp_d6_f0200_tongue.jpg"
    assert manifest[tongue].truth(Gesture.BROWS_UP) is False
    assert reviewed[tongue].truth(Gesture.BROWS_UP) is None
    assert reviewed[tongue].truth(Gesture.TONGUE_OUT) is True
    # The review never adds a positive (it cannot inflate recall), and leaves other files alone.
    named = {row.file for row in read_review(DEFAULT_REVIEW)}
    for name, item in reviewed.items():
        assert item.positives <= manifest[name].positives
        if name not in named:
            assert item == manifest[name]


def test_an_open_mouth_made_dont_care_is_open_wider_than_most_labelled_open_mouths():
    """A review makes mouth_open a don't-care on another sign's photo only where the jaw is dropped and
    the lips wide apart (lp_d6's grimaces f0236 and f0340). The recorded lip gap (geometry
    ``mouth_open``, the product's own reading) says so: at least the median of the labelled open mouths.
    An "O" pout (f0780, gap 0.31) or teeth bared behind parted lips (f0050, 0.29) stay negatives."""
    rows = {r["file"]: r for r in json.loads((REPO / "samples" / "face_signs.json").read_text(encoding="utf-8"))["rows"]
            if "geometry" in r}
    gaps = sorted(r["geometry"]["mouth_open"] for r in rows.values() if r["truth"]["mouth_open"] is True)
    median = gaps[len(gaps) // 2]
    reviewed = [row.file for row in read_review(DEFAULT_REVIEW)
                if row.gesture is Gesture.MOUTH_OPEN and row.verdict == "dont_care"]
    assert len(reviewed) >= 2 and len(gaps) >= 40
    narrow = {f: rows[f]["geometry"]["mouth_open"] for f in reviewed if rows[f]["geometry"]["mouth_open"] < median}
    assert not narrow, (median, narrow)


def test_record_face_signs_relabels_without_mediapipe(gestures_dir):
    """``python -m trainer.lab.record_face_signs --labels-only`` reads the labels again (MANIFEST + review) and
    keeps the readings: on the cached rows it returns today's truths (it once lost its import)."""
    from trainer.lab import record_face_signs as script  # noqa: PLC0415

    rows = script.relabel(gestures_dir)
    cached = json.loads((REPO / "samples" / "face_signs.json").read_text(encoding="utf-8"))["rows"]
    assert [r["file"] for r in rows] == [r["file"] for r in cached]
    assert [r["truth"] for r in rows] == [r["truth"] for r in cached]
    assert [r.get("blendshapes") for r in rows] == [r.get("blendshapes") for r in cached]


def test_bad_review_file_is_named(tmp_path, gestures_dir):
    bad = tmp_path / "review.tsv"
    bad.write_text("file\tgesture\tverdict\treason\nwink/x.jpg\tfrown\tdont_care\tbecause\n")
    with pytest.raises(VisionError, match="row 2: unknown gesture 'frown'"):
        read_labels(gestures_dir, review=bad)
    bad.write_text("file\tgesture\tverdict\treason\nwink/x.jpg\twink\tmaybe\tbecause\n")
    with pytest.raises(VisionError, match="verdict"):
        read_review(bad)
    with pytest.raises(VisionError, match="unreadable"):
        read_review(tmp_path / "missing.tsv")


# -- face-shape components ---------------------------------------------------------------------------

def test_shape_features_ignore_position_size_and_roll(recorded):
    points = recorded["points"][0].astype(np.float64)
    base = shape_features(points)
    angle = np.radians(17.0)
    turn = np.array([[np.cos(angle), -np.sin(angle), 0], [np.sin(angle), np.cos(angle), 0], [0, 0, 1]])
    moved = 2.3 * points @ turn.T + np.array([150.0, -40.0, 12.0])
    again = shape_features(moved)
    assert base.keys() == again.keys() and len(base) >= 16
    assert max(abs(base[k] - again[k]) for k in base) < 1e-6


def test_shape_basis_errors(tmp_path, monkeypatch):
    basis = load_shape_basis()
    data = basis.to_json()
    assert ShapeBasis.from_json(json.loads(json.dumps(data))).feature_names() == basis.feature_names()
    broken = dict(data, regions=[dict(data["regions"][0], mean=[0.0])])
    with pytest.raises(VisionError, match="inconsistent sizes"):
        ShapeBasis.from_json(broken)
    with pytest.raises(VisionError, match="schema"):
        ShapeBasis.from_json({"schema": 99})
    with pytest.raises(VisionError, match="no face shape basis"):
        load_shape_basis(tmp_path / "none.json")
    assert shape_features(np.full((478, 3), np.nan)) == {}


# -- a face found inside a hand ----------------------------------------------------------------------

def test_a_face_found_inside_a_hand_is_no_face(gestures_dir):
    from trainer.vision.pipeline import Pipeline, PipelineOptions
    from trainer.vision.sources import open_source

    def run(name):
        with Pipeline(PipelineOptions(static_image_mode=True)) as pipe, open_source(gestures_dir / name) as src:
            return pipe.process(next(iter(src))).scores

    phantom = run("thumb/hagrid_like.png")  # a thumbs-up photo with no face in it
    assert not phantom.face_found and phantom.hands_found == 1
    assert phantom.scores.get(Gesture.THUMB, 0) >= 0.5
    assert all(phantom.scores.get(g, 0) == 0 for g in (Gesture.WINK, Gesture.POUT))
    real = run("thumb/mps_gesture_video_f0120_thumb.jpg")  # a person showing a thumb beside the face
    assert real.face_found and real.scores.get(Gesture.THUMB, 0) >= 0.5


class _Spy(dict):
    """A feature table that remembers every name read from it."""

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.read: set[str] = set()

    def get(self, key, default=None):
        self.read.add(key)
        return super().get(key, default)


def _names_read_by_the_shipped_signs() -> tuple[set[str], set[str], set[str]]:
    """The blendshape, geometry and appearance names the shipped face signs' cues read."""
    from trainer.vision.face_signs import CUES, FaceReading, load_face_signs

    params = load_face_signs()
    reading = FaceReading(_Spy(), _Spy(), _Spy())
    neutral = params.population
    for sign in params.models:
        for cue in sign.cues:
            CUES[cue](reading, neutral)
    return reading.blendshapes.read, reading.geometry.read, reading.appearance.read


def test_every_feature_the_shipped_signs_read_is_computed_and_recorded(gestures_dir):
    """A cue whose input is missing scores as neutral without a word, so check the plumbing: the
    Pipeline computes every feature the shipped face signs read, and every recorded stream that the
    replay tests use carries them all (rerun python -m trainer.lab.record_streams after changing features)."""
    from trainer.vision.pipeline import Pipeline, PipelineOptions
    from trainer.vision.sources import open_source
    from trainer.vision.streams import load_stream

    shapes, geometry, appearance = _names_read_by_the_shipped_signs()
    assert {"brow_raise", "head_roll"} <= geometry and "mouth_tongue" in appearance and "jawOpen" in shapes
    first = gestures_dir / "neutral" / sorted(p.name for p in (gestures_dir / "neutral").iterdir())[0]
    with Pipeline(PipelineOptions(static_image_mode=True)) as pipe, open_source(first) as src:
        scores = pipe.process(next(iter(src))).scores
    assert (geometry | appearance) <= set(scores.features), sorted((geometry | appearance) - set(scores.features))
    assert shapes <= set(scores.blendshapes), sorted(shapes - set(scores.blendshapes))
    for path in sorted((REPO / "samples").glob("streams_*.npz")):
        stream = load_stream(path)
        recorded = {k for f in stream.frames if f.face for k in f.face}
        if recorded:
            assert geometry | appearance <= recorded, (path.name, sorted((geometry | appearance) - recorded))
            recorded_shapes = {k for f in stream.frames if f.blendshapes for k in f.blendshapes}
            assert shapes <= recorded_shapes, (path.name, sorted(shapes - recorded_shapes))
