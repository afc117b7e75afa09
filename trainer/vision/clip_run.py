"""One clip through the recognizer, keeping what teaching and evaluation need from it.

``run_clip`` is ``pipeline.analyse_video`` with the frames' features kept on request: ``aluette enroll``
teaches personal signs from them, and the lab's clip evaluation scores the events against time spans.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from trainer.signals.gestures import GestureEvent
from trainer.vision.calibration import Profile
from trainer.vision.personal import PersonalSigns


@dataclass(frozen=True, slots=True)
class FrameFeatures:
    timestamp: float
    features: Mapping[str, float]
    face: bool
    mouth_hidden: bool = False
    """A hand was in front of the mouth (``FrameScores.mouth_hidden``: the mouth signs were muted).
    Runs pickled before 2026-12-02 (clips2) lack it: read it with ``getattr(frame, "mouth_hidden", False)``."""
    eyes_hidden: bool = False
    """A hand was in front of an eye (``FrameScores.eyes_hidden``). Runs pickled before 2026-12-04 lack
    it: ``getattr(frame, "eyes_hidden", False)``."""


@dataclass(frozen=True, slots=True)
class ClipRun:
    """What the pipeline made of one clip: its events and, when kept, every frame's features."""

    path: str
    frames: int
    duration: float
    events: tuple[GestureEvent, ...]
    features: tuple[FrameFeatures, ...] = ()


def run_clip(
    path: Path | str,
    options=None,
    profile: Profile | None = None,
    personal: PersonalSigns | None = None,
    keep_features: bool = False,
    max_frames: int | None = None,
) -> ClipRun:
    """``analyse_video`` on one clip, keeping the frames' features when asked (to teach from them)."""
    from trainer.vision.pipeline import analyse_video  # noqa: PLC0415 - MediaPipe is heavy

    kept: list[FrameFeatures] = []
    last = [0.0]

    def on_frame(frame, result) -> None:
        last[0] = frame.timestamp
        if keep_features:
            kept.append(FrameFeatures(frame.timestamp, dict(result.scores.features), result.scores.face_found,
                                      result.scores.mouth_hidden, result.scores.eyes_hidden))

    analysis = analyse_video(path, profile=profile, options=options, on_frame=on_frame,
                             max_frames=max_frames, personal=personal)
    step = 1.0 / analysis.fps if analysis.fps else 0.0
    return ClipRun(str(path), analysis.frames, last[0] + step, analysis.events, tuple(kept))
