"""Command-line sub-commands of trainer.bots: ``aluette arena``. Keep imports here light: heavy ones
go in handlers (the arena imports the engine and the bots only when it runs)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: the handlers import what they run
    import random

    from trainer.bots.arena import MatchResult
    from trainer.bots.base import Bot, SignIntent
    from trainer.bots.signing import SignPolicy
    from trainer.rules.actions import Action
    from trainer.rules.views import PlayerView


def add_commands(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``arena`` and ``signal-value``."""
    _add_arena(subparsers)
    _add_signal_value(subparsers)


def _add_arena(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    arena = subparsers.add_parser(
        "arena",
        help="play full games between two teams of bots and report win rate, points, timing",
        description=(
            "Play GAMES full games between TEAM_A and TEAM_B (sides alternate; game i uses seed S+i). "
            "A team is a bot name with optional options: random, heuristic, search, "
            "'search:worlds=32,max_ms=40', 'heuristic:signs=false'."
        ),
    )
    arena.add_argument("team_a", metavar="TEAM_A")
    arena.add_argument("team_b", metavar="TEAM_B")
    arena.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    arena.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    arena.add_argument("--preset", default="vendee", help="ruleset preset: vendee (default), pagat, english")
    arena.add_argument("--json", action="store_true", help="print one JSON object instead of the text report")
    arena.add_argument(
        "--vigilance", default="0.25",
        help="chance that an opponent catches an open sign: 0..1 or blind/casual/normal/sharp/hawk (default 0.25)",
    )
    arena.add_argument("--lies", action="store_true", help="allow lying signs (bots then weigh signs as likelihoods)")
    arena.add_argument("--no-signs-a", action="store_true", help="team A makes no signs")
    arena.add_argument("--no-signs-b", action="store_true", help="team B makes no signs")
    arena.add_argument("--progress", action="store_true", help="print a line per 10 games to stderr")
    arena.add_argument("--workers", type=int, default=1,
                       help="spread the games over N local processes (same results as one; default 1)")
    arena.add_argument("--backend", choices=("local", "ray"), default="local",
                       help="where the games run: local processes (default) or Ray (the [cluster] "
                       "extra; RAY_ADDRESS names a cluster, else a local Ray instance with --workers CPUs)")
    arena.add_argument("--channel", default=None, metavar="READ/FALSE_PER_MIN[/DELAY_S]",
                       help="team A's partners read each other's signs through a noisy camera, e.g. 0.9/1 "
                       "(90%% read, one false sign a minute) or 0.7/3/5 (5 s late); camera: the recognizer's "
                       "measured figures per gesture; +app after either: the app's truth check and minimum "
                       "hold on the false reads (camera+app)")
    arena.add_argument(
        "--clock", choices=("wall", "cpu"), default="wall",
        help="time decisions by the wall clock (default) or by this process's CPU time (one core, "
        "unaffected by other work on a busy machine)",
    )
    arena.set_defaults(run=_run_arena)


def _add_signal_value(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    value = subparsers.add_parser(
        "signal-value",
        help="measure the value of signing: a team with signs against itself without, per vigilance",
    )
    value.add_argument("--team", default="search", help="the bot team (default search)")
    value.add_argument("--games", type=int, default=100, help="games per vigilance level (default 100)")
    value.add_argument("--seed", type=int, default=0)
    value.add_argument("--preset", default="vendee")
    value.add_argument("--levels", default="0,0.25,0.5,1", help="vigilance levels, comma-separated")
    value.add_argument("--discreet-factor", type=float, default=0.3,
                       help="discreet signs are caught this many times as often (default 0.3)")
    value.add_argument("--out", default=None, help="write the JSON table here")
    value.add_argument("--plot", default=None, help="write the plot (PNG) here; needs matplotlib")
    value.add_argument("--progress", action="store_true")
    value.add_argument("--workers", type=int, default=1, help="local processes (same results as one)")
    value.add_argument("--backend", choices=("local", "ray"), default="local",
                       help="local processes (default) or Ray (the [cluster] extra)")
    value.add_argument("--channels", default=None, metavar="LIST",
                       help="noisy channels between the signing partners, ';'-separated, e.g. "
                       "'perfect;0.9/1;0.7/3;camera;camera+app' (a row per channel and vigilance level)")
    value.add_argument("--timed", action="store_true",
                       help="a timed signer (signs only when no opponent looks) against an open one, both "
                       "signing, the opponents' eyes catching by the moment (trainer.signals.watching)")
    value.set_defaults(run=_run_signal_value)


def _run_arena(args: argparse.Namespace) -> int:
    from trainer.bots.arena import TeamSpec, format_report, play_match
    from trainer.bots.base import BotError
    from trainer.rules.ruleset import Ruleset
    from trainer.signals.table import Vigilance

    if args.games < 1:
        raise BotError(f"--games must be at least 1, got {args.games}")
    ruleset = Ruleset.preset(args.preset)
    vigilance = Vigilance.parse(args.vigilance)
    spec_a = TeamSpec.parse(args.team_a)
    spec_b = TeamSpec.parse(args.team_b)
    if args.no_signs_a:
        spec_a = spec_a.with_options(signs=False)
    if args.no_signs_b:
        spec_b = spec_b.with_options(signs=False)

    def progress(result: MatchResult) -> None:
        if args.progress and result.games % 10 == 0:
            m, lo, hi = result.points_margin
            print(f"{result.games} games: A {result.wins_a} B {result.wins_b} draws {result.draws}; "
                  f"{result.deals} deals, margin A-B {m:+.3f} ({lo:+.3f} to {hi:+.3f})",
                  file=sys.stderr, flush=True)

    import time

    channel = None
    if args.channel:
        from trainer.bots.channel import NoisyChannel

        try:
            channel = NoisyChannel.parse(args.channel)
        except ValueError as error:
            raise BotError(str(error)) from None
    result = play_match(
        spec_a, spec_b, games=args.games, seed=args.seed, ruleset=ruleset, vigilance=vigilance,
        lying_allowed=args.lies, progress=progress,
        clock=time.process_time if args.clock == "cpu" else time.perf_counter,
        workers=args.workers, channel=channel, backend=args.backend,
    )
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(format_report(result))
    return 0


def _run_signal_value(args: argparse.Namespace) -> int:
    from pathlib import Path

    from trainer.bots.arena import TeamSpec
    from trainer.bots.signal_value import markdown, measure, write_outputs
    from trainer.rules.ruleset import Ruleset

    levels = [float(x) for x in args.levels.split(",") if x.strip()]
    team = TeamSpec.parse(args.team)

    def progress(level: float, result: MatchResult) -> None:
        if args.progress and result.games % 10 == 0:
            print(f"vigilance {level:g}: {result.games} games, signing team {result.wins_a} wins",
                  file=sys.stderr, flush=True)

    from trainer.bots.base import BotError
    from trainer.bots.channel import NoisyChannel

    try:
        channels = [NoisyChannel.parse(c) for c in args.channels.split(";")] if args.channels else []
    except ValueError as error:
        raise BotError(str(error)) from None
    rows = measure(team, levels, games=args.games, seed=args.seed, ruleset=Ruleset.preset(args.preset),
                   discreet_factor=args.discreet_factor, progress=progress, workers=args.workers,
                   channels=channels, timed=args.timed, backend=args.backend)
    print(markdown(rows))
    if args.out:
        meta = {"team": str(team), "games": args.games, "seed": args.seed, "preset": args.preset,
                "discreet_factor": args.discreet_factor, "workers": args.workers,
                "compare": "timed vs open signer" if args.timed else "signs vs none"}
        write_outputs(rows, meta, Path(args.out), Path(args.plot) if args.plot else None)
    return 0


def add_bench_commands(bench_subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    bench = bench_subparsers.add_parser(
        "bots", help="decision time of a bot (default search) in self-play, CPU and wall clock",
    )
    bench.add_argument("--bot", default="search", help="bot (with options), e.g. 'search:worlds=64'")
    bench.add_argument("--games", type=int, default=3)
    bench.add_argument("--seed", type=int, default=0)
    bench.set_defaults(run=_run_bench)


def _run_bench(args: argparse.Namespace) -> int:
    import statistics

    from trainer.bots.arena import TeamSpec, percentile
    from trainer.bots.table import Table

    spec = TeamSpec.parse(args.bot)
    cpu: list[float] = []
    wall: list[float] = []
    for g in range(args.games):
        bots = [spec.build() for _ in range(4)]
        timed = [_Timed(b, cpu, wall) for b in bots]
        Table(timed, seed=args.seed + g).play_out()
    print(f"{spec}: {len(cpu)} decisions over {args.games} self-play games")
    for name, values in (("cpu", cpu), ("wall", wall)):
        print(f"{name:4s} median {1000 * statistics.median(values):.2f} ms  "
              f"p99 {1000 * percentile(values, 0.99):.2f} ms  max {1000 * max(values):.2f} ms")
    print(f"{1000 * statistics.median(cpu):.2f} ms median decision (cpu)")
    return 0


class _Timed:
    """A bot wrapper that records each decision's CPU and wall time."""

    def __init__(self, bot: Bot, cpu: list[float], wall: list[float]) -> None:
        import time

        self.bot, self.cpu, self.wall, self._time = bot, cpu, wall, time
        self.name = bot.name
        self.policy = getattr(bot, "policy", None)
        self.signs_enabled = getattr(bot, "signs_enabled", True)

    def seated(self, seat: int, partner_policy: SignPolicy | None, lying_allowed: bool = False) -> None:
        self.bot.seated(seat, partner_policy, lying_allowed)

    def signals(self, view: PlayerView, rng: random.Random) -> list[SignIntent]:
        return self.bot.signals(view, rng)

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        c0, w0 = self._time.process_time(), self._time.perf_counter()
        action = self.bot.choose(view, rng)
        self.cpu.append(self._time.process_time() - c0)
        self.wall.append(self._time.perf_counter() - w0)
        return action
