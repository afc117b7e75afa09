"""The Play page under AppTest, camera off: a new game, declarations, playing cards, signing with
buttons, saving, resuming and replaying — driven by clicks, checked against the table's state."""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from trainer.rules.actions import Phase
from trainer.signals.signs import Sign
from trainer.ui.game_session import HUMAN_SEAT, PARTNER_SEAT, GameSession

APP = str(Path(__file__).resolve().parents[2] / "streamlit_app.py")


def _new_game(seed: int = 1) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page("trainer/ui/pages/play.py").run()
    assert not at.exception, at.exception
    at.session_state["play_seed"] = seed  # the deal is the seed's: tests are reproducible
    at.button(key="play_new").click().run()
    assert not at.exception, at.exception
    assert at.session_state["game"].seed == seed
    return at


def _session(at: AppTest) -> GameSession:
    return at.session_state["game"]


def _to_play_phase(at: AppTest) -> None:
    """Answer the pre-play decisions the engine offers (pass / no chant) until cards are played."""
    for _ in range(10):
        view = _session(at).table.view(HUMAN_SEAT)
        if view.phase is Phase.PLAY and view.to_move == HUMAN_SEAT:
            return
        labels = [b.label for b in at.button]
        choice = "Pass" if "Pass" in labels else "No chant" if "No chant" in labels else "Refuse" if "Refuse" in labels else None
        assert choice is not None, (view.phase, labels)
        next(b for b in at.button if b.label == choice).click().run()
        assert not at.exception, at.exception
    raise AssertionError("never reached the play phase")


def test_playing_a_card_moves_the_game_on(data_home):
    at = _new_game()
    _to_play_phase(at)
    before = _session(at).table.view(HUMAN_SEAT)
    card = before.hand[-1]
    at.button(key=f"card_{card.code}").click().run()
    assert not at.exception, at.exception
    after = _session(at).table.view(HUMAN_SEAT)
    assert card not in after.hand and len(after.hand) == len(before.hand) - 1
    played = [c for t in after.tricks for c in t.cards] + list(after.current_trick)
    assert card in played
    # The bots played on until it was the person's turn again (or the deal moved on).
    assert after.to_move == HUMAN_SEAT or after.deal_number > before.deal_number
    # The page shows the trick: the last one finished is described with its result.
    if after.tricks:
        assert any("Last trick" in c.value for c in at.caption)


def test_a_whole_deal_ends_with_a_summary_that_explains_it(data_home):
    at = _new_game()
    start_deal = _session(at).table.view(HUMAN_SEAT).deal_number
    for _ in range(40):
        view = _session(at).table.view(HUMAN_SEAT)
        if view.deal_number > start_deal or _session(at).table.is_over:
            break
        if view.phase is Phase.PLAY and view.to_move == HUMAN_SEAT:
            at.button(key=f"card_{view.hand[0].code}").click().run()
        else:
            _to_play_phase(at)
        assert not at.exception, at.exception
    results = _session(at).table.view(HUMAN_SEAT).results
    assert results, "no deal was scored"
    summary = [s.value for s in at.success if s.value.startswith(f"Deal {results[-1].deal}:")]
    assert summary and "tricks" in summary[0]
    # The engine's explanation, told with the players' names instead of seat numbers.
    assert "seat " not in summary[0]


def test_a_sign_button_sends_a_true_sign_to_the_partner_and_a_lie_is_refused(data_home):
    from trainer.signals.table import honest_signals

    for seed in range(10):
        at = _new_game(seed)
        hand = _session(at).table.view(HUMAN_SEAT).hand
        honest = [s for s in honest_signals(hand) if s.sign is not Sign.AS]
        lies = [s for s in (Sign.MONSIEUR, Sign.MADAME, Sign.BORGNE, Sign.VACHE) if s.cards[0] not in hand]
        if honest and lies:
            break
    sign = honest[0].sign
    at.button(key=f"sign_{sign.value}").click().run()
    assert not at.exception, at.exception
    table = _session(at).table
    mine = [t.event for t in table.visible_signs(PARTNER_SEAT) if t.event.seat == HUMAN_SEAT]
    assert [e.sign for e in mine] == [sign]
    assert any(c.value.startswith("Sent to your partner: ") and "(button" in c.value for c in at.caption)
    # Signs are truthful at this table: signing a card the person does not hold is refused, said why.
    at.button(key=f"sign_{lies[0].value}").click().run()
    assert [t.event.sign for t in table.visible_signs(PARTNER_SEAT) if t.event.seat == HUMAN_SEAT] == [sign]
    assert at.error and at.error[0].value.startswith("Your sign ") and "was not sent" in at.error[0].value


def test_a_saved_game_resumes_exactly_and_replays_trick_by_trick(data_home):
    at = _new_game()
    _to_play_phase(at)
    for _ in range(2):
        view = _session(at).table.view(HUMAN_SEAT)
        at.button(key=f"card_{view.hand[0].code}").click().run()
    saved_state = _session(at).table.game.state_key()
    at.text_input(key="play_save_name").input("my game").run()
    at.button(key="play_save").click().run()
    assert not at.exception, at.exception

    fresh = AppTest.from_file(APP, default_timeout=120)
    fresh.switch_page("trainer/ui/pages/play.py").run()
    fresh.selectbox(key="play_saved").select("my game").run()
    fresh.button(key="play_resume").click().run()
    assert not fresh.exception, fresh.exception
    assert _session(fresh).table.game.state_key() == saved_state

    fresh.button(key="play_replay").click().run()
    assert not fresh.exception, fresh.exception
    slider = fresh.slider(key="replay_trick")
    assert slider.max >= 1
    slider.set_value(1).run()
    # (deal 1 may have been given up or declined before any trick: the first trick is then in deal 2)
    assert any(re.match(r"\*\*Deal \d+, trick 1\*\*", m.value) for m in fresh.markdown), [m.value[:50] for m in fresh.markdown]
    assert any(m.value.startswith("Result: **") for m in fresh.markdown)


def test_the_table_says_when_a_sign_was_caught(data_home):
    from trainer.ui.views.play import SHORT_NAMES

    for seed in range(15):
        at = _new_game(seed)
        catches = _session(at).table.catches()
        ours_caught = [c for c in catches if c.event.seat in (HUMAN_SEAT, PARTNER_SEAT) and c.by not in (HUMAN_SEAT, PARTNER_SEAT)]
        if ours_caught:
            break
    assert ours_caught, "no game in 15 had a caught sign"
    warning = next(w.value for w in at.warning if w.value.startswith("Caught by the opponents"))
    for catch in ours_caught:
        assert f"{SHORT_NAMES[catch.by]} caught" in warning
    caught_by_me = [c for c in catches if c.by == HUMAN_SEAT]
    if caught_by_me:
        info = next(i.value for i in at.info if i.value.startswith("Caught by you"))
        assert all(SHORT_NAMES[c.event.seat] in info for c in caught_by_me)
