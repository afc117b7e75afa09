"""Replay recorded clip runs (``python -m trainer.lab.record_clip_runs``) through the product's scoring
and recognizer, and score them: event recall on the annotated sign spans, false events per minute on the
annotated clips and on the talking clips.

    nice -n 10 .venv/bin/python -m trainer.lab.record_clip_runs ../shared/gestures /tmp/vision_runs
    python -m trainer.lab.clip_replay figures ../shared/gestures /tmp/vision_runs [--mistakes]
    python -m trainer.lab.clip_replay lopo ../shared/gestures /tmp/vision_runs NAME=EXPR ...

``figures`` prints the held-out figures of the shipped temporal options and of the earlier ones
(``VARIANTS``). ``lopo`` chooses a temporal option leave-one-person-out: each NAME=EXPR is a
``PipelineOptions`` expression (``RecognizerConfig``, ``Gesture`` and ``PipelineOptions`` in scope), the
shipped one first, e.g. ``now=PipelineOptions()``; each person's fold picks the variant with the most
reported signs minus false events on everyone else's clips, then is scored on its own clips with it.
Held out: each clip is replayed with the face signs refitted on the photos of everyone but the clip's
person (samples/face_signs.json, MANIFEST / spans ``person``): every signing person of the clips also
has photos in the fit, so the shipped parameters would give in-sample figures.

MediaPipe runs once per clip when recording; a replay re-scores each frame's kept features (geometry,
mouth appearance, ``bs_`` blendshapes) with a fresh ``Pipeline``'s static stage (hands off) and
recognizer, so options of the face scoring and the temporal side can be compared in seconds. The hand
signs are read back from the kept hand features (their landmarks are not kept) and timed by the same
recognizer; only the shrug's events are the recorded run's own.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import replace as dataclass_replace
from pathlib import Path

from trainer.lab.clip_eval import (
    ClipReport,
    ClipScore,
    ClipSpan,
    annotated_clips,
    clip_files,
    load_spans,
    score_clip,
    unexcused,
)
from trainer.signals.gestures import BodyPart, GestureEvent
from trainer.vision.clip_run import ClipRun
from trainer.vision.face_signs import BLENDSHAPE_PREFIX, hidden_signs
from trainer.vision.hand_gestures import RecordedHands
from trainer.vision.types import FrameScores

_NOT_FACE = ("mouth_activity", "neutral_known")
"""Keys that runs recorded before 2026-12-02 kept in the frames' features (the recognizer's inputs
now travel as ``FrameScores.mouth_activity`` / ``neutral_known``): not face features."""


def run_file(folder: Path | str, clip: str) -> Path:
    """Where the pickled run of ``clip`` (its path relative to the gestures folder) lives in ``folder``."""
    return Path(folder) / (clip.replace("/", "__") + ".pkl")


def load_runs(folder: Path | str) -> dict[str, ClipRun]:
    """The pickled runs of ``folder`` (``run_file``), by the clip's path relative to the gestures folder."""
    out = {}
    for path in sorted(Path(folder).glob("*.pkl")):
        out[path.stem.replace("__", "/")] = pickle.loads(path.read_bytes())
    return out


def split_features(features: Mapping[str, float]) -> tuple[dict[str, float], dict[str, float]]:
    """(face features, blendshapes) of one recorded frame."""
    face: dict[str, float] = {}
    shapes: dict[str, float] = {}
    for name, value in features.items():
        if name.startswith(BLENDSHAPE_PREFIX):
            shapes[name[len(BLENDSHAPE_PREFIX):]] = value
        elif not name.startswith("hand_") and name not in _NOT_FACE:
            face[name] = value
    return face, shapes


def hide(scores: FrameScores, mouth: bool, eyes: bool) -> FrameScores:
    """The frame's scores with the signs a hand hides muted, as the live pipeline mutes them when a hand
    is in front of the mouth or of an eye (the replay has no hands to see it; the recorded frame says so)."""
    muted = hidden_signs(mouth, eyes)
    if not muted:
        return scores
    return dataclass_replace(scores, scores={g: (0.0 if g in muted else v) for g, v in scores.scores.items()},
                             mouth_hidden=scores.mouth_hidden or mouth, eyes_hidden=scores.eyes_hidden or eyes)


