"""Mutation testing of the core areas with mutmut, one area at a time, each with its own fast tests.

Usage (slow: minutes to hours per area on 2 cores; run it on purpose, never in CI)::

    nice -n 19 .venv/bin/python -m trainer.lab.mutation rules signals      # chosen areas
    nice -n 19 .venv/bin/python -m trainer.lab.mutation --all              # every area, in order
    nice -n 19 .venv/bin/python -m trainer.lab.mutation --minutes 40 rules # stop the area after 40 min
    .venv/bin/python -m trainer.lab.mutation --report-only rules signals   # rewrite the report from the last runs

Needs the ``[mutation]`` extra (``pip install -e ".[mutation]"``). Each area runs in its own scratch
copy of the checkout under ``.mutation/<area>/`` (git-ignored), with a ``[tool.mutmut]`` section that
mutates only that area's files and runs only that area's tests, so mutmut's results and caches of
one area never mix with another's. A later run of the same area reuses mutmut's cache: only changed
functions are mutated again.

The surviving mutants of every area that has results are written to ``docs/mutation.md``
(between the generated markers; the hand-written notes on each survivor stay), with the number of
mutants, the score per area and the date of the area's run. The score counts killed mutants
(including timeouts and crashes, which the tests also notice) over all mutants less those listed as
equivalent in the doc.
"""

from __future__ import annotations

import argparse
import ast
import datetime as dt
import difflib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRATCH = REPO / ".mutation"
DOC = REPO / "docs" / "mutation.md"
BEGIN, END = "<!-- mutation:begin -->", "<!-- mutation:end -->"
CHILDREN = 1
"""mutmut workers at once (``--children``): 1 leaves the other core to the rest of the machine."""

_MANY_PROCESS_TESTS = (
    "--deselect",
    "tests/quiz/test_storage_concurrency.py::test_eight_processes_answering_at_once_lose_no_answer",
    "--deselect",
    "tests/quiz/test_storage_concurrency.py::test_four_first_starts_on_a_new_database_all_succeed",
)
"""Left out of the quiz and storage areas: eight writers (or four first starts) under mutmut's
tracing on a loaded machine take half a minute per surviving mutant and can wait past the 30 s lock
timeout, which stops mutmut's clean run; the in-process two-writer tests stay."""


def _quiz_tests(*ignored: str) -> tuple[str, ...]:
    """pytest's arguments for the fast tests of tests/quiz without the files ``ignored``."""
    skip = tuple(arg for name in ignored for arg in ("--ignore", f"tests/quiz/{name}"))
    return ("tests/quiz", "-m", "not slow and not vision and not browser", *skip, *_MANY_PROCESS_TESTS)


@dataclass(frozen=True)
class Area:
    name: str
    mutate: tuple[str, ...]
    """Glob patterns (mutmut ``only_mutate``) of the files whose functions are mutated."""
    first: tuple[str, ...]
    """Modules run first, in this order (the scoring and play core before the CLIs), so a run cut
    short by ``--minutes`` has covered what matters most."""
    tests: tuple[str, ...]
    """pytest arguments selecting the fast tests of the area."""
    isolation: str = "fork"
    """mutmut's ``process_isolation``: "forkserver" where the tests load native libraries (OpenCV,
    MediaPipe) that do not survive a fork of mutmut's own process: its workers then die of SIGSEGV
    whatever the mutant, which must not count as a kill."""


