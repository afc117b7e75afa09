"""Each rule of the heuristic fires in a hand built for it (the sources' advice, RULES.md)."""

from __future__ import annotations

import random

from trainer.bots import tactics as T
from trainer.bots.heuristic import (
    ACCEPT_GIVE_UP,
    ACCEPT_MORDIENNE,
    CHANT_NO,
    CHANT_YES,
    DECLINE_MORDIENNE,
    DISCARD_WEAKEST,
    OFFER_GIVE_UP,
    REFUSE_GIVE_UP,
    HeuristicBot,
)
from trainer.bots.table import Table
from trainer.rules.actions import ACCEPT, GIVE_UP, NO, PASS, REFUSE, YES, Declaration, Declare, Discard, Phase
from trainer.rules.cards import CARDS, Card
from trainer.rules.game import Game
from trainer.rules.ruleset import Ruleset
from trainer.signals.signs import Sign, Signal


def idx(codes: str) -> tuple[int, ...]:
    return tuple(Card.parse(c).index for c in codes.split())


def situation(hand, trick=(), seat=0, won=(0, 0, 0, 0), left=9, opp=None, **kw) -> T.PlaySituation:
    hand_i = idx(hand)
    trick_i = tuple((s, Card.parse(c).index) for s, c in trick)
    if opp is None:
        seen = set(hand_i) | {c for _, c in trick_i}
        opp = frozenset(i for i in range(48) if i not in seen)
    else:
        opp = frozenset(idx(opp))
    return T.PlaySituation(seat, 4, hand_i, trick_i, tuple(won), left, opp, **kw)


def rule(sit) -> tuple[str, str]:
    card, name = T.choose_card(sit)
    return Card.from_index(card).value, name


def test_partner_winning_play_low_and_never_tie_the_partner() -> None:
    # Seat 0 plays last; partner (2) leads the trick with the Borgne; opponents played low.
    sit = situation("AD 4C 7B", trick=((1, "5D"), (2, "2D"), (3, "6C")))
    assert rule(sit) == ("4C", T.PARTNER_WINNING_PLAY_LOW)
    # Partner wins with an ace; our lowest card is also an ace: we must not spoil our partner.
    sit = situation("AD RB", trick=((1, "5D"), (2, "AC"), (3, "6C")), opp="3D 3C")
    assert rule(sit) == ("RB", T.PARTNER_WINNING_PLAY_LOW)


def test_last_to_play_wins_with_the_cheapest_card_that_beats() -> None:
    sit = situation("3D AB VC 4E", trick=((1, "RB"), (2, "5C"), (3, "6C")))
    assert rule(sit) == ("AB", T.WIN_CHEAPLY_LAST)


def test_spoil_rather_than_give_the_trick() -> None:
    # Opponent (seat 3) wins with a king; we cannot beat it but hold a king: faire autant.
    sit = situation("RC 5E 4E", trick=((1, "7D"), (2, "6C"), (3, "RD")))
    assert rule(sit) == ("RC", T.SPOIL_RATHER_THAN_GIVE)


def test_win_with_a_card_nobody_left_can_beat() -> None:
    # Second to play: Monsieur is out of the opponents' reach; the Borgne is not.
    sit = situation("3D 2D 5E", trick=((3, "AC"),), opp="3C 2C 4D 4B")
    assert rule(sit) == ("3D", T.WIN_WITH_MASTER)


def test_lead_a_master_and_mettre_a_la_force() -> None:
    assert rule(situation("3D 7C 4E", opp="3C 2D AB")) == ("3D", T.LEAD_MASTER)
    # No master: lead the middle of the hand (a figure) to draw out the opponents' big cards.
    assert rule(situation("AD RB 4E", opp="3D 3C 2D")) == ("RB", T.METTRE_A_LA_FORCE)


def test_discard_lowest_when_the_trick_is_lost() -> None:
    sit = situation("RB 7C 4E", trick=((1, "3D"), (2, "5C"), (3, "6C")))
    assert rule(sit) == ("4E", T.DISCARD_LOWEST)


def test_own_mordienne_loses_early_then_takes_the_last_tricks() -> None:
    early = situation("3D 3C 2D 4E 5E 6E 7E 8E 9E", trick=((3, "VC"),), going_for_mordienne=True)
    card, name = rule(early)
    assert name == T.MORDIENNE_LOSE_EARLY and Card.parse(card).strength < Card.VALET_COUPES.strength
    late = situation("3D 3C 2D", left=3, going_for_mordienne=True, opp="2C 9C AB")
    assert rule(late) == ("2D", T.MORDIENNE_TAKE_LAST)


def test_support_partner_mordienne_by_spoiling_and_spreading() -> None:
    # Opponent 1 leads a valet; we hold a valet: spoil the early trick.
    sit = situation("VD 3C 5E", trick=((1, "VB"),), partner_mordienne=True)
    assert rule(sit) == ("VD", T.SUPPORT_MORDIENNE_SPOIL)
    # Opponent 3 already has a trick and wins this one: take it from them to spread the tricks.
    sit = situation("RD 5E 4E", trick=((1, "5C"), (2, "4D"), (3, "CB")), won=(0, 0, 0, 1),
                    partner_mordienne=True)
    assert rule(sit) == ("RD", T.SUPPORT_MORDIENNE_SPREAD)


# -- decisions outside the tricks, through real views -------------------------------------------

WEAK = "RB CD VE 9E 8D 7C 6B 5E 4C"
STRONG = "3D 3C 2D AD AB 9C 7E 6D 5B"


