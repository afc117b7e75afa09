"""The game flow: first dealer, chant, discards, declarations, scoring, rotation, game end,
illegal actions (RULES.md "A deal", "Mordienne", "Giving up", "A game", "Other player counts")."""

from __future__ import annotations

import random

import pytest
from rules_helpers import cards, fill_hands, game_at_play, random_game

from trainer.rules.actions import (
    ACCEPT,
    ANNOUNCE_MORDIENNE,
    GIVE_UP,
    NO,
    PASS,
    REFUSE,
    YES,
    ChooseDealer,
    Deal,
    Discard,
    Phase,
    Vote,
)
from trainer.rules.cards import CARDS, Card
from trainer.rules.errors import IllegalActionError, RulesError
from trainer.rules.game import Contract, DealEnd, Game, Termination
from trainer.rules.ruleset import GameEnd, Players, Ruleset


def at_declarations(ruleset: Ruleset, seed: int = 1) -> Game:
    game = Game.new(ruleset, seed)
    game.apply(NO)  # one "no" and there is no chant
    assert game.phase is Phase.DECLARE
    return game


def test_first_dealer_is_the_holder_of_madame():
    """RULES.md "A game": first dealer by dealing face up until Madame appears (pagat)."""
    for seed in range(20):
        game = Game.new(Ruleset(), seed)
        choose = game.history[0]
        assert isinstance(choose, ChooseDealer)
        assert choose.face_up[-1] is Card.MADAME and Card.MADAME not in choose.face_up[:-1]
        assert choose.dealer == (len(choose.face_up) - 1) % 4 == game.dealer
    assert len({Game.new(Ruleset(), s).dealer for s in range(40)}) == 4


def test_seeded_deal_gives_nine_each_and_a_talon_of_twelve():
    """RULES.md "A deal" 2."""
    game = Game.new(Ruleset(), 5)
    deal = game.history[1]
    assert isinstance(deal, Deal)
    assert [len(h) for h in deal.hands] == [9, 9, 9, 9] and len(deal.talon) == 12
    assert len(set(c for h in deal.hands for c in h) | set(deal.talon)) == 48
    assert game.phase is Phase.CHANT_VOTE and game.to_move == (game.dealer + 1) % 4


def test_chant_needs_every_player():
    """RULES.md "A deal" 3: chant only if every player agrees; without it the talon stays unseen."""
    game = Game.new(Ruleset(), 2)
    game.apply(YES)
    game.apply(YES)
    game.apply(NO)
    assert game.chant is False and game.phase is Phase.DECLARE
    assert game.to_move == (game.dealer + 1) % 4
    assert all(game.view(s).received == () for s in range(4))
    assert len(game.talon) == 12


@pytest.mark.parametrize("preset, partner_receives", [("vendee", True), ("pagat", False)])
def test_chant_deal_and_discards(preset, partner_receives):
    """RULES.md "A deal" 3: the talon is dealt one at a time to two players, one per team, 6 each;
    each discards 6 face down back to 9. Receivers are an option."""
    game = Game.new(Ruleset.preset(preset), 3)
    dealer = game.dealer
    talon = game.talon
    for _ in range(4):
        game.apply(YES)
    assert game.chant is True and game.phase is Phase.DISCARD
    first, second = game.chant_receivers
    assert first == (dealer + 1) % 4
    assert second == ((dealer + 2) % 4 if partner_receives else dealer)
    assert game.view(first).received == talon[0::2]
    assert game.view(second).received == talon[1::2]
    assert len(game.hand(first)) == 15 and len(game.hand(second)) == 15
    assert game.to_move == first
    discarded = {}
    for seat in (first, second):
        assert game.to_move == seat
        chosen = list(game.hand(seat)[-6:])
        for card in chosen:
            game.apply(Discard(card))
        discarded[seat] = chosen
        assert len(game.hand(seat)) == 9
    assert game.phase is Phase.DECLARE
    assert list(game.view(first).discards) == discarded[first]
    assert game.view(second).discards != game.view(first).discards
    other = (first + 1) % 4 if (first + 1) % 4 != second else (first + 3) % 4
    assert game.view(other).discards == () and game.view(other).discard_counts[first] == 6


