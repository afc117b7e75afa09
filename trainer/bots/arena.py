"""The arena: full games between two teams of bots, sides alternating, with figures and intervals.

``play_match(TeamSpec.parse("search"), TeamSpec.parse("heuristic"), games=200, seed=1)`` plays game
``i`` with seed ``seed + i``; team A sits at the even seats (0, 2) in even games and at the odd seats
in odd games, so neither team keeps the first lead or the first deal. It reports wins with a 95%
Wilson interval, points per deal, mordienne rate, spoiled tricks per deal and bot decision times.

A team is a bot name with options: ``search``, ``search:worlds=32,max_ms=40``, ``heuristic:signs=0``.

Imports trainer.rules, trainer.signals and the bots' modules.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field, replace
from typing import Callable

from trainer.bots.base import BotError, make_bot
from trainer.bots.table import Table
from trainer.rules.game import DealEnd
from trainer.rules.ruleset import Ruleset
from trainer.signals.table import Vigilance


@dataclass(frozen=True, slots=True)
class TeamSpec:
    """A bot name and its options; both partners get the same bot."""

    bot: str
    options: tuple[tuple[str, object], ...] = ()

    @classmethod
    def parse(cls, text: str) -> "TeamSpec":
        name, _, rest = text.partition(":")
        options = []
        for item in filter(None, (p.strip() for p in rest.split(","))):
            key, eq, value = item.partition("=")
            if not eq:
                raise BotError(f"bad team option {item!r} in {text!r}: write key=value, e.g. search:worlds=32")
            options.append((key.strip(), _value(value.strip())))
        spec = cls(name.strip().lower(), tuple(options))
        make_bot(spec.bot, **dict(spec.options))  # fails now, with the bot's message, if wrong
        return spec

    def with_options(self, **changes) -> "TeamSpec":
        options = dict(self.options)
        options.update(changes)
        return replace(self, options=tuple(options.items()))

    def build(self):
        return make_bot(self.bot, **dict(self.options))

    def __str__(self) -> str:
        if not self.options:
            return self.bot
        return self.bot + ":" + ",".join(f"{k}={v}" for k, v in self.options)


def _value(text: str) -> object:
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def wilson(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a proportion (draws count as half a win by the caller)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) by nearest rank; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1))
    return ordered[rank]


@dataclass(slots=True)
class MatchResult:
    """Totals of a match; :meth:`to_json` gives the arena's JSON object."""

    team_a: str
    team_b: str
    preset: str
    seed: int
    vigilance: float
    games: int = 0
    wins_a: int = 0
    wins_b: int = 0
    draws: int = 0
    deals: int = 0
    played_deals: int = 0
    points_a: int = 0
    points_b: int = 0
    mordiennes_a: int = 0
    mordiennes_b: int = 0
    spoiled: int = 0
    signs_made: int = 0
    signs_caught: int = 0
    times_a: list[float] = field(default_factory=list)
    times_b: list[float] = field(default_factory=list)
    game_margin_a: list[int] = field(default_factory=list)
    deal_margin_a: list[int] = field(default_factory=list)
    """Points of A minus points of B, per deal: a finer measure than games won."""

    @property
    def points_margin(self) -> tuple[float, float, float]:
        """Mean points margin per deal (A minus B) with its 95% normal interval."""
        n = len(self.deal_margin_a)
        if n < 2:
            return (0.0, -2.0, 2.0)
        mean = statistics.fmean(self.deal_margin_a)
        half = 1.959964 * statistics.stdev(self.deal_margin_a) / math.sqrt(n)
        return (mean, mean - half, mean + half)

    @property
    def win_rate_a(self) -> float:
        """Wins of team A, a draw counting half."""
        return (self.wins_a + 0.5 * self.draws) / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson(self.wins_a + 0.5 * self.draws, self.games)

    def decision_ms(self, times: list[float]) -> dict:
        return {"median": round(1000 * statistics.median(times), 3) if times else 0.0,
                "p99": round(1000 * percentile(times, 0.99), 3)}

    def to_json(self) -> dict:
        a, b = self.decision_ms(self.times_a), self.decision_ms(self.times_b)
        lo, hi = self.ci95
        deals = max(1, self.deals)
        played = max(1, self.played_deals)
        return {
            "team_a": self.team_a, "team_b": self.team_b, "preset": self.preset, "seed": self.seed,
            "vigilance": self.vigilance,
            "games": self.games, "wins_a": self.wins_a, "wins_b": self.wins_b, "draws": self.draws,
            "win_rate_a": round(self.win_rate_a, 4), "ci95": [round(lo, 4), round(hi, 4)],
            # The slower team's figures (both teams' separately below), so a fast opponent never
            # hides a slow bot.
            "decision_ms": {"median": max(a["median"], b["median"]), "p99": max(a["p99"], b["p99"])},
            "decision_ms_a": a, "decision_ms_b": b,
            "deals": self.deals,
            "points_per_deal_a": round(self.points_a / deals, 4),
            "points_per_deal_b": round(self.points_b / deals, 4),
            "points_margin_per_deal": [round(x, 4) for x in self.points_margin],
            "mordienne_rate_a": round(self.mordiennes_a / played, 4),
            "mordienne_rate_b": round(self.mordiennes_b / played, 4),
            "spoiled_tricks_per_deal": round(self.spoiled / played, 4),
            "signs_per_deal": round(self.signs_made / deals, 4),
            "signs_caught_share": round(self.signs_caught / max(1, self.signs_made), 4),
        }


