"""The Play page under AppTest, camera off: a new game, declarations, playing cards, signing with
buttons, saving, resuming and replaying — driven by clicks, checked against the table's state."""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.ui.ui_setup_panel import open_setup, run_open
from trainer.rules.actions import Phase
from trainer.signals.signs import Sign
from trainer.ui import table_talk as talk
from trainer.ui.game_session import HUMAN_SEAT, PARTNER_SEAT, GameSession
from trainer.ui.views.play import SHORT_NAMES

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
    for _ in range(12):
        _click_next_if_paused(at)
        view = _session(at).table.view(HUMAN_SEAT)
        if view.phase is Phase.PLAY and view.to_move == HUMAN_SEAT:
            return
        labels = [b.label for b in at.button]
        choice = next((c for c in ("Pass", "No chant", "Refuse") if c in labels), None)
        assert choice is not None, (view.phase, labels)
        next(b for b in at.button if b.label == choice).click().run()
        assert not at.exception, at.exception
    raise AssertionError("never reached the play phase")


def _click_next_if_paused(at: AppTest) -> None:
    if _session(at).paused:
        at.button(key="play_next").click().run()
        assert not at.exception, at.exception


def _markdown(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown]


def test_playing_a_card_moves_the_game_on_and_the_closed_trick_stays_with_its_winner(data_home):
    """The person's card closes a trick or the bots do: either way the table pauses on the closed
    trick (a bot plays next) or the person leads — never a trick that vanished."""
    at = _new_game()
    _to_play_phase(at)
    for _ in range(12):  # play until a trick closes with a bot to play next (a pause)
        before = _session(at).table.view(HUMAN_SEAT)
        card = before.hand[-1]
        at.button(key=f"card_{card.code}").click().run()
        assert not at.exception, at.exception
        after = _session(at).table.view(HUMAN_SEAT)
        assert card not in after.hand and len(after.hand) == len(before.hand) - 1
        played = [c for t in after.tricks for c in t.cards] + list(after.current_trick)
        assert card in played or after.deal_number > before.deal_number
        if _session(at).paused:
            break
        _to_play_phase(at)
    session = _session(at)
    assert session.paused, "no trick closed with a bot to play next in 12 cards"
    trick = session.table.game.tricks[-1]
    # The closed trick is on the table, its winner named and its card framed, until Next.
    centre = next(m for m in _markdown(at) if m.startswith("**Last trick**"))
    if trick.spoiled:
        assert "pourri" in centre
    else:
        assert f"won by {SHORT_NAMES[trick.winner]}" in centre
        winning_card = dict(trick.plays(4))[trick.winner]
        framed = [m for m in _markdown(at) if "the trick</b>" in m]
        assert len(framed) == 1 and winning_card.code in framed[0]
    # Whose turn: the bot that plays next, and the card buttons are disabled meanwhile.
    to_move = session.table.game.to_move
    assert any(i.value.startswith(f"{SHORT_NAMES[to_move].capitalize()} plays next") for i in at.info)
    assert all(b.disabled for b in at.button if b.key and b.key.startswith("card_"))
    at.button(key="play_next").click().run()
    assert not at.exception, at.exception
    assert not _session(at).paused
    # Next: the bots played on; the closed trick is gone once the next trick is led.
    view = _session(at).table.view(HUMAN_SEAT)
    if view.current_trick:
        assert not any(m.startswith("**Last trick**") for m in _markdown(at))
        assert any(m.startswith("**Trick in progress**") for m in _markdown(at))