def test_giving_up_opponents_score_one():
    """RULES.md "Giving up" (French/English Wikipedia): the opponents take 1 point without play."""
    game = at_declarations(Ruleset.preset("vendee"))
    offerer = game.to_move
    dealer = game.dealer
    game.apply(GIVE_UP)
    result = game.results[0]
    assert result.end is DealEnd.GIVEN_UP and result.tricks == ()
    opponents = 1 - offerer % 2
    assert game.scores[opponents] == 1 and game.scores[1 - opponents] == 0
    assert game.dealer == (dealer + 1) % 4 and game.deal_number == 2


def test_giving_up_accepted_or_refused_pagat():
    """RULES.md "Giving up" (pagat): accept -> opponents +1; refuse -> they must make mordienne:
    success 2 for them, failure 2 for the surrendering team."""
    game = at_declarations(Ruleset.preset("pagat"))
    offerer = game.to_move
    game.apply(GIVE_UP)
    assert game.phase is Phase.ANSWER and game.to_move == (offerer + 1) % 4
    accepted = game.copy()
    accepted.apply(ACCEPT)
    assert accepted.scores[1 - offerer % 2] == 1 and accepted.results[0].end is DealEnd.GIVEN_UP
    game.apply(REFUSE)
    assert game.phase is Phase.PLAY and game.contract is Contract.COMMITTED
    assert game.scores == [0, 0] and game.results == []
    # What the refused deal scores, for each team's mordienne and each way to miss it, is decided
    # on chosen tricks in test_rules_scoring.py::test_refused_give_up_needs_the_refusing_teams_mordienne.


def test_announced_mordienne_accept_and_decline_vendee():
    """RULES.md "Mordienne" (announced, French Wikipedia): accept -> the game goes to 10 points and
    the deal winner scores 2; decline -> not played, the announcer's team scores 1."""
    game = at_declarations(Ruleset.preset("vendee"))
    announcer = game.to_move
    game.apply(ANNOUNCE_MORDIENNE)
    assert game.phase is Phase.ANSWER
    declined = game.copy()
    declined.apply(REFUSE)
    assert declined.results[0].end is DealEnd.MORDIENNE_DECLINED
    assert declined.scores[announcer % 2] == 1 and declined.target == 5
    game.apply(ACCEPT)
    assert game.target == 10 and game.phase is Phase.PLAY and game.contract is Contract.ANNOUNCED
    # The points of the accepted deal, won by either team or by nobody, are decided on chosen tricks
    # in test_rules_scoring.py::test_announced_mordienne_accepted_the_deal_winner_scores_two.


def test_announced_mordienne_extends_to_ten_pagat_and_off_english():
    """RULES.md "Mordienne": pagat — an announcement only extends the game to 10 points;
    english preset — no announcement."""
    game = at_declarations(Ruleset.preset("pagat"))
    assert game.target is None  # exactly 5 deals
    game.apply(ANNOUNCE_MORDIENNE)
    assert game.phase is Phase.PLAY and game.target == 10 and game.contract is Contract.NORMAL
    english = at_declarations(Ruleset.preset("english"))
    assert ANNOUNCE_MORDIENNE not in english.legal_actions()
    before = english.state_key()
    with pytest.raises(IllegalActionError, match="mordienne"):
        english.apply(ANNOUNCE_MORDIENNE)
    assert english.state_key() == before


def test_all_pass_then_play():
    """RULES.md "Mordienne"/"Giving up": declarations come before the first trick; all pass -> play."""
    game = at_declarations(Ruleset())
    for _ in range(4):
        game.apply(PASS)
    assert game.phase is Phase.PLAY and game.to_move == (game.dealer + 1) % 4


def test_dealer_rotates_to_the_left():
    """RULES.md "A game": the player left of the dealer deals next."""
    game = random_game(Ruleset.preset("pagat"), 11)
    dealers = [r.dealer for r in game.results]
    assert all(b == (a + 1) % 4 for a, b in zip(dealers, dealers[1:], strict=False))
    assert dealers[0] == game.first_dealer


