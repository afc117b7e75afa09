"""The engine benchmark: random full deals through the playout API (``FastDeal.legal_actions`` and
``FastDeal.apply``), as a search bot's playouts use it. Standard library and the rules engine only;
run by ``aluette bench engine`` (:mod:`trainer.lab.engine_cli`), never imported by the app.

Each deal: shuffle the 48 cards, deal in batches of 3, play the tricks choosing uniformly among the
legal cards, then score (deal winner with tie-break, mordienne).
"""

from __future__ import annotations

import os
import platform
import random
import statistics
import time
from dataclasses import dataclass

from trainer.rules.cards import STRENGTH
from trainer.rules.fastdeal import FastDeal


def _where_run(load: float | None) -> str:
    """How a figure was taken (one core, this Python, the load before): both benchmarks' first line
    ends with it, so a figure read later says the same of either."""
    shown = "unknown" if load is None else f"{load:.2f}"
    return f"one core, Python {platform.python_version()}, 1-min load before {shown}"


@dataclass(frozen=True, slots=True)
class EngineBench:
    deals: int
    seconds: float
    round_rates: tuple[float, ...]
    players: int
    tie_breaks: int
    mordiennes: int
    no_winner: int
    load: float | None
    bare_rate: float | None = None
    """Deals/s of a bare loop (shuffle, compare strengths, count tricks; no API, no choices) timed
    the same way just before: the issue's yardstick (~40,000/s), to read the figure under load."""

    @property
    def deals_per_second(self) -> float:
        """Best round (the timeit convention: the machine is shared, slower rounds measure the
        neighbours, not the engine)."""
        return max(self.round_rates)

    @property
    def median_deals_per_second(self) -> float:
        return statistics.median(self.round_rates)

    def lines(self) -> list[str]:
        return [
            f"engine: {self.deals} random {self.players}-player deals through FastDeal "
            f"(legal_actions + apply), {_where_run(self.load)}",
            f"deals decided by the tie-break: {self.tie_breaks / self.deals:.1%}; "
            f"mordienne: {self.mordiennes / self.deals:.2%}; nobody won a trick: {self.no_winner}",
            f"CPU time {self.seconds:.3f} s in {len(self.round_rates)} rounds: "
            + ", ".join(f"{r:.0f}" for r in self.round_rates)
            + f" deals/s; median {self.median_deals_per_second:.0f}, best below",
        ] + (
            [f"bare loop (shuffle, compare, count; no API) on this machine now: {self.bare_rate:.0f} deals/s; "
             f"engine/bare {self.deals_per_second / self.bare_rate:.2f}"]
            if self.bare_rate else []
        ) + [
            f"{self.deals_per_second:.0f} deals/s",
        ]


def bare_loop(deals: int, rng: random.Random, _strength: tuple = STRENGTH) -> float:
    """Deals/s (CPU time) of the issue's yardstick: shuffle, compare strengths, count tricks."""
    rnd = rng.random
    deck = list(range(48))
    start = time.process_time()
    for _ in range(deals):
        deck.sort(key=lambda _: rnd())
        won = [0, 0, 0, 0]
        leader = 0
        for k in range(0, 36, 4):
            strengths = [_strength[c] for c in deck[k:k + 4]]
            best = max(strengths)
            if strengths.count(best) == 1:
                leader = (leader + strengths.index(best)) % 4
                won[leader] += 1
    return deals / max(time.process_time() - start, 1e-9)


def load_average() -> float | None:
    """The 1-minute load average before a run (None where the platform has none), to read a figure
    taken on a shared machine."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return None


def bench_engine(
    deals: int, *, seed: int = 1, players: int = 4, rounds: int = 5, reference: bool = True
) -> EngineBench:
    """Play ``deals`` random deals in ``rounds`` rounds, timing each round in CPU time
    (``time.process_time``) so waiting for a shared core is not counted."""
    load = load_average()
    rng = random.Random(seed)
    rnd = rng.random
    deck = list(range(48))
    from_deck = FastDeal.from_deck
    tie_breaks = mordiennes = nobody = 0
    rates: list[float] = []
    total = 0.0
    per_round = max(1, deals // rounds)
    played = 0
    while played < deals:
        batch = min(per_round, deals - played)
        start = time.process_time()
        for number in range(played, played + batch):
            deck.sort(key=lambda _: rnd())
            deal = from_deck(deck, players, number % players)
            legal = deal.legal_actions
            apply = deal.apply
            moves = legal()
            while moves:
                apply(moves[int(rnd() * len(moves))])
                moves = legal()
            # Scoring is part of a playout: deal winner (with the tie-break) and mordienne.
            winner = deal.deal_winner()
            if winner < 0:
                nobody += 1
                continue
            won = deal.won
            if won.count(won[winner]) > 1:
                tie_breaks += 1
            if deal.mordienne():
                mordiennes += 1
        elapsed = max(time.process_time() - start, 1e-9)
        total += elapsed
        rates.append(batch / elapsed)
        played += batch
    bare = None
    if reference:
        ref_rng = random.Random(seed)
        bare = max(bare_loop(max(1, deals // (2 * rounds)), ref_rng) for _ in range(3))
    return EngineBench(deals, total, tuple(rates), players, tie_breaks, mordiennes, nobody, load, bare)


@dataclass(frozen=True, slots=True)
class GameBench:
    """Whole random games through the public :class:`~trainer.rules.game.Game` API."""

    games: int
    actions: int
    round_ms: tuple[float, ...]
    """CPU milliseconds per game, per round."""
    preset: str
    load: float | None

    @property
    def best_ms(self) -> float:
        return min(self.round_ms)

    def lines(self) -> list[str]:
        return [
            f"game API: {self.games} random {self.preset} games per round through Game.legal_actions + "
            f"Game.apply (checks, chance steps, scoring, events), {_where_run(self.load)}",
            f"{self.actions / (self.games * len(self.round_ms)):.0f} actions per game; CPU ms per game by round: "
            + ", ".join(f"{ms:.3f}" for ms in self.round_ms) + "; best below",
            f"{self.best_ms:.3f} ms per game",
        ]


def bench_game_api(games: int, *, preset: str = "vendee", rounds: int = 5) -> GameBench:
    """Play ``games`` seeded random games (seeds 0..games-1) ``rounds`` times through the public Game
    API, timing each round in CPU time. What an arena or the app pays per action beyond the bots."""
    from trainer.rules.game import Game
    from trainer.rules.ruleset import Ruleset

    load = load_average()
    ruleset = Ruleset.preset(preset)
    per_game: list[float] = []
    actions = 0
    for _ in range(rounds):
        start = time.process_time()
        for seed in range(games):
            game = Game.new(ruleset, seed)
            rng = random.Random(seed)
            while not game.is_over:
                legal = game.legal_actions()
                game.apply(legal[rng.randrange(len(legal))])
                actions += 1
        per_game.append((time.process_time() - start) / games * 1000)
    return GameBench(games, actions, tuple(per_game), preset, load)


if __name__ == "__main__":
    from trainer.lab.tool import library_main

    raise SystemExit(library_main("engine_bench", __doc__))
