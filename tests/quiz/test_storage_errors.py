"""trainer.storage under SQLite failures, in this process: every class of SQLite error becomes one
StorageError that names the file, says the cause in words and offers a way out, and the failed
write leaves nothing behind while what was saved before stays.

``test_storage_faults.py`` makes the real faults (full tmpfs, a held lock, damaged bytes) through the
CLI in a child process; these tests make SQLite itself report each error name at a chosen
statement, so every branch of the classification runs where a planted bug can be seen.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path

import pytest
from sqlite_faults import FailingConnection, sqlite_error

from trainer import storage
from trainer.storage import ELSEWHERE, ENV_HOME, DamagedEntryError, StorageError, Store, data_home


@pytest.fixture()
def saved(tmp_path: Path) -> Path:
    path = tmp_path / "progress.sqlite3"
    with Store.open(path) as store:
        store.put("settings", "kept", {"language": "it"})
        store.append("attempt", {"n": 1}, time=10.0)
    return path


def _failing_store(path: Path, fail_on: str, error: sqlite3.Error) -> Store:
    return Store(path, FailingConnection(path, fail_on, error))


# (SQLite's error name, its text, words of the cause, the way out that must be offered)
CLASSES = [
    ("SQLITE_READONLY", "attempt to write a readonly database", "is read-only", "chmod u+w"),
    ("SQLITE_READONLY_DBMOVED", "attempt to write a readonly database", "is read-only", "chmod u+w"),
    ("SQLITE_PERM", "access permission denied", "is read-only", "chmod u+w"),
    ("SQLITE_FULL", "database or disk is full", "is full", "Free some space"),
    # classified by SQLite's error name, whatever its wording (it changes between versions)
    ("SQLITE_FULL", "plus de place", "is full", "Free some space"),
    # an I/O error whose text says the disk is full is a full disk, not a failing one
    ("SQLITE_IOERR_WRITE", "database or disk is full", "is full", "Free some space"),
    ("SQLITE_BUSY", "database is locked", "locked by another program", "close the other program"),
    ("SQLITE_BUSY_SNAPSHOT", "database is locked", "locked by another program", "close the other program"),
    ("SQLITE_LOCKED_SHAREDCACHE", "database table is locked", "locked by another program", "close the other program"),
    ("SQLITE_CORRUPT", "database disk image is malformed", "is damaged", "Move the file away"),
    ("SQLITE_CORRUPT_INDEX", "database disk image is malformed", "is damaged", "Move the file away"),
    ("SQLITE_NOTADB", "file is not a database", "is damaged", "Move the file away"),
    ("SQLITE_CANTOPEN", "unable to open database file", "cannot open", "exist and are readable and writable"),
    ("SQLITE_CANTOPEN_ISDIR", "unable to open database file", "cannot open", "exist and are readable and writable"),
    ("SQLITE_IOERR_FSYNC", "disk I/O error", "the disk failed", "Check the disk"),
    ("SQLITE_IOERR", "disk I/O error", "the disk failed", "Check the disk"),
    ("SQLITE_PROTOCOL", "locking protocol", "nothing was changed", "Retry"),
    (None, "something odd", "nothing was changed", "Retry"),
]

# Each message belongs to one class: these words must not appear in another class's message.
EXCLUSIVE = {"is read-only", "is full", "locked by another program", "is damaged", "cannot open", "the disk failed"}


@pytest.mark.parametrize(("name", "text", "cause", "way_out"), CLASSES, ids=[str(c[0]) for c in CLASSES])
def test_each_sqlite_error_class_is_one_clear_message_and_loses_nothing(saved: Path, name, text, cause, way_out):
    store = _failing_store(saved, "INSERT", sqlite_error(name, text))
    with pytest.raises(StorageError) as raised:
        store.put("settings", "new", {"language": "fr"})
    message = str(raised.value)
    assert type(raised.value) is StorageError
    assert str(saved) in message
    assert text in message  # SQLite's own words, for whoever reports the problem
    assert "while saving" in message
    assert cause in message and way_out in message
    for other in EXCLUSIVE - {cause}:
        assert other not in message, f"{name} read as {other!r}: {message}"
    if way_out not in ("close the other program",):
        assert ELSEWHERE in message  # the other way out: another file
    # nothing of the failed write, everything from before, and the store still works
    assert store.get("settings", "new") is None
    assert store.get("settings", "kept") == {"language": "it"}
    store.put("settings", "after", 1)
    store.close()
    with Store.open(saved) as again:
        assert again.keys("settings") == ["after", "kept"]


@pytest.mark.parametrize("fail_on", ["BEGIN", "INSERT", "COMMIT"])
def test_a_write_that_fails_at_any_step_is_reported_and_undone(saved: Path, fail_on: str):
    store = _failing_store(saved, fail_on, sqlite_error("SQLITE_FULL", "database or disk is full"))
    with pytest.raises(StorageError, match="is full") as raised:
        with store.transaction():
            store.put("settings", "a", 1)
            store.append("attempt", {"n": 2}, time=20.0)
    assert "while saving" in str(raised.value)
    assert store.get("settings", "a") is None
    assert [e.record for e in store.records("attempt")] == [{"n": 1}]
    store.append("attempt", {"n": 3}, time=30.0)
    assert store.count("attempt") == 2
    store.close()


def test_a_failed_read_says_reading_and_is_not_a_raw_sqlite_error(saved: Path):
    store = _failing_store(saved, "SELECT", sqlite_error("SQLITE_IOERR_READ", "disk I/O error"))
    with pytest.raises(StorageError, match="the disk failed while reading it") as raised:
        store.get("settings", "kept")
    assert str(saved) in str(raised.value)
    assert store.get("settings", "kept") == {"language": "it"}
    store.close()


def test_the_default_data_folder_is_the_platforms_user_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv(ENV_HOME, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert data_home() == tmp_path / "xdg" / "aluette"
    monkeypatch.setenv(ENV_HOME, "~/elsewhere")
    assert data_home() == Path("~/elsewhere").expanduser()


def test_repr_names_the_file(tmp_path: Path):
    with Store.open(tmp_path / "r.sqlite3") as store:
        assert repr(store) == f"Store.open({str(tmp_path / 'r.sqlite3')!r})"


def test_bad_arguments_are_named_in_the_error(tmp_path: Path):
    with Store.open(tmp_path / "args.sqlite3") as store:
        with pytest.raises(StorageError, match=r"^time datetime\.datetime\(2026, 1, 1, 0, 0\) has no timezone"):
            store.append("attempt", {}, time=datetime(2026, 1, 1))
        with pytest.raises(StorageError, match=r"^time 'soon' is not a time"):
            store.append("attempt", {}, time="soon")
        with pytest.raises(StorageError, match=r"^log record attempt: value cannot be stored as JSON"):
            store.append("attempt", {1, 2}, time=1.0)
        with pytest.raises(StorageError, match=r"^kind '' must be a non-empty string"):
            store.append("", {}, time=1.0)
        with pytest.raises(StorageError, match=r"^kind '' must be a non-empty string"):
            store.count("")
        with pytest.raises(StorageError, match=r"^kind '' must be a non-empty string"):
            store.delete("", "k")
        with pytest.raises(StorageError, match=r"^key '' must be a non-empty string"):
            store.delete("settings", "")
        with pytest.raises(StorageError, match=r"^since 'x' is not a time"):
            store.records("attempt", since="x")
        with pytest.raises(StorageError, match=r"^until 'x' is not a time"):
            store.records("attempt", until="x")
        with pytest.raises(StorageError, match=r"^now 'x' is not a time"):
            store.put("settings", "k", 1, now="x")
        with pytest.raises(StorageError, match=r"^document settings/k: value cannot be stored as JSON"):
            store.put("settings", "k", {"x": float("nan")})
        with pytest.raises(StorageError, match=r"^kind '' must be a non-empty string"):
            store.get("", "k")
        with pytest.raises(StorageError, match=r"^key '' must be a non-empty string"):
            store.get("settings", "")
        assert store.count("attempt") == 0  # nothing half-written by the refused calls


def test_a_damaged_document_is_named_with_its_file(tmp_path: Path):
    path = tmp_path / "damaged.sqlite3"
    with Store.open(path) as store:
        store.put("settings", "good", 1)
    raw = sqlite3.connect(path)
    raw.execute("INSERT INTO documents (kind, key, body) VALUES ('settings', 'bad', '{oops')")
    raw.commit()
    raw.close()
    with Store.open(path) as store:
        with pytest.raises(DamagedEntryError) as raised:
            store.get("settings", "bad")
        assert str(raised.value).startswith(f"document settings/bad in {path} is not valid JSON")
        assert store.get("settings", "good") == 1


# Root may write anything, so CI (run as root) cannot make a read-only file; these tests make the
# kernel's answers say so instead. test_storage_faults.py does it for real as 'nobody'.


def _untouched(path: Path) -> tuple[bytes, list[str]]:
    return path.read_bytes(), sorted(p.name for p in path.parent.iterdir())


def test_a_read_only_file_is_refused_before_any_answer_and_left_as_found(saved: Path, monkeypatch: pytest.MonkeyPatch):
    import trainer.storage as storage

    before = _untouched(saved)
    monkeypatch.setattr(storage.os, "access", lambda path, mode: Path(path) != saved)
    with pytest.raises(StorageError) as raised:
        Store.open(saved)
    assert str(raised.value) == (
        f"{saved} is read-only for this user: answers could not be saved, so it was not opened and was left "
        f"untouched. Make it writable (chmod u+w {saved}), {ELSEWHERE}")
    assert _untouched(saved) == before


def test_a_file_in_a_read_only_folder_is_refused_and_left_as_found(saved: Path, monkeypatch: pytest.MonkeyPatch):
    import trainer.storage as storage

    before = _untouched(saved)
    monkeypatch.setattr(storage.os, "access", lambda path, mode: Path(path) != saved.parent)
    with pytest.raises(StorageError) as raised:
        Store.open(saved)
    message = str(raised.value)
    assert message.startswith(f"{saved} is in a read-only folder ({saved.parent}): SQLite must create "
                              f"{saved.name}-wal and {saved.name}-shm beside it to write")
    assert f"(chmod u+w {saved.parent})" in message and message.endswith(ELSEWHERE)
    assert _untouched(saved) == before


def test_a_new_file_in_a_read_only_folder_is_not_created(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    import trainer.storage as storage

    path = tmp_path / "new.sqlite3"
    monkeypatch.setattr(storage.os, "access", lambda p, mode: Path(p) != tmp_path)
    with pytest.raises(StorageError) as raised:
        Store.open(path)
    assert str(raised.value) == (f"cannot create {path}: its folder {tmp_path} is read-only; make it writable "
                                 f"(chmod u+w {tmp_path}), {ELSEWHERE}")
    assert not path.exists()


def test_a_file_on_a_read_only_disk_is_refused_and_left_as_found(saved: Path, monkeypatch: pytest.MonkeyPatch):
    import os

    import trainer.storage as storage

    before = _untouched(saved)
    real = os.statvfs(saved)
    fields = {name: getattr(real, name) for name in dir(real) if name.startswith("f_")}
    read_only = type("StatVfs", (), {**fields, "f_flag": real.f_flag | os.ST_RDONLY})()
    monkeypatch.setattr(storage.os, "statvfs", lambda path: read_only)
    with pytest.raises(StorageError) as raised:
        Store.open(saved)
    assert str(raised.value).startswith(f"{saved} is on a disk mounted read-only: answers could not be saved")
    assert "Remount that disk read-write" in str(raised.value)
    assert _untouched(saved) == before
    monkeypatch.setattr(storage.os, "statvfs", lambda path: real)  # a writable disk opens as usual
    with Store.open(saved) as store:
        assert store.get("settings", "kept") == {"language": "it"}


def test_a_folder_where_the_data_folder_should_be_cannot_be_created(tmp_path: Path):
    blocker = tmp_path / "file"
    blocker.write_text("in the way")
    with pytest.raises(StorageError) as raised:
        Store.open(blocker / "sub" / "db.sqlite3")
    assert str(raised.value).startswith(f"cannot create the data folder {blocker / 'sub'}: ")
    assert str(raised.value).endswith(f"set {ENV_HOME} to a writable folder")


def test_a_database_another_process_is_creating_is_not_taken_for_a_foreign_one(tmp_path: Path, monkeypatch):
    """Several first starts at once: one process creates the file while another checks it. The
    creator's schema, version and mark arrive in one commit; the check must not see the mark from
    before that commit and the tables from after it (it then refused our own new file as "an SQLite
    database of another program", 1 run in 6 of the four-process test under load)."""
    import trainer.storage as storage

    path = tmp_path / "new.sqlite3"
    creator = sqlite3.connect(path, isolation_level=None)
    creator.execute("PRAGMA journal_mode=WAL")
    creator.execute("BEGIN IMMEDIATE")
    for statement in storage.MIGRATIONS[0]:
        creator.execute(statement)
    creator.execute(f"PRAGMA application_id={storage.APPLICATION_ID}")
    creator.execute(f"PRAGMA user_version={storage.SCHEMA_VERSION}")
    real_connect = sqlite3.connect

    class CommitsDuringTheCheck:
        """The checker's read-only connection; the creator commits right after the mark is read."""

        def __init__(self, connection: sqlite3.Connection) -> None:
            self._connection = connection

        def execute(self, sql: str, *args):
            cursor = self._connection.execute(sql, *args)
            if sql.startswith("PRAGMA application_id") and creator.in_transaction:
                creator.execute("COMMIT")
            return cursor

        def close(self) -> None:
            self._connection.close()

    def connect(target, *args, **kwargs):
        connection = real_connect(target, *args, **kwargs)
        return CommitsDuringTheCheck(connection) if kwargs.get("uri") else connection

    monkeypatch.setattr(storage.sqlite3, "connect", connect)
    with Store.open(path) as store:
        assert not creator.in_transaction  # the commit did land during the check
        store.put("settings", "mine", 1)
        assert store.schema_version == storage.SCHEMA_VERSION
    creator.close()
    monkeypatch.undo()
    with Store.open(path) as store:
        assert store.get("settings", "mine") == 1


def test_records_limits_are_checked_and_zero_means_none(tmp_path: Path):
    with Store.open(tmp_path / "limits.sqlite3") as store:
        for n in range(3):
            store.append("attempt", {"n": n}, time=float(n))
        assert store.records("attempt", limit=0) == []
        assert [e.record["n"] for e in store.records("attempt", limit=1)] == [0]
        assert [e.record["n"] for e in store.records("attempt", limit=2, newest_first=True)] == [2, 1]
        for bad in (-1, "2", 1.5):
            with pytest.raises(StorageError) as raised:
                store.records("attempt", limit=bad)
            assert str(raised.value) == f"limit {bad!r} must be a non-negative integer"
        with pytest.raises(StorageError, match=r"^kind '' must be a non-empty string"):
            store.records("")


def test_damaged_rows_are_listed_with_their_reason_or_raise(tmp_path: Path):
    path = tmp_path / "rows.sqlite3"
    with Store.open(path) as store:
        store.put("settings", "a", 1)
        store.put("settings", "b", 2)
        store.append("attempt", {"n": 1}, time=1.0)
    raw = sqlite3.connect(path)
    raw.execute("UPDATE documents SET body='{x' WHERE key='b'")
    raw.execute("UPDATE log SET record='[' WHERE kind='attempt'")
    raw.commit()
    raw.close()
    with Store.open(path) as store:
        damaged: list[tuple[str, str]] = []
        assert store.items("settings", damaged=damaged) == [("a", 1)]
        assert damaged == [("b", f"document settings/b in {path} is not valid JSON: it was edited by hand or "
                                 "damaged; delete or reset that entry (the rest of the file is fine)")]
        with pytest.raises(DamagedEntryError, match=r"^document settings/b in "):
            store.items("settings")
        with pytest.raises(DamagedEntryError, match=r"^log record attempt#1 in "):
            store.records("attempt")
        for read in (store.keys, store.items, store.records, store.count):
            with pytest.raises(StorageError, match=r"^kind '' must be a non-empty string"):
                read("")


def test_log_entries_carry_their_kind(tmp_path: Path):
    with Store.open(tmp_path / "kinds.sqlite3") as store:
        store.append("attempt", {"n": 1}, time=1.0)
        [entry] = store.records("attempt")
        assert (entry.kind, entry.time, entry.record) == ("attempt", 1.0, {"n": 1})


@pytest.mark.parametrize(
    ("name", "words", "where"),
    [("SQLITE_BUSY", "is locked by another program", "while checking it"),
     ("SQLITE_LOCKED", "is locked by another program", "while checking it"),
     ("SQLITE_LOCKED_SHAREDCACHE", "is locked by another program", "while checking it"),
     ("SQLITE_READONLY", "cannot be written", "while checking it"),
     ("SQLITE_CANTOPEN", "cannot open", "while checking it"),
     ("SQLITE_IOERR_READ", "the disk failed", "while checking it"),
     ("SQLITE_CORRUPT", "is damaged", "it was left untouched"),
     ("SQLITE_NOTADB", "is damaged", "it was left untouched")],
)
def test_a_check_that_fails_says_so_and_leaves_the_file_as_found(saved: Path, monkeypatch, name, words, where):
    """The read-only check of an existing file (before anything is written) fails: one message naming
    the file, nothing left beside it."""
    import trainer.storage as storage

    before = _untouched(saved)
    real_connect = sqlite3.connect

    class FailingCheck:
        def __init__(self, connection):
            self._connection = connection

        def execute(self, sql, *args):
            if sql.startswith("PRAGMA user_version"):
                raise sqlite_error(name, "the check failed")
            return self._connection.execute(sql, *args)

        def close(self):
            self._connection.close()

    monkeypatch.setattr(storage.sqlite3, "connect",
                        lambda target, *a, **k: FailingCheck(real_connect(target, *a, **k)) if k.get("uri")
                        else real_connect(target, *a, **k))
    with pytest.raises(StorageError) as raised:
        Store.open(saved)
    message = str(raised.value)
    assert str(saved) in message and words in message and "the check failed" in message and where in message
    assert _untouched(saved) == before


@pytest.mark.parametrize(("text", "name"), [
    ("database is locked", "SQLITE_BUSY"),
    ("database table is locked", "SQLITE_LOCKED"),
    ("attempt to write a readonly database", "SQLITE_READONLY"),
    ("database or disk is full", "SQLITE_FULL"),
    ("database disk image is malformed", "SQLITE_CORRUPT"),
    ("file is not a database", "SQLITE_NOTADB"),
    ("unable to open database file", "SQLITE_CANTOPEN"),
    ("disk I/O error", "SQLITE_IOERR"),
    ("no such table: entries", ""),
])
def test_an_error_without_sqlites_code_name_is_classified_by_sqlites_own_text(text, name):
    """Python 3.10's sqlite3 errors carry no ``sqlite_errorname``: a lock must still read as a lock."""
    error = sqlite3.OperationalError(text)
    assert getattr(error, "sqlite_errorname", None) is None  # as 3.10 raises it
    assert storage.error_name(error) == name


def test_a_code_name_given_by_python_wins_over_the_text():
    assert storage.error_name(sqlite_error("SQLITE_IOERR_WRITE", "database is locked")) == "SQLITE_IOERR_WRITE"
