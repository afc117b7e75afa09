"""Recorded runs of the shared clips for the personal-sign and clip-evaluation tests: each clip goes
through the real pipeline (Tasks face backend, features kept) once per test session."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from trainer.vision.clip_run import ClipRun, run_clip
from trainer.vision.tasks_backend import MODEL_NAME


def face_model(shared: Path) -> Path:
    path = shared / "models" / MODEL_NAME
    if not path.is_file():
        pytest.skip(f"{path} is missing: personal signs need the Tasks face model")
    pytest.importorskip("mediapipe")
    return path


@functools.cache
def recorded(clip: str, model: str) -> ClipRun:
    from trainer.vision.pipeline import PipelineOptions

    return run_clip(clip, PipelineOptions(face_model=model, hands=False), keep_features=True)


def frames(run: ClipRun, start: float, end: float) -> list[dict]:
    return [dict(f.features) for f in run.features if f.face and start <= f.timestamp <= end]
