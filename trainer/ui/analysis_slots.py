"""How many camera frames the server analyses at once, shared fairly by every browser session.

Each session's camera has its own analysis thread (``watcher.SignWatcher``), which on its own would
analyse every frame it can: one session costs the server about 0.8 of a core at 30 frames a second.
Eight sessions on a two-core machine then ask for more than six cores for recognition alone, and
the page scripts that answer a click wait behind them (the eight-session soak, docs/app.md). So the
server holds a fixed number of analysis *slots*, by default one fewer than its cores (at least one),
leaving a core for the pages and the browser of a user on the same laptop. A session waits for a
slot before each analysis and, having one, analyses its newest frame (frames that came meanwhile
are skipped, as they are when one session is slow).

The slots are handed out first come, first served: a session that releases a slot and asks again at
once queues behind the sessions already waiting, so each of N busy sessions gets one frame in N
(Python's ``Semaphore`` lets the releasing thread take the slot straight back). With a single session
nothing changes: it takes the free slot every time.
"""

from __future__ import annotations

import os
import sys
import threading
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager

SLOTS_ENV = "ALUETTE_ANALYSIS_SLOTS"
"""Environment variable: analysis slots of this server (a whole number ≥ 1; default: cores − 1)."""


class SlotsError(ValueError):
    """The slot count asked for is not a whole number of at least one."""


def default_slots(cores: int | None = None, env: dict[str, str] | None = None) -> int:
    """The server's slot count: ``ALUETTE_ANALYSIS_SLOTS`` if set, else one fewer than ``cores``
    (this machine's usable cores if None), at least one."""
    value = (os.environ if env is None else env).get(SLOTS_ENV, "").strip()
    if value:
        if not value.isdigit() or int(value) < 1:
            raise SlotsError(f"{SLOTS_ENV}={value!r}: give a whole number of analysis slots, 1 or more "
                             f"(or unset it for one fewer than the cores)")
        return int(value)
    if cores is None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, cores - 1)


class FairSlots:
    """A counting lock whose waiters are served in the order they asked."""

    def __init__(self, slots: int) -> None:
        if slots < 1:
            raise SlotsError(f"analysis slots: {slots}; at least one is needed")
        self.slots = slots
        self._free = slots
        self._line: deque[object] = deque()
        self._changed = threading.Condition()

    @contextmanager
    def held(self) -> Iterator[None]:
        """Hold one slot for the ``with`` block, waiting behind earlier askers if none is free."""
        ticket = object()
        with self._changed:
            self._line.append(ticket)
            self._changed.wait_for(lambda: self._free > 0 and self._line[0] is ticket)
            self._line.popleft()
            self._free -= 1
            self._changed.notify_all()  # a second free slot may now go to the next in the queue
        try:
            yield
        finally:
            with self._changed:
                self._free += 1
                self._changed.notify_all()

    @property
    def waiting(self) -> int:
        """Askers queued for a slot now."""
        with self._changed:
            return len(self._line)


_SERVER_SLOTS: FairSlots | None = None
_SERVER_LOCK = threading.Lock()


def server_slots() -> FairSlots:
    """The slots every session of this server shares (made on first use). A bad
    ``ALUETTE_ANALYSIS_SLOTS`` (``aluette app`` refuses it before starting; ``streamlit run`` does
    not) is said in the server's log and the default used: the pages keep their camera."""
    global _SERVER_SLOTS
    with _SERVER_LOCK:
        if _SERVER_SLOTS is None:
            try:
                count = default_slots()
            except SlotsError as error:
                print(f"aluette: {error}; using {default_slots(env={})}", file=sys.stderr)
                count = default_slots(env={})
            _SERVER_SLOTS = FairSlots(count)
        return _SERVER_SLOTS

