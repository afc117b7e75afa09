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
