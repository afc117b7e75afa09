"""Information-set Monte Carlo tree search (single-observer ISMCTS), one answer to PIMC's strategy fusion.

PIMC (:mod:`trainer.bots.search`) solves each sampled world on its own, as if the seat would know
the hidden cards for the rest of the deal: it may prefer a card that is good in every world only
because a *different* later move is right in each world (strategy fusion). ISMCTS (Cowling,
Powley & Whitehouse 2012; OpenSpiel's ``algorithms/ismcts.py`` is a reference implementation) grows
one tree whose nodes are keyed by what the searching seat knows — here the public sequence of cards
played since the decision, since card play is public — and draws a new world at each iteration:

1. *determinize*: sample a world consistent with the seat's knowledge (signs included,
   :func:`trainer.bots.worlds.sample_hands`);
2. *select*: from the root, among the children whose card the player to move holds in this world,
   take the best by UCB1, where each child's exploration term counts how often it was *available*
   (not how often its parent was visited) — the "availability" correction of ISMCTS;
3. *expand* one untried card the mover holds, then *roll out* to the end of the deal with the
   greedy policy of :mod:`trainer.bots.playout`;
4. *back up* the result, each node scored for the team that chose it.

The seat's own later decisions are thus shared across worlds (one node per information set), which
is what PIMC lacks. The card played is the root child visited most. Same budget as ``search``
(``max_ms`` of CPU time, ``worlds`` iterations at most).

Imports trainer.rules and the bots' own modules only.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

from trainer.bots.playout import Policy, PublicPlay, SearchResult, greedy_card, play_out, team_value
from trainer.bots.worlds import Knowledge, sample_hands
from trainer.rules.cards import STRENGTH
from trainer.rules.fastdeal import FastDeal


class _Node:
    __slots__ = ("children", "visits", "total", "avail")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0


def _key(card: int) -> int:
    """Cards of equal strength are one choice (they play identically)."""
    return STRENGTH[card]


def ismcts_values(
    knowledge: Knowledge,
    public: PublicPlay,
    legal: Sequence[int],
    team_of: Callable[[int], int],
    rng: random.Random,
    *,
    iterations: int = 2000,
    max_seconds: float | None = 0.06,
    exploration: float = 0.7,
    policy: Policy = greedy_card,
    clock: Callable[[], float] = time.process_time,
) -> SearchResult:
    """Run ISMCTS from the seat's decision; ``values`` are the root children's visit shares
    (the most visited card is played), ``worlds`` the iterations run."""
    root = _Node()
    # Points are in -2..2 (mordienne 2): UCB's exploration is scaled to that range.
    c = exploration * 2.0
    start = clock()
    done = 0
    legal_keys = {_key(card): card for card in legal}
    while done < iterations:
        deal = public.resume(sample_hands(knowledge, rng))
        path = _descend(root, deal, legal_keys, team_of, rng, c)
        # Rollout and back-up.
        if deal.to_move >= 0:
            play_out(deal, policy, rng)
        scores = {t: team_value(deal, team_of, t, public.points_scale) for t in {t for _, t in path}}
        for n, t in path:
            n.visits += 1
            n.total += scores[t]
        root.visits += 1
        done += 1
        if max_seconds is not None and clock() - start > max_seconds:
            break
    total = max(1, sum(ch.visits for ch in root.children.values()))
    values = {}
    for card in legal:
        child = root.children.get(_key(card))
        values[card] = (child.visits / total) if child is not None else 0.0
    return SearchResult(values, done, done)


def _descend(
    root: _Node, deal: FastDeal, legal_keys: dict[int, int], team_of: Callable[[int], int],
    rng: random.Random, c: float,
) -> list[tuple[_Node, int]]:
    """Selection and expansion in one sampled world: play down the tree by UCB until a move never
    tried (added as a new node) or the deal's end; the path as (node, team that chose the move into it)."""
    node = root
    path: list[tuple[_Node, int]] = []
    while deal.to_move >= 0:
        mover = deal.to_move
        options: dict[int, int] = {}
        for card in deal.hands[mover]:
            options.setdefault(_key(card), card)
        if node is root:
            options = {k: v for k, v in legal_keys.items() if k in options} or options
        untried = [k for k in options if k not in node.children]
        for k in options:
            child = node.children.get(k)
            if child is not None:
                child.avail += 1
        if untried:
            k = untried[int(rng.random() * len(untried))]
            child = _Node()
            child.avail = 1
            node.children[k] = child
            deal.apply(options[k])
            path.append((child, team_of(mover)))
            return path
        best_k = _best_key(node, options, c)
        deal.apply(options[best_k])
        node = node.children[best_k]
        path.append((node, team_of(mover)))
    return path


def _best_key(node: _Node, options: dict[int, int], c: float) -> int:
    """The tried option with the highest UCB (visits counted over the worlds where it was available)."""
    best_k, best_u = -1, -math.inf
    for k in options:
        ch = node.children[k]
        u = ch.total / ch.visits + c * math.sqrt(math.log(max(1, ch.avail)) / ch.visits)
        if u > best_u:
            best_k, best_u = k, u
    return best_k
