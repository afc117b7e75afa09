"""Ruff and mypy pass on the code they cover (configured in ``pyproject.toml``).

Ruff checks ``trainer/``, ``tests/``, ``scripts/`` and ``streamlit_app.py``; mypy checks the whole
``trainer`` package, strictly on ``trainer.rules``, ``trainer.signals`` and ``trainer.bots``. Both run as
subprocesses of this interpreter (so the venv's versions, installed by the ``[test]`` extra), and a
failure lists every finding with its file and line.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
RUFF_TARGETS = ("trainer", "tests", "scripts", "streamlit_app.py")

# Prefixes (or names) a branch may exclude while its owner cleans them up; empty on main: nothing is excluded.
PENDING: dict[str, tuple[str, ...]] = {}

# "path:line:col: CODE message" (ruff --output-format concise) and "path:line: error: message" (mypy).
FINDING = re.compile(r"^(?P<path>[^\s:]+\.py):\d+(:\d+)?: ")


def _pending(path: str) -> bool:
    return any(path.startswith(prefix) for prefixes in PENDING.values() for prefix in prefixes)


def _run(tool: str, *args: str) -> tuple[int, list[str]]:
    """Run ``python -m tool args`` at the repository root; its exit code and output lines."""
    try:
        import importlib

        importlib.import_module(tool)
    except ImportError:
        pytest.fail(f"{tool} is not installed in {sys.executable}: install the test extra "
                    "(pip install -e '.[test]')")
    done = subprocess.run([sys.executable, "-m", tool, *args], cwd=REPO, capture_output=True, text=True,
                          timeout=600)
    return done.returncode, (done.stdout + done.stderr).splitlines()


def _findings(lines: list[str]) -> list[str]:
    """The finding lines, less those in files still pending."""
    out = []
    for line in lines:
        match = FINDING.match(line)
        if match and not _pending(match["path"]) and ": note:" not in line:
            out.append(line)
    return out


def _report(tool: str, findings: list[str]) -> str:
    shown = "\n".join(findings[:200])
    more = f"\n... and {len(findings) - 200} more" if len(findings) > 200 else ""
    return f"{tool}: {len(findings)} finding(s) outside the pending files:\n{shown}{more}"


def test_ruff_is_clean() -> None:
    code, lines = _run("ruff", "check", "--output-format", "concise", "--no-cache", *RUFF_TARGETS)
    findings = _findings(lines)
    assert not findings, _report("ruff", findings)
    # A run that could not check (a bad config, a crash) reports no findings but still fails.
    assert code == 0 or any(FINDING.match(line) for line in lines), "\n".join(lines[-20:])


def test_mypy_is_clean() -> None:
    code, lines = _run("mypy", "--no-error-summary")
    findings = _findings(lines)
    assert not findings, _report("mypy", findings)
    assert code == 0 or any(FINDING.match(line) for line in lines), "\n".join(lines[-20:])


def test_pending_files_are_filtered_by_prefix(monkeypatch: pytest.MonkeyPatch) -> None:
    """The filter keeps findings in covered files and drops only those under a pending prefix."""
    monkeypatch.setattr(sys.modules[__name__], "PENDING", {"someone": ("trainer/vision/",)})
    lines = ["trainer/vision/x.py:3:1: F401 unused", "trainer/cli.py:4: error: bad  [misc]",
             "trainer/cli.py:4: note: see", "Found 2 errors."]
    assert _findings(lines) == ["trainer/cli.py:4: error: bad  [misc]"]
