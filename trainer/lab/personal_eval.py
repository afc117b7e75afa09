"""How well personal signs work: teach each person from ONE take of each sign, test on their later takes.

For every person of an annotated clip set (``clip_eval`` spans) the model is taught from their
``neutral`` spans, their ``talking`` spans (rejection margins) and the first ``sign`` span of each
gesture that shows that sign alone (overlapping no other sign span); the later sign spans of those
gestures are the test. Everything else of their footage counts
for false events per minute (``clip_eval`` rules: 0.3 s slack, don't-care spans excused).

The clips are run once through the pipeline (``clip_eval.run_clip``, features kept); population and
personal events then come from replaying those features through a fresh ``Pipeline``'s static stage
and recognizer (``score_parts`` + ``step``), so both use the same recorded frames.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from trainer.lab.clip_eval import ClipSpan, SpanKind, clip_files, score_clip
from trainer.signals.gestures import Gesture, GestureEvent
from trainer.vision.clip_run import ClipRun
from trainer.vision.personal import PersonalSigns, RestSpace, teach, teachable
from trainer.vision.takes import check_take
from trainer.vision.types import VisionError


def replay_events(run: ClipRun, personal: PersonalSigns | None = None) -> list[GestureEvent]:
    """The events of a recorded run, re-scored (population, or with ``personal`` signs)."""
    if not run.features:
        raise VisionError(f"{run.path}: the run kept no features: run it with keep_features=True")
    from trainer.lab.clip_replay import rescored  # noqa: PLC0415

    events = rescored(run, personal=personal, mute_hidden=False)
    return sorted(events, key=lambda e: (e.start, e.gesture.value))


def _frames_in(runs: Mapping[str, ClipRun], spans: Sequence[ClipSpan]) -> list[Mapping[str, float]]:
    out: list[Mapping[str, float]] = []
    for span in spans:
        run = runs[span.file]
        out.extend(f.features for f in run.features if f.face and span.start <= f.timestamp <= span.end)
    return out


@dataclass(frozen=True, slots=True)
class PersonResult:
    person: str
    taught: tuple[Gesture, ...]
    tests: int
    reported: int
    population_reported: int
    minutes: float
    false_events: int
    population_false: int
    talking_minutes: float
    talking_false: int
    talking_population_false: int
    missed: tuple[str, ...] = ()
    refused: tuple[str, ...] = ()
    """Teaching takes the take check refused (``takes.check_take``): not taught, as the live session
    would ask for them again."""

    def to_json(self) -> dict:
        return {
            "person": self.person,
            "taught": [g.value for g in self.taught],
            "tests": self.tests,
            "reported": self.reported,
            "population_reported": self.population_reported,
            "minutes": round(self.minutes, 3),
            "false_events": self.false_events,
            "population_false": self.population_false,
            "talking_minutes": round(self.talking_minutes, 3),
            "talking_false": self.talking_false,
            "talking_population_false": self.talking_population_false,
            "missed": list(self.missed),
            "refused": list(self.refused),
        }


@dataclass(frozen=True, slots=True)
class PersonalReport:
    people: tuple[PersonResult, ...]

    def total(self, name: str) -> float:
        return sum(getattr(p, name) for p in self.people)

    def to_json(self) -> dict:
        minutes = self.total("minutes")
        talk = self.total("talking_minutes")
        return {
            "people": len(self.people),
            "tests": int(self.total("tests")),
            "reported": int(self.total("reported")),
            "population_reported": int(self.total("population_reported")),
            "minutes": round(minutes, 3),
            "false_per_minute": round(self.total("false_events") / minutes, 3) if minutes else 0.0,
            "population_false_per_minute": round(self.total("population_false") / minutes, 3) if minutes else 0.0,
            "talking_minutes": round(talk, 3),
            "per_person": [p.to_json() for p in self.people],
        }

    def format_table(self) -> str:
        data = self.to_json()
        talk = self.total("talking_minutes")
        tests = data["tests"] or 1
        lines = [
            f"Personal signs taught from ONE take each: {data['reported']}/{data['tests']} later takes reported "
            f"({data['reported'] / tests:.2f}; population {data['population_reported']}/{data['tests']}), "
            f"{data['false_per_minute']:.2f} false events/min (population {data['population_false_per_minute']:.2f}) "
            f"over {data['minutes']:.2f} min; {data['people']} people",
            f"{'person':<28}{'taught':<30}{'later':>6}{'pers.':>6}{'pop.':>6}{'false':>6}{'pop.':>6}{'min':>7}",
        ]
        for p in self.people:
            lines.append(f"{p.person[:27]:<28}{','.join(g.value for g in p.taught)[:29]:<30}{p.tests:>6}"
                         f"{p.reported:>6}{p.population_reported:>6}{p.false_events:>6}{p.population_false:>6}"
                         f"{p.minutes:>7.2f}")
            for miss in p.missed:
                lines.append(f"    {miss}")
            for refused in p.refused:
                lines.append(f"    take refused, not taught: {refused}")
        for p in (p for p in self.people if p.talking_minutes > 0):
            lines.append(f"talking of {p.person} (held-out halves): {p.talking_false} false events with the "
                         f"profile, {p.talking_population_false} without, in {p.talking_minutes * 60:.1f} s")
        if talk:
            lines.append(f"talking, all: {self.total('talking_false') / talk:.2f} false events/min with the profiles, "
                         f"{self.total('talking_population_false') / talk:.2f} without, over {talk * 60:.1f} s")
        return "\n".join(lines)


def _teaching_takes(mine: Sequence[ClipSpan]) -> tuple[dict[Gesture, ClipSpan], list[ClipSpan]]:
    """(the teaching take per gesture, the later takes tested) of one person's spans."""
    signs = sorted((s for s in mine if s.kind is SpanKind.SIGN and teachable(s.sign)),
                   key=lambda s: (s.file, s.start))
    # The teaching take is the first take of a sign made alone (a take that overlaps another sign,
    # a wink made with a smirk, would teach both at once); the test is every later take.
    first: dict[Gesture, ClipSpan] = {}
    for s in signs:
        alone = not any(o.gesture is not s.gesture and o.file == s.file and o.start < s.end and s.start < o.end
                        for o in signs)
        if alone:
            first.setdefault(s.sign, s)
    tests = [s for s in signs if s.gesture in first and (s.file, s.start) > (first[s.gesture].file,
                                                                              first[s.gesture].start)]
    return first, tests


