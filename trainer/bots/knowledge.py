"""From a player view to what the bots reason with: received signs, constraints, the play situation.

Everything is derived from a :class:`~trainer.rules.views.PlayerView` only: the seat's hand, the
public play and the sign records that reached the seat (``view.signals``, written by the table with
:func:`trainer.signals.table.record_text` and read back as :class:`~trainer.signals.table.SeenSign`).
Nothing here can reach another seat's hidden cards.

Imports trainer.rules, trainer.signals and the bots' own modules.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from trainer.bots.base import BotError
from trainer.bots.channel import EVAL_VISION_HELD_OUT, SignReliability
from trainer.bots.playout import PublicPlay
from trainer.bots.signing import SignPolicy
from trainer.bots.tactics import PlaySituation
from trainer.bots.worlds import Holding, Knowledge, holding_for_signal, silence_holding
from trainer.rules.actions import Declaration, Phase
from trainer.rules.cards import LEVEL, STRENGTH
from trainer.rules.game import Contract
from trainer.rules.views import PlayerView
from trainer.signals.signs import Sign
from trainer.signals.table import SeenSign, seen_from_record


def signs_this_deal(view: PlayerView) -> tuple[SeenSign, ...]:
    """Every sign of the current deal the seat knows of (its own included), in order, as typed
    values (each record's text is decoded once, by the signals layer). Records the signals layer
    cannot read (another tool's) are skipped, and so are the camera's readings of the seat's own
    signs (meant for its partner: the seat knows what it signed)."""
    out = []
    for record in view.signals:
        if record.deal != view.deal_number:
            continue
        seen = seen_from_record(record)
        if seen is None or (seen.read_by_camera and record.seat == view.seat):
            continue
        out.append(seen)
    return tuple(out)


def contradicted(r: SeenSign, view: PlayerView, plays_by_seat: dict[int, list[int]] | None = None) -> bool:
    """Did the play since contradict the sign? A card sign: the signer let the opponents take a
    trick that the signed card (not played yet) would have beaten, though it played after the
    winning card. Aces: it played more aces than it signed. Misère: it played a card stronger than
    an ace. Such a sign is not believed for the rest of the deal.

    ``plays_by_seat`` is :func:`played_by` of the view, when the caller reads several signs of one
    view (the play is then walked once, not once a sign)."""
    n = view.players
    sign = r.signal.sign
    team = view.ruleset.team_of(r.seat)
    plays = (played_by(view) if plays_by_seat is None else plays_by_seat)[r.seat]
    if sign is Sign.MISERE:
        return any(LEVEL[c] < 9 for c in plays)
    if sign is Sign.AS:
        return sum(LEVEL[c] == 9 for c in plays) > r.signal.count
    cards = [c.index for c in sign.cards]
    if not cards:
        return False
    for k, t in enumerate(view.tricks):
        if t.winner is None or view.ruleset.team_of(t.winner) == team:
            continue
        order = [(t.leader + i) % n for i in range(n)]
        if r.seat not in order:
            continue
        pos = order.index(r.seat)
        win_pos = order.index(t.winner)
        if win_pos > pos:
            continue  # the winning card came after the signer's: it could not know
        top = STRENGTH[t.cards[win_pos].index]
        held = [c for c in cards if c not in plays[:k]]  # one card a trick: its plays before this one
        if any(STRENGTH[c] > top for c in held):
            return True
    return False



def partner_of(view: PlayerView) -> int | None:
    partners = view.ruleset.partners(view.seat)
    return partners[0] if partners else None


def signed(view: PlayerView, seat: int, sign: Sign) -> bool:
    return any(r.seat == seat and r.signal.sign is sign for r in signs_this_deal(view))


def own_signs(view: PlayerView) -> tuple[SeenSign, ...]:
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


class Use(Enum):
    """What a seat made of one sign it received."""

    CERTAIN = "certain"
    """Believed outright: a hard constraint on the signer's hand."""
    HINT = "hint"
    """Kept as a likelihood (lies allowed, or a camera's reading): a soft constraint."""
    CONTRADICTED = "contradicted"
    """Uncertain, and the play since contradicted it: dropped for the deal."""
    SPENT = "spent"
    """It names no card still unseen (already played, or seen in this seat's hand): nothing to use."""


@dataclass(frozen=True, slots=True)
class Reading:
    """One received sign and what the seat made of it: the constraint it gives (``holding``, empty
    unless used) and the chance it is kept with (1.0: certain)."""

    sign: SeenSign
    use: Use
    chance: float
    holding: Holding
    held_by_reader: bool = False
    """The sign names a card in the reader's own hand (so the reader knows it is false)."""
    played_by: tuple[int, ...] = ()
    """Seats that had already played a card the sign names."""


def sign_readings(
    view: PlayerView,
    *,
    trust: float = 1.0,
    reliability: SignReliability | None = None,
) -> tuple[Reading, ...]:
    """Each sign of the deal the seat received from another seat, with what the seat makes of it:
    the one reading :func:`knowledge_of` turns into constraints (and the coach tells the person)."""
    unseen = frozenset(c.index for c in view.unseen())
    plays = played_by(view)
    out = []
    for r in signs_this_deal(view):
        if r.seat == view.seat:
            continue
        chance = _chance_read(r, trust, reliability)
        if chance < 1.0 and contradicted(r, view, plays):
            out.append(Reading(r, Use.CONTRADICTED, chance, Holding()))
            continue
        h = holding_for_signal(r.signal, plays[r.seat], unseen)
        levels = r.levels
        if levels:
            h = h.merge(_levels_holding(levels, plays[r.seat], unseen))
        if h.empty:
            named = {c.index for c in r.signal.sign.cards}
            mine = bool(named & {c.index for c in view.hand})
            by = tuple(seat for seat, cards in sorted(plays.items()) if named & set(cards))
            out.append(Reading(r, Use.SPENT, chance, h, mine, by))
        else:
            out.append(Reading(r, Use.CERTAIN if chance >= 1.0 else Use.HINT, min(chance, 1.0), h))
    return tuple(out)


def _chance_read(r: SeenSign, trust: float, reliability: SignReliability | None) -> float:
    """The chance a received sign is true before the play says anything of it: ``trust``, times the
    camera's figures for a sign read by a camera."""
    chance = trust
    if r.read_by_camera:
        chance *= (reliability or EVAL_VISION_HELD_OUT).trust(r.gesture, r.confidence)
    return chance


def sign_chance(
    r: SeenSign, view: PlayerView, *, trust: float = 1.0, reliability: SignReliability | None = None,
    plays_by_seat: dict[int, list[int]] | None = None,
) -> float:
    """How far the seat believes a received sign: 1 for a sign seen at a truthful table; ``trust``
    at a table with lies; times the reader's :meth:`~trainer.bots.channel.SignReliability.trust`
    for a sign read by a camera (default figures: :data:`EVAL_VISION_HELD_OUT`); 0 for an
    uncertain sign the play has contradicted (:func:`contradicted`).

    Every decision that rests on a partner's sign goes through this one chance — the card play
    (:func:`knowledge_of`, :func:`situation_of`) and the declarations alike — so a sign the camera
    may have invented weighs what the camera's figures say, never more."""
    chance = _chance_read(r, trust, reliability)
    if chance < 1.0 and contradicted(r, view, plays_by_seat):
        return 0.0
    return chance


def believed_signs(
    view: PlayerView, *, trust: float = 1.0, reliability: SignReliability | None = None,
) -> tuple[tuple[SeenSign, float], ...]:
    """The signs other seats made this deal that reached the seat, each with :func:`sign_chance`."""
    plays = played_by(view)
    return tuple(
        (r, sign_chance(r, view, trust=trust, reliability=reliability, plays_by_seat=plays))
        for r in signs_this_deal(view) if r.seat != view.seat
    )


def belief_in(
    view: PlayerView, seat: int, sign: Sign, *, trust: float = 1.0, reliability: SignReliability | None = None,
) -> float:
    """The chance the seat gives to ``seat`` having made ``sign`` this deal (0: never received)."""
    return max(
        (c for r, c in believed_signs(view, trust=trust, reliability=reliability)
         if r.seat == seat and r.signal.sign is sign),
        default=0.0,
    )


def knowledge_of(
    view: PlayerView,
    *,
    partner_policy: SignPolicy | None = None,
    trust: float = 1.0,
    reliability: SignReliability | None = None,
) -> Knowledge:
    """The seat's knowledge of the hidden hands, with the received signs as constraints.

    ``trust`` < 1 (lies allowed) turns the signs into soft constraints kept with that chance per
    world. A sign read by a camera is soft too, kept with the chance ``reliability.trust(gesture,
    confidence)`` (default: the recognizer's figures, :data:`EVAL_VISION_HELD_OUT`). An uncertain
    sign that the play has contradicted (:func:`contradicted`) is dropped for the deal.
    ``partner_policy`` (a bot partner's known signing policy) adds what its silence says, once its
    sign points have passed (play has begun) — soft, kept with the reader's recall, when the seat
    reads its partner through a camera (``reliability`` given).
    """
    unseen = frozenset(c.index for c in view.unseen())
    hard: dict[int, Holding] = {}
    soft: list[tuple[int, Holding, float]] = []
    received = signs_this_deal(view)
    for reading in sign_readings(view, trust=trust, reliability=reliability):
        seat, h = reading.sign.seat, reading.holding
        if reading.use is Use.CERTAIN:
            hard[seat] = hard[seat].merge(h) if seat in hard else h
        elif reading.use is Use.HINT:
            soft.append((seat, h, reading.chance))
    partner = partner_of(view)
    if partner_policy is not None and partner is not None and view.phase is Phase.PLAY:
        told = [r.signal for r in received if r.seat == partner]
        h = silence_holding(told, partner_policy.max_level, unseen)
        chance = trust * (reliability.silence_trust(None) if reliability is not None else 1.0)
        if h.empty:
            pass
        elif chance >= 1.0:
            hard[partner] = hard[partner].merge(h) if partner in hard else h
        else:
            soft.append((partner, h, chance))
    hand = tuple(c.index for c in view.hand)
    return Knowledge(
        view.seat, hand, view.hand_sizes, unseen,
        holdings=tuple(hard.items()),
        soft=tuple((s, h) for s, h, _ in soft),
        trust=trust,
        soft_trust=tuple(t for _, _, t in soft),
    )


def _levels_holding(levels: Iterable[int], played: Iterable[int], unseen: frozenset[int]) -> Holding:
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


def _trick_leader(view: PlayerView) -> int:
    """The current trick's leader: the card choices that read it come during trick play only."""
    if view.trick_leader is None:
        raise BotError(f"seat {view.seat} was asked about trick play in phase {view.phase.value}")
    return view.trick_leader


def public_play(view: PlayerView) -> PublicPlay:
    rules = view.ruleset
    # After an accepted announced mordienne the deal winner scores 2 whatever happens.
    contract = Contract.NORMAL
    for _seat, decl in view.declarations:
        if decl is Declaration.MORDIENNE and any(accept for _, accept in view.answers):
            contract = Contract.ANNOUNCED
    return PublicPlay(
        leader=_trick_leader(view),
        trick=tuple(c.index for c in view.current_trick),
        tricks=tuple(
            (t.leader, tuple(c.index for c in t.cards), -1 if t.winner is None else t.winner)
            for t in view.tricks
        ),
        **rules.playout_flags().options,
        points_scale=2 if contract is Contract.ANNOUNCED else 1,
    )


def situation_of(
    view: PlayerView, knowledge: Knowledge, *, going_for_mordienne: bool = False,
    trust: float = 1.0, reliability: SignReliability | None = None,
) -> PlaySituation:
    """The trick situation for the tactics, with the partner's known cards taken out of the
    opponents' possible cards. ``trust`` and ``reliability`` weigh the partner's mordienne sign as
    :func:`knowledge_of` weighs its card signs: it is followed when more likely true than not."""
    n = view.players
    partner = partner_of(view)
    partner_cards: frozenset[int] = frozenset()
    for s, h in knowledge.holdings:
        if s == partner:
            partner_cards |= h.required
    for (s, h), t in zip(knowledge.soft, knowledge.soft_chances, strict=False):
        # An uncertain sign (lies, a camera) counts when it is more likely true than not.
        if s == partner and t >= 0.5:
            partner_cards |= h.required
    leader = _trick_leader(view)
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
        belief_in(view, partner, Sign.MORDIENNE, trust=trust, reliability=reliability) >= 0.5
        or any(s == partner and d is Declaration.MORDIENNE for s, d in view.declarations)
    )
    return PlaySituation(
        opponent_may_hold=_opponent_may_hold(view, knowledge, opp_may),
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


def _opponent_may_hold(
    view: PlayerView, knowledge: Knowledge, opp_may: frozenset[int],
) -> tuple[tuple[int, frozenset[int]], ...]:
    """Per opponent, the cards it may hold given the (certain) signs caught from the opponents:
    not the cards another seat signed, not those its own sign rules out. Empty when no opponent's
    sign is known (every opponent may hold any of ``opp_may``)."""
    team = view.ruleset.team_of(view.seat)
    opponents = [s for s in range(view.players) if view.ruleset.team_of(s) != team]
    known = dict(knowledge.holdings)
    if not any(s in known for s in opponents):
        return ()
    out = []
    for o in opponents:
        cards = set(opp_may)
        for s, h in knowledge.holdings:
            if s != o:
                cards -= h.required
        own = known.get(o)
        if own is not None:
            cards -= own.forbidden
            if own.aces == 0:
                cards -= {c for c in cards if LEVEL[c] == 9}
        out.append((o, frozenset(cards)))
    return tuple(out)
