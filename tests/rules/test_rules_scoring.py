"""Every scoring branch of every preset, on deals whose trick winners the test chooses (RULES.md
"A deal" 8, "Mordienne", "Giving up", "A game", "Other player counts", "Presets").

Each test builds the hands so the named seats win the named tricks, declares through the public
``Game`` API and checks the points the deal gives each team, so no branch depends on luck: the
refused give-up followed by *each* team's mordienne, the announced mordienne won by either team,
spoiled deals under every contract, and the game end of each preset.
"""

from __future__ import annotations

import pytest
from rules_helpers import plan_for_winners, play_plan

from trainer.rules.actions import ACCEPT, ANNOUNCE_MORDIENNE, GIVE_UP, NO, PASS, REFUSE, YES, Declaration, Phase
from trainer.rules.game import Contract, DealEnd, DealResult, Game, Termination
from trainer.rules.ruleset import GameEnd, Players, Ruleset
from trainer.rules.saves import PlaythroughPhrases

S, W, N, E, X = 0, 1, 2, 3, -1  # seats clockwise from South; X = spoiled trick

# Trick winners with a known deal winner and mordienne (checked in test_plans_give_the_chosen_tricks).
W_MORDIENNE = [S, X, E, N, X, S, W, W, W]  # West: nothing before, the last three
E_MORDIENNE = [S, N, X, S, N, X, E, E, E]  # East: West's partner
S_MORDIENNE = [W, X, E, W, X, E, S, S, S]  # South
N_MORDIENNE = [W, E, X, W, E, X, N, N, N]  # North: South's partner
W_PLAIN = [W, W, W, S, S, N, X, E, E]  # West reaches 3 first, took tricks early: no mordienne
S_PLAIN = [S, S, S, W, W, N, X, E, E]
ALL_SPOILED = [X] * 9
PRESETS = ("vendee", "pagat", "english")


def at_declarations(ruleset: Ruleset, winners: list[int]) -> tuple[Game, tuple]:
    plan = plan_for_winners(winners, ruleset.player_count)
    # The last seat deals, so seat 0 (South) leads the first trick and declares first.
    game = Game.from_deal(ruleset, ruleset.player_count - 1, plan)
    if game.phase is Phase.CHANT_VOTE:
        game.apply(NO)  # no chant: the hands stay as planned
    return game, plan


def play_deal(ruleset: Ruleset, winners: list[int], declarations=()) -> Game:
    """Deal, declare (``declarations`` in turn, then passes to the end), play the planned tricks."""
    game, plan = at_declarations(ruleset, winners)
    for action in declarations:
        game.apply(action)
    while game.phase is Phase.DECLARE:
        game.apply(PASS)
    play_plan(game, plan)
    return game


@pytest.mark.parametrize(
    ("winners", "deal_winner", "mordienne"),
    [
        (W_MORDIENNE, W, True),
        (E_MORDIENNE, E, True),
        (S_MORDIENNE, S, True),
        (N_MORDIENNE, N, True),
        (W_PLAIN, W, False),
        (S_PLAIN, S, False),
        (ALL_SPOILED, None, False),
    ],
)
def test_plans_give_the_chosen_tricks(winners, deal_winner, mordienne):
    for preset in PRESETS:
        result = play_deal(Ruleset.preset(preset), winners).results[0]
        assert [t.winner if t.winner is not None else X for t in result.tricks] == winners
        assert result.deal_winner == deal_winner and result.mordienne is mordienne


# -- plain deals -----------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize(
    ("winners", "points"),
    [
        (W_PLAIN, (0, 1)),
        (S_PLAIN, (1, 0)),
        (W_MORDIENNE, (0, 2)),
        (S_MORDIENNE, (2, 0)),
        (ALL_SPOILED, (0, 0)),
    ],
)
def test_plain_deal_scores_one_two_for_mordienne_nothing_if_all_spoiled(preset, winners, points):
    """RULES.md "A deal" 8 and "Mordienne": the deal winner's team scores 1, 2 with mordienne;
    nobody scores when every trick is spoiled."""
    game = play_deal(Ruleset.preset(preset), winners)
    result = game.results[0]
    assert result.end is DealEnd.PLAYED and result.contract is Contract.NORMAL
    assert result.points == points and tuple(game.scores) == points


