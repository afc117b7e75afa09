"""No function in ``trainer/`` is longer than 60 lines (from its ``def`` to the last line of its body).

A longer function is split into named steps (see ``Game._do`` and its ``_do_*`` steps, or
``ismcts_values`` and ``_descend``), so that each step can be read, tested and changed alone.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "trainer"
MAX_LINES = 60

# Prefixes (or names) a branch may exclude while its owner cleans them up; empty on main: nothing is excluded.
PENDING: dict[str, tuple[str, ...]] = {}


def long_functions(root: Path = PACKAGE, limit: int = MAX_LINES) -> list[tuple[str, int]]:
    """``("path::name", lines)`` for every function (methods and nested ones too) over ``limit`` lines."""
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        where = path.relative_to(root.parent).as_posix()
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > limit:
                    found.append((f"{where}::{node.name}", lines))
    return found


def test_no_function_in_trainer_is_over_60_lines() -> None:
    pending = {name for names in PENDING.values() for name in names}
    found = [(name, lines) for name, lines in long_functions() if name not in pending]
    assert not found, f"functions over {MAX_LINES} lines (split them into named steps):\n" + "\n".join(
        f"{lines:4d} {name}" for name, lines in found
    )


def test_a_long_function_is_found_and_a_short_one_is_not(tmp_path: Path) -> None:
    package = tmp_path / "trainer"
    package.mkdir()
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_LINES - 1))
    (package / "m.py").write_text(
        f"def fits():\n{body}\n\nclass C:\n    def too_long(self):\n"
        + "".join(f"        y{i} = {i}\n" for i in range(MAX_LINES)),
    )
    assert long_functions(package) == [("trainer/m.py::too_long", MAX_LINES + 1)]