AREAS: dict[str, Area] = {
    a.name: a
    for a in (
        Area(
            "rules",
            ("trainer/rules/*.py",),
            ("ruleset", "game", "fastdeal", "cards", "actions", "views", "saves", "replay", "cli"),
            # The 10,000-game sweep (90 s under load) and the speed bench add nothing a mutant
            # would not already fail on in the targeted tests, and would make each run minutes long.
            (
                "tests/rules",
                "-m",
                "not slow and not vision and not browser",
                "--deselect",
                "tests/rules/test_rules_selfplay.py::test_ten_thousand_seeded_random_games",
                "--ignore",
                "tests/rules/test_rules_bench.py",
            ),
        ),
        Area(
            "signals",
            ("trainer/signals/*.py",),
            ("signs", "relative", "table", "conventions", "gestures"),
            ("tests/signals", "-m", "not slow and not vision and not browser"),
        ),
        Area(
            "bots",
            ("trainer/bots/*.py",),
            # The modules that decide play first: the heuristic's rules, the search, the worlds it
            # samples, what a seat reads from the signs it received, then the signing policy.
            ("heuristic", "tactics", "search", "playout", "worlds", "knowledge", "inference", "signing"),
            # The thousands-of-deals sweeps (45 s together under load), the Ray cluster and the
            # process pools each cost a minute per surviving mutant and test legality and plumbing
            # that the targeted tests and the seeded whole games of test_bots_selfplay.py also run.
            (
                "tests/bots",
                "-m",
                "not slow and not vision and not browser",
                *(
                    arg
                    for name in (
                        "test_bots_selfplay.py::test_random_bots_play_thousands_of_deals",
                        "test_bots_selfplay.py::test_heuristic_against_random_plays_thousands_of_deals",
                        "test_bots_cluster.py::test_the_ray_backend_plays_the_serial_games",
                        "test_bots_oracle_workers.py::test_workers_give_the_serial_results",
                    )
                    for arg in ("--deselect", f"tests/bots/{name}")
                ),
            ),
        ),
        Area(
            "quiz",
            ("trainer/quiz/*.py",),
            ("memory", "questions", "cli"),
            # The CLI tests start a Python process per answer: under a loaded machine at nice 19 they
            # pass their 60 s limit and mutmut's first full run fails. cli.py is then left unkilled.
            # test_storage_faults.py runs the installed `aluette` in child processes, which never
            # import the mutant: it can only slow the run down.
            _quiz_tests("test_quiz_cli.py", "test_storage_faults.py"),
        ),
        Area(
            "storage",
            ("trainer/storage.py",),
            (),
            # The CLI tests start a Python process per command (minutes per surviving mutant under
            # load); test_quiz_cli_inprocess.py and test_storage_errors.py run the same paths in-process.
            _quiz_tests("test_quiz_cli.py", "test_deck_svg.py", "test_storage_faults.py"),
        ),
        Area(
            "recognizer",
            ("trainer/vision/recognizer.py",),
            (),
            # The three talking-clip sweeps take a minute per surviving mutant under load; a mutant
            # only they would kill is counted as a survivor (the score is then a lower bound).
            (
                "tests/vision/test_runtime_recognizer.py",
                "tests/vision/test_recognizer_config.py",
                "-m",
                "not slow and not browser",
                *(
                    arg
                    for name in (
                        "test_suppression_removes_most_mouth_triggers_on_real_talking",
                        "test_talking_detector_on_real_talking_clips",
                        "test_false_triggers_per_minute_over_all_talking_clips",
                    )
                    for arg in ("--deselect", f"tests/vision/test_runtime_recognizer.py::{name}")
                ),
            ),
            isolation="forkserver",
        ),
    )
}

# Where mutmut 3 keeps each file's results: mutants/<path>.meta, JSON with the exit code of the
# test run per mutant (meanings in mutmut.stats.status_by_exit_code). Every other code -- tests
# failed (1, 3), timeout, crash, "suspicious" -- means the tests noticed the mutant.
_SURVIVED_CODES = {0, 5, 33}  # tests passed, or no test covers the mutated function
_UNCHECKED_CODES = {None, 2, 34}  # not run yet, interrupted, skipped
# A worker killed by SIGSEGV or SIGABRT crashed in native code (a fork of a process that had loaded
# OpenCV): not the tests noticing the mutant. Such mutants are run again by --recheck.
_CRASH_CODES = {-11, -6}


def _scratch_config(area: Area) -> str:
    """The pyproject.toml of the scratch copy: the project's own, with this area's mutmut section."""
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    text = re.sub(r"\n\[tool\.mutmut\][\s\S]*?(?=\n\[|\Z)", "\n", text)
    section = (
        "\n[tool.mutmut]\n"
        'source_paths = ["trainer"]\n'
        f"only_mutate = {json.dumps(list(area.mutate))}\n"
        f"pytest_add_cli_args_test_selection = {json.dumps(list(area.tests))}\n"
        'pytest_add_cli_args = ["-q", "-p", "no:cacheprovider"]\n'
        f'process_isolation = "{area.isolation}"\n'
        # Data the tests read beside the code (golden playthroughs, models, the docs' figures).
        'also_copy = ["samples", "models", "docs", "README.md", "scripts"]\n'
    )
    if area.isolation == "forkserver":
        # The fork server imports nothing of the tests: each worker loads OpenCV for itself.
        section += 'forkserver_warmup = "none"\n'
    return text + section


