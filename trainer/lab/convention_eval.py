"""Each convention's false signs per minute on talking clips: the gestures the recognizer reports while
people only talk or laugh, read through each convention (``Convention.read``, holds included), are
signs the partner would receive though nobody made one.

Pure: fed the events of talking clips (e.g. ``clip_replay.HeldOutClips.figures(...).talking``, held
out by person), it counts; ``scripts/convention_false_signs.py`` runs it on the recorded clips.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from trainer.lab.clip_eval import ClipSpan, SpanKind
from trainer.signals.conventions import Convention
from trainer.signals.gestures import GestureEvent


@dataclass(frozen=True, slots=True)
class ConventionFalse:
    """What one convention sends the partner from talking clips."""

    name: str
    signs: int
    minutes: float
    clips: int
    people: int
    by_sign: tuple[tuple[str, int], ...]
    """Sign name -> how many, most first."""

    @property
    def per_minute(self) -> float:
        return self.signs / self.minutes if self.minutes else 0.0

    def line(self) -> str:
        what = ", ".join(f"{n} {s}" for s, n in self.by_sign) or "none"
        return (f"{self.name:<18} {self.per_minute:5.2f} false signs/min ({self.signs} in {self.minutes:.2f} min, "
                f"{self.clips} clips, {self.people} people): {what}")


def false_signs(convention: Convention, talking: Iterable[tuple[str, float, Sequence[GestureEvent]]],
                person_of: Mapping[str, str]) -> ConventionFalse:
    """The signs ``convention`` reads from the events of talking clips ``(file, seconds, events)``."""
    talking = list(talking)
    counts: Counter[str] = Counter()
    for _file, _seconds, events in talking:
        for event in events:
            made = convention.read(event)
            if made is not None:
                counts[made.signal.sign.value] += 1
    minutes = sum(seconds for _, seconds, _ in talking) / 60.0
    people = len({person_of.get(file, file) for file, _, _ in talking})
    return ConventionFalse(convention.name, sum(counts.values()), minutes, len(talking), people,
                           tuple(counts.most_common()))


def held_signs_lost(convention: Convention, clips: Iterable[tuple[str, Sequence[GestureEvent]]],
                    spans: Sequence[ClipSpan]) -> list[tuple[str, ClipSpan, float]]:
    """The sign spans of the gestures ``convention`` asks to be held whose event was seen but is too
    short to make the sign: (file, span, longest covering event in seconds). What a hold costs."""
    lost = []
    for file, events in clips:
        for span in (s for s in spans if s.file == file and s.kind is SpanKind.SIGN):
            hold = convention.hold(span.gesture) if span.gesture is not None else 0.0
            if not hold:
                continue
            covering = [e for e in events if e.gesture is span.gesture and span.covers(e)]
            if covering and max(e.duration for e in covering) + 1e-9 < hold:
                lost.append((file, span, max(e.duration for e in covering)))
    return lost
