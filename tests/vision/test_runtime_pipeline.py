"""The Pipeline on real photos and clips: tracker -> face + hand + shrug scores -> recognizer; its
thread safety (the Streamlit frame callback runs on another thread) and the Tracker options."""

from __future__ import annotations

import threading
from pathlib import Path

import cv2
import numpy as np
import pytest

from trainer.signals.gestures import Gesture, Side
from trainer.vision.annotate import annotate
from trainer.vision.face_features import APPEARANCE_NAMES, face_features, mouth_appearance
from trainer.vision.landmarks import Tracker, TrackerOptions
from trainer.vision.pipeline import Pipeline, PipelineOptions, analyse_image, analyse_video
from trainer.vision.sources import read_image, write_y4m
from trainer.vision.types import Frame, Landmarks, VisionError


@pytest.fixture(scope="module")
def still_pipeline():
    with Pipeline(PipelineOptions(static_image_mode=True, shrug=True)) as pipe:
        yield pipe


def test_face_and_hand_on_one_photo(gestures_dir: Path, still_pipeline):
    """A thumb held up in front of the face: face found, one hand, thumb of the subject's right hand."""
    still_pipeline.reset()
    result = analyse_image(gestures_dir / "thumb" / "mps_gesture_video_f0120_thumb.jpg", pipeline=still_pipeline)
    assert result.face and result.hands == 1
    assert Gesture.THUMB in result.gestures and result.sides[Gesture.THUMB] is Side.RIGHT
    assert result.result.landmarks.face.shape == (478, 3)
    assert set(result.to_json()["scores"]) == {g.value for g in Gesture}


def test_finger_on_the_lips_is_not_the_index_sign(gestures_dir: Path, still_pipeline):
    """HaGRID 'mute': an index finger laid on the lips (hard negative); the same hand shape away from
    a face (hagrid_one) is the index sign."""
    still_pipeline.reset()
    mute = analyse_image(gestures_dir / "other" / "hagrid_mute.png", pipeline=still_pipeline)
    assert mute.face and mute.hands == 1
    assert Gesture.INDEX not in mute.gestures
    assert mute.result.scores.features["hand_right_on_mouth"] > 0.5 or mute.result.scores.features.get(
        "hand_left_on_mouth", 0) > 0.5
    still_pipeline.reset()
    one = analyse_image(gestures_dir / "index" / "hagrid_one.png", pipeline=still_pipeline)
    assert Gesture.INDEX in one.gestures


def test_shrug_photo_through_the_pipeline(gestures_dir: Path, still_pipeline):
    still_pipeline.reset()
    up = analyse_image(gestures_dir / "shrug" / "fedb_clean_shrug_1_up_upperbody_crop3x.jpg", pipeline=still_pipeline)
    still_pipeline.reset()
    down = analyse_image(gestures_dir / "shrug_baseline" / "fedb_clean_shrug_0_down_upperbody_crop3x.jpg",
                         pipeline=still_pipeline)
    assert Gesture.SHRUG in up.gestures and Gesture.SHRUG not in down.gestures


def test_video_is_refused_by_analyse_image(gestures_dir: Path):
    with pytest.raises(VisionError, match="not a still image"):
        analyse_image(gestures_dir / "talking" / "grid_bbaf2n_talking.mpg")


def test_clip_with_no_face_gives_no_event_and_no_crash(tmp_path: Path):
    """A clip of a plain wall (no face, no hand) runs through the whole pipeline without events."""
    frames = [np.full((120, 160, 3), 90 + i, np.uint8) for i in range(20)]
    path = tmp_path / "wall.y4m"
    write_y4m(frames, path, fps=20.0)
    analysis = analyse_video(path)
    assert analysis.frames == 20 and analysis.frames_with_face == 0 and analysis.events == ()


def test_real_clip_events_use_the_clip_clock(gestures_dir: Path, tmp_path: Path):
    """sequence/lp_d18.mp4 frames 50-160 (round then wide open mouth), as a 640x480 y4m at 30 fps."""
    from trainer.vision.sources import open_source

    frames = []
    with open_source(gestures_dir / "sequence" / "lp_d18.mp4") as source:
        for frame in source:
            if 50 <= frame.index < 160:
                frames.append(cv2.resize(frame.image, (480, 480)))
    path = tmp_path / "mouth.y4m"
    write_y4m(frames, path, fps=30.0)
    analysis = analyse_video(path)
    assert analysis.frames == 110 and analysis.frames_with_face == 110
    opens = [e for e in analysis.events if e.gesture is Gesture.MOUTH_OPEN]
    assert opens, analysis.events
    for event in analysis.events:
        assert 0.0 <= event.start <= event.end <= 110 / 30 + 1e-6


