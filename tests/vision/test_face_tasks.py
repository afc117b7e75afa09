"""The Tasks FaceLandmarker (the model is bundled in models/, and the shared copy is the same file)."""

from __future__ import annotations

import numpy as np
import pytest

from trainer.signals.gestures import Gesture, Side
from trainer.vision.calibration import data_folder
from trainer.vision.face_features import face_features
from trainer.vision.face_signs import FACE_SIGNS, FaceReading, load_face_signs, score_face_signs
from trainer.vision.tasks_backend import MODEL_NAME, blendshape_features, find_face_model
from trainer.vision.tasks_models import TasksModel
from trainer.vision.types import Frame, VisionError


@pytest.fixture(scope="module")
def model(shared):
    path = shared / "models" / MODEL_NAME
    if not path.is_file():
        path = TasksModel.FACE.bundled  # the same file, committed in models/
    pytest.importorskip("mediapipe")
    return path


def test_model_discovery(data_home, monkeypatch, tmp_path):
    monkeypatch.delenv("ALUETTE_FACE_MODEL", raising=False)
    assert data_folder() == data_home
    assert find_face_model() == TasksModel.FACE.bundled  # the bundled model, when nothing overrides it
    with pytest.raises(VisionError, match="not found"):
        find_face_model(tmp_path / "nope.task")
    data_home.mkdir(parents=True)
    (data_home / MODEL_NAME).write_bytes(b"x")
    assert find_face_model() == data_home / MODEL_NAME


def test_blendshape_summaries():
    assert blendshape_features(None) == {}
    out = blendshape_features({"_neutral": 0.1, "eyeBlinkLeft": 0.9, "eyeBlinkRight": 0.1, "jawOpen": 0.2})
    assert "bs__neutral" not in out and out["bs_jawOpen"] == 0.2
    assert out["bs_blink_diff"] == pytest.approx(0.8) and out["bs_blink_min"] == pytest.approx(0.1)


@pytest.mark.vision
def test_tasks_backend_reads_a_left_wink(model, gestures_dir):
    from trainer.vision.sources import read_image
    from trainer.vision.tasks_backend import TasksFaceTracker

    image = read_image(gestures_dir / "wink" / "lp_d3_f0006_wink_left.jpg")
    with TasksFaceTracker(model) as tracker:
        marks = tracker.process(Frame(image, 0.0))
    assert marks.face is not None and marks.face.shape == (478, 3)
    assert marks.width == image.shape[1] and 0 <= marks.face[:, 0].min() < marks.face[:, 0].max() <= marks.width
    # MediaPipe names blendshapes for the subject's side, like our features.
    assert marks.blendshapes["eyeBlinkLeft"] > marks.blendshapes["eyeBlinkRight"] + 0.2
    reading = FaceReading(marks.blendshapes, face_features(marks.face))
    signs = score_face_signs(reading, None, load_face_signs())
    scores, sides = signs.scores, signs.sides
    assert set(scores) == set(FACE_SIGNS)
    assert scores[Gesture.WINK] >= 0.5 and sides[Gesture.WINK] is Side.LEFT
    assert scores[Gesture.EYES_CLOSED] < 0.5


@pytest.mark.vision
def test_tasks_video_mode_needs_increasing_timestamps(model):
    from trainer.vision.tasks_backend import TasksFaceTracker

    blank = np.zeros((120, 160, 3), np.uint8)
    with TasksFaceTracker(model, video=True) as tracker:
        assert tracker.process(Frame(blank, 0.0)).face is None  # no face: empty Landmarks, no error
        with pytest.raises(VisionError, match="increasing"):
            tracker.process(Frame(blank, 0.0, index=1))
    with pytest.raises(VisionError, match="closed"):
        tracker.process(Frame(blank, 1.0))
    with pytest.raises(VisionError, match="uint8"):
        TasksFaceTracker(model).process(Frame(np.zeros((4, 4)), 0.0))


def test_mirror_blendshapes_swaps_sides_only():
    from trainer.vision.tasks_backend import mirror_blendshapes

    assert mirror_blendshapes(None) is None
    out = mirror_blendshapes({"eyeBlinkLeft": 0.9, "eyeBlinkRight": 0.1, "jawOpen": 0.3, "mouthSmileRight": 0.7})
    assert out == {"eyeBlinkRight": 0.9, "eyeBlinkLeft": 0.1, "jawOpen": 0.3, "mouthSmileLeft": 0.7}


def test_tasks_backend_reads_a_selfie_flipped_wink_as_the_original(model, gestures_dir):
    """With the Tasks backend too, a selfie-flipped frame said ``mirrored`` gives the subject's own
    sides: the same winking eye, the same sign of the blink and eye-openness asymmetries."""
    import cv2

    from trainer.vision.pipeline import Pipeline, PipelineOptions
    from trainer.vision.sources import read_image

    image = read_image(gestures_dir / "wink/lp_d3_f0006_wink_left.jpg")
    options = dict(static_image_mode=True, shrug=False, hands=False, face_model=str(model))
    with Pipeline(PipelineOptions(**options)) as plain, Pipeline(PipelineOptions(mirrored=True, **options)) as flipped:
        a = plain.process(Frame(image, 0.0)).scores
        b = flipped.process(Frame(cv2.flip(image, 1), 0.0)).scores
    assert a.face_found and b.face_found
    assert a.sides[Gesture.WINK] is Side.LEFT and b.sides[Gesture.WINK] is Side.LEFT
    assert b.scores[Gesture.WINK] >= 0.5
    assert np.sign(b.features["eye_open_diff"]) == np.sign(a.features["eye_open_diff"]) == -1  # left eye shut
    assert a.blendshapes["eyeBlinkLeft"] > a.blendshapes["eyeBlinkRight"]
    assert b.blendshapes["eyeBlinkLeft"] > b.blendshapes["eyeBlinkRight"]


@pytest.mark.vision
def test_a_reset_pipeline_takes_a_new_stream_whose_clock_starts_again(gestures_dir):
    """The Tasks graph needs increasing timestamps; after Pipeline.reset() a new clip starts at 0 s
    again (the app restarts the camera, eval-vision reuses a pipeline) and must not be refused."""
    from trainer.vision.pipeline import Pipeline, PipelineOptions
    from trainer.vision.sources import read_image

    image = read_image(gestures_dir / "wink" / "lp_d3_f0006_wink_left.jpg")
    with Pipeline(PipelineOptions(hands=False)) as pipe:
        for i in range(3):
            assert pipe.process(Frame(image, i / 30, i)).scores.face_found
        pipe.reset()
        assert pipe.process(Frame(image, 0.0, 0)).scores.face_found
        with pytest.raises(VisionError, match="increasing"):
            pipe.process(Frame(image, 0.0, 1))  # within one stream time must still go forward
