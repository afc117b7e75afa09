"""Try every storage fault on real files through the real CLI, and print the fault table.

    sudo .venv/bin/python -m trainer.lab.storage_faults > /tmp/faults.md   # (tests run as root in CI)

Each trial prepares a real database (a few quiz answers), breaks it the way a user's machine would
(read-only file or folder for a non-root user, a full disk on a tiny tmpfs, a lock held by another
process, damaged bytes, a newer schema, another program's file, one damaged item), runs
``aluette quiz`` on it and records the exit code, the message and the database file's sha256
before and after. Read-only cases run as ``nobody`` through ``setpriv`` (root may write anything);
the full disk and the read-only mount need root to mount a tmpfs and are skipped otherwise.

``tests/quiz/test_storage_faults.py`` runs the same trials and checks them.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

ALUETTE = str(Path(sys.executable).with_name("aluette"))
SETPRIV = shutil.which("setpriv")
NOBODY = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]


@dataclass(frozen=True, slots=True)
class Trial:
    fault: str
    command: str
    exit_code: int
    message: str
    before: str
    after: str
    siblings_before: tuple[str, ...]
    siblings_after: tuple[str, ...]
    path: Path

    @property
    def untouched(self) -> bool:
        return self.before == self.after and self.siblings_before == self.siblings_after


class Skipped(Exception):
    """The trial needs something this machine lacks (root, setpriv, mount)."""


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else "(absent)"


def _siblings(path: Path) -> tuple[str, ...]:
    return tuple(sorted(p.name for p in path.parent.iterdir()))


def _ids(user: str = "nobody") -> tuple[int, int]:
    import grp
    import pwd

    entry = pwd.getpwnam(user)
    try:
        gid = grp.getgrnam("nogroup").gr_gid
    except KeyError:
        gid = entry.pw_gid
    return entry.pw_uid, gid


def seed_database(path: Path, answers: int = 3) -> None:
    """A real database: ``answers`` quiz answers, closed cleanly (no -wal/-shm left)."""
    import random
    from datetime import datetime, timedelta, timezone

    from trainer.quiz.memory import Progress
    from trainer.quiz.questions import make_question
    from trainer.storage import Store

    rng = random.Random(7)
    start = datetime(2026, 11, 1, tzinfo=timezone.utc)
    with Store.open(path) as store:
        progress = Progress(store)
        for n in range(answers):
            progress.review(make_question("name:3D", rng), n % 2 == 0, seconds=3.0, now=start + timedelta(minutes=n))


@functools.cache
def _nobody_cannot_run_python() -> str:
    """Why the user nobody cannot start this interpreter ("" if it can)."""
    done = subprocess.run([*NOBODY, sys.executable, "-c", "pass"], capture_output=True, text=True, timeout=60)
    return "" if done.returncode == 0 else (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]


def quiz(path: Path, *extra: str, user: str | None = None, stdin: str = "1\n",
         env: dict[str, str] | None = None) -> tuple[list[str], subprocess.CompletedProcess]:
    command = [ALUETTE, "quiz", "--db", str(path), "--count", "1", "--seed", "1", "--language", "en", *extra]
    if user is not None:
        if SETPRIV is None:
            raise Skipped("setpriv is not installed")
        if os.geteuid() != 0:
            raise Skipped("switching to the user nobody needs root")
        refusal = _nobody_cannot_run_python()
        if refusal:
            raise Skipped(f"the user nobody cannot run this Python ({refusal}): its files are readable by "
                          f"their owner only (a pyenv under /root, say); use a system-wide Python")
        command = [*NOBODY, *command]
    done = subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})})
    return command, done


def _trial(fault: str, path: Path, run: Callable[[], tuple[list[str], subprocess.CompletedProcess]],
           prefix: tuple[str, ...] = ()) -> Trial:
    before, siblings = sha256(path), _siblings(path)
    command, done = run()
    shown = [*prefix, *(a if a != ALUETTE else "aluette" for a in command)]
    message = (done.stderr.strip() or done.stdout.strip()).splitlines()
    return Trial(fault, " ".join(shown), done.returncode, "\n".join(message[-3:]), before, sha256(path),
                 siblings, _siblings(path), path)


@contextmanager
def _workdir() -> Iterator[Path]:
    """A folder the user nobody can reach (pytest's own tmp folders are root-only)."""
    folder = Path(tempfile.mkdtemp(prefix="aluette-faults-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        for sub in folder.rglob("*"):
            if sub.is_dir():
                sub.chmod(0o755)
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def _tmpfs(folder: Path, size: str) -> Iterator[Path]:
    if os.geteuid() != 0:
        raise Skipped("mounting a tmpfs needs root")
    mount = folder / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    if done.returncode:
        raise Skipped(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def _give_to_nobody(*paths: Path) -> None:
    uid, gid = _ids()
    for p in paths:
        os.chown(p, uid, gid)


# -- the trials -------------------------------------------------------------------------------------

def _nobodys_database(folder: Path, name: str) -> tuple[Path, Path]:
    """(its folder, the file) of a seeded database in ``folder/name``, both owned by user nobody."""
    home = folder / name
    home.mkdir()
    path = home / "aluette.sqlite3"
    seed_database(path)
    _give_to_nobody(home, path)
    return home, path


def read_only_file(folder: Path) -> Trial:
    _, path = _nobodys_database(folder, "ro-file")
    path.chmod(0o444)
    return _trial("read-only file (user nobody)", path, lambda: quiz(path, user="nobody"))


def read_only_folder(folder: Path) -> Trial:
    home, path = _nobodys_database(folder, "ro-folder")
    home.chmod(0o555)
    return _trial("healthy file in a read-only folder (user nobody)", path, lambda: quiz(path, user="nobody"))


def read_only_mount(folder: Path) -> Trial:
    with _tmpfs(folder, "1m") as disk:
        path = disk / "aluette.sqlite3"
        seed_database(path)
        done = subprocess.run(["mount", "-o", "remount,ro", str(disk)], capture_output=True, text=True)
        if done.returncode:
            raise Skipped(f"cannot remount read-only: {done.stderr.strip()}")
        return _trial("read-only disk (tmpfs remounted ro, root)", path, lambda: quiz(path))


def full_disk(folder: Path) -> Trial:
    with _tmpfs(folder, "256k") as disk:
        path = disk / "aluette.sqlite3"
        seed_database(path)
        # Leave room for SQLite's 32 KiB shared-memory index, not for the answer's pages.
        filler = disk / "filler"
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o644)
        try:
            while os.write(fd, b"\0" * 4096):
                pass
        except OSError:
            pass
        finally:
            os.close(fd)
        free = shutil.disk_usage(disk).free
        os.truncate(filler, max(0, filler.stat().st_size - 40 * 1024 + free))
        trial = _trial("full disk (256 KiB tmpfs, root)", path, lambda: quiz(path))
        filler.unlink()
        return trial


def locked(folder: Path) -> Trial:
    path = folder / "locked.sqlite3"
    seed_database(path)
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sqlite3, sys, time\n"
         "db = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
         "db.execute('BEGIN EXCLUSIVE')\n"
         "print('locked', flush=True)\n"
         "time.sleep(120)\n", str(path)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        return _trial("locked by another process (BEGIN EXCLUSIVE held)", path,
                      lambda: quiz(path, env={"ALUETTE_BUSY_TIMEOUT": "3"}), ("ALUETTE_BUSY_TIMEOUT=3",))
    finally:
        holder.kill()
        holder.wait()


def damaged(folder: Path) -> Trial:
    from trainer.storage import Store

    path = folder / "damaged.sqlite3"
    with Store.open(path) as store:
        for i in range(300):
            store.put("doc", f"{i:04d}", {"text": "x" * 200})
    data = bytearray(path.read_bytes())
    data[2 * 4096: 5 * 4096] = b"\xa5" * (3 * 4096)
    path.write_bytes(bytes(data))
    return _trial("damaged file (pages 3-5 overwritten)", path, lambda: quiz(path))


def damaged_wal(folder: Path) -> Trial:
    """A database whose last writes sit in a -wal file that got damaged (a copy taken mid-write)."""
    path = folder / "walcopy.sqlite3"
    seed_database(path)
    data = bytearray(path.read_bytes())
    data[100:4096] = b"\x5a" * (4096 - 100)  # the first page's b-tree, past the header
    path.write_bytes(bytes(data))
    return _trial("damaged schema page (no -wal/-shm may be left behind)", path, lambda: quiz(path))


def newer_schema(folder: Path) -> Trial:
    from trainer.storage import SCHEMA_VERSION

    path = folder / "newer.sqlite3"
    seed_database(path)
    raw = sqlite3.connect(path)
    raw.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    raw.execute("PRAGMA journal_mode=DELETE")
    raw.close()
    return _trial("newer schema (user_version + 1)", path, lambda: quiz(path))


def not_ours(folder: Path) -> Trial:
    path = folder / "notes.sqlite3"
    path.write_text("my shopping list\n- bread\n", encoding="utf-8")
    return _trial("not a database (a text file)", path, lambda: quiz(path))


def another_program(folder: Path) -> Trial:
    path = folder / "photos.sqlite3"
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE photos (id INTEGER, name TEXT)")
    raw.commit()
    raw.close()
    return _trial("another program's SQLite file", path, lambda: quiz(path))


def damaged_item(folder: Path) -> Trial:
    path = folder / "item.sqlite3"
    seed_database(path)
    raw = sqlite3.connect(path)
    raw.execute("UPDATE documents SET body='{\"card\": ' WHERE kind='quiz.item' AND key='default/name:3D'")
    raw.commit()
    raw.close()
    return _trial("one damaged quiz item (invalid JSON)", path, lambda: quiz(path))


TRIALS: tuple[Callable[[Path], Trial], ...] = (
    read_only_file, read_only_folder, read_only_mount, full_disk, locked, damaged, damaged_wal,
    newer_schema, not_ours, another_program, damaged_item,
)


def run_all() -> Iterator[Trial | tuple[str, str]]:
    for trial in TRIALS:
        with _workdir() as folder:
            try:
                yield trial(folder)
            except Skipped as why:
                yield (trial.__name__, str(why))


def main(argv: list[str] | None = None) -> int:
    import argparse  # noqa: PLC0415

    parser = argparse.ArgumentParser(prog="python -m trainer.lab.storage_faults", description=__doc__.split("\n\n")[0])
    parser.parse_args(argv)
    print("| fault | command | exit | message (stderr) | sha256 before | sha256 after | left as found |")
    print("|---|---|---|---|---|---|---|")
    for result in run_all():
        if isinstance(result, tuple):
            print(f"| {result[0]} | skipped: {result[1]} | | | | | |")
            continue
        folder = str(result.path.parent)
        command = result.command.replace(folder, "DIR")
        message = result.message.replace(folder, "DIR").replace("|", "\\|").replace("\n", "<br>")
        print(f"| {result.fault} | `{command}` | {result.exit_code} | {message} | `{result.before[:16]}` | "
              f"`{result.after[:16]}` | {'yes' if result.untouched else 'NO'} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
