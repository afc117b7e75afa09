"""Each convention's false signs per minute on talking clips: the gestures the recognizer reports while
people only talk or laugh, read through each convention (``Convention.read``, holds included), are
signs the partner would receive though nobody made one.

Pure: fed the events of talking clips (e.g. ``clip_replay.HeldOutClips.figures(...).talking``, held
out by person), it counts. As a tool it runs on the recorded clips, held out by person (every clip
replayed with the face signs refitted without its person: ``clip_replay.held_out_clips``), with and
without the holds each convention asks for speech-made gestures, and lists the real grimace and head
tilt signs of the annotated clips a hold would lose:

    nice -n 10 .venv/bin/python -m trainer.lab.record_clip_runs ../shared/gestures RUNS   # MediaPipe, once
    nice -n 10 .venv/bin/python -m trainer.lab.convention_eval ../shared/gestures RUNS [--json OUT] [--options EXPR]

``--options`` replays with another ``PipelineOptions`` expression (``RecognizerConfig`` and ``Gesture``
in scope), e.g. an earlier recognizer to compare.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from trainer.lab.clip_eval import ClipSpan, SpanKind
from trainer.signals.conventions import Convention
from trainer.signals.gestures import GestureEvent
from trainer.vision.clip_run import ClipRun


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


def _held_out_events(folder, runs_dir, base):
    """(figures, events per clip, the held-out clips) of the runs replayed with ``base`` options."""
    from trainer.lab.clip_replay import figures, held_out_clips, replay  # noqa: PLC0415

    events: dict = {}
    with held_out_clips(folder, runs_dir) as clips:
        def events_of(file: str, run: ClipRun) -> list[GestureEvent]:
            events[file] = replay(run, clips.options_for(file, base))
            return events[file]

        fig = figures(clips.runs, clips.spans, clips.talking, events_of=events_of)
    return fig, events, clips


def main(argv: list[str] | None = None) -> int:
    """Print each convention's false signs per minute; write them as JSON with ``--json``."""
    import argparse  # noqa: PLC0415
    import json  # noqa: PLC0415
    from dataclasses import replace  # noqa: PLC0415
    from pathlib import Path  # noqa: PLC0415

    from trainer.signals.conventions import CONVENTIONS  # noqa: PLC0415
    from trainer.signals.gestures import Gesture  # noqa: PLC0415
    from trainer.vision.pipeline import PipelineOptions  # noqa: PLC0415
    from trainer.vision.recognizer import RecognizerConfig  # noqa: PLC0415

    parser = argparse.ArgumentParser(prog="python -m trainer.lab.convention_eval", description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="the labelled gestures folder (../shared/gestures)")
    parser.add_argument("runs", type=Path, help="the runs recorded by trainer.lab.record_clip_runs")
    parser.add_argument("--json", metavar="OUT", help="also write the figures here")
    parser.add_argument("--options", metavar="EXPR", help="a PipelineOptions expression to replay with")
    args = parser.parse_args(argv)
    scope = {"PipelineOptions": PipelineOptions, "RecognizerConfig": RecognizerConfig, "Gesture": Gesture}
    base = eval(args.options, scope) if args.options else PipelineOptions()  # noqa: S307 - the lab's own command line
    fig, events, clips = _held_out_events(args.folder, args.runs, base)
    rows = {}
    for convention in CONVENTIONS.values():
        held = false_signs(convention, fig.talking, clips.persons)
        bare = false_signs(replace(convention, holds=()), fig.talking, clips.persons)
        lost = held_signs_lost(convention, [(c.file, events[c.file]) for c in fig.clips], clips.spans)
        print(held.line())
        if convention.holds:
            print(f"  without its holds: {bare.per_minute:.2f} false signs/min ({bare.signs}); the holds lose "
                  f"{len(lost)} real sign(s) of the annotated clips"
                  + "".join(f"\n    {f} {s.sign.value} {s.start:.2f}-{s.end:.2f}: event {d:.2f} s"
                            for f, s, d in lost))
        rows[convention.name] = {"per_minute": round(held.per_minute, 3), "signs": held.signs,
                                 "minutes": round(held.minutes, 3), "clips": held.clips, "people": held.people,
                                 "by_sign": dict(held.by_sign), "without_holds_per_minute": round(bare.per_minute, 3),
                                 "signs_lost_to_holds": len(lost)}
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
