"""Tables and plots for docs/bots.md from the per-game logs of :mod:`trainer.lab.bots_games`.

    python -m trainer.lab.bots_report data/bots_games --out data/bots/report_1000_seeds.json \
        --plots docs/bots_strength_time.png docs/bots_channel_search.png

Prints Markdown tables: the oracle / search comparison on the seeds both played (with the paired
difference and the share of the oracle's edge), strength against CPU time per card, the search
team's noisy-channel curve and the relative announcements. Figures are over the games each log
holds (a run cut short counts the seeds it finished, stated in each row).

Run on purpose, never imported by the app.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

from trainer.lab.bots_games import edge_share, paired, paired_margin, read_lines, summary


def _margin(m) -> str:
    """A points margin per deal and its 95 % interval."""
    return f"{m[0]:+.3f} ({m[1]:+.3f} to {m[2]:+.3f})"


def _decision_ms(summary_row: dict) -> str:
    """Side A's median and 99th-percentile decision time."""
    return f"{summary_row['decision_ms_a']['median']:.1f} / {summary_row['decision_ms_a']['p99']:.1f}"


def _groups(path: Path) -> dict[tuple, list[dict]]:
    out: dict[tuple, list[dict]] = {}
    for line in read_lines(path):
        key = (line["team_a"], line["team_b"], line.get("channel", "perfect"), line.get("vigilance", 0.25))
        out.setdefault(key, []).append(line)
    return out


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(ci) -> str:
    return f"{100 * ci[0]:.1f}–{100 * ci[1]:.1f}"


def _seeds(lines: list[dict]) -> str:
    seeds = sorted(x["seed"] for x in lines)
    contiguous = seeds == list(range(seeds[0], seeds[0] + len(seeds)))
    return f"{seeds[0]}..{seeds[-1]}" if contiguous else f"{len(seeds)} seeds"


def common(x: list[dict], y: list[dict]) -> tuple[list[dict], list[dict]]:
    """Both logs cut to the seeds both played."""
    both = {a["seed"] for a in x} & {b["seed"] for b in y}
    return [a for a in x if a["seed"] in both], [b for b in y if b["seed"] in both]


def oracle_table(folder: Path) -> tuple[str, dict]:
    o = read_lines(folder / "oracle_vs_heuristic.jsonl")
    s = read_lines(folder / "search_vs_heuristic.jsonl")
    o, s = common(o, s)
    if not o:
        return "(no common games yet)", {}
    so, ss = summary(o), summary(s)
    edge_o, edge_s = so["win_rate_a"] - 0.5, ss["win_rate_a"] - 0.5
    pair = paired(o, s)
    share = edge_s / edge_o if edge_o > 0 else float("nan")
    boot = edge_share(o, s)
    rows = [
        "| team A vs heuristic | games (seeds) | A win rate (95% CI) | points margin per deal (95% CI) "
        "| decision ms median / p99 (CPU) |",
        "|---|---|---|---|---|",
    ]
    for name, lines, sm in (("`oracle`", o, so), ("`search` (default)", s, ss)):
        m = sm["points_margin_per_deal"]
        rows.append(
            f"| {name} | {sm['games']} ({_seeds(lines)}) | {_pct(sm['win_rate_a'])} ({_ci(sm['ci95'])}) | "
            f"{_margin(m)} | {_decision_ms(sm)} |"
        )
    text = "\n".join(rows) + (
        f"\n\nShare of the oracle's edge that `search` captures: **{100 * share:.0f} %** "
        f"(search {100 * edge_s:+.1f} points over 50 %, oracle {100 * edge_o:+.1f}). Paired on the same "
        f"games, oracle − search = {100 * pair['diff']:+.1f} points of win rate (95% CI "
        f"{100 * pair['ci95'][0]:+.1f} to {100 * pair['ci95'][1]:+.1f}); the oracle alone wins "
        f"{len(pair['only_x_wins'])} games, search alone {len(pair['only_y_wins'])}. "
        f"95% interval of the share, resampling seeds: {100 * boot['ci95'][0]:.0f}–{100 * boot['ci95'][1]:.0f} % "
        f"(taking the oracle's edge as exact: lower end {100 * boot['low_fixed_bound']:.0f} %)."
    )
    return text, {"oracle": so, "search": ss, "edge_share": share, "edge_share_ci95": boot, "paired": pair}


