"""What the play so far says about the hidden hands (inference beyond the signs).

Uniform worlds ignore what each seat's own cards told: a seat that played **last** to a trick its
opponents took, without beating or spoiling it, almost surely held no card that beats or equals the
winning one — every sensible player (the heuristic's rule 4 and its spoil rule, the rollouts'
greedy policy, a person) takes or spoils a trick it can when nobody plays after it. Cards are held
until played, so such a seat still holds none of the unseen cards at least that strong.

The exceptions are deliberate losses (a seat throwing the early tricks for a mordienne), so each
inference is a *soft* constraint (:class:`~trainer.bots.worlds.Knowledge` ``soft``), kept in a sampled
world with chance ``chance``: the worlds are weighted by how likely the play was in them instead of
counting every deal of the unseen cards alike.

Imports trainer.rules and the bots' own modules.
"""

from __future__ import annotations

from dataclasses import replace

from trainer.bots.worlds import Holding, Knowledge
from trainer.rules.cards import STRENGTH
from trainer.rules.views import PlayerView

PLAY_TRUST = 0.9
"""Chance that a seat which let its opponents take a trick as last to play could not beat it (the
rest: a deliberate loss; 95 % of such inferences held in heuristic self-play). The search bot's
``infer=`` option takes it; its default is off (0), as the inference did not lower the search's
regret against the oracle (docs/bots.md, "Search strength")."""


def could_not_beat(view: PlayerView) -> dict[int, int]:
    """Per seat (other than the viewer), the lowest strength it is inferred not to reach: it played
    last to a finished trick that an opponent of its took, unspoiled, with a card of that strength."""
    n = view.players
    rules = view.ruleset
    out: dict[int, int] = {}
    for t in view.tricks:
        if t.winner is None or len(t.cards) != n:
            continue
        last = (t.leader + n - 1) % n
        if last == view.seat or rules.team_of(last) == rules.team_of(t.winner):
            continue
        top = max(STRENGTH[c.index] for c in t.cards)
        out[last] = min(out.get(last, top), top)
    return out


def play_holdings(
    view: PlayerView, unseen: frozenset[int], known: dict[int, frozenset[int]] | None = None,
) -> tuple[tuple[int, Holding], ...]:
    """The inferences of :func:`could_not_beat` as constraints: no unseen card as strong or stronger.
    ``known``: cards each seat is certain to hold (its signs); a seat known to hold such a card lost
    the trick on purpose (a mordienne's early tricks), so nothing is inferred for it."""
    known = known or {}
    out = []
    for seat, top in sorted(could_not_beat(view).items()):
        if any(STRENGTH[c] >= top for c in known.get(seat, ())):
            continue
        strong = frozenset(c for c in unseen if STRENGTH[c] >= top)
        if strong:
            out.append((seat, Holding(forbidden=strong)))
    return tuple(out)


def with_play_inference(knowledge: Knowledge, view: PlayerView, chance: float = PLAY_TRUST) -> Knowledge:
    """``knowledge`` plus the play's inferences as soft constraints kept with ``chance`` per world
    (0: none). A world where they cannot all be met drops the soft constraints (``sample_hands``)."""
    if chance <= 0.0:
        return knowledge
    known: dict[int, frozenset[int]] = {}
    for seat, h in knowledge.holdings:
        known[seat] = known.get(seat, frozenset()) | h.required
    extra = play_holdings(view, knowledge.unseen, known)
    if not extra:
        return knowledge
    return replace(
        knowledge,
        soft=knowledge.soft + extra,
        soft_trust=knowledge.soft_chances + (min(1.0, chance),) * len(extra),
    )