def with_hands(scores: FrameScores, features: Mapping[str, float], hands: RecordedHands) -> FrameScores:
    """The frame's scores with its hand signs read back from the recorded hand features
    (``hand_gestures.RecordedHands``), so the recognizer times them with the face's signs and the
    talking state, as live."""
    hand_scores, hand_sides = hands.score(scores.timestamp, features)
    return dataclass_replace(scores, scores={**scores.scores, **hand_scores}, sides={**scores.sides, **hand_sides})


def rescored(run: ClipRun, options=None, personal=None, *, mute_hidden: bool = True,
             hands: bool = False) -> list[GestureEvent]:
    """Every event of a fresh pipeline (``options``, its hand graph off) fed the run's kept face
    features, in the order they finished; with ``hands``, the hand signs read back from the kept hand
    features too. With ``mute_hidden``, frames recorded with a hand in front of the mouth (an eye) get
    their mouth (eye) signs muted, as live."""
    from trainer.vision.pipeline import Pipeline, PipelineOptions  # noqa: PLC0415

    options = dataclass_replace(options or PipelineOptions(), hands=False)
    events: list[GestureEvent] = []
    recorded_hands = RecordedHands(options.hand_stillness)
    with Pipeline(options, personal=personal) as pipe:
        for frame in run.features:
            # The blendshapes apart from the geometry, as the live pipeline hands them over: passed
            # inside the face features, the frame was read as a face mesh's and scored by its rules.
            face, shapes = split_features(frame.features) if frame.face else (None, None)
            scores = pipe.score_parts(frame.timestamp, face or None, None, None, (), None, shapes or None)
            if mute_hidden:
                scores = hide(scores, getattr(frame, "mouth_hidden", False), getattr(frame, "eyes_hidden", False))
            if hands:
                scores = with_hands(scores, frame.features, recorded_hands)
            events.extend(pipe.step(scores).finished)
        events.extend(pipe.finish())
    return events


def replay(run: ClipRun, options=None, personal=None) -> list[GestureEvent]:
    """The face and hand events of a recorded run re-scored by a fresh pipeline; the run's own body
    events (the shrug). Frames recorded with a hand in front of the mouth (an eye) get their mouth (eye)
    signs muted, as live."""
    events = [e for e in rescored(run, options, personal, hands=True) if e.gesture.body_part is not BodyPart.BODY]
    events += [e for e in run.events if e.gesture.body_part is BodyPart.BODY]
    return sorted(events, key=lambda e: (e.start, e.gesture.value))


@dataclass(frozen=True, slots=True)
class ReplayFigures:
    clips: tuple[ClipScore, ...]
    talking: tuple[tuple[str, float, tuple[GestureEvent, ...]], ...]

    @property
    def annotated(self) -> ClipReport:
        """The annotated clips' figures: signs, reported, false events per minute."""
        return ClipReport(self.clips)

    @property
    def talking_per_min(self) -> float:
        minutes = sum(d for _, d, _ in self.talking) / 60.0
        return sum(len(e) for _, _, e in self.talking) / minutes if minutes else 0.0

    def line(self) -> str:
        clips = self.annotated
        return (f"signs {clips.reported}/{clips.signs} ({clips.reported / max(1, clips.signs):.2f}), "
                f"{clips.false_per_minute:.2f} false/min on {len(self.clips)} clips; talking "
                f"{self.talking_per_min:.2f} false/min on {len(self.talking)} clips")

    def mistakes(self) -> str:
        lines = []
        for clip in self.clips:
            for span in clip.missed:
                lines.append(
                    f"  missed {span.sign.value:<11} {clip.file} {span.start:.2f}-{span.end:.2f} {span.note}"
                )
            for event in clip.false_events:
                lines.append(f"  false  {event.gesture.value:<11} {clip.file} {event.start:.2f}-{event.end:.2f}")
        for file, _, events in self.talking:
            for event in events:
                lines.append(f"  talk   {event.gesture.value:<11} {file} {event.start:.2f}-{event.end:.2f}")
        return "\n".join(lines)


