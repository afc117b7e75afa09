"""Helpers for the face tests: the cached features of the real stills (samples/face_features.json)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "samples" / "face_features.json"


@lru_cache(maxsize=1)
def sample_rows() -> tuple[dict, ...]:
    """Every cached still: file, label, source and per-backend features (no MediaPipe needed)."""
    return tuple(json.loads(SAMPLES.read_text(encoding="utf-8"))["rows"])


def mesh(file: str) -> dict[str, float]:
    """The mesh features of one still, by its path relative to ../shared/gestures."""
    for row in sample_rows():
        if row["file"] == file:
            return row["backends"]["mesh"]
    raise KeyError(f"{file} is not in {SAMPLES}: rerun scripts/tune_thresholds.py")


def rows_with(backend: str = "mesh") -> list[dict]:
    return [r for r in sample_rows() if backend in r["backends"]]
