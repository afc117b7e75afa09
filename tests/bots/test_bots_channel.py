"""A partner's signs through a camera: weighed by the reader's confidence and figures, dropped when
the play contradicts them; the heuristic uses the opponents' signs it catches."""

from __future__ import annotations

import random

import pytest

from trainer.bots.channel import EVAL_VISION_HELD_OUT, NoisyChannel
from trainer.bots.heuristic import HeuristicBot
from trainer.bots.knowledge import knowledge_of, signs_this_deal
from trainer.bots.table import Table
from trainer.bots.tactics import LEAD_MASTER
from trainer.bots.worlds import sample_hands
from trainer.rules.actions import Phase
from trainer.rules.cards import Card
from trainer.rules.game import Game
from trainer.rules.ruleset import Ruleset
from trainer.signals.conventions import CLASSIC
from trainer.signals.gestures import Gesture, GestureEvent
from trainer.signals.table import Vigilance, mark_confidence, split_confidence

RULES = Ruleset.preset("vendee", chant_allowed=False)
MONSIEUR = Card.MONSIEUR.index


def _cards(codes: str) -> list[Card]:
    return [Card.parse(c) for c in codes.split()]


# Seat 0 (the bot under test) and its partner seat 2; seats 1 and 3 the opponents. Dealer 3: seat 0 leads.
HANDS = [
    _cards("2D AD RB 7C 6C 5E 4E 4B 5B"),   # 0: the Borgne, an ace, a king, low cards
    _cards("RD AC 7D 6D 5D 4D 4C 5C 6B"),   # 1
    _cards("7B 6E 7E 8D 8C 8B 8E VD VC"),   # 2: the partner, no Monsieur
    _cards("3D 3C 2C 9D 9C 2B 2E AB VB"),   # 3: Monsieur, Madame, the Vache ...
]


def _game() -> Game:
    used = {c for h in HANDS for c in h}
    from trainer.rules.cards import CARDS

    talon = [c for c in CARDS if c not in used]
    game = Game.from_deal(RULES, 3, HANDS, talon)
    while game.phase is Phase.DECLARE:
        game.apply(game.legal_actions()[0])
    return game


def _share_with_monsieur(game: Game, seat: int = 0, holder: int = 2, n: int = 600, **kw) -> float:
    knowledge = knowledge_of(game.view(seat), **kw)
    rng = random.Random(3)
    return sum(MONSIEUR in sample_hands(knowledge, rng)[holder] for _ in range(n)) / n


def test_confidence_marks_round_trip() -> None:
    marked = mark_confidence("as x2 | au-dessus", Gesture.MOUTH_OPEN, 0.734)
    assert split_confidence(marked) == ("as x2 | au-dessus", Gesture.MOUTH_OPEN, 0.734)
    assert split_confidence("borgne") == ("borgne", None, None)
    with pytest.raises(ValueError, match="between 0 and 1"):
        mark_confidence("borgne", Gesture.WINK, 1.5)


def test_a_camera_read_sign_is_believed_by_its_confidence_and_gesture() -> None:
    shares = {}
    for confidence in (0.95, 0.55):
        game = _game()
        game.record_signal(2, mark_confidence("monsieur", Gesture.BROWS_UP, confidence), {0})
        shares[confidence] = _share_with_monsieur(game)
    unmarked = _game()
    unmarked.record_signal(2, "monsieur", {0})
    certain = _share_with_monsieur(unmarked)
    expected = {c: EVAL_VISION_HELD_OUT.trust(Gesture.BROWS_UP, c) for c in shares}
    # A sure reading is believed more than one near the threshold; a seen sign is certain.
    assert certain == 1.0
    assert expected[0.95] > expected[0.55] + 0.2
    for c, share in shares.items():
        # Without the sign, seat 2 holds Monsieur in about 9/39 of the worlds.
        prior = 9 / 39
        assert share == pytest.approx(expected[c] + (1 - expected[c]) * prior, abs=0.06)


def test_the_gesture_figures_matter() -> None:
    # brows_up (Monsieur) is read with precision 0.62, eyes_closed with 1.00: at the same
    # confidence a brows_up reading is believed less.
    r = EVAL_VISION_HELD_OUT
    assert r.trust(Gesture.BROWS_UP, 0.7) < r.trust(Gesture.EYES_CLOSED, 0.7)
    assert r.trust(Gesture.WINK, 0.5) == pytest.approx(0.88)
    assert "eval-vision" in r.source


