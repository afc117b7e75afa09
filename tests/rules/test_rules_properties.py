"""Hypothesis properties of the engine: cards conserved, trick winners, trick counts, scores that only
grow, notation round-trips. (Sampled worlds are the bots' own: tests/bots/test_bots_worlds.py.)"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rules_helpers import random_game

from trainer.rules.actions import Answer, Declaration, Declare, Discard, Phase, Vote, format_action, parse_action
from trainer.rules.cards import CARDS, Card
from trainer.rules.errors import IllegalActionError
from trainer.rules.fastdeal import FastDeal
from trainer.rules.game import DealEnd, Game
from trainer.rules.ruleset import PRESETS, Players, Ruleset

rulesets = st.builds(
    lambda name, players: Ruleset.preset(name, players=players),
    st.sampled_from(sorted(PRESETS)),
    st.sampled_from(list(Players)),
)
seeds = st.integers(min_value=0, max_value=10**9)
fast = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _all_cards_accounted(game: Game) -> list[Card]:
    """Hands + played + discards + talon of the current deal."""
    every: list[Card] = []
    for seat in range(game.players):
        every.extend(game.hand(seat))
        every.extend(game.discards(seat))
    every.extend(game.talon)
    for trick in game.tricks:
        every.extend(trick.cards)
    every.extend(game.current_trick)
    return every


@fast
@given(rulesets, seeds, st.integers(min_value=0, max_value=120))
def test_48_cards_are_conserved(ruleset, seed, steps):
    game = random_game(ruleset, seed, steps)
    if game.phase in (Phase.GAME_OVER,):
        return
    every = _all_cards_accounted(game)
    assert len(every) == 48 and set(every) == set(CARDS)


@fast
@given(rulesets, seeds)
def test_trick_winner_played_the_strongest_card_and_deal_trick_count(ruleset, seed):
    game = random_game(ruleset, seed)
    for result in game.results:
        if result.end is not DealEnd.PLAYED:
            continue
        assert len(result.tricks) == ruleset.tricks_per_deal  # 9, or 12 / 8
        for trick in result.tricks:
            strengths = [c.strength for c in trick.cards]
            best = max(strengths)
            assert len(trick.cards) == ruleset.player_count
            if trick.winner is None:
                assert strengths.count(best) >= 2
            else:
                position = (trick.winner - trick.leader) % ruleset.player_count
                assert strengths[position] == best and strengths.count(best) == 1
        assert sum(result.tricks_won) == sum(t.winner is not None for t in result.tricks)


@fast
@given(rulesets, seeds)
def test_scores_only_grow(ruleset, seed):
    game = Game.new(ruleset, seed)
    rng = random.Random(seed)
    last = list(game.scores)
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
        assert all(now >= before for now, before in zip(game.scores, last, strict=False))
        last = list(game.scores)
    assert game.outcome.scores == tuple(game.scores)


@settings(max_examples=40, deadline=None)
@given(rulesets, seeds, st.integers(min_value=0, max_value=80))
def test_action_notation_round_trips(ruleset, seed, steps):
    game = random_game(ruleset, seed, steps)
    for action in game.history:
        assert parse_action(format_action(action)) == action


@given(st.sampled_from(CARDS), st.sampled_from(["lower", "upper", "padded"]))
def test_card_codes_round_trip(card, style):
    code = {"lower": card.code.lower(), "upper": card.code, "padded": f" {card.code.lower()} "}[style]
    assert Card.parse(code) is card
    assert eval(repr(card)) is card
    assert Card.from_index(card.index) is card


@settings(max_examples=40, deadline=None)
@given(seeds, st.sampled_from([3, 4, 6]), st.booleans())
def test_fast_deal_copy_and_resume_agree(seed, players, spoiler_leads):
    rng = random.Random(seed)
    deal = FastDeal.random(rng, players=players, dealer=seed % players, spoiler_leads=spoiler_leads)
    for _ in range(rng.randrange(20)):
        deal.apply(deal.legal_actions()[0])
    copy = deal.copy()
    resumed = FastDeal.resume(
        deal.hands, deal.leader, deal.trick, deal.tricks,
        spoiler_leads=spoiler_leads, total_tricks=deal.total_tricks,
    )
    for other in (copy, resumed):
        assert other.to_move == deal.to_move and other.won == deal.won
    while not deal.finished:
        move = deal.legal_actions()[-1]
        deal.apply(move)
        copy.apply(move)
        resumed.apply(move)
    for other in (copy, resumed):
        assert other.winners == deal.winners and other.deal_winner() == deal.deal_winner()
        assert other.mordienne() == deal.mordienne()


_UNIVERSE = (
    list(CARDS)
    + [Discard(c) for c in CARDS]
    + [Vote(True), Vote(False), Answer(True), Answer(False)]
    + [Declare(d) for d in Declaration]
)


@settings(max_examples=40, deadline=None)
@given(rulesets, seeds, st.integers(min_value=0, max_value=150), st.data())
def test_any_action_is_either_legal_or_rejected_without_change(ruleset, seed, steps, data):
    """Every action outside legal_actions() raises IllegalActionError and leaves the state as it
    was; every legal one applies."""
    game = random_game(ruleset, seed, steps)
    for _ in range(10):
        action = data.draw(st.sampled_from(_UNIVERSE))
        legal = game.legal_actions()
        if action in legal:
            assert game.is_legal(action)
            game.apply(action)
        else:
            before = game.state_key()
            assert not game.is_legal(action)
            try:
                game.apply(action)
            except IllegalActionError:
                pass
            else:
                raise AssertionError(f"{action} was applied but is not in {legal}")
            assert game.state_key() == before
        if game.is_over:
            break