def test_process_is_thread_safe(gestures_dir: Path):
    """Two threads feeding one pipeline (a WebRTC callback and a page) never interleave inside it:
    every call returns a consistent result and the recognizer sees increasing timestamps."""
    image = cv2.resize(read_image(gestures_dir / "neutral" / "yale_s01_normal.jpg"), (320, 240))
    pipe = Pipeline(PipelineOptions(hands=False))
    clock = iter(range(10_000))
    clock_lock = threading.Lock()
    errors: list[BaseException] = []
    results = []

    def worker() -> None:
        try:
            for _ in range(8):
                with clock_lock:  # timestamps handed out in order, as a camera would
                    t = next(clock) / 30.0
                    frame = Frame(image, t, int(t * 30))
                    results.append(pipe.process(frame))
        except BaseException as error:  # noqa: BLE001 - report any failure of the worker
            errors.append(error)

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    pipe.close()
    assert not errors
    assert len(results) == 16 and all(r.scores.face_found for r in results)


def test_tracker_options_and_lifecycle():
    with pytest.raises(VisionError, match="tracks nothing"):
        TrackerOptions(face=False, hands=False, pose=False)
    with pytest.raises(VisionError, match="max_num_hands"):
        TrackerOptions(max_num_hands=5)
    tracker = Tracker(TrackerOptions(face=False, hands=True))
    with pytest.raises(VisionError, match="expected an H x W"):
        tracker.process(Frame(np.zeros((10, 10, 2), np.uint8), 0.0))
    tracker.close()
    with pytest.raises(VisionError, match="closed"):
        tracker.process(Frame(np.zeros((32, 32, 3), np.uint8), 0.0))


def test_mirrored_frames_keep_the_subjects_side(gestures_dir: Path):
    """Flipping an image like a selfie view and saying so gives the same subject side."""
    image = read_image(gestures_dir / "thumb" / "mps_hand_thumb_up.jpg")
    with Tracker(TrackerOptions(face=False, static_image_mode=True)) as plain:
        side = plain.process(Frame(image, 0.0)).hands[0].side
    with Tracker(TrackerOptions(face=False, static_image_mode=True, mirrored=True)) as mirrored:
        flipped = mirrored.process(Frame(cv2.flip(image, 1), 0.0)).hands[0].side
    assert flipped is side


def test_annotate_draws_without_touching_the_input(gestures_dir: Path, still_pipeline):
    still_pipeline.reset()
    analysis = analyse_image(gestures_dir / "index_middle" / "hagrid_peace.png", pipeline=still_pipeline)
    image = read_image(gestures_dir / "index_middle" / "hagrid_peace.png")
    before = image.copy()
    out = annotate(image, analysis.result.landmarks, analysis.result.live)
    assert np.array_equal(image, before)
    assert out.shape == image.shape and np.abs(out.astype(int) - image).sum() > 0


def test_a_face_model_given_by_path_reads_stills_and_clips(shared: Path, gestures_dir: Path, tmp_path: Path,
                                                           clip_head):
    """The FaceLandmarker with a model given by path (../shared/models has the same file as models/):
    every gesture scored on a still; a clip's own timestamps drive the video graph."""
    model = shared / "models" / "face_landmarker.task"
    options = PipelineOptions(static_image_mode=True, face_model=str(model))
    with Pipeline(options) as pipe:
        result = analyse_image(gestures_dir / "wink" / "yale_s01_wink_left.jpg", pipeline=pipe)
    assert result.face and set(result.scores) == set(Gesture)
    assert result.result.scores.blendshapes["eyeBlinkLeft"] > result.result.scores.blendshapes["eyeBlinkRight"]
    assert Gesture.WINK in result.gestures and result.sides[Gesture.WINK] is Side.LEFT
    # Video mode on a short real clip: the source's timestamps drive the Tasks graph.
    clip = clip_head("sequence/lp_d18.mp4", 20, 30.0)
    video = analyse_video(clip, options=PipelineOptions(face_model=str(model)))
    assert video.frames == 20 and video.frames_with_face == 20
    with pytest.raises(VisionError, match="none.task not found"):
        Pipeline(PipelineOptions(face_model=str(tmp_path / "none.task"), hands=False)).process(
            Frame(read_image(gestures_dir / "wink" / "yale_s01_wink_left.jpg"), 0.0))


def _replay_events(stream, **options):
    from trainer.vision.streams import replay_events

    return replay_events(stream, Pipeline(PipelineOptions(**options)))


