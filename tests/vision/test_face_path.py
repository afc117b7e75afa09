"""One typed face path: the face is held once in ``FrameScores``, its backend is said where it is read,
and the models the face path reads are loaded once by the pipeline and passed in (nothing is loaded
per frame). Runs on recorded landmarks (samples/), without MediaPipe."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from trainer.vision import face_shape, face_signs
from trainer.vision.face_models import FaceModels
from trainer.vision.face_shape import ShapeBasis, ShapeRegion, load_shape_basis
from trainer.vision.pipeline import Pipeline, PipelineOptions
from trainer.vision.streams import load_stream
from trainer.vision.types import FaceBackend, FrameScores, Landmarks

REPO = Path(__file__).resolve().parents[2]
FRAMES = 50


@pytest.fixture(scope="module")
def meshes() -> np.ndarray:
    """Real 478-point meshes (pixels) of the recorded stills."""
    return np.load(REPO / "samples" / "face_landmarks.npz")["points"][:FRAMES]


def _marks(meshes: np.ndarray) -> list[Landmarks]:
    return [Landmarks(i / 30, 640, 480, face=points, blendshapes={"jawOpen": 0.1, "mouthPucker": 0.2})
            for i, points in enumerate(meshes)]


def test_frame_scores_hold_the_face_once(meshes):
    names = {f.name for f in dataclasses.fields(FrameScores)}
    assert "face" in names and not names & {"blendshapes", "jaw_open", "features", "face_found"}
    with Pipeline(PipelineOptions()) as pipe:
        scores = pipe.score(_marks(meshes)[0])
    assert scores.face is not None and scores.face.backend is FaceBackend.TASKS
    # The stored non-face features hold nothing of the face; the flat table is a view of both.
    face_keys = set(scores.face.flat())
    assert "mouth_open" in face_keys and "bs_jawOpen" in face_keys
    assert not face_keys & set(scores.body_features)
    assert scores.features == {**scores.face.flat(), **scores.body_features}
    assert scores.jaw_open == 0.1 and scores.face_found


def test_a_face_without_blendshapes_is_read_as_geometry_and_scores_no_face_sign():
    stream = load_stream(next(iter(sorted((REPO / "samples").glob("streams_*.npz")))))
    frame = next(f for f in stream.frames if f.face)
    with Pipeline(PipelineOptions()) as pipe:
        scores = pipe.score_parts(frame.timestamp, frame.face, frame.mouth, frame.face_width, blendshapes=None)
    assert scores.face is not None and scores.face.backend is FaceBackend.GEOMETRY
    assert not any(scores.scores[g] for g in face_signs.FACE_SIGNS)


def test_models_are_loaded_by_the_pipeline_not_per_frame(meshes, monkeypatch):
    loads: list[str] = []

    def counted(name, load):
        def wrapper(*args, **kwargs):
            loads.append(name)
            return load(*args, **kwargs)
        return wrapper

    # Any per-process cache of a default model is emptied so that a load on the frame path shows.
    default = getattr(face_shape, "_default_basis", None)
    if default is not None:
        default.cache_clear()
    monkeypatch.setattr(face_shape, "load_shape_basis", counted("shape", face_shape.load_shape_basis))
    monkeypatch.setattr(face_signs, "load_face_signs", counted("signs", face_signs.load_face_signs))
    pipe = Pipeline(PipelineOptions(), models=FaceModels.load())
    built = len(loads)
    stream = load_stream(REPO / "samples" / "streams_lp_d10.npz")
    replayed = [f for f in stream.frames if f.face][:FRAMES]
    with pipe:
        for marks in _marks(meshes):
            pipe.score(marks)
        for f in replayed:
            pipe.score_parts(f.timestamp, f.face, f.mouth, f.face_width, f.hands, None, f.blendshapes, f.eyes)
    assert len(replayed) == FRAMES
    assert loads[built:] == [], f"{len(loads) - built} model loads over {2 * FRAMES} frames"


def test_the_pipeline_reads_the_shape_model_it_was_given(meshes):
    basis = load_shape_basis()
    doubled = ShapeBasis(basis.reference, tuple(ShapeRegion(r.name, r.points, r.mean, 2 * r.components)
                                                for r in basis.regions), basis.version)
    marks = _marks(meshes)[3]
    with Pipeline(PipelineOptions()) as usual, \
            Pipeline(PipelineOptions(), models=FaceModels(usual.signs, doubled)) as other:
        a, b = usual.score(marks).face, other.score(marks).face
    assert a is not None and b is not None
    names = [k for k in a.geometry if k.startswith("shape_")]
    assert names and all(b.geometry[k] == pytest.approx(2 * a.geometry[k]) for k in names)
