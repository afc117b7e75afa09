"""The "teach your signs" session: a few seconds of neutral face, a few seconds of talking, then 2-3
takes of each sign. The talking sets the rejection margins: speech that passes through a taught
mouth shape must not fire it (docs/vision-personal.md).

``SignTeacher`` is driven by frames (``add(features, timestamp, face_found)``, on the camera's clock),
never by the wall clock, so the app's panel and the tests run the same code: the app feeds it the
live pipeline's features from the camera thread, a test feeds it recorded frames. The schedule is a
list of ``Step``s (hold still, relax, make the sign); the page shows ``prompt`` and ``progress``.
When the last step ends, ``personal.teach`` builds the model (``result``) or says why it cannot
(``error``).

Thread-safe: the camera thread adds frames while the page reads the state.
"""

from __future__ import annotations

import enum
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from trainer.signals.gestures import Gesture
from trainer.vision.personal import PersonalSigns, teach, teachable
from trainer.vision.types import VisionError

NEUTRAL_S = 3.0
TAKE_S = 2.5
RELAX_S = 1.5
TALK_S = 4.0
TAKES = 2


class StepKind(enum.Enum):
    NEUTRAL = "neutral"
    TALK = "talk"
    RELAX = "relax"
    TAKE = "take"


@dataclass(frozen=True, slots=True)
class Step:
    kind: StepKind
    seconds: float
    gesture: Gesture | None = None
    take: int = 0

    def prompt(self) -> str:
        if self.kind is StepKind.NEUTRAL:
            return "Look at the camera with a relaxed, neutral face"
        if self.kind is StepKind.TALK:
            return "Talk for a few seconds, as you would at the table"
        if self.kind is StepKind.RELAX:
            return f"Relax; next: {self.gesture.description if self.gesture else ''}"
        return f"Now: {self.gesture.description} (take {self.take})" if self.gesture else ""


@dataclass(frozen=True, slots=True)
class TeachState:
    """What the page shows."""

    progress: float
    prompt: str
    step: int
    steps: int
    frames: int
    done: bool
    result: PersonalSigns | None = None
    error: str = ""


def schedule(gestures: Sequence[Gesture], takes: int = TAKES, neutral_s: float = NEUTRAL_S,
             take_s: float = TAKE_S, relax_s: float = RELAX_S, talk_s: float = TALK_S) -> tuple[Step, ...]:
    if not 1 <= takes <= 3:
        raise VisionError(f"takes={takes}: teach 1 to 3 takes of each sign")
    chosen = [g for g in dict.fromkeys(gestures) if teachable(g)]
    if not chosen:
        raise VisionError("no face sign to teach: choose at least one face sign (hand signs keep the built-in recognizer)")
    steps = [Step(StepKind.NEUTRAL, neutral_s)] + ([Step(StepKind.TALK, talk_s)] if talk_s > 0 else [])
    for gesture in chosen:
        for take in range(1, takes + 1):
            steps += [Step(StepKind.RELAX, relax_s, gesture, take), Step(StepKind.TAKE, take_s, gesture, take)]
    return tuple(steps)


class SignTeacher:
    """Collects the frames of each step and teaches the model at the end."""

    def __init__(self, steps: Sequence[Step], name: str = "", created: str = "") -> None:
        if not steps or steps[0].kind is not StepKind.NEUTRAL:
            raise VisionError("a teaching session starts with the neutral face")
        self.steps = tuple(steps)
        self.name = name
        self.created = created
        self._lock = threading.Lock()
        self._start: float | None = None
        self._elapsed = 0.0
        self._frames = 0
        self._neutral: list[Mapping[str, float]] = []
        self._rest: list[Mapping[str, float]] = []
        self._takes: dict[tuple[Gesture, int], list[Mapping[str, float]]] = {}
        self._result: PersonalSigns | None = None
        self._error = ""
        self._done = False
        self._ends = []
        total = 0.0
        for step in self.steps:
            total += step.seconds
            self._ends.append(total)

    @property
    def total_seconds(self) -> float:
        return self._ends[-1]

    def _index(self, elapsed: float) -> int:
        for i, end in enumerate(self._ends):
            if elapsed < end:
                return i
        return len(self.steps)

    def add(self, features: Mapping[str, float], timestamp: float, face_found: bool = True) -> None:
        """One analysed frame (the pipeline's ``FrameScores.features``) at ``timestamp`` seconds."""
        with self._lock:
            if self._done:
                return
            if self._start is None:
                self._start = timestamp
            self._elapsed = max(self._elapsed, timestamp - self._start)
            index = self._index(self._elapsed)
            if index >= len(self.steps):
                self._finish()
                return
            if not face_found or not features:
                return
            self._frames += 1
            step = self.steps[index]
            if step.kind is StepKind.NEUTRAL:
                self._neutral.append(dict(features))
            elif step.kind is StepKind.TALK:
                self._rest.append(dict(features))
            elif step.kind is StepKind.TAKE:
                self._takes.setdefault((step.gesture, step.take), []).append(dict(features))

    def _finish(self) -> None:
        self._done = True
        takes: dict[Gesture, list] = {}
        for (gesture, _take), frames in sorted(self._takes.items(), key=lambda kv: (kv[0][0].value, kv[0][1])):
            takes.setdefault(gesture, []).append(frames)
        missing = [s.gesture.value for s in self.steps if s.kind is StepKind.TAKE and s.gesture not in takes]
        try:
            if missing:
                raise VisionError(f"no face seen during the takes of {', '.join(dict.fromkeys(missing))}: "
                                  "stay in view of the camera and try again")
            self._result = teach(self._neutral, takes, self._rest, name=self.name, created=self.created)
        except VisionError as error:
            self._error = str(error)

    def state(self) -> TeachState:
        with self._lock:
            index = min(self._index(self._elapsed), len(self.steps) - 1)
            step = self.steps[index]
            left = max(0.0, self._ends[index] - self._elapsed)
            prompt = "Done" if self._done else f"{step.prompt()} — {left:.0f} s"
            return TeachState(
                progress=min(1.0, self._elapsed / self.total_seconds),
                prompt=prompt,
                step=index + 1,
                steps=len(self.steps),
                frames=self._frames,
                done=self._done,
                result=self._result,
                error=self._error,
            )
