"""Every storage fault, tried on real files through the real ``aluette quiz``: one clear message
(the path, the cause, a way out that exists), exit code 2, no traceback, the file left as found.

The trials live in ``trainer/lab/storage_faults.py`` (which also prints the table in
docs/storage-faults.md). Read-only cases run as the user ``nobody`` (tests run as root in CI, and
root may write anything); the full disk and the read-only mount need root for a tmpfs and are
skipped otherwise.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from trainer.lab import storage_faults as faults
from trainer.quiz.memory import DOC_KIND
from trainer.storage import Store

# the words that say the cause, and a way out each message must offer
CAUSES = {
    "read_only_file": ("read-only for this user", "chmod u+w"),
    "read_only_folder": ("read-only folder", "chmod u+w"),
    "read_only_mount": ("mounted read-only", "Remount"),
    "full_disk": ("is full", "Free some space"),
    "locked": ("locked by another program", "close the other program"),
    "damaged": ("is damaged", "Move it away"),
    "damaged_wal": ("is damaged", "Move it away"),
    "newer_schema": ("newer Aluette trainer", "pip install -U"),
    "not_ours": ("not an SQLite file", "--db"),
    "another_program": ("another program", "--db"),
    "damaged_item": ("is damaged", "--reset-item name:3D"),
}


@pytest.fixture()
def folder():
    with faults._workdir() as path:
        yield path


@pytest.mark.parametrize("name", list(CAUSES))
def test_each_fault_is_one_clear_message_and_the_file_is_left_as_found(name: str, folder: Path):
    try:
        trial = getattr(faults, name)(folder)
    except faults.Skipped as why:
        pytest.skip(str(why))
    cause, way_out = CAUSES[name]
    assert trial.exit_code == 2, trial.message
    assert "Traceback" not in trial.message and "sqlite3." not in trial.message
    assert trial.message.startswith("aluette: error: ")
    assert str(trial.path) in trial.message
    assert cause in trial.message and way_out in trial.message
    assert trial.before == trial.after
    assert trial.siblings_before == trial.siblings_after  # no -wal / -shm left behind


def test_a_full_disk_loses_nothing_saved_before(folder: Path):
    """The answer that hit the full disk is not half-written, and every earlier one is intact."""
    try:
        trial = faults.full_disk(folder)
    except faults.Skipped as why:
        pytest.skip(str(why))
    assert "while saving" in trial.message  # it failed at the answer, not at opening


def test_the_reset_item_way_out_exists_and_keeps_the_other_items(folder: Path):
    trial = faults.damaged_item(folder)
    assert "--reset-item name:3D" in trial.message
    with Store.open(trial.path) as store:
        store.put(DOC_KIND, "default/name:3C", {"card": {}, "reviews": 4, "lapses": 0})
    _, done = faults.quiz(trial.path, "--reset-item", "name:3D")
    assert done.returncode == 0, done.stderr
    assert "forgot 1 of 1" in done.stdout
    with Store.open(trial.path) as store:
        assert store.keys(DOC_KIND) == ["default/name:3C"]
    raw = sqlite3.connect(trial.path)
    raw.execute("DELETE FROM documents WHERE key='default/name:3C'")
    raw.commit()
    raw.close()
    _, done = faults.quiz(trial.path)  # the quiz runs again
    assert done.returncode == 0, done.stderr
    assert "Done: " in done.stdout


def test_reset_item_names_an_unknown_item(folder: Path):
    path = folder / "x.sqlite3"
    faults.seed_database(path)
    _, done = faults.quiz(path, "--reset-item", "name:ZZ")
    assert done.returncode == 2
    assert "'name:ZZ' is not a quiz item" in done.stderr and "--stats --all" in done.stderr


def test_a_lock_at_first_answer_in_process_is_a_storage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The same lock, in-process and fast: the Store raises StorageError, not sqlite3's error."""
    import trainer.storage as storage

    monkeypatch.setattr(storage, "BUSY_TIMEOUT_S", 0.2)
    path = tmp_path / "lock.sqlite3"
    with Store.open(path) as store:
        store.put("settings", "a", 1)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sqlite3, sys, time\ndb = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
         "db.execute('BEGIN EXCLUSIVE')\nprint('locked', flush=True)\ntime.sleep(30)\n", str(path)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        with Store.open(path) as store:
            with pytest.raises(storage.StorageError, match="locked by another program"):
                store.put("settings", "b", 2)
            assert store.get("settings", "a") == 1
    finally:
        holder.kill()
        holder.wait()
