"""Command-line sub-commands of trainer.rules: ``aluette replay FILE`` and ``aluette bench engine``.

Keep imports here light: the engine modules are imported inside the handlers.
"""

from __future__ import annotations

import sys


def add_commands(subparsers) -> None:
    """Register ``replay``."""
    replay = subparsers.add_parser(
        "replay",
        help="replay one deal from given hands and plays; prints the tricks and result as JSON",
        description=(
            'FILE is JSON: {"preset": "vendee", "dealer": 0, "hands": [[9 codes] x 4], "plays": '
            '["AD", ...]}. Prints one JSON object with "tricks", "tricks_won" and, for a finished '
            'deal, "deal_winner", "team", "points", "mordienne" (else "next_leader").'
        ),
    )
    replay.add_argument("file", metavar="FILE", help="the replay JSON file")
    replay.set_defaults(run=_run_replay)


def add_bench_commands(bench_subparsers) -> None:
    """Register ``bench engine``."""
    engine = bench_subparsers.add_parser(
        "engine", help="random full deals per second through FastDeal (legal_actions, apply)"
    )
    engine.add_argument("--deals", type=int, default=30000, help="deals to play (default 30000)")
    engine.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    engine.add_argument("--players", type=int, choices=(3, 4, 6), default=4)
    engine.set_defaults(run=_run_bench)


def _run_replay(args) -> int:
    import json

    from trainer.rules.replay import ReplayError, replay_file

    try:
        result = replay_file(args.file)
    except ReplayError as error:
        print(f"aluette replay: error: {error}", file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0


def _run_bench(args) -> int:
    from trainer.rules.bench import bench_engine

    if args.deals < 1:
        print("aluette bench engine: error: --deals must be at least 1", file=sys.stderr)
        return 2
    report = bench_engine(args.deals, seed=args.seed, players=args.players)
    for line in report.lines():
        print(line)
    return 0
