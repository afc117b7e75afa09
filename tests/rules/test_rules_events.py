"""Game.apply's events (trainer.rules.events) agree with the state the action left, on random
games of every preset and table size, and tell every step of a game exactly once."""

from __future__ import annotations

import random

import pytest

from tests.rules.rules_helpers import fill_hands
from trainer.rules.actions import (
    ACCEPT,
    ANNOUNCE_MORDIENNE,
    GIVE_UP,
    PASS,
    REFUSE,
    Declaration,
    Phase,
    Vote,
)
from trainer.rules.cards import Card
from trainer.rules.errors import RulesError
from trainer.rules.events import (
    Answered,
    CardDiscarded,
    CardPlayed,
    CardsDealt,
    ChantDealt,
    ChantDecided,
    ChantVoted,
    DealerChosen,
    DealScored,
    Declared,
    GameOver,
    TrickEnded,
    narrate,
)
from trainer.rules.game import DealEnd, Game
from trainer.rules.ruleset import AnnouncedMordienne, GivingUp, Players, Ruleset

TABLES = [("vendee", 4), ("pagat", 4), ("english", 4), ("english", 3), ("vendee", 6)]


def _checked_random_game(ruleset: Ruleset, seed: int) -> tuple[Game, list]:
    """Play a random game, checking each action's events against the state before and after."""
    game = Game.new(ruleset, seed, auto_chance=False)
    rng = random.Random(seed)
    every = []
    while not game.is_over:
        legal = game.legal_actions()
        action = legal[rng.randrange(len(legal))]
        seat, phase, results = game.to_move, game.phase, len(game.results)
        tricks_before = len(game.tricks)
        discards_before = game.discard_counts[seat] if seat is not None else 0
        events = game.apply(action)
        assert isinstance(events, tuple) and events, (phase, action)
        first = events[0]
        if phase is Phase.PLAY:
            assert first == CardPlayed(seat, action, tricks_before + 1)
            finished = game.results[-1].tricks if len(game.results) > results else game.tricks
            closed = [e for e in events if isinstance(e, TrickEnded)]
            if len(finished) > tricks_before:
                assert closed == [TrickEnded(finished[-1])]
                assert closed[0].winner == finished[-1].winner
                assert closed[0].spoiled == finished[-1].spoiled
            else:
                assert closed == []
        elif phase is Phase.CHOOSE_DEALER:
            assert first == DealerChosen(game.dealer, action.face_up)
        elif phase is Phase.DEAL:
            assert first == CardsDealt(game.deal_number, game.dealer, action.hands)
        elif phase is Phase.CHANT_VOTE:
            assert first == ChantVoted(seat, action.agree)
            decided = [e for e in events if isinstance(e, ChantDecided)]
            if game.chant is None:
                assert decided == []
            else:
                assert decided == [ChantDecided(game.chant, game.chant_receivers if game.chant else ())]
        elif phase is Phase.CHANT_DEAL:
            assert first == ChantDealt(game.chant_receivers, action.received)
        elif phase is Phase.DISCARD:
            assert first == CardDiscarded(seat, action.card, discards_before + 1)
        elif phase is Phase.DECLARE:
            assert first == Declared(seat, action.declaration)
        elif phase is Phase.ANSWER:
            assert isinstance(first, Answered) and first.seat == seat and first.accept == action.accept
            assert ((first.declared_by, first.declaration) in game.declarations
                    or game.results[-1].declared_by == first.declared_by)
        scored = [e for e in events if isinstance(e, DealScored)]
        assert len(scored) == len(game.results) - results
        if scored:
            assert scored[0].result is game.results[-1]
            assert scored[0].scores == tuple(game.scores)
            assert scored[0].deals_played == game.deals_played
            assert scored[0].target == game.target
        over = [e for e in events if isinstance(e, GameOver)]
        assert over == ([GameOver(game.outcome)] if game.is_over else [])
        every.extend(events)
    return game, every


