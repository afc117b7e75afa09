"""Tricks, pourri, the deal winner and mordienne (RULES.md "A deal" 4-8 and "Mordienne")."""

from __future__ import annotations

import random

import pytest
from rules_helpers import cards, fill_hands, game_at_play, plan_for_winners, play_plan

from trainer.rules.fastdeal import NO_WINNER, FastDeal, deal_positions, is_mordienne
from trainer.rules.ruleset import Ruleset
from trainer.rules.saves import PlaythroughPhrases

S, W, N, E, X = 0, 1, 2, 3, NO_WINNER  # seats clockwise from South; X = spoiled trick


def play(game, codes: str) -> None:
    for card in cards(codes):
        game.apply(card)


def deal_winner(winners: list[int], ruleset: Ruleset | None = None) -> int:
    """The deal winner the engine gives when the tricks go to ``winners`` (``NO_WINNER``: nobody),
    played through ``Game`` on hands built for those tricks."""
    plan = plan_for_winners(winners)
    game = game_at_play(ruleset or Ruleset(), 3, plan)
    play_plan(game, plan)
    result = game.results[0]
    assert [NO_WINNER if t.winner is None else t.winner for t in result.tricks] == winners
    return NO_WINNER if result.deal_winner is None else result.deal_winner


def first_to_most(winners: list[int], players: int) -> int:
    """RULES.md "A deal" 8 written out plainly: most tricks, a tie to whoever got there first."""
    counts = [winners.count(s) for s in range(players)]
    best = max(counts)
    if best == 0:
        return NO_WINNER
    reached = {s: [i for i, w in enumerate(winners) if w == s][best - 1] for s in range(players) if counts[s] == best}
    return min(reached, key=reached.get)


def test_first_trick_led_by_the_player_left_of_the_dealer():
    """RULES.md "A deal" 4: the player left of the dealer leads the first trick."""
    for dealer in range(4):
        game = game_at_play(Ruleset(), dealer, fill_hands(["", "", "", ""]))
        assert game.to_move == (dealer + 1) % 4


def test_highest_card_wins_whatever_the_suit_and_winner_leads():
    """RULES.md "A deal" 4-5: any card may be played; the highest wins; its winner leads next."""
    hands = fill_hands(["4E 5D", "9C RB", "AD 6C", "3B 7E"])
    game = game_at_play(Ruleset(), 3, hands)  # dealer 3: seat 0 leads
    play(game, "4E 9C AD 3B")
    trick = game.tricks[0]
    assert trick.winner == 1 and trick.leader == 0
    assert game.to_move == 1 and game.tricks_won == (0, 1, 0, 0)


def test_equal_highest_cards_spoil_the_trick():
    """RULES.md "A deal" 6: equal highest cards (pourri) — nobody wins, the cards are public."""
    hands = fill_hands(["AD", "AC", "4E", "5E"])
    game = game_at_play(Ruleset(), 3, hands)
    play(game, "AD AC 4E 5E")
    trick = game.tricks[0]
    assert trick.winner is None and trick.spoiled
    assert game.tricks_won == (0, 0, 0, 0)
    view = game.view(2)
    assert set(view.spoiled_cards) == set(cards("AD AC 4E 5E"))


def test_equal_cards_below_the_highest_do_not_spoil():
    """RULES.md "A deal" 6: only the two (or more) *highest* cards spoil."""
    hands = fill_hands(["AD", "AC", "3D", "5E"])
    game = game_at_play(Ruleset(), 3, hands)
    play(game, "AD AC 3D 5E")
    assert game.tricks[0].winner == 2


@pytest.mark.parametrize(
    "preset, next_leader", [("vendee", 0), ("pagat", 0), ("english", 2)]
)
def test_lead_after_pourri_option(preset, next_leader):
    """RULES.md "A deal" 6: after a spoiled trick the leader leads again (default), or the spoiler
    — the player of the last equal highest card (english preset)."""
    hands = fill_hands(["AD", "AC", "AB", "5E"])
    game = game_at_play(Ruleset.preset(preset), 3, hands)
    play(game, "AD AC AB 5E")
    assert game.tricks[0].spoiled
    assert game.to_move == next_leader


def test_deal_has_nine_tricks_and_ends():
    """RULES.md "A deal" 7: nine tricks are played, then the deal is scored."""
    game = game_at_play(Ruleset(), 0, fill_hands(["", "", "", ""]))
    first_deal = game.deal_number
    while game.deal_number == first_deal:
        game.apply(game.legal_actions()[0])
    assert len(game.results[0].tricks) == 9


def test_tricks_count_per_player_not_per_team():
    """RULES.md "A deal" 7-8: partners' tricks are not added: 3 + 3 for a team lose to 4."""
    assert deal_winner([S, S, S, N, N, N, E, E, E]) == S
    # W 1, S 2, N 3, E 3: North reached 3 first, though team S+N has 5.
    assert deal_winner([W, S, S, N, N, N, E, E, E]) == N
    assert deal_winner([W, W, W, W, S, S, S, N, N]) == W


def test_tie_won_by_the_player_who_reached_that_count_first():
    """RULES.md "A deal" 8: a tie between players goes to who reached the number first."""
    assert deal_winner([S, W, W, S, N, E, X, X, X]) == W
    assert deal_winner([E, S, S, E, E, S, N, N, N]) == E  # E reached 3 at trick 5, S at 6, N at 9
    assert deal_winner([S, S, E, E, W, W, N, N, X]) == S


def test_nobody_took_a_trick_scores_nothing():
    """RULES.md "A deal" 8: every trick spoiled -> no deal winner, no points."""
    assert deal_winner([X] * 9) == NO_WINNER
    assert not is_mordienne([X] * 9, NO_WINNER)