def play_game(
    spec_a: TeamSpec, spec_b: TeamSpec, seed: int, a_even: bool, *, ruleset: Ruleset,
    vigilance: Vigilance, lying_allowed: bool = False, clock: Callable[[], float] | None = None,
) -> Table:
    """One full game; team A at the even seats when ``a_even``."""
    n = ruleset.player_count
    teams = ruleset.team_count
    seats = []
    for s in range(n):
        on_a = (ruleset.team_of(s) == 0) == a_even if teams == 2 else ruleset.team_of(s) == (0 if a_even else 1)
        seats.append((spec_a if on_a else spec_b).build())
    extra = {} if clock is None else {"clock": clock}
    table = Table(seats, ruleset=ruleset, seed=seed, vigilance=vigilance, lying_allowed=lying_allowed, **extra)
    table.play_out()
    return table


def play_match(
    spec_a: TeamSpec,
    spec_b: TeamSpec,
    *,
    games: int,
    seed: int = 0,
    ruleset: Ruleset | None = None,
    vigilance: Vigilance | None = None,
    lying_allowed: bool = False,
    progress: Callable[[MatchResult], None] | None = None,
    clock: Callable[[], float] | None = None,
) -> MatchResult:
    """Play ``games`` games (4-player tables: team A is team 0 or 1 alternately). ``clock`` times
    the bots' decisions (default: the wall clock; ``time.process_time`` for CPU time)."""
    ruleset = ruleset if ruleset is not None else Ruleset()
    if ruleset.team_count != 2:
        raise BotError(f"the arena pits two teams: the {ruleset.players.value}-player table has {ruleset.team_count}")
    vigilance = vigilance if vigilance is not None else Vigilance()
    result = MatchResult(str(spec_a), str(spec_b), ruleset.name, seed, vigilance.catch)
    for i in range(games):
        a_even = i % 2 == 0
        table = play_game(spec_a, spec_b, seed + i, a_even, ruleset=ruleset, vigilance=vigilance,
                          lying_allowed=lying_allowed, clock=clock)
        team_a = 0 if a_even else 1
        game = table.game
        outcome = game.outcome
        result.games += 1
        if outcome.winner is None:
            result.draws += 1
        elif outcome.winner == team_a:
            result.wins_a += 1
        else:
            result.wins_b += 1
        result.game_margin_a.append(outcome.scores[team_a] - outcome.scores[1 - team_a])
        for deal in game.results:
            result.deals += 1
            result.points_a += deal.points[team_a]
            result.points_b += deal.points[1 - team_a]
            result.deal_margin_a.append(deal.points[team_a] - deal.points[1 - team_a])
            if deal.end is DealEnd.PLAYED:
                result.played_deals += 1
                result.spoiled += sum(1 for t in deal.tricks if t.winner is None)
                if deal.mordienne and deal.deal_winner is not None:
                    if ruleset.team_of(deal.deal_winner) == team_a:
                        result.mordiennes_a += 1
                    else:
                        result.mordiennes_b += 1
        for t in table.history:
            result.signs_made += 1
            result.signs_caught += bool(t.event.caught_by)
        for seat, times in table.times.by_seat.items():
            (result.times_a if ruleset.team_of(seat) == team_a else result.times_b).extend(times)
        if progress is not None:
            progress(result)
    return result


def format_report(result: MatchResult) -> str:
    """The arena's text report."""
    j = result.to_json()
    lo, hi = j["ci95"]
    a, b = j["decision_ms_a"], j["decision_ms_b"]
    lines = [
        f"{result.team_a} (A) vs {result.team_b} (B) — {j['games']} games, preset {result.preset}, "
        f"seeds {result.seed}..{result.seed + result.games - 1}, vigilance {result.vigilance:g}",
        f"wins A {j['wins_a']}  B {j['wins_b']}  draws {j['draws']}",
        f"win rate A {100 * j['win_rate_a']:.1f}%  (95% CI {100 * lo:.1f}–{100 * hi:.1f}%)",
        f"points per deal  A {j['points_per_deal_a']:.3f}  B {j['points_per_deal_b']:.3f}  ({j['deals']} deals); "
        f"margin A-B {j['points_margin_per_deal'][0]:+.3f} (95% CI {j['points_margin_per_deal'][1]:+.3f} to "
        f"{j['points_margin_per_deal'][2]:+.3f})",
        f"mordienne rate   A {100 * j['mordienne_rate_a']:.2f}%  B {100 * j['mordienne_rate_b']:.2f}% of played deals",
        f"spoiled tricks per deal {j['spoiled_tricks_per_deal']:.3f}",
        f"signs per deal {j['signs_per_deal']:.2f}, caught by an opponent {100 * j['signs_caught_share']:.1f}%",
        f"decision time A median {a['median']:.2f} ms  p99 {a['p99']:.2f} ms; "
        f"B median {b['median']:.2f} ms  p99 {b['p99']:.2f} ms",
    ]
    return "\n".join(lines)
