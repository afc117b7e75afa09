"""Hidden worlds a seat could be in: who holds which unseen card, consistent with what it knows.

A :class:`Knowledge` is what one seat knows of the hands at a moment of play, as card indices: its
own hand, how many cards each other seat holds, the unseen cards (the others' hands plus cards out
of play: talon, other players' discards), and per seat the constraints the signs it received give
(:class:`Holding`). :func:`sample_hands` deals the unseen cards to the other seats at random,
respecting the constraints; the search bot plays each sampled world out with
:class:`trainer.rules.fastdeal.FastDeal`.

Signs as constraints (:func:`constraints_from_signs`): a truthful card sign means the signer held
the card; the aces sign with a count means exactly that many aces; misère means nothing stronger
than an ace and at most one ace; a partner known to sign every card up to a level (its signing
policy, :class:`trainer.bots.signing.SignPolicy`) who kept silent holds none of them. When lies are
allowed each sign is kept as a hard constraint only with the chance ``trust`` per sampled world,
which weights worlds by the sign's likelihood (a rejection-free mixture).

This is the project's one sampler of hidden worlds (the rules layer has none): the search bot and
the IS-MCTS bot deal their worlds here, and its tests (``tests/bots/test_bots_worlds.py``) hold the
properties a sampled world must have.

Imports trainer.rules, trainer.signals and the bots' base (for its error family) only.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from trainer.bots.base import BotError
from trainer.rules.cards import ACES, LEVEL
from trainer.signals.signs import Sign, Signal


class WorldError(BotError):
    """Knowledge from which no world can be dealt (fewer unseen cards than the hands need): the one
    error of the one world sampler."""


ACE_INDICES = frozenset(c.index for c in ACES)


@dataclass(frozen=True, slots=True)
class Holding:
    """What one seat is known to hold among the unseen cards: ``required`` cards it must hold,
    ``forbidden`` cards it cannot hold, ``aces`` the exact number of unseen aces it holds
    (None: unknown), and ``some``: sets it holds at least one card of."""

    required: frozenset[int] = frozenset()
    forbidden: frozenset[int] = frozenset()
    aces: int | None = None
    some: tuple[frozenset[int], ...] = ()
    """Sets of which the seat holds at least one card (a level told by a relative announcement)."""

    def merge(self, other: Holding) -> Holding:
        return Holding(
            self.required | other.required,
            self.forbidden | other.forbidden,
            other.aces if other.aces is not None else self.aces,
            self.some + other.some,
        )

    @property
    def empty(self) -> bool:
        return not self.required and not self.forbidden and self.aces is None and not self.some


@dataclass(frozen=True, slots=True)
class Knowledge:
    """One seat's knowledge of the hands (card indices)."""

    seat: int
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    """Cards each seat holds now (the seat's own included)."""
    unseen: frozenset[int]
    """Cards this seat has not seen: the other hands and the cards out of play."""
    holdings: tuple[tuple[int, Holding], ...] = ()
    """Hard constraints by seat, from the signs received."""
    soft: tuple[tuple[int, Holding], ...] = ()
    """Constraints kept each world with chance ``trust`` (lies allowed)."""
    trust: float = 1.0
    soft_trust: tuple[float, ...] = ()
    """Per soft constraint, the chance it is kept (a camera-read sign's own trust); constraints
    without one are kept with ``trust``."""

    @property
    def soft_chances(self) -> tuple[float, ...]:
        return tuple(self.soft_trust[i] if i < len(self.soft_trust) else self.trust for i in range(len(self.soft)))

    @property
    def players(self) -> int:
        return len(self.hand_sizes)


def _deal_one(
    pool: list[int], seats: Sequence[int], sizes: Sequence[int], holdings: dict[int, Holding],
    rng: random.Random,
) -> list[list[int]] | None:
    """One attempt: required cards first, one card of each "some" set next, exact ace counts next,
    then the rest, most constrained seats first. None when the constraints cannot be met this way."""
    hands: dict[int, list[int]] = {s: [] for s in seats}
    free = set(pool)
    if not (_place_required(hands, free, holdings)
            and _place_some(hands, free, holdings, rng)
            and _place_aces(hands, free, holdings, rng)):
        return None
    rest = sorted(free)
    rng.shuffle(rest)
    return _fill(hands, rest, seats, sizes, holdings)


# The steps of one attempt place cards from ``free`` into ``hands`` (seat -> cards, in seat order)
# and say whether they could.

def _constrained(
    hands: dict[int, list[int]], holdings: dict[int, Holding],
) -> Iterator[tuple[list[int], Holding]]:
    """Each hand whose seat has a constraint, with it, in seat order."""
    for s, hand in hands.items():
        h = holdings.get(s)
        if h is not None:
            yield hand, h


def _place_required(hands: dict[int, list[int]], free: set[int], holdings: dict[int, Holding]) -> bool:
    for hand, h in _constrained(hands, holdings):
        for c in h.required:
            if c not in free:
                return False
            free.discard(c)
            hand.append(c)
    return True


def _place_some(
    hands: dict[int, list[int]], free: set[int], holdings: dict[int, Holding], rng: random.Random,
) -> bool:
    for hand, h in _constrained(hands, holdings):
        for group in h.some:
            if any(c in group for c in hand):
                continue
            choices = sorted(c for c in group if c in free and c not in h.forbidden)
            if not choices:
                return False
            c = choices[int(rng.random() * len(choices))]
            free.discard(c)
            hand.append(c)
    return True


