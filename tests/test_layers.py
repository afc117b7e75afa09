"""Layers import one way only (STYLE.md, 'Our habits' 1):

rules (standard library) <- signals <- vision / bots <- deck / quiz / narration <- terminal / ui.

Every ``import`` in every module of ``trainer`` — also those inside functions, which is where the
heavy ones live — is checked against the table below.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "trainer"

# Which project modules each layer may import (prefix match). The standard library is always allowed.
ALLOWED: dict[str, tuple[str, ...]] = {
    "trainer.rules": ("trainer.rules",),
    "trainer.storage": (),
    "trainer.signals.gestures": (),
    "trainer.signals": ("trainer.rules", "trainer.signals"),
    "trainer.vision": ("trainer.vision", "trainer.signals.gestures", "trainer.storage"),
    "trainer.bots": ("trainer.rules", "trainer.signals", "trainer.bots"),
    "trainer.deck": ("trainer.rules", "trainer.signals", "trainer.deck"),
    "trainer.quiz": ("trainer.rules", "trainer.signals", "trainer.deck", "trainer.storage", "trainer.quiz"),
    "trainer.narration": ("trainer.rules", "trainer.signals", "trainer.bots", "trainer.narration"),
    "trainer.terminal": ("trainer.rules", "trainer.signals", "trainer.bots", "trainer.storage", "trainer.narration"),
    "trainer.lab": ("trainer",),
    "trainer.ui": ("trainer",),
    "trainer.cli": ("trainer",),
    "trainer": ("trainer",),
}
# Third-party packages each layer may import; the rules engine takes none. ui, cli and lab are not
# listed: the app and the tools may use what the install brings.
THIRD_PARTY: dict[str, tuple[str, ...]] = {
    "trainer.rules": (),
    "trainer.signals": (),
    "trainer.storage": ("platformdirs",),
    # MediaPipe's Tasks, OpenCV for frames and drawing, numpy for the features; platformdirs for the
    # user's own model copies and face profiles (calibration.data_folder).
    "trainer.vision": ("numpy", "cv2", "mediapipe", "platformdirs"),
    "trainer.bots": ("numpy", "matplotlib", "ray"),
    "trainer.deck": (),
    "trainer.quiz": ("fsrs",),
    "trainer.narration": (),
    "trainer.terminal": (),
}


def _layer(module: str, table: dict[str, tuple[str, ...]]) -> str | None:
    best = None
    for prefix in table:
        if module == prefix or module.startswith(prefix + "."):
            if best is None or len(prefix) > len(best):
                best = prefix
    return best


def _modules() -> list[tuple[str, Path]]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out.append((".".join(parts), path))
    return out


def _imports(path: Path, module: str) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names = []
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                names.append(".".join(base + ([node.module] if node.module else [])))
            elif node.module:
                names.append(node.module)
    return names


MODULES = _modules()


def test_the_package_has_modules():
    assert any(name == "trainer.rules.cards" for name, _ in MODULES)


@pytest.mark.parametrize("module,path", MODULES, ids=[m for m, _ in MODULES])
def test_module_imports_only_lower_layers(module: str, path: Path):
    layer = _layer(module, ALLOWED)
    allowed = ALLOWED[layer]
    third_layer = _layer(module, THIRD_PARTY)
    bad = []
    for name in _imports(path, module):
        top = name.split(".")[0]
        if top == "trainer":
            if not any(name == a or name.startswith(a + ".") for a in allowed):
                bad.append(name)
        elif top in sys.stdlib_module_names or top == "__future__":
            continue
        elif third_layer is not None and top not in THIRD_PARTY[third_layer]:
            bad.append(name)
    assert not bad, f"{module} imports {bad}, above or outside its layer {layer!r}"


@pytest.mark.parametrize("module,path", MODULES, ids=[m for m, _ in MODULES])
def test_runtime_modules_never_import_the_lab(module: str, path: Path):
    """trainer.lab (evaluation, tuning, benchmarks) is run on purpose: the app and every runtime module
    work without it. ``trainer.cli`` reaches its commands by name through importlib only."""
    if module == "trainer.lab" or module.startswith("trainer.lab."):
        return
    bad = [name for name in _imports(path, module) if name == "trainer.lab" or name.startswith("trainer.lab.")]
    assert not bad, f"{module} imports {bad}: the runtime must not depend on the lab (move the shared code out of it)"


def test_modules_have_docstrings():
    missing = [m for m, p in MODULES if ast.get_docstring(ast.parse(p.read_text(encoding="utf-8"))) is None]
    assert not missing, f"modules without a docstring saying what they are for: {missing}"
