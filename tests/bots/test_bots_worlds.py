"""The one world sampler (trainer.bots.worlds.sample_hands): sampled worlds agree with the view and
respect what the seat knows, including the signs it received; impossible knowledge is refused.
(The properties of the rules layer's former sampler, views.sample_world, moved here with it.)"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.bots.base import BotError
from trainer.bots.knowledge import knowledge_of, public_play
from trainer.bots.signing import SignPolicy
from trainer.bots.table import Table
from trainer.bots.worlds import ACE_INDICES, Holding, Knowledge, WorldError, sample_hands
from trainer.rules.actions import Phase
from trainer.rules.cards import ACES, CARDS, Card
from trainer.rules.fastdeal import FastDeal
from trainer.rules.game import Game
from trainer.rules.ruleset import PRESETS, Players, Ruleset
from trainer.signals.signs import Sign, Signal
from trainer.signals.table import Vigilance

RULES = Ruleset.preset("vendee", chant_allowed=False)


def _table_with_signs(seed: int, lying: bool = False) -> Table:
    """A table of people (so nothing acts by itself) at a sharp-eyed table; seat 2 (partner of 0)
    and seat 1 (opponent) sign all their honest signs."""
    table = Table([None] * 4, ruleset=RULES, seed=seed, vigilance=Vigilance(1.0), lying_allowed=lying)
    from trainer.signals.table import honest_signals

    for seat in (1, 2):
        for signal in honest_signals(table.game.hand(seat)):
            table.submit_sign(seat, table.made(signal))
    return table


@dataclass(frozen=True)
class HoldConstraint:
    """``seat`` holds between ``at_least`` and ``at_most`` of ``cards``: a check written apart from
    the sampler's Holding, so the tests do not check the sampler with its own reading of a sign."""

    seat: int
    cards: frozenset
    at_least: int = 1
    at_most: int | None = None

    def satisfied_by(self, hand) -> bool:
        count = sum(1 for c in hand if c in self.cards)
        return count >= self.at_least and (self.at_most is None or count <= self.at_most)


def _constraints_of(table: Table, seat: int) -> list[HoldConstraint]:
    """What the signs ``seat`` received say, as hold constraints (truthful table)."""
    out = []
    for event in table.signs.events:
        if event.seat == seat or seat not in event.seen_by:
            continue
        sign = event.signal.sign
        if sign is Sign.AS:
            out.append(HoldConstraint(event.seat, frozenset(ACES), event.signal.count, event.signal.count))
        elif sign.cards:
            for card in sign.cards:
                out.append(HoldConstraint(event.seat, frozenset({card}), 1, 1))
    return out


@pytest.mark.parametrize("seed", range(8))
def test_sampled_worlds_respect_received_signs(seed: int) -> None:
    table = _table_with_signs(seed)
    view = table.view(0)
    knowledge = knowledge_of(view)
    constraints = _constraints_of(table, 0)
    assert constraints, "the built table must give seat 0 some signs"
    rng = random.Random(seed)
    for _ in range(100):
        hands = sample_hands(knowledge, rng)
        cards = [tuple(CARDS[i] for i in h) for h in hands]
        assert set(cards[0]) == set(view.hand)
        assert [len(h) for h in cards] == list(view.hand_sizes)
        assert len({c for h in cards for c in h}) == sum(view.hand_sizes)
        assert not {c for h in cards[1:] for c in h} & set(view.hand)
        for c in constraints:
            assert c.satisfied_by(cards[c.seat]), (c, cards[c.seat])


