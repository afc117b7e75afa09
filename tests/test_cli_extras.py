"""A command that needs an extra the install lacks says which extra to install, instead of a traceback.

Simulated by making ``numpy`` unimportable in a child interpreter (``sys.modules['numpy'] = None``),
as on a core-only install (``pip install -e .``).
"""

from __future__ import annotations

import subprocess
import sys

_RUN_WITHOUT_NUMPY = (
    "import sys; sys.modules['numpy'] = None; "
    "from trainer.cli import main; sys.exit(main(sys.argv[1:]))"
)


def _aluette_without_numpy(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", _RUN_WITHOUT_NUMPY, *args], capture_output=True, text=True, timeout=60
    )


def test_vision_command_without_the_vision_extra_names_the_extra(tmp_path):
    result = _aluette_without_numpy("recognize", str(tmp_path / "face.jpg"))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "needs numpy" in result.stderr and '".[vision]"' in result.stderr


def test_engine_commands_work_without_the_vision_extra():
    result = _aluette_without_numpy("--help")
    assert result.returncode == 0, result.stderr
    assert "replay" in result.stdout and "recognize" in result.stdout


def test_the_labs_commands_load_lazily_and_name_the_extra_they_need(tmp_path):
    """The CLI loads trainer.lab's command modules by name at start-up: the engine's benchmark runs on
    a core install, and the vision evaluation says which extra it needs."""
    bench = _aluette_without_numpy("bench", "engine", "--deals", "50")
    assert bench.returncode == 0, bench.stderr
    assert "deals/s" in bench.stdout
    evaluate = _aluette_without_numpy("eval-vision", str(tmp_path))
    assert evaluate.returncode == 2 and "Traceback" not in evaluate.stderr
    assert "needs numpy" in evaluate.stderr and '".[vision]"' in evaluate.stderr
