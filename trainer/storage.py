"""Persistence for the quiz and the app: one SQLite database in the user's data folder.

Standard library and ``platformdirs`` only; no other project module. Two things are stored:

* **documents**: a JSON value per ``(kind, key)`` (calibration profiles, saved games, settings,
  the quiz's memory of each fact), read and replaced whole;
* **a log**: append-only JSON records per ``kind`` with the time the caller passes in (practice
  attempts, quiz reviews).

Safety rules, because a user's progress is the one thing we must not lose:

* WAL journal with ``synchronous=FULL``: once a write has returned, a crash, a killed server or a
  power cut does not lose it, and every write is one transaction, so nothing is ever half written.
  :meth:`Store.transaction` groups several writes into one.
* A file that is not ours (not SQLite, corrupt, another program's database, or a newer schema than
  this code knows) raises :class:`StorageError` naming the path and the way out, and is **never**
  written to: it is checked through a read-only connection before anything else happens.
* The schema is versioned (``PRAGMA user_version``) and upgraded by numbered migrations, each in
  its own transaction.

One connection guarded by a re-entrant lock serves every thread (Streamlit runs each session in
its own thread); several processes may share the file, SQLite's locking and a busy timeout
serialise their writes.
"""

from __future__ import annotations

import builtins
import json
import math
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

ENV_HOME = "ALUETTE_HOME"
DB_NAME = "aluette.sqlite3"
APPLICATION_ID = 0x416C7565  # "Alue": marks the file as ours in the SQLite header
SQLITE_MAGIC = b"SQLite format 3\x00"
BUSY_TIMEOUT_S = float(os.environ.get("ALUETTE_BUSY_TIMEOUT", "30"))
"""How long a write waits for another process's lock before saying so. SQLite's waiting is not a
queue: with many writers on a loaded machine one can wait several seconds (8 processes answering
at once starved one for over 10 s), so the default is generous."""

# Migration i (1-based) takes the schema from version i-1 to i. Append, never edit a shipped one.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        "CREATE TABLE documents ("
        " kind TEXT NOT NULL, key TEXT NOT NULL, body TEXT NOT NULL, updated REAL,"
        " PRIMARY KEY (kind, key)) WITHOUT ROWID",
        "CREATE TABLE log ("
        " id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, time REAL NOT NULL,"
        " record TEXT NOT NULL)",
        "CREATE INDEX log_by_kind_time ON log (kind, time)",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)


class StorageError(ValueError):
    """The database cannot be used as asked; the message names the file and what to do."""


class DamagedEntryError(StorageError):
    """One stored value is not valid JSON (edited by hand or damaged); the rest of the file is fine."""


ELSEWHERE = f"or choose another file (aluette quiz --db PATH, or set {ENV_HOME} to another folder)"


_NAMES_BY_MESSAGE = (
    ("database is locked", "SQLITE_BUSY"),
    ("database table is locked", "SQLITE_LOCKED"),
    ("readonly database", "SQLITE_READONLY"),
    ("access permission denied", "SQLITE_PERM"),
    ("database or disk is full", "SQLITE_FULL"),
    ("database disk image is malformed", "SQLITE_CORRUPT"),
    ("file is not a database", "SQLITE_NOTADB"),
    ("unable to open database file", "SQLITE_CANTOPEN"),
    ("disk I/O error", "SQLITE_IOERR"),
)
"""SQLite's own text for each primary result code (``sqlite3_errstr``), for Python 3.10, whose
``sqlite3`` errors do not carry the code's name."""


def error_name(error: sqlite3.Error) -> str:
    """SQLite's name for the error's result code ("SQLITE_BUSY"...; "" if unknown). Python 3.11+
    gives it (``sqlite_errorname``); on 3.10 it is read from SQLite's fixed text for the code."""
    name = getattr(error, "sqlite_errorname", None)
    if name:
        return str(name)
    text = str(error)
    return next((code for fragment, code in _NAMES_BY_MESSAGE if fragment in text), "")


