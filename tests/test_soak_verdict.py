"""The soak's arithmetic (trainer.lab.soak): the verdict against the targets, the RSS of a process
tree read from /proc, the exception lines of a server log. The soak itself is a measurement run on
purpose (python -m trainer.lab.soak), not a test."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from trainer.lab import soak


def _row(minute: int, rss: float, fps: float | None, click: float | None, errors: int = 0) -> dict:
    return {"minute": minute, "sessions": 1, "fps_median": fps, "fps_min": fps, "rss_mb": rss,
            "click_median_s": click, "click_p90_s": click, "click_max_s": click, "card_clicks": 3,
            "other_click_median_s": None, "other_clicks": 0, "server_errors": errors, "page_errors": 0,
            "load1": 2.0 + minute}


def test_the_verdict_compares_the_last_minute_with_minute_five_and_the_quarters():
    rows = [_row(m, 500 + 10 * m, 20 if m <= 2 else 10, 1.0 + m / 10) for m in range(1, 9)]
    verdict = soak.verdict({"minutes": 8, "minute_rows": rows})
    assert verdict["complete"] and verdict["rss_minute5_mb"] == 550 and verdict["rss_last_mb"] == 580
    assert verdict["rss_minute1_mb"] == 510
    assert verdict["rss_growth"] == pytest.approx(30 / 550, abs=1e-4)
    assert verdict["fps_first_quarter"] == 20 and verdict["fps_last_quarter"] == 10
    assert verdict["click_median_of_minutes_s"] == pytest.approx(1.45)
    assert verdict["load1_range"] == [3.0, 10.0]


def test_a_run_stopped_early_says_it_is_incomplete():
    verdict = soak.verdict({"minutes": 60, "minute_rows": [_row(1, 400, 15, 0.5)]})
    assert not verdict["complete"] and verdict["minutes_measured"] == 1


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="needs Linux /proc")
def test_rss_counts_the_children_of_a_process():
    child = subprocess.Popen([sys.executable, "-c", "b = bytearray(80 * 2**20); import time; time.sleep(30)"])
    try:
        import time

        deadline = time.monotonic() + 20
        while soak.process_rss_mb(child.pid) < 80 and time.monotonic() < deadline:
            time.sleep(0.1)
        alone = soak.process_rss_mb(child.pid)
        assert alone >= 80
        assert soak.process_rss_mb(os.getpid()) >= alone  # the child is in this process's tree
    finally:
        child.kill()
        child.wait()


@pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="needs Linux /proc")
def test_the_cpu_split_gives_a_busy_server_its_processor_time_and_not_to_the_browsers():
    """A child spinning for a second stands for the server: its second goes to the server's share,
    and the rest of the tree (the browsers' share) used almost none of it."""
    import time

    server = subprocess.Popen([sys.executable, "-c",
                               "import time\nend = time.process_time() + 1.0\nwhile time.process_time() < end: pass\n"
                               "time.sleep(30)"])
    try:
        share = soak.CpuShare(server.pid)
        deadline = time.monotonic() + 20
        while soak.process_cpu_s(server.pid) < 1.0 and time.monotonic() < deadline:
            time.sleep(0.1)
        server_cores, browser_cores = share.take()
        spent = soak.process_cpu_s(server.pid)
    finally:
        server.kill()
        server.wait()
    assert spent >= 0.9
    assert server_cores > 0.05 and browser_cores < server_cores / 2


@pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="needs Linux /proc")
def test_a_child_that_ended_keeps_its_processor_seconds_in_the_total():
    """A browser page that closes mid-run must not take its seconds out of the running total."""
    before = soak.process_cpu_s(os.getpid())
    child = subprocess.Popen([sys.executable, "-c",
                              "import time\nend = time.process_time() + 0.6\nwhile time.process_time() < end: pass"])
    child.wait()  # ended and reaped: gone from the process tree
    assert soak.process_cpu_s(os.getpid()) - before >= 0.5


def _nice(pid: int) -> int:
    return os.getpriority(os.PRIO_PROCESS, pid)


def test_the_browsers_are_brought_down_to_the_servers_priority_and_the_server_is_left_alone():
    """Chromium raises its own priority; a niced soak must not measure the browsers' precedence."""
    sleeper = [sys.executable, "-c", "import threading, time\n"
               "threading.Thread(target=time.sleep, args=(30,)).start(); time.sleep(30)"]
    server, browser = subprocess.Popen(sleeper), subprocess.Popen(sleeper)
    try:
        time.sleep(0.3)  # both threads of each started
        level = _nice(0) + 3
        changed = soak.level_priority(os.getpid(), server.pid, level)
        assert changed >= 2  # the browser's two threads
        assert all(_nice(tid) == level for tid in soak.thread_ids(browser.pid))
        assert all(_nice(tid) == _nice(0) for tid in soak.thread_ids(server.pid))
        assert soak.level_priority(os.getpid(), server.pid, level) == 0  # already there: nothing to do
        assert _nice(0) == level - 3  # the soak itself keeps its priority
    finally:
        for process in (server, browser):
            process.kill()
            process.wait()


