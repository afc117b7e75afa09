"""trainer.storage: documents and log round-trip, writes are atomic and durable, and files that
are not ours are refused with a clear error and left byte-for-byte untouched."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trainer.storage import (
    APPLICATION_ID,
    DB_NAME,
    SCHEMA_VERSION,
    StorageError,
    Store,
    default_path,
)


def test_default_path_follows_aluette_home(data_home: Path):
    assert default_path() == data_home / DB_NAME
    with Store.open() as store:
        store.put("settings", "language", "it")
    assert (data_home / DB_NAME).is_file()
    with Store.open() as store:
        assert store.get("settings", "language") == "it"
        assert store.schema_version == SCHEMA_VERSION


def test_documents_round_trip_across_reopen(tmp_path: Path):
    path = tmp_path / "a.sqlite3"
    value = {"name": "Élodie", "thresholds": [0.25, 0.5], "nested": {"ok": True, "none": None}}
    with Store.open(path) as store:
        store.put("calibration", "élodie", value, now=datetime(2026, 1, 2, tzinfo=timezone.utc))
        store.put("calibration", "bob", [1, 2, 3])
        store.put("settings", "x", 1)
        store.put("settings", "x", 2)  # replaces
        assert store.delete("calibration", "bob") is True
        assert store.delete("calibration", "bob") is False
    with Store.open(path) as store:
        assert store.get("calibration", "élodie") == value
        assert store.get("calibration", "bob", "gone") == "gone"
        assert store.keys("calibration") == ["élodie"]
        assert store.list("settings") == ["x"]
        assert store.items("settings") == [("x", 2)]


def test_log_is_ordered_by_the_time_passed_in(tmp_path: Path):
    with Store.open(tmp_path / "log.db") as store:
        ids = [store.append("attempt", {"n": n}, time=1000.0 - n) for n in range(5)]
        store.append("other", {"n": 99}, time=0.0)
        assert len(set(ids)) == 5
        assert [e.record["n"] for e in store.records("attempt")] == [4, 3, 2, 1, 0]
        assert [e.record["n"] for e in store.records("attempt", since=997.0, until=1000.0)] == [3, 2, 1]
        assert [e.record["n"] for e in store.records("attempt", newest_first=True, limit=2)] == [0, 1]
        assert store.count("attempt") == 5 and store.count("other") == 1
        with pytest.raises(StorageError, match="timezone"):
            store.append("attempt", {}, time=datetime(2026, 1, 1))


def test_a_failing_transaction_leaves_nothing(tmp_path: Path):
    with Store.open(tmp_path / "t.db") as store:
        store.put("quiz", "kept", 1)
        with pytest.raises(RuntimeError):
            with store.transaction():
                store.put("quiz", "kept", 2)
                store.put("quiz", "new", 3)
                store.append("review", {"x": 1}, time=1.0)
                raise RuntimeError("crash in the middle")
        assert store.get("quiz", "kept") == 1
        assert store.get("quiz", "new") is None
        assert store.count("review") == 0
        # a value that is not JSON fails before anything is written
        with pytest.raises(StorageError, match="JSON"):
            store.put("quiz", "bad", {"set": {1, 2}})
        with pytest.raises(StorageError, match="JSON"):
            store.put("quiz", "nan", float("nan"))
        assert store.keys("quiz") == ["kept"]


def test_threads_share_one_store(tmp_path: Path):
    with Store.open(tmp_path / "threads.db") as store:
        def work(n: int) -> None:
            for i in range(40):
                store.append("attempt", {"thread": n, "i": i}, time=float(i))
                store.put("per-thread", str(n), i)

        threads = [threading.Thread(target=work, args=(n,)) for n in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert store.count("attempt") == 240
        assert store.items("per-thread") == [(str(n), 39) for n in range(6)]


_WRITER = """
import sys
from trainer.storage import Store
store = Store.open(sys.argv[1])
i = 0
while True:
    store.put("doc", str(i), {"i": i})
    store.append("attempt", {"i": i}, time=float(i))
    print(i, flush=True)
    i += 1
