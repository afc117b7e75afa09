"""SQLite made to fail on purpose, for the storage tests that run in this process: a real connection
that raises a chosen error at a chosen statement, and an error carrying SQLite's error name."""

from __future__ import annotations

import sqlite3
from pathlib import Path


class WrappedConnection:
    """A real SQLite connection seen through the few calls storage makes: subclasses step in on
    ``execute``."""

    def __init__(self, path: Path) -> None:
        self._real = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)

    def execute(self, sql: str, params: tuple = ()):
        return self._real.execute(sql, params)

    @property
    def in_transaction(self) -> bool:
        return self._real.in_transaction

    def close(self) -> None:
        self._real.close()


class FailingConnection(WrappedConnection):
    """A real SQLite connection that raises ``error`` on the first statement starting with ``fail_on``."""

    def __init__(self, path: Path, fail_on: str, error: sqlite3.Error) -> None:
        super().__init__(path)
        self._fail_on = fail_on
        self._error: sqlite3.Error | None = error

    def execute(self, sql: str, params: tuple = ()):
        if self._error is not None and sql.lstrip().upper().startswith(self._fail_on):
            error, self._error = self._error, None
            raise error
        return super().execute(sql, params)


def sqlite_error(name: str | None, text: str) -> sqlite3.Error:
    error = sqlite3.OperationalError(text)
    error.sqlite_errorname = name
    return error
