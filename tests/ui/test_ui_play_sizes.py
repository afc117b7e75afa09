"""The Play page at every table size (issue 17): the table settings chosen in the panel, each preset ×
size played to the end with the page's buttons (AppTest), the table drawn for its size with the
partner marked, a saved game of each size resumed, and relative announcements after a sign.

Seeded, with the quick ``simple`` bots. Each click is a page rerun: the nine whole games took 5 min
(17 s to 76 s each, vendee at three the longest) on the shared machine under load, niced; the other
tests about 1 min."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.ui.ui_setup_panel import open_setup, run_open
from trainer.bots.table_setup import seat_names, team_names
from trainer.rules.cards import ACES, Card
from trainer.signals.signs import Sign
from trainer.signals.table import VIGILANCE_LEVELS
from trainer.ui import table_talk as talk
from trainer.ui.game_session import HUMAN_SEAT, GameSession
from trainer.ui.views.play import seat_label

APP = str(Path(__file__).resolve().parents[2] / "streamlit_app.py")
# One vigilance per preset, and lies at some tables, so the grid also sweeps the settings.
_VIGILANCE = {"vendee": "blind", "pagat": "sharp", "english": "hawk"}


def _page() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page("trainer/ui/pages/play.py").run()
    return at


def _set_table(at: AppTest, players: int, preset: str = "vendee", *, vigilance: str = "normal",
               lies: bool = False, partner: str = "simple", opponents: str = "simple") -> None:
    at.selectbox(key="opt_preset").select(preset).run()
    at.radio(key="play_players").set_value(players).run()
    at.select_slider(key="play_vigilance").set_value(vigilance).run()
    if lies:
        at.checkbox(key="play_lies").check().run()
    if players != 3:
        at.selectbox(key="play_partner").set_value(partner).run()
    at.selectbox(key="play_opponents").set_value(opponents).run()
    assert not at.exception, at.exception


def _start(at: AppTest, seed: int) -> GameSession:
    at.session_state["play_seed"] = seed
    at.button(key="play_new").click()
    run_open(at)  # New game is in the setup panel
    assert not at.exception, at.exception
    return at.session_state["game"]


def _markdown(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown]


def _click_on(at: AppTest) -> None:
    """One step of a plain player: Next when paused, else the first legal card, else pass / no
    chant / refuse."""
    enabled = [b for b in at.button if b.key and not b.disabled]
    keys = [b.key for b in enabled]
    if "play_next" in keys:
        at.button(key="play_next").click().run()
    elif any(k.startswith("card_") for k in keys):
        at.button(key=next(k for k in keys if k.startswith("card_"))).click().run()
    else:
        labels = {b.label: b for b in enabled if b.key.startswith("decide_")}
        choice = next((labels[c] for c in ("Pass", "No chant", "Refuse") if c in labels), None)
        assert choice is not None, f"nothing to click among {keys}"
        choice.click().run()
    assert not at.exception, at.exception


def _check_table_drawn(at: AppTest, session: GameSession) -> None:
    """Every seat of the size is drawn with its name, the partner marked as such (none at three)."""
    n = session.players
    texts = " ".join(_markdown(at))
    for seat in range(n):
        assert f"**{seat_label(seat, n)}**" in texts, seat_label(seat, n)
    partner = session.partner_seat
    assert texts.count(" — your partner**") == (0 if partner is None else 1)
    if partner is not None:
        assert f"**{seat_names(n)[partner]} — your partner**" in texts


@pytest.mark.parametrize("players", (3, 4, 6))
@pytest.mark.parametrize("preset", ("vendee", "pagat", "english"))
def test_every_preset_and_table_size_plays_to_the_end_with_buttons(players, preset, data_home):
    at = _page()
    lies = preset == "pagat"
    _set_table(at, players, preset, vigilance=_VIGILANCE[preset], lies=lies)
    session = _start(at, seed=players)
    table = session.table
    # The panel's settings are the table's: size, rules, vigilance, lies, bots.
    assert table.players == players and table.ruleset.name == preset
    assert table.vigilance == VIGILANCE_LEVELS[_VIGILANCE[preset]] and table.lying_allowed is lies
    assert [b is None for b in table.seats] == [s == HUMAN_SEAT for s in range(players)]
    assert any(c.value == f"This table: {session.settings.summary()}." for c in at.caption)
    _check_table_drawn(at, session)
    if players == 3:
        assert not [b for b in at.button if b.key and b.key.startswith("sign_")]
    else:
        assert at.button(key="sign_borgne") is not None
    for _ in range(3000):
        if session.table.is_over:
            break
        _click_on(at)
    game = session.table.game
    assert game.is_over
    assert [h.value for h in at.subheader] == [f"Game over — {talk.outcome_text(game.outcome, players)}"]
    _check_table_drawn(at, session)
    # The score sheet has a column per team of this size, with the engine's points.
    sheet = next(d.value for d in at.table if "total" in d.value.columns)
    teams = ("your team", "opponents") if players == 4 else team_names(players)
    for team, name in enumerate(teams):
        assert list(sheet[name]) == [r.points[team] for r in game.results], name
    assert list(sheet["total"])[-1] == "–".join(map(str, game.outcome.scores))


@pytest.mark.parametrize("players", (3, 4, 6))
def test_a_saved_game_of_each_size_resumes_with_its_settings(players, data_home):
    at = _page()
    _set_table(at, players, "english", vigilance="casual", lies=True, partner="random")
    _start(at, seed=5)
    for _ in range(12):
        _click_on(at)
    open_setup(at)
    at.text_input(key="play_save_name").input(f"table of {players}")
    run_open(at)
    at.button(key="play_save").click()
    run_open(at)
    assert not at.exception, at.exception
    saved = at.session_state["game"]

    fresh = _page()
    # The autosave of the last click holds the same game, with its table settings.
    fresh.selectbox(key="play_saved").select(at.session_state["_autosave_name"]).run()
    fresh.button(key="play_resume").click().run()
    assert not fresh.exception, fresh.exception
    auto = fresh.session_state["game"]
    assert auto.settings == saved.settings and auto.table.game.state_key() == saved.table.game.state_key()
    fresh.selectbox(key="play_saved").select(f"table of {players}").run()
    fresh.button(key="play_resume").click().run()
    assert not fresh.exception, fresh.exception
    resumed = fresh.session_state["game"]
    assert resumed.settings == saved.settings and resumed.players == players
    assert resumed.table.game.state_key() == saved.table.game.state_key()
    assert resumed.table.lying_allowed and resumed.table.vigilance == VIGILANCE_LEVELS["casual"]
    _check_table_drawn(fresh, resumed)
    # And it plays on to the end from there.
    for _ in range(3000):
        if resumed.table.is_over:
            break
        _click_on(fresh)
    assert resumed.table.is_over


def _seed_with(hand_ok) -> int:
    for seed in range(400):
        session = GameSession.start("vendee", "classic", seed)
        if hand_ok(session.table.game.hand(HUMAN_SEAT)):
            return seed
    raise AssertionError("no seed")


def test_announcements_after_a_sign_are_checked_and_reach_the_partner(data_home):
    """RULES.md's example: an ace, then 'au-dessous' (a king); 'au-dessus' (level 8, the Deux
    d'écrit, not held) is refused and names the lies setting; the partner's knowledge holds a king
    of the person; the words are saved and replayed."""
    from trainer.bots.knowledge import knowledge_of

    seed = _seed_with(lambda hand: sum(c in ACES for c in hand) == 1 and any(c.level == 10 for c in hand)
                      and Card.DEUX_D_ECRIT not in hand)
    at = _page()
    _set_table(at, 4, partner="heuristic")
    session = _start(at, seed)
    assert not [b for b in at.button if b.key and b.key.startswith("announce_")]  # no sign yet: no words
    at.button(key="sign_as").click().run()
    assert not at.exception, at.exception
    at.button(key="announce_au_dessus").click().run()
    assert [e.value for e in at.error] == [talk.announcement_refusal_text(
        session.table.history[-1].event.signal, (8,), session_language(at))]
    assert "Allow lies" in at.error[0].value
    at.button(key="announce_au_dessous").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    event = [t.event for t in session.table.history if t.event.seat == HUMAN_SEAT][-1]
    assert event.sign is Sign.AS and [a.french for a in event.announcements] == ["au-dessous"]
    assert any("then aloud: au-dessous (a king)" in m for m in _markdown(at))
    kings = frozenset(c.index for c in Card if c.level == 10) - frozenset(c.index for c in session.table.game.hand(2))
    holding = dict(knowledge_of(session.table.view(2)).holdings)[HUMAN_SEAT]
    assert kings in holding.some
    assert [i["announce"] for i in session.inputs if "announce" in i] == ["au-dessous"]
    from trainer.ui import persistence

    again = GameSession.from_json(persistence.check_saved_game(session.to_json()))
    told = [t.event.announcements for t in session.table.history]
    assert [t.event.announcements for t in again.table.history] == told


def session_language(at: AppTest):
    return at.session_state["settings"].language


def test_with_lies_allowed_a_bluff_is_sent_and_the_bots_trust_less(data_home):
    seed = _seed_with(lambda hand: Card.BORGNE not in hand)
    at = _page()
    _set_table(at, 4, lies=True, partner="heuristic", opponents="heuristic")
    session = _start(at, seed)
    at.button(key="sign_borgne").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    mine = [t.event for t in session.table.history if t.event.seat == HUMAN_SEAT]
    assert [(e.sign, e.truthful) for e in mine] == [(Sign.BORGNE, False)]
    assert all(bot.lying_allowed for bot in session.table.seats if bot is not None)
    # The next game, without lies, refuses the same bluff and names the setting.
    open_setup(at)
    at.checkbox(key="play_lies").uncheck()
    run_open(at)
    session = _start(at, seed)
    at.button(key="sign_borgne").click().run()
    assert not [t for t in session.table.history if t.event.seat == HUMAN_SEAT]
    assert at.error[0].value == talk.refusal_text(mine[0].signal, session_language(at))
    assert not any(bot.lying_allowed for bot in session.table.seats if bot is not None)
