"""A refused check never removes the -wal/-shm of another process that is using the file.

The check of an existing file opens it read-only, which makes empty -wal/-shm files beside a WAL
database; when the file is refused they are cleaned up so it is left as found. If another program
opened the same file while the check ran, those files are its live write-ahead log and index:
deleting them sends its next commits to a file nobody else can open, and they are lost to every
other reader. Here a real second process opens the database during the check and writes after it.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import trainer.storage as storage
from trainer.storage import StorageError, Store

# Another program: opens its WAL database, reads (which maps the -shm), says "ready", then on each
# line of stdin inserts a row and commits, answering "saved"; it stays connected until stdin ends.
_OTHER_PROGRAM = r"""
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA journal_mode=WAL")
db.execute("SELECT count(*) FROM photos").fetchone()
print("ready", flush=True)
for line in sys.stdin:
    db.execute("INSERT INTO photos VALUES (?)", (line.strip(),))
    print("saved", flush=True)
db.close()
"""


def _photos_db(path: Path) -> None:
    raw = sqlite3.connect(path)
    raw.execute("PRAGMA journal_mode=WAL")
    raw.execute("CREATE TABLE photos (name TEXT)")
    raw.execute("INSERT INTO photos VALUES ('beach')")
    raw.commit()
    raw.close()  # the last connection: SQLite removes the -wal and -shm itself


def _rows(path: Path) -> list[str]:
    reader = sqlite3.connect(path)
    try:
        return sorted(row[0] for row in reader.execute("SELECT name FROM photos"))
    finally:
        reader.close()


def test_a_refused_check_keeps_the_wal_and_shm_another_process_opened_meanwhile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    path = tmp_path / "photos.sqlite3"
    _photos_db(path)
    assert not path.with_name(path.name + "-shm").exists()
    other: subprocess.Popen[str] | None = None
    real_probe = storage._probe

    def probe_while_the_other_program_starts(target: Path) -> None:
        # The other program opens the file after the check looked for -wal/-shm, before it refuses.
        nonlocal other
        other = subprocess.Popen([sys.executable, "-c", _OTHER_PROGRAM, str(target)],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert other.stdout is not None and other.stdout.readline().strip() == "ready"
        real_probe(target)

    monkeypatch.setattr(storage, "_probe", probe_while_the_other_program_starts)
    try:
        with pytest.raises(StorageError, match="another program"):
            Store.open(path)
        assert other is not None and other.stdin is not None and other.stdout is not None
        # Still connected, the other program saves a photo after the refusal.
        other.stdin.write("sunset\n")
        other.stdin.flush()
        assert other.stdout.readline().strip() == "saved"
        assert path.with_name(path.name + "-shm").exists()
        # Any other reader sees it: the other program's log was not taken from under it.
        assert _rows(path) == ["beach", "sunset"]
    finally:
        if other is not None:
            other.communicate(timeout=30)
    assert _rows(path) == ["beach", "sunset"]


def test_a_refused_file_nobody_else_uses_is_left_without_wal_or_shm(tmp_path: Path):
    path = tmp_path / "photos.sqlite3"
    _photos_db(path)
    before = path.read_bytes()
    with pytest.raises(StorageError, match="another program"):
        Store.open(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["photos.sqlite3"]
    assert path.read_bytes() == before
