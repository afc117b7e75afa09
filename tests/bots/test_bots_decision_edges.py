"""Decisions of the bots at the edges the rule tests did not reach, each on a built deal through
the real engine: who refuses a give-up, and how far a bot that hears its partner through a camera
believes what it read. Written against mutants of trainer/bots that the suite let pass
(docs/mutation.md)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from trainer.bots.channel import NoisyChannel
from trainer.bots.heuristic import ACCEPT_GIVE_UP, ANNOUNCE, PASS_RULE, REFUSE_GIVE_UP, HeuristicBot
from trainer.bots.knowledge import knowledge_of, public_play
from trainer.bots.playout import POLICIES, greedy_card, pimc_values, random_card
from trainer.bots.search import ISMCTSBot, SearchBot
from trainer.bots.signing import SIGNS_PAY_BELOW, SignPolicy, choose_policy
from trainer.bots.tactics import LEAD_MASTER, METTRE_A_LA_FORCE, MORDIENNE_LOSE_EARLY, MORDIENNE_TAKE_LAST
from trainer.bots.worlds import sample_hands
from trainer.rules.actions import ACCEPT, ANNOUNCE_MORDIENNE, GIVE_UP, PASS, REFUSE, Phase
from trainer.rules.cards import CARDS, Card
from trainer.rules.fastdeal import FastDeal
from trainer.rules.game import Game
from trainer.rules.ruleset import GivingUp, Ruleset
from trainer.signals.gestures import Gesture
from trainer.signals.relative import base_level, resolve
from trainer.signals.signs import Sign, Signal
from trainer.signals.table import Vigilance, encode_message, mark_confidence

WEAK = "RB CD VE 9E 8D 7C 6B 5E 4C"
PARTNER_WEAK = "RD CC VB 9B 8E 7E 6D 5B 4D"


def _deal(ruleset: Ruleset, codes: list[str | None], dealer: int = 3) -> Game:
    """A deal with the given hands (None: filled from the cards left, strongest first)."""
    hands = [Card.parse_many(c.split()) if c else None for c in codes]
    used = {card for hand in hands if hand for card in hand}
    rest = [c for c in CARDS if c not in used]
    for seat, hand in enumerate(hands):
        if hand is None:
            hands[seat], rest = rest[:9], rest[9:]
    return Game.from_deal(ruleset, dealer, hands, rest)


def test_a_mordienne_hand_without_team_strength_takes_the_free_point():
    # Pagat: seat 1 answers seat 0's give-up. Three luettes make a mordienne hand, but with no
    # sign from its partner the team counts 3 trick-takers, far from the 8 a refusal commits to.
    rules = Ruleset.preset("pagat", chant_allowed=False)
    assert rules.giving_up is GivingUp.ACCEPT_OR_REFUSE
    game = _deal(rules, [WEAK, "3D 3C 2D RC CE VC 8B 8C 7D", PARTNER_WEAK, None])
    game.apply(GIVE_UP)
    assert game.phase is Phase.ANSWER and game.to_move == 1
    bot = HeuristicBot()
    assert bot.choose(game.view(1), random.Random(0)) == ACCEPT
    assert bot.last_rule == ACCEPT_GIVE_UP


def _answer_to_give_up(seat1: str, seat3: str | None = None, signs=()) -> tuple[object, str]:
    game = _deal(Ruleset.preset("pagat", chant_allowed=False), [WEAK, seat1, PARTNER_WEAK, seat3])
    for seat, signal in signs:  # seen by seat 1 (its partner's, or an opponent's it caught)
        game.record_signal(seat, encode_message(signal), {1})
    game.apply(GIVE_UP)
    assert game.phase is Phase.ANSWER and game.to_move == 1
    bot = HeuristicBot()
    return bot.choose(game.view(1), random.Random(0)), bot.last_rule


def test_a_team_of_exactly_eight_trick_takers_with_a_mordienne_hand_refuses():
    # Four luettes and four aces: 8 cards at level 9 or better, the least that commits to mordienne.
    assert _answer_to_give_up("3D 3C 2D 2C AD AC AB AE 4B") == (REFUSE, REFUSE_GIVE_UP)
    # One ace fewer (a low card instead): 7, the free point.
    assert _answer_to_give_up("3D 3C 2D 2C AD AC AB 4B 5C") == (ACCEPT, ACCEPT_GIVE_UP)
    # A king is no trick-taker (level 10): seven and a king are still seven.
    assert _answer_to_give_up("3D 3C 2D 2C AD AC AB RC 5C") == (ACCEPT, ACCEPT_GIVE_UP)


def test_the_partners_signs_and_only_the_partners_count_in_the_team_strength():
    # Seat 1 holds 5 trick-takers (three luettes, two aces); its partner, seat 3, holds two aces and
    # the Vache. Told by signs, the team has 8: refuse and commit to mordienne.
    seat1, seat3 = "3D 3C 2D AD AC 4B 5C 6C 7B", "AB AE 2C 4E 5D 6E 7D 8B 8C"
    told = (Signal(Sign.AS, 2), Signal(Sign.VACHE))
    assert _answer_to_give_up(seat1, seat3, [(3, s) for s in told]) == (REFUSE, REFUSE_GIVE_UP)
    assert _answer_to_give_up(seat1, seat3) == (ACCEPT, ACCEPT_GIVE_UP)
    # The same signs caught from an opponent (seat 2) add nothing to seat 1's team.
    assert _answer_to_give_up(seat1, seat3, [(2, s) for s in told]) == (ACCEPT, ACCEPT_GIVE_UP)
    # An aces sign adds the aces it counts (one here), not the four cards the sign can stand for:
    # 4 + 1 is far from 8.
    assert _answer_to_give_up("3D 2D 2C AD 4B 5C 6C 7B 8B", "AE 3C 4E 5D 6E 7D 8C VD 3B",
                              [(3, Signal(Sign.AS, 1))]) == (ACCEPT, ACCEPT_GIVE_UP)


def _declaration(preset: str, seat0: str) -> tuple[object, str]:
    game = _deal(Ruleset.preset(preset, chant_allowed=False), [seat0, None, None, None])
    assert game.phase is Phase.DECLARE and game.to_move == 0
    bot = HeuristicBot()
    return bot.choose(game.view(0), random.Random(0)), bot.last_rule


def test_announce_mordienne_from_eight_trick_takers_where_the_opponents_may_decline():
    eight, seven = "3D 3C 2D 2C AD AC AB AE 4B", "3D 3C 2D 2C AD AC AB 4B 5C"
    assert ANNOUNCE_MORDIENNE in _deal(Ruleset.preset("vendee", chant_allowed=False),
                                       [eight, None, None, None]).legal_actions()
    assert _declaration("vendee", eight) == (ANNOUNCE_MORDIENNE, ANNOUNCE)
    assert _declaration("vendee", seven) == (PASS, PASS_RULE)
    # Pagat: an announced mordienne extends the deal to ten tricks, not a bet they may decline.
    pagat = _deal(Ruleset.preset("pagat", chant_allowed=False), [eight, None, None, None])
    assert ANNOUNCE_MORDIENNE in pagat.legal_actions()
    assert _declaration("pagat", eight) == (PASS, PASS_RULE)


STRONG = "3D 3C 2D AD AB 9C 7E 6D 5B"


def test_signs_once_a_deal_before_the_first_trick_and_never_when_told_not_to():
    game = _deal(Ruleset.preset("vendee", chant_allowed=False), [STRONG, None, None, None])
    bot = HeuristicBot()
    first = bot.signals(game.view(0), random.Random(0))
    assert Signal(Sign.MORDIENNE) in [i.signal for i in first] and len(first) >= 3
    # A bot built without signs says nothing with the same hand.
    assert HeuristicBot(signs=False).signals(game.view(0), random.Random(0)) == []
    # Once its signs are made (recorded at the table), it has nothing more to say this deal.
    for intent in first:
        game.record_signal(0, encode_message(intent.signal), {2})
    assert bot.signals(game.view(0), random.Random(0)) == []
    # A bot that has not signed stays silent once a trick is played: the sign point has passed.
    late = _deal(Ruleset.preset("vendee", chant_allowed=False), [STRONG, None, None, None])
    while not late.tricks:
        late.apply(late.legal_actions()[0])
    assert late.phase is Phase.PLAY and len(late.view(0).tricks) == 1
    assert bot.signals(late.view(0), random.Random(0)) == []


def test_a_bot_that_announces_tells_its_figures_after_the_aces_sign_and_only_then():
    # Two aces, a king (level 10) and a valet (level 12); no cavalier.
    game = _deal(Ruleset.preset("vendee", chant_allowed=False), ["3D 3C 2D AD AB RC VB 6D 5B", None, None, None])
    telling = HeuristicBot(announce=True).signals(game.view(0), random.Random(0))
    aces = [i for i in telling if i.signal.sign is Sign.AS]
    assert [i.signal for i in aces] == [Signal(Sign.AS, 2)]
    # The partner reads the words back to the levels held: the king's and the valet's.
    assert resolve(base_level(Sign.AS), aces[0].announcements) == (10, 12)
    assert all(i.announcements == () for i in telling if i.signal.sign is not Sign.AS)
    quiet = HeuristicBot().signals(game.view(0), random.Random(0))
    assert [i.signal for i in quiet] == [i.signal for i in telling]
    assert all(i.announcements == () for i in quiet)


def test_a_discreet_bluffer_bluffs_discreetly_and_only_at_a_table_with_lies():
    game = _deal(Ruleset.preset("vendee", chant_allowed=False), [STRONG, None, None, None])
    bot = HeuristicBot(lie_rate=1.0, discreet=True)
    bot.seated(0, None, lying_allowed=True)
    intents = bot.signals(game.view(0), random.Random(0))
    # STRONG holds Monsieur, Madame and the Borgne: the one luette it can claim falsely is the Vache.
    assert Signal(Sign.VACHE) in [i.signal for i in intents]
    assert all(i.discreet is True for i in intents)
    honest = HeuristicBot(lie_rate=1.0, discreet=True)
    honest.seated(0, None, lying_allowed=False)
    assert Signal(Sign.VACHE) not in [i.signal for i in honest.signals(game.view(0), random.Random(0))]


@pytest.mark.parametrize("hand, goes", [
    ("3D 3C 9C 4B 5C 6C 7B 8B RC", False),  # two luettes and one double (the grand neuf)
    ("3D 3C 9C 9D 5C 6C 7B 8B RC", True),   # two luettes and two doubles
    ("3D 3C 2D 4B 5C 6C 7B 8B RC", True),   # three luettes
    ("3D 3C 2C 4B 5C 6C 7B 8B RC", True),   # three luettes, the Vache (level 4) one of them
    ("3D 3C 2E 9D 5C 6C 7B 8B RC", True),   # two luettes and two doubles, the deux d'écrit (level 8) one
    ("3D 3C 9C AD 5C 6C 7B 8B RC", False),  # an ace is no double
])
def test_the_mordienne_intention_needs_three_luettes_or_two_and_two_doubles(hand, goes):
    game = _deal(Ruleset.preset("vendee", chant_allowed=False), [hand, None, None, None])
    signs = [i.signal for i in HeuristicBot().signals(game.view(0), random.Random(0))]
    assert (Signal(Sign.MORDIENNE) in signs) is goes


# Seat 0 leads (dealer 3) holding Madame; its partner, seat 2, is read by the camera signing
# Monsieur (brows up). Monsieur is the only card that beats Madame.
_CAMERA_HANDS = [
    "3C AD RB 7C 6C 5E 4E 4B 5B",
    "RD AC 7D 6D 5D 4D 4C 5C 6B",
    "3D 6E 7E 8D 8C 8B 8E VD VC",
    "2D 7B 2C 9D 9C 2B 2E AB VB",
]


def _camera_game(confidence: float) -> Game:
    game = _deal(Ruleset.preset("vendee", chant_allowed=False), list(_CAMERA_HANDS))
    while game.phase is Phase.DECLARE:
        game.apply(game.legal_actions()[0])
    game.record_signal(2, mark_confidence("monsieur", Gesture.BROWS_UP, confidence), {0})
    assert game.phase is Phase.PLAY and game.to_move == 0
    return game


def test_a_bot_that_hears_through_a_poor_camera_does_not_count_on_the_read_sign():
    # A read at 0.7: the simulated camera's false reads land anywhere from 0.5 to 0.8.
    game = _camera_game(0.7)
    # The recognizer's own figures: a brows-up read is most likely true, so Madame is the master
    # card (Monsieur is with the partner) and the bot leads it.
    trusting = HeuristicBot()
    assert trusting.choose(game.view(0), random.Random(0)) == Card.MADAME
    assert trusting.last_rule == LEAD_MASTER
    # Through a camera that reads half the signs and invents six a minute, the same reading is
    # more likely false: Monsieur may be an opponent's, so Madame is kept and the bot tests.
    wary = HeuristicBot()
    wary.hears_through(NoisyChannel.parse("0.5/6").reliability())
    card = wary.choose(game.view(0), random.Random(0))
    assert wary.last_rule == METTRE_A_LA_FORCE and card != Card.MADAME


def test_a_read_above_anything_the_poor_camera_invents_is_believed():
    # The same camera never reads a false sign above 0.8: a read at 0.9 is a sign made, and the
    # wary bot leads Madame as the trusting one does.
    wary = HeuristicBot()
    wary.hears_through(NoisyChannel.parse("0.5/6").reliability())
    assert wary.choose(_camera_game(0.9).view(0), random.Random(0)) == Card.MADAME
    assert wary.last_rule == LEAD_MASTER


def test_the_signing_policy_steps_down_at_half_the_break_even_then_at_it():
    # Catch chance of a discreet sign (here as high as an open one's): below half the measured
    # break-even (0.5) every card up to the aces; up to the break-even the luettes and doubles only;
    # past it the luettes only.
    levels = {v: choose_policy(Vigilance(v, discreet_factor=1.0)).max_level for v in (0.2, 0.24, 0.26, 0.45, 0.55)}
    assert SIGNS_PAY_BELOW == 0.5
    assert levels == {0.2: 9, 0.24: 9, 0.26: 8, 0.45: 8, 0.55: 4}


def _three_seat_deal() -> FastDeal:
    # Three players, each alone: seat 0 leads a king (index 12), seat 1 a valet; seat 2 plays last.
    deal = FastDeal([[12, 40], [22, 41], [0, 47]], 0)
    deal.apply(12)
    deal.apply(22)
    return deal


def test_the_rollout_policy_has_no_partner_at_three_and_one_across_at_four():
    # At three, the king's holder is an opponent: the last player takes the trick with Monsieur.
    assert greedy_card(_three_seat_deal(), random.Random(0)) == 0
    # At four, seat 0 (the partner of seat 2) wins with the petit neuf after seat 1's low card:
    # seat 2 plays its lowest card rather than Madame.
    deal = FastDeal([[5, 40], [30, 41], [1, 47], [31, 42]], 0)
    deal.apply(5)
    deal.apply(30)
    assert greedy_card(deal, random.Random(0)) == 47


def test_after_an_accepted_announced_mordienne_every_deal_counts_double_in_the_search():
    game = _deal(Ruleset.preset("vendee", chant_allowed=False), ["3D 3C 2D 2C AD AC AB AE 4B", None, None, None])
    game.apply(ANNOUNCE_MORDIENNE)
    while game.phase is not Phase.PLAY:
        game.apply(ACCEPT if ACCEPT in game.legal_actions() else game.legal_actions()[0])
    view = game.view(game.to_move)
    public = public_play(view)
    assert public.points_scale == 2
    knowledge = knowledge_of(view)
    legal = sorted({c.index for c in view.hand})
    doubled = pimc_values(knowledge, public, legal, view.ruleset.team_of, random.Random(5),
                          worlds=20, max_seconds=None)
    plain = pimc_values(knowledge, replace(public, points_scale=1), legal, view.ruleset.team_of,
                        random.Random(5), worlds=20, max_seconds=None)
    assert any(v != 0 for v in plain.values.values())
    assert doubled.values == {c: 2 * v for c, v in plain.values.items()}


def test_at_three_the_rollout_takes_a_trick_from_either_opponent():
    # Seat 1's king leads the trick; seat 2, last, takes it with Monsieur (seats 1 and 2 are no team).
    deal = FastDeal([[40, 41], [12, 42], [0, 47]], 0)
    deal.apply(40)
    deal.apply(12)
    assert greedy_card(deal, random.Random(0)) == 0


def test_a_spoiled_trick_is_nobody_s_in_the_search_s_playouts():
    rules = Ruleset.preset("vendee", chant_allowed=False)
    hands = ["AD 4D 4C 4B 4E 5D 5C 5B 5E", "AC 6D 6C 6B 6E 7D 7C 7B 7E",
             "AB 8D 8C 8B 8E VD VC VB VE", "3E 3B 9E 9B CD CC CB CE RD"]
    game = _deal(rules, hands)
    while game.phase is not Phase.PLAY:
        game.apply(game.legal_actions()[0])
    for code in ("AD", "AC", "AB", "3E"):  # three aces: spoiled
        game.apply(Card.parse(code))
    assert game.tricks[0].winner is None
    resumed = public_play(game.view(game.to_move)).resume([[c.index for c in game.hand(s)] for s in range(4)])
    assert resumed.won == [0, 0, 0, 0] and resumed.deal_winner() == -1


def test_a_search_bot_given_a_policy_keeps_it_at_any_table():
    mine = SignPolicy(max_level=4, discreet=False)
    bot = SearchBot(policy=mine, worlds=2, max_ms=None)
    bot.at_table(Vigilance(0.0))
    assert bot.policy.max_level == 4 and bot.policy.discreet is False
    chosen = SearchBot(worlds=2, max_ms=None)
    chosen.at_table(Vigilance(1.0, discreet_factor=1.0))
    assert chosen.policy.max_level == 0  # no policy given: the table's vigilance decides


def test_an_unseated_search_bot_believes_the_signs_it_receives():
    game = _deal(Ruleset.preset("vendee", chant_allowed=False), list(_CAMERA_HANDS))
    while game.phase is Phase.DECLARE:
        game.apply(game.legal_actions()[0])
    game.record_signal(2, encode_message(Signal(Sign.MONSIEUR)), {0})
    bot = SearchBot(worlds=8, max_ms=None)
    assert bot.trust == 1.0
    card = bot.choose(game.view(0), random.Random(2))
    assert card in game.hand(0)


def test_ismcts_rolls_out_with_the_policy_it_was_given(monkeypatch):
    calls = []

    def counting(deal, rng):
        calls.append(deal.to_move)
        return random_card(deal, rng)

    monkeypatch.setitem(POLICIES, "random", counting)
    game = _camera_game(0.9)
    ISMCTSBot(rollout="random", worlds=20, max_ms=None).choose(game.view(0), random.Random(1))
    assert len(calls) > 20


def test_a_partner_who_signed_two_aces_and_played_one_holds_exactly_one_more():
    rules = Ruleset.preset("vendee", chant_allowed=False)
    game = _deal(rules, ["3C RB 7C 6C 5E 4E 4B 5B 6B", None, "AD AC 7E 8D 8C 8B 8E VD VC", None])
    while game.phase is not Phase.PLAY:
        game.apply(game.legal_actions()[0])
    game.record_signal(2, encode_message(Signal(Sign.AS, 2)), {0})
    for seat in range(4):  # trick 1: the partner (seat 2) plays one of its aces
        assert game.to_move == seat
        game.apply(Card.AS_DENIERS if seat == 2 else game.legal_actions()[-1])
    knowledge = knowledge_of(game.view(0))
    aces = {c.index for c in CARDS if c.level == 9}
    rng = random.Random(4)
    held = {len(aces & set(sample_hands(knowledge, rng)[2])) for _ in range(60)}
    assert held == {1}


def test_a_bot_goes_for_mordienne_after_signing_it_unless_it_never_tries():
    def lead(bot: HeuristicBot, signed: bool) -> str:
        game = _deal(Ruleset.preset("vendee", chant_allowed=False), [STRONG, None, None, None])
        while game.phase is not Phase.PLAY:
            game.apply(game.legal_actions()[0])
        if signed:
            game.record_signal(0, encode_message(Signal(Sign.MORDIENNE)), {2})
        assert game.to_move == 0
        bot.choose(game.view(0), random.Random(0))
        return bot.last_rule

    assert lead(HeuristicBot(), signed=True) == MORDIENNE_LOSE_EARLY
    assert lead(HeuristicBot(), signed=False) not in (MORDIENNE_LOSE_EARLY, MORDIENNE_TAKE_LAST)
    assert lead(HeuristicBot(mordienne=False), signed=True) not in (MORDIENNE_LOSE_EARLY, MORDIENNE_TAKE_LAST)


def test_caught_opponent_signs_are_believed_only_at_an_honest_table():
    # Both opponents were caught signing misère (nothing above an ace). Believed, the Borgne is the
    # master card (Monsieur and Madame are then the partner's); at a table with lies a sign is a
    # likelihood, the heuristic does not count on it, and keeps the Borgne.
    hands = ["2D AD RB 7C 6C 5E 4E 4B 5B", "RD RC CD CC VD VC 8D 8C 7D",
             "3D 3C 2C AC AB AE 9C 9D 2B", "RE CB CE VB VE 8B 8E 7B 7E"]

    def lead(lying_allowed: bool):
        game = _deal(Ruleset.preset("vendee", chant_allowed=False), list(hands))
        while game.phase is not Phase.PLAY:
            game.apply(game.legal_actions()[0])
        for seat in (1, 3):
            game.record_signal(seat, encode_message(Signal(Sign.MISERE)), {0})
        bot = HeuristicBot()
        bot.seated(0, None, lying_allowed=lying_allowed)
        return bot.choose(game.view(0), random.Random(0)), bot.last_rule

    assert lead(False) == (Card.BORGNE, LEAD_MASTER)
    card, rule = lead(True)
    assert rule == METTRE_A_LA_FORCE and card != Card.BORGNE


def test_a_bot_that_announced_mordienne_plays_for_it():
    game = _deal(Ruleset.preset("vendee", chant_allowed=False), ["3D 3C 2D 2C AD AC AB AE 4B", None, None, None])
    game.apply(ANNOUNCE_MORDIENNE)
    while game.phase is not Phase.PLAY:
        game.apply(ACCEPT if ACCEPT in game.legal_actions() else game.legal_actions()[0])
    assert game.to_move == 0
    bot = HeuristicBot()
    bot.choose(game.view(0), random.Random(0))
    assert bot.last_rule == MORDIENNE_LOSE_EARLY


@pytest.mark.parametrize("hand, vote, why", [
    ("3D AD RB CD VE 9E 8D 7C 6B", "yes", "agree"),   # two trick-takers: a weak hand, reshuffle
    ("3D AD AC RB CD VE 9E 8D 7C", "no", "refuse"),   # three: keep it
])
def test_the_chant_vote_turns_between_two_and_three_trick_takers(hand, vote, why):
    from trainer.bots.heuristic import CHANT_NO, CHANT_YES
    from trainer.rules.actions import NO, YES

    game = _deal(Ruleset(), [hand, None, None, None])
    assert game.phase is Phase.CHANT_VOTE and game.to_move == 0
    bot = HeuristicBot()
    action = bot.choose(game.view(0), random.Random(0))
    assert (action, bot.last_rule) == ((YES, CHANT_YES) if vote == "yes" else (NO, CHANT_NO))
    assert why in bot.last_rule


def test_the_search_bot_weighs_a_camera_read_sign_by_the_camera_it_hears_through():
    # The same reading (Monsieur, brows up at 0.7) is kept in its sampled worlds with the chance the
    # bot's own camera gives it, not the recognizer's default figures.
    game = _camera_game(0.7)
    poor = NoisyChannel.parse("0.5/6").reliability()
    bot = SearchBot(worlds=2, max_ms=None)
    bot.seated(0, None)
    default_chances = bot.knowledge(game.view(0)).soft_chances
    bot.hears_through(poor)
    chances = bot.knowledge(game.view(0)).soft_chances
    assert chances == (poor.trust(Gesture.BROWS_UP, 0.7),)
    assert chances != default_chances
