"""The coach and the table's words, on real games: the coach's "a sign would have helped" is checked
by replaying the deal with that sign made (does North then play low?); deal results are told from
the DealResult's fields with who really answered."""

from __future__ import annotations

from trainer.bots import tactics
from trainer.lab import coach_replay
from trainer.rules.actions import Declaration, Declare
from trainer.rules.cards import Card
from trainer.rules.game import Contract, DealEnd, DealResult
from trainer.signals.signs import Sign, Signal
from trainer.ui import coach
from trainer.ui import table_talk as talk
from trainer.ui.game_session import HUMAN_SEAT, GameSession
from trainer.ui.settings import Language


def test_the_sign_the_coach_says_would_have_helped_makes_north_play_low():
    claims = confirmed = 0
    for seed in range(16):
        for claim in coach_replay.would_help_claims(seed)[1]:
            claims += 1
            assert claim.before.rule in (tactics.WIN_WITH_MASTER, tactics.SPOIL_RATHER_THAN_GIVE)
            assert talk.card_name(claim.before.action, Language.ENGLISH) in claim.line
            # Confirmed: North now plays low, a card no stronger than the one it spent, and your
            # team still takes the trick.
            confirmed += claim.confirmed
    assert claims >= 4, claims
    # The replay may reach that trick another way (the sign changes earlier plays), so not every
    # claim can be confirmed; most must be.
    assert confirmed / claims >= 0.75, (confirmed, claims)


def test_the_coach_tells_a_caught_sign_and_the_signs_not_made():
    for seed in range(30):
        session = coach_replay.play(seed, until_deal=1, sign_in_deal=None)
        hand = session.deal_hands[1]
        from trainer.signals.table import honest_signals

        honest = [s for s in honest_signals(hand) if s.sign not in (Sign.AS, Sign.MISERE)]
        if not honest:
            continue
        again = GameSession.start("vendee", "classic", seed)
        event = again.sign(again.table.made(honest[0]))
        if not event.caught_by:
            continue
        while not again.table.game.results:
            if again.paused:
                again.next()
                continue
            view = again.table.view(HUMAN_SEAT)
            actions = [a for a in view.legal_actions
                       if not (isinstance(a, Declare) and a.declaration is not Declaration.PASS)]
            again.act(actions[0])
        result = again.table.game.results[0]
        review = coach.deal_coach(again.moves, again.table.history, result, Language.ENGLISH,
                                  hand=again.deal_hands[1])
        catcher = talk.seat_name(event.caught_by[0], capital=True)
        assert any(line.startswith(catcher) and talk.sign_name(honest[0], Language.ENGLISH) in line
                   for line in review.caught)
        made = talk.sign_name(honest[0], Language.ENGLISH)
        assert made not in review.unsigned
        assert set(review.unsigned) == {talk.sign_name(s, Language.ENGLISH) for s in honest_signals(hand)
                                        if s.sign is not honest[0].sign}
        return
    raise AssertionError("no seed in 30 had a caught first sign")


def _declined(declared_by: int) -> DealResult:
    return DealResult(1, 0, False, DealEnd.MORDIENNE_DECLINED, (), (0, 0, 0, 0), None, False,
                      (0, 1) if declared_by % 2 else (1, 0), Contract.NORMAL, declared_by)


def test_a_declined_mordienne_names_who_answered_for_which_team():
    west = talk.deal_result_text(_declined(1))
    assert west.startswith("West announced mordienne; North declined for your team")
    assert "you were not asked" in west and "The opponents score 1." in west
    assert "the opponents declined" not in west and "seat" not in west
    mine = talk.deal_result_text(_declined(0))
    assert mine.startswith("You announced mordienne; West declined for the opponents")
    assert "not asked" not in mine and "Your team scores 1." in mine


def test_words_agree_with_the_seat():
    assert talk.says(0, "lead", "leads") == "You lead"
    assert talk.says(1, "lead", "leads") == "West leads"
    assert talk.turn_text(None, None, over=True, paused=False) == "Game over"
    assert talk.join(["a", "b", "c"]) == "a, b and c"
    assert talk.card_name(Card.parse("2C"), Language.ENGLISH) == "the Cow"
    assert talk.card_name(Card.parse("2C"), Language.FRENCH) == "la Vache"
    assert talk.sign_name(Signal(Sign.AS, 2), Language.ENGLISH) == "2 aces"


def test_the_signs_the_coach_says_helped_made_north_play_low():
    """Each "your signs helped" claim, replayed without your signs in that deal: North no longer
    plays low in the first trick named (it does not know you can beat the trick)."""
    claims = confirmed = 0
    for seed in range(6):
        for claim in coach_replay.helped_claims(seed):
            claims += 1
            assert claim.with_signs.rule == tactics.PARTNER_WINNING_PLAY_LOW
            confirmed += claim.confirmed
    assert claims >= 5, claims
    assert confirmed / claims >= 0.75, (confirmed, claims)
