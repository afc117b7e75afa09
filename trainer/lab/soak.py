"""An evening at the table, measured: browser sessions playing Aluette on Play with the camera on,
for a long time, on one app server; every minute the frames analysed per second, the server's memory
(RSS) and the page's response to a click.

    python -m trainer.lab.soak --sessions 1 --minutes 60 --out data/soak/one_session_60min
    python -m trainer.lab.soak --sessions 8 --minutes 10 --out data/soak/eight_sessions_10min

Starts the app like ``aluette app`` (``trainer.ui.launch.serve_app``: headless, localhost, a
temporary data folder, the server's output in a log file) and one Debian Chromium whose fake camera
plays a real clip from ``../shared/gestures`` (a man opening his mouth once a loop:
``trainer.ui.fakecam.make_signing_clip``, written to the temporary folder, never kept). Each session
is its own browser context (its own cookies, so its own Streamlit session, game and camera stream):
it switches the camera on, presses START once, opens Play, starts a new game and then plays: a card
whenever one is playable, "Next trick" / "Next deal" on a pause, the first of Pass / No chant /
Refuse on a question, "New game" when a game is over. The camera's signs go to the partner by
themselves (the clip's mouth opening is *un as*).

What is measured, per minute:

* **frames analysed per second**: the figure the Play page's camera line shows, read every few
  seconds from each session (median and minimum over the minute);
* **server RSS**: the resident memory of the Streamlit process and its children (``/proc``), at
  the minute's end;
* **click to page update**: wall time from a click on a card to the page no longer showing that card
  in the hand (the page's answer to the click); clicks on other buttons are timed to the first change
  of the page's buttons and banners, listed apart. The driver's figure includes its own round trips
  to the browser (Playwright waits for the button to be stable and polls the page), which a busy
  browser makes long; each card click is also timed **inside the page** (:data:`ARM_CLICK_JS`: the
  click event, when the click reaches the page, to the first change of the page without the card),
  which is what the person at that page waits;
* **frames waiting**: the most frames seen waiting in each of the server's frame queues (the server
  logs them every 2 s when ``ALUETTE_QUEUE_LOG`` names a file; ``--unbounded`` is the control run
  with the queues as they were before the frame-queue fix);
* **errors**: exception lines in the server log, error boxes of Streamlit on any page, and clicks the
  page never answered (30 s; a screenshot of the page is kept in $TMPDIR/soak-NAME, not in docs/:
  the fake camera shows a real person).

Printed as it goes, one line a minute; written as JSON (``OUT.json``: settings, every minute, each
session's totals) after every minute, so a stopped run keeps what it measured, and a plot
(``OUT.png``) at the end (run data stays in data/soak/; a plot quoted by the docs is moved to
docs/soak/). Run it niced on a shared machine: ``nice -n 10 python -m trainer.lab.soak``. The browsers
it starts are kept at its own priority (Chromium raises its own otherwise, above the niced server:
:class:`PriorityLeveller`; ``--browsers-own-priority`` is the control).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from trainer.ui import run_log
from trainer.ui.camera import QUEUE_LOG_ENV, UNBOUNDED_ENV
from trainer.ui.launch import CHROMIUM, REPO_ROOT, chromium_args, serve_app

SERVER_ERROR = re.compile(r"Traceback|Exception in|^\w*Error:")
"""A server log line that shows an exception (MediaPipe's W0000/I0000 chatter aside)."""
FPS = re.compile(r"(\d+) frames/s analysed")
CLICK_TIMEOUT_S = 30.0
"""A click the page has not answered in this time counts as an error."""
FPS_EVERY_S = 5.0
"""How often each session's frames-analysed figure is read."""
PREFERRED_ANSWERS = ("Pass", "No chant", "Refuse")
"""The questions the engine asks the person are answered with the first of these offered."""

ENABLED_CARDS_JS = """els => els.filter(e => e.offsetParent !== null).filter(e => {
  // The hand's containers (st-key-card_XX) whose Play/Discard button is enabled: their key classes.
  const b = [...e.querySelectorAll('button')].find(x => /^(Play|Discard)$/.test(x.innerText.trim()));
  return b && !b.disabled;
}).map(e => [...e.classList].find(c => c.startsWith('st-key-card_')))"""
_SHOWN_BODY = """
  // Whether the hand still shows that card with an enabled button (an element Streamlit keeps in the
  // page hidden after a rerun is not shown).
  const el = [...document.querySelectorAll('.' + key)].find(e => e.offsetParent !== null);
  if (!el) return false;
  const b = [...el.querySelectorAll('button')].find(x => /^(Play|Discard)$/.test(x.innerText.trim()));
  return !!b && !b.disabled;"""
SHOWN_JS = "(key) => {" + _SHOWN_BODY + "\n}"
ARM_CLICK_JS = """(key) => {
  // Times the next click on that card inside the page, as its player sees it: from the click event
  // (the moment the click reaches the page; the driver's own round trips to a busy browser come
  // before it) to the first change of the page after which the card is no longer shown enabled.
  const shown = () => {""" + _SHOWN_BODY + """
  };
  const watch = {clicked: null, answered: null};
  window.__aluetteClick = watch;
  const observer = new MutationObserver(() => {
    if (watch.answered === null && !shown()) { watch.answered = performance.now(); observer.disconnect(); }
  });
  const onClick = (event) => {
    if (!event.target.closest('.' + key)) return;
    watch.clicked = event.timeStamp;  // the same clock as performance.now()
    document.removeEventListener('click', onClick, true);
    observer.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
  };
  document.addEventListener('click', onClick, true);
}"""
CLICK_TIMED_JS = """() => {
  const watch = window.__aluetteClick;
  return watch && watch.clicked !== null && watch.answered !== null ? (watch.answered - watch.clicked) / 1000 : null;
}"""
SIGNATURE_JS = """() => {
  // What a click changes on Play: the buttons (label, enabled) and the banners, without the camera
  // panel's lines, which change by themselves several times a second.
  const skip = /frames\\/s|Camera|received by your partner|not sent/;
  const parts = [];
  for (const b of document.querySelectorAll('[data-testid="stMain"] button'))
    parts.push(b.innerText + (b.disabled ? '-' : '+'));
  for (const a of document.querySelectorAll('[data-testid="stMain"] [data-testid="stAlert"]'))
    if (!skip.test(a.innerText)) parts.push(a.innerText);
  return parts.join('|');
}"""


@dataclass
class SessionTotals:
    """One browser session over the whole run."""

    index: int
    card_clicks: int = 0
    other_clicks: int = 0
    games_started: int = 1
    unanswered_clicks: int = 0
    page_errors: int = 0
    page_error_texts: list[str] = field(default_factory=list)
    """What each error box said (its first 300 characters), to find the cause without the screenshot."""
    redrawn_queries: int = 0
    fps_samples: list[int] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        out = asdict(self)
        samples = out.pop("fps_samples")
        out["fps_median"] = statistics.median(samples) if samples else None
        out["fps_samples"] = len(samples)
        return out


@dataclass(frozen=True, slots=True)
class Minute:
    """What one minute of the run measured (all sessions together)."""

    minute: int
    sessions: int
    fps_median: float | None
    fps_min: int | None
    rss_mb: float
    click_median_s: float | None
    click_p90_s: float | None
    click_max_s: float | None
    card_clicks: int
    click_page_median_s: float | None
    """The card clicks timed inside the page: the click event to the page's change (no driver round trip)."""
    click_page_p90_s: float | None
    click_to_server_median_s: float | None
    """The card clicks split by the server's run log (:func:`trainer.ui.run_log.click_split`): the
    click to the server starting its run (the browser sending it, the session's queue) ..."""
    click_server_run_median_s: float | None
    """... the server's run (the click's callback and the page script) ..."""
    click_to_page_median_s: float | None
    """... and the end of the run to the driver seeing the page changed (sending, the page's redraw)."""
    other_click_median_s: float | None
    other_clicks: int
    server_errors: int
    """Exception lines in the server log so far (cumulative)."""
    frames_waiting: dict[str, int]
    """The most frames seen waiting in each of the server's frame queues this minute (over every
    connection; the server logs them every 2 s: ``trainer.ui.camera.QUEUE_LOG_ENV``)."""
    page_errors: int
    """Streamlit error boxes seen and clicks never answered, this minute."""
    load1: float
    server_cores: float | None = None
    """Cores the server used on average this minute (its processor seconds over the minute's wall time)."""
    browser_cores: float | None = None
    """Cores used by the rest of the run: Chromium with its pages and fake cameras, Playwright."""


@dataclass(frozen=True, slots=True)
class Taken:
    """What one session measured in a minute (:meth:`Session.take_minute`)."""

    cards: list[float]
    cards_in_page: list[float]
    card_walls: list[tuple[str, float, float]]
    others: list[float]
    fps: list[int]
    errors: int


STARVE_PERIOD_S = 0.2
"""The cycle of ``--starve``: the server is stopped for its fraction of every such period."""


class Starver:
    """Starves the app server of processor time without loading the machine: its process group is
    stopped (SIGSTOP) for ``fraction`` of every :data:`STARVE_PERIOD_S` and continued for the rest.
    The browser keeps sending 30 frames a second meanwhile (the kernel holds the packets of a 0.1 s
    stop), so the server has ``1 - fraction`` of the wall time to do a second's work, like a server
    that gets that share of a loaded machine, reproducibly. ``with Starver(pgid, 0)`` does nothing."""

    def __init__(self, pgid: int, fraction: float) -> None:
        self.pgid = pgid
        self.fraction = fraction
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._cycle, name="soak-starver", daemon=True)

    def __enter__(self) -> Starver:
        if self.fraction > 0:
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
        self._signal(signal.SIGCONT)  # never leave the server stopped, whatever happened

    def _signal(self, sig: int) -> None:
        try:
            os.killpg(self.pgid, sig)
        except ProcessLookupError:
            pass

    def _cycle(self) -> None:
        while not self._stop.is_set():
            self._signal(signal.SIGSTOP)
            time.sleep(STARVE_PERIOD_S * self.fraction)
            self._signal(signal.SIGCONT)
            self._stop.wait(STARVE_PERIOD_S * (1.0 - self.fraction))


