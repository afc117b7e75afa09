"""What a partner's camera must read for signing to pay: the value of signing per channel, and the
recall / false-read frontier, from per-game logs of ``python -m trainer.lab.bots_games``.

    python -m trainer.lab.signal_frontier data/signal_value/frontier_heuristic.jsonl \\
        --rows data/signal_value/camera_heuristic_camera.jsonl data/signal_value/camera_search_camera.jsonl \\
        --plot docs/signal_frontier.png --markdown

Each log holds games of ``TEAM:signs=true`` against ``TEAM:signs=false`` at vigilance 0, one line a
game and channel, the channels interleaved seed by seed. Per channel: the signing team's win-rate
difference (2p - 1, Wilson interval) and points margin per deal (normal interval), and the paired
difference against the perfect channel on the same seeds. The frontier: for each read share of the
grid, the false reads a minute at which the value of signing falls to zero (linear between the
measured rates; the interval's ends give its range). Each sign of the measured camera is placed
on the same plane as if every sign were read like it: its recall, and its false reads a minute
times the number of gestures of the convention.

Imports the bots' modules; run on purpose, never imported by the app.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from trainer.lab.bots_games import paired, read_lines, summary


def channel_rows(lines: list[dict]) -> list[dict]:
    """One row per (team, channel) of a log, in the log's order, with the paired difference to
    the perfect channel where the log has one."""
    groups: dict[tuple, list[dict]] = {}
    for line in lines:
        groups.setdefault((line["team_a"], line.get("channel", "perfect")), []).append(line)
    rows = []
    for (team, channel), games in groups.items():
        s = summary(games)
        p = s["win_rate_a"]
        lo, hi = s["ci95"]
        row = {"team": team, "channel": channel, "games": s["games"], "deals": s["deals"],
               "win_rate_signing": round(p, 4), "win_rate_difference": round(2 * p - 1, 4),
               "difference_ci95": [round(2 * lo - 1, 4), round(2 * hi - 1, 4)],
               "points_margin_per_deal": [round(x, 4) for x in s["points_margin_per_deal"]]}
        perfect = groups.get((team, "perfect"))
        if perfect is not None and channel != "perfect":
            d = paired(games, perfect)
            if "diff" in d:
                row["vs_perfect"] = {"games": d["games"], "difference": round(2 * d["diff"], 4),
                                     "ci95": [round(2 * d["ci95"][0], 4), round(2 * d["ci95"][1], 4)]}
        rows.append(row)
    return rows


def _rates(channel: str) -> tuple[float, float] | None:
    """(read share, false a minute) of a grid channel ``READ/FALSE`` (perfect: 1, 0)."""
    if channel == "perfect":
        return (1.0, 0.0)
    parts = channel.split("/")
    try:
        return (float(parts[0]), float(parts[1]) if len(parts) > 1 else 0.0) if len(parts) <= 2 else None
    except ValueError:
        return None


def frontier(rows: list[dict]) -> list[dict]:
    """Per read share of the grid: the false reads a minute where the win-rate difference crosses
    zero (None: never within the grid; ``below``/``above``: from the interval's upper/lower ends)."""
    by_read: dict[float, list[tuple[float, dict]]] = {}
    for r in rows:
        rates = _rates(r["channel"])
        if rates is not None:
            by_read.setdefault(rates[0], []).append((rates[1], r))
    out = []
    for read in sorted(by_read, reverse=True):
        points = sorted(by_read[read], key=lambda x: x[0])

        def crossing(value, points=points) -> float | None:
            for (f0, r0), (f1, r1) in zip(points, points[1:], strict=False):
                v0, v1 = value(r0), value(r1)
                if v0 > 0 >= v1:
                    return round(f0 + (f1 - f0) * v0 / (v0 - v1), 2)
            return 0.0 if points and value(points[0][1]) <= 0 else None

        out.append({
            "read": read, "false_rates": [f for f, _ in points],
            "edges": [r["win_rate_difference"] for _, r in points],
            "break_even_false_per_min": crossing(lambda r: r["win_rate_difference"]),
            "break_even_range": [crossing(lambda r: r["difference_ci95"][0]),
                                 crossing(lambda r: r["difference_ci95"][1])],
        })
    return out


def sign_points(figures: dict, gestures: int = 12) -> list[dict]:
    """The measured camera's signs on the frontier's plane (see the module docstring)."""
    from trainer.signals.conventions import CLASSIC
    from trainer.signals.signs import Sign  # noqa: F401  (names below come from the convention)

    out = []
    for gesture, sign in CLASSIC.pairs:
        f = figures["gestures"].get(gesture.value)
        if f is None or f.get("recall") is None:
            continue
        rate = f.get("false_per_min", 0.0)
        out.append({"sign": sign.value, "gesture": gesture.value, "recall": f["recall"],
                    "false_per_min": rate, "as_every_sign": round(rate * gestures, 3)})
    return out


def unchosen_signs(games: int, seed: int = 1, figures=None) -> dict:
    """How many of the measured camera's false reads the app would send as true signs: a silent
    heuristic team (it makes no sign, so every reading its partners get is a false read) plays
    ``games`` games through the camera with no check, with the app's truth check alone, and with
    the truth check and the minimum hold; per channel the readings delivered a deal and a minute of
    play (sign points × ``SECONDS_PER_SIGN_POINT``)."""
    from dataclasses import replace

    from trainer.bots.channel import SECONDS_PER_SIGN_POINT, NoisyChannel, measured_camera_figures
    from trainer.bots.heuristic import HeuristicBot
    from trainer.bots.table import Table
    from trainer.rules.ruleset import Ruleset
    from trainer.signals.table import split_confidence

    figures = figures or measured_camera_figures()
    channels = {
        "every false read": NoisyChannel.measured(figures),
        "truth check (lies off)": NoisyChannel.measured(replace(figures, min_hold_s=0.0), app_rule=True),
        f"truth check + hold {figures.min_hold_s:g} s": NoisyChannel.measured(figures, app_rule=True),
    }
    out = {}
    for name, channel in channels.items():
        reads = deals = points = 0
        for i in range(games):
            table = Table([HeuristicBot(signs=False) for _ in range(4)], ruleset=Ruleset(), seed=seed + i,
                          channel=channel, channel_team=0)
            table.play_out()
            reads += sum(1 for r in table.game.signals if split_confidence(r.message)[2] is not None)
            deals += len(table.game.results)
            points += table._points
        minutes = points * SECONDS_PER_SIGN_POINT / 60.0
        out[name] = {"false_per_min_per_person": round(channel.false_per_min, 3), "games": games, "deals": deals,
                     "sent_per_deal": round(reads / max(1, deals), 3),
                     "sent_per_min_per_person": round(reads / max(1e-9, 2 * minutes), 3)}
    return out


def markdown(rows: list[dict]) -> str:
    lines = [
        "| team | channel | games | signing team wins | win-rate difference (95% CI) | points margin per deal (95% CI) "
        "| against perfect, same seeds |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        d_lo, d_hi = r["difference_ci95"]
        m, mlo, mhi = r["points_margin_per_deal"]
        vs = r.get("vs_perfect")
        vs_text = ("—" if vs is None else
                   f"{100 * vs['difference']:+.1f} ({100 * vs['ci95'][0]:+.1f} to {100 * vs['ci95'][1]:+.1f})")
        lines.append(f"| {r['team']} | {r['channel']} | {r['games']} | {100 * r['win_rate_signing']:.1f}% | "
                     f"{100 * r['win_rate_difference']:+.1f} pts ({100 * d_lo:+.1f} to {100 * d_hi:+.1f}) | "
                     f"{m:+.3f} ({mlo:+.3f} to {mhi:+.3f}) | {vs_text} |")
    return "\n".join(lines)


def _draw_camera_rows(axes, camera_rows: list[dict]) -> None:
    """The measured camera, at its own total false reads a minute (the heuristic team's rows: the
    search team's are too few games to draw)."""
    from trainer.bots.channel import NoisyChannel

    for r in camera_rows:
        if r["channel"].startswith("camera") and r["team"].startswith("heuristic"):
            x = NoisyChannel.parse(r["channel"]).false_per_min
            y = 100 * r["win_rate_difference"]
            lo, hi = (100 * v for v in r["difference_ci95"])
            axes.errorbar([x], [y], yerr=[[y - lo], [hi - y]], marker="D", capsize=3, linestyle="none",
                          color="tab:red" if "app" not in r["channel"] else "tab:purple",
                          label=f"measured camera{' + app rule' if 'app' in r['channel'] else ''} "
                                f"({r['games']} games): {y:+.1f}")


def plot(grid_rows: list[dict], front: list[dict], signs: list[dict], camera_rows: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5))
    for f in front:
        pts = []
        for r in grid_rows:
            rates = _rates(r["channel"])
            if rates is not None and rates[0] == f["read"]:
                pts.append((rates[1], r))
        pts.sort(key=lambda x: x[0])
        xs = [x for x, _ in pts]
        ys = [100 * r["win_rate_difference"] for _, r in pts]
        lo = [100 * r["difference_ci95"][0] for _, r in pts]
        hi = [100 * r["difference_ci95"][1] for _, r in pts]
        below = [y - a for y, a in zip(ys, lo, strict=False)]
        above = [b - y for y, b in zip(ys, hi, strict=False)]
        left.errorbar(xs, ys, yerr=[below, above],
                      marker="o", capsize=3, label=f"{100 * f['read']:.0f} % of signs read")
    _draw_camera_rows(left, camera_rows)
    left.axhline(0, color="grey", linewidth=0.8)
    left.set_xlabel("false reads a minute (a random sign of the convention, never made)")
    left.set_ylabel("signing team's win rate − silent team's (points of %)")
    left.set_title("value of signing through a camera (heuristic team, vigilance 0)", fontsize=10)
    left.legend(fontsize=7)
    reads = [f["read"] for f in front]
    be = [f["break_even_false_per_min"] for f in front]
    xs = [b for b in be if b is not None]
    ys = [100 * r for r, b in zip(reads, be, strict=False) if b is not None]
    right.plot(xs, ys, "k-o", label="break-even: signing pays to the left")
    for f in front:
        a, b = f["break_even_range"]
        if a is not None and b is not None:
            right.plot([a, b], [100 * f["read"]] * 2, color="grey", linewidth=4, alpha=0.4)
    for s in signs:
        right.scatter([s["as_every_sign"]], [100 * s["recall"]], marker="s", color="tab:red", s=18)
        right.annotate(s["sign"], (s["as_every_sign"], 100 * s["recall"]), fontsize=7,
                       xytext=(3, 2), textcoords="offset points")
    right.set_xlabel("false reads a minute, all signs (a sign: its own rate × 12 gestures)")
    right.set_ylabel("share of signs read (recall, %)")
    right.set_title("break-even (point estimates) and each sign's measured figures", fontsize=10)
    right.set_xlim(left=-0.2)
    right.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m trainer.lab.signal_frontier", description=__doc__.split("\n")[0])
    p.add_argument("grid", type=Path, help="bots_games log of the READ/FALSE grid")
    p.add_argument("--rows", nargs="*", type=Path, default=[], help="bots_games logs of the camera rows")
    p.add_argument("--figures", type=Path, default=Path("trainer/bots/camera_figures.json"))
    p.add_argument("--channels", default=None, help="';'-separated grid channels to keep (default: all)")
    p.add_argument("--plot", type=Path)
    p.add_argument("--json", type=Path, help="write the rows, the frontier and the signs' points here")
    p.add_argument("--markdown", action="store_true")
    p.add_argument("--unchosen", type=int, default=0, metavar="GAMES",
                   help="also count the false reads the app would send as true signs, over GAMES games")
    args = p.parse_args(argv)
    if args.unchosen:
        print(json.dumps(unchosen_signs(args.unchosen), indent=1))
    lines = read_lines(args.grid)
    if args.channels:
        keep = set(args.channels.split(";"))
        lines = [x for x in lines if x.get("channel", "perfect") in keep]
    grid_rows = channel_rows(lines)
    # The camera rows' logs may split one team's channels over several files (played side by
    # side on the same seeds): read them together, so each channel pairs with that team's perfect one.
    camera_rows = channel_rows([line for path in args.rows for line in read_lines(path)])
    front = frontier(grid_rows)
    signs = sign_points(json.loads(args.figures.read_text(encoding="utf-8"))) if args.figures.is_file() else []
    if args.json:
        args.json.write_text(json.dumps({"grid": grid_rows, "camera": camera_rows, "frontier": front,
                                         "signs": signs}, indent=1) + "\n", encoding="utf-8")
    if args.plot:
        plot(grid_rows, front, signs, camera_rows, args.plot)
    if args.markdown:
        print(markdown(camera_rows + grid_rows))
        print()
        print("| read share | break-even false reads a minute (95% range) |\n|---|---|")
        for f in front:
            a, b = f["break_even_range"]
            print(f"| {100 * f['read']:.0f} % | {f['break_even_false_per_min']} ({a} to {b}) |")
    else:
        json.dump({"camera": camera_rows, "frontier": front}, sys.stdout, indent=1)
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
