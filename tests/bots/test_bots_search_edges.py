"""The search bot at its edges, through the real engine: an unknown rollout policy is refused naming
the ones that exist, and with one kind of card left it plays it without searching and says why.
Written against mutants of trainer/bots that the suite let pass (docs/mutation.md, 2026-12-02,
fourth run: a seeded sample of 50 of the play-deciding modules)."""

from __future__ import annotations

import random

import pytest

from trainer.bots.base import BotError
from trainer.bots.search import SEARCH, SearchBot
from trainer.rules.actions import Phase
from trainer.rules.cards import STRENGTH
from trainer.rules.game import Game
from trainer.rules.ruleset import Ruleset


def test_an_unknown_rollout_policy_is_refused_naming_the_known_ones():
    with pytest.raises(BotError) as raised:
        SearchBot(rollout="minimax")
    assert str(raised.value) == "unknown rollout policy 'minimax': choose one of greedy, random"


def _to_play(game: Game, rng: random.Random, until) -> None:
    """Random legal actions until ``until(game)`` holds at a card to play."""
    while not game.is_over:
        if game.is_chance:
            game.apply(game.chance_action())
            continue
        if game.phase is Phase.PLAY and until(game):
            return
        game.apply(rng.choice(game.legal_actions()))
    raise AssertionError("the deal ended first")


def test_with_one_kind_of_card_left_the_search_bot_plays_it_and_says_so():
    for seed in range(3):
        game = Game.new(Ruleset.preset("vendee"), seed=seed)
        _to_play(game, random.Random(seed), lambda g: len(g.hand(g.to_move)) == 1)
        bot = SearchBot(worlds=4, max_ms=None)
        card = bot.choose(game.view(game.to_move), random.Random(0))
        assert card == game.hand(game.to_move)[0]
        assert bot.last_rule == "only one kind of card left"
        assert bot.last_search is None  # no search was run


def test_with_two_kinds_left_the_search_bot_searches():
    game = Game.new(Ruleset.preset("vendee"), seed=5)
    _to_play(game, random.Random(5),
             lambda g: len({STRENGTH[c.index] for c in g.hand(g.to_move)}) == 2)
    bot = SearchBot(worlds=4, max_ms=None)
    card = bot.choose(game.view(game.to_move), random.Random(0))
    assert card in game.hand(game.to_move) and bot.last_rule == SEARCH and bot.last_search is not None


def test_a_partner_silent_up_to_the_aces_holds_no_ace_in_any_sampled_world():
    """A partner who signs every card up to the aces (level 9) and made no aces sign has none."""
    from trainer.bots.worlds import ACE_INDICES, Knowledge, sample_hands, silence_holding
    from trainer.rules.cards import CARDS

    unseen = frozenset(range(len(CARDS)))
    silent = silence_holding([], 9, unseen)
    assert silent.aces == 0
    assert silence_holding([], 8, unseen).aces is None  # aces not part of its signing: unknown
    # Seat 0 holds 9 weak cards; its partner (seat 2) was silent up to the aces.
    hand = tuple(sorted(c.index for c in CARDS if c.index not in ACE_INDICES)[-9:])
    rest = frozenset(c.index for c in CARDS) - set(hand)
    knowledge = Knowledge(0, hand, (9, 9, 9, 9), rest,
                          holdings=((2, silence_holding([], 9, rest)),))
    rng = random.Random(7)
    for _ in range(40):
        hands = sample_hands(knowledge, rng)
        assert not set(hands[2]) & ACE_INDICES


def test_the_partners_known_cards_and_not_an_opponents_are_taken_out_of_the_opponents_cards():
    from dataclasses import replace

    from trainer.bots.knowledge import knowledge_of, partner_of, situation_of
    from trainer.bots.worlds import Holding

    game = Game.new(Ruleset.preset("vendee"), seed=11)
    _to_play(game, random.Random(11), lambda g: True)
    view = game.view(game.to_move)
    partner = partner_of(view)
    opponent = next(s for s in range(view.players) if s not in (view.seat, partner))
    known = knowledge_of(view)
    told_by_partner, caught_from_opponent = sorted(known.unseen)[:2]
    knowledge = replace(known, holdings=((partner, Holding(required=frozenset({told_by_partner}))),
                                         (opponent, Holding(required=frozenset({caught_from_opponent})))))
    situation = situation_of(view, knowledge)
    assert told_by_partner not in situation.opponents_may_hold
    assert caught_from_opponent in situation.opponents_may_hold


