"""Games per second of the arena at 1 and 2 local workers and on Ray, with the same figures each.

    nice -n 10 python -m trainer.lab.bots_scale --games 40 --seed 1 [--team heuristic] [--ray] [--runs local:1,ray:2]

Prints one line per backend: wall time, games/s, CPU time of this process and the load average,
and checks that every backend's per-game records equal the serial run's (decision times aside).

Run on purpose, never imported by the app.
"""

from __future__ import annotations

import argparse
import os
import time
from dataclasses import replace

from trainer.bots.arena import GameTask, TeamSpec, game_seed, run_tasks
from trainer.rules.ruleset import Ruleset
from trainer.signals.table import Vigilance


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m trainer.lab.bots_scale", description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--team", default="heuristic")
    p.add_argument("--ray", action="store_true", help="also on a local Ray instance with 2 CPUs")
    p.add_argument("--runs", default=None, help="BACKEND:WORKERS list instead, e.g. 'local:1,ray:2' "
                   "(the first is the reference the others are compared with)")
    args = p.parse_args(argv)
    spec = TeamSpec.parse(args.team)
    tasks = [GameTask(spec, spec, i, game_seed(args.seed, i), Ruleset(), Vigilance()) for i in range(args.games)]
    runs = [("local", 1), ("local", 2)] + ([("ray", 2)] if args.ray else [])
    if args.runs:
        runs = [(b, int(w)) for b, _, w in (item.partition(":") for item in args.runs.split(","))]
    reference = None
    for backend, workers in runs:
        start = time.perf_counter()
        records = [replace(r, times_a=(), times_b=()) for r in run_tasks(tasks, workers, backend)]
        wall = time.perf_counter() - start
        same = reference is None or records == reference
        reference = reference or records
        print(f"{backend} workers={workers}: {args.games} games of {spec} in {wall:.1f} s = "
              f"{args.games / wall:.2f} games/s; load average {os.getloadavg()[0]:.1f}; "
              f"records {'identical to serial' if same else 'DIFFER from serial'}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