def test_partner_silence_under_a_known_policy_is_respected() -> None:
    table = _table_with_signs(3)
    game: Game = table.game
    while game.phase is Phase.DECLARE:
        game.apply(game.legal_actions()[0])
    view = table.view(0)
    policy = SignPolicy(max_level=9)
    knowledge = knowledge_of(view, partner_policy=policy)
    signed_cards = {c for e in table.signs.events if e.seat == 2 for c in e.signal.sign.cards}
    signed_aces = [e.signal.count for e in table.signs.events if e.seat == 2 and e.signal.sign is Sign.AS]
    rng = random.Random(0)
    for _ in range(100):
        partner = [CARDS[i] for i in sample_hands(knowledge, rng)[2]]
        strong = {c for c in partner if c.level <= 8}
        assert strong <= signed_cards
        assert sum(c in ACES for c in partner) == (signed_aces[0] if signed_aces else 0)


def test_with_lies_signs_are_likelihoods_not_certainties() -> None:
    # One constraint: seat 1 holds Monsieur. Kept in about `trust` of the worlds; elsewhere Monsieur
    # falls where chance puts it (seat 1 holds 9 of the 38 unseen cards).
    mine = tuple(range(38, 47))
    unseen = frozenset(range(48)) - set(mine)
    soft = ((1, Holding(required=frozenset({Card.MONSIEUR.index}))),)
    knowledge = Knowledge(0, mine, (9, 9, 9, 9), unseen, soft=soft, trust=0.6)
    rng = random.Random(5)
    n = 3000
    held = sum(Card.MONSIEUR.index in sample_hands(knowledge, rng)[1] for _ in range(n)) / n
    expected = 0.6 + 0.4 * 9 / 39
    assert abs(held - expected) < 0.04
    strict = Knowledge(0, mine, (9, 9, 9, 9), unseen, holdings=soft)
    assert all(Card.MONSIEUR.index in sample_hands(strict, rng)[1] for _ in range(200))


def test_contradictory_signs_fall_back_to_an_unconstrained_world() -> None:
    # A lie caught by the play: two seats "hold" the same card. The sampler still deals a world.
    mine = tuple(range(38, 47))
    unseen = frozenset(range(48)) - set(mine)
    both = ((1, Holding(required=frozenset({0}))), (2, Holding(required=frozenset({0}))))
    hands = sample_hands(Knowledge(0, mine, (9, 9, 9, 9), unseen, holdings=both), random.Random(1))
    assert sorted(len(h) for h in hands) == [9, 9, 9, 9]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 4), st.booleans())
def test_exact_ace_counts_and_forbidden_cards_hold(seed: int, aces: int, misere: bool) -> None:
    rng = random.Random(seed)
    deck = list(range(48))
    rng.shuffle(deck)
    mine = tuple(c for c in deck[:9] if c not in ACE_INDICES)[:9]
    unseen = frozenset(range(48)) - set(mine)
    aces = min(aces, 4)
    forbidden = frozenset(c for c in unseen if c < 8) if misere else frozenset()
    holding = Holding(forbidden=forbidden, aces=aces)
    sizes = (len(mine), 9, 9, 9)
    hands = sample_hands(Knowledge(0, mine, sizes, unseen, holdings=((3, holding),)), rng)
    assert sum(c in ACE_INDICES for c in hands[3]) == aces
    assert not set(hands[3]) & forbidden


def test_relative_announcements_become_constraints() -> None:
    from trainer.signals.relative import parse

    # Seat 2 shows one ace and says "en dessous" (a king) and "au-dessus de là-dessus" (Deux de chêne).
    table = Table([None] * 4, ruleset=RULES, seed=0, vigilance=Vigilance(0.0), lying_allowed=True)
    table.submit_sign(2, table.made(Signal(Sign.AS, 1)), announcements=parse("en dessous, au-dessus de là-dessus"))
    knowledge = knowledge_of(table.view(0))
    kings = {c for c in CARDS if c.level == 10}
    assert Card.DEUX_DE_CHENE not in table.game.hand(0) and not kings <= set(table.game.hand(0))
    rng = random.Random(2)
    for _ in range(200):
        partner = {CARDS[i] for i in sample_hands(knowledge, rng)[2]}
        assert Card.DEUX_DE_CHENE in partner
        assert partner & (kings - set(table.game.hand(0)))
        assert sum(c in ACES for c in partner) == 1


