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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from trainer.bots.base import Bot, BotError, make_bot
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
    def parse(cls, text: str) -> TeamSpec:
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

    def with_options(self, **changes: Any) -> TeamSpec:
        options = dict(self.options)
        options.update(changes)
        return replace(self, options=tuple(options.items()))

    def build(self) -> Bot:
        return make_bot(self.bot, **dict(self.options))

    def __str__(self) -> str:
        if not self.options:
            return self.bot
        return self.bot + ":" + ",".join(f"{k}={v}" for k, v in self.options)


def _value(text: str) -> object:
    low = text.lower()
    if low == "none":
        return None
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


def mean_ci95(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of ``values`` (one or more) with its 95% normal interval: (mean, low, high); one
    value has no spread."""
    mean = statistics.fmean(values)
    half = 1.959964 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return (mean, mean - half, mean + half)


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
        if len(self.deal_margin_a) < 2:
            return (0.0, -2.0, 2.0)
        return mean_ci95(self.deal_margin_a)

    @property
    def win_rate_a(self) -> float:
        """Wins of team A, a draw counting half."""
        return (self.wins_a + 0.5 * self.draws) / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson(self.wins_a + 0.5 * self.draws, self.games)

    def decision_ms(self, times: list[float]) -> dict[str, float]:
        return {"median": round(1000 * statistics.median(times), 3) if times else 0.0,
                "p99": round(1000 * percentile(times, 0.99), 3)}

    def to_json(self) -> dict[str, Any]:
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
    channel: object | None = None, timed: bool = False,
) -> Table:
    """One full game; team A at the even seats when ``a_even`` (``timed``: the opponents' eyes
    catch signs by their moments, :mod:`trainer.signals.watching`)."""
    n = ruleset.player_count
    teams = ruleset.team_count
    seats = []
    for s in range(n):
        on_a = (ruleset.team_of(s) == 0) == a_even if teams == 2 else ruleset.team_of(s) == (0 if a_even else 1)
        seats.append((spec_a if on_a else spec_b).build())
    extra: dict[str, Any] = {} if clock is None else {"clock": clock}
    if timed:
        extra["timed"] = True
    if channel is not None:
        extra["channel"] = channel
        extra["channel_team"] = 0 if a_even else 1
    table = Table(seats, ruleset=ruleset, seed=seed, vigilance=vigilance, lying_allowed=lying_allowed, **extra)
    table.play_out()
    return table


@dataclass(frozen=True, slots=True)
class DealRecord:
    """One deal's figures, from team A's side."""

    points_a: int
    points_b: int
    played: bool
    spoiled: int
    mordienne_a: bool
    mordienne_b: bool


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game's figures, from team A's side: what :func:`play_match` adds up. Plain values, so a
    worker process can send it back (``--workers``)."""

    index: int
    outcome: int
    """1: A won, -1: B won, 0: a draw."""
    margin_a: int
    deals: tuple[DealRecord, ...]
    signs_made: int
    signs_caught: int
    times_a: tuple[float, ...]
    times_b: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class GameTask:
    """Everything one game needs (picklable: the bots are built in the process that plays)."""

    spec_a: TeamSpec
    spec_b: TeamSpec
    index: int
    seed: int
    ruleset: Ruleset
    vigilance: Vigilance
    lying_allowed: bool = False
    clock: Callable[[], float] | None = None
    channel: object | None = None
    """A :class:`trainer.bots.channel.NoisyChannel` between team A's partners, or None (perfect)."""
    timed: bool = False
    """Signs have moments and the opponents' eyes catch them (a timed table)."""


def game_seed(master: int, index: int) -> int:
    """The seed of game ``index`` of a match seeded ``master``: the same in a serial run and in
    any worker, so results do not depend on how games are spread over processes."""
    return master + index


def run_game(task: GameTask) -> GameRecord:
    """Play one game of a match and sum up its figures (runs in a worker process with ``--workers``)."""
    ruleset = task.ruleset
    a_even = task.index % 2 == 0
    table = play_game(task.spec_a, task.spec_b, task.seed, a_even, ruleset=ruleset,
                      vigilance=task.vigilance, lying_allowed=task.lying_allowed, clock=task.clock,
                      channel=task.channel, timed=task.timed)
    team_a = 0 if a_even else 1
    game = table.game
    outcome = game.outcome
    if outcome is None:  # the table plays a game out before it returns
        raise BotError(f"game {task.index} of the match stopped before its end")
    deals = []
    for deal in game.results:
        played = deal.end is DealEnd.PLAYED
        mord_a = mord_b = False
        if played and deal.mordienne and deal.deal_winner is not None:
            if ruleset.team_of(deal.deal_winner) == team_a:
                mord_a = True
            else:
                mord_b = True
        deals.append(DealRecord(
            deal.points[team_a], deal.points[1 - team_a], played,
            sum(1 for t in deal.tricks if t.winner is None) if played else 0, mord_a, mord_b,
        ))
    times_a: list[float] = []
    times_b: list[float] = []
    for seat, times in sorted(table.times.by_seat.items()):
        (times_a if ruleset.team_of(seat) == team_a else times_b).extend(times)
    return GameRecord(
        index=task.index,
        outcome=0 if outcome.winner is None else (1 if outcome.winner == team_a else -1),
        margin_a=outcome.scores[team_a] - outcome.scores[1 - team_a],
        deals=tuple(deals),
        signs_made=len(table.history),
        signs_caught=sum(1 for t in table.history if t.event.caught_by),
        times_a=tuple(times_a), times_b=tuple(times_b),
    )


def add_record(result: MatchResult, record: GameRecord) -> None:
    """Add one game's figures to the match totals (in game order: the lists keep that order)."""
    result.games += 1
    if record.outcome == 0:
        result.draws += 1
    elif record.outcome > 0:
        result.wins_a += 1
    else:
        result.wins_b += 1
    result.game_margin_a.append(record.margin_a)
    for d in record.deals:
        result.deals += 1
        result.points_a += d.points_a
        result.points_b += d.points_b
        result.deal_margin_a.append(d.points_a - d.points_b)
        if d.played:
            result.played_deals += 1
            result.spoiled += d.spoiled
            result.mordiennes_a += d.mordienne_a
            result.mordiennes_b += d.mordienne_b
    result.signs_made += record.signs_made
    result.signs_caught += record.signs_caught
    result.times_a.extend(record.times_a)
    result.times_b.extend(record.times_b)


def run_tasks(tasks: list[GameTask], workers: int = 1, backend: str = "local") -> Iterator[GameRecord]:
    """Each task's record, in task order, over ``workers`` local processes (1: in this process), or
    as Ray tasks (``backend="ray"``, :mod:`trainer.bots.cluster`).

    Every game draws from its own seeded generators, so the records are the same whichever process
    plays them; only the decision times differ (they are measured, not drawn).
    """
    if workers < 1:
        raise BotError(f"workers must be at least 1, got {workers}")
    if backend == "ray":
        from trainer.bots.cluster import run_tasks_ray

        yield from run_tasks_ray(run_game, tasks, workers)
        return
    if backend != "local":
        raise BotError(f"unknown backend {backend!r}: choose local or ray")
    if workers == 1 or len(tasks) <= 1:
        for task in tasks:
            yield run_game(task)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # Small chunks keep the processes busy to the end; map() returns the records in task order.
    chunk = max(1, min(8, len(tasks) // (4 * workers)))
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        yield from pool.map(run_game, tasks, chunksize=chunk)


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
    workers: int = 1,
    channel: object | None = None,
    timed: bool = False,
    backend: str = "local",
) -> MatchResult:
    """Play ``games`` games (4-player tables: team A is team 0 or 1 alternately). ``clock`` times
    the bots' decisions (default: the wall clock; ``time.process_time`` for CPU time). ``workers``
    spreads the games over local processes (same results as one process, game ``i`` seeded
    ``game_seed(seed, i)``); ``backend="ray"`` plays them on Ray (the ``[cluster]`` extra), with
    the same results. ``channel``: a noisy channel between team A's partners. ``timed``: the
    tables time their signs and the opponents' eyes catch them (:mod:`trainer.signals.watching`)."""
    ruleset = ruleset if ruleset is not None else Ruleset()
    if ruleset.team_count != 2:
        raise BotError(f"the arena pits two teams: the {ruleset.players.value}-player table has {ruleset.team_count}")
    vigilance = vigilance if vigilance is not None else Vigilance()
    result = MatchResult(str(spec_a), str(spec_b), ruleset.name, seed, vigilance.catch)
    tasks = [
        GameTask(spec_a, spec_b, i, game_seed(seed, i), ruleset, vigilance, lying_allowed, clock, channel, timed)
        for i in range(games)
    ]
    for record in run_tasks(tasks, workers, backend):
        add_record(result, record)
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
