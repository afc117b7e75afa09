"""trainer.storage, in this process: a new file's missing folders are all made; a failure to open or
to prepare a new file is one clear message saying so; the check of an existing file, should its
folder turn read-only meanwhile, says what to do; a bad key is named; equal values are stored as the
same bytes whatever their key order. Written against mutants of a seeded sample of
trainer/storage.py that the suite let pass (docs/mutation.md, 2026-12-02)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlite_faults import FailingConnection, sqlite_error

import trainer.storage as storage
from trainer.storage import ELSEWHERE, StorageError, Store


def test_a_new_file_gets_every_missing_folder_above_it(tmp_path: Path):
    path = tmp_path / "home" / "data" / "aluette" / "progress.sqlite3"
    with Store.open(path) as store:
        store.put("settings", "language", "it")
    with Store.open(path) as store:
        assert store.get("settings", "language") == "it"


def test_a_file_sqlite_cannot_open_is_one_clear_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    def refuse(*args, **kwargs):
        raise sqlite_error("SQLITE_CANTOPEN", "unable to open database file")

    monkeypatch.setattr(storage.sqlite3, "connect", refuse)
    path = tmp_path / "new.sqlite3"
    with pytest.raises(StorageError) as raised:
        Store.open(path)
    assert str(raised.value) == (
        f"cannot open {path} (unable to open database file) while opening it: check that the file and its "
        f"folder {tmp_path} exist and are readable and writable, {ELSEWHERE}")


@pytest.mark.parametrize(
    ("fail_on", "error", "words"),
    [("PRAGMA JOURNAL_MODE", sqlite_error("SQLITE_IOERR_WRITE", "disk I/O error"),
      "the disk failed while preparing it"),
     # the write lock taken to make the tables of a new file
     ("BEGIN IMMEDIATE", sqlite_error("SQLITE_BUSY", "database is locked"), "(database is locked) while preparing it")],
)
def test_a_new_file_that_cannot_be_prepared_says_so(tmp_path: Path, fail_on, error, words):
    path = tmp_path / "new.sqlite3"
    store = Store(path, FailingConnection(path, fail_on, error))
    try:
        with pytest.raises(StorageError) as raised:
            store._prepare()
    finally:
        store.close()
    assert words in str(raised.value) and str(path) in str(raised.value)


def test_a_check_that_cannot_open_in_a_folder_turned_read_only_says_make_it_writable(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    path = tmp_path / "progress.sqlite3"
    Store.open(path).close()
    real_connect = sqlite3.connect

    class FailingCheck:
        def __init__(self, connection):
            self._connection = connection

        def execute(self, sql, *args):
            if sql.startswith("PRAGMA application_id"):
                raise sqlite_error("SQLITE_CANTOPEN", "unable to open database file")
            return self._connection.execute(sql, *args)

        def close(self):
            self._connection.close()

    # The folder was writable at _check_writable and is not any more when the read-only check runs
    # (another program changed it, or a network share went read-only).
    monkeypatch.setattr(storage.os, "access", lambda p, mode: Path(p) != tmp_path)
    monkeypatch.setattr(storage.sqlite3, "connect", lambda *a, **k: FailingCheck(real_connect(*a, **k)))
    with pytest.raises(StorageError) as raised:
        storage._probe(path)
    assert str(raised.value).startswith(f"{path} is in a read-only folder ({tmp_path}): SQLite must create")
    # with its -shm present, SQLite can read without writing the folder: the error is SQLite's own
    path.with_name(path.name + "-shm").write_bytes(b"")
    with pytest.raises(StorageError) as raised:
        storage._probe(path)
    assert str(raised.value).startswith(f"cannot open {path} (unable to open database file) while checking it")


def test_a_bad_key_given_to_put_is_named(tmp_path: Path):
    with Store.open(tmp_path / "k.sqlite3") as store:
        with pytest.raises(StorageError, match=r"^key '' must be a non-empty string"):
            store.put("settings", "", 1)
        with pytest.raises(StorageError, match=r"^kind '' must be a non-empty string"):
            store.put("", "k", 1)
        assert store.count("settings") == 0


def test_equal_values_are_stored_as_the_same_bytes_whatever_their_key_order(tmp_path: Path):
    path = tmp_path / "bytes.sqlite3"
    with Store.open(path) as store:
        store.put("doc", "a", {"reviews": 3, "card": {"due": "x", "stability": 1.5}, "lapses": 0})
        store.put("doc", "b", {"lapses": 0, "card": {"stability": 1.5, "due": "x"}, "reviews": 3})
        assert store.get("doc", "a") == store.get("doc", "b")
    raw = sqlite3.connect(path)
    try:
        bodies = dict(raw.execute("SELECT key, body FROM documents WHERE kind='doc'").fetchall())
    finally:
        raw.close()
    # canonical JSON: a backup or a diff of two files shows only what changed, not a key reordering
    assert bodies["a"] == bodies["b"] == '{"card":{"due":"x","stability":1.5},"lapses":0,"reviews":3}'


def test_an_existing_file_the_check_cannot_open_is_one_clear_message_and_left_as_found(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    path = tmp_path / "progress.sqlite3"
    with Store.open(path) as store:
        store.put("settings", "kept", 1)
    before = path.read_bytes()
    real_connect = sqlite3.connect

    def refuse_the_check(*args, **kwargs):
        if kwargs.get("uri"):  # the read-only check of an existing file
            raise sqlite_error("SQLITE_CANTOPEN", "unable to open database file")
        return real_connect(*args, **kwargs)

    monkeypatch.setattr(storage.sqlite3, "connect", refuse_the_check)
    with pytest.raises(StorageError) as raised:
        Store.open(path)
    assert str(raised.value) == (
        f"cannot open {path} (unable to open database file) while checking it: check that the file and its "
        f"folder {tmp_path} exist and are readable and writable, {ELSEWHERE}")
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["progress.sqlite3"]


def test_the_check_of_a_file_held_locked_waits_the_configured_time_only(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch):
    """ALUETTE_BUSY_TIMEOUT bounds the read-only check's wait too: a user told 0.3 s is not kept
    waiting SQLite's own 5 s while another program holds the file."""
    import threading

    path = tmp_path / "progress.sqlite3"
    Store.open(path).close()
    holder = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")  # readers are shut out, even in WAL mode
    holder.execute("BEGIN EXCLUSIVE")
    # released after 3 s: a check that waited SQLite's default 5 s would then open the file
    release = threading.Timer(3.0, holder.close)
    release.start()
    monkeypatch.setattr(storage, "BUSY_TIMEOUT_S", 0.3)
    try:
        with pytest.raises(StorageError) as raised:
            Store.open(path)
    finally:
        release.join()
    assert str(raised.value).startswith(
        f"{path} is locked by another program (database is locked) while checking it, for more than 0.3 s")