def test_running_baseline_on_recorded_clips():
    """Without a calibrated profile, a video's neutral face is its own running median: on the
    recorded talking clips it never adds a false trigger, and the two deliberate mouth openings of
    sequence/lp_d18.mp4 (round f64-92, wide f116-152) still give a mouth event each (which mouth
    gesture the face rules call a round 'O' is the face scorer's business)."""
    from trainer.vision.streams import load_stream

    samples = Path(__file__).resolve().parents[2] / "samples"
    talking = [load_stream(p) for p in sorted(samples.glob("streams_*talking*.npz"))]
    with_baseline = sum(len(_replay_events(s)) for s in talking)
    without = sum(len(_replay_events(s, auto_baseline=False)) for s in talking)
    assert with_baseline <= without
    d18 = load_stream(samples / "streams_lp_d18.npz")
    opens = [e for e in _replay_events(d18) if e.gesture in (Gesture.MOUTH_OPEN, Gesture.TONGUE_OUT)]
    assert any(1.9 <= e.start <= 3.2 for e in opens) and any(3.7 <= e.start <= 5.1 for e in opens)


def test_running_baseline_follows_the_stream_and_yields_to_a_profile():
    from trainer.vision.calibration import profile_from_samples

    pipe = Pipeline(PipelineOptions(hands=False))
    face = {"mouth_open": 0.2, "eye_open_left": 0.3, "eye_open_right": 0.3}
    for i in range(150):
        pipe.score_parts(i / 30, dict(face), None, None)
    assert pipe.baseline_profile is not None and pipe.baseline_profile.kind == "auto"
    assert pipe.baseline_profile.mean("mouth_open") == pytest.approx(0.2)
    user = profile_from_samples("me", [face])
    pipe.set_profile(user)
    assert pipe.baseline_profile is user
    pipe.set_profile(None)
    pipe.reset()
    assert pipe.baseline_profile is None
    still = Pipeline(PipelineOptions(hands=False, static_image_mode=True))
    for i in range(150):
        still.score_parts(i / 30, dict(face), None, None)
    assert still.baseline_profile is None


class _RecordedTracker:
    """Stands in for the MediaPipe tracker: hands back recorded meshes of real photos (or no face)."""

    def __init__(self, meshes: list[np.ndarray | None]) -> None:
        self.meshes = meshes

    def process(self, frame: Frame) -> Landmarks:
        height, width = frame.image.shape[:2]
        return Landmarks(frame.timestamp, width, height, face=self.meshes[frame.index])

    def close(self) -> None:
        pass


def test_video_measures_the_mouth_appearance_every_second_frame(gestures_dir: Path):
    """Video mode reuses the mouth's image cues on every other frame of a tracked face (the geometry
    is measured on every frame); a lost face, a reset or a still measures afresh."""
    recorded = np.load(Path(__file__).resolve().parents[2] / "samples" / "face_landmarks.npz")
    meshes = dict(zip(recorded["files"].tolist(), recorded["points"], strict=False))
    # Two frames of one video: the wide-open mouth shows its tongue, the neutral one none.
    tongue, neutral = "mouth_open/lp_d18_f0132_mouth_open.jpg", "neutral/lp_d18_f0000_neutral.jpg"
    images = {f: cv2.imread(str(gestures_dir / f)) for f in (tongue, neutral)}
    assert images[tongue].shape == images[neutral].shape
    order = [tongue, neutral, neutral, tongue, None, neutral, tongue]
    expected_from = [tongue, tongue, neutral, neutral, None, neutral, neutral]
    frames = [Frame(images[f or neutral], i / 30, i) for i, f in enumerate(order)]
    own = {f: mouth_appearance(images[f], meshes[f]) for f in (tongue, neutral)}
    assert own[tongue]["mouth_tongue"] > own[neutral]["mouth_tongue"] + 0.01  # the two differ

    tracker = _RecordedTracker([meshes[f] if f else None for f in order])
    with Pipeline(PipelineOptions(hands=False), tracker=tracker) as pipe:
        for frame, shown, source in zip(frames, order, expected_from, strict=False):
            features = pipe.process(frame).scores.features
            if shown is None:
                assert "mouth_tongue" not in features
                continue
            assert {n: features[n] for n in APPEARANCE_NAMES} == own[source], (frame.index, shown)
            assert features["mouth_open"] == face_features(meshes[shown])["mouth_open"]
        pipe.reset()
        assert pipe.process(frames[1]).scores.features["mouth_tongue"] == own[neutral]["mouth_tongue"]
    for options in (PipelineOptions(hands=False, appearance_every=1),
                    PipelineOptions(hands=False, static_image_mode=True)):
        with Pipeline(options, tracker=_RecordedTracker([meshes[f] if f else None for f in order])) as pipe:
            for frame, shown in zip(frames, order, strict=False):
                if shown is not None:
                    assert pipe.process(frame).scores.features["mouth_tongue"] == own[shown]["mouth_tongue"]
    with pytest.raises(VisionError, match="appearance_every"):
        PipelineOptions(appearance_every=0)
