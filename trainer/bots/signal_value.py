"""The value of signing: the same team with signs against itself without, across opponents' vigilance.

For each vigilance level, :func:`measure` plays a match of ``TEAM:signs=true`` against
``TEAM:signs=false`` (the silent team still reads every sign it catches). The value is the signing
team's win rate (2p - 1 is the win-rate difference between the two sides) and its points margin per
deal, each with a 95% interval. :func:`write_outputs` saves a JSON table, a Markdown table and a plot.

With ``timed=True`` both teams sign, at a timed table (:mod:`trainer.signals.watching`): the
*timed* team (``TEAM:discreet=true``) signs only at a moment no opponent looks, the *open* one
(``TEAM:discreet=false``) at a moment taken without looking; the rows then give the timed team's side.

Imports trainer.bots (and matplotlib, only inside :func:`plot`).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from trainer.bots.arena import MatchResult, TeamSpec, play_match
from trainer.bots.channel import NoisyChannel
from trainer.rules.ruleset import Ruleset
from trainer.signals.table import Vigilance


def measure(
    team: TeamSpec, levels: Sequence[float], *, games: int, seed: int, ruleset: Ruleset,
    discreet_factor: float = 0.3, progress: Callable[[float, MatchResult], None] | None = None,
    workers: int = 1, channels: Sequence[NoisyChannel] = (), timed: bool = False, backend: str = "local",
) -> list[dict[str, Any]]:
    """One row per vigilance level (and per channel, when ``channels`` are given: the signing
    team's partners then read each other's signs through that noisy camera)."""
    rows = []
    for level in levels:
        for channel in (channels or (None,)):
            rows.append(_row(team, level, channel, games=games, seed=seed, ruleset=ruleset,
                             discreet_factor=discreet_factor, progress=progress, workers=workers,
                             timed=timed, backend=backend))
    return rows


def _row(team: TeamSpec, level: float, channel: NoisyChannel | None, *, games: int, seed: int, ruleset: Ruleset,
         discreet_factor: float, progress: Callable[[float, MatchResult], None] | None, workers: int,
         timed: bool = False, backend: str = "local") -> dict[str, Any]:
    vigilance = Vigilance(level, discreet_factor)
    if timed:
        side_a, side_b = team.with_options(signs=True, discreet=True), team.with_options(signs=True, discreet=False)
    else:
        side_a, side_b = team.with_options(signs=True), team.with_options(signs=False)
    result = play_match(
        side_a, side_b, games=games, seed=seed, timed=timed,
        ruleset=ruleset, vigilance=vigilance, workers=workers, channel=channel, backend=backend,
        progress=functools.partial(progress, level) if progress else None,
    )
    j = result.to_json()
    lo, hi = j["ci95"]
    row = {
        "vigilance": level, "games": j["games"], "deals": j["deals"],
        "win_rate_signing": j["win_rate_a"], "ci95": [lo, hi],
        "win_rate_difference": round(2 * j["win_rate_a"] - 1, 4),
        "difference_ci95": [round(2 * lo - 1, 4), round(2 * hi - 1, 4)],
        "points_margin_per_deal": j["points_margin_per_deal"],
        "signs_caught_share": j["signs_caught_share"],
        "decision_ms": j["decision_ms"],
        "compare": "timed vs open signer" if timed else "signs vs none",
    }
    if channel is not None:
        row["channel"] = {"label": channel.label, "read": round(1 - channel.miss, 4),
                          "false_per_min": channel.false_per_min, "delay_s": channel.delay_s}
    return row


def markdown(rows: list[dict[str, Any]]) -> str:
    channel = any("channel" in r for r in rows)
    lines = [
        ("| channel " if channel else "")
        + "| opponents' vigilance | games | deals | "
        + ("timed team wins" if rows and rows[0].get("compare", "").startswith("timed") else "signing team wins")
        + " | win-rate difference (95% CI) | points margin per deal (95% CI) | signs caught |",
        ("|---" if channel else "") + "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        prefix = f"| {r.get('channel', {}).get('label', 'perfect')} " if channel else ""
        m, mlo, mhi = r["points_margin_per_deal"]
        d_lo, d_hi = r["difference_ci95"]
        lines.append(
            prefix + f"| {r['vigilance']:g} | {r['games']} | {r['deals']} | {100 * r['win_rate_signing']:.1f}% | "
            f"{100 * r['win_rate_difference']:+.1f} pts ({100 * d_lo:+.1f} to {100 * d_hi:+.1f}) | "
            f"{m:+.3f} ({mlo:+.3f} to {mhi:+.3f}) | {100 * r['signs_caught_share']:.0f}% |"
        )
    return "\n".join(lines)


def plot(rows: list[dict[str, Any]], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = [r["vigilance"] for r in rows]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    diff = [100 * r["win_rate_difference"] for r in rows]
    lo = [100 * r["difference_ci95"][0] for r in rows]
    hi = [100 * r["difference_ci95"][1] for r in rows]
    left.errorbar(xs, diff, yerr=[[d - low for d, low in zip(diff, lo, strict=True)],
                                  [h - d for d, h in zip(diff, hi, strict=True)]],
                  marker="o", capsize=4)
    left.axhline(0, color="grey", linewidth=0.8)
    left.set_xlabel("opponents' vigilance (chance to catch an open sign)")
    left.set_ylabel("win rate with signs − without (points of %)")
    left.set_title("games")
    m = [r["points_margin_per_deal"][0] for r in rows]
    mlo = [r["points_margin_per_deal"][1] for r in rows]
    mhi = [r["points_margin_per_deal"][2] for r in rows]
    right.errorbar(xs, m, yerr=[[a - b for a, b in zip(m, mlo, strict=True)],
                                [c - a for a, c in zip(m, mhi, strict=True)]],
                   marker="o", capsize=4, color="tab:green")
    right.axhline(0, color="grey", linewidth=0.8)
    right.set_xlabel("opponents' vigilance")
    right.set_ylabel("points margin per deal (signing − silent)")
    right.set_title("deals")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write_outputs(rows: list[dict[str, Any]], meta: dict[str, Any], json_path: Path, plot_path: Path | None) -> None:
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps({**meta, "rows": rows}, indent=2) + "\n")
    if plot_path is not None:
        plot(rows, plot_path,
             f"Value of signing: {meta['team']} with vs without signs ({meta['games']} games per point)")
