"""The server's own timing of what a click sets off, for measuring where a slow page spends its time.

When :data:`RUN_LOG_ENV` names a file, the server appends one JSON line per full page run (wall-clock
start and end, the page, how the run ended) and one per card played (its code and the wall-clock time
its click's callback ran: Streamlit runs a click's callback first, then the page script), each with
the browser session's tag. Nothing is written otherwise. ``trainer.lab.soak`` sets it and splits
each card click's time in three, all on the same machine's clock: the click reaching the server
(browser, network, the session's queue), the server's run, and the page's redraw (:func:`click_split`).

Fragment runs (the camera panel's, several a second) are not logged: they do not run the page script.
"""

from __future__ import annotations

import json
import os
import threading
import time
import uuid
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

RUN_LOG_ENV = "ALUETTE_RUN_LOG"
"""A file to which the server appends its run and card lines (unset: nothing is logged)."""

TAG_KEY = "run_log_tag"
"""Session-state key of the session's tag in the run log (set only while the log is on)."""

_write_lock = threading.Lock()


def enabled() -> bool:
    return bool(os.environ.get(RUN_LOG_ENV))


def session_tag(state: Any) -> str | None:
    """This browser session's tag in the log (made on first use), None while no log is asked for."""
    if not enabled():
        return None
    if TAG_KEY not in state:
        state[TAG_KEY] = uuid.uuid4().hex[:8]
    return str(state[TAG_KEY])


def note(kind: str, **fields: Any) -> None:
    """Append ``{"kind": kind, "t": now, **fields}`` to the run log, if one is asked for."""
    path = os.environ.get(RUN_LOG_ENV)
    if not path:
        return
    line = json.dumps({"kind": kind, "t": time.time(), **fields})
    with _write_lock, Path(path).open("a") as out:
        out.write(line + "\n")


@contextmanager
def full_run() -> Iterator[dict[str, Any]]:
    """Time the page script's run; the caller may set ``page`` in the yielded dict once known. The run
    is logged however it ends (a rerun or stop asked by the page raises through here)."""
    fields: dict[str, Any] = {"page": None}
    start = time.time()
    ended = "done"
    try:
        yield fields
    except BaseException as stop:
        ended = type(stop).__name__  # Streamlit's RerunException / StopException end a run early
        raise
    finally:
        note("run", start=start, end=time.time(), ended=ended, **fields)


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """A card line: the card's callback ran at ``t``, in that browser session."""

    session: str | None
    card: str
    t: float


@dataclass(frozen=True, slots=True)
class PageRun:
    """A run line: a full page run of that session, and how it ended ("done", or the exception)."""

    session: str | None
    start: float
    end: float
    ended: str
    page: str | None = None


@dataclass(frozen=True, slots=True)
class ClickSplit:
    """One card click's time, in seconds: reaching the server, the server's run, the page's redraw."""

    to_server: float
    server_run: float
    to_page: float


def read(path: Path) -> list[CardPlayed | PageRun]:
    """The log's lines in the order written (a line cut short by a stopped server is skipped)."""
    out: list[CardPlayed | PageRun] = []
    if not path.is_file():
        return out
    for text in path.read_text().splitlines():
        try:
            raw = json.loads(text)
        except json.JSONDecodeError:
            continue
        if raw.get("kind") == "card":
            out.append(CardPlayed(raw.get("session"), raw["card"], raw["t"]))
        elif raw.get("kind") == "run":
            out.append(PageRun(raw.get("session"), raw["start"], raw["end"], raw["ended"], raw.get("page")))
    return out


def click_split(lines: Iterable[CardPlayed | PageRun], card: str, clicked: float,
                answered: float) -> ClickSplit | None:
    """Split a card click made at wall time ``clicked`` and seen answered at ``answered``: the first
    card line for ``card`` between the two, and the same session's full runs that began after its
    callback up to the first that ended normally (a run the page restarts with ``st.rerun`` is not yet
    the answer). None when the server logged no such card or run."""
    lines = list(lines)
    played = next((x for x in lines if isinstance(x, CardPlayed) and x.card == card
                   and clicked <= x.t <= answered), None)
    if played is None:
        return None
    run = next((x for x in lines if isinstance(x, PageRun) and x.session == played.session
                and x.start >= played.t and x.ended == "done"), None)
    if run is None:
        return None
    return ClickSplit(to_server=played.t - clicked, server_run=run.end - played.t, to_page=max(0.0, answered - run.end))
