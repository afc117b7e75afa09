"""What the play says about the hidden hands: a seat that played last to a trick its opponents took,
without beating or spoiling it, held no card that strong (trainer/bots/inference.py)."""

from __future__ import annotations

import random

from trainer.bots import playout
from trainer.bots.base import make_bot
from trainer.bots.inference import could_not_beat, play_holdings, with_play_inference
from trainer.bots.knowledge import knowledge_of
from trainer.bots.table import Table
from trainer.bots.worlds import sample_hands
from trainer.rules.actions import Phase
from trainer.rules.cards import CARDS, STRENGTH, Card
from trainer.rules.game import Game
from trainer.rules.ruleset import Ruleset

RULES = Ruleset.preset("vendee", chant_allowed=False)
KING = STRENGTH[Card.parse("RB").index]


def _cards(codes: str) -> list[Card]:
    return [Card.parse(c) for c in codes.split()]


# Dealer 3: seat 0 leads. Seats 0+2 one team, 1+3 the other.
HANDS = [
    _cards("2D AD RB 7C 6C 5E 4E 4B 5B"),
    _cards("RD AC 7D 6D 5D 4D 4C 5C 6B"),
    _cards("7B 6E 7E 8D 8C 8B 8E VD VC"),
    _cards("3D 3C 2C 9D 9C 2B 2E AB VB"),
]


def _game(*plays: str) -> Game:
    used = {c for h in HANDS for c in h}
    game = Game.from_deal(RULES, 3, HANDS, [c for c in CARDS if c not in used])
    while game.phase is Phase.DECLARE:
        game.apply(game.legal_actions()[0])
    for code in plays:
        game.apply(Card.parse(code))
    return game


def _strong_share(game: Game, infer: float, seat: int = 3, viewer: int = 0, n: int = 400) -> float:
    """Share of sampled worlds giving ``seat`` an unseen card at least as strong as a king."""
    view = game.view(viewer)
    knowledge = with_play_inference(knowledge_of(view), view, infer)
    rng = random.Random(5)
    return sum(any(STRENGTH[c] >= KING for c in sample_hands(knowledge, rng)[seat]) for _ in range(n)) / n


def test_the_last_seat_that_let_its_opponents_take_the_trick_could_not_beat_it() -> None:
    # Seat 0 leads a king; seat 3, last, plays a valet under it: the trick goes to seat 0's team.
    game = _game("RB", "4C", "7B", "VB")
    assert game.tricks[0].winner == 0
    assert could_not_beat(game.view(0)) == {3: KING}
    assert could_not_beat(game.view(1)) == {3: KING}
    # Seen from seat 3 itself there is nothing to infer about its own hand.
    assert could_not_beat(game.view(3)) == {}


def test_no_inference_when_the_last_seat_s_partner_took_the_trick() -> None:
    # Seat 1 takes the trick with a king; seat 3 (its partner) plays low last: that says nothing.
    game = _game("4E", "RD", "7B", "VB")
    assert game.tricks[0].winner == 1
    assert could_not_beat(game.view(0)) == {}


def test_sampled_worlds_follow_the_inference_with_its_chance() -> None:
    game = _game("RB", "4C", "7B", "VB")
    none = _strong_share(game, infer=0.0)
    always = _strong_share(game, infer=1.0)
    half = _strong_share(game, infer=0.5)
    assert none > 0.9          # 8 of seat 3's cards from a pool rich in strong cards
    assert always == 0.0       # kept in every world: no card as strong as a king
    assert 0.3 < half < 0.7    # kept in about half the worlds
    # Seat 1 played before the winning card was known... it was the king's: seat 1 is not constrained.
    assert _strong_share(game, infer=1.0, seat=1) > 0.9


def test_the_search_bot_samples_worlds_with_the_play_s_inference(monkeypatch) -> None:
    """A spy on the search's sampler: with infer=1 no world gives a seat a card it showed it lacks
    (unless its signs say it holds one: then it lost the trick on purpose and nothing is inferred)."""
    real = playout.sample_hands
    broken: list[int] = []
    checked: list[int] = []
    table_ref: list[Table] = []

    def spy(knowledge, rng, *args, **kwargs):
        hands = real(knowledge, rng, *args, **kwargs)
        view = table_ref[0].game.view(knowledge.seat)
        known = {s: h.required for s, h in knowledge.holdings}
        for seat, holding in play_holdings(view, knowledge.unseen, known):
            checked.append(seat)
            if holding.forbidden & set(hands[seat]):
                broken.append(seat)
        return hands

    monkeypatch.setattr(playout, "sample_hands", spy)
    for infer, expect_broken in ((1.0, False), (0.0, True)):
        broken.clear()
        checked.clear()
        table = Table([make_bot("search", worlds=8, max_ms=None, infer=infer), make_bot("heuristic"),
                       make_bot("heuristic"), make_bot("heuristic")], ruleset=RULES, seed=21)
        table_ref[:] = [table]
        table.step(max_actions=200)
        assert len(checked) > 20
        assert bool(broken) is expect_broken, (infer, len(broken), len(checked))


def test_the_infer_option_is_checked() -> None:
    import pytest

    from trainer.bots.base import BotError

    with pytest.raises(BotError, match="infer"):
        make_bot("search", infer=1.5)


def test_nothing_is_inferred_for_a_seat_whose_signs_say_it_lost_on_purpose() -> None:
    # Seat 3 signed Monsieur (seen by seat 0), then let seat 0 take the trick below a king: it lost
    # on purpose, so the worlds keep its Monsieur rather than the inference.
    game = _game()
    game.record_signal(3, "monsieur", {0})
    for code in ("RB", "4C", "7B", "VB"):
        game.apply(Card.parse(code))
    view = game.view(0)
    knowledge = with_play_inference(knowledge_of(view), view, 1.0)
    assert knowledge.soft == ()
    rng = random.Random(2)
    assert all(Card.MONSIEUR.index in sample_hands(knowledge, rng)[3] for _ in range(50))