def test_when_the_caught_signs_leave_the_opponents_no_card_every_card_is_a_master():
    """Going for mordienne, five tricks left, five cards: if what was caught of the opponents' signs
    leaves them no possible card (contradictory signs), even the weakest card is a master, so the bot
    starts taking its tricks (with its lowest card) instead of losing early."""
    from trainer.bots.tactics import MORDIENNE_LOSE_EARLY, MORDIENNE_TAKE_LAST, PlaySituation, choose_card
    from trainer.rules.cards import CARDS

    weakest = min(CARDS, key=lambda c: STRENGTH[c.index]).index
    assert STRENGTH[weakest] == 1
    strong = [c.index for c in sorted(CARDS, key=lambda c: -STRENGTH[c.index])[:4]]
    sit = PlaySituation(seat=0, players=4, hand=(*strong, weakest), trick=(), tricks_won=(0, 0, 0, 0),
                        tricks_left=5, opponents_may_hold=frozenset(), going_for_mordienne=True,
                        opponent_may_hold=((1, frozenset()), (3, frozenset())))
    assert choose_card(sit) == (weakest, MORDIENNE_TAKE_LAST)
    # With an opponent who may hold a card just above the weakest, the weakest is no master.
    above = next(c.index for c in CARDS if STRENGTH[c.index] == 2)
    held = PlaySituation(seat=0, players=4, hand=(*strong, weakest), trick=(), tricks_won=(0, 0, 0, 0),
                         tricks_left=5, opponents_may_hold=frozenset({above}), going_for_mordienne=True,
                         opponent_may_hold=((1, frozenset({above})), (3, frozenset())))
    assert choose_card(held) == (weakest, MORDIENNE_LOSE_EARLY)


def test_losing_early_for_mordienne_plays_under_the_trick_not_its_twin():
    """Going for mordienne with many tricks left, the bot loses the early tricks: with a twin of the
    trick's best card and a weaker one in hand, it plays the weaker (the twin would spoil the trick,
    which is not losing it)."""
    from trainer.bots.tactics import MORDIENNE_LOSE_EARLY, PlaySituation, choose_card
    from trainer.rules.cards import CARDS, cards_at_level

    led, twin = next(pair for level in range(12, 20) if len(pair := cards_at_level(level)) >= 2)[:2]
    weaker = next(c for c in CARDS if STRENGTH[c.index] < STRENGTH[led.index] and c not in (led, twin))
    assert STRENGTH[twin.index] == STRENGTH[led.index]
    hand = (twin.index, weaker.index, *[c.index for c in CARDS if STRENGTH[c.index] < STRENGTH[weaker.index]][:3])
    sit = PlaySituation(seat=1, players=4, hand=hand, trick=((0, led.index),), tricks_won=(0, 0, 0, 0),
                        tricks_left=5, opponents_may_hold=frozenset(c.index for c in CARDS) - set(hand) - {led.index},
                        going_for_mordienne=True)
    assert choose_card(sit) == (weaker.index, MORDIENNE_LOSE_EARLY)


def test_words_told_aloud_join_the_last_sign_of_that_seat_this_deal():
    """RULES.md's relative announcements at the bots' table: seat 0 signs one ace, seat 1 then signs
    its aces, and seat 0's 'au-dessous' (a king) joins seat 0's sign, not the last sign made; the
    partner gets the sign again with its words."""
    from trainer.bots.heuristic import HeuristicBot
    from trainer.bots.table import Table
    from trainer.rules.cards import ACES
    from trainer.signals.relative import parse
    from trainer.signals.signs import Sign, Signal

    def fits(table: Table) -> bool:
        first, second = table.game.hand(0), table.game.hand(1)
        return (sum(c in ACES for c in first) == 1 and any(c.level == 10 for c in first)
                and any(c in ACES for c in second))

    table = next(t for seed in range(200)
                 if fits(t := Table([None, None, HeuristicBot(), HeuristicBot()],
                                    ruleset=Ruleset.preset("vendee"), seed=seed)))
    table.submit_sign(0, table.made(Signal(Sign.AS, 1)))
    table.submit_sign(1, table.made(Signal(Sign.AS, sum(c in ACES for c in table.game.hand(1)))))
    event = table.announce(0, parse("au-dessous"))
    assert (event.seat, event.sign, [a.french for a in event.announcements]) == (0, Sign.AS, ["au-dessous"])
    mine = [t.event for t in table.history if t.event.seat == 0]
    assert [[a.french for a in e.announcements] for e in mine] == [["au-dessous"]]
    assert [t.event.announcements for t in table.history if t.event.seat == 1] == [()]
    assert [r.message for r in table.game.signals if r.seat == 0] == ["as", "as | au-dessous"]


