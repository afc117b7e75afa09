"""Video evaluation: event recall and false events per minute on clips annotated with time spans.

The annotations are a TSV file (``samples/clip_spans.tsv`` for ../shared/gestures; ``spans.tsv``
beside a user's own clips), one row per span, columns::

    file  gesture  side  start_s  end_s  kind  person  note

* ``file``: the clip, relative to the folder the TSV describes (the folder given to ``eval-vision``).
* ``gesture``: a gesture name (``brows_up``, ``wink``...), or ``-`` for ``neutral`` / ``talking`` rows.
* ``side``: ``left`` / ``right`` (the subject's own) or ``-``; informative, not scored.
* ``start_s``, ``end_s``: seconds on the clip's own clock.
* ``kind``: ``sign`` (a sign that should be reported), ``dontcare`` (an event of this gesture, or of
  any gesture when ``gesture`` is ``*``, is neither counted nor false there: half-made signs, blinks),
  ``neutral`` (the face at rest: used to teach personal signs) or ``talking`` (speech).
* ``person``: who is in the clip (MANIFEST's ``person``): figures say how many people they rest on.

Scoring: a ``sign`` span is *reported* when an event of its gesture overlaps it, with
``SLACK`` seconds either side; an event that overlaps no span of its gesture (sign or don't-care,
with the same slack) is a *false event*. False events per minute are over the whole length of the
annotated clips. Every clip in the TSV is evaluated whole, so a clip with only neutral rows still
counts its minutes for false events. A talking clip (``labels.talking_clips``) with only don't-care
rows is not an annotated clip (``annotated_clips``): it stays a talking clip, whose events are all
false but those its rows excuse: moments the MANIFEST describes as deliberate-looking signs in a
speaker's clip, checked on the frames.

The frame loop is ``pipeline.analyse_video``'s; this module only adds the spans and the counting.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from trainer.signals.gestures import Gesture, GestureEvent
from trainer.vision.calibration import Profile
from trainer.vision.clip_run import ClipRun, run_clip
from trainer.vision.personal import PersonalSigns
from trainer.vision.types import VisionError

SLACK = 0.3
COLUMNS = ("file", "gesture", "side", "start_s", "end_s", "kind", "person", "note")
USER_SPANS = "spans.tsv"
"""Name of the annotation file in a user's own clip folder (``eval-vision DIR`` reads DIR/spans.tsv)."""


class SpanKind(enum.Enum):
    SIGN = "sign"
    DONTCARE = "dontcare"
    NEUTRAL = "neutral"
    TALKING = "talking"


ANY = "*"


@dataclass(frozen=True, slots=True)
class ClipSpan:
    file: str
    gesture: Gesture | None
    """None for neutral / talking rows and for a don't-care of any gesture (``*``)."""
    side: str
    start: float
    end: float
    kind: SpanKind
    person: str
    note: str = ""

    @property
    def sign(self) -> Gesture:
        """The gesture of a sign span (``load_spans`` refuses a sign row without one)."""
        if self.gesture is None:
            raise VisionError(f"{self.file} {self.start:.2f}-{self.end:.2f} s: a {self.kind.value} span names "
                              "no gesture")
        return self.gesture

    def covers(self, event: GestureEvent, slack: float = SLACK) -> bool:
        return event.start <= self.end + slack and event.end >= self.start - slack

    def excuses(self, event: GestureEvent, slack: float = SLACK) -> bool:
        """This span makes ``event`` not a false event."""
        if self.kind is SpanKind.SIGN:
            return self.gesture is event.gesture and self.covers(event, slack)
        if self.kind is SpanKind.DONTCARE:
            return (self.gesture is None or self.gesture is event.gesture) and self.covers(event, slack)
        return False