def prepare(area: Area) -> Path:
    """A scratch checkout of trainer/, tests/, scripts/, samples/, models/, docs/ for the area (mutants/ kept)."""
    root = SCRATCH / area.name
    root.mkdir(parents=True, exist_ok=True)
    # docs/ and README.md too: tests read the committed game logs and figures there (mutmut's
    # also_copy copies them from this scratch root into mutants/, so they must be here first).
    for name in ("trainer", "tests", "samples", "models", "scripts", "docs"):
        src, dst = REPO / name, root / name
        if dst.exists():
            shutil.rmtree(dst)
        if src.exists():
            shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copy2(REPO / "README.md", root / "README.md")
    (root / "pyproject.toml").write_text(_scratch_config(area), encoding="utf-8")
    return root


def run(area: Area, minutes: float | None, only: tuple[str, ...] = ()) -> None:
    """mutmut on the area, module by module in ``area.first`` order then the rest, until done or
    ``minutes`` have passed (the run in progress is then stopped; what it checked is kept).
    With ``only``, just those modules of the area (results of earlier runs are kept)."""
    root = prepare(area)
    env = dict(os.environ)
    # The tests find ../shared beside the checkout; the scratch copy is not beside it.
    env.setdefault("ALUETTE_SHARED", str((REPO.parent / "shared").resolve()))
    mutmut = str(Path(sys.executable).with_name("mutmut"))
    package = area.mutate[0].rsplit("/", 1)[0].replace("/", ".") if "*" in area.mutate[0] else None
    batches: list[str | None] = [f"{package}.{m}.*" for m in (only or area.first)] if package else []
    if not only:
        batches.append(None)  # then everything left (mutmut skips mutants it has results for)
    print(f"== mutmut on {area.name}: {', '.join(area.mutate)} with {' '.join(area.tests)}", flush=True)
    started = time.monotonic()
    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    for batch in batches:
        left = None if minutes is None else minutes * 60 - (time.monotonic() - started)
        if left is not None and left <= 0:
            print(f"   time budget of {minutes} min used up", flush=True)
            break
        print(f"-- {batch or 'the rest'}", flush=True)
        # Its own process group, so a stop at the time budget ends mutmut's forked workers too.
        proc = subprocess.Popen(
            [mutmut, "run", "--max-children", str(CHILDREN), *([batch] if batch else [])],
            cwd=root, env=env, start_new_session=True,
        )
        try:
            proc.wait(timeout=left)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait()
            print(f"   time budget of {minutes} min used up", flush=True)
            break
    (root / "ran_at.txt").write_text(stamp, encoding="utf-8")


