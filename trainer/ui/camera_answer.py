"""A quiz answer made in front of the camera: taken only when it is the person's act.

Pure functions over frozen values (no Streamlit): the Quiz page feeds the watcher's reports in and
gets back at most one gesture to take as the answer. The rules:

* **Only what happens after the question.** Frames analysed before the question was shown (still in
  the watcher's queue when it shows) are ignored: ``after`` is the camera time of the last frame
  analysed when the question was asked.
* **A ready moment first.** The camera takes an answer only once the person is ready: a relaxed face
  (no sign over its threshold) held :data:`NEUTRAL_S` of camera time, or a click on "show me".
* **The first sign begun after that** answers (confirmed, not waiting for its end). A sign already
  held at the ready moment is not taken: it was begun before the person knew the question.
* **Only while the camera plays.** The page drops every report while it is stopped, and the person
  must be ready again after a restart.

Times are the watcher's session clock (seconds), as in ``trainer.ui.tries``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from trainer.signals.gestures import Gesture, GestureEvent

NEUTRAL_S = 0.5
"""Camera seconds of a relaxed face after the question before the camera takes a sign."""


@dataclass(frozen=True, slots=True)
class CameraAnswer:
    """Where the camera is in taking one question's answer."""

    after: float | None = None
    """Camera time of the last frame analysed when the question was shown (None: none yet)."""
    neutral_since: float | None = None
    """Since when the face has been relaxed without a break (None: not relaxed now)."""
    ready_at: float | None = None
    """From when a sign begun counts as the answer (None: not ready yet)."""
    show_me: bool = False
    """The person clicked "show me": ready at the next frame."""

    @property
    def ready(self) -> bool:
        return self.ready_at is not None


def ask(after: float | None) -> CameraAnswer:
    """A new question, shown when the camera's last analysed frame was at ``after``."""
    return CameraAnswer(after=after)


def show_me(state: CameraAnswer) -> CameraAnswer:
    """The person says they are ready: the camera takes the first sign begun from the next frame."""
    return replace(state, show_me=True)


def stopped(state: CameraAnswer) -> CameraAnswer:
    """The camera stopped: whatever readiness there was is gone (a new start needs a new one)."""
    return replace(state, neutral_since=None, ready_at=None, show_me=False)


def relaxed(scores: Iterable[tuple[Gesture, float]], thresholds: Iterable[tuple[Gesture, float]],
            face_found: bool) -> bool:
    """A face is in view and no gesture scores over its threshold (0.5 where none is given)."""
    if not face_found:
        return False
    limits = dict(thresholds)
    return all(score < limits.get(gesture, 0.5) for gesture, score in scores)


def on_frame(state: CameraAnswer, timestamp: float, *, neutral: bool) -> CameraAnswer:
    """A frame analysed at ``timestamp``; ``neutral``: the face was relaxed in it."""
    if state.after is not None and timestamp <= state.after:
        return state  # analysed before the question showed
    if state.ready:
        return state
    if state.show_me:
        return replace(state, ready_at=timestamp, show_me=False)
    if not neutral:
        return replace(state, neutral_since=None)
    since = state.neutral_since if state.neutral_since is not None else timestamp
    if timestamp - since >= NEUTRAL_S:
        return replace(state, neutral_since=since, ready_at=timestamp)
    return replace(state, neutral_since=since)


def answer(state: CameraAnswer, event: GestureEvent) -> GestureEvent | None:
    """The event to take as the answer: the camera is ready and the sign began after that."""
    if state.ready_at is None or event.start < state.ready_at:
        return None
    return event
