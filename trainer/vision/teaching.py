"""The "teach your signs" session: a few seconds of neutral face, a few seconds of talking, then 2-3
takes of each sign. The talking sets the rejection margins: speech that passes through a taught
mouth shape must not fire it (docs/vision-personal.md).

``SignTeacher`` is driven by frames (``add(features, timestamp, face_found)``, on the camera's clock),
never by the wall clock, so the app's panel and the tests run the same code: the app feeds it the
live pipeline's features from the camera thread, a test feeds it recorded frames. The schedule is a
list of ``Step``s (hold still, relax, make the sign); the page shows ``prompt`` and ``progress``.
Each take is judged as soon as it ends (``takes.check_take``: the asked sign's own features moved,
speech does not reach it, it is like the takes of that sign already kept); a refused take keeps
nothing, the page shows why with its meter (``TeachState.last_check``), and the take is asked again
(``RETRIES`` times at most). When the last step ends, ``personal.teach`` builds the model
(``result``) from the takes kept, and ``takes.reliability`` says per sign how reliably it will be
seen (``reliability``), or the session says why it cannot (``error``).

Thread-safe: the camera thread adds frames while the page reads the state.
"""

from __future__ import annotations

import enum
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from trainer.signals.gestures import Gesture
from trainer.vision.personal import PersonalSigns, RestSpace, teach, teachable
from trainer.vision.takes import SignReliability, TakeCheck, check_take, reliability
from trainer.vision.types import VisionError

NEUTRAL_S = 3.0
TAKE_S = 2.5
RELAX_S = 1.5
TALK_S = 4.0
TAKES = 2
RETRIES = 2
"""A refused take is asked again at most this many times; then the session goes on without it."""
RETRY_RELAX_S = 3.0
"""Rest before a refused take is asked again: time to read why it was refused."""


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
    retry: int = 0
    """0 for the scheduled take; 1, 2... when a refused take is asked again."""

    @property
    def sign(self) -> Gesture:
        """The sign of a take (or of the relaxing before one); ValueError for a neutral or talking step."""
        if self.gesture is None:
            raise ValueError(f"a {self.kind.value} step has no sign: only takes and their pauses have one")
        return self.gesture

    def prompt(self) -> str:
        if self.kind is StepKind.NEUTRAL:
            return "Look at the camera with a relaxed, neutral face"
        if self.kind is StepKind.TALK:
            return "Talk for a few seconds, as you would at the table"
        again = " again" if self.retry else ""
        if self.kind is StepKind.RELAX:
            return f"Relax; next{again}: {self.gesture.description if self.gesture else ''}"
        return f"Now{again}: {self.gesture.description} (take {self.take})" if self.gesture else ""


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
    checks: tuple[TakeCheck, ...] = ()
    """Every take judged so far, in order (refused ones included)."""
    reliability: tuple[SignReliability, ...] = ()
    """Per taught sign, at the end: how reliably it will be seen (held out across the takes)."""

    @property
    def last_check(self) -> TakeCheck | None:
        return self.checks[-1] if self.checks else None


def schedule(gestures: Sequence[Gesture], takes: int = TAKES, neutral_s: float = NEUTRAL_S,
             take_s: float = TAKE_S, relax_s: float = RELAX_S, talk_s: float = TALK_S) -> tuple[Step, ...]:
    if not 1 <= takes <= 3:
        raise VisionError(f"takes={takes}: teach 1 to 3 takes of each sign")
    chosen = [g for g in dict.fromkeys(gestures) if teachable(g)]
    if not chosen:
        raise VisionError("no face sign to teach: choose at least one face sign "
                          "(hand signs keep the built-in recognizer)")
    steps = [Step(StepKind.NEUTRAL, neutral_s)] + ([Step(StepKind.TALK, talk_s)] if talk_s > 0 else [])
    for gesture in chosen:
        for take in range(1, takes + 1):
            steps += [Step(StepKind.RELAX, relax_s, gesture, take), Step(StepKind.TAKE, take_s, gesture, take)]
    return tuple(steps)