def test_a_sign_contradicted_by_play_is_no_longer_believed() -> None:
    game = _game()
    game.record_signal(2, mark_confidence("monsieur", Gesture.BROWS_UP, 0.9), {0})
    before = _share_with_monsieur(game)
    # Trick 1: seat 0 leads low, seat 1 takes it with a king; the partner, playing after the
    # king, does not beat it though Monsieur would have.
    for code in ("4E", "RD", "7B", "VB"):
        game.apply(Card.parse(code))
    assert game.tricks[0].winner == 1
    after = _share_with_monsieur(game)
    assert before > 0.7
    assert after < 0.4  # back to the prior: the sign is dropped for the deal


def test_a_sign_is_not_contradicted_when_the_winning_card_came_later() -> None:
    game = _game()
    game.record_signal(2, mark_confidence("monsieur", Gesture.BROWS_UP, 0.9), {0})
    # Seat 3 takes the trick after the partner played: the partner could not know.
    for code in ("4E", "4C", "7B", "AB"):
        game.apply(Card.parse(code))
    assert game.tricks[0].winner == 3
    assert _share_with_monsieur(game) > 0.7


def test_a_person_signing_through_the_camera_reaches_the_bot_partner_with_its_confidence() -> None:
    table = Table([None, None, HeuristicBot(), None], ruleset=RULES, seed=4, vigilance=Vigilance(1.0))
    hand = table.game.hand(0)
    card_gesture = {Card.MONSIEUR: Gesture.BROWS_UP, Card.BORGNE: Gesture.WINK}
    made = next((g for c, g in card_gesture.items() if c in hand), None)
    if made is None:
        pytest.skip("seed deals seat 0 no Monsieur nor Borgne")
    table.submit_sign(0, CLASSIC.read(GestureEvent(made, 3.0, 3.6, confidence=0.66)))
    partner = [r for r in signs_this_deal(table.view(2)) if r.seat == 0]
    opponent = [r for r in signs_this_deal(table.view(1)) if r.seat == 0]
    own = [r for r in signs_this_deal(table.view(0)) if r.seat == 0]
    assert [(r.gesture, r.confidence) for r in partner] == [(made, 0.66)]
    assert [(r.gesture, r.confidence) for r in opponent] == [(None, None)]  # caught by eye
    assert len(own) == 1 and own[0].confidence is None


def test_the_noisy_channel_misses_and_invents_signs() -> None:
    from trainer.bots.arena import TeamSpec

    noisy = NoisyChannel.parse("50%/6")
    assert (noisy.miss, noisy.false_per_min, noisy.delay_s) == (0.5, 6.0, 0.0)
    spec = TeamSpec.parse("heuristic")
    missed = invented = read = 0
    for seed in range(3):
        table = Table([spec.build() for _ in range(4)], ruleset=RULES, seed=seed, channel=noisy, channel_team=0)
        table.play_out()
        for deal in {t.deal for t in table.history} | {r.deal for r in table.game.signals}:
            made = [t.event.signal for t in table.history if t.deal == deal and t.event.seat == 0]
            readings = [r for r in table.game.signals if r.deal == deal and r.seat == 0 and 2 in r.reached]
            # The partner gets only the camera's readings, never the plain record of the sign.
            assert all(split_confidence(r.message)[2] is not None for r in readings)
            texts = [split_confidence(r.message)[0] for r in readings]
            from trainer.signals.table import encode_message

            made_texts = [encode_message(s) for s in made]
            read += sum(t in texts for t in made_texts)
            missed += sum(t not in texts for t in made_texts)
            invented += sum(t not in made_texts for t in texts)
    assert read > 0 and missed > 0 and invented > 0
    with pytest.raises(ValueError, match="READ/FALSE_PER_MIN"):
        NoisyChannel.parse("lots")


def test_the_heuristic_uses_the_opponents_signs_it_catches() -> None:
    plain = _game()
    caught = _game()
    # Both opponents signed misère and seat 0 caught both signs: nothing above an ace is theirs.
    for seat in (1, 3):
        caught.record_signal(seat, "misere", {0, 1, 3})
    bot = HeuristicBot()
    bot.seated(0, None)
    without = bot.choose(plain.view(0), random.Random(0))
    rule_without = bot.last_rule
    with_signs = bot.choose(caught.view(0), random.Random(0))
    assert (with_signs, bot.last_rule) == (Card.BORGNE, LEAD_MASTER)
    assert with_signs != without and rule_without != LEAD_MASTER