@pytest.mark.parametrize("preset,players", TABLES)
@pytest.mark.parametrize("seed", [1, 2])
def test_events_agree_with_the_state(preset, players, seed):
    ruleset = Ruleset.preset(preset, players=Players(players))
    game, events = _checked_random_game(ruleset, seed)
    # Each card played once, each trick and deal told once, the game's end once.
    plays = [e for e in events if isinstance(e, CardPlayed)]
    assert [e.card for e in plays] == [a for a in game.history if isinstance(a, Card)]
    tricks = [e.trick for e in events if isinstance(e, TrickEnded)]
    assert tricks == [t for r in game.results for t in r.tricks]
    assert [e.result for e in events if isinstance(e, DealScored)] == game.results
    assert sum(isinstance(e, GameOver) for e in events) == 1


@pytest.mark.parametrize("preset,players", [("vendee", 4), ("english", 3)])
def test_auto_chance_returns_the_chance_steps_events_too(preset, players):
    """With auto_chance the events of the chance steps resolved after an action come with it, so
    the concatenated events of a game equal those of the same game replayed step by step."""
    ruleset = Ruleset.preset(preset, players=Players(players))
    game = Game.new(ruleset, 4)
    rng = random.Random(4)
    told = []
    while not game.is_over:
        legal = game.legal_actions()
        told.extend(game.apply(legal[rng.randrange(len(legal))]))
    shadow = Game(ruleset, 4, auto_chance=False)
    replayed = [e for a in game.history for e in shadow.apply(a)]
    # Game.new resolved the first dealer and the first deal before anyone could be told.
    assert isinstance(replayed[0], DealerChosen) and isinstance(replayed[1], CardsDealt)
    assert told == replayed[2:]
    assert game.events() == tuple(replayed)
    assert sum(isinstance(e, CardsDealt) for e in told) == len(game.results) - 1


def _vendee_at_declare(**options) -> Game:
    ruleset = Ruleset.preset("vendee", **options)
    game = Game.from_deal(ruleset, 0, fill_hands(["", "", "", ""]), seed=1)
    game.apply(Vote(False))
    assert game.phase is Phase.DECLARE
    return game


def test_declarations_and_answers_are_told():
    game = _vendee_at_declare(giving_up=GivingUp.ACCEPT_OR_REFUSE)
    assert game.apply(GIVE_UP) == (Declared(1, Declaration.GIVE_UP),)
    events = game.apply(ACCEPT)
    assert events[0] == Answered(2, True, 1, Declaration.GIVE_UP)
    assert isinstance(events[1], DealScored) and events[1].result.end is DealEnd.GIVEN_UP
    assert events[1].result.points == (1, 0)
    # The next deal is dealt by chance at once and told with the answer.
    assert isinstance(events[2], CardsDealt) and events[2].deal == 2

    game = _vendee_at_declare(giving_up=GivingUp.ACCEPT_OR_REFUSE)
    game.apply(GIVE_UP)
    assert game.apply(REFUSE) == (Answered(2, False, 1, Declaration.GIVE_UP),)


def test_declined_mordienne_is_told_as_answered_then_scored():
    game = _vendee_at_declare(announced_mordienne=AnnouncedMordienne.ACCEPT_OR_DECLINE)
    game.apply(PASS)
    assert game.apply(ANNOUNCE_MORDIENNE) == (Declared(2, Declaration.MORDIENNE),)
    events = game.apply(REFUSE)
    assert events[0] == Answered(3, False, 2, Declaration.MORDIENNE)
    assert events[1].result.end is DealEnd.MORDIENNE_DECLINED and events[1].result.points == (1, 0)


def test_illegal_action_returns_nothing_and_changes_nothing():
    game = _vendee_at_declare()
    before = game.copy()
    with pytest.raises(RulesError):
        game.apply(Vote(True))
    assert game == before


class _Counting:
    """Phrases that name each event kind, to check narrate dispatches every kind once."""

    def __getattr__(self, name):
        return lambda event: [name]


def test_narrate_dispatches_every_event_kind_and_refuses_others():
    game, events = _checked_random_game(Ruleset.preset("vendee"), 3)
    lines = narrate(events, _Counting())
    assert len(lines) == len(events)
    assert lines[0] == "dealer_chosen" and lines[-1] == "game_over"
    assert lines.count("card_played") == sum(isinstance(e, CardPlayed) for e in events)
    with pytest.raises(RulesError, match="not an Aluette event"):
        narrate(["play 3D"], _Counting())
