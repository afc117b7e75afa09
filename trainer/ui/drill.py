"""The Practice drill: name a sign, judge what the recognizer reported, keep score per sign.

Pure functions over typed values (no Streamlit, no vision): the recognizer's ``GestureEvent``s come
in, the convention turns gestures into signs, and an :class:`Attempt` comes out with the time to
detect (from the moment the sign was asked to the frame that reported it, on the camera's clock) and
the hold. Statistics per sign (tries, successes, current streak, best time) are computed from the
attempt history, which the app persists in the Store.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from trainer.signals.conventions import Convention
from trainer.signals.gestures import BodyPart, Gesture, GestureEvent, Side
from trainer.signals.signs import Sign


@dataclass(frozen=True, slots=True)
class Attempt:
    """One try at a sign. ``seen`` is what the recognizer reported (None: gave up / timed out)."""

    target: Sign
    success: bool
    seen: Gesture | None = None
    seen_sign: Sign | None = None
    detect_s: float | None = None
    hold_s: float | None = None
    side: Side | None = None
    count: int = 1
    note: str = ""


@dataclass(frozen=True, slots=True)
class SignStats:
    sign: Sign
    tries: int = 0
    successes: int = 0
    streak: int = 0
    """Successes in a row, ending with the latest try."""
    best_detect_s: float | None = None

    @property
    def rate(self) -> float:
        return self.successes / self.tries if self.tries else 0.0


def judge(
    target: Sign,
    event: GestureEvent,
    *,
    reported_at: float,
    asked_at: float | None,
    convention: Convention,
    signing_hand: Side,
) -> Attempt:
    """Whether ``event`` makes ``target`` under ``convention``, with its timings.

    A hand sign made with the other hand still counts (the sign is the same at the table) but the
    note says so, because the user said which hand they sign with.
    """
    sign = convention.sign_for(event.gesture)
    detect = None if asked_at is None else max(0.0, reported_at - asked_at)
    note = ""
    if sign is target and event.gesture.body_part is BodyPart.HAND and event.side not in (None, signing_hand):
        note = f"made with your {event.side.value} hand; you chose {signing_hand.value}-handed"
    return Attempt(
        target=target,
        success=sign is target,
        seen=event.gesture,
        seen_sign=sign,
        detect_s=detect,
        hold_s=max(0.0, event.duration),
        side=event.side,
        count=event.count,
        note=note,
    )


def stats(history: Iterable[Attempt], signs: Sequence[Sign]) -> dict[Sign, SignStats]:
    """Per-sign statistics over ``history`` (oldest first)."""
    out = {s: SignStats(s) for s in signs}
    for attempt in history:
        old = out.get(attempt.target, SignStats(attempt.target))
        best = old.best_detect_s
        if attempt.success and attempt.detect_s is not None:
            best = attempt.detect_s if best is None else min(best, attempt.detect_s)
        out[attempt.target] = SignStats(
            sign=attempt.target,
            tries=old.tries + 1,
            successes=old.successes + attempt.success,
            streak=old.streak + 1 if attempt.success else 0,
            best_detect_s=best,
        )
    return out


def weak_signs(table: dict[Sign, SignStats], limit: int = 3) -> tuple[Sign, ...]:
    """The signs to practise next: never tried first, then lowest success rate, shortest streak."""
    ranked = sorted(table.values(), key=lambda s: (s.tries > 0, s.rate, s.streak, s.tries))
    return tuple(s.sign for s in ranked[:limit])


def practicable_signs(convention: Convention) -> tuple[Sign, ...]:
    """Every sign the convention has a gesture for, in the Sign enum's order."""
    return tuple(s for s in Sign if convention.gestures_for(s))


def next_target(rng: random.Random, table: dict[Sign, SignStats], *, avoid: Sign | None = None) -> Sign:
    """A weak sign, picked at random among the three weakest (not the one just practised)."""
    candidates = [s for s in weak_signs(table, limit=4) if s is not avoid] or list(table)
    return rng.choice(candidates)
