"""Shared test fixtures: where the real gesture photos and clips live (never copied into the repo).

A clone without ``../shared`` (anyone's first clone) still passes: the tests that need the real photos
and clips skip, and one line at the end of the run says how many and why. CI sets
``ALUETTE_REQUIRE_DATA=1`` (``.ci/run``): there a missing data folder fails those tests instead."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def shared_dir() -> Path:
    """``../shared`` beside the checkout (as in CI), or ``$ALUETTE_SHARED``."""
    return Path(os.environ.get("ALUETTE_SHARED", REPO.parent / "shared")).resolve()


NO_DATA = "real gesture data not found"
REQUIRE_DATA_ENV = "ALUETTE_REQUIRE_DATA"


@pytest.fixture(scope="session")
def shared() -> Path:
    path = shared_dir()
    if not (path / "gestures" / "MANIFEST.tsv").is_file():
        message = (f"{NO_DATA} at {path}/gestures: check out the project beside shared/ or set "
                   "ALUETTE_SHARED")
        if os.environ.get(REQUIRE_DATA_ENV, "").strip() not in ("", "0"):
            pytest.fail(message + f" ({REQUIRE_DATA_ENV} is set: these tests must run)")
        pytest.skip(message)
    return path


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    """One visible line for the tests skipped for want of the real photos and clips."""
    skipped = [report for report in terminalreporter.stats.get("skipped", [])
               if NO_DATA in str(getattr(report, "longrepr", ""))]
    if skipped:
        terminalreporter.write_line(
            f"{len(skipped)} tests skipped: {NO_DATA} at {shared_dir()}/gestures (they run in CI, where "
            "../shared is beside the checkout)", yellow=True, bold=True)


@pytest.fixture(scope="session")
def gestures_dir(shared: Path) -> Path:
    return shared / "gestures"


@pytest.fixture()
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh user data folder, so tests never touch the real one."""
    home = tmp_path / "aluette-home"
    monkeypatch.setenv("ALUETTE_HOME", str(home))
    return home


@pytest.fixture(scope="session")
def clip_head(gestures_dir: Path, tmp_path_factory: pytest.TempPathFactory):
    """``clip_head(file, frames, fps, size=None, name=None)``: the first ``frames`` frames of a clip of
    ../shared/gestures written as a .y4m (what the browser's fake camera plays), resized to ``size``
    (width, height) when given."""
    def cut(file: str, frames: int, fps: float, size: tuple[int, int] | None = None,
            name: str | None = None) -> Path:
        import cv2

        from trainer.vision.sources import open_source, write_y4m

        images = []
        with open_source(gestures_dir / file) as source:
            for frame in source:
                images.append(frame.image if size is None else cv2.resize(frame.image, size))
                if len(images) == frames:
                    break
        path = tmp_path_factory.mktemp("clips") / (name or f"{Path(file).stem}_{frames}.y4m")
        write_y4m(images, path, fps=fps)
        return path

    return cut
