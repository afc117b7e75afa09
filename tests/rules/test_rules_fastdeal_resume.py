"""FastDeal (the playouts' trick-play) built three ways agrees with itself: dealt from a deck, built
from the hands that deck gives, and resumed from any point of a played deal (finished included),
with every table option; and its points follow RULES.md (none without a trick, 2 for mordienne).
Written against mutants of trainer/rules/fastdeal.py the suite let pass (docs/mutation.md)."""

from __future__ import annotations

import random

import pytest

from trainer.rules.errors import IllegalActionError
from trainer.rules.fastdeal import NO_WINNER, FastDeal, deal_positions, is_mordienne

HAND = {3: 12, 4: 9, 6: 8}


def _play(deal: FastDeal, rng: random.Random) -> list[int]:
    moves = []
    while not deal.finished:
        move = rng.choice(deal.legal_actions())
        deal.apply(move)
        moves.append(move)
    return moves


def _result(deal: FastDeal):
    return (deal.tricks, deal.winners, deal.won, deal.deal_winner(), deal.mordienne(), deal.points(), deal.to_move)


@pytest.mark.parametrize("players", [3, 4, 6])
@pytest.mark.parametrize("options", [{}, {"spoiler_leads": True}, {"pourri_breaks_run": False},
                                     {"spoiler_leads": True, "pourri_breaks_run": False}])
def test_a_deal_from_a_deck_is_the_deal_of_the_hands_that_deck_gives(players, options):
    for seed in range(25):
        rng = random.Random(seed)
        deck = list(range(48))
        rng.shuffle(deck)
        dealer = seed % players
        dealt = FastDeal.from_deck(deck, players, dealer, **options)
        hands = [[deck[p] for p in positions] for positions in deal_positions(players, dealer)]
        built = FastDeal(hands, (dealer + 1) % players, **options)
        assert dealt.hands == hands and dealt.to_move == built.to_move == (dealer + 1) % players
        assert (dealt.spoiler_leads, dealt.pourri_breaks_run) == (built.spoiler_leads, built.pourri_breaks_run)
        assert dealt.total_tricks == built.total_tricks == HAND[players]
        moves = _play(dealt, random.Random(seed))
        for move in moves:
            built.apply(move)
        assert _result(dealt) == _result(built)


def test_from_deck_defaults_are_four_players_dealer_zero_trick_leader_leads_and_pourri_breaks_runs():
    deck = list(range(48))
    random.Random(3).shuffle(deck)
    deal = FastDeal.from_deck(deck)
    assert (deal.players, deal.to_move, deal.spoiler_leads, deal.pourri_breaks_run) == (4, 1, False, True)
    assert deal.deal_winner() == NO_WINNER and deal.points() == 0 and not deal.mordienne()
    with pytest.raises(TypeError) as raised:
        FastDeal.from_deck(deck, colour="red", trumps=True)
    assert str(raised.value) == "unknown FastDeal option(s) ['colour', 'trumps']"


@pytest.mark.parametrize("options", [{}, {"spoiler_leads": True}, {"pourri_breaks_run": False}])
def test_resuming_after_any_trick_goes_on_as_the_deal_did(options):
    for seed in range(30):
        rng = random.Random(seed)
        players = (3, 4, 6)[seed % 3]
        deal = FastDeal.random(rng, players=players, dealer=seed % players, **options)
        snapshots = [deal.copy()]
        while not deal.finished:
            deal.apply(rng.choice(deal.legal_actions()))
            if not deal.trick:
                snapshots.append(deal.copy())
        for snap in snapshots:  # after 0, 1, ... every trick, the finished deal included
            resumed = FastDeal.resume(snap.hands, snap.leader, (), snap.tricks, total_tricks=snap.total_tricks,
                                      **options)
            assert (resumed.won, resumed.deal_winner(), resumed.to_move) == (snap.won, snap.deal_winner(), snap.to_move)
            assert (resumed.spoiler_leads, resumed.pourri_breaks_run) == (snap.spoiler_leads, snap.pourri_breaks_run)
            for _, cards, _ in deal.tricks[len(snap.tricks):]:
                for card in cards:
                    resumed.apply(card)
            assert _result(resumed) == _result(deal)


def test_a_deal_nobody_won_scores_nothing_and_mordienne_scores_two():
    spoiled = [(0, [0, 1, 2, 3], NO_WINNER)] * 9
    nobody = FastDeal.resume([[], [], [], []], 0, (), spoiled, total_tricks=9)
    assert nobody.finished and nobody.to_move == NO_WINNER
    assert (nobody.deal_winner(), nobody.points(), nobody.mordienne()) == (NO_WINNER, 0, False)
    seen = set()
    for seed in range(400):
        rng = random.Random(seed)
        deal = FastDeal.random(rng)
        _play(deal, rng)
        made = is_mordienne(deal.winners, deal.deal_winner())
        assert deal.mordienne() is made
        assert deal.points() == (2 if made else 1 if deal.deal_winner() >= 0 else 0)
        seen.add(deal.points())
        if seen >= {1, 2}:
            break
    assert seen >= {1, 2}