def test_spoiled_trick_inside_the_run_is_an_option_of_the_ruleset():
    """RULES.md "Mordienne": a spoiled trick inside the last-tricks run breaks mordienne by default
    (1 point); with ``pourri_breaks_mordienne_run`` off it is skipped over (2 points)."""
    winners = [S, E, X, N, W, W, X, W, W]
    assert play_deal(Ruleset(), winners).results[0].points == (0, 1)
    assert play_deal(Ruleset(pourri_breaks_mordienne_run=False), winners).results[0].points == (0, 2)


def test_three_players_score_alone():
    """RULES.md "Other player counts": three players, each alone, 12 tricks; the winner scores."""
    rules = Ruleset.preset("english", players=Players.THREE)
    # Seats 1 and 2 both take 4; seat 1 got there first (trick 10 against 12).
    result = play_deal(rules, [1, 1, 1, 0, 0, 2, X, 2, 0, 1, 2, 2]).results[0]
    assert result.deal_winner == 1 and not result.mordienne and result.points == (0, 1, 0)
    # Seat 2 takes the last four in a row but seat 0 reached 4 first: no mordienne.
    result = play_deal(rules, [0, 1, 0, 1, X, 0, 1, 0, 2, 2, 2, 2]).results[0]
    assert result.deal_winner == 0 and not result.mordienne and result.points == (1, 0, 0)
    result = play_deal(rules, [0, 1, 0, 1, X, 1, 0, X, 2, 2, 2, 2]).results[0]
    assert result.deal_winner == 2 and result.mordienne and result.points == (0, 0, 2)


def test_six_players_score_for_the_team_of_seats_i_and_i_plus_three():
    """RULES.md "Other player counts": six players, three teams (seats i and i+3), 8 tricks."""
    rules = Ruleset.preset("vendee", players=Players.SIX)
    result = play_deal(rules, [0, 4, 4, 1, 4, X, 2, 3]).results[0]
    assert result.deal_winner == 4 and result.points == (0, 1, 0)
    result = play_deal(rules, [0, 1, 2, 0, 1, 5, 5, 5]).results[0]
    assert result.deal_winner == 5 and result.mordienne and result.points == (0, 0, 2)


# -- giving up -------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["vendee", "english"])
@pytest.mark.parametrize("offerer", [S, W])
def test_giving_up_gives_the_opponents_one_point_without_play(preset, offerer):
    """RULES.md "Giving up" (French/English Wikipedia; vendee and english presets)."""
    game, _ = at_declarations(Ruleset.preset(preset), W_MORDIENNE)
    for _ in range(offerer):
        game.apply(PASS)
    game.apply(GIVE_UP)
    result = game.results[0]
    opponents = 1 - offerer % 2
    assert result.end is DealEnd.GIVEN_UP and result.tricks == () and result.declared_by == offerer
    assert result.points[opponents] == 1 and result.points[offerer % 2] == 0
    assert game.phase is not Phase.ANSWER and game.deal_number == 2


@pytest.mark.parametrize("offerer", [S, W])
def test_giving_up_accepted_gives_the_opponents_one_point_pagat(offerer):
    """RULES.md "Giving up" (pagat): the opponents accept and take 1 point, the deal is not played."""
    game, _ = at_declarations(Ruleset.preset("pagat"), W_MORDIENNE)
    for _ in range(offerer):
        game.apply(PASS)
    game.apply(GIVE_UP)
    assert game.phase is Phase.ANSWER and game.to_move == offerer + 1
    game.apply(ACCEPT)
    result = game.results[0]
    assert result.end is DealEnd.GIVEN_UP and result.tricks == () and result.declared_by == offerer
    assert result.points[1 - offerer % 2] == 1 and result.points[offerer % 2] == 0
    assert told(result, game.ruleset) == (
        f"seat {offerer} offered to give the deal up and the opponents accepted: they take 1 point"
    )