def test_first_to_five_points_ends_the_game():
    """RULES.md "A game": first team to 5 points (vendee)."""
    for seed in range(15):
        game = random_game(Ruleset.preset("english", game_end=GameEnd.FIRST_TO_POINTS), seed)
        outcome = game.outcome
        assert outcome.termination is Termination.TARGET_REACHED
        assert outcome.scores[outcome.winner] >= 5
        before_last = [s - p for s, p in zip(outcome.scores, game.results[-1].points, strict=False)]
        assert max(before_last) < 5


def test_exactly_five_deals_with_a_possible_draw():
    """RULES.md "A game": exactly N deals (5 in the presets), more points wins, a draw is possible.
    With 1 point a deal an odd N rarely draws, so the draw is checked with N = 4."""
    for seed in range(10):
        game = random_game(Ruleset.preset("english"), seed)
        assert game.outcome.termination is Termination.DEALS_PLAYED and len(game.results) == 5
    ruleset = Ruleset.preset("english", deals=4)
    draws = 0
    for seed in range(40):
        game = random_game(ruleset, seed)
        outcome = game.outcome
        assert outcome.termination is Termination.DEALS_PLAYED and len(game.results) == 4
        if outcome.scores[0] == outcome.scores[1]:
            assert outcome.winner is None and outcome.draw
            draws += 1
        else:
            assert outcome.winner == (0 if outcome.scores[0] > outcome.scores[1] else 1)
    assert draws > 0


def test_announced_mordienne_plays_the_game_to_ten():
    """RULES.md "Mordienne": after an accepted announcement the game ends at 10 points."""
    ruleset = Ruleset.preset("vendee")
    game = at_declarations(ruleset, seed=4)
    game.apply(ANNOUNCE_MORDIENNE)
    game.apply(ACCEPT)
    rng = random.Random(4)
    while not game.is_over:
        legal = [a for a in game.legal_actions() if a is not ANNOUNCE_MORDIENNE]
        game.apply(legal[rng.randrange(len(legal))])
    assert max(game.outcome.scores) >= 10 and game.outcome.termination is Termination.TARGET_REACHED


def test_three_player_table():
    """RULES.md "Other player counts": 3 players each alone, 12 cards, talon 12, 12 tricks."""
    game = random_game(Ruleset(players=Players.THREE), 8)
    assert len(game.scores) == 3
    played = [r for r in game.results if r.end is DealEnd.PLAYED]
    assert played and all(len(r.tricks) == 12 and len(r.tricks_won) == 3 for r in played)
    deal = Game.new(Ruleset(players=Players.THREE), 8).history[1]
    assert [len(h) for h in deal.hands] == [12, 12, 12] and len(deal.talon) == 12


def test_six_player_table():
    """RULES.md "Other player counts": 6 players, teams i and i+3, 8 cards, no talon/chant, 8 tricks."""
    game = Game.new(Ruleset(players=Players.SIX), 9)
    assert game.phase is Phase.PLAY  # no chant vote, no declarations
    assert [len(game.hand(s)) for s in range(6)] == [8] * 6 and game.talon == ()
    game = random_game(Ruleset(players=Players.SIX), 9)
    assert len(game.scores) == 3
    assert all(len(r.tricks) == 8 for r in game.results)
    won = [r for r in game.results if r.deal_winner is not None]
    assert won, "seed 9 must give deals with a winner"
    for r in won:
        # The winner's team (seat i with seat i+3) scores 1, or 2 with mordienne; nobody else scores.
        expected = [0, 0, 0]
        expected[r.deal_winner % 3] = 2 if r.mordienne else 1
        assert list(r.points) == expected


@pytest.mark.parametrize(
    "make_action, phase_fragment",
    [
        (lambda g: Vote(True), "phase play"),
        (lambda g: next(c for c in CARDS if c not in g.hand(g.to_move)), "not in the hand"),
        (lambda g: "3D", "phase play"),
    ],
)
def test_illegal_actions_raise_and_leave_the_state_untouched(make_action, phase_fragment):
    """RULES.md "A deal" 4-5: only the player to move plays, a card of their hand."""
    game = game_at_play(Ruleset(), 0, fill_hands(["", "", "", ""]))
    game.apply(game.legal_actions()[0])
    before = game.state_key()
    action = make_action(game)
    with pytest.raises(IllegalActionError, match=phase_fragment) as error:
        game.apply(action)
    assert "legal now" in str(error.value)
    assert game.state_key() == before


