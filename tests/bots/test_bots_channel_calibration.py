"""A partner bot believes a camera read as often as such reads are true.

The simulated camera (``NoisyChannel``) reads each real sign with a confidence spread over 0.5..1
and invents signs near the threshold (0.5..0.8). The receiving bot is told the channel's figures
(``NoisyChannel.reliability``) and weighs each read by ``SignReliability.trust``. The test plays
real games at tables of signing heuristic bots, notes every confidence the camera draws and whether
its sign was made, and checks that among reads trusted about ``t`` a share ``t`` were real.

Before the receiver used the simulated shapes' own likelihood ratio, it scaled the precision by the
confidence's odds against the threshold: at 4 false signs a minute a false-looking read at 0.65 was
believed about 0.46 of the time when 0.08 of such reads are real, and the frontier of the value of
signing bent the wrong way (a noisier camera seemed worth more).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pytest

from trainer.bots.channel import NoisyChannel
from trainer.bots.heuristic import HeuristicBot
from trainer.bots.table import Table
from trainer.rules.ruleset import Ruleset

RULES = Ruleset.preset("vendee", chant_allowed=False)
GAMES = 12


@dataclass(frozen=True, slots=True)
class _NotingChannel(NoisyChannel):
    """The same channel, noting each confidence it draws and whether the read was a sign made."""

    drawn: list[tuple[float, bool]] | None = None

    def true_confidence(self, rng):  # type: ignore[override]
        c = NoisyChannel.true_confidence(rng)
        assert self.drawn is not None
        self.drawn.append((c, True))
        return c

    def false_confidence(self, rng):  # type: ignore[override]
        c = NoisyChannel.false_confidence(rng)
        assert self.drawn is not None
        self.drawn.append((c, False))
        return c


def _reads(spec: str) -> list[tuple[float, bool]]:
    base = NoisyChannel.parse(spec)
    channel = _NotingChannel(base.miss, base.false_per_min, base.delay_s, drawn=[])
    for seed in range(GAMES):
        table = Table([HeuristicBot() for _ in range(4)], ruleset=RULES, seed=seed, channel=channel)
        while not table.is_over:
            table.step(max_actions=50)
    assert channel.drawn is not None
    return channel.drawn


@pytest.mark.parametrize("spec", ["1/1", "1/4", "0.8/8"])
def test_reads_trusted_about_t_are_real_about_t_of_the_time(spec):
    reads = _reads(spec)
    trust = NoisyChannel.parse(spec).reliability().trust
    bins: dict[int, list[tuple[float, bool]]] = {}
    for confidence, real in reads:
        t = trust(None, confidence)
        bins.setdefault(min(9, int(t * 10)), []).append((t, real))
    report, checked = [], 0
    for b, cell in sorted(bins.items()):
        if len(cell) < 80:
            continue
        believed = sum(t for t, _ in cell) / len(cell)
        real = sum(r for _, r in cell) / len(cell)
        # Three binomial standard errors, and a floor for the bounds trust keeps (0.02..0.98).
        tolerance = 0.03 + 3 * math.sqrt(max(real * (1 - real), 0.01) / len(cell))
        report.append((b, len(cell), round(believed, 3), round(real, 3)))
        checked += 1
        assert abs(believed - real) <= tolerance, (spec, report)
    assert checked >= 2, (spec, report)  # false-looking and sure reads both occur
