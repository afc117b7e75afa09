"""No import cycle between the modules of ``trainer``.

The graph is built from the source (``ast``), one edge per import made at module level — including
those under ``if TYPE_CHECKING:``, which are cycles mypy and the next reader still have to untangle
— and none for the imports inside functions (those run later, when every module is loaded). A cycle
is named module by module, e.g. ``trainer.rules.game -> trainer.rules.events -> trainer.rules.game``;
the fix is usually to move the value types both sides need into a leaf module.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "trainer"

# Prefixes (or names) a branch may exclude while its owner cleans them up; empty on main: nothing is excluded.
PENDING: dict[str, tuple[str, ...]] = {}


def module_name(path: Path, root: Path = PACKAGE) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _module_level_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Imports not inside a function body (module body, ``if``/``try`` blocks, class bodies)."""
    found: list[ast.Import | ast.ImportFrom] = []
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append(child)
            else:
                stack.append(child)
    return found


def _resolve(node: ast.Import | ast.ImportFrom, here: str, is_package: bool, modules: set[str]) -> set[str]:
    """The project modules an import statement loads (by name, only those in ``modules``)."""
    targets: set[str] = set()
    if isinstance(node, ast.Import):
        for alias in node.names:
            name = alias.name
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name:
                targets.add(name)
        return targets
    base = node.module or ""
    if node.level:
        package = here if is_package else here.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = f"{package}.{base}" if base else package
    for alias in node.names:
        candidate = f"{base}.{alias.name}"
        if candidate in modules:
            targets.add(candidate)  # ``from package import submodule``
        elif base in modules:
            targets.add(base)
    return targets


def import_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    """Module -> the project modules it imports at module level."""
    paths = {module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    modules = set(paths)
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        edges: set[str] = set()
        for node in _module_level_imports(tree):
            edges |= _resolve(node, name, path.name == "__init__.py", modules)
        edges.discard(name)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle (as a closed path of modules) for each strongly connected group of modules."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's algorithm; the graph is small, recursion is fine
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return [_closed_path(group, graph) for group in groups]


def _closed_path(group: list[str], graph: dict[str, set[str]]) -> list[str]:
    """A shortest cycle through the group's first module, staying inside the group."""
    start, members = group[0], set(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for v in frontier:
            for w in sorted(graph[v] & members):
                if w == start:
                    return paths[v] + [start]
                if w not in paths:
                    paths[w] = paths[v] + [w]
                    following.append(w)
        frontier = following
    return group  # unreachable for a strongly connected group


def _pending(cycle: list[str]) -> bool:
    return any(all(m.startswith(prefixes) for m in cycle) for prefixes in PENDING.values())


def test_no_import_cycle_in_trainer() -> None:
    found = [c for c in cycles(import_graph()) if not _pending(c)]
    assert not found, "import cycles (fix: move the shared value types to a leaf module):\n" + "\n".join(
        " -> ".join(c) for c in found
    )


def test_a_planted_cycle_is_found_and_named(tmp_path: Path) -> None:
    """The graph sees module-level imports (also under TYPE_CHECKING and relative ones), not those
    inside functions, and names the cycle it finds."""
    pkg = tmp_path / "trainer"
    (pkg / "rules").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "rules" / "__init__.py").write_text("")
    (pkg / "rules" / "game.py").write_text("from trainer.rules.events import Event\n")
    (pkg / "rules" / "events.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .game import Game\n"
    )
    (pkg / "rules" / "views.py").write_text("def f():\n    from trainer.rules import game\n")
    (pkg / "rules" / "leaf.py").write_text("import trainer.rules.views\n")
    graph = import_graph(pkg)
    assert graph["trainer.rules.events"] == {"trainer.rules.game"}
    assert graph["trainer.rules.views"] == set()
    assert graph["trainer.rules.leaf"] == {"trainer.rules.views"}
    assert cycles(graph) == [["trainer.rules.events", "trainer.rules.game", "trainer.rules.events"]]
