"""What the engine promises beyond the rules themselves: the exact message of an illegal action,
where a wrongly played card is, equal and independent copies, the sign record, the trick record
the Play page reads. Each test here kills mutants that the rule tests let live (docs/mutation.md).
"""

from __future__ import annotations

import pytest
from rules_helpers import fill_hands, game_at_play, plan_for_winners, play_plan

from trainer.rules.actions import NO, ChooseDealer, Deal, Discard, Phase
from trainer.rules.cards import Card
from trainer.rules.errors import IllegalActionError, RulesError
from trainer.rules.game import Game
from trainer.rules.ruleset import Players, Ruleset

HANDS = fill_hands(["4E 5D", "9C RB", "AD 6C", "3B 7E"])


def at_play() -> Game:
    return game_at_play(Ruleset(), 3, HANDS)  # dealer 3: seat 0 leads


def test_an_illegal_card_names_itself_where_it_is_and_every_legal_card():
    game = at_play()
    with pytest.raises(IllegalActionError) as error:
        game.apply(Card.parse("9C"))  # seat 1's card, seat 0 to play
    legal = ", ".join(f"play {c.code}" for c in sorted(HANDS[0], key=lambda c: c.index))
    assert str(error.value) == (
        f"illegal action 'play 9C': 9C is not in the hand of seat 0 (seat 1 holds it); legal now: {legal}"
    )
    for code in ("4E", "9C", "AD", "3B"):
        game.apply(Card.parse(code))
    with pytest.raises(IllegalActionError, match=r"\(it was already played\)"):
        game.apply(Card.parse("9C"))
    talon_card = next(c for c in Card if all(c not in h for h in HANDS))
    with pytest.raises(IllegalActionError, match=r"\(it is not in play \(talon or discards\)\)"):
        game.apply(talon_card)


def test_the_legal_list_is_cut_at_sixteen():
    """A chant receiver at the 3-player table discards from 18 cards: the message shows 16."""
    game = Game.new(Ruleset(players=Players.THREE), 3)
    while game.phase is Phase.CHANT_VOTE:
        game.apply(next(a for a in game.legal_actions() if a.agree))
    assert game.phase is Phase.DISCARD and len(game.legal_actions()) == 18
    shown = [f"discard {a.card.code}" for a in game.legal_actions()[:16]]
    with pytest.raises(IllegalActionError) as error:
        game.apply(NO)
    assert str(error.value) == (
        "illegal action 'vote no': the game is in phase discard, which takes a Discard; legal now: " + ", ".join(shown)
    )


def test_a_bad_dealer_is_refused_with_the_seats():
    for dealer, shown in ((4, "4"), (True, "True"), ("1", "'1'"), (-1, "-1")):
        game = Game(Ruleset(), 0, auto_chance=False)
        with pytest.raises(IllegalActionError) as error:
            game.apply(ChooseDealer(dealer))
        assert f"dealer {shown} must be a seat 0..3" in str(error.value)
    game = Game(Ruleset(), 0, auto_chance=False)
    game.apply(ChooseDealer(3))
    assert game.dealer == 3


def test_from_deal_defaults_resolve_chance_from_seed_zero():
    """``Game.from_deal`` starts at the first decision with seed 0 and chance resolved by itself."""
    game = Game.from_deal(Ruleset(), 3, HANDS)
    assert game.seed == 0 and game.auto_chance is True and game.phase is Phase.CHANT_VOTE
    for _ in range(4):
        game.apply(game.legal_actions()[0])  # everyone votes for the chant
    assert game.phase is Phase.DISCARD  # the chant deal (a chance step) was resolved by itself
    manual = Game.from_deal(Ruleset(), 3, HANDS, auto_chance=False)
    for _ in range(4):
        manual.apply(manual.legal_actions()[0])
    assert manual.phase is Phase.CHANT_DEAL


def test_copies_are_equal_and_independent():
    game = at_play()
    game.apply(Card.parse("4E"))
    copy = game.copy()
    assert copy == game and copy.state_key() == game.state_key()
    copy.apply(Card.parse("9C"))
    assert copy != game and game.current_trick == (Card.parse("4E"),)
    assert set(game.hand(1)) == set(HANDS[1])  # the copy's play did not reach the original's hands
    assert game != "not a game" and (game == object()) is False


def test_games_differing_only_in_the_trick_play_are_not_equal():
    one, two = at_play(), at_play()
    assert one == two
    one.apply(Card.parse("4E"))
    two.apply(Card.parse("5D"))
    assert one != two


def test_repr_names_the_ruleset_phase_and_scores():
    game = at_play()
    assert repr(game) == "<Game vendee seed=0 deal=1 phase=play to_move=0 scores=(0, 0)>"


def test_apply_text_plays_a_card_by_its_code():
    game = at_play()
    game.apply_text("4E")
    assert game.current_trick == (Card.parse("4E"),)
    with pytest.raises(IllegalActionError, match="seat 3 holds it"):
        game.apply_text("3B")  # seat 1 is to play


def test_sign_records_say_when_and_are_checked():
    game = at_play()
    before = game.record_signal(0, "AS x1", [2])
    assert (before.deal, before.trick, before.phase, before.reached) == (1, 0, Phase.PLAY, frozenset({2}))
    for code in ("4E", "9C", "AD", "3B"):
        game.apply(Card.parse(code))
    after = game.record_signal(2, "BORGNE", [0])
    assert after.trick == 1 and after.index == len(game.history)
    declaring = Game.from_deal(Ruleset(), 3, HANDS)
    assert declaring.record_signal(1, "AS x0", []).trick == 0
    for bad in ("", None, 5):
        with pytest.raises(RulesError, match="a signal message must be a non-empty string"):
            game.record_signal(0, bad, [2])
    for seat in (4, -1, True, "1"):
        with pytest.raises(RulesError) as error:
            game.record_signal(seat, "AS x1", [])
        assert str(error.value) == f"seat {seat!r} is not at this table: seats are 0..3"
        with pytest.raises(RulesError, match="is not at this table: seats are 0..3"):
            game.record_signal(0, "AS x1", [seat])
    assert game.record_signal(3, "AS x1", [0, 1, 2]).seat == 3


