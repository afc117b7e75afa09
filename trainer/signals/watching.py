"""Being watched: when each opponent looks at a signer, and which signs that catches (RULES.md, Signs).

"A good player signals when the partner looks and the opponents don't." Each opponent's eyes
alternate between looking at a signer and looking away, on a seeded schedule (one per watcher and
signer, in seconds of game time). A sign is *held* for :data:`SIGN_HOLD_S`; an opponent catches it
when they look at the signer at any moment of that hold. A sign is *discreet* when it is made while
no opponent looks — it can still be caught by an opponent who turns to look during the hold.

The table's :class:`~trainer.signals.vigilance.Vigilance` sets how often opponents look, so that its
``catch`` keeps its meaning: a sign made at a moment chosen without looking (an *open* sign) is
caught by one opponent with exactly that chance. With look spells of mean ``L``, away spells of
mean ``A`` lasting at least a hold ``h``, renewal theory gives that chance as ``(L + h) / (L + A)``
(looking at the start, or turning to look within the hold), hence ``A = (L + h) / catch - L``; a
discreet sign is caught by one opponent with chance ``h / A``.

Pure and seeded: schedules depend only on the seed text, the seats and the vigilance. Imports
trainer.signals only (and the standard library).
"""

from __future__ import annotations

import bisect
import math
import random
from dataclasses import dataclass
from functools import lru_cache

from trainer.signals.vigilance import SignalError, Vigilance, partner_of

SIGN_HOLD_S = 1.5
"""How long a face holds a sign: about a second and a half (Practice holds run 1-2 s)."""
LOOK_MEAN_S = 1.5
"""Mean length of a look at a signer: a glance across the table."""
LOOK_MIN_S = 0.6
"""Shortest look: long enough to be drawn on an avatar and to read a sign."""
_CHUNK_S = 600.0
"""Schedules are drawn ahead in ten-minute pieces (and cached), so a long game stays cheap."""

Spell = tuple[float, float]
"""A half-open interval of game time in seconds, ``[start, end)``."""


@dataclass(frozen=True, slots=True)
class Gaze:
    """How one opponent's eyes move: mean look and away spells (seconds) and the sign's hold.

    Spells are shifted exponentials (a minimum, then memoryless): a look lasts at least
    ``look_min_s``, an away spell at least one hold, which keeps :meth:`open_chance` exact.
    ``away_s`` is infinite for opponents who never look (vigilance 0).
    """

    look_s: float = LOOK_MEAN_S
    away_s: float = math.inf
    hold_s: float = SIGN_HOLD_S
    look_min_s: float = LOOK_MIN_S

    def __post_init__(self) -> None:
        if not 0.0 < self.look_min_s <= self.look_s < math.inf:
            raise SignalError(f"a look lasts {self.look_min_s!r}..{self.look_s!r} s: give 0 < minimum <= mean")
        if not 0.0 < self.hold_s <= self.away_s:
            raise SignalError(f"away spells (mean {self.away_s!r} s) must last at least a sign's hold "
                              f"({self.hold_s!r} s)")

    @classmethod
    def for_vigilance(cls, vigilance: Vigilance, *, hold_s: float = SIGN_HOLD_S, look_s: float = LOOK_MEAN_S) -> Gaze:
        """The gaze whose open signs are caught with ``vigilance.catch`` (see the module docstring)."""
        if vigilance.catch <= 0.0:
            return cls(look_s, math.inf, hold_s)
        return cls(look_s, max(hold_s, (look_s + hold_s) / vigilance.catch - look_s), hold_s)

    @property
    def looking_share(self) -> float:
        """The share of the time this opponent looks at the signer."""
        return 0.0 if math.isinf(self.away_s) else self.look_s / (self.look_s + self.away_s)

    def open_chance(self) -> float:
        """Chance that one opponent catches a sign made at a moment chosen without looking."""
        return 0.0 if math.isinf(self.away_s) else (self.look_s + self.hold_s) / (self.look_s + self.away_s)

    def discreet_chance(self) -> float:
        """Chance that one opponent, away when the sign starts, turns to look within the hold."""
        return 0.0 if math.isinf(self.away_s) else self.hold_s / self.away_s


def _spell(rng: random.Random, minimum: float, mean: float, *, residual: bool) -> float:
    """A shifted-exponential spell; ``residual``: what is left of one already under way at a
    random moment (uniform over the minimum with chance minimum/mean, else minimum + the tail)."""
    tail = mean - minimum
    if residual and rng.random() < minimum / mean:
        return rng.uniform(0.0, minimum)
    return minimum + (rng.expovariate(1.0 / tail) if tail > 0 else 0.0)