def _place_aces(
    hands: dict[int, list[int]], free: set[int], holdings: dict[int, Holding], rng: random.Random,
) -> bool:
    for hand, h in _constrained(hands, holdings):
        if h.aces is None:
            continue
        need = h.aces - sum(c in ACE_INDICES for c in hand)
        if need < 0:
            return False
        choices = [c for c in free if c in ACE_INDICES and c not in h.forbidden]
        if len(choices) < need:
            return False
        choices.sort()
        for c in rng.sample(choices, need):
            free.discard(c)
            hand.append(c)
    return True


def _fill(
    hands: dict[int, list[int]], rest: list[int], seats: Sequence[int], sizes: Sequence[int],
    holdings: dict[int, Holding],
) -> list[list[int]] | None:
    """Fill every hand to its size from ``rest`` (shuffled): the constrained seats first, most
    forbidden cards first, so a seat with many forbidden cards still finds cards."""
    order = sorted(seats, key=lambda s: -len(holdings[s].forbidden) if s in holdings else 0)
    for s in order:
        need = sizes[s] - len(hands[s])
        if need < 0:
            return None
        h = holdings.get(s)
        if h is None or (not h.forbidden and h.aces is None):
            continue
        banned = h.forbidden | (ACE_INDICES if h.aces is not None else frozenset())
        picked = [c for c in rest if c not in banned][:need]
        if len(picked) < need:
            return None
        chosen = set(picked)
        rest = [c for c in rest if c not in chosen]
        hands[s].extend(picked)
    for s in seats:
        h = holdings.get(s)
        if h is not None and (h.forbidden or h.aces is not None):
            continue
        need = sizes[s] - len(hands[s])
        if need < 0 or need > len(rest):
            return None
        hands[s].extend(rest[:need])
        rest = rest[need:]
    return [hands[s] for s in seats]


def sample_hands(knowledge: Knowledge, rng: random.Random, attempts: int = 20) -> list[list[int]]:
    """All seats' hands in one world consistent with ``knowledge`` (the seat's own hand as it is).

    Constraints that cannot all be met (a lie, or a sign about a card since discarded) are dropped,
    soft ones first, then the hard ones, rather than failing.
    """
    k = knowledge
    others = [s for s in range(k.players) if s != k.seat]
    pool = sorted(k.unseen)
    holdings: dict[int, Holding] = {}
    for s, h in k.holdings:
        holdings[s] = holdings[s].merge(h) if s in holdings else h
    soft = [(s, h, t) for (s, h), t in zip(k.soft, k.soft_chances, strict=False)]
    for layer in ("all", "hard", "none"):
        for _ in range(attempts if layer != "none" else 1):
            active = dict(holdings) if layer != "none" else {}
            if layer == "all":
                for s, h, t in soft:
                    if t >= 1.0 or rng.random() < t:
                        active[s] = active[s].merge(h) if s in active else h
            dealt = _deal_one(pool, others, k.hand_sizes, active, rng)
            if dealt is not None:
                hands: list[list[int]] = [[] for _ in range(k.players)]
                hands[k.seat] = list(k.hand)
                for s, hand in zip(others, dealt, strict=False):
                    hands[s] = hand
                return hands
            if layer == "all" and not soft:
                break
    raise WorldError(
        f"seat {k.seat} sees {len(pool)} unseen cards, too few for hands of "
        f"{[k.hand_sizes[s] for s in others]} cards: the knowledge is inconsistent (check the view)"
    )


# -- signs to constraints ----------------------------------------------------------------------

def holding_for_signal(signal: Signal, played_by_seat: Iterable[int], unseen: frozenset[int]) -> Holding:
    """What a truthful ``signal`` says about the signer's unseen cards, given the cards it has
    played since (they count as held)."""
    played = frozenset(played_by_seat)
    sign = signal.sign
    if sign is Sign.AS:
        aces_played = len(played & ACE_INDICES)
        return Holding(aces=max(0, signal.count - aces_played))
    if sign is Sign.MISERE:
        strong = frozenset(c for c in unseen if LEVEL[c] < 9)
        return Holding(forbidden=strong)
    if sign is Sign.MORDIENNE:
        return Holding()
    required = frozenset(c.index for c in sign.cards) - played
    return Holding(required=frozenset(c for c in required if c in unseen))


def silence_holding(signed: Iterable[Signal], max_level: int, unseen: frozenset[int]) -> Holding:
    """A partner who signs every card up to ``max_level`` and made only ``signed``: it holds none of
    the other unseen cards up to that level (aces: exactly the count it signed, or none)."""
    told: set[int] = set()
    ace_count: int | None = None
    for s in signed:
        if s.sign is Sign.AS:
            ace_count = s.count
        told.update(c.index for c in s.sign.cards)
    forbidden = frozenset(
        c for c in unseen if LEVEL[c] <= max_level and c not in told and c not in ACE_INDICES
    )
    aces = None
    if max_level >= 9 and ace_count is None:
        aces = 0
    return Holding(forbidden=forbidden, aces=aces)
