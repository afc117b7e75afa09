"""Card-play tactics of Aluette as small named rules over plain card indices.

The expert advice (RULES.md, the sources' tips): play low when the partner is winning; spoil
(*faire autant*) rather than give a trick to the opponents; test the opponents with a middle card
(*mettre à la force*); support a partner's mordienne by spoiling early tricks and spreading the
others' tricks; go for mordienne by losing early and taking the last tricks.

Everything here works on card indices (0 strongest .. 47, ``trainer.rules.cards.STRENGTH``) so the
same code serves the heuristic bot and the search bot's rollouts. :func:`choose_card` returns the
card and the name of the rule that chose it (the heuristic bot shows it as an explanation and the
tests build a hand for each rule).

Imports trainer.rules only. Never sees a hidden card: callers pass what a seat may know.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from trainer.rules.cards import STRENGTH

# Rule names, in the order :func:`choose_card` tries them.
MORDIENNE_LOSE_EARLY = "mordienne: lose the early tricks"
MORDIENNE_TAKE_LAST = "mordienne: take the last tricks"
SUPPORT_MORDIENNE_SPOIL = "support partner's mordienne: spoil an early trick"
SUPPORT_MORDIENNE_SPREAD = "support partner's mordienne: spread the others' tricks"
PARTNER_WINNING_PLAY_LOW = "partner is winning: play low"
WIN_CHEAPLY_LAST = "last to play: win with the cheapest card that beats"
WIN_WITH_MASTER = "win with a card nobody left can beat"
SPOIL_RATHER_THAN_GIVE = "spoil (faire autant) rather than give the trick"
LEAD_MASTER = "lead a card nobody can beat"
METTRE_A_LA_FORCE = "lead a middle card to test the opponents (mettre à la force)"
DISCARD_LOWEST = "cannot win: throw the lowest card"

RULES = (
    MORDIENNE_LOSE_EARLY, MORDIENNE_TAKE_LAST, SUPPORT_MORDIENNE_SPOIL, SUPPORT_MORDIENNE_SPREAD,
    PARTNER_WINNING_PLAY_LOW, WIN_CHEAPLY_LAST, WIN_WITH_MASTER, SPOIL_RATHER_THAN_GIVE, LEAD_MASTER,
    METTRE_A_LA_FORCE, DISCARD_LOWEST,
)


@dataclass(frozen=True, slots=True)
class PlaySituation:
    """What one seat knows when it must play a card (all cards as indices 0..47).

    ``trick`` is the trick in progress as (seat, card) in play order; ``opponents_may_hold`` the cards
    that may be in an opponent's hand (not ours, not played, not known to be the partner's);
    ``tricks_won`` counts per seat; ``tricks_left`` includes the current trick.
    """

    seat: int
    players: int
    hand: tuple[int, ...]
    trick: tuple[tuple[int, int], ...]
    tricks_won: tuple[int, ...]
    tricks_left: int
    opponents_may_hold: frozenset[int]
    partner_may_beat: bool = False
    """The partner still to play in this trick is known (from signs) to hold a card that beats."""
    going_for_mordienne: bool = False
    partner_mordienne: bool = False
    opponent_may_hold: tuple[tuple[int, frozenset[int]], ...] = ()
    """Per opponent, the cards it may hold, when the signs caught from the opponents say more
    than ``opponents_may_hold`` (e.g. an opponent who signed misère holds nothing above an ace;
    a card another seat signed is not this one's). Empty: every opponent may hold any of them."""

    def may_hold(self, seat: int) -> frozenset[int]:
        for s, cards in self.opponent_may_hold:
            if s == seat:
                return cards
        return self.opponents_may_hold

    @property
    def partner(self) -> int | None:
        if self.players == 3:
            return None
        return (self.seat + self.players // 2) % self.players

    def is_partner(self, seat: int) -> bool:
        return seat != self.seat and self.players != 3 and seat % (self.players // 2) == self.seat % (self.players // 2)

    @property
    def to_play_after(self) -> tuple[int, ...]:
        """Seats still to play in this trick after this one."""
        if not self.trick:
            return tuple((self.seat + k) % self.players for k in range(1, self.players))
        leader = self.trick[0][0]
        order = [(leader + k) % self.players for k in range(self.players)]
        return tuple(order[len(self.trick) + 1:])


def trick_top(trick: Sequence[tuple[int, int]]) -> tuple[int, int | None]:
    """(highest strength played, the seat holding it alone or None when it is tied: spoiled so far)."""
    best = -1
    winner: int | None = None
    for seat, card in trick:
        s = STRENGTH[card]
        if s > best:
            best, winner = s, seat
        elif s == best:
            winner = None
    return best, winner


def _lowest(cards: Iterable[int]) -> int:
    return min(cards, key=lambda c: (STRENGTH[c], c))


def _highest(cards: Iterable[int]) -> int:
    return max(cards, key=lambda c: (STRENGTH[c], -c))


Choice = tuple[int, str]
"""A card (index) and the name of the rule that chose it."""


@dataclass(frozen=True, slots=True)
class _Reading:
    """What the rules below read from the trick and the hand: the strength to beat and who holds it,
    the strongest card an opponent may still hold (and one still to play after us), and the cards
    of the hand that beat, surely beat, or tie the trick."""

    best: int
    winner: int | None
    opponents_after: tuple[int, ...]
    opp_max: int
    threat: int
    beating: tuple[int, ...]
    sure: tuple[int, ...]
    equal: tuple[int, ...]
    lowest: int


def _read(sit: PlaySituation) -> _Reading:
    hand = sit.hand
    best, winner = trick_top(sit.trick)
    opponents_after = tuple(s for s in sit.to_play_after if not sit.is_partner(s))
    opp_max = max((STRENGTH[c] for c in sit.opponents_may_hold), default=-1)
    # A card wins for sure when it beats the trick and every card an opponent still to play may hold.
    threat = opp_max if opponents_after else -1
    if sit.opponent_may_hold:
        # The opponents' caught signs tell which of them may hold what.
        opp_max = max((STRENGTH[c] for _, cards in sit.opponent_may_hold for c in cards), default=-1)
        threat = max((STRENGTH[c] for s in opponents_after for c in sit.may_hold(s)), default=-1)
    beating = tuple(c for c in hand if STRENGTH[c] > best)
    return _Reading(
        best, winner, opponents_after, opp_max, threat, beating,
        sure=tuple(c for c in beating if STRENGTH[c] > threat),
        equal=tuple(c for c in hand if STRENGTH[c] == best),
        lowest=_lowest(hand),
    )


def choose_card(sit: PlaySituation) -> Choice:
    """The card to play and the rule that chose it. ``sit.hand`` must not be empty.

    The rules are tried in order: our own mordienne, the partner's mordienne, then following or
    leading; a mordienne rule that has nothing to say leaves the choice to the next."""
    if len(sit.hand) == 1:
        return sit.hand[0], DISCARD_LOWEST
    r = _read(sit)
    return (
        _own_mordienne(sit, r)
        or _partner_mordienne(sit, r)
        or (_follow(sit, r) if sit.trick else _lead(sit, r))
    )


def _own_mordienne(sit: PlaySituation, r: _Reading) -> Choice | None:
    """Going for mordienne with no trick yet: lose the early tricks, then take the last ones."""
    if not (sit.going_for_mordienne and sit.tricks_won[sit.seat] == 0):
        return None
    hand = sit.hand
    masters = [c for c in hand if STRENGTH[c] > r.opp_max]
    if len(masters) >= sit.tricks_left or sit.tricks_left <= 3:
        if r.sure:
            return _lowest(r.sure), MORDIENNE_TAKE_LAST
        if not sit.trick and masters:
            return _highest(masters), MORDIENNE_TAKE_LAST
        if r.beating:
            return _highest(r.beating), MORDIENNE_TAKE_LAST
        return None
    losing = [c for c in hand if STRENGTH[c] < r.best] if sit.trick else []
    if losing:
        return _highest(losing), MORDIENNE_LOSE_EARLY
    return r.lowest, MORDIENNE_LOSE_EARLY


def _partner_mordienne(sit: PlaySituation, r: _Reading) -> Choice | None:
    """The partner goes for mordienne with no trick yet: spoil or spread the others' tricks."""
    partner = sit.partner
    if not (sit.partner_mordienne and partner is not None and sit.tricks_won[partner] == 0 and sit.tricks_left > 3):
        return None
    winner = r.winner
    if sit.trick and r.equal and winner is not None and winner != partner:
        return _lowest(r.equal), SUPPORT_MORDIENNE_SPOIL
    if sit.trick and winner is not None and winner != partner:
        # Spread: nobody else may collect as many tricks as the partner's run will need.
        if sit.tricks_won[winner] + 1 >= 2 and r.beating and sit.tricks_won[sit.seat] + 1 < 2:
            return _lowest(r.sure or r.beating), SUPPORT_MORDIENNE_SPREAD
    losing = [c for c in sit.hand if STRENGTH[c] < r.best] if sit.trick else []
    if losing:
        return _highest(losing), SUPPORT_MORDIENNE_SPREAD
    return None


def _follow(sit: PlaySituation, r: _Reading) -> Choice:
    """A card to a trick already led."""
    hand, best, winner = sit.hand, r.best, r.winner
    if winner is not None and sit.is_partner(winner):
        partner_safe = best > r.threat
        if partner_safe or not r.beating:
            # Never tie the partner's card: an equal card spoils their trick.
            safe = [c for c in hand if STRENGTH[c] != best] or list(hand)
            return _lowest(safe), PARTNER_WINNING_PLAY_LOW
        # An opponent after us may still beat the partner: take over with a sure card if we have one.
        if r.sure:
            return _lowest(r.sure), WIN_WITH_MASTER
        safe = [c for c in hand if STRENGTH[c] != best] or list(hand)
        return _lowest(safe), PARTNER_WINNING_PLAY_LOW
    if not r.opponents_after:
        if r.beating:
            return _lowest(r.beating), WIN_CHEAPLY_LAST
        if r.equal and winner is not None:
            return _lowest(r.equal), SPOIL_RATHER_THAN_GIVE
        return r.lowest, DISCARD_LOWEST
    if sit.partner_may_beat and winner is not None:
        return r.lowest, PARTNER_WINNING_PLAY_LOW
    if r.sure:
        return _lowest(r.sure), WIN_WITH_MASTER
    if r.equal and winner is not None:
        return _lowest(r.equal), SPOIL_RATHER_THAN_GIVE
    return r.lowest, DISCARD_LOWEST


def _lead(sit: PlaySituation, r: _Reading) -> Choice:
    """A card to lead a trick."""
    hand = sit.hand
    masters = [c for c in hand if STRENGTH[c] > r.opp_max]
    if masters:
        return _lowest(masters), LEAD_MASTER
    ranked = sorted(hand, key=lambda c: (STRENGTH[c], c))
    if len(ranked) >= 3:
        # The middle of the hand: strong enough to draw out an opponent's big card, not our best.
        return ranked[len(ranked) // 2], METTRE_A_LA_FORCE
    return r.lowest, DISCARD_LOWEST
