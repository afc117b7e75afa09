"""trainer.storage, in this process: text is stored as itself (accents readable in any SQLite
browser, not as \\u escapes); text SQLite cannot store (a lone surrogate) is refused with a clear
message and nothing saved; the clean-up after a refused check never waits for another program's
lock. Written against mutants of trainer/storage.py that the suite let pass (docs/mutation.md,
2026-12-02, third run)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

import trainer.storage as storage
from trainer.storage import Store, StorageError


def _raw(path: Path, sql: str) -> list[tuple]:
    reader = sqlite3.connect(path)
    try:
        return reader.execute(sql).fetchall()
    finally:
        reader.close()


def test_accented_text_is_stored_as_itself_not_as_escapes(tmp_path: Path):
    path = tmp_path / "progress.sqlite3"
    with Store.open(path) as store:
        store.put("settings", "nickname", {"name": "Misère à l'écart", "langue": "français"})
        store.append("answers", {"said": "Très bien"}, time=1.0)
    assert _raw(path, "SELECT body FROM documents") == [('{"langue":"français","name":"Misère à l\'écart"}',)]
    assert _raw(path, "SELECT record FROM log") == [('{"said":"Très bien"}',)]


@pytest.mark.parametrize("value", ["photo\udc80.jpg", {"file": "\ud800"}, ["ok", "x\udfff"]])
def test_text_sqlite_cannot_store_is_refused_clearly_and_nothing_is_saved(tmp_path: Path, value):
    path = tmp_path / "progress.sqlite3"
    with Store.open(path) as store:
        store.put("settings", "camera", "front")
        with pytest.raises(StorageError) as put:
            store.put("settings", "camera", value)
        with pytest.raises(StorageError) as append:
            store.append("answers", value, time=2.0)
        assert store.get("settings", "camera") == "front"
        assert store.count("answers") == 0
    assert str(put.value).startswith("document settings/camera: value cannot be stored as JSON (")
    assert str(put.value).endswith("surrogates not allowed); convert it to plain data first")
    assert str(append.value).startswith("log record answers: value cannot be stored as JSON (")


def test_a_kind_or_key_sqlite_cannot_store_is_refused_by_name(tmp_path: Path):
    with Store.open(tmp_path / "progress.sqlite3") as store:
        with pytest.raises(StorageError) as raised:
            store.put("settings", "cam\udc80", 1)
        assert str(raised.value) == "key 'cam\\udc80' must be a non-empty string of at most 200 characters"
        with pytest.raises(StorageError, match="^kind 'x\\\\ud800' must be"):
            store.records("x\ud800")
        assert store.keys("settings") == []


def test_the_clean_up_after_a_refused_check_gives_up_at_once_on_a_busy_file(tmp_path: Path):
    """The clean-up runs while the user waits for the refusal's message: if another program holds
    the file, it leaves what is beside it (which loses nothing) rather than wait for the lock."""
    path = tmp_path / "photos.sqlite3"
    raw = sqlite3.connect(path)
    raw.execute("PRAGMA journal_mode=WAL")
    raw.execute("CREATE TABLE photos (name TEXT)")
    raw.commit()
    raw.close()
    holder = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")  # readers are shut out, even in WAL mode
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("INSERT INTO photos VALUES ('beach')")
    held = threading.Event()
    held.set()

    def let_go() -> None:
        held.clear()
        holder.execute("COMMIT")
        holder.close()

    # The other program lets go after 0.8 s: a clean-up that waited for the lock (SQLite's 5 s
    # default, or even 1 s) would only return after that.
    timer = threading.Timer(0.8, let_go)
    timer.start()
    try:
        storage._release_companions(path)
        returned_while_held = held.is_set()
    finally:
        timer.join()
    assert returned_while_held
    assert _raw(path, "SELECT name FROM photos") == [("beach",)]


def test_kinds_and_keys_may_be_200_characters_long_and_no_longer(tmp_path: Path):
    with Store.open(tmp_path / "progress.sqlite3") as store:
        store.put("k" * 200, "q" * 200, 1)
        store.append("k" * 200, 2, time=1.0)
        assert store.get("k" * 200, "q" * 200) == 1 and store.count("k" * 200) == 1
        with pytest.raises(StorageError, match="^key 'q{201}' must be a non-empty string of at most 200 characters$"):
            store.put("k" * 200, "q" * 201, 1)
        with pytest.raises(StorageError, match="^kind 'k{201}' must be"):
            store.append("k" * 201, 2, time=1.0)
