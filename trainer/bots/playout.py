"""Playouts: finish a deal fast from a sampled world, and Perfect-Information Monte Carlo on top.

The search bot deals the unseen cards at random (:func:`trainer.bots.worlds.sample_hands`), resumes
the deal on :class:`trainer.rules.fastdeal.FastDeal` and plays it to the end with a rollout policy:
:func:`greedy_card` (a cheap version of the tactics: low when the partner wins, the cheapest card that
beats when last, spoil when last and unable to beat) or :func:`random_card`. :func:`pimc_values`
averages, for each legal card, the points the seat's team makes over many sampled worlds.

Imports trainer.rules and the bots' own modules only.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from trainer.bots.worlds import Knowledge, sample_hands
from trainer.rules.cards import STRENGTH
from trainer.rules.fastdeal import FastDeal

Policy = Callable[[FastDeal, random.Random], int]


def random_card(deal: FastDeal, rng: random.Random) -> int:
    hand = deal.hands[deal.to_move]
    return hand[int(rng.random() * len(hand))]


def greedy_card(deal: FastDeal, rng: random.Random, _s: tuple[int, ...] = STRENGTH) -> int:
    """A fast rollout policy. Card indices run strongest first, so ``max(hand)`` is the lowest card."""
    seat = deal.to_move
    hand = deal.hands[seat]
    trick = deal.trick
    if not trick:
        return hand[int(rng.random() * len(hand))]
    n = deal.players
    # The trick so far: its highest strength, who holds it, whether it is tied (spoiled so far).
    best = -1
    best_pos = 0
    tied = False
    for i, c in enumerate(trick):
        v = _s[c]
        if v > best:
            best, best_pos, tied = v, i, False
        elif v == best:
            tied = True
    best_seat = (deal.leader + best_pos) % n
    half = n // 2 if n != 3 else n
    if not tied and (best_seat - seat) % half == 0:
        # The partner is winning: play low, but never a card equal to theirs (it would spoil).
        low = max(hand)
        if _s[low] == best:
            others = [c for c in hand if _s[c] != best]
            if others:
                return max(others)
        return low
    last = len(trick) == n - 1
    cheapest = -1
    for c in hand:
        if _s[c] > best and c > cheapest:
            cheapest = c
    if cheapest >= 0:
        return cheapest if last else min(hand)
    if last and not tied:
        for c in hand:
            if _s[c] == best:
                return c
    return max(hand)


POLICIES: dict[str, Policy] = {"greedy": greedy_card, "random": random_card}


def play_out(deal: FastDeal, policy: Policy, rng: random.Random) -> None:
    """Play ``deal`` to its end in place."""
    apply = deal.apply
    while deal.to_move >= 0:
        apply(policy(deal, rng))


@dataclass(frozen=True, slots=True)
class PublicPlay:
    """The public state of the trick-play: the current trick and the finished ones, as card indices,
    plus the rule flags the playout needs."""

    leader: int
    trick: tuple[int, ...]
    tricks: tuple[tuple[int, tuple[int, ...], int], ...]
    total_tricks: int
    spoiler_leads: bool = False
    pourri_breaks_run: bool = True
    points_scale: int = 1
    """Points of a plain deal (2 after an accepted announced mordienne in some presets)."""

    def resume(self, hands: Sequence[Sequence[int]]) -> FastDeal:
        """The deal at this point of play with ``hands`` (a sampled world), for playouts."""
        return FastDeal.resume(
            hands, self.leader, self.trick, self.tricks, spoiler_leads=self.spoiler_leads,
            pourri_breaks_run=self.pourri_breaks_run, total_tricks=self.total_tricks,
        )


def team_value(deal: FastDeal, team_of: Callable[[int], int], team: int, scale: int = 1) -> float:
    """Points for ``team`` minus points for the others, once ``deal`` is over."""
    winner = deal.deal_winner()
    if winner < 0:
        return 0.0
    points = deal.points() * scale
    return float(points if team_of(winner) == team else -points)


@dataclass(frozen=True, slots=True)
class SearchResult:
    values: dict[int, float]
    """Mean team value per legal card (index)."""
    worlds: int
    playouts: int


def pimc_values(
    knowledge: Knowledge,
    public: PublicPlay,
    legal: Sequence[int],
    team_of: Callable[[int], int],
    rng: random.Random,
    *,
    worlds: int = 60,
    max_seconds: float | None = 0.08,
    policy: Policy = greedy_card,
    clock: Callable[[], float] = time.perf_counter,
) -> SearchResult:
    """Sample up to ``worlds`` hidden worlds (fewer if ``max_seconds`` runs out, never fewer than
    one) and play each legal card out in every world; return the mean team value of each card."""
    seat = knowledge.seat
    team = team_of(seat)
    totals = {c: 0.0 for c in legal}
    start = clock()
    done = 0
    for _ in range(worlds):
        hands = sample_hands(knowledge, rng)
        base = public.resume(hands)
        for card in legal:
            deal = base.copy()
            deal.apply(card)
            play_out(deal, policy, rng)
            totals[card] += team_value(deal, team_of, team, public.points_scale)
        done += 1
        if max_seconds is not None and clock() - start > max_seconds:
            break
    return SearchResult({c: v / done for c, v in totals.items()}, done, done * len(legal))
