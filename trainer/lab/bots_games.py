"""Per-game logs of seeded arena matches, for paired comparisons (oracle vs search vs heuristic).

The arena prints totals; comparing two bots on the *same* games (which games the oracle wins and
search loses) needs each game's outcome. This plays the arena's games (``arena.run_tasks``, the
same seeds and seats as ``aluette arena``) and appends one JSON line per game to a file, in game
order, so a run cut short keeps every finished game and a second run resumes after the last one.

    nice -n 10 python -m trainer.lab.bots_games oracle heuristic --games 1000 --seed 1 \
        --workers 2 --out data/bots_games/oracle_vs_heuristic.jsonl
    python -m trainer.lab.bots_games --summary data/bots_games/*.jsonl

Several matches in one run (``--also A B`` adds a pair; ``--channels`` a noisy channel between team
A's partners per match) are interleaved seed by seed, so when the run is cut short every match has
played the same seeds.

Imports the bots' modules; run on purpose, never imported by the app.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from trainer.bots.arena import GameRecord, GameTask, TeamSpec, game_seed, mean_ci95, percentile, run_tasks, wilson
from trainer.rules.ruleset import Ruleset
from trainer.signals.table import Vigilance


def record_line(spec_a: str, spec_b: str, record: GameRecord, seed: int, channel: str = "perfect",
                vigilance: float = 0.25) -> dict:
    """One game's figures as a JSON object (team A's side)."""
    return {
        "team_a": spec_a, "team_b": spec_b, "channel": channel, "vigilance": vigilance,
        "index": record.index, "seed": seed,
        "outcome": record.outcome, "margin_a": record.margin_a,
        "deal_margins": [d.points_a - d.points_b for d in record.deals],
        "times_a_ms": [round(1000 * t, 3) for t in record.times_a],
    }


def read_lines(path: Path) -> list[dict]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        if line.strip():
            out.append(json.loads(line))
    return out


def _key(line: dict) -> tuple:
    return (line["team_a"], line["team_b"], line.get("channel", "perfect"), line.get("vigilance", 0.25))


def play(team_a: str, team_b: str, *, games: int, seed: int, out: Path, workers: int = 1,
         preset: str = "vendee", vigilance: str = "normal", cpu_clock: bool = True,
         also: Sequence[tuple[str, str]] = (), channels: Sequence[str] = ("perfect",)) -> None:
    """Play games ``seed .. seed+games-1`` of every match (``team_a`` vs ``team_b``, the ``also``
    pairs, each through every channel), interleaved seed by seed, skipping the games already in
    ``out``, and append a line each."""
    from trainer.bots.channel import NoisyChannel

    pairs = [(TeamSpec.parse(a), TeamSpec.parse(b)) for a, b in [(team_a, team_b), *also]]
    chans = [NoisyChannel.parse(c) for c in channels]
    ruleset = Ruleset.preset(preset)
    vig = Vigilance.parse(vigilance)
    done = {(*_key(line), line["index"]) for line in read_lines(out) if line["seed"] - line["index"] == seed}
    clock = time.process_time if cpu_clock else None
    tasks, labels = [], []
    for i in range(games):
        for a, b in pairs:
            for name, ch in zip(channels, chans, strict=False):
                if (str(a), str(b), name, vig.catch, i) in done:
                    continue
                tasks.append(GameTask(a, b, i, game_seed(seed, i), ruleset, vig, False, clock,
                                      None if ch.perfect else ch))
                labels.append((str(a), str(b), name))
    out.parent.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    with out.open("a") as f:
        for k, (record, (name_a, name_b, name)) in enumerate(zip(run_tasks(tasks, workers), labels, strict=False), 1):
            f.write(json.dumps(record_line(name_a, name_b, record, record.index + seed, name, vig.catch)) + "\n")
            f.flush()
            if k % 10 == 0:
                print(f"{out.name}: {k}/{len(tasks)} games, {time.perf_counter() - start:.0f} s",
                      file=sys.stderr, flush=True)


def merge_logs(parts: list[Path], out: Path, seed: int) -> int:
    """Fold logs played from later master seeds into ``out`` as if one run seeded ``seed`` had
    played them: each line re-indexed to ``seed_of_game - seed``, one line per match and seed,
    in seed order. Valid only for parts started at an even offset from ``seed`` (a game depends on
    its seed and on its index's parity: which side sits first). Returns the lines written."""
    lines: dict[tuple, dict] = {}
    for path in [out, *parts]:
        for line in read_lines(path):
            offset = line["seed"] - line["index"] - seed
            if offset % 2:
                raise ValueError(
                    f"{path}: game of seed {line['seed']} was played at index {line['index']}, an odd "
                    f"offset from master seed {seed}: its sides are swapped, so it is not a game of that "
                    f"run; replay that part with --seed {seed} + an even number")
            line = dict(line, index=line["seed"] - seed)
            lines.setdefault((*_key(line), line["seed"]), line)
    ordered = sorted(lines.values(), key=lambda x: x["seed"])  # stable: a seed's matches keep their order
    tmp = out.with_suffix(out.suffix + ".tmp")
    tmp.write_text("".join(json.dumps(x) + "\n" for x in ordered))
    tmp.replace(out)
    return len(ordered)


def summary(lines: list[dict]) -> dict:
    """Win rate (draw half) with its Wilson interval, points margin per deal with a normal interval."""
    n = len(lines)
    wins = sum(1 for x in lines if x["outcome"] > 0) + 0.5 * sum(1 for x in lines if x["outcome"] == 0)
    lo, hi = wilson(wins, n)
    deals = [m for x in lines for m in x["deal_margins"]]
    times = sorted(t for x in lines for t in x["times_a_ms"])
    return {
        "games": n, "win_rate_a": wins / n if n else 0.0, "ci95": [lo, hi],
        "deals": len(deals), "points_margin_per_deal": list(mean_ci95(deals)) if deals else [0.0, 0.0, 0.0],
        "decision_ms_a": {"median": times[len(times) // 2] if times else 0.0, "p99": percentile(times, 0.99)},
    }


def paired(x: list[dict], y: list[dict]) -> dict:
    """Two teams against the same opponent on the same seeds: the win-rate difference (x - y) with
    a 95% interval from the per-game paired differences, and the games each wins alone."""
    pairs = _common_pairs(x, y)
    n = len(pairs)
    if n < 2:
        return {"games": n}
    mean, low, high = mean_ci95([score(a) - score(b) for a, b in pairs])
    return {
        "games": n, "diff": mean, "ci95": [low, high],
        "only_x_wins": [a["seed"] for a, b in pairs if score(a) > score(b)],
        "only_y_wins": [a["seed"] for a, b in pairs if score(a) < score(b)],
    }


def score(line: dict) -> float:
    """A game's result for team A: 1 won, 0.5 drawn, 0 lost."""
    return 1.0 if line["outcome"] > 0 else (0.5 if line["outcome"] == 0 else 0.0)


def _common_pairs(x: list[dict], y: list[dict]) -> list[tuple[dict, dict]]:
    by_seed = {line["seed"]: line for line in y}
    return [(a, by_seed[a["seed"]]) for a in x if a["seed"] in by_seed]


def edge_share(bound: list[dict], bot: list[dict], *, resamples: int = 4000, seed: int = 0) -> dict:
    """The share of ``bound``'s edge over a coin toss that ``bot`` captures, both against the same
    opponent on the same seeds: (win rate of bot - 1/2) / (win rate of bound - 1/2).

    Its 95% interval resamples whole seeds (both bots' games of a seed together), so it carries the
    pairing and the bound's own uncertainty, which a ratio of two Wilson intervals would not.
    ``low_fixed_bound`` is the simpler lower end that takes the bound's edge as exact:
    1 - (upper end of the paired difference) / edge."""
    import random

    pairs = _common_pairs(bound, bot)
    n = len(pairs)
    if n < 2:
        return {"games": n}
    sb = [score(a) for a, _ in pairs]
    sy = [score(b) for _, b in pairs]

    def ratio(ix) -> float:
        eb = sum(sb[i] for i in ix) / len(ix) - 0.5
        ey = sum(sy[i] for i in ix) / len(ix) - 0.5
        return ey / eb if eb > 0 else float("nan")

    rng = random.Random(seed)
    draws = sorted(r for r in (ratio([rng.randrange(n) for _ in range(n)]) for _ in range(resamples))
                   if not math.isnan(r))
    est = ratio(range(n))
    pair = paired(bound, bot)
    edge = statistics.fmean(sb) - 0.5
    low_fixed = 1 - pair["ci95"][1] / edge if edge > 0 else float("nan")
    lo = draws[int(0.025 * len(draws))] if draws else float("nan")
    hi = draws[min(len(draws) - 1, int(0.975 * len(draws)))] if draws else float("nan")
    return {"games": n, "share": est, "ci95": [lo, hi], "low_fixed_bound": low_fixed,
            "edge_bound": edge, "edge_bot": statistics.fmean(sy) - 0.5}


def paired_margin(x: list[dict], y: list[dict]) -> dict:
    """Points margin per deal, x - y, paired by seed: each seed's mean deal margin for x minus y's,
    with a 95% interval over seeds (more sensitive than games won when both win most games)."""
    pairs = _common_pairs(x, y)
    n = len(pairs)
    if n < 2:
        return {"games": n}
    def per(line: dict) -> float:
        return statistics.fmean(line["deal_margins"]) if line["deal_margins"] else 0.0

    mean, low, high = mean_ci95([per(a) - per(b) for a, b in pairs])
    return {"games": n, "diff": mean, "ci95": [low, high]}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m trainer.lab.bots_games", description=__doc__.splitlines()[0])
    p.add_argument("team_a", nargs="?")
    p.add_argument("team_b", nargs="?")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--preset", default="vendee")
    p.add_argument("--vigilance", default="normal")
    p.add_argument("--out", type=Path)
    p.add_argument("--also", nargs=2, action="append", default=[], metavar=("A", "B"),
                   help="another match, interleaved seed by seed")
    p.add_argument("--channels", default="perfect", help="';'-separated noisy channels (team A's partners)")
    p.add_argument("--summary", nargs="*", type=Path, help="print each file's figures instead of playing")
    p.add_argument("--merge", nargs="+", type=Path, metavar="PART",
                   help="fold these logs (started at --seed + an even offset) into --out, re-indexed to --seed")
    args = p.parse_args(argv)
    if args.merge:
        if not args.out:
            p.error("--merge needs --out (the log to fold the parts into)")
        try:
            n = merge_logs(args.merge, args.out, args.seed)
        except ValueError as error:
            p.error(str(error))
        print(f"{args.out}: {n} games")
        return 0
    if args.summary:
        for path in args.summary:
            groups: dict[tuple, list[dict]] = {}
            for line in read_lines(path):
                groups.setdefault(_key(line), []).append(line)
            for key, lines in groups.items():
                print(path.name, " | ".join(map(str, key)), json.dumps(summary(lines)))
        return 0
    if not (args.team_a and args.team_b and args.out):
        p.error("give TEAM_A TEAM_B and --out (or --summary FILES)")
    play(args.team_a, args.team_b, games=args.games, seed=args.seed, out=args.out,
         workers=args.workers, preset=args.preset, vigilance=args.vigilance,
         also=[tuple(p) for p in args.also], channels=args.channels.split(";"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