def _fault(error: sqlite3.Error, path: Path, doing: str) -> StorageError:
    """One clear message for an SQLite failure: the file, the cause in words, a way out that exists.

    Classified by SQLite's own error name (not the wording, which changes between versions)."""
    name = error_name(error)
    detail = str(error)
    if name.startswith("SQLITE_READONLY") or name == "SQLITE_PERM":
        return StorageError(
            f"{path} cannot be written ({detail}) while {doing}: the file or its folder {path.parent} is "
            f"read-only. Nothing was changed. Make both writable (e.g. chmod u+w {path} {path.parent}), "
            f"{ELSEWHERE}")
    if name == "SQLITE_FULL" or "disk is full" in detail:
        return StorageError(
            f"the disk holding {path} is full ({detail}) while {doing}: this change was not saved and "
            f"what was saved before is intact. Free some space on that disk and retry, {ELSEWHERE}")
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return StorageError(
            f"{path} is locked by another program ({detail}) while {doing}, for more than "
            f"{BUSY_TIMEOUT_S:g} s: close the other program using it (another 'aluette quiz', the app, "
            f"an SQLite browser) and retry. Nothing was changed")
    if name.startswith("SQLITE_CORRUPT") or name == "SQLITE_NOTADB":
        return StorageError(
            f"{path} is damaged ({detail}) while {doing}; this change was not saved. Move the file away "
            f"to start afresh (or restore a backup), {ELSEWHERE}")
    if name.startswith("SQLITE_CANTOPEN"):
        return StorageError(
            f"cannot open {path} ({detail}) while {doing}: check that the file and its folder "
            f"{path.parent} exist and are readable and writable, {ELSEWHERE}")
    if name.startswith("SQLITE_IOERR"):
        return StorageError(
            f"the disk failed while {doing} {path} ({detail}): this change was not saved. Check the disk "
            f"(is it full, removed, or a network share that went away?) and retry, {ELSEWHERE}")
    return StorageError(f"{path}: {detail} while {doing}; nothing was changed. Retry, {ELSEWHERE}")


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One appended record: its row id, kind, the time given when it was appended, and the JSON value."""

    id: int
    kind: str
    time: float
    record: Any


def data_home() -> Path:
    """The user's data folder: ``$ALUETTE_HOME`` if set, else the platform's user data dir."""
    override = os.environ.get(ENV_HOME)
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("aluette", appauthor=False))


def default_path() -> Path:
    return data_home() / DB_NAME


def _timestamp(value: float | datetime, what: str) -> float:
    """Seconds since the epoch from a float or an aware datetime (time is always passed in)."""
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise StorageError(f"{what} {value!r} has no timezone: pass an aware datetime (e.g. UTC)")
        return value.timestamp()
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    raise StorageError(f"{what} {value!r} is not a time: pass seconds since the epoch or an aware datetime")


def _name(value: str, what: str) -> str:
    if not isinstance(value, str) or not value or len(value) > 200 or not _is_utf8(value):
        raise StorageError(f"{what} {value!r} must be a non-empty string of at most 200 characters")
    return value


def _is_utf8(text: str) -> bool:
    """SQLite stores text as UTF-8: a lone surrogate (a file name decoded with 'surrogateescape',
    say) cannot be stored and would otherwise fail as a bare UnicodeEncodeError at the insert."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _dumps(value: Any, where: str) -> str:
    try:
        # ensure_ascii=False: accents are stored as themselves, readable in any SQLite browser.
        text = json.dumps(value, ensure_ascii=False, sort_keys=True, allow_nan=False, separators=(",", ":"))
        text.encode("utf-8")  # a lone surrogate: a UnicodeEncodeError, i.e. a ValueError, below
        return text
    except (TypeError, ValueError, RecursionError) as error:
        raise StorageError(f"{where}: value cannot be stored as JSON ({error}); "
                           "convert it to plain data first") from None


