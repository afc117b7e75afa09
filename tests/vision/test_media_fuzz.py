"""A seeded sample of the media fuzz (python -m trainer.lab.fuzz_media runs 2,000 on purpose): corrupt images and
clips give a VisionError or are read, never a traceback or a crashed decoder, in little memory."""

from __future__ import annotations

from pathlib import Path

from trainer.lab import fuzz_media as fuzz


def test_a_seeded_sample_of_corrupt_media_never_raises_anything_but_vision_error(tmp_path: Path, shared: Path):
    paths = fuzz.make_cases(150, 20261201, shared, tmp_path)
    summary = fuzz.run(paths)
    assert summary["files"] == 150
    assert summary["traceback"] == 0 and summary["crash"] == 0, summary["problems"]
    assert summary["refused"] > 30 and summary["read"] > 10  # the mutations reach both sides
    assert summary["peak_rss_mb"] < 1024