def test_the_search_counts_the_worlds_it_sampled_and_averages_over_them():
    game = Game.new(Ruleset.preset("vendee"), seed=5)
    _to_play(game, random.Random(5), lambda g: len({STRENGTH[c.index] for c in g.hand(g.to_move)}) >= 3)
    bot = SearchBot(worlds=3, max_ms=None)
    bot.choose(game.view(game.to_move), random.Random(0))
    result = bot.last_search
    assert result.worlds == 3 and result.playouts == 3 * len(result.values)
    # a mean of team values per deal: a deal is worth at most 2 points (a mordienne) either way
    assert all(-2.0 <= v <= 2.0 for v in result.values.values())
    single = SearchBot(worlds=1, max_ms=None)
    single.choose(game.view(game.to_move), random.Random(0))
    assert single.last_search.worlds == 1 and single.last_search.playouts == len(single.last_search.values)


def test_the_search_stops_when_its_time_budget_is_spent_and_not_before():
    game = Game.new(Ruleset.preset("vendee"), seed=5)
    _to_play(game, random.Random(5), lambda g: len({STRENGTH[c.index] for c in g.hand(g.to_move)}) >= 3)
    view = game.view(game.to_move)
    # A clock standing still at 100 s of CPU time: the budget is never spent, every world is played.
    still = SearchBot(worlds=4, max_ms=1000, clock=lambda: 100.0)
    still.choose(view, random.Random(0))
    assert still.last_search.worlds == 4
    # A clock going one second per reading: the 1.5 s budget is spent after the second world.
    ticks = iter(range(100, 200))
    ticking = SearchBot(worlds=4, max_ms=1500, clock=lambda: float(next(ticks)))
    ticking.choose(view, random.Random(0))
    assert ticking.last_search.worlds == 2


def test_the_rollout_spoils_a_trick_it_cannot_take_when_it_plays_last():
    """Last to play, nothing in hand beats the opponents' card but its twin: the greedy rollout plays
    the twin, so the trick is spoiled rather than lost."""
    from trainer.bots.playout import greedy_card
    from trainer.rules.cards import CARDS, cards_at_level
    from trainer.rules.fastdeal import FastDeal

    led, twin = next(pair for level in range(5, 15) if len(pair := cards_at_level(level)) >= 2)[:2]
    weak = sorted((c for c in CARDS if STRENGTH[c.index] < STRENGTH[led.index] and c not in (led, twin)),
                  key=lambda c: STRENGTH[c.index])
    # Seat 0 leads; seats 1 and 2 play low; seat 3 (an opponent of seat 0) is last.
    deal = FastDeal([[led.index, weak[0].index], [weak[1].index, weak[2].index],
                     [weak[3].index, weak[4].index], [twin.index, weak[5].index]], 0)
    for card in (led.index, weak[1].index, weak[3].index):
        deal.apply(card)
    assert greedy_card(deal, random.Random(0)) == twin.index


def test_the_search_bots_discreet_option_is_its_policys():
    assert SearchBot(discreet=False).policy.discreet is False
    assert SearchBot(discreet=True).policy.discreet is True
    assert SearchBot(sign_level=8, discreet=False).policy.discreet is False
    assert SearchBot().policy.discreet is True  # the default: discreetly


def test_a_partners_mordienne_sign_reaches_the_play_situation():
    from trainer.bots.knowledge import knowledge_of, partner_of, situation_of
    from trainer.signals.signs import Sign, Signal
    from trainer.signals.table import encode_message

    game = Game.new(Ruleset.preset("vendee"), seed=11)
    _to_play(game, random.Random(11), lambda g: True)
    seat = game.to_move
    view = game.view(seat)
    assert situation_of(view, knowledge_of(view)).partner_mordienne is False
    game.record_signal(partner_of(view), encode_message(Signal(Sign.MORDIENNE)), {seat})
    view = game.view(seat)
    assert situation_of(view, knowledge_of(view)).partner_mordienne is True


def test_supporting_a_partners_mordienne_spoils_until_three_tricks_are_left():
    """With four tricks left an opponent's winning card is spoiled with its twin; with three left the
    partner's run is past saving that way and the usual play resumes."""
    from trainer.bots.tactics import SUPPORT_MORDIENNE_SPOIL, PlaySituation, choose_card
    from trainer.rules.cards import CARDS, cards_at_level

    led, twin = next(pair for level in range(5, 15) if len(pair := cards_at_level(level)) >= 2)[:2]
    weak = [c.index for c in sorted(CARDS, key=lambda c: STRENGTH[c.index])[:3]]
    rules = {}
    for left in (4, 3):
        sit = PlaySituation(seat=1, players=4, hand=(twin.index, *weak[:left - 1]), trick=((0, led.index),),
                            tricks_won=(0, 0, 0, 0), tricks_left=left, opponents_may_hold=frozenset(),
                            partner_mordienne=True)
        rules[left] = choose_card(sit)
    assert rules[4] == (twin.index, SUPPORT_MORDIENNE_SPOIL)
    assert rules[3][1] != SUPPORT_MORDIENNE_SPOIL
