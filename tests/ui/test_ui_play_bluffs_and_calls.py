"""The coach knows a bluff for a bluff and tells North's own reading of each sign; a false "seen!"
costs a call and the bots' catches count the same way; timing advice only names a gap long enough
to hold a sign. Seeded games with the real bots."""

from __future__ import annotations

from trainer.bots.table import Table
from trainer.bots.table_setup import TableSettings
from trainer.rules.actions import Declaration, Declare
from trainer.rules.cards import Card
from trainer.signals.signs import Sign, Signal
from trainer.signals.table import Vigilance
from trainer.ui import coach
from trainer.ui.game_session import GameSession
from trainer.ui.settings import Language


def _bluffed_monsieur(seed: int) -> GameSession:
    """Lies allowed; the person signs Monsieur without holding it, then plays the strongest card."""
    s = GameSession.begin(TableSettings(lies=True), seed)
    assert Card.MONSIEUR not in s.table.game.hand(0)
    s.sign(s.table.made(Signal(Sign.MONSIEUR)))
    while not s.table.game.results:
        if s.paused:
            s.next()
            continue
        acts = s.table.view(0).legal_actions
        cards = [a for a in acts if isinstance(a, Card)]
        plain = [a for a in acts if not (isinstance(a, Declare) and a.declaration is not Declaration.PASS)]
        s.act(max(cards, key=lambda c: c.strength) if cards else plain[-1])
    return s


def test_after_a_false_monsieur_the_review_names_the_bluff_and_what_it_cost():
    s = _bluffed_monsieur(10)
    result = s.table.game.results[-1]
    review = coach.deal_coach(s.moves, s.table.history, result, Language.ENGLISH, hand=s.deal_hands[1])
    assert not any("Mister" in line for line in review.helped), review.helped
    assert review.bluffs and "your bluff made North believe you held Mister — you did not" in review.bluffs[0]
    lost = [t for t in result.tricks if t.winner in (1, 3)]
    assert any(f"trick {t.number}:" in b and "cost your team that trick" in b for b in review.bluffs for t in lost)
    assert all("misled, not told" in c for c in review.caught)
    # North's own reading of the sign, the one its card came from: a hint at a table with lies.
    move = next(m for m in s.moves if m.seat == 2 and m.readings)
    assert coach.reading_text(move.readings[0], Language.ENGLISH).startswith(
        "Mister → probably you hold Mister (signs may lie at this table: it trusts the sign 80%)")


def test_blind_seen_calls_spend_the_calls_of_the_deal_and_bots_catch_under_the_same_limit():
    table = Table.create(["human", "heuristic", "heuristic", "heuristic"], seed=4, timed=True, calls_per_deal=3,
                         vigilance=Vigilance(0.9))
    table.step()
    shown = sorted(t.event.at for t in table.history if t.event.seat == 1)
    # Three blind clicks at moments nothing of West's shows: three misses, no call left.
    quiet = [t / 10 for t in range(0, 600) if not any(a <= t / 10 <= a + 1.5 for a in shown)][:3]
    assert [table.catch_by_eye(0, 1, t) for t in quiet] == [None, None, None]
    assert table.calls_left(0) == 0
    if shown:  # a real sign now showing is no longer caught: the table no longer hears you
        assert table.catch_by_eye(0, 1, shown[0] + 0.1) is None
    # The bots: however watchful, an opponent catches at most three of your signs a deal.
    for k in range(8):
        table.submit_sign(0, table.made(Signal(Sign.MORDIENNE)), at=100.0 + 3 * k)
    caught = [by for t in table.history if t.event.seat == 0 for by in t.event.caught_by]
    assert caught.count(1) <= 3 and caught.count(3) <= 3 and caught


def test_timing_advice_names_only_gaps_long_enough_for_a_sign():
    note = coach.WatchedNote(Signal(Sign.MONSIEUR), 10.0, (1,), (1,), clear_before=None, clear_after=0.0,
                             clear_for=0.1, hold=1.5)
    text = coach.watched_text(note, {1: "West"}, lambda s: s.sign.value)
    assert "0.1 s" not in text and "No moment clear of their eyes for a whole sign (1.5 s)" in text


def test_the_play_page_reviews_a_bluff_as_a_bluff(data_home):
    """The deal review on the page (AppTest, the save resumed at its review): the bluff and what it
    cost, never "your signs helped" for a card you did not hold."""
    from pathlib import Path

    from streamlit.testing.v1 import AppTest

    from trainer.ui import persistence

    persistence.save_game("bluff", _bluffed_monsieur(10).to_json())
    at = AppTest.from_file(str(Path(__file__).resolve().parents[2] / "streamlit_app.py"), default_timeout=120)
    at.switch_page("trainer/ui/pages/play.py").run()
    at.selectbox(key="play_saved").select("bluff").run()
    at.button(key="play_resume").click().run()
    assert not at.exception, at.exception
    assert at.session_state["game"].reviewing
    text = " ".join(m.value for m in at.markdown if "Coach" in m.value)
    assert "Your bluffs — trick 1: your bluff made North believe you held Monsieur — you did not" in text, text
    assert "the bluff cost your team that trick" in text
    assert "North knew you held Monsieur" not in text
    assert "caught your sign Monsieur: it was a bluff, so it was misled, not told" in text