def test_tie_break_decides_about_a_quarter_of_random_deals():
    """RULES.md "A deal" 8: in random play about a quarter of deals are decided by the tie-break."""
    rng = random.Random(2024)
    decided_by_tie = 0
    deals = 4000
    for _ in range(deals):
        deal = FastDeal.random(rng)
        while not deal.finished:
            moves = deal.legal_actions()
            deal.apply(moves[rng.randrange(len(moves))])
        winner = deal.deal_winner()
        assert winner == first_to_most(deal.winners, 4)
        if winner >= 0 and deal.won.count(deal.won[winner]) > 1:
            decided_by_tie += 1
    share = decided_by_tie / deals
    assert 0.20 <= share <= 0.33, share


# -- mordienne (RULES.md "Mordienne") ----------------------------------------------------------------


def test_mordienne_pagat_example_west():
    """RULES.md "Mordienne": S X E N X S W W W gives West mordienne."""
    winners = [S, X, E, N, X, S, W, W, W]
    assert deal_winner(winners) == W
    assert is_mordienne(winners, W)


def test_spoiled_ninth_trick_breaks_mordienne():
    """RULES.md "Mordienne": a spoiled ninth trick breaks it."""
    winners = [S, E, N, X, S, W, W, W, X]
    assert deal_winner(winners) == W
    assert not is_mordienne(winners, W)
    assert not is_mordienne(winners, W, pourri_breaks_run=False)


def test_spoiled_trick_inside_the_run_is_an_option():
    """RULES.md "Mordienne": a spoiled trick inside the run breaks it by default; option off."""
    winners = [S, E, X, N, W, W, X, W, W]
    assert deal_winner(winners) == W
    assert not is_mordienne(winners, W, pourri_breaks_run=True)
    assert is_mordienne(winners, W, pourri_breaks_run=False)


def test_mordienne_needs_no_trick_before_and_at_least_three():
    """RULES.md "Mordienne": no trick before the run; at least three tricks in a row."""
    assert not is_mordienne([W, S, E, N, S, E, W, W, W], W)  # W took trick 1 earlier
    assert not is_mordienne([S, E, N, S, E, N, X, W, W], W)  # only two in a row
    assert is_mordienne([S, E, N, X, W, W, W, W, W], W)
    assert not is_mordienne([S, S, S, S, W, W, W, X, W], W)  # W does not win the deal: S has 4


# A deal where West (seat 1) takes the last three tricks and nothing before (dealer 3, South leads).
MORDIENNE_HANDS = [
    "2C 9C 5D 5C 5B 5E 6D 6C 6B",
    "3E 3B 4E 4D 4C 4B 3D 3C 2D",
    "7D 7C 9D 2B 7B 7E 8D 8C 8B",
    "6E 8E VD VC 2E AD VB VE RD",
]
MORDIENNE_PLAYS = (
    "2C 3E 7D 6E  9C 3B 7C 8E  5D 4E 9D VD  2B VC 5C 4D  7B 2E 5B 4C  "
    "AD 5E 4B 7E  VB 6D 3D 8D  3C 8C VE 6C  2D 8B RD 6B"
)


def test_mordienne_scores_two_points_in_a_played_deal():
    """RULES.md "Mordienne": 2 points instead of 1, through the whole game with real cards."""
    game = game_at_play(Ruleset(), 3, tuple(cards(h) for h in MORDIENNE_HANDS))
    play(game, MORDIENNE_PLAYS)
    result = game.results[0]
    assert [t.winner for t in result.tricks] == [S, S, N, N, E, E, W, W, W]
    assert result.deal_winner == W and result.mordienne
    assert result.points == (0, 2)
    assert game.scores == [0, 2]
    assert "mordienne" in PlaythroughPhrases(game.ruleset).deal_result(result)


def test_deal_in_batches_of_three_from_the_dealers_left():
    """RULES.md "A deal" 2: 9 cards each in batches of 3; 12 remain as the talon."""
    positions = deal_positions(4, 0)
    assert positions[1] == (0, 1, 2, 12, 13, 14, 24, 25, 26)
    assert positions[0] == (9, 10, 11, 21, 22, 23, 33, 34, 35)
    used = sorted(p for pos in positions for p in pos)
    assert used == list(range(36))  # the talon is positions 36..47
    assert deal_positions(3, 2)[0] == (0, 1, 2, 9, 10, 11, 18, 19, 20, 27, 28, 29)
    assert len(deal_positions(6, 0)[1]) == 8


ALL_SPOILED_HANDS = [
    "AD AB RD RB CD CB VD VB 9E",
    "AC AE RC RE CC CE VC VE 9B",
    "4D 4B 5D 5B 6D 6B 7D 7B 8D",
    "4C 4E 5C 5E 6C 6E 7C 7E 8C",
]


def test_deal_where_nobody_takes_a_trick_scores_nothing():
    """RULES.md "A deal" 8: if nobody took a trick the deal scores nothing (every trick spoiled)."""
    game = game_at_play(Ruleset(), 3, tuple(cards(h) for h in ALL_SPOILED_HANDS))
    for trick in range(9):
        for seat in range(4):
            game.apply(cards(ALL_SPOILED_HANDS[seat])[trick])
    result = game.results[0]
    assert all(t.spoiled for t in result.tricks) and len(result.tricks) == 9
    assert result.deal_winner is None and not result.mordienne
    assert result.points == (0, 0) and game.scores == [0, 0]
    assert "scores nothing" in PlaythroughPhrases(game.ruleset).deal_result(result)