def load_spans(path: Path | str) -> list[ClipSpan]:
    """Read a spans TSV; VisionError naming the line and what to write on any bad row."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise VisionError(f"cannot read the clip spans {path}: {error.strerror}") from None
    numbered = [(n, line) for n, line in enumerate(text.splitlines(), 1)
                if line.strip() and not line.lstrip().startswith("#")]
    if not numbered:
        raise VisionError(f"{path} is empty: write a header line ({' '.join(COLUMNS)}) and one line per span")
    header = numbered[0][1].split("\t")
    missing = [c for c in COLUMNS[:7] if c not in header]
    if missing:
        raise VisionError(f"{path}: the header lacks {', '.join(missing)}: the columns are {', '.join(COLUMNS)} "
                          "(tab-separated)")
    spans: list[ClipSpan] = []
    for number, line in numbered[1:]:
        values = line.split("\t")
        row = dict(zip(header, values + [""] * (len(header) - len(values)), strict=False))
        spans.append(_span(row, f"{path}:{number}"))
    return spans


def _span(row: Mapping[str, str], where: str) -> ClipSpan:
    try:
        kind = SpanKind((row.get("kind") or "").strip())
    except ValueError:
        raise VisionError(f"{where}: kind {row.get('kind')!r} must be one of "
                          f"{', '.join(k.value for k in SpanKind)}") from None
    name = (row.get("gesture") or "").strip()
    gesture: Gesture | None = None
    if kind in (SpanKind.SIGN, SpanKind.DONTCARE) and name != ANY:
        try:
            gesture = Gesture.parse(name)
        except ValueError:
            raise VisionError(f"{where}: gesture {name!r} is not a gesture name (e.g. wink, brows_up; "
                              "'*' for any gesture in a dontcare row)") from None
    if kind is SpanKind.SIGN and gesture is None:
        raise VisionError(f"{where}: a sign row needs a gesture name, not {name!r}")
    try:
        start, end = float(row["start_s"]), float(row["end_s"])
    except (TypeError, ValueError):
        raise VisionError(f"{where}: start_s and end_s must be seconds (e.g. 0.4 and 1.25)") from None
    if not 0 <= start < end:
        raise VisionError(f"{where}: need 0 <= start_s < end_s, got {start} and {end}")
    file = (row.get("file") or "").strip()
    if not file:
        raise VisionError(f"{where}: the file column is empty: name the clip (relative to the folder)")
    return ClipSpan(file, gesture, (row.get("side") or "-").strip(), start, end, kind,
                    (row.get("person") or "").strip() or file, (row.get("note") or "").strip())


# -- one clip ---------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class ClipScore:
    file: str
    person: str
    duration: float
    reported: tuple[ClipSpan, ...]
    missed: tuple[ClipSpan, ...]
    false_events: tuple[GestureEvent, ...]

    def to_json(self) -> dict:
        return {
            "file": self.file,
            "person": self.person,
            "duration_s": round(self.duration, 2),
            "signs": len(self.reported) + len(self.missed),
            "reported": len(self.reported),
            "missed": [_span_json(s) for s in self.missed],
            "false_events": [e.to_json() for e in self.false_events],
        }


def score_clip(file: str, events: Iterable[GestureEvent], spans: Sequence[ClipSpan], duration: float,
               slack: float = SLACK) -> ClipScore:
    """Which sign spans of one clip were reported, and which events were false (pure)."""
    events = tuple(events)
    mine = [s for s in spans if s.file == file]
    signs = [s for s in mine if s.kind is SpanKind.SIGN]
    reported = tuple(s for s in signs if any(e.gesture is s.gesture and s.covers(e, slack) for e in events))
    missed = tuple(s for s in signs if s not in reported)
    false = unexcused(file, events, mine, slack)
    person = mine[0].person if mine else file
    return ClipScore(file, person, duration, reported, missed, false)


# -- a whole annotated folder -----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class ClipReport:
    clips: tuple[ClipScore, ...]
    label: str = "population"

    @property
    def signs(self) -> int:
        return sum(len(c.reported) + len(c.missed) for c in self.clips)

    @property
    def reported(self) -> int:
        return sum(len(c.reported) for c in self.clips)

    @property
    def recall(self) -> float:
        return self.reported / self.signs if self.signs else 0.0

    @property
    def minutes(self) -> float:
        return sum(c.duration for c in self.clips) / 60.0

    @property
    def false_events(self) -> int:
        return sum(len(c.false_events) for c in self.clips)

    @property
    def false_per_minute(self) -> float:
        return self.false_events / self.minutes if self.minutes else 0.0

    @property
    def people(self) -> int:
        return len({c.person for c in self.clips})

    @property
    def signing_people(self) -> int:
        """People with at least one sign span (the recall rests on them)."""
        return len({c.person for c in self.clips if c.reported or c.missed})

    def by_gesture(self) -> dict[Gesture, tuple[int, int]]:
        """gesture -> (reported, signs)."""
        out: dict[Gesture, list[int]] = {}
        for clip in self.clips:
            for span in clip.reported:
                out.setdefault(span.sign, [0, 0])[0] += 1
            for span in clip.reported + clip.missed:
                out.setdefault(span.sign, [0, 0])[1] += 1
        return {g: (v[0], v[1]) for g, v in sorted(out.items(), key=lambda kv: kv[0].value)}

    def to_json(self) -> dict:
        return {
            "label": self.label,
            "clips": len(self.clips),
            "people": self.people,
            "signing_people": self.signing_people,
            "minutes": round(self.minutes, 3),
            "signs": self.signs,
            "reported": self.reported,
            "event_recall": round(self.recall, 4),
            "false_events": self.false_events,
            "false_per_minute": round(self.false_per_minute, 3),
            "by_gesture": {g.value: {"reported": r, "signs": n} for g, (r, n) in self.by_gesture().items()},
            "per_clip": [c.to_json() for c in self.clips],
        }

    def format_table(self, mistakes: bool = False) -> str:
        lines = [
            f"Clips ({self.label}): {self.reported}/{self.signs} signs reported (event recall "
            f"{self.recall:.2f}), {self.false_events} false events in {self.minutes:.2f} min "
            f"({self.false_per_minute:.2f}/min); {len(self.clips)} clips, {self.people} people "
            f"({self.signing_people} with signs)",
            f"{'gesture':<14}{'reported':>9}{'signs':>7}",
        ]
        for gesture, (r, n) in self.by_gesture().items():
            lines.append(f"{gesture.value:<14}{r:>9}{n:>7}")
        if mistakes:
            for clip in self.clips:
                for span in clip.missed:
                    lines.append(f"  missed {span.sign.value} {span.start:.2f}-{span.end:.2f} s in {clip.file}")
                for event in clip.false_events:
                    lines.append(f"  false  {event.gesture.value} {event.start:.2f}-{event.end:.2f} s in {clip.file}")
        return "\n".join(lines)


def unexcused(file: str, events: Iterable[GestureEvent], spans: Sequence[ClipSpan],
              slack: float = SLACK) -> tuple[GestureEvent, ...]:
    """The events of ``file`` that none of its spans excuses: its false events (pure)."""
    mine = [s for s in spans if s.file == file]
    return tuple(e for e in events if not any(s.excuses(e, slack) for s in mine))


def clip_files(spans: Sequence[ClipSpan]) -> list[str]:
    """Every clip the spans name, in the order of the TSV."""
    return list(dict.fromkeys(s.file for s in spans))


def annotated_clips(spans: Sequence[ClipSpan], talking: Collection[str]) -> list[str]:
    """The clips scored against their spans, in the order of the TSV: every clip named but a talking
    clip (of ``talking``) whose rows are all don't-care, which stays a talking clip with those moments
    excused (``unexcused``)."""
    scored = {s.file for s in spans if s.kind is not SpanKind.DONTCARE or s.file not in talking}
    return [f for f in clip_files(spans) if f in scored]


def scored_spans(folder: Path | str, spans: Sequence[ClipSpan]) -> list[ClipSpan]:
    """The spans of ``folder``'s annotated clips (``annotated_clips``, with the talking clips of the
    folder's labels; a folder of clips without labelled sub-folders has none)."""
    from trainer.lab.labels import talking_clips  # noqa: PLC0415 - the MANIFEST only when asked

    try:
        talking = talking_clips(folder)
    except VisionError:
        talking = []
    kept = set(annotated_clips(spans, talking))
    return [s for s in spans if s.file in kept]


