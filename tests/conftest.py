"""Shared test fixtures: where the real gesture photos and clips live (never copied into the repo)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def shared_dir() -> Path:
    """``../shared`` beside the checkout (as in CI), or ``$ALUETTE_SHARED``."""
    return Path(os.environ.get("ALUETTE_SHARED", REPO.parent / "shared")).resolve()


@pytest.fixture(scope="session")
def shared() -> Path:
    path = shared_dir()
    if not (path / "gestures" / "MANIFEST.tsv").is_file():
        pytest.fail(
            f"real gesture data not found at {path}/gestures: check out the project beside shared/ "
            "or set ALUETTE_SHARED"
        )
    return path


@pytest.fixture(scope="session")
def gestures_dir(shared: Path) -> Path:
    return shared / "gestures"


@pytest.fixture()
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh user data folder, so tests never touch the real one."""
    home = tmp_path / "aluette-home"
    monkeypatch.setenv("ALUETTE_HOME", str(home))
    return home