# Refused give-up (pagat): the refusing team must make mordienne: 2 for them, else 2 for the offerers.
# South (team 0) offers and West (team 1) refuses, or West (team 1) offers and North (team 0) refuses.
REFUSED_CASES = [
    # offerer, trick winners, points
    (S, W_MORDIENNE, (0, 2)),  # the refusing team makes mordienne
    (S, E_MORDIENNE, (0, 2)),  # ... through the other partner
    (S, S_MORDIENNE, (2, 0)),  # the offering team makes mordienne: the refusers missed theirs
    (S, N_MORDIENNE, (2, 0)),
    (S, W_PLAIN, (2, 0)),  # the refusers win the deal without mordienne
    (S, S_PLAIN, (2, 0)),
    (S, ALL_SPOILED, (2, 0)),  # nobody takes a trick: the refusers still missed
    (W, S_MORDIENNE, (2, 0)),  # team 0 refuses and makes it
    (W, N_MORDIENNE, (2, 0)),
    (W, W_MORDIENNE, (0, 2)),  # team 1 offered, then made mordienne itself
    (W, E_MORDIENNE, (0, 2)),
    (W, S_PLAIN, (0, 2)),
    (W, W_PLAIN, (0, 2)),
    (W, ALL_SPOILED, (0, 2)),
]


@pytest.mark.parametrize(("offerer", "winners", "points"), REFUSED_CASES)
def test_refused_give_up_needs_the_refusing_teams_mordienne(offerer, winners, points):
    """RULES.md "Giving up" (pagat): refuse -> the refusing team commits to mordienne: success 2 for
    them, failure (anyone else's mordienne, a plain win, nobody winning) 2 for the offering team."""
    declarations = [PASS] * offerer + [GIVE_UP, REFUSE]
    game = play_deal(Ruleset.preset("pagat"), winners, declarations)
    result = game.results[0]
    assert result.contract is Contract.COMMITTED and result.declared_by == offerer
    assert result.points == points and tuple(game.scores) == points
    refusers = 1 - offerer % 2
    if points[refusers] == 2:
        assert f"team {refusers} refused the give-up and made mordienne" in told(result, game.ruleset)
    else:
        assert f"team {refusers} refused the give-up but missed mordienne" in told(result, game.ruleset)


# -- announced mordienne ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("winners", "points"),
    [
        (S_PLAIN, (2, 0)),  # the announcer's team wins the deal, no mordienne needed
        (W_PLAIN, (0, 2)),  # the opponents win it: they score the 2
        (W_MORDIENNE, (0, 2)),  # mordienne adds nothing on top
        (ALL_SPOILED, (0, 0)),
    ],
)
def test_announced_mordienne_accepted_the_deal_winner_scores_two(winners, points):
    """RULES.md "Mordienne" (announced, French Wikipedia; vendee): accepted -> the deal winner scores
    2, whoever it is, and the game goes on to 10 points."""
    rules = Ruleset.preset("vendee")
    game = play_deal(rules, winners, [ANNOUNCE_MORDIENNE, ACCEPT])
    result = game.results[0]
    assert result.contract is Contract.ANNOUNCED and result.declared_by == S
    assert result.points == points
    assert game.target == rules.extended_points == 10


def test_announced_mordienne_declined_scores_one_for_the_announcer():
    """RULES.md "Mordienne" (vendee): declined -> not played, the announcer's team scores 1."""
    game, _ = at_declarations(Ruleset.preset("vendee"), W_MORDIENNE)
    game.apply(PASS)
    game.apply(ANNOUNCE_MORDIENNE)  # West announces, South answers
    assert game.to_move == N
    game.apply(REFUSE)
    result = game.results[0]
    assert result.end is DealEnd.MORDIENNE_DECLINED and result.tricks == () and result.declared_by == W
    assert result.points == (0, 1) and game.target == 5
    assert told(result, game.ruleset) == (
        "seat 1 announced mordienne and the opponents declined: "
        "the deal is not played and the announcer's team scores 1"
    )
    assert game.answers == ()  # a new deal has begun; the answer belonged to the last one