class Store:
    """The database. Open with :meth:`Store.open`; close (or use ``with``) when done."""

    def __init__(self, path: Path, connection: sqlite3.Connection) -> None:
        self._path = path
        self._db = connection
        self._lock = threading.RLock()
        self._depth = 0
        self._closed = False

    # -- opening -----------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike[str] | None = None) -> Store:
        """Open (creating if absent) the database at ``path``, default :func:`default_path`.

        Raises :class:`StorageError` for a file that is not a usable Aluette database; such a
        file is left exactly as it was.
        """
        target = Path(path).expanduser() if path is not None else default_path()
        if target.is_dir():
            raise StorageError(f"{target} is a folder: give the path of a database file inside it, "
                               f"e.g. {target / DB_NAME}")
        if target.exists():
            with _left_as_found(target):
                _check_writable(target)
                _check_existing(target)
        else:
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise StorageError(f"cannot create the data folder {target.parent}: {error.strerror}; "
                                   f"set {ENV_HOME} to a writable folder") from None
            if not os.access(target.parent, os.W_OK):
                raise StorageError(f"cannot create {target}: its folder {target.parent} is read-only; make it "
                                   f"writable (chmod u+w {target.parent}), {ELSEWHERE}")
        try:
            connection = sqlite3.connect(
                str(target), timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as error:
            raise _fault(error, target, "opening it") from None
        store = cls(target, connection)
        try:
            store._prepare()
        except BaseException:
            connection.close()
            raise
        return store

    def _prepare(self) -> None:
        try:
            self._use_wal()
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            if self._db.execute("PRAGMA user_version").fetchone()[0] >= SCHEMA_VERSION:
                return
            # Several processes may start on a new file at once: read the version again under the
            # write lock (BEGIN IMMEDIATE), so only the first one migrates and the others see its work.
            with self._write("preparing it"):
                version = self._db.execute("PRAGMA user_version").fetchone()[0]
                if version > SCHEMA_VERSION:
                    raise StorageError(_newer(self._path, version))
                for number in range(version + 1, SCHEMA_VERSION + 1):
                    for statement in MIGRATIONS[number - 1]:
                        self._db.execute(statement)
                    self._db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                    self._db.execute(f"PRAGMA user_version={number}")
        except sqlite3.Error as error:
            raise _fault(error, self._path, "preparing it") from None

    def _use_wal(self) -> None:
        """Switch the file to write-ahead logging, waiting up to ``BUSY_TIMEOUT_S`` for other programs.
        On a new file the switch needs the file alone for a moment, and while another first start
        holds it SQLite answers "database is locked" at once instead of waiting out its busy timeout
        (four processes starting together on a new file: 2 of 1,200 starts failed in 0.01 s with both
        cores busy, and a CI run once)."""
        deadline = time.monotonic() + BUSY_TIMEOUT_S
        pause = 0.005
        while True:
            try:
                self._db.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as error:
                name = error_name(error)
                if not name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or time.monotonic() >= deadline:
                    raise
            time.sleep(pause)
            pause = min(pause * 2, 0.1)

    # -- basics ------------------------------------------------------------------------------

    @property
    def path(self) -> Path:
        return self._path

    @property
    def schema_version(self) -> int:
        return self._read("PRAGMA user_version")[0][0]

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Store.open({str(self._path)!r})"

    @contextmanager
    def transaction(self) -> Iterator[Store]:
        """Group writes: all of them are stored, or (on any exception) none. Nests."""
        with self._write():
            yield self

    def _check_open(self) -> None:
        if self._closed:
            raise StorageError(f"the store {self._path} is closed: open it again with Store.open")

    @contextmanager
    def _write(self, doing: str = "saving") -> Iterator[None]:
        with self._lock:
            self._check_open()
            outer = self._depth == 0
            if outer:
                try:
                    # IMMEDIATE takes the write lock now, so two processes cannot both read then write.
                    self._db.execute("BEGIN IMMEDIATE")
                except sqlite3.Error as error:
                    raise _fault(error, self._path, doing) from None
            self._depth += 1
            try:
                yield
            except sqlite3.Error as error:
                self._depth -= 1
                if outer:
                    self._rollback()
                    raise _fault(error, self._path, doing) from None
                raise
            except BaseException:
                self._depth -= 1
                if outer:
                    self._rollback()
                raise
            self._depth -= 1
            if outer:
                try:
                    self._db.execute("COMMIT")
                except sqlite3.Error as error:
                    self._rollback()
                    raise _fault(error, self._path, doing) from None

    def _rollback(self) -> None:
        """Undo the open transaction. SQLite may already have rolled back by itself (a full disk
        does), and a second ROLLBACK would then raise "no transaction is active" over the real cause."""
        if self._db.in_transaction:
            try:
                self._db.execute("ROLLBACK")
            except sqlite3.Error:
                pass  # the transaction is gone either way; the first error is the one to report

    def _read(self, sql: str, params: tuple = ()) -> list[tuple]:
        with self._lock:
            self._check_open()
            try:
                return self._db.execute(sql, params).fetchall()
            except sqlite3.Error as error:
                raise _fault(error, self._path, "reading it") from None

    # -- documents ---------------------------------------------------------------------------

    def get(self, kind: str, key: str, default: Any = None) -> Any:
        """The JSON value stored under ``(kind, key)``, or ``default``."""
        rows = self._read("SELECT body FROM documents WHERE kind=? AND key=?", (_name(kind, "kind"), _name(key, "key")))
        if not rows:
            return default
        return self._loads(rows[0][0], f"document {kind}/{key}")

    def put(self, kind: str, key: str, value: Any, *, now: float | datetime | None = None) -> None:
        """Store ``value`` (plain JSON data) under ``(kind, key)``, replacing what was there."""
        body = _dumps(value, f"document {kind}/{key}")
        updated = None if now is None else _timestamp(now, "now")
        with self._write():
            self._db.execute(
                "INSERT INTO documents (kind, key, body, updated) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (kind, key) DO UPDATE SET body=excluded.body, updated=excluded.updated",
                (_name(kind, "kind"), _name(key, "key"), body, updated),
            )

    def delete(self, kind: str, key: str) -> bool:
        """Remove ``(kind, key)``; True if it was there."""
        with self._write():
            cursor = self._db.execute("DELETE FROM documents WHERE kind=? AND key=?",
                                      (_name(kind, "kind"), _name(key, "key")))
            return cursor.rowcount > 0

    def keys(self, kind: str) -> list[str]:
        """The keys stored under ``kind``, sorted."""
        rows = self._read("SELECT key FROM documents WHERE kind=? ORDER BY key", (_name(kind, "kind"),))
        return [row[0] for row in rows]

    def items(self, kind: str, *, damaged: list[tuple[str, str]] | None = None) -> list[tuple[str, Any]]:
        """``(key, value)`` pairs under ``kind``, sorted by key.

        A value that is not valid JSON raises :class:`DamagedEntryError`, unless a ``damaged`` list is
        given: its ``(key, reason)`` is then appended there and the others are still returned."""
        rows = self._read("SELECT key, body FROM documents WHERE kind=? ORDER BY key", (_name(kind, "kind"),))
        out = []
        for key, body in rows:
            try:
                out.append((key, self._loads(body, f"document {kind}/{key}")))
            except DamagedEntryError as error:
                if damaged is None:
                    raise
                damaged.append((key, str(error)))
        return out

    def list(self, kind: str) -> list[str]:
        """Alias of :meth:`keys`."""
        return self.keys(kind)

    # -- log ---------------------------------------------------------------------------------

    def append(self, kind: str, record: Any, *, time: float | datetime) -> int:
        """Append a JSON record to the log of ``kind`` at ``time``; returns its id."""
        body = _dumps(record, f"log record {kind}")
        stamp = _timestamp(time, "time")
        with self._write():
            cursor = self._db.execute(
                "INSERT INTO log (kind, time, record) VALUES (?, ?, ?)", (_name(kind, "kind"), stamp, body)
            )
            row_id = cursor.lastrowid
            if row_id is None:  # sqlite3 sets it after every INSERT
                raise StorageError(f"the log of {kind!r} gave no id for the record just added")
            return row_id

    def records(
        self,
        kind: str,
        *,
        since: float | datetime | None = None,
        until: float | datetime | None = None,
        limit: int | None = None,
        newest_first: bool = False,
    ) -> builtins.list[LogEntry]:
        """Log records of ``kind`` with ``since <= time < until``, oldest first unless asked."""
        sql = "SELECT id, time, record FROM log WHERE kind=?"
        params: list[Any] = [_name(kind, "kind")]
        if since is not None:
            sql += " AND time >= ?"
            params.append(_timestamp(since, "since"))
        if until is not None:
            sql += " AND time < ?"
            params.append(_timestamp(until, "until"))
        sql += " ORDER BY time DESC, id DESC" if newest_first else " ORDER BY time, id"
        if limit is not None:
            if not isinstance(limit, int) or limit < 0:
                raise StorageError(f"limit {limit!r} must be a non-negative integer")
            sql += f" LIMIT {limit}"
        rows = self._read(sql, tuple(params))
        return [LogEntry(i, kind, t, self._loads(body, f"log record {kind}#{i}")) for i, t, body in rows]

    def count(self, kind: str) -> int:
        return self._read("SELECT COUNT(*) FROM log WHERE kind=?", (_name(kind, "kind"),))[0][0]

    def _loads(self, body: str, where: str) -> Any:
        try:
            return json.loads(body)
        except (ValueError, RecursionError):
            raise DamagedEntryError(f"{where} in {self._path} is not valid JSON: it was edited by hand or "
                                    "damaged; delete or reset that entry (the rest of the file is fine)") from None


def _check_existing(path: Path) -> None:
    """Refuse, without writing anything, a file we must not use."""
    try:
        with path.open("rb") as handle:
            header = handle.read(len(SQLITE_MAGIC))
    except OSError as error:
        raise StorageError(f"cannot read {path}: {error.strerror}; make it readable (chmod u+rw {path}), "
                           f"{ELSEWHERE}") from None
    if not header:
        return  # an empty file is an empty database: SQLite itself creates files this way
    if header != SQLITE_MAGIC:
        raise StorageError(
            f"{path} is not an Aluette database (not an SQLite file); it was left untouched. "
            f"Move it away, or choose another file with --db or {ENV_HOME}"
        )
    _probe(path)


@contextmanager
def _left_as_found(path: Path) -> Iterator[None]:
    """A read-only connection to a WAL database creates empty -wal/-shm files beside it; when the
    file is then refused, have SQLite remove the ones the checks made, so a refused file is left as
    found -- and never a -wal/-shm another connection is using (see :func:`_release_companions`)."""
    companions = [path.with_name(path.name + suffix) for suffix in ("-wal", "-shm")]
    existed = any(companion.exists() for companion in companions)
    try:
        yield
    except BaseException:
        if not existed and any(companion.exists() for companion in companions):
            _release_companions(path)
        raise


def _release_companions(path: Path) -> None:
    """Let SQLite itself delete a WAL database's -wal and -shm: a read-write connection that reads
    once and closes deletes them only when it is the file's last connection, which SQLite tells by
    its own locks (other processes' and this process's other connections alike).

    Deleting them by hand (as before) could remove another process's live -shm and -wal, opened
    while the check ran: its next commits would go to a file no one else can see, and be lost.
    Called only when neither existed before the check, so the close's checkpoint copies nothing
    that was there before: the database file is left byte for byte as found."""
    try:
        release = sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True, timeout=0)
    except sqlite3.Error:
        return
    try:
        release.execute("PRAGMA schema_version").fetchone()
    except sqlite3.Error:
        pass  # damaged or busy: what is beside it stays, which loses nothing
    finally:
        release.close()


