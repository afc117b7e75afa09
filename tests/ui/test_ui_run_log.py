"""The server's run log (trainer.ui.run_log): written only when asked for, a run logged however it
ends, a card click split into reaching the server, the server's run and the page's redraw; and the
Play page logging a card click under AppTest."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from trainer.rules.actions import Phase
from trainer.ui import run_log
from trainer.ui.game_session import HUMAN_SEAT
from trainer.ui.run_log import CardPlayed, PageRun

APP = str(Path(__file__).resolve().parents[2] / "streamlit_app.py")


class _Rerun(Exception):
    """Stands for Streamlit's RerunException, which ends a run early."""


def test_nothing_is_written_unless_a_log_is_asked_for(tmp_path, monkeypatch):
    monkeypatch.delenv(run_log.RUN_LOG_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    with run_log.full_run() as fields:
        fields["page"] = "Play"
    run_log.note("card", card="AS")
    assert list(tmp_path.iterdir()) == []
    assert run_log.session_tag({}) is None


def test_a_run_is_logged_however_it_ends(tmp_path, monkeypatch):
    log = tmp_path / "runs.jsonl"
    monkeypatch.setenv(run_log.RUN_LOG_ENV, str(log))
    with run_log.full_run() as fields:
        fields.update(page="Play", session="s1")
    with pytest.raises(_Rerun), run_log.full_run() as fields:
        fields.update(page="Play", session="s1")
        raise _Rerun
    done, stopped = run_log.read(log)
    assert isinstance(done, PageRun) and isinstance(stopped, PageRun)
    assert (done.page, done.session, done.ended) == ("Play", "s1", "done")
    assert stopped.ended == "_Rerun" and stopped.start <= stopped.end
    state: dict = {}
    assert run_log.session_tag(state) == run_log.session_tag(state) is not None  # one tag a session


def test_a_click_is_split_at_its_own_sessions_first_finished_run():
    lines = [
        CardPlayed("a", "AS", 10.2),
        PageRun("b", start=10.21, end=10.3, ended="done"),  # another session's run
        PageRun("a", start=10.25, end=10.4, ended="RerunException"),  # restarted by the page
        PageRun("a", start=10.41, end=10.9, ended="done"),
    ]
    split = run_log.click_split(lines, "AS", clicked=10.0, answered=11.5)
    assert split is not None
    assert split.to_server == pytest.approx(0.2)
    assert split.server_run == pytest.approx(0.7)
    assert split.to_page == pytest.approx(0.6)
    assert run_log.click_split(lines, "7D", clicked=10.0, answered=11.5) is None  # not this session's card
    assert run_log.click_split(lines, "AS", clicked=10.3, answered=11.5) is None  # played before the click


def test_the_play_page_logs_a_card_click_and_the_run_it_asked_for(tmp_path, monkeypatch, data_home):
    log = tmp_path / "runs.jsonl"
    monkeypatch.setenv(run_log.RUN_LOG_ENV, str(log))
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page("trainer/ui/pages/play.py").run()
    at.session_state["play_seed"] = 1
    at.button(key="play_new").click().run()
    for _ in range(12):  # the pre-play decisions, as the player would answer them
        view = at.session_state["game"].table.view(HUMAN_SEAT)
        if view.phase is Phase.PLAY and view.to_move == HUMAN_SEAT:
            break
        buttons = [b for b in at.button if not b.disabled and b.key and
                   (b.key == "play_next" or b.key.startswith("decide_"))]
        buttons[0].click().run()
    view = at.session_state["game"].table.view(HUMAN_SEAT)
    card = next(c for c in view.hand if c in view.legal_actions)
    before = len(run_log.read(log))
    at.button(key=f"card_{card.code}").click().run()
    assert not at.exception, at.exception
    lines = run_log.read(log)[before:]
    played = [x for x in lines if isinstance(x, CardPlayed)]
    assert [x.card for x in played] == [card.code]
    runs = [x for x in lines if isinstance(x, PageRun)]
    assert runs and runs[-1].page == "Play" and runs[-1].session == played[0].session
    split = run_log.click_split(lines, card.code, clicked=played[0].t - 0.01, answered=runs[-1].end + 0.01)
    assert split is not None and split.server_run > 0
    assert all(json.loads(line)["kind"] in ("run", "card") for line in log.read_text().splitlines())
