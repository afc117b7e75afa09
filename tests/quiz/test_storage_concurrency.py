"""Several processes on one database: every confirmed answer counts, and first starts do not race.

Real processes (not threads): each one has its own connection, as two browser tabs on two app
servers, or the app and ``aluette quiz``, would.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

from trainer.quiz.memory import DOC_KIND, LOG_KIND
from trainer.storage import SCHEMA_VERSION, Store

ITEMS = ("name:3D", "sign:monsieur", "name:3C", "sign:madame", "name:2C", "pick:3D")

# Each writer answers ANSWERS questions on the same few items (so writers collide on every item),
# from one Progress loaded at its start, as a quiz sitting or an app session does.
_WRITER = r"""
import random, sys
from datetime import datetime, timezone
from trainer.quiz.memory import Progress
from trainer.quiz.questions import make_question
from trainer.storage import Store

path, seed, answers = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
items = sys.argv[4].split(",")
rng = random.Random(seed)
with Store.open(path) as store:
    progress = Progress(store, "default")
    for n in range(answers):
        question = make_question(rng.choice(items), rng)
        progress.review(question, rng.random() < 0.7, seconds=rng.uniform(1, 20), now=datetime.now(timezone.utc))
print("ok", flush=True)
"""


def _run_all(commands: list[list[str]]) -> list[subprocess.CompletedProcess]:
    procs = [subprocess.Popen(c, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for c in commands]
    done = []
    for proc, command in zip(procs, commands, strict=False):
        out, err = proc.communicate(timeout=600)
        done.append(subprocess.CompletedProcess(command, proc.returncode, out, err))
    return done


def test_eight_processes_answering_at_once_lose_no_answer(tmp_path: Path):
    path = tmp_path / "shared.sqlite3"
    writers, answers = 8, 300
    runs = _run_all([[sys.executable, "-c", _WRITER, str(path), str(seed), str(answers), ",".join(ITEMS)]
                     for seed in range(writers)])
    for run in runs:
        assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr[-2000:]
    with Store.open(path) as store:
        log = [entry.record for entry in store.records(LOG_KIND)]
        docs = dict(store.items(DOC_KIND))
    assert len(log) == writers * answers
    reviews = Counter(record["item"] for record in log)
    lapses = Counter(record["item"] for record in log if not record["correct"])
    for item in ITEMS:
        doc = docs[f"default/{item}"]
        assert doc["reviews"] == reviews[item], item
        assert doc["lapses"] == lapses[item], item


_OPENER = r"""
import sys
from trainer.storage import Store
with Store.open(sys.argv[1]) as store:
    store.put("settings", sys.argv[2], {"who": sys.argv[2]})
print("ok", flush=True)
"""


def test_four_first_starts_on_a_new_database_all_succeed(tmp_path: Path):
    for attempt in range(6):
        path = tmp_path / f"new-{attempt}" / "aluette.sqlite3"
        runs = _run_all([[sys.executable, "-c", _OPENER, str(path), f"p{n}"] for n in range(4)])
        for run in runs:
            assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr[-2000:]
        with Store.open(path) as store:
            assert store.schema_version == SCHEMA_VERSION
            assert store.keys("settings") == ["p0", "p1", "p2", "p3"]


def test_two_progress_objects_in_one_process_merge(tmp_path: Path):
    """Two app sessions (threads sharing one Store) each loaded once: both answers count."""
    import random
    from datetime import datetime, timedelta, timezone

    from trainer.quiz.memory import Progress
    from trainer.quiz.questions import make_question

    with Store.open(tmp_path / "tabs.sqlite3") as store:
        first, second = Progress(store), Progress(store)
        now = datetime(2026, 3, 1, tzinfo=timezone.utc)
        rng = random.Random(1)
        for n in range(10):
            tab = (first, second)[n % 2]
            tab.review(make_question("name:2C", rng), False, seconds=3, now=now + timedelta(minutes=n))
        assert store.get(DOC_KIND, "default/name:2C")["reviews"] == 10
        assert store.get(DOC_KIND, "default/name:2C")["lapses"] == 10
        assert Progress(store).status("name:2C", now).reviews == 10


def test_a_first_start_waits_while_another_holds_the_new_file(tmp_path: Path):
    """Switching a new file to write-ahead logging needs it alone: while another first start holds its
    write lock, SQLite answers "database is locked" at once, without its busy wait (a CI run saw one of
    four first starts fail in 0.01 s). The start waits for the lock like any other write."""
    import sqlite3
    import threading
    import time

    path = tmp_path / "aluette.sqlite3"
    other = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # the other start, between its first statement and its commit
    release = threading.Timer(0.5, lambda: other.execute("COMMIT"))
    release.start()
    started = time.monotonic()
    try:
        with Store.open(path) as store:
            waited = time.monotonic() - started
            assert store.schema_version == SCHEMA_VERSION
            store.put("settings", "p0", {"who": "p0"})
    finally:
        release.join()
        other.close()
    assert 0.4 <= waited < 10.0
    with Store.open(path) as store:
        assert store.keys("settings") == ["p0"]
