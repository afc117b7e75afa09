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
from trainer.ui.settings import Settings
from trainer.ui.watcher import SignWatcher


class RecognitionUnavailable(ValueError):
    """The vision layer is not installed or incomplete; the message says why and what to do."""


def require() -> None:
    piece = modes.recognizer()
    if not piece.available:
        raise RecognitionUnavailable(piece.reason)


def make_pipeline(profile: Any = None, *, still: bool = False) -> Any:
    """A fresh vision pipeline (one per session or per file; MediaPipe graphs are not shared)."""
    require()
    from trainer.vision.pipeline import Pipeline

    return Pipeline(profile=profile) if profile is not None else Pipeline()


def draw(image, analysis, mirror: bool):
    from trainer.vision import annotate

    return annotate.draw(image, analysis, mirror=mirror)


def make_watcher(settings: Settings, profile: Any = None) -> SignWatcher:
    watcher = SignWatcher(make_pipeline, draw, mirror=settings.mirror)
    if profile is not None:
        watcher.use_profile(profile)
    return watcher


@dataclass(frozen=True, slots=True)
class FileResult:
    """What the recognizer found in an uploaded photo or clip."""

    frames: int
    events: tuple[GestureEvent, ...]
    peak_scores: tuple[tuple[Gesture, float], ...]
    face_found: bool
    hands_found: int
    last_timestamp: float
    face_features: tuple[dict, ...] = ()
    """The named features of every frame where a face was found (for calibration from a file)."""


def analyse_file(path: Path, profile: Any = None) -> FileResult:
    """Run the recognizer over a photo or clip (the vision layer's sources read it)."""
    require()
    from trainer.vision.sources import open_source

    pipeline = make_pipeline(profile)
    events: list[GestureEvent] = []
    peaks: dict[Gesture, float] = {}
    frames = 0
    face = False
    hands = 0
    last = 0.0
    features: list[dict] = []
    try:
        with open_source(path) as source:
            for frame in source:
                result = pipeline.process(frame)
                frames += 1
                last = frame.timestamp
                events.extend(result.events)
                face = face or result.scores.face_found
                if result.scores.face_found:
                    features.append(dict(result.scores.features))
                hands = max(hands, result.scores.hands_found)
                for gesture, score in result.scores.scores.items():
                    peaks[gesture] = max(score, peaks.get(gesture, 0.0))
        events.extend(getattr(pipeline, "flush", lambda: ())())
    finally:
        getattr(pipeline, "close", lambda: None)()
    return FileResult(
        frames=frames,
        events=tuple(events),
        peak_scores=tuple(sorted(peaks.items(), key=lambda kv: -kv[1])),
        face_found=face,
        hands_found=hands,
        last_timestamp=last,
        face_features=tuple(features),
    )


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
