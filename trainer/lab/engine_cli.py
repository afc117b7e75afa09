"""The lab's engine command: ``aluette bench engine`` (random full deals per second through the
playout API). Run on purpose to measure the engine; never imported by the app. Imports stay light
here as in every command module: the benchmark is imported inside the handler.
"""

from __future__ import annotations

import sys


def add_bench_commands(bench_subparsers) -> None:
    """Register ``bench engine``."""
    engine = bench_subparsers.add_parser(
        "engine", help="random full deals per second through FastDeal (legal_actions, apply)"
    )
    engine.add_argument("--deals", type=int, default=30000, help="deals to play (default 30000)")
    engine.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    engine.add_argument("--players", type=int, choices=(3, 4, 6), default=4)
    engine.set_defaults(run=_run_bench)


def _run_bench(args) -> int:
    from trainer.lab.engine_bench import bench_engine

    if args.deals < 1:
        print("aluette bench engine: error: --deals must be at least 1", file=sys.stderr)
        return 2
    report = bench_engine(args.deals, seed=args.seed, players=args.players)
    for line in report.lines():
        print(line)
    return 0