def test_answers_are_recorded_with_the_answering_seat():
    game, _ = at_declarations(Ruleset.preset("pagat"), W_MORDIENNE)
    game.apply(GIVE_UP)
    game.apply(REFUSE)
    assert game.answers == ((W, False),)


def test_accepted_announcement_moves_the_target_so_two_points_do_not_end_the_game():
    """RULES.md "A game": once mordienne is announced the game is played to ``extended_points``."""
    short = Ruleset.preset("vendee", target_points=2, extended_points=4)
    plain = play_deal(short, S_MORDIENNE)
    assert plain.is_over and plain.outcome.termination is Termination.TARGET_REACHED
    assert plain.outcome.winner == 0 and plain.outcome.scores == (2, 0)
    announced = play_deal(short, S_PLAIN, [ANNOUNCE_MORDIENNE, ACCEPT])
    assert announced.scores == [2, 0] and not announced.is_over and announced.target == 4


def test_announcement_extends_to_ten_without_changing_the_deal_score_pagat():
    """RULES.md "Mordienne" (pagat after Rebour): the announcement only extends the game to 10
    points: the deal scores as usual and a fixed-deals game no longer ends after its deals."""
    rules = Ruleset.preset("pagat", deals=1, extended_points=3)
    game = play_deal(rules, S_PLAIN, [ANNOUNCE_MORDIENNE])
    result = game.results[0]
    assert result.contract is Contract.NORMAL and result.points == (1, 0)
    assert game.target == 3 and not game.is_over  # without it, one deal would end this game
    game = play_deal(rules, S_MORDIENNE, [ANNOUNCE_MORDIENNE])
    assert game.results[0].points == (2, 0) and not game.is_over


# -- game end --------------------------------------------------------------------------------------


def test_first_to_points_ends_at_the_target_and_not_before():
    """RULES.md "A game" (vendee): the first team to the target wins."""
    game = play_deal(Ruleset.preset("vendee", target_points=1), W_PLAIN)
    assert game.outcome.termination is Termination.TARGET_REACHED and game.outcome.winner == 1
    game = play_deal(Ruleset.preset("vendee", target_points=2), W_PLAIN)
    assert not game.is_over and game.deal_number == 2 and game.dealer == S


@pytest.mark.parametrize("preset", ["pagat", "english"])
def test_fixed_deals_end_after_the_deals_more_points_win_equal_points_draw(preset):
    """RULES.md "A game" (pagat, english): exactly ``deals`` deals; more points wins; a draw is
    possible."""
    game = play_deal(Ruleset.preset(preset, deals=1), W_MORDIENNE)
    assert game.outcome.termination is Termination.DEALS_PLAYED
    assert game.outcome.winner == 1 and game.outcome.scores == (0, 2) and not game.outcome.draw
    game = play_deal(Ruleset.preset(preset, deals=1), ALL_SPOILED)
    assert game.outcome.termination is Termination.DEALS_PLAYED
    assert game.outcome.winner is None and game.outcome.draw
    game = play_deal(Ruleset.preset(preset, deals=2), W_MORDIENNE)
    assert not game.is_over and game.deal_number == 2


def test_presets_game_end_rules():
    """RULES.md "Presets": vendee to 5 points; pagat and english 5 deals."""
    assert Ruleset.preset("vendee").game_end is GameEnd.FIRST_TO_POINTS
    assert Ruleset.preset("vendee").target_points == 5
    for preset in ("pagat", "english"):
        assert Ruleset.preset(preset).game_end is GameEnd.FIXED_DEALS and Ruleset.preset(preset).deals == 5