def spans_for(folder: Path | str, spans_file: Path | str | None = None) -> tuple[Path, list[ClipSpan]] | None:
    """The spans that describe ``folder``: ``spans_file`` when given, else ``folder/spans.tsv`` (a
    user's own clips), else None."""
    folder = Path(folder)
    path = Path(spans_file) if spans_file is not None else folder / USER_SPANS
    if spans_file is None and not path.is_file():
        return None
    return path, load_spans(path)


def evaluate_clips(
    folder: Path | str,
    spans: Sequence[ClipSpan],
    options=None,
    profile: Profile | None = None,
    personal: PersonalSigns | Callable[[str], PersonalSigns | None] | None = None,
    max_frames: int | None = None,
    progress: Callable[[str], None] | None = None,
    label: str = "population",
    runs: dict[str, ClipRun] | None = None,
    options_for: Callable[[str], object] | None = None,
) -> ClipReport:
    """Run every annotated clip of ``folder`` and score it against its spans. ``personal`` may be a
    function of the clip's file (a per-person model, None for population scores). ``runs``, when
    given, receives each clip's run (with features), e.g. to teach personal signs from it.
    ``options_for(file)``, when given, replaces ``options`` per clip (the face signs refitted without
    the clip's person: a held-out figure)."""
    folder = Path(folder)
    scores: list[ClipScore] = []
    for file in clip_files(spans):
        path = folder / file
        if not path.is_file():
            raise VisionError(f"{path}: annotated in the spans file but not found: fix the file column")
        model = personal(file) if callable(personal) else personal
        if progress is not None:
            progress(f"clip {file}" + (" (personal signs)" if model is not None else ""))
        run = run_clip(path, options_for(file) if options_for is not None else options, profile=profile,
                       personal=model, keep_features=runs is not None, max_frames=max_frames)
        if runs is not None:
            runs[file] = run
        scores.append(score_clip(file, run.events, spans, run.duration))
    return ClipReport(tuple(scores), label)


def _span_json(span: ClipSpan) -> dict:
    return {
        "gesture": span.gesture.value if span.gesture else None,
        "side": span.side,
        "start": span.start,
        "end": span.end,
        "note": span.note,
    }


if __name__ == "__main__":
    from trainer.lab.tool import library_main

    raise SystemExit(library_main("clip_eval", __doc__))