# -- a world agrees with the view (moved from the rules' former sampler) ---------------------------

def _random_game(ruleset: Ruleset, seed: int, steps: int) -> Game:
    game = Game.new(ruleset, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    return game


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(sorted(PRESETS)), st.sampled_from(list(Players)), st.integers(0, 10**9),
    st.integers(0, 200), st.data(),
)
def test_sampled_world_agrees_with_the_view(preset, players, seed, steps, data):
    """Every card once: the seat's own hand as it is, the other hands at their sizes from the cards
    it has not seen, a constraint the true hand meets met, and a world that plays out to the end."""
    ruleset = Ruleset.preset(preset, players=players)
    game = _random_game(ruleset, seed, steps)
    if game.is_over:
        return
    seat = data.draw(st.integers(0, ruleset.player_count - 1))
    view = game.view(seat)
    knowledge = knowledge_of(view)
    other = (seat + 1) % ruleset.player_count
    true_hand = {c.index for c in game.hand(other)}
    # A constraint the true hand meets, so a world must exist: some of its cards, none of some others.
    required = (frozenset(data.draw(st.sets(st.sampled_from(sorted(true_hand)), max_size=3))) if true_hand
                else frozenset())
    outside = sorted(knowledge.unseen - true_hand)
    forbidden = frozenset(data.draw(st.sets(st.sampled_from(outside), max_size=5))) if outside else frozenset()
    knowledge = Knowledge(
        knowledge.seat, knowledge.hand, knowledge.hand_sizes, knowledge.unseen,
        holdings=((other, Holding(required=required, forbidden=forbidden)),),
    )
    hands = sample_hands(knowledge, random.Random(seed))
    assert sorted(hands[seat]) == sorted(c.index for c in view.hand)
    assert [len(h) for h in hands] == list(view.hand_sizes)
    dealt = [c for s, h in enumerate(hands) if s != seat for c in h]
    assert len(set(dealt)) == len(dealt) and set(dealt) <= knowledge.unseen
    hidden = knowledge.unseen - set(dealt)
    everything = [c for h in hands for c in h] + sorted(hidden)
    everything += [c.index for c in view.played] + [c.index for c in view.discards]
    assert sorted(everything) == list(range(48))
    assert required <= set(hands[other]) and not forbidden & set(hands[other])
    if view.phase is Phase.PLAY:
        public = public_play(view)
        deal = FastDeal.resume(
            hands, public.leader, public.trick, public.tricks, spoiler_leads=public.spoiler_leads,
            pourri_breaks_run=public.pourri_breaks_run, total_tricks=public.total_tricks,
        )
        while not deal.finished:
            deal.apply(deal.legal_actions()[0])
        assert len(deal.winners) == ruleset.tricks_per_deal


def test_a_constraint_against_the_viewers_own_hand_is_dropped_not_obeyed():
    """A sign saying another seat holds one of the viewer's own cards (a lie) cannot be met: the
    world is dealt without it, never with a card twice."""
    game = Game.new(Ruleset(), 1)
    view = game.view(0)
    knowledge = knowledge_of(view)
    mine = frozenset(c.index for c in view.hand[:1])
    lie = Knowledge(0, knowledge.hand, knowledge.hand_sizes, knowledge.unseen, holdings=((1, Holding(required=mine)),))
    hands = sample_hands(lie, random.Random(0))
    assert not mine & set(hands[1])
    assert sorted(c for h in hands for c in h) == sorted(set(c for h in hands for c in h))


def test_knowledge_with_too_few_unseen_cards_raises_the_one_world_error():
    mine = tuple(range(9))
    knowledge = Knowledge(0, mine, (9, 9, 9, 9), frozenset(range(9, 30)))
    with pytest.raises(WorldError, match="seat 0 sees 21 unseen cards, too few") as caught:
        sample_hands(knowledge, random.Random(0))
    assert isinstance(caught.value, BotError) and isinstance(caught.value, ValueError)
