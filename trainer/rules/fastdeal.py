"""The trick-play of one deal on small integers: the hot loop of the engine and of bot playouts.

Standard library only. Cards are ``card.index`` values 0..47 (strongest first) and strength is
looked up in :data:`trainer.rules.cards.STRENGTH`. :class:`FastDeal` plays the tricks of one deal
(RULES.md "A deal" 4-8): any card may be played, the highest card wins, equal highest cards spoil
the trick (*pourri*), and who leads after a spoiled trick is a flag. :class:`trainer.rules.game.Game`
plays every trick through this class, and bots run their playouts on it::

    deal = FastDeal.random(rng, players=4, dealer=0)
    while not deal.finished:
        moves = deal.legal_actions()          # list[int]: the live hand, read only
        deal.apply(moves[0])
    deal.deal_winner(), deal.mordienne(), deal.points()

Speed matters more than elegance here: no per-play allocation (``legal_actions`` returns the live
hand list, read only), locals bound in the hot methods, tables precomputed at import.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from trainer.rules.cards import STRENGTH
from trainer.rules.errors import IllegalActionError

NO_WINNER = -1
"""Marks a spoiled trick in ``FastDeal.winners`` (and "nobody" for a deal winner)."""

HAND_SIZES = {3: 12, 4: 9, 6: 8}
"""Cards dealt to each player, by table size (RULES.md "A deal", "Other player counts"); also the
tricks of a deal. The one table of it: :attr:`Ruleset.hand_size` reads it too."""


@dataclass(frozen=True, slots=True)
class PlayoutFlags:
    """The rule options trick play depends on, as :class:`FastDeal` takes them; a ruleset gives
    its own with :meth:`trainer.rules.ruleset.Ruleset.playout_flags`."""

    spoiler_leads: bool
    """After a spoiled trick (pourri) the spoiler leads (else the trick's leader)."""
    pourri_breaks_run: bool
    """A spoiled trick inside the closing run of won tricks breaks mordienne."""
    total_tricks: int

    @property
    def options(self) -> dict[str, Any]:
        """The keyword arguments of ``FastDeal(...)`` and ``FastDeal.resume(...)``."""
        return {
            "spoiler_leads": self.spoiler_leads, "pourri_breaks_run": self.pourri_breaks_run,
            "total_tricks": self.total_tricks,
        }


def _batch_sizes(hand_size: int) -> tuple[int, ...]:
    """Cards go out in batches of 3 (RULES.md "A deal" 2); 8 cards for 6 players is 3, 3, 2."""
    sizes = []
    left = hand_size
    while left > 0:
        sizes.append(min(3, left))
        left -= 3
    return tuple(sizes)


def deal_positions(players: int, dealer: int) -> tuple[tuple[int, ...], ...]:
    """For each seat, the positions in a shuffled deck of the cards it receives.

    The dealer deals clockwise in batches of 3, starting with the player on their left; the talon is
    the rest of the deck (positions ``players * hand_size`` onward).
    """
    hand_size = HAND_SIZES[players]
    positions: list[list[int]] = [[] for _ in range(players)]
    cursor = 0
    for size in _batch_sizes(hand_size):
        for step in range(1, players + 1):
            seat = (dealer + step) % players
            positions[seat].extend(range(cursor, cursor + size))
            cursor += size
    return tuple(tuple(p) for p in positions)


# itemgetters per (players, dealer): one C call cuts a shuffled deck into hands.
_GETTERS = {
    (n, d): tuple(operator.itemgetter(*pos) for pos in deal_positions(n, d))
    for n in HAND_SIZES
    for d in range(n)
}


_NEXT = {n: tuple((s + 1) % n for s in range(n)) for n in HAND_SIZES}


def is_mordienne(winners: Sequence[int], winner: int, pourri_breaks_run: bool = True) -> bool:
    """RULES.md "Mordienne": the deal winner took no trick before, then the last tricks in a row,
    at least three, up to and including the last trick.

    Spoiled tricks before the run are fine; a spoiled last trick breaks it; a spoiled trick inside the
    run breaks it when ``pourri_breaks_run`` (the default), otherwise it is skipped over.
    """
    if winner < 0 or not winners or winners[-1] != winner:
        return False
    i = len(winners) - 1
    run = 0
    while i >= 0:
        w = winners[i]
        if w == winner:
            run += 1
        elif w == NO_WINNER and not pourri_breaks_run:
            pass
        else:
            break
        i -= 1
    if run < 3:
        return False
    # "no trick before": the winner appears nowhere before the run.
    return winner not in winners[: i + 1]


class FastDeal:
    """The trick-play of one deal, mutable, on card indices. ``copy()`` for playouts.

    Attributes (read them, do not assign): ``hands`` (list of lists of card indices per seat),
    ``to_move`` (seat, or -1 when the deal is over), ``leader`` (leader of the current trick),
    ``trick`` (cards of the current trick so far, in play order), ``winners`` (per finished trick,
    the winning seat or ``NO_WINNER``), ``tricks`` (per finished trick ``(leader, cards, winner)``),
    ``won`` (tricks won per seat), ``players``, ``total_tricks``.
    """

    __slots__ = (
        "hands", "players", "total_tricks", "spoiler_leads", "pourri_breaks_run", "leader",
        "to_move", "trick", "winners", "tricks", "won", "top", "top_seat", "_next", "_seats",
    )

    def __init__(
        self,
        hands: Sequence[Sequence[int]],
        leader: int,
        *,
        spoiler_leads: bool = False,
        pourri_breaks_run: bool = True,
        total_tricks: int | None = None,
    ) -> None:
        """A deal at its first trick: ``hands[seat]`` card indices, ``leader`` the seat left of the
        dealer. ``spoiler_leads``: the spoiler leads after a pourri (else the trick's leader)."""
        players = len(hands)
        if players not in HAND_SIZES:
            raise IllegalActionError(f"a deal needs 3, 4 or 6 hands, got {players}")
        if not 0 <= leader < players:
            raise IllegalActionError(f"leader seat {leader!r} is not at a {players}-player table")
        self.hands = [list(h) for h in hands]
        self._seats = self.hands + [[]]
        self.players = players
        self.total_tricks = max(len(h) for h in hands) if total_tricks is None else total_tricks
        self.spoiler_leads = spoiler_leads
        self.pourri_breaks_run = pourri_breaks_run
        self.leader = leader
        self.to_move = leader if self.total_tricks > 0 else NO_WINNER
        self.trick: list[int] = []
        self.top = 0
        self.top_seat = NO_WINNER
        self._next = _NEXT[players]
        self.winners: list[int] = []
        self.tricks: list[tuple[int, list[int], int]] = []
        self.won = [0] * players

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def from_deck(
        cls, deck: Sequence[int], players: int = 4, dealer: int = 0, **options: bool
    ) -> FastDeal:
        """Deal a shuffled deck (48 indices) in batches of 3 from the dealer's left; the seat left
        of the dealer leads. The talon (``deck[players * hand_size:]``) is not used."""
        spoiler_leads = options.pop("spoiler_leads", False)
        pourri_breaks_run = options.pop("pourri_breaks_run", True)
        if options:
            raise TypeError(f"unknown FastDeal option(s) {sorted(options)}")
        # Built field by field (not through __init__): this runs once per playout.
        deal = cls.__new__(cls)
        deal.hands = hands = [list(g(deck)) for g in _GETTERS[players, dealer]]
        deal._seats = hands + [[]]
        deal.players = players
        deal.total_tricks = HAND_SIZES[players]
        deal.spoiler_leads = spoiler_leads
        deal.pourri_breaks_run = pourri_breaks_run
        deal.leader = deal.to_move = (dealer + 1) % players
        deal.trick = []
        deal.top = 0
        deal.top_seat = NO_WINNER
        deal._next = _NEXT[players]
        deal.winners = []
        deal.tricks = []
        deal.won = [0] * players
        return deal

    @classmethod
    def random(
        cls, rng: random.Random, players: int = 4, dealer: int = 0, **options: bool
    ) -> FastDeal:
        """A freshly shuffled deal from ``rng``."""
        deck = list(range(48))
        rnd = rng.random
        deck.sort(key=lambda _: rnd())
        return cls.from_deck(deck, players, dealer, **options)

    @classmethod
    def resume(
        cls,
        hands: Sequence[Sequence[int]],
        leader: int,
        trick: Sequence[int] = (),
        tricks: Sequence[tuple[int, Sequence[int], int]] = (),
        *,
        spoiler_leads: bool = False,
        pourri_breaks_run: bool = True,
        total_tricks: int,
    ) -> FastDeal:
        """A deal in the middle: ``hands`` now, the current trick's ``leader`` and its ``trick``
        cards so far, and the finished ``tricks`` as ``(leader, cards, winner)``. For playouts from a
        sampled world."""
        deal = cls(
            [list(h) for h in hands], leader, spoiler_leads=spoiler_leads,
            pourri_breaks_run=pourri_breaks_run, total_tricks=total_tricks,
        )
        for t_leader, cards, winner in tricks:
            deal.tricks.append((t_leader, list(cards), winner))
            deal.winners.append(winner)
            if winner >= 0:
                deal.won[winner] += 1
                if deal.won[winner] > deal.top:
                    deal.top = deal.won[winner]
                    deal.top_seat = winner
        if len(deal.tricks) >= total_tricks:
            deal.to_move = NO_WINNER
            return deal
        n = deal.players
        seat = leader
        for card in trick:
            deal.trick.append(card)
            seat = (seat + 1) % n
        deal.to_move = seat
        return deal

    def copy(self) -> FastDeal:
        new = FastDeal.__new__(FastDeal)
        new.hands = hands = [h[:] for h in self.hands]
        new._seats = hands + [[]]
        new.players = self.players
        new.total_tricks = self.total_tricks
        new.spoiler_leads = self.spoiler_leads
        new.pourri_breaks_run = self.pourri_breaks_run
        new.leader = self.leader
        new.to_move = self.to_move
        new.trick = self.trick[:]
        new.top = self.top
        new.top_seat = self.top_seat
        new._next = self._next
        new.winners = self.winners[:]
        new.tricks = self.tricks[:]  # finished tricks are never mutated again
        new.won = self.won[:]
        return new

    # -- play -----------------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.to_move < 0

    def legal_actions(self) -> list[int]:
        """The cards the player to move may play: any card of their hand (no suit to follow).

        This is the *live* hand list of the player to move (no allocation: playouts call this
        36 times a deal): read it, pick from it, never modify it, and copy it (``list(...)``) to keep
        it past the next ``apply``. Empty once the deal is over."""
        # ``_seats[-1]`` is an empty sentinel hand, so no test is needed for a finished deal.
        return self._seats[self.to_move]

    def apply(self, card: int, _strength_of: Callable[[int], int] = STRENGTH.__getitem__) -> None:
        """Play ``card`` (an index) for the player to move. Raises :class:`IllegalActionError` if it
        is not in their hand, leaving the deal untouched."""
        seat = self.to_move
        try:
            self._seats[seat].remove(card)
        except ValueError:
            if seat < 0:
                raise IllegalActionError(f"the deal is over: card {card!r} cannot be played") from None
            raise IllegalActionError(
                f"card {card!r} is not in the hand of seat {seat}: play one of {self.hands[seat]}"
            ) from None
        trick = self.trick
        trick.append(card)
        seat = self._next[seat]
        leader = self.leader
        if seat != leader:
            self.to_move = seat
            return
        # The trick is complete (play came back round to its leader): the highest card wins, equal
        # highest cards spoil it (pourri). Inlined: this is the hottest code of every playout.
        strengths = [*map(_strength_of, trick)]
        best = max(strengths)
        if strengths.count(best) > 1:
            winner = NO_WINNER
            if self.spoiler_leads:
                # The spoiler played the last of the equal highest cards.
                n = self.players
                leader = (leader + n - 1 - strengths[::-1].index(best)) % n
        else:
            winner = leader = (leader + strengths.index(best)) % self.players
            won = self.won
            count = won[winner] + 1
            won[winner] = count
            # Deal winner so far: most tricks; a tie stays with whoever got there first.
            if count > self.top:
                self.top = count
                self.top_seat = winner
        winners = self.winners
        winners.append(winner)
        self.tricks.append((self.leader, trick, winner))
        self.trick = []
        self.leader = leader
        self.to_move = leader if len(winners) < self.total_tricks else NO_WINNER

    # -- result ---------------------------------------------------------------------------------

    def deal_winner(self) -> int:
        """The seat with most tricks so far (a tie goes to whoever got there first), or -1 if
        nobody took a trick. Kept up to date trick by trick."""
        return self.top_seat

    def mordienne(self) -> bool:
        """Whether the deal winner made mordienne (False until the deal is over)."""
        if self.to_move >= 0 or self.top < 3:
            return False
        return is_mordienne(self.winners, self.top_seat, self.pourri_breaks_run)

    def points(self) -> int:
        """Points the deal winner's team scores in a plain deal: 2 for mordienne, 1, or 0."""
        if self.top_seat < 0:
            return 0
        return 2 if self.mordienne() else 1

    def played(self) -> list[int]:
        """Every card played so far, in play order (finished tricks then the current one)."""
        out: list[int] = []
        for _, cards, _ in self.tricks:
            out.extend(cards)
        out.extend(self.trick)
        return out
