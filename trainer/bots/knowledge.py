"""From a player view to what the bots reason with: received signs, constraints, the play situation.

Everything is derived from a :class:`~trainer.rules.views.PlayerView` only: the seat's hand, the
public play and the sign records that reached the seat (``view.signals``, written by the table with
:func:`trainer.signals.table.encode_message`). Nothing here can reach another seat's hidden cards.

Imports trainer.rules, trainer.signals and the bots' own modules.
"""

from __future__ import annotations

from dataclasses import dataclass

from trainer.bots.playout import PublicPlay
from trainer.bots.signing import SignPolicy
from trainer.bots.tactics import PlaySituation
from trainer.bots.worlds import Holding, Knowledge, holding_for_signal, silence_holding
from trainer.rules.actions import Declaration, Phase
from trainer.rules.cards import STRENGTH
from trainer.rules.game import Contract
from trainer.rules.ruleset import LeadAfterPourri
from trainer.rules.views import PlayerView
from trainer.signals.relative import Announcement
from trainer.signals.signs import Sign, Signal
from trainer.signals.table import SignalError, decode_message


@dataclass(frozen=True, slots=True)
class Received:
    """A sign record of this deal as the seat reads it."""

    seat: int
    signal: Signal
    announcements: tuple[Announcement, ...]
    trick: int


def signs_this_deal(view: PlayerView) -> tuple[Received, ...]:
    """Every sign of the current deal the seat knows of (its own included), in order. Records the
    signals layer cannot read (another tool's) are skipped."""
    out = []
    for record in view.signals:
        if record.deal != view.deal_number:
            continue
        try:
            signal, words = decode_message(record.message)
        except (SignalError, ValueError):
            continue
        out.append(Received(record.seat, signal, words, record.trick))
    return tuple(out)


def partner_of(view: PlayerView) -> int | None:
    partners = view.ruleset.partners(view.seat)
    return partners[0] if partners else None


def signed(view: PlayerView, seat: int, sign: Sign) -> bool:
    return any(r.seat == seat and r.signal.sign is sign for r in signs_this_deal(view))


def own_signs(view: PlayerView) -> tuple[Received, ...]:
    return tuple(r for r in signs_this_deal(view) if r.seat == view.seat)


def played_by(view: PlayerView) -> dict[int, list[int]]:
    """Card indices each seat has played in this deal."""
    n = view.players
    out: dict[int, list[int]] = {s: [] for s in range(n)}
    for t in view.tricks:
        for i, c in enumerate(t.cards):
            out[(t.leader + i) % n].append(c.index)
    if view.trick_leader is not None:
        for i, c in enumerate(view.current_trick):
            out[(view.trick_leader + i) % n].append(c.index)
    return out


def knowledge_of(
    view: PlayerView,
    *,
    partner_policy: SignPolicy | None = None,
    trust: float = 1.0,
) -> Knowledge:
    """The seat's knowledge of the hidden hands, with the received signs as constraints.

    ``trust`` < 1 (lies allowed) turns the signs into soft constraints kept with that chance per
    world. ``partner_policy`` (a bot partner's known signing policy) adds what its silence says,
    once its sign points have passed (play has begun).
    """
    unseen = frozenset(c.index for c in view.unseen())
    plays = played_by(view)
    per_seat: dict[int, Holding] = {}
    for r in signs_this_deal(view):
        if r.seat == view.seat:
            continue
        h = holding_for_signal(r.signal, plays[r.seat], unseen)
        levels = _announced_levels(r)
        if levels:
            h = h.merge(_levels_holding(levels, plays[r.seat], unseen))
        per_seat[r.seat] = per_seat[r.seat].merge(h) if r.seat in per_seat else h
    partner = partner_of(view)
    if partner_policy is not None and partner is not None and view.phase is Phase.PLAY:
        told = [r.signal for r in signs_this_deal(view) if r.seat == partner]
        h = silence_holding(told, partner_policy.max_level, unseen)
        per_seat[partner] = per_seat[partner].merge(h) if partner in per_seat else h
    items = tuple((s, h) for s, h in per_seat.items() if not h.empty)
    hand = tuple(c.index for c in view.hand)
    if trust >= 1.0:
        return Knowledge(view.seat, hand, view.hand_sizes, unseen, holdings=items)
    return Knowledge(view.seat, hand, view.hand_sizes, unseen, soft=items, trust=trust)


