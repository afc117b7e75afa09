"""What one seat may know, and hidden worlds sampled consistently with it (for bots).

Standard library only. A :class:`PlayerView` is computed from a game by :func:`view_of` (call
``game.view(seat)``); it holds only what the seat can see: its hand, its own discards, the chant
cards it received, every played card and trick (spoiled tricks are public), tricks won per seat,
scores, declarations, and the signal records that reached the seat. Bots decide from views only.

:func:`sample_world` deals the cards the seat cannot see to the other hands (and the hidden pile:
the unseen talon or other players' discards), matching every hand size and optional
:class:`HoldConstraint` s (e.g. "seat 2 holds at least one of the aces", from a received sign).
:func:`playout_deal` turns a view plus a world into a :class:`~trainer.rules.fastdeal.FastDeal`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

from trainer.rules.actions import Action, Declaration, Phase
from trainer.rules.cards import CARDS, Card
from trainer.rules.errors import RulesError
from trainer.rules.fastdeal import FastDeal
from trainer.rules.ruleset import LeadAfterPourri, Ruleset

if TYPE_CHECKING:
    from trainer.rules.game import DealResult, Game, SignalRecord, TrickRecord


class WorldError(RulesError):
    """No hidden world fits the view and the hold constraints (they contradict each other)."""


@dataclass(frozen=True, slots=True)
class HoldConstraint:
    """``seat``'s current hidden hand holds between ``at_least`` and ``at_most`` of ``cards``.
    ``at_most=None`` means no upper bound."""

    seat: int
    cards: frozenset[Card]
    at_least: int = 1
    at_most: int | None = None

    def satisfied_by(self, hand: Iterable[Card]) -> bool:
        count = sum(1 for c in hand if c in self.cards)
        return count >= self.at_least and (self.at_most is None or count <= self.at_most)


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Everything ``seat`` may know at one moment of a game (never another seat's hidden cards)."""

    seat: int
    ruleset: Ruleset
    phase: Phase
    to_move: int | None
    legal_actions: tuple[Action, ...]
    """The seat's legal actions if it is to move, else empty."""
    dealer: int | None
    deal_number: int
    hand: tuple[Card, ...]
    """Strongest first."""
    discards: tuple[Card, ...]
    """This seat's own chant discards (face down for the others)."""
    received: tuple[Card, ...]
    """The talon cards this seat received in a chant."""
    chant: bool | None
    chant_receivers: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    discard_counts: tuple[int, ...]
    tricks: tuple["TrickRecord", ...]
    """Finished tricks of this deal (spoiled ones have winner None: their cards are public)."""
    trick_leader: int | None
    current_trick: tuple[Card, ...]
    tricks_won: tuple[int, ...]
    scores: tuple[int, ...]
    target: int | None
    deals_played: int
    declarations: tuple[tuple[int, Declaration], ...]
    answers: tuple[tuple[int, bool], ...]
    signals: tuple["SignalRecord", ...]
    """Signal records sent by this seat or that reached it."""
    results: tuple["DealResult", ...]

    @property
    def players(self) -> int:
        return self.ruleset.player_count

    @property
    def played(self) -> tuple[Card, ...]:
        """Every card played in this deal, in play order (finished tricks, then the current one)."""
        return tuple(c for t in self.tricks for c in t.cards) + self.current_trick

    @property
    def spoiled_cards(self) -> tuple[Card, ...]:
        return tuple(c for t in self.tricks if t.winner is None for c in t.cards)

    def unseen(self) -> frozenset[Card]:
        """Cards this seat has not seen: in other hands, others' discards, or the unseen talon."""
        seen = set(self.hand) | set(self.discards) | set(self.played)
        return frozenset(c for c in CARDS if c not in seen)


def view_of(game: "Game", seat: int) -> PlayerView:
    """The view of ``seat`` in ``game`` (``game.view(seat)`` calls this)."""
    hand = game.hand(seat)  # checks the seat
    to_move = game.to_move
    return PlayerView(
        seat=seat,
        ruleset=game.ruleset,
        phase=game.phase,
        to_move=to_move,
        legal_actions=game.legal_actions() if to_move == seat else (),
        dealer=game.dealer,
        deal_number=game.deal_number,
        hand=hand,
        discards=game.discards(seat),
        received=game.received(seat),
        chant=game.chant,
        chant_receivers=game.chant_receivers,
        hand_sizes=game.hand_sizes,
        discard_counts=game.discard_counts,
        tricks=game.tricks,
        trick_leader=game.leader,
        current_trick=game.current_trick,
        tricks_won=game.tricks_won,
        scores=tuple(game.scores),
        target=game.target,
        deals_played=game.deals_played,
        declarations=game.declarations,
        answers=game.answers,
        signals=tuple(r for r in game.signals if r.seat == seat or seat in r.reached),
        results=tuple(game.results),
    )


@dataclass(frozen=True, slots=True)
class World:
    """A full assignment of the hidden cards: ``hands[seat]`` for every seat (the viewer's own hand
    as it is), and ``hidden`` the cards nobody holds (unseen talon, other players' discards)."""

    hands: tuple[tuple[Card, ...], ...]
    hidden: tuple[Card, ...]


