"""Every public event of the deal told on the Play page, at its moment (AppTest): a chant declined
before the person was asked, the partner's signs listed only once made and in time order, no
watching controls at three (nobody signs), and the coach's trick notes built from North's own
reading of each sign it saw."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from trainer.bots.table_setup import TableSettings
from trainer.rules.actions import Declaration, Declare
from trainer.rules.cards import Card
from trainer.signals.table import honest_signals
from trainer.ui import coach
from trainer.ui.game_session import GameSession
from trainer.ui.settings import Language

APP = str(Path(__file__).resolve().parents[2] / "streamlit_app.py")


def _new_game(seed: int, players: int = 4) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page("trainer/ui/pages/play.py").run()
    if players != 4:
        at.radio(key="play_players").set_value(players).run()
    at.session_state["play_seed"] = seed
    at.button(key="play_new").click().run()
    assert not at.exception, at.exception
    return at


def test_a_chant_declined_before_you_were_asked_is_told(data_home):
    # Seed 0: East votes against the chant before the person's turn to vote comes.
    from trainer.rules.events import ChantDecided, ChantVoted
    from trainer.ui.table_events import told

    at = _new_game(0)
    session: GameSession = at.session_state["game"]
    chant = [e for e in session.table.events if isinstance(e, (ChantVoted, ChantDecided))]
    assert [type(e) for e in chant] == [ChantVoted, ChantDecided] and chant[0].seat == 3
    captions = " ".join(c.value for c in at.caption)
    # Told as the terminal tells it, in the page's language (French first by default).
    assert any(" ".join(told(chant, language, 4)) in captions for language in Language), captions


def test_signs_seen_list_only_signs_already_made_in_time_order(data_home):
    # Seed 0: North's signs are timed 14.9, 17.2 and 19.3 s into the game.
    at = _new_game(0)
    session: GameSession = at.session_state["game"]
    north = sorted((t.event for t in session.table.history if t.event.seat == 2), key=lambda e: e.at)
    assert north[0].at > 10.0
    seen = [c.value for c in at.caption if c.value.startswith("Signs seen")]
    assert seen == [], seen  # the page was drawn before North's first sign began



def test_at_three_nobody_signs_and_no_face_carries_seen(data_home):
    at = _new_game(3, players=3)
    assert not [b for b in at.button if b.key and b.key.startswith("seen_")]
    assert not any("'seen!' calls" in c.value for c in at.caption)


def test_each_note_of_north_names_its_reading_of_every_sign_it_saw_before_its_card():
    """28.2: the coach never says "nothing it could use" beside signs North saw: each seen sign
    has North's own reading (believed, a hint, dropped and why) at each card it played after it."""
    for seed in range(3):
        s = GameSession.begin(TableSettings(), seed)
        signed = False
        while not s.table.is_over and s.table.game.deal_number == 1:
            if s.reviewing:
                break
            if s.paused:
                s.next()
                continue
            view = s.table.view(0)
            if not signed:
                signed = True
                for signal in honest_signals(view.hand)[:2]:
                    s.sign(s.table.made(signal))
            acts = view.legal_actions
            cards = [a for a in acts if isinstance(a, Card)]
            plain = [a for a in acts if not (isinstance(a, Declare) and a.declaration is not Declaration.PASS)]
            s.act(cards[0] if cards else plain[-1])
        result = s.table.game.results[0]
        for trick in result.tricks:
            note = coach.trick_coach(s.moves, s.table.history, 1, trick, Language.ENGLISH)
            seen = [n for n in note.signs if n.seen_by_partner]
            if note.partner_card is None or not seen:
                continue
            assert len(note.readings) == len(seen), (seed, trick.number, note.readings, seen)
            assert [r.sign.signal for r in note.readings] == [n.signal for n in seen]


def test_words_told_aloud_show_with_the_sign_sent_and_in_the_coachs_notes(data_home):
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page("trainer/ui/pages/play.py").run()
    at.checkbox(key="play_lies").check().run()
    at.session_state["play_seed"] = 0
    at.button(key="play_new").click().run()
    at.button(key="sign_monsieur").click().run()
    at.button(key="announce_au_dessous").click().run()
    assert not at.exception and not at.error, (at.exception, [e.value for e in at.error])
    sent = next(c.value for c in at.caption if c.value.startswith("Sent to your partner"))
    assert "Monsieur — then aloud: au-dessous" in sent, sent
    session: GameSession = at.session_state["game"]
    notes = coach.your_signs(session.table.history, 1)
    assert notes and notes[-1].announcements and notes[-1].levels == (2,)


def test_blind_seen_clicks_spend_the_deals_calls_and_close_the_buttons(data_home):
    # Seed 6: the opponents' first sign begins 11.6 s into the game; the clicks come before it.
    at = _new_game(6)
    session: GameSession = at.session_state["game"]
    assert min(t.event.at for t in session.table.history if t.event.seat in (1, 3)) > 10.0
    # A catch of a sign not yet made is not told (seed 6: East catches one of North's later signs).
    later = [t.event.at for t in session.table.history if t.event.seat == 2 and t.event.caught_by]
    assert later and min(later) > session.game_time()
    assert not [w.value for w in at.warning if "caught your partner's sign" in w.value]
    for _ in range(3):
        at.button(key="seen_1").click().run()
    assert session.game_time() < 11.0, "the machine was too slow for this test's clicks"
    warnings = [w.value for w in at.warning]
    assert any("That was your last call this deal" in w for w in warnings), warnings
    assert any("'seen!' calls left this deal: **0 of 3**" in c.value for c in at.caption)
    assert at.button(key="seen_1").disabled and at.button(key="seen_3").disabled