def figures(runs: Mapping[str, ClipRun], spans: Sequence[ClipSpan], talking: Iterable[str],
            options=None, events_of=None) -> ReplayFigures:
    """Replay every run (``events_of(file, run)`` instead when given) and score it: the annotated clips
    against their spans, the talking clips for their events but those their don't-care rows excuse."""
    events_of = events_of or (lambda _file, run: replay(run, options))
    talking = list(talking)
    annotated = annotated_clips(spans, talking)
    clips = tuple(score_clip(f, events_of(f, runs[f]), spans, runs[f].duration) for f in annotated if f in runs)
    talk = tuple((f, runs[f].duration, unexcused(f, events_of(f, runs[f]), spans))
                 for f in talking if f in runs and f not in annotated)
    return ReplayFigures(clips, talk)


def held_out_signs(samples: Path | str, persons: Iterable[str], folder: Path | str,
                   shares: Mapping | None = None) -> dict[str, Path]:
    """Per person, the face signs' population parameters refitted on the photos of everyone else
    (``samples/face_signs.json``), written to ``folder``: a clip replayed with its person's file is a
    held-out figure. Persons without photos get the parameters fitted on everyone."""
    import json  # noqa: PLC0415

    from trainer.lab.face_fit import HAND_LABELS, faces_from_samples, fit_params  # noqa: PLC0415

    faces = [f for f in faces_from_samples(samples) if f.label not in HAND_LABELS]
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    out = {}
    for person in sorted(set(persons)):
        target = folder / (person.replace("/", "_").replace(":", "_") + ".json")
        if not target.is_file():
            params = fit_params([f for f in faces if f.person != person], dict(shares or {}))
            target.write_text(json.dumps(params.to_json()), encoding="utf-8")
        out[person] = target
    return out


@dataclass(frozen=True, slots=True)
class FoldChoice:
    """Leave-one-person-out over the replayed clips: for each person, the variant chosen on everyone
    else's clips and what it gives on that person's own."""

    person: str
    chosen: str
    reported: int
    signs: int
    false_events: int
    minutes: float


def _per_person(fig: ReplayFigures, person_of: Mapping[str, str]) -> dict[str, tuple[int, int, int, float]]:
    """(reported, signs, false events, minutes) per person: annotated clips and talking clips alike."""
    out: dict[str, list] = {}
    for clip in fig.clips:
        row = out.setdefault(person_of.get(clip.file, clip.person), [0, 0, 0, 0.0])
        row[0] += len(clip.reported)
        row[1] += len(clip.reported) + len(clip.missed)
        row[2] += len(clip.false_events)
        row[3] += clip.duration / 60.0
    for file, duration, events in fig.talking:
        row = out.setdefault(person_of.get(file, file), [0, 0, 0, 0.0])
        row[2] += len(events)
        row[3] += duration / 60.0
    return {p: tuple(r) for p, r in out.items()}


def choose_by_person(variants: Mapping[str, ReplayFigures], person_of: Mapping[str, str]) -> list[FoldChoice]:
    """Each person's fold picks the variant with the most reported signs minus false events on the
    other people's clips (ties: the variant listed first, so list the shipped one first), and is
    scored on its own clips with that pick: a held-out figure for the choice itself (pure)."""
    rows = {name: _per_person(fig, person_of) for name, fig in variants.items()}
    people = sorted({p for table in rows.values() for p in table})
    folds = []
    for person in people:
        def merit(name: str, person: str = person) -> int:
            return sum(r[0] - r[2] for p, r in rows[name].items() if p != person)

        best = max(variants, key=merit)  # max keeps the first of equals
        reported, signs, false, minutes = rows[best].get(person, (0, 0, 0, 0.0))
        folds.append(FoldChoice(person, best, reported, signs, false, minutes))
    return folds


REPO = Path(__file__).resolve().parents[2]