# -- what a deal's record says ---------------------------------------------------------------------


def test_an_unplayed_deal_records_no_tricks_no_mordienne_and_whether_there_was_a_chant():
    for chant in (False, True):
        game = Game.new(Ruleset.preset("vendee"), 2)
        while game.phase is not Phase.DECLARE:
            game.apply(game.legal_actions()[0 if chant else -1])  # YES first, NO last among votes
        seat = game.to_move
        game.apply(GIVE_UP)
        result = game.results[0]
        assert (result.deal, result.chant, result.tricks_won, result.mordienne) == (1, chant, (0, 0, 0, 0), False)
        assert result.contract is Contract.NORMAL and result.deal_winner is None and result.declared_by == seat


def test_the_chant_vote_offers_yes_then_no():
    game = Game.new(Ruleset(), 2)
    assert game.phase is Phase.CHANT_VOTE and game.legal_actions() == (YES, NO)


def test_a_pending_declaration_is_the_one_made():
    game, _ = at_declarations(Ruleset.preset("pagat"), W_MORDIENNE)
    game.apply(PASS)
    game.apply(GIVE_UP)
    assert game.pending_declaration == (W, Declaration.GIVE_UP)


def test_new_games_default_to_vendee_and_may_wait_for_chance():
    assert Game.new().ruleset == Ruleset.preset("vendee") and Game.new().seed == 0
    waiting = Game.new(Ruleset(), 3, auto_chance=False)
    assert waiting.phase is Phase.CHOOSE_DEALER and waiting.history == []


PAGAT = Ruleset.preset("pagat")
VENDEE = Ruleset()


def told(result: DealResult, ruleset: Ruleset = VENDEE) -> str:
    """The playthrough's words for a deal's result (the engine keeps only its values)."""
    return PlaythroughPhrases(ruleset).deal_result(result)


def test_explanations_say_why_the_points_went_where_they_did():
    spoiled = play_deal(Ruleset(), ALL_SPOILED).results[0]
    assert told(spoiled) == "every trick was spoiled: nobody took a trick and the deal scores nothing"
    made = play_deal(Ruleset(), W_MORDIENNE).results[0]
    assert told(made) == (
        "seat 1 took the most tricks (3); mordienne: no trick before, then the last tricks in a row; team 1 scores 2"
    )
    tie = play_deal(Ruleset(), [S, S, E, E, W, W, N, N, X]).results[0]
    assert told(tie) == (
        "seat 0 took the most tricks (2); seats 1, 2, 3 also took 2, but seat 0 reached 2 first; team 0 scores 1"
    )
    one_tie = play_deal(Ruleset(), [S, S, E, E, X, X, X, X, X]).results[0]
    assert "; seat 3 also took 2, but seat 0 reached 2 first" in told(one_tie)


def test_a_played_deal_records_whether_there_was_a_chant():
    for chant in (True, False):
        game = Game.new(Ruleset.preset("vendee"), 5)
        while game.phase is not Phase.PLAY:
            legal = game.legal_actions()
            game.apply(legal[0] if chant or game.phase is not Phase.CHANT_VOTE else legal[-1])
        while not game.results:
            game.apply(game.legal_actions()[0])
        assert game.results[0].end is DealEnd.PLAYED and game.results[0].chant is chant


def test_explanations_of_contracts():
    made = play_deal(Ruleset.preset("pagat"), W_MORDIENNE, [GIVE_UP, REFUSE]).results[0]
    assert told(made, PAGAT).startswith("seat 1 took the most tricks (3); mordienne: ")
    assert told(made, PAGAT).endswith("; team 1 refused the give-up and made mordienne: 2 points")
    announced = play_deal(Ruleset.preset("vendee"), S_PLAIN, [ANNOUNCE_MORDIENNE, ACCEPT]).results[0]
    assert told(announced) == (
        "seat 0 took the most tricks (3); mordienne was announced and accepted: the deal winner scores 2"
    )
