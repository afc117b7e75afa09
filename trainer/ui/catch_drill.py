"""The catch drill of the Practice page: a face across the table makes signs among decoys; click
"seen!" while a real sign shows (RULES.md: catching the opponents' signs is part of the art).

A *round* is a seeded sequence of gestures on one avatar, each held for the time a face holds a
sign (:data:`~trainer.signals.watching.SIGN_HOLD_S`) with pauses between them. Decoys are
gestures the convention gives no sign to (a head tilt, a grimace…): a player who clicks on them
was fooled. A click is judged against what showed at its moment, on one clock (seconds from the
round's start). Pure functions over typed values; no Streamlit.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable
from dataclasses import dataclass

from trainer.signals.conventions import Convention
from trainer.signals.gestures import Gesture
from trainer.signals.signs import Sign
from trainer.signals.watching import SIGN_HOLD_S

FIRST_S = 3.0
"""The first gesture comes this long after the round starts (the page is drawn, the eyes ready)."""
PAUSE_S = (1.0, 3.5)
"""A pause between two gestures, drawn in this range."""
LATE_S = 1.5
"""A click this long after a sign ended is *late* (it was seen, too slowly); later, a click on nothing."""


class Verdict(enum.Enum):
    """What a click on "seen!" was."""

    CAUGHT = "caught"
    """A real sign was showing."""
    FOOLED = "fooled"
    """A decoy was showing: not a sign of the convention."""
    LATE = "late"
    """The sign had just ended."""
    NOTHING = "nothing"
    """Nothing was showing."""


@dataclass(frozen=True, slots=True)
class Show:
    """One gesture of a round: what, when (seconds from the start), for how long, and its sign."""

    index: int
    gesture: Gesture
    at: float
    hold: float
    sign: Sign | None
    """The convention's sign for the gesture; None for a decoy."""

    @property
    def is_sign(self) -> bool:
        return self.sign is not None

    def showing(self, t: float) -> bool:
        return self.at <= t <= self.at + self.hold


@dataclass(frozen=True, slots=True)
class Click:
    """A judged click: when, the verdict, and the gesture it was about (None: nothing)."""

    t: float
    verdict: Verdict
    show: Show | None


@dataclass(frozen=True, slots=True)
class Score:
    """A round's tally up to a moment."""

    signs: int
    """Real signs that have ended (or all of them, at the round's end)."""
    caught: int
    missed: int
    fooled: int
    late: int
    empty: int


class DrillError(ValueError):
    """A round that cannot be made: say which convention and why."""


def decoys(convention: Convention) -> tuple[Gesture, ...]:
    """Gestures the convention gives no sign to: what a face may do without signing."""
    return tuple(g for g in Gesture if convention.sign_for(g) is None)


def make_round(rng: random.Random, convention: Convention, *, gestures: int = 8, signs: int = 4,
               hold: float = SIGN_HOLD_S) -> tuple[Show, ...]:
    """A round of ``gestures`` gestures of which ``signs`` are real signs, in a random order."""
    fakes, real = decoys(convention), convention.gestures
    if not 0 < signs <= gestures:
        raise DrillError(f"a round has between 1 and {gestures} signs, not {signs}")
    if gestures > signs and not fakes:
        raise DrillError(f"the {convention.name} convention gives a sign to every gesture: no decoys to show")
    kinds = [True] * signs + [False] * (gestures - signs)
    rng.shuffle(kinds)
    out, t = [], FIRST_S
    for i, real_sign in enumerate(kinds):
        gesture = rng.choice(real) if real_sign else rng.choice(fakes)
        out.append(Show(i, gesture, round(t, 3), hold, convention.sign_for(gesture)))
        t += hold + rng.uniform(*PAUSE_S)
    return tuple(out)


def judge(shows: Iterable[Show], t: float, clicked: Iterable[Click] = ()) -> Click:
    """The verdict of a click at ``t``: on the gesture showing then (a gesture already clicked
    counts once: a second click on it is a click on nothing)."""
    done = {c.show.index for c in clicked if c.show is not None}
    shows = tuple(shows)
    for show in shows:
        if show.showing(t) and show.index not in done:
            return Click(t, Verdict.CAUGHT if show.is_sign else Verdict.FOOLED, show)
    for show in shows:
        if show.is_sign and show.index not in done and show.at + show.hold < t <= show.at + show.hold + LATE_S:
            return Click(t, Verdict.LATE, show)
    return Click(t, Verdict.NOTHING, None)


def score(shows: Iterable[Show], clicks: Iterable[Click], now: float) -> Score:
    """The tally at ``now``: a real sign that ended without a catch is missed."""
    clicks = tuple(clicks)
    # A click judged CAUGHT always names the show it caught.
    caught_shows = [c.show for c in clicks if c.verdict is Verdict.CAUGHT and c.show is not None]
    caught = {s.index for s in caught_shows}
    ended = [s for s in shows if s.is_sign and s.at + s.hold < now]
    return Score(
        signs=len(ended),
        caught=sum(1 for s in ended if s.index in caught) + sum(1 for s in caught_shows if s.at + s.hold >= now),
        missed=sum(1 for s in ended if s.index not in caught),
        fooled=sum(1 for c in clicks if c.verdict is Verdict.FOOLED),
        late=sum(c.verdict is Verdict.LATE for c in clicks),
        empty=sum(c.verdict is Verdict.NOTHING for c in clicks),
    )


def round_end(shows: Iterable[Show]) -> float:
    """When the round's last gesture ends."""
    return max((s.at + s.hold for s in shows), default=0.0)