def _announced_levels(r: Received) -> tuple[int, ...]:
    from trainer.signals.relative import AnnouncementError, base_level, resolve

    if not r.announcements:
        return ()
    try:
        return resolve(base_level(r.signal.sign, r.signal.count), r.announcements)
    except AnnouncementError:
        return ()


def _levels_holding(levels, played, unseen) -> Holding:
    """Each announced level: the signer held a card of it. A single card (levels 1..8) is required;
    for a shared level (aces, kings, ...) the signer holds at least one of its unseen cards, unless
    it has already played one."""
    from trainer.rules.cards import LEVEL

    required: set[int] = set()
    some: list[frozenset[int]] = []
    played = set(played)
    for level in levels:
        cards = [c for c in range(48) if LEVEL[c] == level]
        if played & set(cards):
            continue
        candidates = frozenset(c for c in cards if c in unseen)
        if len(cards) == 1:
            required |= candidates
        elif candidates:
            some.append(candidates)
    return Holding(required=frozenset(required), some=tuple(some))


def public_play(view: PlayerView) -> PublicPlay:
    rules = view.ruleset
    # After an accepted announced mordienne the deal winner scores 2 whatever happens.
    contract = Contract.NORMAL
    for seat, decl in view.declarations:
        if decl is Declaration.MORDIENNE and any(accept for _, accept in view.answers):
            contract = Contract.ANNOUNCED
    return PublicPlay(
        leader=view.trick_leader,
        trick=tuple(c.index for c in view.current_trick),
        tricks=tuple(
            (t.leader, tuple(c.index for c in t.cards), -1 if t.winner is None else t.winner)
            for t in view.tricks
        ),
        total_tricks=rules.tricks_per_deal,
        spoiler_leads=rules.lead_after_pourri is LeadAfterPourri.SPOILER,
        pourri_breaks_run=rules.pourri_breaks_mordienne_run,
        points_scale=2 if contract is Contract.ANNOUNCED else 1,
    )


def situation_of(view: PlayerView, knowledge: Knowledge, *, going_for_mordienne: bool = False) -> PlaySituation:
    """The trick situation for the tactics, with the partner's known cards taken out of the
    opponents' possible cards."""
    n = view.players
    partner = partner_of(view)
    partner_cards: frozenset[int] = frozenset()
    for s, h in knowledge.holdings:
        if s == partner:
            partner_cards |= h.required
    leader = view.trick_leader
    trick = tuple(((leader + i) % n, c.index) for i, c in enumerate(view.current_trick))
    opp_may = knowledge.unseen - partner_cards
    # Does the partner, still to play in this trick, hold a known card that beats the trick?
    partner_may_beat = False
    if partner is not None and trick:
        order = [(leader + k) % n for k in range(n)]
        after = order[len(trick) + 1:]
        if partner in after:
            best = max(STRENGTH[c] for _, c in trick)
            partner_may_beat = any(STRENGTH[c] > best for c in partner_cards)
    partner_mordienne = partner is not None and (
        signed(view, partner, Sign.MORDIENNE)
        or any(s == partner and d is Declaration.MORDIENNE for s, d in view.declarations)
    )
    return PlaySituation(
        seat=view.seat,
        players=n,
        hand=tuple(c.index for c in view.hand),
        trick=trick,
        tricks_won=view.tricks_won,
        tricks_left=view.ruleset.tricks_per_deal - len(view.tricks),
        opponents_may_hold=frozenset(opp_may),
        partner_may_beat=partner_may_beat,
        going_for_mordienne=going_for_mordienne,
        partner_mordienne=partner_mordienne,
    )
