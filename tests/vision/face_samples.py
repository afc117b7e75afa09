"""Helpers for the face tests: the cached features of the real stills (samples/face_features.json)."""

from __future__ import annotations

import gzip
import json
from functools import lru_cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "samples" / "face_features.json"

def _recorded_talking_clips() -> tuple[str, ...]:
    """The clips of ``talking/`` whose stream is recorded in samples/ (by scripts/record_streams.py,
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
    """The recorded stream (scripts/record_streams.py) of every talking clip."""
    return [REPO / "samples" / f"streams_{clip}.npz" for clip in TALKING_CLIPS]


FRAMES = REPO / "samples" / "face_talking_frames.json.gz"


@lru_cache(maxsize=1)
def sample_rows() -> tuple[dict, ...]:
    """Every cached still: file, label, source and per-backend features (no MediaPipe needed)."""
    rows = json.loads(SAMPLES.read_text(encoding="utf-8"))["rows"]
    with gzip.open(FRAMES, "rt", encoding="utf-8") as handle:
        rows += json.load(handle)["rows"]
    return tuple(rows)


def mesh(file: str) -> dict[str, float]:
    """The mesh features of one still, by its path relative to ../shared/gestures."""
    for row in sample_rows():
        if row["file"] == file:
            return row["backends"]["mesh"]
    raise KeyError(f"{file} is not in {SAMPLES}: rerun scripts/tune_thresholds.py")


def rows_with(backend: str = "mesh") -> list[dict]:
    """The stills with a face for that backend (not the sampled frames of the talking clips)."""
    return [r for r in sample_rows() if backend in r["backends"] and "#" not in r["file"]]


def talking_clips(backend: str = "mesh") -> dict[str, list[dict]]:
    """The sampled frames of each talking clip, by clip (the product measures a video against the
    running median of its own stream, so tests score these frames against their clip's median)."""
    clips: dict[str, list[dict]] = {}
    for r in sample_rows():
        if "#" in r["file"] and backend in r["backends"]:
            clips.setdefault(r["file"].split("#")[0], []).append(r["backends"][backend])
    return clips