def _refuse_bad_takes(runs: Mapping[str, ClipRun], first: dict[Gesture, ClipSpan], neutral: Sequence[ClipSpan],
                      talk_teach: Sequence[ClipSpan]) -> list[str]:
    """Drop from ``first`` the takes ``check_take`` refuses, as the app's teaching page would; say why."""
    refused: list[str] = []
    try:
        space = RestSpace.of(_frames_in(runs, neutral))
    except VisionError:
        return refused  # too little neutral face: teach() says so
    rest = _frames_in(runs, talk_teach)
    for gesture, span in list(first.items()):
        check = check_take(gesture, _frames_in(runs, [span]), space, rest)
        if not check.accepted:
            refused.append(f"{gesture.value} {span.start:.2f}-{span.end:.2f} s in {span.file}: {check.reason}")
            del first[gesture]
    return refused


def _score_person(person: str, mine: Sequence[ClipSpan], spans: Sequence[ClipSpan], runs: Mapping[str, ClipRun],
                  model: PersonalSigns, first: Mapping[Gesture, ClipSpan], tests: Sequence[ClipSpan],
                  talk_test: Sequence[ClipSpan], refused: Sequence[str]) -> PersonResult:
    """One person's later takes and false events, with their model and with the population's."""
    reported = population_reported = false = population_false = 0
    minutes = talk_minutes = 0.0
    talk_false = talk_pop_false = 0
    missed: list[str] = []
    for file in clip_files(mine):
        run = runs[file]
        # The teaching takes are excused: recall is measured on the later takes only.
        file_spans = [s for s in spans if s.file == file]
        mine_scored = score_clip(file, replay_events(run, model), file_spans, run.duration)
        pop_scored = score_clip(file, replay_events(run), file_spans, run.duration)
        test_here = [s for s in tests if s.file == file]
        reported += sum(1 for s in test_here if s in mine_scored.reported)
        population_reported += sum(1 for s in test_here if s in pop_scored.reported)
        missed += [f"missed {s.sign.value} {s.start:.2f}-{s.end:.2f} s in {file}"
                   for s in test_here if s not in mine_scored.reported]
        false += len(mine_scored.false_events)
        population_false += len(pop_scored.false_events)
        minutes += run.duration / 60.0
        for span in (s for s in talk_test if s.file == file):
            talk_minutes += (span.end - span.start) / 60.0
            talk_false += sum(1 for e in mine_scored.false_events if span.covers(e, 0.0))
            talk_pop_false += sum(1 for e in pop_scored.false_events if span.covers(e, 0.0))
    return PersonResult(person, tuple(first), len(tests), reported, population_reported, minutes,
                        false, population_false, talk_minutes, talk_false, talk_pop_false,
                        tuple(missed), tuple(refused))