def process_tree(pid: int) -> list[int]:
    """``pid`` and all its descendants (Linux ``/proc``; processes gone meanwhile are left out)."""
    out, todo, seen = [], [pid], set()
    while todo:
        current = todo.pop()
        if current in seen or not Path(f"/proc/{current}").is_dir():
            continue
        seen.add(current)
        out.append(current)
        for task in Path(f"/proc/{current}/task").glob("*/children"):
            try:
                todo.extend(int(c) for c in task.read_text().split())
            except OSError:
                pass
    return out


def process_rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` and all its descendants, in MB."""
    total = 0
    for current in process_tree(pid):
        try:
            status = Path(f"/proc/{current}/status").read_text()
        except OSError:
            continue
        match = re.search(r"^VmRSS:\s+(\d+) kB", status, re.M)
        total += int(match.group(1)) if match else 0
    return total / 1024.0


def process_cpu_s(pid: int) -> float:
    """Processor seconds used so far by ``pid`` and its descendants, every thread counted. Children
    that ended and were reaped stay counted through their parent's ``cutime``/``cstime``: a browser
    page that closes must not take its seconds out of the running total (a negative minute)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for current in process_tree(pid):
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        # utime, stime, cutime, cstime: fields 14-17 of stat (the list starts at field 3).
        total += sum(int(value) for value in fields[11:15])
    return total / tick


def thread_ids(pid: int) -> list[int]:
    """The thread ids of ``pid`` (``/proc/PID/task``; none if it is gone)."""
    try:
        return [int(task.name) for task in Path(f"/proc/{pid}/task").iterdir()]
    except (OSError, ValueError):
        return []


def level_priority(root: int, server: int, nice: int) -> int:
    """Lower to ``nice`` every thread below ``root`` outside the server's tree that runs at a higher
    priority (a smaller nice); the count changed. Chromium sets its own processes' priorities
    (browser and GPU at -8 when run as root, pages at 0 or 5), whatever the soak was started with:
    under ``nice -n 10`` the eight pages' renderers would each outweigh the server about tenfold,
    and the run would measure the test's browsers' precedence rather than the server."""
    server_tree = set(process_tree(server))
    changed = 0
    for pid in process_tree(root):
        if pid in server_tree or pid == root:
            continue
        for tid in thread_ids(pid):
            try:
                if os.getpriority(os.PRIO_PROCESS, tid) < nice:
                    os.setpriority(os.PRIO_PROCESS, tid, nice)
                    changed += 1
            except OSError:  # the thread ended meanwhile
                pass
    return changed


class PriorityLeveller:
    """Keeps the browsers at the server's priority for the ``with`` block, or ``below`` nice steps
    under it (:func:`level_priority` every ``period`` seconds: Chromium changes a page's priority
    when it is shown or hidden)."""

    def __init__(self, server: int, *, enabled: bool = True, below: int = 0, period: float = 2.0) -> None:
        self.server = server
        self.enabled = enabled
        self.period = period
        self.nice = min(19, os.getpriority(os.PRIO_PROCESS, 0) + below)
        self.changed = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="soak-priority", daemon=True)

    def _loop(self) -> None:
        while not self._stop.is_set():
            self.changed += level_priority(os.getpid(), self.server, self.nice)
            self._stop.wait(self.period)

    def __enter__(self) -> PriorityLeveller:
        if self.enabled:
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=10)


class CpuShare:
    """Cores used a minute by the server, and by everything else this run started (Chromium and its
    fake cameras, Playwright): with the browsers on the same machine, how much of it they take."""

    def __init__(self, server: int) -> None:
        self.server = server
        self._last = self._now()

    def _now(self) -> tuple[float, float, float]:
        server = process_cpu_s(self.server)
        return time.monotonic(), server, process_cpu_s(os.getpid()) - server

    def take(self) -> tuple[float, float]:
        """(server cores, browser cores) since the last call."""
        now = self._now()
        wall = max(1e-6, now[0] - self._last[0])
        cores = ((now[1] - self._last[1]) / wall, (now[2] - self._last[2]) / wall)
        self._last = now
        return round(cores[0], 2), round(cores[1], 2)


class QueueLog:
    """Reads the server's frame-queue log (JSON lines) a minute at a time."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0

    def take(self) -> dict[str, int]:
        """The most frames waiting per queue in the lines written since the last call."""
        if not self.path.is_file():
            return {}
        with self.path.open() as log:
            log.seek(self.offset)
            lines = log.readlines()
            self.offset = log.tell()
        most: dict[str, int] = {}
        for line in lines:
            try:
                workers = json.loads(line)["workers"]
            except (ValueError, KeyError):
                continue  # a line being written
            for depths in workers:
                for name, count in depths.items():
                    most[name] = max(most.get(name, 0), count)
        return most


def server_exceptions(text: str, *, frames: int = 4, most: int = 20) -> list[str]:
    """The server log's tracebacks, each as one text: its last ``frames`` stack lines and the
    exception line (what failed, where), at most ``most`` of them. The bare "Traceback" lines the
    soak kept before told nothing of the cause once the run's log was gone."""
    reports: list[str] = []
    block: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("Traceback"):
            block = []
        elif block is not None:
            if line.startswith((" ", "\t")):
                block.append(line.strip())
            elif line.strip():  # the exception line ends the traceback
                reports.append(" | ".join([*block[-2 * frames:], line.strip()]))
                block = None
    return reports[:most]


def server_error_count(log: Path) -> int:
    if not log.is_file():
        return 0
    return sum(1 for line in log.read_text(errors="replace").splitlines() if SERVER_ERROR.search(line))


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


SETUP_TRIES = 3
SETUP_WAIT_MS = 90_000


def _click_until(target: Any, shown: Any) -> None:
    """Click ``target`` until ``shown`` is visible, :data:`SETUP_TRIES` times at most. On a loaded
    machine a click during a rerun can be lost (the 8-session attempt of 2026-12-04 waited 3 minutes
    on one Play link); a second click on a link or on "New game" does no harm once the first took."""
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import expect

    for attempt in range(1, SETUP_TRIES + 1):
        try:
            if not shown.is_visible():
                target.click(timeout=SETUP_WAIT_MS)
            expect(shown).to_be_visible(timeout=SETUP_WAIT_MS)
            return
        except (AssertionError, PlaywrightError):
            if attempt == SETUP_TRIES:
                raise
            print(f"  set-up: {shown} not shown after a click; clicking again", flush=True)


class Session:
    """One browser session playing on Play; :meth:`step` makes at most one click."""

    def __init__(self, page: Any, index: int, evidence: Path | None = None) -> None:
        self.page = page
        self.evidence = evidence
        self.totals = SessionTotals(index)
        self.next_fps_at = 0.0
        self.card_latencies: list[float] = []
        self.card_page_latencies: list[float] = []
        """The same clicks timed inside the page (:data:`ARM_CLICK_JS`)."""
        self.card_walls: list[tuple[str, float, float]] = []
        """Each answered card click: the card's code, wall time of the click and of its answer (for
        the server's run log: :func:`trainer.ui.run_log.click_split`)."""
        self.other_latencies: list[float] = []
        self.fps: list[int] = []
        self.errors = 0

    # -- setup ----------------------------------------------------------------------------------

    def open(self, url: str, *, camera: bool = True) -> None:
        """Practice, camera on, START once (unless ``camera`` is False), then Play with a new game."""
        self.begin(url, camera=camera)
        self.to_play(camera=camera)

    def begin(self, url: str, *, camera: bool = True) -> None:
        """Open Practice; switch the camera on and press START (without waiting for the stream, so
        that many sessions connect at once)."""
        from playwright.sync_api import expect

        page = self.page
        page.goto(url, wait_until="domcontentloaded", timeout=300_000)  # 8 sessions starting at once wait long
        expect(page.get_by_role("heading", name="Practice the signs")).to_be_visible(timeout=180_000)
        if camera:
            page.get_by_text("Camera on", exact=True).click()
            expect(page.get_by_text("Mode: live camera.")).to_be_visible(timeout=180_000)
            widget = page.frame_locator('[data-testid="stSidebar"] iframe[title*="webrtc"]')
            widget.get_by_role("button", name=re.compile("^start$", re.I)).click(timeout=180_000)

    def to_play(self, *, camera: bool = True) -> None:
        """Wait for an analysed frame (camera on), then open Play and start a new game."""
        from playwright.sync_api import expect

        page = self.page
        if camera:
            expect(page.get_by_text(FPS).first).to_be_visible(timeout=300_000)
        _click_until(page.get_by_role("link", name=re.compile(r"\bPlay$")).first,
                     page.get_by_role("heading", name="Play Aluette").first)
        _click_until(page.locator(".st-key-play_new button"), page.get_by_text("Your hand").first)

    # -- one step -------------------------------------------------------------------------------

    def sample_fps(self, now: float) -> None:
        if now < self.next_fps_at:
            return
        self.next_fps_at = now + FPS_EVERY_S
        line = self.page.get_by_text(FPS).first
        try:
            if line.count():
                match = FPS.search(line.inner_text(timeout=2_000))
                if match:
                    self.fps.append(int(match.group(1)))
                    self.totals.fps_samples.append(int(match.group(1)))
        except Exception:  # the fragment redrew the line under the read: the next read will do
            pass

    def _signature(self) -> str:
        return self.page.evaluate(SIGNATURE_JS)

    def _wait(self, done, what: str) -> float | None:
        """Poll ``done()`` until it holds; the seconds it took, None (an error) after the timeout."""
        start = time.monotonic()
        while time.monotonic() - start < CLICK_TIMEOUT_S:
            try:
                if done():
                    return time.monotonic() - start
            except Exception:  # the page redrew between two queries: ask again
                pass
            time.sleep(0.02)
        print(f"  session {self.totals.index}: {what} not answered in {CLICK_TIMEOUT_S:.0f} s", flush=True)
        self.totals.unanswered_clicks += 1
        if self.evidence is not None:  # what the page showed instead (the video shows a real person: not for docs/)
            self.evidence.mkdir(parents=True, exist_ok=True)
            shot = self.evidence / f"s{self.totals.index}-unanswered{self.totals.unanswered_clicks}.png"
            try:
                self.page.screenshot(path=str(shot), full_page=True)
            except Exception:
                pass
        self.errors += 1
        return None

    def step(self) -> bool:
        """One click if the page offers one; False when there was nothing to click (bots playing).
        A query the page redrew under (an element gone between two calls) is not an error of the
        app: the step is over and the next one looks again."""
        from playwright.sync_api import Error as PlaywrightError

        try:
            return self._step()
        except PlaywrightError as error:
            self.totals.redrawn_queries += 1
            print(f"  session {self.totals.index}: page redrawn under a query ({str(error).splitlines()[0][:120]})",
                  flush=True)
            return True

    def _step(self) -> bool:
        page = self.page
        boxes = page.locator('[data-testid="stException"]')
        if boxes.count():
            self.totals.page_errors += 1
            self.errors += 1
            text = " ".join(boxes.first.inner_text(timeout=5_000).split())[:300]
            self.totals.page_error_texts.append(text)
            print(f"  session {self.totals.index}: error box: {text}", flush=True)
            page.reload(wait_until="domcontentloaded")
            return True
        new_game = page.locator(".st-key-play_new_after button")
        if new_game.count():
            before = self._signature()
            new_game.first.click(timeout=10_000)
            took = self._wait(lambda: self._signature() != before and not new_game.count(), "New game")
            if took is not None:
                self.other_latencies.append(took)
                self.totals.other_clicks += 1
                self.totals.games_started += 1
            return True
        cards = page.locator('[class*="st-key-card_"]')
        enabled = cards.evaluate_all(ENABLED_CARDS_JS)
        if enabled:
            self._click_card(enabled[-1])
            return True
        nxt = page.locator(".st-key-play_next button")
        answers = [page.locator('[class*="st-key-decide_"] button').filter(has_text=re.compile(f"^{label}$"))
                   for label in PREFERRED_ANSWERS]
        for label, button in (("Next trick/deal", nxt), *zip(PREFERRED_ANSWERS, answers, strict=True)):
            if button.count() and button.first.is_enabled():
                before = self._signature()
                started = time.monotonic()
                try:
                    button.first.click(timeout=5_000)
                except Exception:
                    return True
                took = self._wait(lambda before=before: self._signature() != before, label)
                if took is not None:
                    self.other_latencies.append(time.monotonic() - started)
                    self.totals.other_clicks += 1
                return True
        return False

    def _click_card(self, key: str) -> None:
        """Click that card (its container's key class) and time the page's answer three ways: by the
        driver, inside the page, and (at the minute's end) against the server's run log."""
        page = self.page
        card = page.locator(f".{key}")
        page.evaluate(ARM_CLICK_JS, key)
        started = time.monotonic()
        clicked_wall = time.time()
        try:
            card.get_by_role("button", name=re.compile(r"^(Play|Discard)$")).first.click(timeout=5_000)
        except Exception as error:  # redrawn under the click (it became disabled): look again
            print(f"  session {self.totals.index}: click on {key} not made: {str(error).splitlines()[0]}",
                  flush=True)
            return
        # Answered when the hand no longer shows that card with an enabled button: it left the
        # hand, or (the deal's last card) the next deal's hand holds the same card, its button off.
        code = key[len("st-key-card_"):]
        took = self._wait(lambda: not page.evaluate(SHOWN_JS, key), f"the card {code}")
        if took is not None:
            self.card_latencies.append(time.monotonic() - started)
            self.card_walls.append((code, clicked_wall, time.time()))
            self.totals.card_clicks += 1
            in_page = page.evaluate(CLICK_TIMED_JS)
            if in_page is not None:
                self.card_page_latencies.append(float(in_page))

    def take_minute(self) -> Taken:
        out = Taken(self.card_latencies, self.card_page_latencies, self.card_walls, self.other_latencies,
                    self.fps, self.errors)
        self.card_latencies, self.card_page_latencies, self.card_walls, self.other_latencies = [], [], [], []
        self.fps, self.errors = [], 0
        return out


def run(*, sessions: int, minutes: float, out: Path, shared: Path, camera: bool = True,
        clicks: bool = True, unbounded: bool = False, starve: float = 0.0,
        browsers_own_priority: bool = False, browsers_below: int = 0) -> dict[str, Any]:
    """The whole run; returns (and writes to ``out``.json) what it measured. ``unbounded``: a control,
    the server's frame queues left unbounded as before the frame-queue fix; ``starve``: the fraction of
    the time the server is kept stopped once the sessions play (:class:`Starver`);
    ``browsers_own_priority``: a control, the browsers left at the priorities Chromium gives itself
    instead of the server's (:class:`PriorityLeveller`); ``browsers_below``: nice steps the browsers
    are kept under the server (the browsers of users on other machines, as far as one machine can)."""
    from playwright.sync_api import sync_playwright

    from trainer.ui.fakecam import make_signing_clip

    if not CHROMIUM.is_file():
        raise SystemExit(f"Debian chromium not found at {CHROMIUM}: apt-get install chromium")
    out.parent.mkdir(parents=True, exist_ok=True)
    record: dict[str, Any] = {
        "command": "python -m trainer.lab.soak " + " ".join(sys.argv[1:]),
        "sessions": sessions, "minutes": minutes, "cores": os.cpu_count(), "camera": camera, "clicks": clicks,
        "unbounded_frame_queues": unbounded, "starved_fraction": starve,
        "browsers_at_server_priority": not browsers_own_priority and not browsers_below,
        "browsers_nice_steps_below_server": 0 if browsers_own_priority else browsers_below,
        "started_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "minute_rows": [], "session_totals": [],
    }
    with tempfile.TemporaryDirectory(prefix="aluette-soak-") as folder:
        home = Path(folder) / "home"
        log = Path(folder) / "server.log"
        clip, loop = make_signing_clip(shared / "gestures", Path(folder) / "signing.y4m")
        record["clip_loop_s"] = round(loop, 2)
        queues = QueueLog(Path(folder) / "queues.jsonl")
        os.environ[QUEUE_LOG_ENV] = str(queues.path)  # the server inherits the soak's environment
        runs = Path(folder) / "runs.jsonl"
        os.environ[run_log.RUN_LOG_ENV] = str(runs)
        if unbounded:
            os.environ[UNBOUNDED_ENV] = "1"
        with (serve_app(home=home, log=log) as app, sync_playwright() as playwright,
              PriorityLeveller(app.process.pid, enabled=not browsers_own_priority,
                               below=browsers_below) as leveller):
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                                 args=chromium_args(clip))
            drivers = _open_sessions(browser, app, sessions, camera=camera, evidence=f"soak-{out.name}")
            cpu = CpuShare(app.process.pid)
            with Starver(app.process.pid, starve):
                _play(drivers, minutes, clicks=clicks, on_minute=lambda minute: _record_minute(
                    record, out, _close_minute(minute, drivers, app.process.pid, log, queues, cpu, runs), drivers))
            text = log.read_text(errors="replace")
            record["server_log_errors"] = [line for line in text.splitlines() if SERVER_ERROR.search(line)][:50]
            record["server_exceptions"] = server_exceptions(text)
            browser.close()
            record["browser_threads_lowered"] = leveller.changed
    record["ended_utc"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    record["verdict"] = verdict(record)
    _write(out, record)
    plot(record, out.with_suffix(".png"))
    return record


def _open_sessions(browser: Any, app: Any, sessions: int, *, camera: bool, evidence: str) -> list[Session]:
    """Every session connects its camera, then each goes to Play (so that many connect at once)."""
    drivers: list[Session] = []
    for i in range(sessions):
        context = browser.new_context(viewport={"width": 1400, "height": 1100})
        driver = Session(context.new_page(), i, evidence=Path(tempfile.gettempdir()) / evidence)
        driver.begin(app.url, camera=camera)
        drivers.append(driver)
    for driver in drivers:
        driver.to_play(camera=camera)
        print(f"session {driver.totals.index} playing (server RSS {process_rss_mb(app.process.pid):.0f} MB)",
              flush=True)
    return drivers


def _play(drivers: list[Session], minutes: float, *, clicks: bool, on_minute: Any) -> None:
    """The sessions take turns to click (one click at a time over all of them), each reading its
    frames-analysed figure every few seconds; ``on_minute(minute)`` at the end of each minute."""
    minute_end = time.monotonic() + 60.0
    minute = 1
    turn = 0
    while minute <= minutes:
        now = time.monotonic()
        for driver in drivers:
            driver.sample_fps(now)
        clicked = drivers[turn % len(drivers)].step() if clicks else False
        turn += 1
        if not clicked:
            time.sleep(0.1)
        if time.monotonic() < minute_end:
            continue
        on_minute(minute)
        minute += 1
        minute_end += 60.0


def _record_minute(record: dict[str, Any], out: Path, row: Minute, drivers: list[Session]) -> None:
    record["minute_rows"].append(asdict(row))
    record["session_totals"] = [d.totals.summary() for d in drivers]
    _print_minute(row)
    _write(out, record)


def _close_minute(minute: int, drivers: list[Session], pid: int, log: Path, queues: QueueLog,
                  cpu: CpuShare, runs: Path) -> Minute:
    taken = [driver.take_minute() for driver in drivers]
    cards = [x for t in taken for x in t.cards]
    in_page = [x for t in taken for x in t.cards_in_page]
    others = [x for t in taken for x in t.others]
    fps = [x for t in taken for x in t.fps]
    errors = sum(t.errors for t in taken)
    lines = run_log.read(runs)
    splits = [split for t in taken for card, clicked, answered in t.card_walls
              if (split := run_log.click_split(lines, card, clicked, answered)) is not None]
    server_cores, browser_cores = cpu.take()
    return Minute(
        minute=minute, sessions=len(drivers),
        fps_median=statistics.median(fps) if fps else None, fps_min=min(fps) if fps else None,
        rss_mb=round(process_rss_mb(pid), 1),
        click_median_s=_median_of(cards),
        click_p90_s=_round(percentile(cards, 0.9)), click_max_s=_round(max(cards) if cards else None),
        card_clicks=len(cards),
        click_page_median_s=_median_of(in_page),
        click_page_p90_s=_round(percentile(in_page, 0.9)),
        click_to_server_median_s=_median_of([s.to_server for s in splits]),
        click_server_run_median_s=_median_of([s.server_run for s in splits]),
        click_to_page_median_s=_median_of([s.to_page for s in splits]),
        other_click_median_s=_median_of(others), other_clicks=len(others),
        server_errors=server_error_count(log), frames_waiting=queues.take(), page_errors=errors,
        load1=round(os.getloadavg()[0], 2), server_cores=server_cores, browser_cores=browser_cores,
    )


def _median_of(values: list[float]) -> float | None:
    return _round(statistics.median(values)) if values else None


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def _print_minute(row: Minute) -> None:
    def s(value, unit="s"):
        return "—" if value is None else f"{value:.2f} {unit}"

    print(f"min {row.minute:3d}: frames analysed/s median {row.fps_median} (min {row.fps_min}) · "
          f"server RSS {row.rss_mb:.0f} MB · card click → update median {s(row.click_median_s)}, "
          f"p90 {s(row.click_p90_s)}, max {s(row.click_max_s)} ({row.card_clicks} clicks; in the page median "
          f"{s(row.click_page_median_s)}, p90 {s(row.click_page_p90_s)}; split: to the server "
          f"{s(row.click_to_server_median_s)}, its run {s(row.click_server_run_median_s)}, to the page "
          f"{s(row.click_to_page_median_s)}; other buttons "
          f"{s(row.other_click_median_s)}, {row.other_clicks}) · server errors {row.server_errors} · "
          f"page errors {row.page_errors} · frames waiting (most) {_waiting(row.frames_waiting)} · "
          f"cores: server {row.server_cores}, browsers {row.browser_cores} · load {row.load1:.1f}", flush=True)


def _waiting(most: dict[str, int]) -> str:
    return ", ".join(f"{name} {count}" for name, count in most.items()) or "—"


def _write(out: Path, record: dict[str, Any]) -> None:
    out.with_suffix(".json").write_text(json.dumps(record, indent=1) + "\n")


def verdict(record: dict[str, Any]) -> dict[str, Any]:
    """The issue's targets against what was measured: RSS at the end within 10 % of minute 5,
    frames analysed per second unchanged (median of the last quarter against the first), no
    exception in the server log, click to page update ≤ 2 s median."""
    rows = record["minute_rows"]
    if not rows:
        return {"complete": False}
    out: dict[str, Any] = {"complete": len(rows) >= record["minutes"], "minutes_measured": len(rows)}
    base = rows[min(4, len(rows) - 1)]["rss_mb"]
    out["rss_minute5_mb"] = base
    out["rss_minute1_mb"] = rows[0]["rss_mb"]  # the base a run shorter than 5 minutes can compare with
    out["rss_last_mb"] = rows[-1]["rss_mb"]
    out["rss_growth"] = round(rows[-1]["rss_mb"] / base - 1.0, 4) if base else None
    quarter = max(1, len(rows) // 4)
    first = [r["fps_median"] for r in rows[:quarter] if r["fps_median"] is not None]
    last = [r["fps_median"] for r in rows[-quarter:] if r["fps_median"] is not None]
    out["fps_first_quarter"] = statistics.median(first) if first else None
    out["fps_last_quarter"] = statistics.median(last) if last else None
    medians = [r["click_median_s"] for r in rows if r["click_median_s"] is not None]
    out["click_median_of_minutes_s"] = statistics.median(medians) if medians else None
    in_page = [r["click_page_median_s"] for r in rows if r.get("click_page_median_s") is not None]
    out["click_page_median_of_minutes_s"] = statistics.median(in_page) if in_page else None
    out["server_errors"] = rows[-1]["server_errors"]
    out["page_errors"] = sum(r["page_errors"] for r in rows)
    out["load1_range"] = [min(r["load1"] for r in rows), max(r["load1"] for r in rows)]
    return out


def plot(record: dict[str, Any], path: Path) -> Path | None:
    """Panels over the minutes: frames analysed per second, server RSS (and the most frames seen
    waiting on the server, when logged), click to update."""
    try:
        import matplotlib
    except ImportError:
        print("no plot: matplotlib is not installed", flush=True)
        return None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = record["minute_rows"]
    if not rows:
        return None
    minutes = [r["minute"] for r in rows]
    fig, axes = plt.subplots(3, 1, figsize=(8, 8), sharex=True)
    axes[0].plot(minutes, [r["fps_median"] for r in rows], marker=".", label="median")
    axes[0].plot(minutes, [r["fps_min"] for r in rows], linestyle=":", label="minimum")
    axes[0].set_ylabel("frames analysed / s")
    axes[0].legend()
    axes[1].plot(minutes, [r["rss_mb"] for r in rows], marker=".")
    axes[1].set_ylabel("server RSS (MB)")
    axes[1].set_ylim(bottom=0)  # growth read against the whole, not a zoomed band
    waiting = [sum(r.get("frames_waiting", {}).values()) if r.get("frames_waiting") else None for r in rows]
    if any(w is not None for w in waiting):
        frames = axes[1].twinx()
        frames.plot(minutes, waiting, color="#8e24aa", linestyle="--", marker="x")
        frames.set_ylabel("frames waiting, all queues (most)", color="#8e24aa")
        frames.set_ylim(bottom=0)
    axes[2].plot(minutes, [r["click_median_s"] for r in rows], marker=".", label="median")
    axes[2].plot(minutes, [r["click_p90_s"] for r in rows], linestyle=":", label="90th percentile")
    if any(r.get("click_page_median_s") is not None for r in rows):
        axes[2].plot(minutes, [r.get("click_page_median_s") for r in rows], marker="x", color="#2e7d32",
                     label="median, timed in the page")
    axes[2].axhline(2.0, color="#d32f2f", linewidth=0.8, label="2 s target")
    axes[2].set_ylabel("card click → page (s)")
    axes[2].set_xlabel("minute")
    axes[2].legend()
    load = record.get("verdict", {}).get("load1_range")
    starved = record.get("starved_fraction") or 0
    control = [text for text, on in (("frame queues unbounded", record.get("unbounded_frame_queues")),
                                     (f"server stopped {starved:.0%} of the time", starved)) if on]
    fig.suptitle("\n".join([f"{record['sessions']} browser session(s), camera on, Play", *([" · ".join(control)]
                            if control else []),
                            f"{record['started_utc'][:16].replace('T', ' ')} UTC"
                            + (f" · load {load[0]:.1f}–{load[1]:.1f} on {record['cores']} cores" if load else "")]))
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=1, help="browser sessions on the one server")
    parser.add_argument("--minutes", type=float, default=60.0, help="minutes of play measured")
    parser.add_argument("--out", type=Path, default=REPO_ROOT / "data" / "soak" / "soak",
                        help="where OUT.json and OUT.png go")
    parser.add_argument("--shared", type=Path, default=REPO_ROOT.parent / "shared", help="the shared data folder")
    parser.add_argument("--no-camera", action="store_true", help="a control: play without the camera")
    parser.add_argument("--no-clicks", action="store_true", help="a control: the camera on, nobody playing")
    parser.add_argument("--unbounded", action="store_true",
                        help="a control: the server's frame queues unbounded, as before the frame-queue fix")
    parser.add_argument("--starve", type=float, default=0.0, metavar="FRACTION",
                        help="keep the server stopped this fraction of the time once the sessions play "
                             "(a starved server without loading the machine; e.g. 0.5)")
    parser.add_argument("--browsers-own-priority", action="store_true",
                        help="a control: leave the browsers at the priorities Chromium gives itself "
                             "(above a niced server) instead of the server's")
    parser.add_argument("--browsers-below", type=int, default=0, metavar="STEPS",
                        help="keep the browsers this many nice steps under the server (as if the users' "
                             "browsers ran on their own machines, as far as one machine can)")
    args = parser.parse_args(argv)
    if args.browsers_below < 0 or (args.browsers_below and args.browsers_own_priority):
        parser.error("--browsers-below takes 0 or more nice steps, and not with --browsers-own-priority")
    if args.sessions < 1 or args.minutes <= 0 or not 0 <= args.starve < 0.95:
        parser.error("--sessions must be at least 1, --minutes more than 0 and --starve from 0 to 0.95")
    if not (args.shared / "gestures" / "MANIFEST.tsv").is_file():
        parser.error(f"no gestures at {args.shared}/gestures: pass --shared (the folder beside the checkout)")
    record = run(sessions=args.sessions, minutes=args.minutes, out=args.out, shared=args.shared,
                 camera=not args.no_camera, clicks=not args.no_clicks, unbounded=args.unbounded,
                 starve=args.starve, browsers_own_priority=args.browsers_own_priority,
                 browsers_below=args.browsers_below)
    print(json.dumps(record["verdict"], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