def sample_world(
    view: PlayerView,
    rng: random.Random,
    constraints: Iterable[HoldConstraint] = (),
    *,
    attempts: int = 2000,
) -> World:
    """A random world consistent with ``view``: the other seats get hands of their current sizes
    from the cards the seat has not seen, respecting ``constraints`` (on the current hidden hands).

    Without constraints the world is uniform among the consistent ones. With constraints, lower
    bounds are met first with random cards of their sets and upper bounds by skipping cards, then
    the result is checked; this is close to uniform, not exactly. Raises :class:`WorldError` if no
    world is found in ``attempts`` tries (the constraints contradict each other or the view);
    constraints on the viewer's own seat must hold for its hand.
    """
    n = view.players
    me = view.seat
    rules: list[tuple[int, frozenset[int], int, int | None, HoldConstraint]] = []
    for c in constraints:
        if not isinstance(c, HoldConstraint) or not 0 <= c.seat < n:
            raise WorldError(f"bad hold constraint {c!r}: use HoldConstraint(seat 0..{n - 1}, cards, ...)")
        if c.seat == me:
            if not c.satisfied_by(view.hand):
                raise WorldError(f"{c} contradicts the viewer's own hand")
            continue
        if c.at_least > view.hand_sizes[c.seat]:
            raise WorldError(f"{c} needs more cards than seat {c.seat} holds ({view.hand_sizes[c.seat]})")
        rules.append((c.seat, frozenset(card.index for card in c.cards), c.at_least, c.at_most, c))
    seen = {c.index for c in view.hand}
    seen.update(c.index for c in view.discards)
    seen.update(c.index for t in view.tricks for c in t.cards)
    seen.update(c.index for c in view.current_trick)
    pool = [i for i in range(48) if i not in seen]
    sizes = view.hand_sizes
    seats = [s for s in range(n) if s != me]
    rnd = rng.random
    for _ in range(attempts):
        rest = pool[:]
        rest.sort(key=lambda _: rnd())
        hands: dict[int, list[int]] = {s: [] for s in seats}
        if not rules:
            for s in seats:
                hands[s] = rest[: sizes[s]]
                del rest[: sizes[s]]
            return _world(view, hands, rest)
        ok = True
        # Lower bounds first, with random cards of each set.
        for seat, cards, low, _, _ in rules:
            need = low - sum(1 for x in hands[seat] if x in cards)
            if need <= 0:
                continue
            choice = [x for x in rest if x in cards][:need]
            if len(choice) < need or len(hands[seat]) + need > sizes[seat]:
                ok = False
                break
            hands[seat].extend(choice)
            rest = [x for x in rest if x not in choice]
        if not ok:
            continue
        for s in seats:
            caps = [(cards, high) for seat, cards, _, high, _ in rules if seat == s and high is not None]
            missing = sizes[s] - len(hands[s])
            if not caps:
                hands[s].extend(rest[:missing])
                del rest[:missing]
                continue
            # Skip cards that would break an upper bound of this seat; they stay for the others.
            counts = [sum(1 for x in hands[s] if x in cards) for cards, _ in caps]
            kept: list[int] = []
            for x in rest:
                if missing and all(x not in cards or k < high for (cards, high), k in zip(caps, counts)):
                    hands[s].append(x)
                    missing -= 1
                    counts = [k + (x in cards) for (cards, _), k in zip(caps, counts)]
                else:
                    kept.append(x)
            rest = kept
        if all(
            len(hands[seat]) == sizes[seat]
            and low <= sum(1 for x in hands[seat] if x in cards) <= (high if high is not None else 48)
            for seat, cards, low, high, _ in rules
        ):
            return _world(view, hands, rest)
    raise WorldError(
        f"no hidden world fits the view of seat {me} and {len(rules)} hold constraint(s) "
        f"after {attempts} tries: the constraints probably contradict each other"
    )


def _world(view: PlayerView, hands: dict[int, list[int]], hidden: list[int]) -> World:
    full = tuple(
        view.hand if s == view.seat else tuple(CARDS[i] for i in sorted(hands[s]))
        for s in range(view.players)
    )
    return World(full, tuple(CARDS[i] for i in sorted(hidden)))


def playout_deal(view: PlayerView, world: World) -> FastDeal:
    """A :class:`FastDeal` at the view's point of play with the world's hands, for playouts."""
    if view.phase is not Phase.PLAY:
        raise RulesError(f"playouts start during play, not in phase {view.phase.value}")
    rules = view.ruleset
    return FastDeal.resume(
        [[c.index for c in h] for h in world.hands],
        view.trick_leader,
        [c.index for c in view.current_trick],
        [(t.leader, [c.index for c in t.cards], -1 if t.winner is None else t.winner) for t in view.tricks],
        spoiler_leads=rules.lead_after_pourri is LeadAfterPourri.SPOILER,
        pourri_breaks_run=rules.pourri_breaks_mordienne_run,
        total_tricks=rules.tricks_per_deal,
    )