@dataclass(frozen=True, slots=True)
class HeldOutClips:
    """The recorded runs, their spans, the talking clips and each clip's person, with each person's
    face signs refitted without them: what ``figures`` and ``lopo`` below
    replay."""

    runs: Mapping[str, ClipRun]
    spans: Sequence[ClipSpan]
    talking: Sequence[str]
    persons: Mapping[str, str]
    signs_of: Mapping[str, Path]
    """Per person, the face-signs file fitted without them (``held_out_signs``)."""

    def options_for(self, file: str, options):
        """``options`` (PipelineOptions) with the face signs fitted without ``file``'s person."""
        return dataclass_replace(options, face_signs=str(self.signs_of[self.persons[file]]))

    def figures(self, options) -> ReplayFigures:
        """Every run replayed with ``options`` (PipelineOptions) and its person's held-out face signs."""
        return figures(self.runs, self.spans, self.talking,
                       events_of=lambda f, run: replay(run, self.options_for(f, options)))


@contextmanager
def held_out_clips(folder: Path, runs_dir: Path) -> Iterator[HeldOutClips]:
    """:class:`HeldOutClips` for the labelled ``folder`` and the runs recorded in ``runs_dir``; the
    refitted face-signs files live in a temporary folder for the length of the ``with``."""
    import tempfile  # noqa: PLC0415

    from trainer.lab.labels import talking_clips  # noqa: PLC0415

    runs = load_runs(runs_dir)
    spans = load_spans(REPO / "samples" / "clip_spans.tsv")
    talking = talking_clips(folder)
    persons = clip_persons(folder, spans)
    with tempfile.TemporaryDirectory() as tmp:
        files = held_out_signs(SAMPLES, [persons[f] for f in runs], tmp, shipped_shares())
        yield HeldOutClips(runs, spans, talking, persons, files)


SAMPLES = REPO / "samples" / "face_signs.json"
"""The face readings of ../shared/gestures' stills that the shipped face signs were fitted on."""


def clip_persons(folder: Path | str, spans: Sequence[ClipSpan]) -> dict[str, str]:
    """``file -> person`` of a labelled folder: the MANIFEST's, then the spans' ``person`` column."""
    from trainer.lab.labels import read_persons  # noqa: PLC0415

    persons = dict(read_persons(folder))
    persons.update({s.file: s.person for s in spans})
    return persons


def shipped_shares() -> dict:
    """Each face sign's positive share, as chosen leave-one-person-out for the shipped parameters."""
    import json  # noqa: PLC0415

    from trainer.signals.gestures import Gesture  # noqa: PLC0415

    held = json.loads((REPO / "models" / "face_signs.json").read_text(encoding="utf-8"))["held_out"]
    return {Gesture(g): v["positive_share"] for g, v in held.items()}


@dataclass(frozen=True, slots=True)
class HeldOutOptions:
    """Per clip, the pipeline options to run it with so that its figure is held out."""

    options_for: Callable[[str], object]
    persons: Mapping[str, str]
    """``file -> person`` of the folder's clips."""
    fitted: frozenset[str]
    """People whose stills the shipped face signs were fitted on: refitted without them."""

    def label(self, files: Iterable[str]) -> str:
        """What held out means for these clips: how many of their people were refitted without."""
        people = {self.persons.get(f, f) for f in files}
        refitted = len(people & self.fitted)
        if not refitted:
            return "held out: nobody in these clips was fitted"
        never = len(people) - refitted
        return (f"held out: face signs refitted without each of the {refitted} people fitted"
                + (f", {never} never fitted" if never else ""))


@contextmanager
def held_out_options(folder: Path | str, spans: Sequence[ClipSpan], options, also: Iterable[str] = (),
                     samples: Path | str = SAMPLES) -> Iterator[HeldOutOptions]:
    """``options`` (PipelineOptions) per clip of ``spans`` and of ``also`` (more clips of ``folder``,
    e.g. its talking clips), with the face signs refitted on every still of ``samples`` but those of
    the clip's person, for the people whose stills the shipped parameters were fitted on; the shipped
    parameters for the others (a user's own folder: nobody in it was fitted). The refitted files live
    in a temporary folder for the length of the ``with``. Without ``samples`` (an installed package
    without them) nobody is refitted."""
    import tempfile  # noqa: PLC0415

    from trainer.lab.face_fit import HAND_LABELS, faces_from_samples  # noqa: PLC0415

    persons = clip_persons(folder, spans)
    people = {persons.get(f, f) for f in [*clip_files(spans), *also]}
    fitted = ({f.person for f in faces_from_samples(samples) if f.label not in HAND_LABELS}
              if Path(samples).is_file() else set())
    with tempfile.TemporaryDirectory() as tmp:
        files = held_out_signs(samples, sorted(people & fitted), tmp, shipped_shares()) if people & fitted else {}

        def options_for(file: str):
            path = files.get(persons.get(file, file))
            return options if path is None else dataclass_replace(options, face_signs=str(path))

        yield HeldOutOptions(options_for, persons, frozenset(people & fitted))


