"""The lab's engine commands: ``aluette bench engine`` (random full deals per second through the
playout API) and ``aluette bench game`` (milliseconds per random game through the Game API). Run on
purpose to measure the engine; never imported by the app. Imports stay light here as in every
command module: the benchmark is imported inside the handler.
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
    game = bench_subparsers.add_parser(
        "game", help="CPU milliseconds per random full game through the public Game API (apply, legal_actions)"
    )
    game.add_argument("--games", type=int, default=300, help="games per round (default 300)")
    game.add_argument("--rounds", type=int, default=5, help="rounds (default 5; the best is reported)")
    game.add_argument("--preset", default="vendee", help="ruleset preset (default vendee)")
    game.set_defaults(run=_run_game_bench)


def _run_bench(args) -> int:
    from trainer.lab.engine_bench import bench_engine

    if args.deals < 1:
        print("aluette bench engine: error: --deals must be at least 1", file=sys.stderr)
        return 2
    report = bench_engine(args.deals, seed=args.seed, players=args.players)
    for line in report.lines():
        print(line)
    return 0


def _run_game_bench(args) -> int:
    from trainer.lab.engine_bench import bench_game_api
    from trainer.rules.ruleset import PRESETS

    if args.games < 1 or args.rounds < 1:
        print("aluette bench game: error: --games and --rounds must be at least 1", file=sys.stderr)
        return 2
    if args.preset not in PRESETS:
        print(f"aluette bench game: error: unknown preset {args.preset!r}: choose one of {', '.join(PRESETS)}",
              file=sys.stderr)
        return 2
    for line in bench_game_api(args.games, preset=args.preset, rounds=args.rounds).lines():
        print(line)
    return 0


if __name__ == "__main__":
    from trainer.lab.tool import commands_main

    raise SystemExit(commands_main("engine_cli"))
