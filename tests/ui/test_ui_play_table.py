"""A whole game on the Play page under AppTest, driven by buttons only (camera off), checked at every
moment against the table's own state: the closed trick and its winner, whose turn, the coach's notes
against the moves the bots actually made, messages gone once their trick or deal is over, the score
sheet against the engine's results, and a clean game-over screen."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from trainer.rules.actions import Phase
from trainer.rules.cards import Card
from trainer.signals.signs import Sign
from trainer.signals.table import honest_signals
from trainer.ui import coach
from trainer.ui import table_talk as talk
from trainer.ui.game_session import HUMAN_SEAT, PARTNER_SEAT, GameSession
from trainer.ui.settings import Language
from trainer.ui.views.play import SHORT_NAMES

APP = str(Path(__file__).resolve().parents[2] / "streamlit_app.py")


def _start(seed: int) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page("trainer/ui/pages/play.py").run()
    at.session_state["play_seed"] = seed
    at.button(key="play_new").click().run()
    assert not at.exception, at.exception
    return at


def _session(at: AppTest) -> GameSession:
    return at.session_state["game"]


def _markdown(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown]


def _coach_text(at: AppTest) -> str:
    return next((m for m in _markdown(at) if m.startswith("**Coach**")), "")


def _click(at: AppTest, key: str) -> None:
    at.button(key=key).click().run()
    assert not at.exception, at.exception


def _decide(at: AppTest) -> None:
    labels = {b.label: b for b in at.button}
    for choice in ("Pass", "No chant", "Refuse"):
        if choice in labels:
            labels[choice].click().run()
            assert not at.exception, at.exception
            return
    raise AssertionError(f"no decision button among {sorted(labels)}")


def _check_pause(at: AppTest, language: Language) -> None:
    """A paused table: the closed trick with its winner, whose turn, and the coach on North's card."""
    session = _session(at)
    game = session.table.game
    texts = _markdown(at)
    if game.tricks:
        trick, result = game.tricks[-1], None
    else:
        result = game.results[-1]
        trick = result.tricks[-1] if result.tricks else None
        assert f"**Deal {result.deal} is over.**" in texts
        assert [s.value for s in at.success] == [f"Deal {result.deal}: {talk.deal_result_text(result, 4, language)}"]
        assert at.button(key="play_next").label == "Next deal"
        # The seats show the finished deal's tricks while its result is on the table.
        for seat in range(4):
            assert any(f"tricks in deal {result.deal}: **{result.tricks_won[seat]}**" in m for m in texts), seat
    if trick is not None:
        centre = next(m for m in texts if m.startswith("**Last trick**"))
        assert talk.trick_outcome(trick) in centre
        # The coach speaks of what North actually did in that trick, and why (its recorded rule).
        move = next(m for m in session.moves if m.seat == PARTNER_SEAT and isinstance(m.action, Card)
                    and m.deal == (result.deal if result else game.deal_number) and m.trick == trick.number - 1)
        text = _coach_text(at)
        assert f"North played {talk.card_name(move.action, language)}** in trick {trick.number}" in text
        assert coach.why_played(move.rule, trick, session.table.ruleset.tricks_per_deal) in text
        for phrase in coach.belief_phrases(move.belief, language):
            assert phrase in text
    nexts = "You play first" if game.to_move == 0 else f"{SHORT_NAMES[game.to_move].capitalize()} plays next"
    assert any(i.value.startswith(nexts) for i in at.info), [i.value for i in at.info]
    # The action the banner suggests is the button on the page.
    label = at.button(key="play_next").label
    assert any(f"click {label} when" in i.value for i in at.info), label


def test_a_whole_game_with_buttons(data_home):
    at = _start(seed=11)
    language = at.session_state["settings"].language
    pauses = deal_ends = coach_beliefs = 0
    signed_deals: set[int] = set()
    stale_checks = 0
    for _ in range(600):
        session = _session(at)
        if session.table.is_over:
            break
        view = session.table.view(HUMAN_SEAT)
        if session.paused:
            pauses += 1
            _check_pause(at, language)
            if not session.table.game.tricks:
                deal_ends += 1
                _click(at, "play_next")
            else:
                if "you hold" in _coach_text(at):
                    coach_beliefs += 1
                _click(at, "play_next")
            continue
        if signed_deals and view.deal_number not in signed_deals:
            # A new deal: the signs sent in the last one are no longer listed; once its first card
            # is down, the last deal's result has left the table too (it stays on the score sheet).
            assert not any(c.value.startswith("Sent to your partner") for c in at.caption)
            if view.current_trick:
                assert not any(" is over.**" in m for m in _markdown(at))
                assert not any(s.value.startswith("Deal ") for s in at.success)
            stale_checks += 1
        if view.deal_number not in signed_deals and view.phase in (Phase.DECLARE, Phase.PLAY) \
                and view.to_move == HUMAN_SEAT and not view.tricks and not view.current_trick:
            signed_deals.add(view.deal_number)
            honest = [s for s in honest_signals(view.hand) if s.sign not in (Sign.AS, Sign.MISERE)]
            lies = [s for s in (Sign.MONSIEUR, Sign.MADAME, Sign.BORGNE, Sign.VACHE) if s.cards[0] not in view.hand]
            if honest:
                _click(at, f"sign_{honest[0].sign.value}")
                assert any(c.value.startswith("Sent to your partner this deal: ") for c in at.caption)
            if lies:
                _click(at, f"sign_{lies[0].value}")
                assert at.error and at.error[0].value.startswith("Not sent: you do not hold")
        if view.phase is Phase.PLAY and view.to_move == HUMAN_SEAT:
            # Whose turn: the banner and the marker at the person's seat.
            assert any(s.value == "Your turn: play a card" for s in at.success)
            assert any("▶ your turn" in m for m in _markdown(at))
            _click(at, f"card_{view.hand[-1].code}")
            assert not at.error  # a refusal lives only as long as its trick
        else:
            _decide(at)
    session = _session(at)
    game = session.table.game
    assert game.is_over, "the game did not end in 600 clicks"
    assert pauses >= 10 and deal_ends >= 2 and stale_checks >= 1 and coach_beliefs >= 1, \
        (pauses, deal_ends, stale_checks, coach_beliefs)
    # The game-over screen: the result, the last deal's trick and review, the score sheet, New game.
    outcome = game.outcome
    assert [h.value for h in at.subheader] == [f"Game over — {talk.outcome_text(outcome)}"]
    assert "Deal " + str(game.results[-1].deal) + " review" in _coach_text(at)
    assert at.button(key="play_new_after").label == "New game"
    assert not [b for b in at.button if b.key and (b.key.startswith("card_") or b.key.startswith("sign_"))]
    everything = " ".join(_markdown(at) + [i.value for i in at.info] + [s.value for s in at.success])
    assert "leads" not in everything and "Your turn" not in everything and "seat " not in everything
    sheet = next(d.value for d in at.table if "your team" in d.value.columns)
    assert len(sheet) == len(game.results)
    assert list(sheet["your team"]) == [r.points[0] for r in game.results]
    assert sheet["total"].iloc[-1] == f"{game.scores[0]}–{game.scores[1]}"
    # New game: a fresh table, and nothing of the old game's messages on it.
    _click(at, "play_new_after")
    assert not _session(at).table.is_over and not at.error
    assert not any(c.value.startswith("Sent to your partner") for c in at.caption)
