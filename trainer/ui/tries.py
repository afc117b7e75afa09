"""One try at the asked sign on the live camera: from the ask to a verdict or a timeout.

Pure functions over frozen values (no Streamlit): the Practice page feeds the watcher's reports in and
gets at most one :class:`~trainer.ui.drill.Attempt` per try. Other gestures seen meanwhile (a blink,
raised brows while concentrating) do not end the try and are not failures: the page lists them as
"signs seen". The try succeeds when the asked sign is *confirmed* (the verdict shows at once, with the
time it took) and is recorded when that gesture *ends* (so the verdict also says how long it was
held). It fails when :data:`TIMEOUT_S` of camera time pass without the sign.

People sign as they read: the asked sign may already be on the face when the ask shows, or begun a
moment before the click on "Next sign" or "Try again". Such a sign counts once it is still held
:data:`HOLD_AFTER_S` after the ask (it was made for the ask, not left over from before), if it began
at most :data:`BEFORE_MAX_S` before the ask.

Times are on the watcher's session clock (seconds), so they are the camera's own, across restarts.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from trainer.signals.conventions import Convention
from trainer.signals.gestures import Gesture, GestureEvent, Side
from trainer.signals.signs import Sign
from trainer.ui import drill

TIMEOUT_S = 15.0
"""Camera seconds after the ask without the sign: the try is a miss."""
HOLD_AFTER_S = 0.5
"""A sign begun before the ask counts once it has been held this long (camera seconds) after it."""
BEFORE_MAX_S = 5.0
"""How long before the ask a sign may have begun and still count: longer, it was not made for it (and
the camera may simply never have reported its end)."""
HOLD_WAIT_S = 5.0
"""Camera seconds after the confirmation without the gesture's end (camera stopped): recorded
without a hold time."""


@dataclass(frozen=True, slots=True)
class Try:
    """The try in progress. ``asked_at`` is None until the first frame analysed after the ask."""

    target: Sign
    asked_at: float | None = None
    seen: GestureEvent | None = None
    """The confirmed event of the asked sign (start and confirmation known, end not yet)."""
    seen_at: float | None = None
    """When it was confirmed (the frame that reported it)."""
    pending: GestureEvent | None = None
    """The asked sign, begun before the ask and still held: it counts once held :data:`HOLD_AFTER_S`
    after the ask."""

    @property
    def took_s(self) -> float | None:
        """From the ask to the confirmation."""
        if self.seen_at is None or self.asked_at is None:
            return None
        return max(0.0, self.seen_at - self.asked_at)


@dataclass(frozen=True, slots=True)
class Step:
    """What one report did to the try: the try afterwards (None: over) and the attempt to record."""

    current: Try | None
    attempt: drill.Attempt | None = None


def ask(target: Sign, now: float | None, held: GestureEvent | None = None) -> Try:
    """A new try at ``target``, asked at camera time ``now`` (None: the camera has not run yet);
    ``held``: a gesture making ``target`` that the camera has confirmed and not seen end (the person
    is making the sign as it is asked)."""
    recent = held is not None and now is not None and held.start >= now - BEFORE_MAX_S
    return Try(target, asked_at=now, pending=held if recent else None)


def stream_began(current: Try, start: float) -> Try:
    """The camera's current stream began at session-clock time ``start``: a sign held at the ask
    that began before it was left open by a stream that stopped; its end will never come, and the
    new stream's frames showing the same gesture are another making of it, which the recognizer
    reports on its own."""
    if current.pending is not None and current.pending.start < start:
        return replace(current, pending=None)
    return current


def on_frame(current: Try, timestamp: float, *, convention: Convention, signing_hand: Side,
             active: frozenset[Gesture] | None = None) -> Step:
    """A frame was analysed at ``timestamp``: starts the clock, or ends the try on a timeout.
    ``active``: the gestures over their threshold in that frame (None: not known); a sign begun
    before the ask is seen only on a frame that still shows it, :data:`HOLD_AFTER_S` after the ask."""
    if current.asked_at is None:
        return Step(replace(current, asked_at=timestamp))
    pending = current.pending
    if (current.seen is None and pending is not None and timestamp >= current.asked_at + HOLD_AFTER_S
            and (active is None or pending.gesture in active)):
        return Step(replace(current, seen=pending, seen_at=timestamp, pending=None))
    if current.seen is None and timestamp - current.asked_at > TIMEOUT_S:
        return Step(None, drill.Attempt(current.target, success=False,
                                        note=f"not seen within {TIMEOUT_S:g} s"))
    if current.seen is not None and current.seen_at is not None and timestamp - current.seen_at > HOLD_WAIT_S:
        return Step(None, _success(current, current.seen, None, convention, signing_hand))
    return Step(current)


def on_event(current: Try, event: GestureEvent, reported_at: float, *, final: bool,
             convention: Convention, signing_hand: Side) -> Step:
    """A gesture was confirmed (``final`` False) or ended (True). Only the asked sign moves the try."""
    if convention.sign_for(event.gesture) is not current.target:
        return Step(current)
    if current.seen is not None:
        if final and event.gesture is current.seen.gesture and event.start == current.seen.start:
            if (current.asked_at is not None and event.start < current.asked_at
                    and event.end < current.asked_at + HOLD_AFTER_S):
                # Begun before the ask and, as its end now shows, let go too soon after it.
                return Step(replace(current, seen=None, seen_at=None))
            return Step(None, _success(current, event, event.duration, convention, signing_hand))
        return Step(current)
    if current.asked_at is not None and event.start < current.asked_at:
        # Begun before the ask: it counts if it is still held HOLD_AFTER_S after the ask.
        if event.start < current.asked_at - BEFORE_MAX_S:
            return Step(current)  # long before: not made for this ask
        counts_from = current.asked_at + HOLD_AFTER_S
        if not final:
            return Step(replace(current, pending=event))  # on_frame confirms it once held long enough
        if event.end >= counts_from:
            confirmed = replace(current, seen=event, seen_at=counts_from, pending=None)
            return Step(None, _success(confirmed, event, event.duration, convention, signing_hand))
        return Step(replace(current, pending=None))  # let go too soon after the ask
    if final:  # confirmed and ended between two reads of the queue: both at once
        confirmed = replace(current, seen=event, seen_at=min(reported_at, event.start + event.duration))
        return Step(None, _success(confirmed, event, event.duration, convention, signing_hand))
    asked = current.asked_at if current.asked_at is not None else reported_at
    return Step(replace(current, asked_at=asked, seen=event, seen_at=reported_at))


def _success(current: Try, event: GestureEvent, hold: float | None, convention: Convention,
             signing_hand: Side) -> drill.Attempt:
    attempt = drill.judge(
        current.target, event, reported_at=current.seen_at if current.seen_at is not None else event.start,
        asked_at=current.asked_at, convention=convention, signing_hand=signing_hand,
    )
    notes = [attempt.note] if attempt.note else []
    if current.asked_at is not None and current.asked_at - event.start >= 0.05:  # "0.0 s before" says nothing
        notes.append(f"begun {current.asked_at - event.start:.1f} s before the ask")
    return replace(attempt, hold_s=None if hold is None else max(0.0, hold), note="; ".join(notes))
