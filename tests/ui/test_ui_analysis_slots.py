"""The server's analysis slots: how many frames are analysed at once, and who gets the next one."""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace

import numpy as np
import pytest

from trainer.ui.analysis_slots import SLOTS_ENV, FairSlots, SlotsError, default_slots
from trainer.ui.watcher import FrameReport, SignWatcher


def test_the_default_leaves_one_core_to_the_pages_and_never_goes_below_one():
    assert default_slots(2, env={}) == 1
    assert default_slots(8, env={}) == 7
    assert default_slots(1, env={}) == 1
    assert default_slots(2, env={SLOTS_ENV: "3"}) == 3


@pytest.mark.parametrize("value", ["0", "two", "-1", "1.5"])
def test_a_slot_count_that_is_not_a_whole_number_from_one_is_refused_with_the_variable_named(value):
    with pytest.raises(SlotsError, match=f"{SLOTS_ENV}=.*whole number"):
        default_slots(2, env={SLOTS_ENV: value})


def _wait_until(condition, what: str, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.005)


def test_a_released_slot_goes_to_the_longest_waiter_not_back_to_the_one_that_released_it():
    slots = FairSlots(1)
    order: list[str] = []
    first_holds = threading.Event()
    first_may_go = threading.Event()

    def first() -> None:
        with slots.held():
            first_holds.set()
            first_may_go.wait(10)
        with slots.held():  # asks again at once, as a busy session's analysis thread does
            order.append("first")

    def waiter(name: str) -> None:
        with slots.held():
            order.append(name)

    threads = [threading.Thread(target=first)]
    threads[0].start()
    assert first_holds.wait(10)
    for count, name in enumerate(["second", "third"], start=1):
        thread = threading.Thread(target=waiter, args=(name,))
        thread.start()
        threads.append(thread)
        _wait_until(lambda count=count: slots.waiting == count, f"{name} never queued")
    first_may_go.set()
    for thread in threads:
        thread.join(10)
    assert order == ["second", "third", "first"]


class _SlowAnalyser:
    """A stand-in recognizer that takes a few milliseconds a frame and counts how many run at once."""

    running = 0
    most_at_once = 0
    lock = threading.Lock()

    def process(self, frame):
        cls = type(self)
        with cls.lock:
            cls.running += 1
            cls.most_at_once = max(cls.most_at_once, cls.running)
        time.sleep(0.004)
        with cls.lock:
            cls.running -= 1
        scores = SimpleNamespace(scores={}, face_found=True, hands_found=0)
        return SimpleNamespace(scores=scores, started=(), finished=(), live=None)


def _feed(watchers: list[SignWatcher], seconds: float) -> None:
    image = np.zeros((8, 8, 3), dtype=np.uint8)
    end = time.monotonic() + seconds
    i = 0
    while time.monotonic() < end:
        for watcher in watchers:  # every session's camera sends faster than the analysis can go
            watcher.submit(image, i / 30)
        i += 1
        time.sleep(0.001)


def test_sessions_sharing_one_slot_never_analyse_at_once_and_each_gets_its_share():
    _SlowAnalyser.running = _SlowAnalyser.most_at_once = 0
    slots = FairSlots(1)
    watchers = [SignWatcher(lambda profile: _SlowAnalyser(), None, slots=slots) for _ in range(4)]
    try:
        _feed(watchers, 1.5)
    finally:
        for watcher in watchers:
            watcher.close()
    analysed = [sum(isinstance(r, FrameReport) for r in w.drain()) for w in watchers]
    assert _SlowAnalyser.most_at_once == 1
    # Served in turn: no session is starved while another takes the slot back again and again.
    assert min(analysed) >= 0.6 * max(analysed) and min(analysed) >= 20, analysed


def test_without_slots_each_session_analyses_on_its_own():
    _SlowAnalyser.running = _SlowAnalyser.most_at_once = 0
    watchers = [SignWatcher(lambda profile: _SlowAnalyser(), None) for _ in range(4)]
    try:
        _feed(watchers, 0.5)
    finally:
        for watcher in watchers:
            watcher.close()
    assert _SlowAnalyser.most_at_once > 1