def _variants():
    """The temporal side now and before its two changes of 2026-12-01/02 (speech assumed in a stream's
    first second, the lips' gap alone for the talking detector, winks free to start during eye
    closures; then the unsure band): what ``figures`` compares."""
    from trainer.vision.pipeline import PipelineOptions  # noqa: PLC0415
    from trainer.vision.recognizer import RecognizerConfig  # noqa: PLC0415

    morning = dict(talk_warmup_reversals=None, talk_jaw_min_move=None, yields_to=())
    return {
        "2026-12-01": PipelineOptions(baseline_sign_level=None,
                                      recognizer=RecognizerConfig(unsure_enter=None, **morning)),
        "2026-12-02a": PipelineOptions(recognizer=RecognizerConfig(**morning)),
        "now": PipelineOptions(),
    }


def _print_figures(args) -> int:
    from trainer.lab.clip_eval import SpanKind  # noqa: PLC0415

    with held_out_clips(args.folder, args.runs) as clips:
        people = len({s.person for s in clips.spans if s.kind is SpanKind.SIGN})
        for name, options in _variants().items():
            fig = clips.figures(options)
            print(f"{name:10s} held out: {fig.line()}; {people} signing people")
            if args.mistakes:
                print(fig.mistakes())
    return 0


def _print_lopo(args) -> int:
    from collections import Counter  # noqa: PLC0415

    from trainer.signals.gestures import Gesture  # noqa: PLC0415
    from trainer.vision.hand_gestures import StillnessConfig  # noqa: PLC0415
    from trainer.vision.pipeline import PipelineOptions  # noqa: PLC0415
    from trainer.vision.recognizer import GestureTiming, RecognizerConfig  # noqa: PLC0415

    scope = {"PipelineOptions": PipelineOptions, "RecognizerConfig": RecognizerConfig, "Gesture": Gesture,
             "GestureTiming": GestureTiming, "StillnessConfig": StillnessConfig}
    variants = {}
    for spec in args.variants:
        name, _, expr = spec.partition("=")
        variants[name] = eval(expr, scope)  # noqa: S307 - a lab tool's own command line
    with held_out_clips(args.folder, args.runs) as clips:
        figs = {}
        for name, options in variants.items():
            figs[name] = clips.figures(options)
            print(f"{name:12s} all clips: {figs[name].line()}", flush=True)
    folds = choose_by_person(figs, clips.persons)
    picks = Counter(f.chosen for f in folds)
    reported, signs = sum(f.reported for f in folds), sum(f.signs for f in folds)
    false, minutes = sum(f.false_events for f in folds), sum(f.minutes for f in folds)
    print(f"folds: {len(folds)} people; picks {dict(picks)}; held out through the choice: signs "
          f"{reported}/{signs}, {false} false events in {minutes:.2f} min ({false / minutes:.2f} / min, "
          "annotated and talking clips together)")
    return 0


def main(argv: list[str] | None = None) -> int:
    import argparse  # noqa: PLC0415

    parser = argparse.ArgumentParser(prog="python -m trainer.lab.clip_replay", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    for name, run, helptext in (("figures", _print_figures, "held-out figures, now and before"),
                                ("lopo", _print_lopo, "choose a temporal option leave-one-person-out")):
        cmd = sub.add_parser(name, help=helptext)
        cmd.add_argument("folder", type=Path, help="the labelled gestures folder (../shared/gestures)")
        cmd.add_argument("runs", type=Path, help="the runs recorded by trainer.lab.record_clip_runs")
        cmd.set_defaults(run=run)
    sub.choices["figures"].add_argument("--mistakes", action="store_true", help="list each missed or false event")
    sub.choices["lopo"].add_argument("variants", nargs="+", metavar="NAME=EXPR", help="PipelineOptions expressions")
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    raise SystemExit(main())