def sample(area: Area, count: int, seed: int, minutes: float | None, only: tuple[str, ...] = ()) -> None:
    """Run ``count`` of the area's mutants not yet run, drawn with ``random.Random(seed)`` from the
    modules outside ``area.first`` (those are run whole): an unbiased estimate of the rest of a large
    area when it cannot all be run; with ``only``, drawn from those modules instead. Needs an earlier
    run of the area (mutmut lists the mutants then)."""
    import random

    root = SCRATCH / area.name
    package = area.mutate[0].rsplit("/", 1)[0].replace("/", ".")
    first = tuple(f"{package}.{m}." for m in area.first)
    wanted = tuple(f"{package}.{m}." for m in only)
    pool = []
    for meta in sorted((root / "mutants").rglob("*.py.meta")) if (root / "mutants").exists() else []:
        data = json.loads(meta.read_text(encoding="utf-8"))
        pool += [name for name, code in data.get("exit_code_by_key", {}).items()
                 if code is None and (name.startswith(wanted) if wanted else not name.startswith(first))]
    if not pool:
        print(f"== {area.name}: nothing to sample (run the area first)", flush=True)
        return
    chosen = random.Random(seed).sample(sorted(pool), min(count, len(pool)))
    print(f"== sample of {len(chosen)} of the {len(pool)} mutants not run in {area.name} (seed {seed})", flush=True)
    root = prepare(area)
    env = dict(os.environ)
    env.setdefault("ALUETTE_SHARED", str((REPO.parent / "shared").resolve()))
    mutmut = str(Path(sys.executable).with_name("mutmut"))
    proc = subprocess.Popen([mutmut, "run", "--max-children", str(CHILDREN), *chosen], cwd=root, env=env,
                            start_new_session=True)
    try:
        proc.wait(timeout=None if minutes is None else minutes * 60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait()
        print(f"   time budget of {minutes} min used up", flush=True)
    (root / "sampled.txt").write_text(f"seed {seed}\n" + "\n".join(chosen) + "\n", encoding="utf-8")


def recheck(area: Area) -> None:
    """Run the area's survivors again after new tests: fresh copy of code and tests, mutmut's record
    of which test covers which function rebuilt (new tests are not in it), only the survivors run."""
    before = collect(area)
    if before is None or not (before.survivors or before.crashed):
        print(f"== {area.name}: no survivors to recheck", flush=True)
        return
    root = prepare(area)
    for stale in ("mutmut-stats.json",):
        (root / "mutants" / stale).unlink(missing_ok=True)
    env = dict(os.environ)
    env.setdefault("ALUETTE_SHARED", str((REPO.parent / "shared").resolve()))
    mutmut = str(Path(sys.executable).with_name("mutmut"))
    # Those listed as equivalent in the doc would only survive again, each after the whole test run.
    live = [name for name in before.survivors if name not in equivalents()]
    print(f"== recheck {len(live)} survivors and {len(before.crashed)} crashed of {area.name}", flush=True)
    subprocess.run([mutmut, "run", "--max-children", str(CHILDREN), *live, *before.crashed], cwd=root, env=env,
                   check=False)


@dataclass(frozen=True)
class Result:
    area: str
    ran_at: str
    total: int
    killed: int
    survivors: tuple[str, ...]
    not_checked: int
    crashed: tuple[str, ...] = ()


def collect(area: Area) -> Result | None:
    """Read mutmut's .meta files of the area's scratch copy; None if the area never ran."""
    root = SCRATCH / area.name
    metas = sorted((root / "mutants").rglob("*.py.meta")) if (root / "mutants").exists() else []
    if not metas or not (root / "ran_at.txt").exists():
        return None
    total = killed = unchecked = 0
    survivors: list[str] = []
    crashed: list[str] = []
    for meta in metas:
        data = json.loads(meta.read_text(encoding="utf-8"))
        for name, code in sorted(data.get("exit_code_by_key", {}).items()):
            total += 1
            if code in _UNCHECKED_CODES or code in _CRASH_CODES:
                unchecked += 1
                if code in _CRASH_CODES:
                    crashed.append(name)
            elif code in _SURVIVED_CODES:
                survivors.append(name)
            else:
                killed += 1
    return Result(area.name, (root / "ran_at.txt").read_text().strip(), total, killed, tuple(survivors), unchecked,
                  tuple(crashed))


_SOURCES: dict[Path, dict[str, str]] = {}


def diff_of(area: Area, mutant: str) -> str:
    """The changed lines of ``mutant``, read from mutmut's mutated copy of its module (each mutant is
    a function beside the original, ``<name>__mutmut_<n>`` and ``<name>__mutmut_orig``): much faster
    than a ``mutmut show`` per survivor."""
    module, _, function = mutant.rpartition(".")
    path = SCRATCH / area.name / "mutants" / (module.replace(".", "/") + ".py")
    if path not in _SOURCES:
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        tree = ast.parse(text) if text else ast.Module(body=[], type_ignores=[])
        rows = text.splitlines()
        _SOURCES[path] = {
            node.name: "\n".join(rows[node.lineno - 1:node.end_lineno])
            for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        }
    functions = _SOURCES[path]
    original = functions.get(function.rsplit("__mutmut_", 1)[0] + "__mutmut_orig", "")
    changed = functions.get(function, "")
    lines = [
        line for line in difflib.unified_diff(original.splitlines()[1:], changed.splitlines()[1:], lineterm="", n=0)
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]
    return " / ".join(" ".join(line.split()) for line in lines)[:300].replace("|", "\\|")


def equivalents() -> set[str]:
    """Mutant names the doc lists as equivalent (a table row whose verdict column starts with 'equivalent')."""
    if not DOC.exists():
        return set()
    names = set()
    for line in DOC.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\|\s*`([^`]+)`\s*\|.*\|\s*equivalent", line)
        if m:
            names.add(m.group(1))
    return names


def report(results: list[Result]) -> str:
    eq = equivalents()
    lines = [
        BEGIN,
        "",
        "| area | run (UTC) | mutants | killed | survived | equivalent | not run | score (killed / non-equivalent) |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in results:
        n_eq = sum(1 for s in r.survivors if s in eq)
        checked = r.total - r.not_checked
        denominator = checked - n_eq
        score = f"{100 * r.killed / denominator:.1f} %" if denominator else "n/a"
        lines.append(
            f"| {r.area} | {r.ran_at} | {r.total} | {r.killed} | {len(r.survivors)} | {n_eq} | {r.not_checked} "
            f"| {score} |"
        )
    for r in results:
        live = [s for s in r.survivors if s not in eq]
        lines += ["", f"### Survivors in {r.area} not yet listed as equivalent ({len(live)})", ""]
        if live:
            lines += ["| mutant | change |", "| --- | --- |"]
            lines += [f"| `{s}` | `{diff_of(AREAS[r.area], s)}` |" for s in live]
        else:
            lines.append("None.")
    lines += ["", END]
    return "\n".join(lines)


def _kept_rows(block: str, fresh: set[str]) -> tuple[list[str], list[str]]:
    """The table rows and survivor sections of areas in the old generated block that have no
    results here (their scratch copy was made on another machine or cleaned): kept as they were,
    so one area's run never drops another area's figures from the doc."""
    rows = [line for line in block.splitlines()
            if re.match(r"\| (\w+) \| \d{4}-", line) and line.split("|")[1].strip() not in fresh]
    sections = []
    for part in re.split(r"\n(?=### Survivors in )", block):
        m = re.match(r"### Survivors in (\w+) ", part)
        if m and m.group(1) not in fresh:
            sections.append(part.rstrip())
    return rows, sections


def write_doc(results: list[Result]) -> None:
    text = DOC.read_text(encoding="utf-8") if DOC.exists() else f"# Mutation testing\n\n{BEGIN}\n{END}\n"
    if BEGIN not in text:
        text += f"\n{BEGIN}\n{END}\n"
    head, rest = text.split(BEGIN, 1)
    old, tail = rest.split(END, 1) if END in rest else (rest, "")
    rows, sections = _kept_rows(old, {r.area for r in results})
    lines = report(results).splitlines()
    table_end = next(i for i, line in enumerate(lines) if i > 3 and not line.startswith("|"))
    lines[table_end:table_end] = rows
    body = "\n".join(lines[:-2] + [s for section in sections for s in ["", section]] + ["", END])
    DOC.write_text(head + body + tail, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m trainer.lab.mutation", description=__doc__.splitlines()[0])
    parser.add_argument("areas", nargs="*", help=f"areas to run, of {', '.join(AREAS)}")
    parser.add_argument("--all", action="store_true", help="run every area in order")
    parser.add_argument("--report-only", action="store_true", help="only rewrite docs/mutation.md")
    parser.add_argument(
        "--recheck", action="store_true",
        help="run only the area's surviving mutants again, against the current code and tests",
    )
    parser.add_argument("--minutes", type=float, default=None, help="time budget per area (default: none)")
    parser.add_argument(
        "--only", default="", metavar="M,M",
        help="only these modules of the area, e.g. --only fastdeal,cards,replay rules",
    )
    parser.add_argument(
        "--sample", type=int, default=0, metavar="N",
        help="run N seeded random mutants not yet run, outside the area's first modules",
    )
    parser.add_argument("--seed", type=int, default=16, help="seed of --sample (default 16)")
    parser.add_argument("--children", type=int, default=1, help="mutmut workers at once (default 1)")
    args = parser.parse_args(argv)
    global CHILDREN
    CHILDREN = max(1, args.children)
    names = list(AREAS) if args.all else args.areas
    unknown = [n for n in names if n not in AREAS]
    if unknown:
        parser.error(f"unknown area(s) {unknown}: choose from {', '.join(AREAS)}")
    if args.recheck:
        for name in names:
            recheck(AREAS[name])
    elif args.sample:
        for name in names:
            sample(AREAS[name], args.sample, args.seed, args.minutes, tuple(m for m in args.only.split(",") if m))
    elif not args.report_only:
        for name in names:
            run(AREAS[name], args.minutes, tuple(m for m in args.only.split(",") if m))
    results = [r for r in (collect(a) for a in AREAS.values()) if r is not None]
    write_doc(results)
    for r in results:
        print(f"{r.area}: {r.total} mutants, {r.killed} killed, {len(r.survivors)} survived, {r.not_checked} not run")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