def _ms(team: str) -> float:
    m = re.search(r"max_ms=([0-9.]+)", team)
    return float(m.group(1)) if m else float("nan")


def time_table(folder: Path, plot: Path | None) -> tuple[str, list[dict]]:
    groups: dict[tuple, list[dict]] = {}
    for path in sorted(folder.glob("time_curve*.jsonl")):
        for key, lines in _groups(path).items():
            groups.setdefault(key, []).extend(lines)
    rows = []
    for (a, _b, _c, _v), lines in sorted(groups.items(), key=lambda kv: _ms(kv[0][0])):
        sm = summary(lines)
        rows.append({"ms": _ms(a), "team": a, "seeds": _seeds(lines), **sm})
    text = ["| ms of CPU per card | games (seeds) | search win rate vs heuristic (95% CI) "
            "| points margin per deal (95% CI) | decision ms median / p99 |",
            "|---|---|---|---|---|"]
    for r in rows:
        m = r["points_margin_per_deal"]
        text.append(f"| {r['ms']:g} | {r['games']} ({r['seeds']}) | {_pct(r['win_rate_a'])} ({_ci(r['ci95'])}) | "
                    f"{_margin(m)} | {_decision_ms(r)} |")
    text += ["", ranking(groups)]
    if plot is not None and rows:
        _errorbars(plot, [r["ms"] for r in rows], rows, "CPU ms per card (log scale)",
                   "search win rate vs heuristic (%)", "Play strength against time", logx=True, offset=0.0)
    return "\n".join(text), rows


def ranking(groups: dict[tuple, list[dict]]) -> str:
    """Each budget against the next smaller one, paired on the seeds both played: the win-rate and
    points-per-deal differences, and whether the interval ranks them."""
    by_ms = sorted(((_ms(key[0]), lines) for key, lines in groups.items()), key=lambda kv: kv[0])
    out = ["| budgets compared (same seeds) | games | win-rate difference (95% CI) "
           "| points per deal difference (95% CI) | ranked? |",
           "|---|---|---|---|---|"]
    steps = list(zip(by_ms, by_ms[1:], strict=False))
    if len(by_ms) > 2:
        steps.append((by_ms[0], by_ms[-1]))
    for (lo_ms, lo_lines), (hi_ms, hi_lines) in steps:
        w, m = paired(hi_lines, lo_lines), paired_margin(hi_lines, lo_lines)
        if w["games"] < 2:
            out.append(f"| {hi_ms:g} vs {lo_ms:g} ms | {w['games']} | | | too few common games |")
            continue
        ranked = ("yes, more time wins more" if w["ci95"][0] > 0 or m["ci95"][0] > 0 else
                  "yes, more time wins less" if w["ci95"][1] < 0 or m["ci95"][1] < 0 else "no: cannot tell apart")
        out.append(f"| {hi_ms:g} vs {lo_ms:g} ms | {w['games']} | {100 * w['diff']:+.1f} pts "
                   f"({100 * w['ci95'][0]:+.1f} to {100 * w['ci95'][1]:+.1f}) | {m['diff']:+.3f} "
                   f"({m['ci95'][0]:+.3f} to {m['ci95'][1]:+.3f}) | {ranked} |")
    return "\n".join(out)


def pays(row: dict) -> str:
    """Does signing pay through this channel? Only an interval that excludes zero says so, on games
    won (Wilson) or on the points margin per deal."""
    lo, hi = row["ci95"]
    _m, mlo, mhi = row["points_margin_per_deal"]
    if lo > 0.5 or mlo > 0:
        return "yes"
    if hi < 0.5 or mhi < 0:
        return "no: it costs"
    return "not shown"