def test_card_already_played_is_named():
    """RULES.md "A deal" 4: a card is played once; the error says it was already played."""
    game = game_at_play(Ruleset(), 3, fill_hands(["4E", "9C", "AD", "3B"]))
    game.apply(Card.parse("4E"))
    before = game.copy()
    with pytest.raises(IllegalActionError, match="already played"):
        game.apply(Card.parse("4E"))
    assert game == before


def test_bad_chance_actions_are_rejected():
    """RULES.md "A deal" 2: 9 cards each, 12 in the talon, every card once."""
    game = Game(Ruleset(), 0, auto_chance=False)
    with pytest.raises(IllegalActionError, match="dealer 7"):
        game.apply(ChooseDealer(7))
    game.apply(ChooseDealer(0))
    hands = list(fill_hands(["", "", "", ""]))
    talon = tuple(c for c in CARDS if not any(c in h for h in hands))
    hands[1] = hands[1][:8] + (hands[0][0],)
    with pytest.raises(IllegalActionError, match="dealt twice"):
        game.apply(Deal(tuple(hands), talon))
    with pytest.raises(IllegalActionError, match="seat 0 must get 9 cards"):
        game.apply(Deal((hands[0][:8],) + tuple(hands[1:]), talon))
    with pytest.raises(IllegalActionError, match="talon has 12 cards"):
        game.apply(Deal(tuple(hands), ()))
    assert game.phase is Phase.DEAL


def test_game_over_refuses_actions():
    """RULES.md "A game": after the end nothing is legal."""
    game = random_game(Ruleset(), 3)
    assert game.legal_actions() == () and game.to_move is None
    with pytest.raises(IllegalActionError, match="over"):
        game.apply(PASS)


def test_signals_reach_only_the_seats_that_saw_them():
    """RULES.md "Signs": a sign reaches the partner and only the opponents who catch it."""
    game = at_declarations(Ruleset())
    record = game.record_signal(0, "BORGNE", [2])
    assert record.phase is Phase.DECLARE and record.deal == 1
    assert game.view(2).signals == (record,) and game.view(0).signals == (record,)
    assert game.view(1).signals == () and game.view(3).signals == ()
    with pytest.raises(RulesError, match="seat 9"):
        game.record_signal(0, "AS", [9])


def test_view_hides_other_hands():
    """RULES.md "A deal" 3: without chant the talon stays unseen; others' hands are hidden."""
    game = game_at_play(Ruleset(), 0, fill_hands(["", "", "", ""]))
    view = game.view(3)
    assert view.hand == game.hand(3)
    assert view.legal_actions == () and game.view(1).legal_actions == game.legal_actions()
    assert view.unseen() == frozenset(CARDS) - set(view.hand)
    assert view.hand_sizes == (9, 9, 9, 9)


def test_explicit_deal_through_from_deal():
    """RULES.md "A deal" 2: a given deal; the talon is the rest of the deck."""
    hands = fill_hands(["3D 3C", "2D 2C", "9C 9D", "2B 2E"])
    game = Game.from_deal(Ruleset(), 1, hands)
    assert game.dealer == 1 and game.hand(0)[:2] == cards("3D 3C")
    assert len(game.talon) == 12


def test_malformed_actions_are_illegal_not_crashes():
    """Actions with values of the wrong type raise IllegalActionError, state untouched."""
    from trainer.rules.actions import Answer, Declare

    game = Game.new(Ruleset(), 6)
    before = game.state_key()
    for bad in (Vote("yes"), Vote(1), Discard("3D"), Declare("pass"), Answer(True), None, 42):
        with pytest.raises(IllegalActionError):
            game.apply(bad)
        assert game.state_key() == before
    game.apply(NO)
    with pytest.raises(IllegalActionError, match="Declaration"):
        game.apply(Declare("pass"))
    game.apply(GIVE_UP)  # vendee: opponents +1, next deal's chant vote
    with pytest.raises(IllegalActionError, match="True or False"):
        game.apply(Vote("no"))