def test_trick_records_give_each_card_its_seat():
    plan = plan_for_winners([1, -1, 2, 0, 3, 1, 1, 2, 0])
    game = game_at_play(Ruleset(), 3, plan)
    play_plan(game, plan)
    for number, trick in enumerate(game.results[0].tricks):
        plays = trick.plays(4)
        assert [seat for seat, _ in plays] == [(trick.leader + i) % 4 for i in range(4)]
        for position, (seat, card) in enumerate(plays):
            assert card == plan[seat][number]  # the planned card of that seat in that trick
            assert trick.seat_of(position, 4) == seat
    last = game.results[0].tricks[-1]
    assert last.leader != 0 and last.seat_of(1, 4) == (last.leader + 1) % 4


def refusal(game: Game, action) -> str:
    """The message of the refused ``action``; the state must be left as it was."""
    before = game.state_key()
    with pytest.raises(IllegalActionError) as error:
        game.apply(action)
    assert game.state_key() == before
    return str(error.value)


def test_bad_face_up_deals_for_the_first_dealer_are_refused_with_why():
    """RULES.md "A game": cards are dealt face up until Madame (3C) appears; whoever gets it deals."""
    madame, monsieur, ace = Card.parse("3C"), Card.parse("3D"), Card.parse("AD")
    cases = [
        (ChooseDealer(1, (monsieur, monsieur, madame)), "the face-up cards must be distinct cards"),
        (ChooseDealer(1, (monsieur, "2C", madame)), "the face-up cards must be distinct cards"),
        (ChooseDealer(1, (monsieur, ace)), "the face-up deal stops at the first Madame (3C)"),
        (ChooseDealer(2, (madame, monsieur, madame)), "the face-up cards must be distinct cards"),
        (ChooseDealer(1, (madame, monsieur, ace)), "the face-up deal stops at the first Madame (3C)"),
        (ChooseDealer(0, (monsieur, ace, madame)), "Madame went to seat 2, who must deal"),
        (ChooseDealer(3, (monsieur, madame)), "Madame went to seat 1, who must deal"),
        (ChooseDealer(4), "dealer 4 must be a seat 0..3"),
    ]
    for action, why in cases:
        game = Game(Ruleset(), 0, auto_chance=False)
        text = f"dealer {action.dealer}" + (
            " face-up " + " ".join(getattr(c, "code", str(c)) for c in action.face_up) if action.face_up else ""
        )
        message = refusal(game, action)
        assert message.startswith("illegal action '") and f"': {why}; legal now: " in message, message
        if all(isinstance(c, Card) for c in action.face_up):
            assert message.startswith(f"illegal action '{text}': "), message
    game = Game(Ruleset(), 0, auto_chance=False)
    game.apply(ChooseDealer(1, (monsieur, madame)))
    assert game.dealer == 1


def test_bad_deals_are_refused_with_why():
    """RULES.md "A deal" 2: as many hands as players, 9 cards each, a talon of 12, every card once."""
    game = Game(Ruleset(), 0, auto_chance=False)
    game.apply(ChooseDealer(0))
    hands = list(fill_hands(["", "", "", ""]))
    talon = tuple(c for c in Card if not any(c in h for h in hands))
    twice = hands[2][3]
    cases = [
        (Deal(tuple(hands[:3]), talon), "a 4-player deal has 4 hands, got 3"),
        (Deal((hands[0], hands[1], hands[2] + (talon[0],), hands[3]), talon[1:]), "seat 2 must get 9 cards, got 10"),
        (Deal(tuple(hands), talon[1:]), "the talon has 12 cards, got 11"),
        (Deal(tuple(hands), talon[:-1] + ("3D",)), "hands and talon must hold Card values"),
        (Deal((hands[0], hands[1][:8] + (twice,), hands[2], hands[3]), talon), f"card {twice.code} is dealt twice"),
    ]
    for action, why in cases:
        message = refusal(game, action)
        assert message.startswith("illegal action 'deal ") or message.startswith("illegal action 'Deal("), message
        assert f"': {why}; legal now: " in message, message
    assert game.phase is Phase.DEAL


def test_a_malformed_action_is_shown_as_python_wrote_it():
    game = Game.new(Ruleset(players=Players.THREE), 3)
    while game.phase is Phase.CHANT_VOTE:
        game.apply(next(a for a in game.legal_actions() if a.agree))
    assert game.phase is Phase.DISCARD
    message = refusal(game, Discard("3D"))
    assert message.startswith("illegal action 'Discard(card='3D')': Discard needs a Card, got '3D'; legal now: ")


def test_a_copy_in_the_discards_does_not_share_hands_with_the_original():
    game = Game.new(Ruleset(players=Players.THREE), 3)
    while game.phase is Phase.CHANT_VOTE:
        game.apply(next(a for a in game.legal_actions() if a.agree))
    seat = game.to_move
    hand = game.hand(seat)
    copy = game.copy()
    copy.apply(copy.legal_actions()[0])
    assert game.hand(seat) == hand and game.discards(seat) == ()
    assert copy.hand(seat) != hand
