"""The catch drill: rounds of signs among decoys, clicks judged by what showed at their moment, and
the drill on the Practice page under AppTest (its clock set by the test)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from trainer.signals.conventions import Convention
from trainer.ui import catch_drill
from trainer.ui.catch_drill import Verdict

APP = str(Path(__file__).resolve().parents[2] / "streamlit_app.py")


@pytest.mark.parametrize("name", ["classic"])
def test_a_round_mixes_signs_and_decoys_that_do_not_overlap(name):
    convention = Convention.named(name)
    shows = catch_drill.make_round(random.Random(4), convention, gestures=10, signs=4)
    assert sum(s.is_sign for s in shows) == 4 and len(shows) == 10
    for s in shows:
        assert (convention.sign_for(s.gesture) is not None) == s.is_sign
    for a, b in zip(shows, shows[1:], strict=False):
        assert b.at >= a.at + a.hold + catch_drill.PAUSE_S[0] - 1e-9
    assert shows[0].at == catch_drill.FIRST_S
    assert shows == catch_drill.make_round(random.Random(4), convention, gestures=10, signs=4)
    assert set(catch_drill.decoys(convention)).isdisjoint(convention.gestures)


def test_clicks_are_judged_by_what_showed_then():
    shows = catch_drill.make_round(random.Random(1), Convention.named("classic"), gestures=8, signs=4)
    sign = next(s for s in shows if s.is_sign)
    decoy = next(s for s in shows if not s.is_sign)
    caught = catch_drill.judge(shows, sign.at + sign.hold / 2)
    assert caught.verdict is Verdict.CAUGHT and caught.show == sign
    assert catch_drill.judge(shows, sign.at + sign.hold / 2, [caught]).verdict is Verdict.NOTHING, "once only"
    assert catch_drill.judge(shows, decoy.at + 0.1).verdict is Verdict.FOOLED
    assert catch_drill.judge(shows, sign.at + sign.hold + 0.3).verdict is Verdict.LATE
    assert catch_drill.judge(shows, 0.5).verdict is Verdict.NOTHING
    # The tally at the round's end: the other signs were missed.
    end = catch_drill.round_end(shows) + 1
    fooled = catch_drill.judge(shows, decoy.at + 0.1)
    tally = catch_drill.score(shows, [caught, fooled], end)
    assert (tally.signs, tally.caught, tally.missed, tally.fooled) == (4, 1, 3, 1)


def test_a_round_refuses_impossible_counts():
    with pytest.raises(catch_drill.DrillError, match="between 1 and"):
        catch_drill.make_round(random.Random(0), Convention.named("classic"), gestures=3, signs=5)


class FakeClock:
    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now


def test_the_practice_page_drill_catches_a_sign_while_it_shows_and_calls_a_late_click_late(data_home):
    clock = FakeClock()
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["catch_clock"] = clock
    at.run()
    assert not at.exception, at.exception
    at.button(key="catch_start").click().run()
    assert not at.exception, at.exception
    game = at.session_state["catch_round"]
    shows = game["shows"]
    html = " ".join(m.value for m in at.markdown)
    assert all(f"data-index='{s.index}'" in html for s in shows), "every gesture of the round is sent to the page"
    signs = [s for s in shows if s.is_sign]
    clock.now = game["origin"] + signs[0].at + 0.5
    at.button(key="catch_seen").click().run()
    assert at.session_state["catch_round"]["clicks"][-1].verdict is Verdict.CAUGHT
    assert any(s.value.startswith("Caught:") for s in at.success)
    clock.now = game["origin"] + signs[1].at + signs[1].hold + 0.4
    at.button(key="catch_seen").click().run()
    assert at.session_state["catch_round"]["clicks"][-1].verdict is Verdict.LATE
    assert any(w.value.startswith("Too late:") for w in at.warning)
    assert any("caught **1** of" in m.value and "late 1" in m.value for m in at.markdown)