def test_a_tie_goes_to_whoever_got_there_first_when_resumed():
    tricks = [(0, [0, 1, 2, 3], 2), (2, [4, 5, 6, 7], 1), (1, [8, 9, 10, 11], 1), (1, [12, 13, 14, 15], 2)]
    resumed = FastDeal.resume([[20, 21, 22, 23, 24]] * 4, 2, (), tricks, total_tricks=9)
    assert resumed.won == [0, 2, 2, 0] and resumed.deal_winner() == 1 and resumed.to_move == 2


def test_random_deals_are_shuffled_from_dealer_zero_and_copies_keep_the_options():
    first, second = FastDeal.random(random.Random(1)), FastDeal.random(random.Random(2))
    assert first.hands != second.hands
    assert sorted(c for h in first.hands for c in h) != list(range(36))  # not the deck's first cards
    assert first.to_move == 1 and first.players == 4
    assert FastDeal.random(random.Random(1)).hands == first.hands  # the seed decides
    for options in ({"spoiler_leads": True, "pourri_breaks_run": True},
                    {"spoiler_leads": False, "pourri_breaks_run": False}):
        deal = FastDeal.random(random.Random(3), **options)
        copy = deal.copy()
        assert (copy.spoiler_leads, copy.pourri_breaks_run) == (options["spoiler_leads"], options["pourri_breaks_run"])


@pytest.mark.parametrize("players", [3, 4, 6])
def test_a_random_deal_is_dealt_from_the_given_dealer(players):
    for dealer in range(players):
        deal = FastDeal.random(random.Random(dealer), players=players, dealer=dealer)
        # The seat left of the dealer leads; every seat has its deal's hand of distinct cards.
        assert deal.to_move == deal.leader == (dealer + 1) % players
        assert [len(h) for h in deal.hands] == [HAND[players]] * players
        assert len({c for h in deal.hands for c in h}) == players * HAND[players]


def test_mordienne_runs_by_rules_md():
    # Every trick to one seat: no trick before the run, so mordienne (the run is the whole deal).
    assert is_mordienne([2] * 9, 2)
    assert is_mordienne([1, 1, 1], 1)
    # With spoiled tricks skipped inside the run, the run may reach back to the first trick.
    assert is_mordienne([2, NO_WINNER, 2, 2], 2, pourri_breaks_run=False)
    assert not is_mordienne([2, NO_WINNER, 2, 2], 2)
    # A trick taken before the run, even just before the trick that broke it, spoils mordienne.
    assert not is_mordienne([2, 1, 2, 2, 2], 2)
    assert not is_mordienne([3, 2, 1, 2, 2, 2], 2)
    assert is_mordienne([3, NO_WINNER, 1, 2, 2, 2], 2)  # pagat's example shape


def test_a_deal_is_not_a_mordienne_before_its_last_trick():
    # Seat 0 took the first three tricks and leads the fourth: a run of three so far, but the
    # deal is not over (RULES.md: "up to and including the ninth").
    tricks = [(1, [20, 21, 22, 1], 0), (0, [2, 23, 24, 25], 0), (0, [3, 26, 27, 28], 0)]
    left = [c for c in range(48) if c not in {1, 2, 3} | set(range(20, 29))]
    hands = [left[k * 6:(k + 1) * 6] for k in range(4)]
    deal = FastDeal.resume(hands, 0, (), tricks, total_tricks=9)
    assert deal.to_move == 0 and deal.won == [3, 0, 0, 0] and deal.deal_winner() == 0
    assert deal.mordienne() is False and deal.points() == 1
    # Seat 0 holds the six strongest cards left (lowest indices): played out, it takes every
    # trick, and the deal is a mordienne.
    while not deal.finished:
        deal.apply(min(deal.legal_actions()))
    assert deal.winners == [0] * 9 and deal.mordienne() is True and deal.points() == 2


def test_a_built_deal_checks_its_table_and_a_deal_of_no_tricks_is_over():
    with pytest.raises(IllegalActionError) as raised:
        FastDeal([[0], [1]], 0)
    assert str(raised.value) == "a deal needs 3, 4 or 6 hands, got 2"
    for leader in (-1, 4):
        with pytest.raises(IllegalActionError) as raised:
            FastDeal([[0], [1], [2], [3]], leader)
        assert str(raised.value) == f"leader seat {leader} is not at a 4-player table"
    assert FastDeal([[0], [1], [2], [3]], 3).to_move == 3
    empty = FastDeal([[], [], [], []], 1)
    assert empty.finished and empty.to_move == NO_WINNER and empty.legal_actions() == []


def test_a_card_not_in_hand_or_after_the_end_is_refused_with_the_reason():
    deal = FastDeal([[0, 4], [1, 5], [2, 6], [3, 7]], 0)
    with pytest.raises(IllegalActionError) as raised:
        deal.apply(9)  # seat 0 to move: the message is about its hand, not the end of the deal
    assert str(raised.value) == "card 9 is not in the hand of seat 0: play one of [0, 4]"
    assert deal.hands[0] == [0, 4] and deal.trick == []  # left untouched
    for card in (0, 1, 2, 3, 4, 5, 6, 7):
        deal.apply(card)
    assert deal.finished
    with pytest.raises(IllegalActionError) as raised:
        deal.apply(8)
    assert str(raised.value) == "the deal is over: card 8 cannot be played"