"""


def test_killed_writer_loses_nothing_it_confirmed(tmp_path: Path):
    path = tmp_path / "killed.db"
    proc = subprocess.Popen([sys.executable, "-c", _WRITER, str(path)], stdout=subprocess.PIPE, text=True)
    confirmed = -1
    for line in proc.stdout:
        confirmed = int(line)
        if confirmed >= 30:
            break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    proc.stdout.close()
    with Store.open(path) as store:
        for i in range(confirmed + 1):
            assert store.get("doc", str(i)) == {"i": i}
        assert store.count("attempt") >= confirmed + 1
        # documents and log were written one after the other: at most one write ahead
        assert len(store.keys("doc")) - store.count("attempt") in (0, 1)


def _refused(path: Path, match: str) -> None:
    before = path.read_bytes()
    siblings = sorted(p.name for p in path.parent.iterdir())
    with pytest.raises(StorageError, match=match) as info:
        Store.open(path)
    assert str(path) in str(info.value)
    assert isinstance(info.value, ValueError)
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == siblings  # no -wal / -shm left behind


def test_garbage_bytes_are_refused_untouched(tmp_path: Path):
    path = tmp_path / "garbage.db"
    path.write_bytes(bytes(range(256)) * 40)
    _refused(path, "not an SQLite file")


def test_a_text_file_is_refused_untouched(tmp_path: Path):
    path = tmp_path / "notes.txt"
    path.write_text("my shopping list\n- bread\n", encoding="utf-8")
    _refused(path, "not an Aluette database")


def test_a_newer_schema_is_refused_untouched(tmp_path: Path):
    path = tmp_path / "future.db"
    with Store.open(path) as store:
        store.put("settings", "x", 1)
    raw = sqlite3.connect(path)
    raw.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    raw.execute("PRAGMA journal_mode=DELETE")  # a plain file, so the byte comparison is meaningful
    raw.close()
    _refused(path, "newer")


def test_another_programs_database_is_refused_untouched(tmp_path: Path):
    path = tmp_path / "other.db"
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE photos (id INTEGER, name TEXT)")
    raw.execute("INSERT INTO photos VALUES (1, 'cat')")
    raw.commit()
    raw.close()
    _refused(path, "another program")


def test_a_damaged_database_is_refused_untouched(tmp_path: Path):
    path = tmp_path / "damaged.db"
    with Store.open(path) as store:
        for i in range(300):
            store.put("doc", f"{i:04d}", {"text": "x" * 200})
    raw = sqlite3.connect(path)
    raw.execute("PRAGMA journal_mode=DELETE")
    raw.close()
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 6 * page
    data[2 * page: 5 * page] = b"\xa5" * (3 * page)  # keep the header, wreck the b-trees
    path.write_bytes(bytes(data))
    _refused(path, "damaged")


def test_a_closed_store_says_so(tmp_path: Path):
    store = Store.open(tmp_path / "closed.db")
    store.close()
    with pytest.raises(StorageError, match="closed"):
        store.get("settings", "x")
    with pytest.raises(StorageError, match="closed"):
        store.put("settings", "x", 1)


def test_a_folder_is_refused(tmp_path: Path):
    with pytest.raises(StorageError, match="folder"):
        Store.open(tmp_path)


def test_an_empty_file_becomes_a_database_and_is_marked_ours(tmp_path: Path):
    path = tmp_path / "empty.db"
    path.touch()
    with Store.open(path) as store:
        store.put("settings", "x", True)
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    raw.close()


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-2**53, 2**53) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.text(min_size=1, max_size=12), key=st.text(min_size=1, max_size=30), value=_json)
def test_any_json_value_round_trips(tmp_path: Path, kind: str, key: str, value):
    with Store.open(tmp_path / "prop.db") as store:
        store.put(kind, key, value)
        assert store.get(kind, key) == value
        assert key in store.keys(kind)
        entry_id = store.append(kind, value, time=1.5)
        assert [e.record for e in store.records(kind) if e.id == entry_id] == [value]