def _game_with_hands(seat0: str, seat2: str, ruleset: Ruleset, dealer: int = 3) -> Game:
    used = set(Card.parse_many((seat0 + " " + seat2).split()))
    rest = [c for c in CARDS if c not in used]
    hands = [Card.parse_many(seat0.split()), rest[:9], Card.parse_many(seat2.split()), rest[9:18]]
    return Game.from_deal(ruleset, dealer, hands, rest[18:])


def test_chant_vote_and_discard() -> None:
    bot = HeuristicBot()
    game = _game_with_hands(WEAK, STRONG, Ruleset())
    assert game.phase is Phase.CHANT_VOTE and game.to_move == 0
    assert bot.choose(game.view(0), random.Random(0)) == YES and bot.last_rule == CHANT_YES
    strong = _game_with_hands(STRONG, WEAK, Ruleset())
    assert bot.choose(strong.view(0), random.Random(0)) == NO and bot.last_rule == CHANT_NO
    # Everyone agrees; the receivers (left of the dealer and the dealer's partner) discard.
    for _ in range(4):
        game.apply(YES)
    assert game.phase is Phase.DISCARD
    seat = game.to_move
    view = game.view(seat)
    action = bot.choose(view, random.Random(0))
    weakest = min(view.hand, key=lambda c: c.strength)
    assert isinstance(action, Discard) and action.card.strength == weakest.strength
    assert bot.last_rule == DISCARD_WEAKEST


def test_give_up_when_both_partners_are_weak_and_accept_the_offer() -> None:
    partner_weak = "RD CC VB 9B 8E 7E 6D 5B 4D"
    table = Table([None, None, None, None], ruleset=Ruleset.preset("vendee", chant_allowed=False), seed=1)
    # Replace the seeded game with a built deal.
    table.game = _game_with_hands(WEAK, partner_weak, table.ruleset)
    table.submit_sign(2, table.made(Signal(Sign.MISERE)))
    bot = HeuristicBot()
    view = table.view(0)
    assert view.phase is Phase.DECLARE and view.to_move == 0
    assert bot.choose(view, random.Random(0)) == GIVE_UP and bot.last_rule == OFFER_GIVE_UP
    # Without the partner's misère, the same hand passes.
    alone = _game_with_hands(WEAK, partner_weak, table.ruleset)
    assert bot.choose(alone.view(0), random.Random(0)) == PASS
    # Pagat: the left-hand opponent answers. Seat 1 here holds the four luettes: it refuses and
    # commits to mordienne; with an ordinary hand it takes the free point.
    pagat_rules = Ruleset.preset("pagat", chant_allowed=False)
    pagat = _game_with_hands(WEAK, partner_weak, pagat_rules)
    assert {Card.MONSIEUR, Card.MADAME, Card.BORGNE, Card.VACHE} <= set(pagat.hand(1))
    pagat.apply(GIVE_UP)
    assert pagat.phase is Phase.ANSWER and pagat.to_move == 1
    assert bot.choose(pagat.view(1), random.Random(0)) == REFUSE and bot.last_rule == REFUSE_GIVE_UP
    ordinary = "RC CE VC 8B 8C 7D 6C 5C 4B"
    used = set(Card.parse_many((WEAK + " " + partner_weak + " " + ordinary).split()))
    rest = [c for c in CARDS if c not in used]
    hands = [Card.parse_many(WEAK.split()), Card.parse_many(ordinary.split()),
             Card.parse_many(partner_weak.split()), rest[:9]]
    pagat = Game.from_deal(pagat_rules, 3, hands, rest[9:])
    pagat.apply(GIVE_UP)
    assert bot.choose(pagat.view(1), random.Random(0)) == ACCEPT and bot.last_rule == ACCEPT_GIVE_UP


def test_answer_to_an_announced_mordienne_depends_on_our_strength() -> None:
    ruleset = Ruleset.preset("vendee", chant_allowed=False)
    bot = HeuristicBot()
    # Seat 0 announces; seat 1 answers. Seat 1 holds the rest[:9] cards of the built deal.
    for seat1_strong, expected, why in ((True, ACCEPT, ACCEPT_MORDIENNE), (False, REFUSE, DECLINE_MORDIENNE)):
        used = set(Card.parse_many(WEAK.split()))
        pool = [c for c in CARDS if c not in used]
        strong1 = [c for c in pool if c.level <= 9][:6] + [c for c in pool if c.level > 12][:3]
        weak1 = [c for c in pool if c.level > 12][3:12]
        seat1 = strong1 if seat1_strong else weak1
        rest = [c for c in pool if c not in seat1]
        hands = [Card.parse_many(WEAK.split()), seat1, rest[:9], rest[9:18]]
        game = Game.from_deal(ruleset, 3, hands, rest[18:])
        game.apply(Declare(Declaration.MORDIENNE))
        assert game.phase is Phase.ANSWER and game.to_move == 1
        assert bot.choose(game.view(1), random.Random(0)) == expected and bot.last_rule == why


def test_signs_honest_cards_misere_and_mordienne() -> None:
    bot = HeuristicBot()
    strong = _game_with_hands(STRONG, WEAK, Ruleset.preset("vendee", chant_allowed=False))
    intents = bot.signals(strong.view(0), random.Random(0))
    signs = [i.signal for i in intents]
    assert Signal(Sign.MONSIEUR_ET_MADAME) in signs and Signal(Sign.AS, 2) in signs
    assert Signal(Sign.MORDIENNE) in signs  # three luettes: going for mordienne
    weak = _game_with_hands(WEAK, STRONG, Ruleset.preset("vendee", chant_allowed=False))
    assert [i.signal for i in bot.signals(weak.view(0), random.Random(0))] == [Signal(Sign.MISERE)]