def _probe(path: Path) -> None:
    try:
        probe = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_S)
    except sqlite3.Error as error:
        raise _fault(error, path, "checking it") from None
    try:
        # One read transaction for all the checks: another process may be creating this file right
        # now, and its schema, version and mark arrive in one commit. Read one statement at a time,
        # the mark could be read before that commit and the tables after it: a half-made file of
        # "another program" (seen on first starts of several processes under load).
        probe.execute("BEGIN")
        app_id = probe.execute("PRAGMA application_id").fetchone()[0]
        version = probe.execute("PRAGMA user_version").fetchone()[0]
        tables = {row[0] for row in probe.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        check = probe.execute("PRAGMA quick_check").fetchone()[0]
    except sqlite3.Error as error:
        name = error_name(error)
        if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_CANTOPEN", "SQLITE_READONLY", "SQLITE_IOERR")):
            if not os.access(path.parent, os.W_OK) and not path.with_name(path.name + "-shm").exists():
                raise StorageError(_read_only_folder(path)) from None
            raise _fault(error, path, "checking it") from None
        raise StorageError(
            f"{path} is damaged ({error}); it was left untouched. Move it away to start afresh "
            f"(or restore a backup), {ELSEWHERE}"
        ) from None
    finally:
        probe.close()
    if check != "ok":
        raise StorageError(
            f"{path} is damaged (integrity check: {check}); it was left untouched. Move it away to start "
            f"afresh (or restore a backup), or choose another file with --db or {ENV_HOME}"
        )
    if app_id != APPLICATION_ID and (tables or version):
        raise StorageError(
            f"{path} is an SQLite database of another program; it was left untouched. "
            f"Choose another file with --db or {ENV_HOME}"
        )
    if version > SCHEMA_VERSION:
        raise StorageError(_newer(path, version))


def _newer(path: Path, version: int) -> str:
    return (f"{path} was written by a newer Aluette trainer (schema {version}, this one knows up to "
            f"{SCHEMA_VERSION}); it was left untouched. Upgrade aluette-trainer (pip install -U "
            f"aluette-trainer), {ELSEWHERE}")


def _read_only_folder(path: Path) -> str:
    return (f"{path} is in a read-only folder ({path.parent}): SQLite must create {path.name}-wal and "
            f"{path.name}-shm beside it to write, so nothing can be saved. Make the folder writable "
            f"(chmod u+w {path.parent}), or move the file to a writable folder and use it from there, "
            f"{ELSEWHERE}")


def _read_only_disk(path: Path) -> bool:
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # no statvfs (Windows): os.access below still answers
        return False


def _check_writable(path: Path) -> None:
    """Refuse, before the first answer rather than at it, a file this user cannot write.

    ``os.access`` asks the kernel with the real user's rights (root passes; a read-only mount is
    then caught by SQLite itself and reported by :func:`_fault`)."""
    if _read_only_disk(path):
        raise StorageError(
            f"{path} is on a disk mounted read-only: answers could not be saved, so it was not opened "
            f"and was left untouched. Remount that disk read-write, or copy the file to a writable "
            f"folder and use the copy, {ELSEWHERE}")
    if not os.access(path, os.W_OK):
        raise StorageError(
            f"{path} is read-only for this user: answers could not be saved, so it was not opened and "
            f"was left untouched. Make it writable (chmod u+w {path}), {ELSEWHERE}")
    if not os.access(path.parent, os.W_OK):
        raise StorageError(_read_only_folder(path))
