"""The app's bridge to the vision layer: build a session's recognizer, draw its overlay, read a file.

Only wiring: the pipeline, the overlay and the calibration are the vision layer's. Everything here
imports ``trainer.vision`` lazily, inside functions, so the app starts without loading MediaPipe.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trainer.signals.gestures import Gesture, GestureEvent
from trainer.ui import modes
from trainer.ui.analysis_slots import server_slots
from trainer.ui.settings import Settings
from trainer.ui.watcher import SignWatcher, mirror_image


class RecognitionUnavailable(ValueError):
    """The vision layer is not installed or incomplete; the message says why and what to do."""


def require() -> None:
    piece = modes.recognizer()
    if not piece.available:
        raise RecognitionUnavailable(piece.reason)


def make_pipeline(profile: Any = None, personal: PersonalState | None = None) -> Any:
    """A fresh vision pipeline for a live stream (one per session; MediaPipe graphs are not shared).

    With ``personal`` (the session's taught signs and teaching session) the pipeline runs the Tasks
    face backend, whose blendshapes the personal signs are made of, uses the taught signs, and feeds
    each frame's features to a teaching session in progress."""
    require()
    from trainer.vision.pipeline import Pipeline, PipelineOptions

    sensitivity = personal.sensitivity if personal is not None else None
    if personal is None or not personal.wants_tasks:
        return Pipeline(profile=profile, sensitivity=sensitivity)
    pipeline = Pipeline(PipelineOptions(), profile=profile, personal=personal.model, sensitivity=sensitivity)
    return _TeachingTap(pipeline, personal)


class PersonalState:
    """One session's taught signs (``model``) and teaching session (``teacher``, vision's SignTeacher),
    shared by the page and the camera thread. ``make_watcher`` hangs it on the watcher as
    ``watcher.personal``."""

    def __init__(self, model: Any = None, sensitivity: Any = None) -> None:
        self.model = model
        self.teacher: Any = None
        self.sensitivity = sensitivity
        """The person's own threshold per sign (vision's Sensitivity), or None."""

    @property
    def wants_tasks(self) -> bool:
        return self.model is not None or self.teacher is not None


class _TeachingTap:
    """The pipeline, plus: every analysed frame also goes to the teaching session in progress."""

    def __init__(self, pipeline: Any, personal: PersonalState) -> None:
        self._pipeline = pipeline
        self._personal = personal

    def process(self, frame: Any) -> Any:
        result = self._pipeline.process(frame)
        teacher = self._personal.teacher
        if teacher is not None:
            teacher.add(result.scores.features, frame.timestamp, result.scores.face_found)
        return result

    def set_sensitivity(self, sensitivity: Any) -> None:
        self._pipeline.set_sensitivity(sensitivity)

    def close(self) -> None:
        self._pipeline.close()


def face_model_available() -> bool:
    """Whether the Tasks face model (face_landmarker.task) can be found: teaching needs it."""
    from trainer.vision.tasks_backend import find_face_model

    return find_face_model() is not None


def hands_off_the_face(landmarks):
    """The landmarks without the hands whose centre lies inside the face's box (a hand skeleton drawn
    over a face is most often one the tracker imagined there) and without the hands too small beside
    the face to be the player's, which the scorers drop too (``plausibility.credible_hands``)."""
    from dataclasses import replace

    from trainer.vision.pipeline import mouth_and_width
    from trainer.vision.plausibility import credible_hands

    face = landmarks.face
    if face is None or not landmarks.hands:
        return landmarks
    x0, y0 = face[:, 0].min(), face[:, 1].min()
    x1, y1 = face[:, 0].max(), face[:, 1].max()

    def on_face(hand) -> bool:
        cx, cy = float(hand.points[:, 0].mean()), float(hand.points[:, 1].mean())
        return x0 <= cx <= x1 and y0 <= cy <= y1

    credible = credible_hands(landmarks.hands, mouth_and_width(face)[1])
    return replace(landmarks, hands=tuple(h for h in credible if not on_face(h)))


def draw(image, analysis, mirror: bool):
    """The frame to show with the vision layer's landmarks (not a hand drawn over the face). The
    meters are the page's (one set, the convention's signs only), not drawn on the video. Mirroring
    is for display only (:func:`trainer.vision.mirroring.mirrored_landmarks`)."""
    from trainer.vision.annotate import draw_landmarks
    from trainer.vision.mirroring import mirrored_landmarks

    out = mirror_image(image) if mirror else image.copy()
    landmarks = analysis.landmarks
    if landmarks is not None:
        landmarks = hands_off_the_face(landmarks)
        draw_landmarks(out, mirrored_landmarks(landmarks) if mirror else landmarks)
    return out


def make_watcher(settings: Settings, profile: Any = None, personal: Any = None) -> SignWatcher:
    """The session's camera callback; ``personal`` is the user's taught signs (Practice and Play use
    them: ``watcher.personal.model``)."""
    state = PersonalState(personal if personal is not None else _saved_personal(), _saved_sensitivity())
    watcher = SignWatcher(lambda p: make_pipeline(p, state), draw, mirror=settings.mirror, slots=server_slots())
    watcher.personal = state  # type: ignore[attr-defined]  # the watcher (evening's file) carries it for the pages
    if profile is not None:
        watcher.use_profile(profile)
    return watcher


def _saved_personal() -> Any:
    from trainer.ui import persistence

    try:
        return persistence.load_personal()
    except (ImportError, OSError, ValueError):  # no Store in this build, or it cannot be read: population scores
        return None


def _saved_sensitivity() -> Any:
    from trainer.ui import persistence

    try:
        return persistence.load_sensitivity()
    except (ImportError, OSError, ValueError):  # no Store, or it cannot be read: the recognizer's thresholds
        return None


def use_sensitivity(watcher: Any, sensitivity: Any) -> None:
    """The session's recognizer uses ``sensitivity`` from the next frame on (Practice and Play share
    the watcher); a pipeline not built yet takes it when it is."""
    state = getattr(watcher, "personal", None)
    if state is not None:
        state.sensitivity = sensitivity
    watcher.tune(lambda pipeline: getattr(pipeline, "set_sensitivity", lambda _s: None)(sensitivity))


@dataclass(frozen=True, slots=True)
class FileResult:
    """What the recognizer found in an uploaded photo or clip."""

    frames: int
    events: tuple[GestureEvent, ...]
    face_found: bool
    hands_found: int
    face_features: tuple[dict, ...] = ()
    """The named features of every frame where a face was found (for calibration from a file)."""
    shown_at_start: tuple[Gesture, ...] = ()
    """Face signs already showing on a clip's first frame, not read unless made again."""


def analyse_file(path: Path, profile: Any = None) -> FileResult:
    """Run the recognizer over a photo (gestures over the threshold) or a clip (its events)."""
    require()
    from trainer.vision.pipeline import analyse_image, analyse_video
    from trainer.vision.sources import is_still

    if is_still(path):
        image = analyse_image(path, profile=profile)
        # A photo has no duration: each gesture over the threshold is one event at time 0.
        events = tuple(
            GestureEvent(gesture=g, start=0.0, end=0.0, confidence=float(image.scores[g]), side=image.sides.get(g))
            for g in image.gestures
        )
        found = (dict(image.result.scores.features),) if image.face else ()
        return FileResult(1, events, image.face, image.hands, found)
    features: list[dict[str, float]] = []
    hands = 0

    def keep(frame, result) -> None:
        nonlocal hands
        hands = max(hands, result.scores.hands_found)
        if result.scores.face_found:
            features.append(dict(result.scores.features))

    video = analyse_video(path, profile=profile, on_frame=keep)
    return FileResult(video.frames, video.events, video.frames_with_face > 0, hands, tuple(features),
                      video.shown_at_start)


def profile_from_file(path: Path, created: str) -> Any:
    """A calibration profile from a photo or clip of a neutral face (vision's statistics)."""
    from trainer.vision.calibration import profile_from_samples

    result = analyse_file(path)
    if not result.face_features:
        raise RecognitionUnavailable(f"no face found in {path.name}: upload a photo or clip showing your face")
    return profile_from_samples("default", result.face_features, created=created)


def new_calibrator(seconds: float = 3.0) -> Any:
    from trainer.vision.calibration import Calibrator

    return Calibrator(name="default", duration=seconds)
