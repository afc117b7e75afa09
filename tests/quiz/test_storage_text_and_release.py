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
from sqlite_faults import WrappedConnection

import trainer.storage as storage
from trainer.storage import StorageError, Store


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


def test_a_file_that_cannot_be_read_says_make_it_readable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    path = tmp_path / "progress.sqlite3"
    Store.open(path).close()
    real_open = Path.open

    def refuse(self, *args, **kwargs):
        if self == path:
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", refuse)
    with pytest.raises(StorageError) as raised:
        Store.open(path)
    assert str(raised.value) == (f"cannot read {path}: Permission denied; make it readable (chmod u+rw {path}), "
                                 f"{storage.ELSEWHERE}")


def test_a_newer_schema_is_refused_naming_both_versions(tmp_path: Path):
    path = tmp_path / "future.sqlite3"
    Store.open(path).close()
    raw = sqlite3.connect(path)
    raw.execute(f"PRAGMA user_version={storage.SCHEMA_VERSION + 4}")
    raw.close()
    with pytest.raises(StorageError) as raised:
        Store.open(path)
    assert str(raised.value).startswith(
        f"{path} was written by a newer Aluette trainer (schema {storage.SCHEMA_VERSION + 4}, this one knows up "
        f"to {storage.SCHEMA_VERSION}); it was left untouched. Upgrade aluette-trainer")


def test_a_file_failing_the_integrity_check_is_refused_with_sqlites_finding(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    path = tmp_path / "progress.sqlite3"
    Store.open(path).close()
    before = path.read_bytes()
    finding = "*** in database main ***\nPage 3: btreeInitPage() returns error code 11"
    real_connect = sqlite3.connect

    class Damaged:
        """SQLite's own integrity check reporting damage (a real damaged page is not reproducible)."""

        def __init__(self, connection):
            self._connection = connection

        def execute(self, sql, *args):
            if sql == "PRAGMA quick_check":
                return real_connect(":memory:").execute("SELECT ?", (finding,))
            return self._connection.execute(sql, *args)

        def close(self):
            self._connection.close()

    monkeypatch.setattr(storage.sqlite3, "connect",
                        lambda target, *a, **k: Damaged(real_connect(target, *a, **k)) if "mode=ro" in str(target)
                        else real_connect(target, *a, **k))
    with pytest.raises(StorageError) as raised:
        Store.open(path)
    assert str(raised.value) == (
        f"{path} is damaged (integrity check: {finding}); it was left untouched. Move it away to start afresh "
        f"(or restore a backup), or choose another file with --db or {storage.ENV_HOME}")
    assert path.read_bytes() == before


def test_a_disk_whose_mount_cannot_be_asked_is_taken_as_writable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """No statvfs (Windows) or one that fails: os.access and SQLite still answer, so the file opens."""
    path = tmp_path / "progress.sqlite3"
    Store.open(path).close()

    def no_statvfs(target):
        raise OSError(38, "Function not implemented")

    monkeypatch.setattr(storage.os, "statvfs", no_statvfs)
    with Store.open(path) as store:
        store.put("settings", "language", "fr")
        assert store.get("settings", "language") == "fr"


def test_a_closed_store_says_open_it_again_for_reads_and_writes(tmp_path: Path):
    path = tmp_path / "progress.sqlite3"
    store = Store.open(path)
    store.close()
    expected = f"the store {path} is closed: open it again with Store.open"
    for use in (lambda: store.get("settings", "x"), lambda: store.put("settings", "x", 1),
                lambda: store.records("answers"), lambda: store.transaction().__enter__()):
        with pytest.raises(StorageError) as raised:
            use()
        assert str(raised.value) == expected


def test_an_up_to_date_file_opens_and_reads_while_another_program_is_writing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Opening a file already at this schema takes no write lock: the app can show progress while a
    terminal quiz is in the middle of saving an answer."""
    path = tmp_path / "progress.sqlite3"
    with Store.open(path) as store:
        store.put("settings", "language", "it")
    writer = sqlite3.connect(str(path), isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("INSERT INTO log (kind, time, record) VALUES ('answers', 1.0, '{}')")
    monkeypatch.setattr(storage, "BUSY_TIMEOUT_S", 0.3)
    try:
        with Store.open(path) as store:
            assert store.get("settings", "language") == "it"
            assert store.count("answers") == 0  # not yet committed
    finally:
        writer.execute("COMMIT")
        writer.close()


def test_a_save_waits_the_configured_time_for_another_programs_lock_not_sqlites_default(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """ALUETTE_BUSY_TIMEOUT is the store's wait for a lock: told 0.3 s, a save gives up with the
    "locked" message before the other program lets go after 1 s (SQLite's own 5 s would outwait it)."""
    path = tmp_path / "progress.sqlite3"
    monkeypatch.setattr(storage, "BUSY_TIMEOUT_S", 0.3)
    store = Store.open(path)
    holder = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    timer = threading.Timer(1.0, lambda: (holder.execute("COMMIT"), holder.close()))
    timer.start()
    try:
        with pytest.raises(StorageError) as raised:
            store.put("settings", "language", "fr")
    finally:
        timer.join()
    assert str(raised.value).startswith(f"{path} is locked by another program (database is locked) while saving, "
                                         "for more than 0.3 s")
    assert store.get("settings", "language") is None
    store.close()


class _OtherStartFirst(WrappedConnection):
    """A real connection to a new file; just before this store takes the write lock to make the
    tables, another start (``meanwhile``) gets there first."""

    def __init__(self, path: Path, meanwhile) -> None:
        super().__init__(path)
        self._meanwhile = meanwhile

    def execute(self, sql: str, params: tuple = ()):
        if sql == "BEGIN IMMEDIATE" and self._meanwhile is not None:
            meanwhile, self._meanwhile = self._meanwhile, None
            meanwhile()
        return super().execute(sql, params)


def test_a_start_that_another_start_beat_to_the_tables_uses_them(tmp_path: Path):
    path = tmp_path / "progress.sqlite3"

    def other_start() -> None:
        with Store.open(path) as other:
            other.put("settings", "language", "it")

    store = Store(path, _OtherStartFirst(path, other_start))
    try:
        store._prepare()
        assert store.schema_version == storage.SCHEMA_VERSION
        assert store.get("settings", "language") == "it"
        store.put("settings", "camera", "front")
    finally:
        store.close()
    with Store.open(path) as again:
        assert [key for key, _ in again.items("settings")] == ["camera", "language"]


def test_a_start_that_a_newer_trainer_beat_to_the_tables_is_refused_naming_both_versions(tmp_path: Path):
    path = tmp_path / "progress.sqlite3"

    def newer_start() -> None:
        Store.open(path).close()
        raw = sqlite3.connect(path)
        raw.execute(f"PRAGMA user_version={storage.SCHEMA_VERSION + 2}")
        raw.close()

    store = Store(path, _OtherStartFirst(path, newer_start))
    try:
        with pytest.raises(StorageError) as raised:
            store._prepare()
    finally:
        store.close()
    assert str(raised.value) == (
        f"{path} was written by a newer Aluette trainer (schema {storage.SCHEMA_VERSION + 2}, this one knows up to "
        f"{storage.SCHEMA_VERSION}); it was left untouched. Upgrade aluette-trainer (pip install -U "
        f"aluette-trainer), {storage.ELSEWHERE}")