class SignTeacher:
    """Collects the frames of each step and teaches the model at the end."""

    def __init__(self, steps: Sequence[Step], name: str = "", created: str = "",
                 retry_relax_s: float = RETRY_RELAX_S) -> None:
        if not steps or steps[0].kind is not StepKind.NEUTRAL:
            raise VisionError("a teaching session starts with the neutral face")
        self.steps = list(steps)
        self.name = name
        self.created = created
        self.retry_relax_s = retry_relax_s
        self._lock = threading.Lock()
        self._start: float | None = None
        self._elapsed = 0.0
        self._frames = 0
        self._neutral: list[Mapping[str, float]] = []
        self._rest: list[Mapping[str, float]] = []
        self._takes: dict[tuple[Gesture, int], list[Mapping[str, float]]] = {}
        """Frames of the takes kept (accepted, or not judged yet: the one in progress)."""
        self._result: PersonalSigns | None = None
        self._error = ""
        self._done = False
        self._checks: list[TakeCheck] = []
        self._reliability: tuple[SignReliability, ...] = ()
        self._index = 0
        self._space: RestSpace | None = None
        self._ends: list[float] = []
        self._timeline()

    def _timeline(self) -> None:
        total = 0.0
        self._ends = []
        for step in self.steps:
            total += step.seconds
            self._ends.append(total)

    @property
    def total_seconds(self) -> float:
        return self._ends[-1]

    def _index_at(self, elapsed: float) -> int:
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
            # Every step that ended since the last frame: judge the takes among them (a refused take
            # is asked again, which puts new steps right after it).
            while self._index < len(self.steps) and self._index < self._index_at(self._elapsed):
                if self.steps[self._index].kind is StepKind.TAKE:
                    self._judge(self._index)
                self._index += 1
            index = self._index_at(self._elapsed)
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
                self._takes.setdefault((step.sign, step.take), []).append(dict(features))

    def _judge(self, index: int) -> None:
        """Check the take of step ``index``, which just ended; drop it and ask again when refused."""
        step = self.steps[index]
        key = (step.sign, step.take)
        if self._space is None:
            try:
                self._space = RestSpace.of(self._neutral)
            except VisionError:
                return  # too little neutral face to judge against: teaching will say so at the end
        frames = self._takes.get(key, [])
        kept = [f for (g, t), f in sorted(self._takes.items(), key=lambda kv: kv[0][1])
                if g is step.gesture and t != step.take]
        check = check_take(step.sign, frames, self._space, self._rest, kept)
        self._checks.append(check)
        if check.accepted:
            return
        self._takes.pop(key, None)  # a refused take keeps nothing
        if step.retry < RETRIES:
            again = (Step(StepKind.RELAX, self.retry_relax_s, step.gesture, step.take, step.retry + 1),
                     Step(StepKind.TAKE, step.seconds, step.gesture, step.take, step.retry + 1))
            self.steps[index + 1:index + 1] = again
            self._timeline()

    def _finish(self) -> None:
        self._done = True
        takes: dict[Gesture, list] = {}
        for (gesture, _take), frames in sorted(self._takes.items(), key=lambda kv: (kv[0][0].value, kv[0][1])):
            takes.setdefault(gesture, []).append(frames)
        missing = [s.sign.value for s in self.steps if s.kind is StepKind.TAKE and s.gesture not in takes]
        refused = {c.gesture.value for c in self._checks if not c.accepted}
        try:
            if missing and not set(missing) <= refused:
                raise VisionError(f"no face seen during the takes of {', '.join(dict.fromkeys(missing))}: "
                                  "stay in view of the camera and try again")
            if not takes:
                raise VisionError("no take showed its sign clearly, nothing was taught: "
                                  + "; ".join(dict.fromkeys(c.reason for c in self._checks if not c.accepted)))
            self._result = teach(self._neutral, takes, self._rest, name=self.name, created=self.created)
            self._reliability = tuple(reliability(self._neutral, takes, self._rest).values())
        except VisionError as error:
            self._error = str(error)

    def state(self) -> TeachState:
        with self._lock:
            index = min(self._index_at(self._elapsed), len(self.steps) - 1)
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
                checks=tuple(self._checks),
                reliability=self._reliability,
            )
