"""The repository's layout rule (docs/architecture.md, "Where code goes") and the README as a front page.

The README's set-up is two commands, the second the one CI runs; every command it names exists; its
Figures rows are short, undated and name no commit; code lives in ``trainer/`` (the lab's tools run as
``python -m trainer.lab.NAME --help``), not in scripts that edit ``sys.path``; run data stays out of
``docs/``; only the command line loads ``trainer.lab``; the docs' relative links resolve.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import re
import runpy
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
LAB = REPO / "trainer" / "lab"
DOCS = sorted((REPO / "docs").rglob("*.md"))


def _section(text: str, title: str) -> str:
    """The body of the ``## title…`` section of a Markdown text, up to the next ``## `` heading."""
    match = re.search(rf"^## {re.escape(title)}.*?$(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, f"no '## {title}' section"
    return match.group(1)


def _code_blocks(text: str) -> list[str]:
    return [block.strip() for block in re.findall(r"^```[a-z]*\n(.*?)^```", text, re.M | re.S)]


def _figure_rows() -> list[str]:
    rows = [line for line in _section(README.read_text(encoding="utf-8"), "Figures").splitlines()
            if line.startswith("|") and not re.match(r"\|\s*(what|-+)\s*\|", line)]
    assert rows, "the README has no Figures rows"
    return rows


COMMAND_WORDS = ("pip", "python", "python3", "bash", "streamlit", "aluette", ".venv/", "pytest", "sudo", "apt")


def test_readme_sets_up_with_exactly_two_commands_the_second_the_one_ci_runs():
    section = _section(README.read_text(encoding="utf-8"), "Set up")
    blocks = _code_blocks(section)
    assert len(blocks) == 2 and all(len(b.splitlines()) == 1 for b in blocks), blocks
    others = [c for c in _named_commands(section)[2:] if c.startswith(COMMAND_WORDS)]
    assert not others, f"more set-up commands than the two: {others}"
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    verbatim = ci.index("# The README's test command, verbatim:")
    assert blocks[1] == ci[verbatim + 1].strip()


def _aluette_commands() -> dict[str, set[str]]:
    from trainer.cli import build_parser

    def choices(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                return dict(action.choices)
        return {}

    return {name: set(choices(sub)) for name, sub in choices(build_parser()).items()}


def _named_commands(text: str) -> list[str]:
    spans = re.findall(r"`([^`\n]+)`", re.sub(r"^```.*?^```", "", text, flags=re.M | re.S))
    return [c.strip() for block in _code_blocks(text) for c in block.splitlines()] + spans


def test_every_command_the_readme_names_exists():
    commands = _aluette_commands()
    checked = 0
    for command in _named_commands(README.read_text(encoding="utf-8")):
        # The layout rule: a tool is `python -m trainer.lab.NAME`; scripts/ holds only the test command.
        assert "scripts/" not in command or command == "bash scripts/test.sh", f"README names `{command}`"
        words = command.replace("\\|", "|").split()
        if not words:
            continue
        if words[0] == "aluette" and len(words) > 1:
            assert words[1] in commands, f"README names `{command}`: no such aluette command"
            if words[1] == "bench" and len(words) > 2:
                assert set(words[2].split("|")) <= commands["bench"], command
        elif words[:2] == ["python", "-m"] and words[2].startswith("trainer."):
            if words[2] != "trainer.lab.NAME":
                assert (REPO / (words[2].replace(".", "/") + ".py")).is_file(), f"README names `{command}`"
        elif words[0] in ("bash", "pytest"):
            for word in words[1:]:
                if "/" in word and not word.startswith("-"):
                    assert (REPO / word.split("::")[0]).exists(), f"README names `{command}`: no {word}"
        else:
            continue
        checked += 1
    assert checked >= 20, f"only {checked} commands found in the README"


DATES = re.compile(r"\b20\d\d-\d\d\b|\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* (\d{1,2}, )?20\d\d\b")
WORK_ROUNDS = re.compile(r"\bissues? \d+|issue\d|\bsession ?\d|\b(first|second|third|fourth|fifth) session\b"
                         r"|\bbranch [a-z]+\d|\bwork (item|round)s?\b|\bon the branch\b", re.I)
"""Work items and work rounds: what a reader of the README or the docs has no use for."""


def test_each_figures_row_is_one_short_current_figure_without_dates_hashes_or_work_rounds():
    for row in _figure_rows():
        assert len(row) <= 300, f"{len(row)} characters: {row[:80]}…"
        assert not DATES.search(row), f"a date: {row[:80]}…"
        assert not re.search(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b", row), f"a hash: {row[:80]}…"
        assert not WORK_ROUNDS.search(row), f"work-round talk: {row[:80]}…"


def test_no_work_item_numbers_in_the_readme_the_docs_or_their_file_names():
    pattern = WORK_ROUNDS
    for path in [README, *DOCS, REPO / "data" / "README.md"]:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert not pattern.search(line), f"{path.relative_to(REPO)}:{number}: {line[:100]}"
    for folder in ("docs", "data"):
        for path in (REPO / folder).rglob("*"):
            assert not re.search(r"issue\d|session\d", path.name, re.I), path.relative_to(REPO)


def test_scripts_holds_only_the_test_command():
    assert sorted(p.name for p in (REPO / "scripts").iterdir()) == ["test.sh"]


def test_no_script_or_module_edits_sys_path():
    edits = re.compile(r"\bsys\.path\s*(\.\s*(insert|append|extend)|\[|=|\+=)")
    for path in [*(REPO / "scripts").rglob("*"), *(REPO / "trainer").rglob("*.py")]:
        if path.is_file():
            assert not edits.search(path.read_text(encoding="utf-8")), path.relative_to(REPO)


def test_run_data_lives_in_data_not_in_docs():
    data = [p.relative_to(REPO) for p in (REPO / "docs").rglob("*") if p.suffix in (".json", ".jsonl")]
    assert not data, f"run data in docs/ (move it to data/, see data/README.md): {data}"


def _lab_references(path: Path) -> list[str]:
    """Imports of trainer.lab in ``path``, and strings naming a lab module (importlib's way in)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            names = [node.value] if re.fullmatch(r"trainer\.lab(\.\w+)*", node.value) else []
        found += [n for n in names if n == "trainer.lab" or n.startswith("trainer.lab.")]
    return found


def test_only_the_command_line_loads_the_lab():
    for path in (REPO / "trainer").rglob("*.py"):
        if LAB in path.parents or path == REPO / "trainer" / "cli.py":
            continue
        assert not _lab_references(path), f"{path.relative_to(REPO)} loads {_lab_references(path)}"
    assert (REPO / "streamlit_app.py").is_file() and not _lab_references(REPO / "streamlit_app.py")
    assert _lab_references(REPO / "trainer" / "cli.py"), "docs/architecture.md says the CLI loads the lab"


LAB_MODULES = sorted(p.stem for p in LAB.glob("*.py") if p.stem != "__init__")


@pytest.mark.parametrize("name", LAB_MODULES)
@pytest.mark.filterwarnings("ignore:'trainer.lab.:RuntimeWarning")
def test_every_lab_module_answers_help(name, monkeypatch):
    """``python -m trainer.lab.NAME --help`` prints a usage and exits 0 (run in-process: runpy)."""
    monkeypatch.setattr(sys, "argv", [f"trainer.lab.{name}", "--help"])
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as exit_:
        runpy.run_module(f"trainer.lab.{name}", run_name="__main__", alter_sys=False)
    assert exit_.value.code in (0, None) and out.getvalue().startswith("usage: "), out.getvalue()[:200]


def test_every_lab_module_is_listed_in_the_architecture_doc():
    table = _section((REPO / "docs" / "architecture.md").read_text(encoding="utf-8"), "Where code goes")
    listed = set(re.findall(r"^\| `(\w+)` \|", table, re.M))
    assert not set(LAB_MODULES) - listed, f"not in docs/architecture.md: {sorted(set(LAB_MODULES) - listed)}"


def _anchors(path: Path) -> set[str]:
    """GitHub's anchors for the headings of a Markdown file."""
    out = set()
    for heading in re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        out.add(slug)
    return out


@pytest.mark.parametrize("page", [README, *DOCS, REPO / "data" / "README.md"], ids=lambda p: str(p.relative_to(REPO)))
def test_relative_links_resolve(page):
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.M | re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        file, _, anchor = target.partition("#")
        path = (page.parent / file).resolve() if file else page
        assert path.exists(), f"{page.relative_to(REPO)} links to {target}: no such file"
        if anchor and path.suffix == ".md":
            assert anchor in _anchors(path), f"{page.relative_to(REPO)} links to {target}: no such heading"
