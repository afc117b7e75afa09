"""Helpers for the face tests: what the product's Pipeline read on every real still
(samples/face_signs.json, written by python -m trainer.lab.record_face_signs), and the recorded talking streams."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "samples" / "face_signs.json"


def _recorded_talking_clips() -> tuple[str, ...]:
    """The clips of ``talking/`` whose stream is recorded in samples/ (by python -m trainer.lab.record_streams,
    which records every talking clip of the MANIFEST): each file names its source."""
    import numpy as np

    clips = []
    for path in sorted((REPO / "samples").glob("streams_*.npz")):
        with np.load(path) as data:
            if "/talking/" in str(data["source"]):
                clips.append(path.stem.removeprefix("streams_"))
    return tuple(clips)


TALKING_CLIPS = _recorded_talking_clips()
"""Every recorded talking clip of ../shared/gestures."""


def talking_stream_files() -> list[Path]:
    """The recorded stream (python -m trainer.lab.record_streams) of every talking clip."""
    return [REPO / "samples" / f"streams_{clip}.npz" for clip in TALKING_CLIPS]


@lru_cache(maxsize=1)
def sample_rows() -> tuple[dict, ...]:
    """Every recorded still with a face: file, label, person, truth, and ``features`` (the geometry and
    mouth-appearance features of ``trainer.vision.face_features``; no MediaPipe needed)."""
    rows = json.loads(SAMPLES.read_text(encoding="utf-8"))["rows"]
    return tuple(dict(row, features={**row["geometry"], **row["appearance"]}) for row in rows if "geometry" in row)


def mesh(file: str) -> dict[str, float]:
    """The face features of one still, by its path relative to ../shared/gestures."""
    for row in sample_rows():
        if row["file"] == file:
            return row["features"]
    raise KeyError(f"{file} is not in {SAMPLES}: rerun python -m trainer.lab.record_face_signs")


def rows_with() -> list[dict]:
    """The recorded stills with a face."""
    return list(sample_rows())