@lru_cache(maxsize=512)
def _looks(key: str, gaze: Gaze, chunks: int) -> tuple[Spell, ...]:
    """Look spells from time 0 to at least ``chunks`` pieces of game time, for one seed key."""
    if math.isinf(gaze.away_s):
        return ()
    rng = random.Random(key)
    until = chunks * _CHUNK_S
    looking = rng.random() < gaze.looking_share
    t, out = 0.0, []
    first = True
    while t < until:
        if looking:
            length = _spell(rng, gaze.look_min_s, gaze.look_s, residual=first)
            out.append((t, t + length))
        else:
            length = _spell(rng, gaze.hold_s, gaze.away_s, residual=first)
        t += length
        looking, first = not looking, False
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Watch:
    """The eyes of a table: who looks at whom, when, during one game (time 0: the game's start).

    >>> w = Watch("7", Vigilance(0.0), 4)
    >>> w.catchers(0, 12.5), w.is_clear(0, 12.5)
    ((), True)
    """

    seed: str
    vigilance: Vigilance
    players: int = 4

    @property
    def gaze(self) -> Gaze:
        return Gaze.for_vigilance(self.vigilance)

    def watchers(self, signer: int) -> tuple[int, ...]:
        """The opponents of ``signer``: everyone but the signer and its partner."""
        if not 0 <= signer < self.players:
            raise SignalError(f"seat {signer!r} is not at this table of {self.players}")
        partner = partner_of(signer, self.players)
        return tuple(s for s in range(self.players) if s not in (signer, partner))

    def looks(self, watcher: int, signer: int, until: float) -> tuple[Spell, ...]:
        """The spells in which ``watcher`` looks at ``signer``, covering game time 0..``until``."""
        if until < 0 or math.isnan(until):
            raise SignalError(f"game time is counted from 0 seconds, got {until!r}")
        chunks = int(until // _CHUNK_S) + 1
        return _looks(f"{self.seed}/look/{watcher}->{signer}", self.gaze, chunks)

    def looking(self, watcher: int, signer: int, t: float) -> bool:
        """Whether ``watcher`` looks at ``signer`` at time ``t``."""
        return _overlaps(self.looks(watcher, signer, t + 1.0), t, t)

    def looking_at(self, signer: int, t: float) -> tuple[int, ...]:
        """The opponents of ``signer`` looking at it at time ``t``."""
        return tuple(w for w in self.watchers(signer) if self.looking(w, signer, t))

    def is_clear(self, signer: int, t: float) -> bool:
        """No opponent looks at ``signer`` at ``t``: a sign made now is discreet."""
        return not self.looking_at(signer, t)

    def catchers(self, signer: int, t: float, hold_s: float | None = None) -> tuple[int, ...]:
        """The opponents who catch a sign ``signer`` starts at ``t``: they look during its hold."""
        hold = self.gaze.hold_s if hold_s is None else hold_s
        return tuple(
            w for w in self.watchers(signer)
            if _overlaps(self.looks(w, signer, t + hold + 1.0), t, t + hold)
        )

    def next_clear(self, signer: int, t: float, within: float) -> float | None:
        """The first moment in ``[t, t + within]`` when no opponent looks at ``signer`` (a timed
        signer's moment), or None when they keep looking all that while."""
        end = t + within
        moment = t
        spells = [self.looks(w, signer, end + 1.0) for w in self.watchers(signer)]
        while moment <= end:
            covering = [c for c in (_covering(s, moment) for s in spells) if c is not None]
            if not covering:
                return moment
            moment = max(c[1] for c in covering)
        return None

    def clear_spells(self, signer: int, start: float, end: float) -> tuple[Spell, ...]:
        """When nobody looked at ``signer`` between ``start`` and ``end`` (for the coach)."""
        if end <= start:
            return ()
        busy = sorted(
            (max(a, start), min(b, end))
            for w in self.watchers(signer) for a, b in self.looks(w, signer, end + 1.0)
            if b > start and a < end
        )
        out, t = [], start
        for a, b in busy:
            if a > t:
                out.append((t, a))
            t = max(t, b)
        if t < end:
            out.append((t, end))
        return tuple(out)


def _covering(spells: tuple[Spell, ...], t: float) -> Spell | None:
    """The spell holding time ``t``, if any."""
    i = bisect.bisect_right(spells, (t, math.inf)) - 1
    if i >= 0 and spells[i][0] <= t < spells[i][1]:
        return spells[i]
    return None


def _overlaps(spells: tuple[Spell, ...], start: float, end: float) -> bool:
    """Whether a spell meets the closed interval ``[start, end]``."""
    i = bisect.bisect_right(spells, (end, math.inf))
    return i > 0 and spells[i - 1][1] > start
