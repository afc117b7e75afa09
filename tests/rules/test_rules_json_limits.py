"""Every JSON reader of the rules layer has a size limit and a clear error for nesting too deep
(``aluette replay`` on ``[[[[...]]]]`` was a RecursionError, on /dev/zero a MemoryError after 1.9 GB)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from trainer.rules import jsonlimits
from trainer.rules.errors import SaveFormatError
from trainer.rules.replay import ReplayError, replay_file
from trainer.rules.saves import load_game, loads_game, parse_playthrough

REPO = Path(__file__).resolve().parents[2]


def test_nesting_ignores_brackets_in_strings():
    assert jsonlimits.nesting('{"a": [1, {"b": "[[[[{{{"}]}') == 3
    assert jsonlimits.nesting('"\\"[[[" ') == 0
    assert jsonlimits.nesting("[]") == 1


@pytest.mark.parametrize("depth", [100, 100_000])
def test_deep_nesting_is_a_clear_error(tmp_path: Path, depth: int):
    path = tmp_path / "deep.json"
    path.write_text("[" * depth + "]" * depth)
    with pytest.raises(ReplayError, match=f"nests {depth} levels deep, over the limit of 64"):
        replay_file(str(path))
    with pytest.raises(SaveFormatError, match="levels deep"):
        load_game(path)
    with pytest.raises(SaveFormatError, match="levels deep"):
        loads_game(path.read_text())
    with pytest.raises(SaveFormatError, match="levels deep"):
        parse_playthrough("aluette playthrough v1\nseed " + "[" * depth + "]" * depth + "\n")


def test_reading_stops_at_the_limit(tmp_path: Path):
    with pytest.raises(ReplayError, match="larger than 1,000,000 bytes"):
        replay_file("/dev/zero")
    big = tmp_path / "big.json"
    big.write_text('{"preset": "' + "x" * 1_000_001 + '"}')
    with pytest.raises(ReplayError, match="larger than"):
        replay_file(str(big))
    with pytest.raises(ReplayError, match="is a folder"):
        replay_file(str(tmp_path))
    (tmp_path / "latin1.json").write_bytes(b'{"preset": "\xe9"}')
    with pytest.raises(ReplayError, match="not UTF-8"):
        replay_file(str(tmp_path / "latin1.json"))


def test_aluette_replay_on_hostile_files_exits_cleanly(tmp_path: Path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 200_000 + "]" * 200_000)
    for target in (str(deep), "/dev/zero"):
        done = subprocess.run([sys.executable, "-m", "trainer.cli", "replay", target], cwd=REPO,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr and target in done.stderr