def test_a_whole_deal_ends_with_its_last_trick_and_a_summary_that_explains_it(data_home):
    from trainer.ui.table_talk import deal_result_text

    at = _new_game()
    start_deal = _session(at).table.view(HUMAN_SEAT).deal_number
    for _ in range(60):
        session = _session(at)
        if session.table.game.results or session.table.is_over:
            break
        view = session.table.view(HUMAN_SEAT)
        if view.phase is Phase.PLAY and view.to_move == HUMAN_SEAT and not session.paused:
            at.button(key=f"card_{view.hand[0].code}").click().run()
        else:
            _to_play_phase(at)
        assert not at.exception, at.exception
    session = _session(at)
    results = session.table.game.results
    assert results and results[-1].deal == start_deal, "no deal was scored"
    result = results[-1]
    # The deal's last trick stays on the table with the result, until "Next deal".
    assert session.paused or session.table.is_over or session.table.view(HUMAN_SEAT).to_move == HUMAN_SEAT
    texts = _markdown(at)
    assert f"**Deal {result.deal} is over.**" in texts
    summary = next(s.value for s in at.success if s.value.startswith(f"Deal {result.deal}: "))
    # Told in the player's language (the app's default: French).
    assert summary == f"Deal {result.deal}: {deal_result_text(result, 4, at.session_state['settings'].language)}"
    assert "seat " not in summary and "team 0" not in summary and "team 1" not in summary
    if result.tricks:
        last = result.tricks[-1]
        assert any(m.startswith("**Last trick** (trick " + str(last.number) + ", the deal's last)") for m in texts)
        on_table = "".join(m for m in texts if "<img" in m)
        assert all(f"[{card.code}]" in on_table for card in last.cards)


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
    assert any(c.value.startswith("Sent to your partner this deal: ") and "(button, North saw it" in c.value
               for c in at.caption)
    # Signs are truthful at this table: signing a card the person does not hold is refused, said why.
    at.button(key=f"sign_{lies[0].value}").click().run()
    assert [t.event.sign for t in table.visible_signs(PARTNER_SEAT) if t.event.seat == HUMAN_SEAT] == [sign]
    # The refusal says what is wrong in the person's words, and suggests only what exists.
    refusal = at.error[0].value
    assert refusal.startswith("Not sent: you do not hold ") and "tell the truth" in refusal
    assert "seat " not in refusal and "signs " + lies[0].value not in refusal
    # The one setting it names exists: the lies checkbox of the table settings (issue 17).
    assert f"tick “{talk.LIES_SETTING}” in the table settings" in refusal
    open_setup(at)
    assert [c.label for c in at.checkbox if c.key == "play_lies"] == [talk.LIES_SETTING]


def test_a_saved_game_resumes_exactly_and_replays_trick_by_trick(data_home):
    at = _new_game()
    _to_play_phase(at)
    for _ in range(4):  # two tricks at least, so the replay has a trick slider
        view = _session(at).table.view(HUMAN_SEAT)
        at.button(key=f"card_{view.hand[0].code}").click().run()
        assert not at.exception, at.exception
        if len(_session(at).table.game.tricks) >= 2:
            break
        _to_play_phase(at)
    assert len(_session(at).table.game.tricks) >= 2
    saved_state = _session(at).table.game.state_key()
    open_setup(at)
    at.text_input(key="play_save_name").input("my game")
    run_open(at)
    at.button(key="play_save").click()
    run_open(at)
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
    assert any(re.match(r"\*\*Deal \d+, trick 1\*\*",
                        m.value) for m in fresh.markdown), [m.value[:50] for m in fresh.markdown]
    assert any(m.value.startswith("Result: **") for m in fresh.markdown)


def test_the_table_says_when_a_sign_was_caught(data_home):
    from trainer.ui.views.play import SHORT_NAMES

    # The setup guarantees both banners: a game where the opponents caught one of our team's signs
    # and the person caught one of theirs (issue 16: no assertion in a branch the run may skip).
    # The person catches by clicking "seen!" while an opponent's sign shows (issue 17: no longer
    # rolled), on the page's clock set to that moment.
    for seed in range(40):
        at = _new_game(seed)
        session = _session(at)
        catches = session.table.catches()
        ours_caught = [c for c in catches if c.event.seat in (HUMAN_SEAT, PARTNER_SEAT) and c.by not in (HUMAN_SEAT,
                                                                                                         PARTNER_SEAT)]
        theirs = [t.event for t in session.table.history if t.event.seat not in (HUMAN_SEAT, PARTNER_SEAT)]
        if ours_caught and theirs:
            break
    assert ours_caught and theirs, "no game in 40 had both an opponents' catch and an opponent's sign"
    sign = theirs[0]
    now = session.origin + sign.at + 0.1
    session.clock = lambda: now
    at.button(key=f"seen_{sign.seat}").click().run()
    assert not at.exception, at.exception
    caught_by_me = [c for c in session.table.catches() if c.by == HUMAN_SEAT]
    assert caught_by_me
    warning = next(w.value for w in at.warning if w.value.startswith("Caught by the opponents"))
    for catch in ours_caught:
        assert f"{SHORT_NAMES[catch.by]} caught" in warning
    info = next(i.value for i in at.info if i.value.startswith("Caught by you"))
    assert all(f"{SHORT_NAMES[c.event.seat]}'s sign" in info for c in caught_by_me)