def test_the_browsers_can_be_kept_under_the_server_but_never_past_the_lowest_priority():
    assert soak.PriorityLeveller(os.getpid(), below=3).nice == min(19, _nice(0) + 3)
    assert soak.PriorityLeveller(os.getpid(), below=40).nice == 19
    assert soak.PriorityLeveller(os.getpid()).nice == _nice(0)


def test_server_errors_are_the_logs_exception_lines(tmp_path):
    log = tmp_path / "server.log"
    log.write_text("I0000 mediapipe chatter\nException in thread x:\nTraceback (most recent call last):\n"
                   "ValueError: bad\nall fine\n")
    assert soak.server_error_count(log) == 3
    assert soak.server_error_count(tmp_path / "missing.log") == 0


def test_each_traceback_is_kept_with_its_last_frames_and_its_exception():
    text = ("I0000 chatter\nTraceback (most recent call last):\n"
            '  File "a.py", line 1, in outer\n    outer()\n  File "b.py", line 9, in inner\n    raise X\n'
            "aiortc.exceptions.InvalidStateError: RTCIceTransport is closed\nall fine\n"
            "Traceback (most recent call last):\n  File \"c.py\", line 2, in f\n    g()\nValueError: bad\n")
    first, second = soak.server_exceptions(text, frames=1)
    assert first == ('File "b.py", line 9, in inner | raise X | '
                     'aiortc.exceptions.InvalidStateError: RTCIceTransport is closed')
    assert second == 'File "c.py", line 2, in f | g() | ValueError: bad'
    assert soak.server_exceptions("no trouble\n") == []


def test_the_queue_log_gives_each_minute_the_most_frames_seen_waiting_in_each_queue(tmp_path):
    log = soak.QueueLog(tmp_path / "queues.jsonl")
    assert log.take() == {}  # the server has not written yet
    lines = [{"t": 1, "workers": [{"decoded": 0, "relay_out": 4}]},
             {"t": 3, "workers": [{"decoded": 2, "relay_out": 1}, {"decoded": 0, "relay_out": 9}]}]
    log.path.write_text("".join(json.dumps(line) + "\n" for line in lines) + '{"t": 5, "work')
    assert log.take() == {"decoded": 2, "relay_out": 9}  # a line being written is skipped
    with log.path.open("a") as out:
        out.write('\n{"t": 7, "workers": [{"decoded": 1, "relay_out": 1}]}\n')
    assert log.take() == {"decoded": 1, "relay_out": 1}  # only what came since the last minute


def _state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


@pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="reads /proc (Linux)")
def test_the_starver_stops_the_server_part_of_the_time_and_always_leaves_it_running():
    server = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"], start_new_session=True)
    try:
        seen = set()
        with soak.Starver(server.pid, 0.5):
            for _ in range(80):
                seen.add(_state(server.pid))
                time.sleep(0.01)
        assert "T" in seen and seen - {"T"}  # stopped, and running (sleeping) in between
        assert _state(server.pid) != "T"
        with soak.Starver(server.pid, 0.0):
            time.sleep(0.3)
            assert _state(server.pid) != "T"
    finally:
        server.kill()
        server.wait()


HAND_PAGE = """<div class="st-key-card_AS"><button id="play">Play</button></div>
<div class="st-key-card_7D"><button>Play</button></div>
<script>
  // The app's answer to a click, after a known delay: the clicked card leaves the hand.
  document.getElementById('play').addEventListener('click', () => {
    setTimeout(() => document.querySelector('.st-key-card_AS').remove(), 400);
  });
</script>"""


def test_a_card_click_is_timed_inside_the_page_from_the_click_to_the_card_leaving_the_hand():
    """The in-page timing starts at the click, not when the driver arms it, and stops at the change
    that takes the card away, not at another change of the page (the other card, the camera lines)."""
    from tests.ui.ui_browser_support import require_chromium
    from trainer.ui.launch import chromium_page

    require_chromium()
    with chromium_page() as page:
        page.set_content(HAND_PAGE)
        page.evaluate(soak.ARM_CLICK_JS, "st-key-card_AS")
        page.wait_for_timeout(600)  # armed long before the click: that wait is not the page's answer
        page.evaluate("setInterval(() => document.querySelector('.st-key-card_7D button').textContent = "
                      "'Play', 50)")  # the page keeps changing meanwhile, the card still there
        assert page.evaluate(soak.CLICK_TIMED_JS) is None
        page.click("#play")
        page.wait_for_function("() => !document.querySelector('.st-key-card_AS')")
        page.wait_for_timeout(100)
        took = page.evaluate(soak.CLICK_TIMED_JS)
    assert took is not None and 0.38 <= took < 0.6, took
