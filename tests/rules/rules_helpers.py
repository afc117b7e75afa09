"""Test helpers for the rules tests: build deals from short card lists, drive games to a phase."""

from __future__ import annotations

import random

from trainer.rules.actions import Phase, Vote
from trainer.rules.cards import CARDS, Card
from trainer.rules.game import Game
from trainer.rules.ruleset import Ruleset


def cards(text: str) -> tuple[Card, ...]:
    return Card.parse_many(text.split())


def fill_hands(partial: list[str], players: int = 4, hand_size: int = 9) -> tuple[tuple[Card, ...], ...]:
    """Hands whose first cards are given (codes per seat, in play order); the rest are filled with
    the weakest unused cards, so the tests control the tricks they name."""
    given = [list(cards(p)) for p in partial]
    used = {c for hand in given for c in hand}
    spare = [c for c in reversed(CARDS) if c not in used]
    hands = []
    for hand in given:
        while len(hand) < hand_size:
            hand.append(spare.pop(0))
        hands.append(tuple(hand))
    return tuple(hands)


def game_at_play(ruleset: Ruleset, dealer: int, hands, *, seed: int = 0) -> Game:
    """A game whose first deal is ``hands``, past the chant vote and declarations, at trick 1."""
    game = Game.from_deal(ruleset, dealer, hands, seed=seed)
    while game.phase is not Phase.PLAY:
        if game.phase is Phase.CHANT_VOTE:
            game.apply(Vote(False))
        else:
            game.apply(game.legal_actions()[0])  # PASS comes first among declarations
    return game


def random_game(ruleset: Ruleset, seed: int, steps: int | None = None) -> Game:
    """A game played with uniformly random legal actions (all of it, or ``steps`` actions)."""
    game = Game.new(ruleset, seed)
    rng = random.Random(seed)
    done = 0
    while not game.is_over and (steps is None or done < steps):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
        done += 1
    return game


# -- golden playthroughs -----------------------------------------------------------------------------

GOLDEN_GAMES = {
    # name: (preset, players, seed, how many deals to play (None: the whole game))
    "vendee_seed7": ("vendee", 4, 7, None),
    "pagat_seed3": ("pagat", 4, 3, None),
    "english_three_players_seed5": ("english", 3, 5, 2),
    "vendee_six_players_seed2": ("vendee", 6, 2, 1),
}


def golden_game(name: str) -> Game:
    """Rebuild a golden game: random legal actions from ``random.Random(seed)``, votes for the chant
    preferred (so chant, discards and signals appear), a signal recorded before each deal's first
    trick."""
    from trainer.rules.actions import Declare
    from trainer.rules.ruleset import Players

    preset, players, seed, deals = GOLDEN_GAMES[name]
    game = Game.new(Ruleset.preset(preset, players=Players(players)), seed)
    rng = random.Random(seed)
    refused = False
    while not game.is_over and (deals is None or len(game.results) < deals):
        legal = game.legal_actions()
        if game.phase is Phase.CHANT_VOTE:
            action = Vote(rng.random() < 0.85)
        elif game.phase is Phase.DECLARE:
            # Mostly pass, sometimes announce or give up, so every branch shows up.
            action = legal[0] if rng.random() < 0.8 else legal[rng.randrange(len(legal))]
            assert isinstance(action, Declare)
        elif game.phase is Phase.ANSWER and not refused:
            action = legal[-1]  # the first answer refuses, so that branch shows up too
            refused = True
        else:
            action = legal[rng.randrange(len(legal))]
        if game.phase is Phase.PLAY and not game.tricks and not game.current_trick:
            partner = game.ruleset.partners(game.to_move)
            game.record_signal(game.to_move, "AS x1", partner)
        game.apply(action)
    return game


# -- deals with chosen trick winners -----------------------------------------------------------------


def plan_for_winners(winners: list[int], players: int = 4) -> tuple[tuple[Card, ...], ...]:
    """Cards per seat, in trick order, so that trick ``t`` is won by seat ``winners[t]`` or spoiled
    (``-1``) whoever leads it: a winner plays the strongest card left, the others the weakest; in a
    spoiled trick seats 0 and 1 play two equal cards stronger than the rest. Feed it to
    :func:`play_plan`; the hands for :meth:`Game.from_deal` are the plans themselves."""
    from trainer.rules.cards import STRENGTH

    left = sorted(CARDS, key=lambda c: -STRENGTH[c.index])  # strongest first
    plan: list[list[Card]] = [[] for _ in range(players)]
    for winner in winners:
        if winner >= 0:
            top = left.pop(0)
            plan[winner].append(top)
            for seat in range(players):
                if seat != winner:
                    low = left.pop()
                    assert STRENGTH[low.index] < STRENGTH[top.index]
                    plan[seat].append(low)
        else:
            # The strongest level with two cards left: both spoil the trick, the rest is weaker.
            pair = next(
                (a, b) for a, b in zip(left, left[1:], strict=False) if STRENGTH[a.index] == STRENGTH[b.index]
            )
            for card in pair:
                left.remove(card)
            plan[0].append(pair[0])
            plan[1].append(pair[1])
            for seat in range(2, players):
                low = left.pop()
                assert STRENGTH[low.index] < STRENGTH[pair[0].index]
                plan[seat].append(low)
    return tuple(tuple(p) for p in plan)


def play_plan(game: Game, plan) -> None:
    """Play the current deal of ``game`` trick by trick: each seat plays its card of that trick."""
    deal = game.deal_number
    while game.deal_number == deal and not game.is_over and game.phase is Phase.PLAY:
        seat = game.to_move
        game.apply(plan[seat][len(game.tricks)])