def one_take_eval(
    spans: Sequence[ClipSpan],
    runs: Mapping[str, ClipRun],
    progress: Callable[[str], None] | None = None,
) -> PersonalReport:
    """Teach each person from the first take of each of their signs; test on the later takes."""
    say = progress or (lambda _message: None)
    people: dict[str, list[ClipSpan]] = {}
    for span in spans:
        people.setdefault(span.person, []).append(span)
    results: list[PersonResult] = []
    for person, mine in people.items():
        first, tests = _teaching_takes(mine)
        neutral = [s for s in mine if s.kind is SpanKind.NEUTRAL]
        if not first or not neutral:
            continue  # nothing to teach, or no neutral face to teach from
        # Talking teaches the rejection margin from the first half of each talking span; false events
        # while talking are counted on the second halves only (held out).
        talking = [s for s in mine if s.kind is SpanKind.TALKING]
        talk_teach = [replace(s, end=(s.start + s.end) / 2) for s in talking]
        talk_test = [replace(s, start=(s.start + s.end) / 2) for s in talking]
        refused = _refuse_bad_takes(runs, first, neutral, talk_teach)
        tests = [s for s in tests if s.gesture in first]
        if not first:
            continue
        say(f"{person}: teach {', '.join(g.value for g in first)}; {len(tests)} later takes")
        try:
            model = teach(_frames_in(runs, neutral), {g: [_frames_in(runs, [s])] for g, s in first.items()},
                          _frames_in(runs, talk_teach), name=person)
        except VisionError as error:
            say(f"  cannot teach {person}: {error}")
            continue
        results.append(_score_person(person, mine, spans, runs, model, first, tests, talk_test, refused))
    return PersonalReport(tuple(results))


def main(argv: list[str] | None = None) -> int:
    """Run every clip of a spans file once (or read the cache), then print the one-take report."""
    import argparse  # noqa: PLC0415
    import json  # noqa: PLC0415
    import pickle  # noqa: PLC0415
    import sys  # noqa: PLC0415
    from pathlib import Path  # noqa: PLC0415

    from trainer.lab.clip_eval import load_spans, scored_spans  # noqa: PLC0415
    from trainer.lab.clip_replay import run_file  # noqa: PLC0415
    from trainer.vision.clip_run import run_clip  # noqa: PLC0415
    from trainer.vision.pipeline import PipelineOptions  # noqa: PLC0415

    repo = Path(__file__).resolve().parents[2]
    parser = argparse.ArgumentParser(prog="python -m trainer.lab.personal_eval", description=__doc__.split("\n\n")[0],
                                     epilog=_USAGE)
    parser.add_argument("--folder", default=str(repo.parent / "shared" / "gestures"))
    parser.add_argument("--spans", default=str(repo / "samples" / "clip_spans.tsv"))
    parser.add_argument("--face-model", default=None)
    parser.add_argument(
        "--cache", metavar="DIR", help="keep each clip's run (pickle) here: a second call only re-scores"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    spans = scored_spans(args.folder, load_spans(args.spans))
    options = PipelineOptions(face_model=args.face_model, hands=False)
    runs = {}
    for file in clip_files(spans):
        cached = run_file(args.cache, file) if args.cache else None
        if cached is not None and cached.is_file():
            runs[file] = pickle.loads(cached.read_bytes())
            continue
        print(f"running {file}", file=sys.stderr, flush=True)
        runs[file] = run_clip(Path(args.folder) / file, options, keep_features=True)
        if cached is not None:
            cached.parent.mkdir(parents=True, exist_ok=True)
            cached.write_bytes(pickle.dumps(runs[file]))
    report = one_take_eval(spans, runs, progress=lambda m: print(m, file=sys.stderr))
    print(json.dumps(report.to_json()) if args.json else report.format_table())
    return 0


_USAGE = """Runs every clip of a spans file (default samples/clip_spans.tsv over ../shared/gestures) once
through the pipeline (Tasks face backend, face only, features kept), then for each person teaches a
model and scores their later takes beside the population scores of the same frames. Example:
ALUETTE_FACE_MODEL=../shared/models/face_landmarker.task python -m trainer.lab.personal_eval --cache DIR"""


if __name__ == "__main__":
    raise SystemExit(main())
