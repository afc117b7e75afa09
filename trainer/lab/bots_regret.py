"""Where search loses to the oracle, decision by decision: the regret of a search bot's card.

Games between two heuristic teams (fast, seeded) give the positions; at every card a probed seat
must choose among two or more distinct strengths, each candidate bot (e.g. ``search:infer=0`` and
``search``) chooses from the seat's view, and the oracle's judgement — the same greedy playouts in
the one true world, ``rollouts`` per card — values every legal card. A bot's regret is the best
card's value minus its card's value (team points, mordienne 2). Candidates see the same view and
draw from the same seeded generator, so the difference of their regrets is paired, position by
position; the 95% interval is over positions. Far less noisy than games won: one game's result
mixes a few good or bad cards with the luck of the deal.

    nice -n 10 python -m trainer.lab.bots_regret "search:infer=0,max_ms=none" "search:max_ms=none" \
        --games 40 --seed 1 --out data/bots/regret.json

Imports the bots' modules; run on purpose, never imported by the app.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

from trainer.bots.arena import TeamSpec, mean_ci95
from trainer.bots.heuristic import HeuristicBot
from trainer.bots.knowledge import knowledge_of, public_play
from trainer.bots.playout import pimc_values
from trainer.bots.table import Table
from trainer.bots.worlds import Holding, Knowledge
from trainer.rules.actions import Phase
from trainer.rules.cards import STRENGTH


def true_values(view, hands, legal, rollouts: int, rng: random.Random) -> dict[int, float]:
    """The oracle's value of each legal card: greedy playouts in the true world."""
    seen = knowledge_of(view)
    held = tuple((s, Holding(required=frozenset(hands[s]))) for s in range(view.players) if s != view.seat)
    k = Knowledge(view.seat, seen.hand, seen.hand_sizes, seen.unseen, holdings=held)
    return pimc_values(k, public_play(view), legal, view.ruleset.team_of, rng,
                       worlds=rollouts, max_seconds=None).values


class Probe(HeuristicBot):
    """A heuristic seat that, at each real card choice, asks every candidate and the oracle."""

    sees_all = True

    def __init__(self, candidates, rollouts: int, rows: list, game: int) -> None:
        super().__init__()
        self.candidates = candidates
        self.rollouts = rollouts
        self.rows = rows
        self.game = game
        self._hands = None

    def reveal(self, hands) -> None:
        self._hands = hands

    def seated(self, seat, partner_policy, lying_allowed=False):
        super().seated(seat, partner_policy, lying_allowed)
        for bot in self.candidates:
            bot.seated(seat, partner_policy, lying_allowed)

    def choose(self, view, rng):
        if view.phase is Phase.PLAY and len({STRENGTH[c.index] for c in view.hand}) > 1:
            legal = sorted({STRENGTH[c.index]: c.index for c in view.hand}.values())
            key = f"{self.game}/{view.deal_number}/{len(view.tricks)}/{view.seat}"
            values = true_values(view, self._hands, legal, self.rollouts, random.Random(key + "/oracle"))
            best = max(values.values())
            regrets = []
            for bot in self.candidates:
                card = bot.choose(view, random.Random(key)).index
                strength = STRENGTH[card]
                chosen = next(c for c in legal if STRENGTH[c] == strength)
                regrets.append(best - values[chosen])
            self.rows.append({"key": key, "trick": len(view.tricks), "regrets": regrets})
        return super().choose(view, rng)


def run(specs: list[str], games: int, seed: int, rollouts: int, progress: bool = False,
        out: Path | None = None) -> dict:
    """Probe ``games`` games; with ``out``, the summary so far is written after every game (a run
    cut short keeps its figures)."""
    teams = [TeamSpec.parse(s) for s in specs]
    rows: list[dict] = []
    result: dict = {}
    for g in range(games):
        probes = [Probe([t.build() for t in teams], rollouts, rows, seed + g) for _ in range(2)]
        Table([probes[0], probes[1], HeuristicBot(), HeuristicBot()], seed=seed + g).play_out()
        result = summarise(specs, rows, g + 1, seed, rollouts)
        if out is not None:
            out.write_text(json.dumps(result, indent=1) + "\n")
        if progress:
            print(f"game {g + 1}/{games}: {len(rows)} positions, mean regret "
                  f"{result['mean_regret']}", file=sys.stderr, flush=True)
    return result


def mean_ci(xs: list[float]) -> list[float]:
    return [round(x, 5) for x in mean_ci95(xs)]


def summarise(specs, rows, games, seed, rollouts) -> dict:
    out = {"candidates": specs, "games": games, "seeds": [seed, seed + games - 1], "rollouts": rollouts,
           "positions": len(rows)}
    out["mean_regret"] = {s: mean_ci([r["regrets"][i] for r in rows]) for i, s in enumerate(specs)}
    out["best_card_share"] = {s: round(sum(r["regrets"][i] <= 1e-9 for r in rows) / max(1, len(rows)), 4)
                              for i, s in enumerate(specs)}
    by_trick: dict[int, list] = {}
    for r in rows:
        by_trick.setdefault(r["trick"], []).append(r)
    out["mean_regret_by_trick"] = {
        t: {"positions": len(rs), **{s: round(statistics.fmean(r["regrets"][i] for r in rs), 5)
                                     for i, s in enumerate(specs)}}
        for t, rs in sorted(by_trick.items())
    }
    if len(specs) >= 2:
        out["paired_diff_first_minus_last"] = mean_ci([r["regrets"][0] - r["regrets"][-1] for r in rows])
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m trainer.lab.bots_regret", description=__doc__.splitlines()[0])
    p.add_argument("candidates", nargs="+")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rollouts", type=int, default=64)
    p.add_argument("--out", type=Path)
    args = p.parse_args(argv)
    result = run(args.candidates, args.games, args.seed, args.rollouts, progress=True, out=args.out)
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
