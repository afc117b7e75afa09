"""``aluette bench engine`` runs and ends with the ``<number> deals/s`` line (no timing asserted)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_bench_engine_last_line_is_deals_per_second():
    proc = subprocess.run(
        [sys.executable, "-m", "trainer.cli", "bench", "engine", "--deals", "600"],
        capture_output=True, text=True, cwd=REPO, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert re.fullmatch(r"\d+ deals/s", lines[-1]), lines[-1]
    assert "tie-break" in proc.stdout and "bare loop" in proc.stdout


def test_bench_game_prints_milliseconds_per_game_and_refuses_bad_counts():
    proc = subprocess.run(
        [sys.executable, "-m", "trainer.cli", "bench", "game", "--games", "5", "--rounds", "2"],
        capture_output=True, text=True, cwd=REPO, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert re.fullmatch(r"\d+\.\d{3} ms per game", lines[-1]), lines[-1]
    assert "actions per game" in proc.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "trainer.cli", "bench", "game", "--games", "0"],
        capture_output=True, text=True, cwd=REPO, timeout=120,
    )
    assert bad.returncode == 2 and "--games and --rounds must be at least 1" in bad.stderr
