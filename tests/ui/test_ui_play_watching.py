"""The Play page at a timed table under AppTest: opponents' avatars look at you or away, their signs
show for a hold, and "seen!" catches a sign while it shows and misses when late. The page's clock is
the session's: the test moves it to the sign's moment instead of sleeping."""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from trainer.ui.game_session import HUMAN_SEAT, GameSession

APP = str(Path(__file__).resolve().parents[2] / "streamlit_app.py")


class FakeClock:
    """The page's clock, set by the test (seconds)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _game_with_an_opponent_sign(clock: FakeClock) -> tuple[AppTest, GameSession]:
    """A new game on the page whose opponents signed at the first sign point."""
    for seed in range(1, 40):
        at = AppTest.from_file(APP, default_timeout=120)
        at.switch_page("trainer/ui/pages/play.py").run()
        at.session_state["play_seed"] = seed
        at.button(key="play_new").click().run()
        assert not at.exception, at.exception
        session: GameSession = at.session_state["game"]
        if any(t.event.seat in (1, 3) for t in session.table.history):
            session.clock, session.origin = clock, clock.now
            return at, session
    raise AssertionError("no seed in 1..39 where an opponent signs at once")


def _caught_by_me(session: GameSession, index: int) -> bool:
    return any(t.event.index == index and HUMAN_SEAT in t.event.caught_by for t in session.table.history)


def _note(at: AppTest) -> str:
    texts = [e.value for e in at.success] + [e.value for e in at.warning]
    return " ".join(t for t in texts if "Caught!" in t or "Missed" in t)


def test_seen_catches_a_sign_while_it_shows_and_misses_when_late(data_home):
    clock = FakeClock()
    at, session = _game_with_an_opponent_sign(clock)
    hold = session.table.watch.gaze.hold_s
    theirs = sorted((t.event for t in session.table.history if t.event.seat in (1, 3)), key=lambda e: e.at)
    first = theirs[0]
    assert HUMAN_SEAT not in first.caught_by, "the person's catch is not rolled"
    # The page sends the sign's layer with its moment and hold.
    clock.now = session.origin + first.at - 0.5
    at.run()
    html = " ".join(m.value for m in at.markdown)
    assert f"data-at='{first.at:.3f}'" in html and "aluette-look" in html
    # While it shows: caught, and the page says which sign.
    clock.now = session.origin + first.at + hold / 2
    at.button(key=f"seen_{first.seat}").click().run()
    assert not at.exception, at.exception
    assert "Caught!" in _note(at) and _caught_by_me(session, first.index)
    assert re.search(r"Caught by you this deal: .*" + ("West" if first.seat == 1 else "East"), " ".join(
        e.value for e in at.info))
    # Late: the hold of that seat's last sign is over.
    last = max((e for e in theirs if e.seat == first.seat), key=lambda e: e.at)
    clock.now = session.origin + last.at + hold + 0.2
    at.button(key=f"seen_{first.seat}").click().run()
    assert not at.exception, at.exception
    assert "Missed" in _note(at) and "Caught!" not in _note(at)
    assert last.index == first.index or not _caught_by_me(session, last.index)
    assert session.inputs[-1]["seen"] == first.seat and session.inputs[-1]["t"] > last.at + hold
    # The save replays the clicks at their moments: the same sign is caught again.
    resumed = GameSession.from_json(session.to_json())
    assert _caught_by_me(resumed, first.index)
    assert [t.event for t in resumed.table.history] == [t.event for t in session.table.history]