def channel_table(folder: Path, plot: Path | None, name: str = "channel_search.jsonl",
                  title: str = "Signing through a noisy camera (search team)") -> tuple[str, list[dict]]:
    groups = _groups(folder / name)
    order = {"perfect": 0}
    rows = []
    for (_a, _b, ch, v), lines in sorted(groups.items(), key=lambda kv: order.get(kv[0][2], 1)):
        sm = summary(lines)
        rows.append({"channel": ch, "vigilance": v, "seeds": _seeds(lines), **sm})
    text = ["| channel (read share / false signs a minute) | games (seeds) | signing team wins "
            "| win-rate difference (95% CI) | points margin per deal (95% CI) | signing pays? |",
            "|---|---|---|---|---|---|"]
    for r in rows:
        lo, hi = r["ci95"]
        m = r["points_margin_per_deal"]
        r["pays"] = pays(r)
        text.append(f"| {r['channel']} | {r['games']} ({r['seeds']}) | {_pct(r['win_rate_a'])} | "
                    f"{100 * (2 * r['win_rate_a'] - 1):+.1f} pts ({100 * (2 * lo - 1):+.1f} to "
                    f"{100 * (2 * hi - 1):+.1f}) | {_margin(m)} | {r['pays']} |")
    if plot is not None and rows:
        _errorbars(plot, list(range(len(rows))), rows, "channel between the partners",
                   "signing team's win rate against itself silent (%)", title,
                   labels=[r["channel"] for r in rows], offset=0.0)
    return "\n".join(text), rows


def announce_table(folder: Path) -> tuple[str, list[dict]]:
    rows = []
    text = ["| team | games (seeds) | announcing team wins (95% CI) | points margin per deal (95% CI) |",
            "|---|---|---|---|"]
    for name in ("announce_heuristic.jsonl", "announce_search.jsonl"):
        for (a, _b, _c, _v), lines in _groups(folder / name).items():
            sm = summary(lines)
            m = sm["points_margin_per_deal"]
            rows.append({"team": a, "seeds": _seeds(lines), **sm})
            text.append(f"| `{a}` vs itself without | {sm['games']} ({_seeds(lines)}) | "
                        f"{_pct(sm['win_rate_a'])} ({_ci(sm['ci95'])}) | {_margin(m)} |")
    return "\n".join(text), rows


def _errorbars(path: Path, xs, rows, xlabel, ylabel, title, *, logx=False, labels=None, offset=0.0) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ys = [100 * r["win_rate_a"] for r in rows]
    lo = [100 * r["ci95"][0] for r in rows]
    hi = [100 * r["ci95"][1] for r in rows]
    fig, ax = plt.subplots(figsize=(6.5, 4))
    below = [y - low for y, low in zip(ys, lo, strict=False)]
    above = [h - y for y, h in zip(ys, hi, strict=False)]
    ax.errorbar(xs, ys, yerr=[below, above], marker="o", capsize=4)
    for x, y, r in zip(xs, ys, rows, strict=False):
        ax.annotate(f"{r['games']} games", (x, y), textcoords="offset points", xytext=(6, -12), fontsize=8)
    ax.axhline(50, color="grey", linewidth=0.8)
    if logx:
        ax.set_xscale("log")
        ax.set_xticks(xs)
        ax.set_xticklabels([f"{x:g}" for x in xs])
    if labels:
        ax.set_xticks(xs)
        ax.set_xticklabels(labels)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m trainer.lab.bots_report", description=__doc__.splitlines()[0])
    p.add_argument("folder", type=Path)
    p.add_argument("--out", type=Path)
    p.add_argument("--plots", nargs="+", type=Path, metavar="PNG",
                   help="TIME_PNG CHANNEL_PNG [HEURISTIC_CHANNEL_PNG]")
    args = p.parse_args(argv)
    plots = list(args.plots or []) + [None] * 3
    o_text, o = oracle_table(args.folder)
    t_text, t = time_table(args.folder, plots[0])
    c_text, c = channel_table(args.folder, plots[1])
    h_text, h = channel_table(args.folder, plots[2], "channel_heuristic.jsonl",
                              "Signing through a noisy camera (heuristic team)")
    a_text, a = announce_table(args.folder)
    for title, text in (("oracle", o_text), ("time", t_text), ("channel (search)", c_text),
                        ("channel (heuristic)", h_text), ("announce", a_text)):
        print(f"### {title}\n\n{text}\n")
    if args.out:
        args.out.write_text(json.dumps({"oracle": o, "time": t, "channel": c, "channel_heuristic": h,
                                        "announce": a}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
