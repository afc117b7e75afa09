"""``aluette eval-vision DIR``: how well the recognizer reads a labelled folder of photos and clips.

For every still image (folder name = label, ``MANIFEST.tsv`` notes for the extra and don't-care labels,
see ``trainer.lab.labels``) it runs the full per-frame pipeline with population defaults (or a given
profile) and counts, per gesture, true positives, false positives and misses: precision, recall, F1. A
gesture fires when its score reaches 0.5. The confusion table says, for each folder label, how often
each gesture fired (a still may fire several). For the clips of the negative folders (``talking``,
``neutral``) it runs the temporal recognizer over every frame and reports events per minute: each is a
false trigger, since nobody signs there.

Labels are the MANIFEST's plus the repository's reviewed labels (``samples/gestures_review.tsv``: what
a photo visibly shows besides its label, e.g. raised brows in a funny face labelled tongue_out, made
don't-care); the table also gives precision and recall against the MANIFEST alone, and ``review=None``
(``--no-review``) drops the review entirely.

With the default Tasks backend the face signs are also scored **leave-one-person-out**: for each
person of the MANIFEST's ``person`` column, the face-sign parameters are refitted on everyone else's
stills of the folder (``trainer.lab.face_fit``, the shipped positive shares) and that person's stills
are scored by the product's own ``score_face_signs`` (hands over the mouth muted as the pipeline does).
Those held-out figures, with the number of people each recall rests on, are the headline; the figures
of the shipped parameters on the same photos are in-sample and labelled so.

Only gestures with at least one real example in the folder are scored. Must not import the rules
engine, bots, quiz or UI; MediaPipe is loaded only by ``evaluate_folder``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from trainer.lab.labels import CLIP_LABELS, DEFAULT_REVIEW, IMAGE_SUFFIXES, LabelledFile, read_labels, review_in_use
from trainer.signals.gestures import Gesture, Side
from trainer.vision.calibration import Profile
from trainer.vision.types import Rates, VisionError

if TYPE_CHECKING:  # the pipeline imports MediaPipe: loaded inside the functions that run it
    from trainer.vision.pipeline import PipelineOptions

THRESHOLD = 0.5
NONE_COLUMN = "none"


@dataclass(frozen=True, slots=True)
class GestureStats(Rates):
    gesture: Gesture
    tp: int
    fp: int
    fn: int

    @property
    def support(self) -> int:
        return self.tp + self.fn

    def to_json(self) -> dict:
        return {
            "gesture": self.gesture.value,
            "support": self.support,
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "precision": round(self.precision, 3),
            "recall": round(self.recall, 3),
            "f1": round(self.f1, 3),
        }


@dataclass(frozen=True, slots=True)
class StillResult:
    """What fired on one still, and its truth."""

    file: str
    label: str
    face: bool
    hands: int
    fired: tuple[Gesture, ...]
    scores: dict[Gesture, float]
    sides: dict[Gesture, Side] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ClipResult:
    file: str
    label: str
    frames: int
    seconds: float
    frames_with_face: int
    events: tuple[tuple[str, float, float], ...]
    """(gesture, start, end) of every event: all false triggers in a negative clip."""

    @property
    def per_minute(self) -> float:
        return 60.0 * len(self.events) / self.seconds if self.seconds > 0 else 0.0


@dataclass(frozen=True, slots=True)
class EvalReport:
    folder: str
    backend: str
    calibrated: bool
    stills: tuple[StillResult, ...]
    gestures: tuple[GestureStats, ...]
    confusion: dict[str, dict[str, int]]
    clips: tuple[ClipResult, ...] = ()
    errors: tuple[tuple[str, str], ...] = ()
    mistakes: tuple[tuple[str, str, str], ...] = ()
    """(file, gesture, "missed" | "false") for every error on the stills."""
    review: str | None = None
    """The reviewed-labels file applied, or None (MANIFEST labels only)."""
    manifest_gestures: tuple[GestureStats, ...] = ()
    """The same stills scored against the MANIFEST labels alone (when a review was applied)."""
    held_out: tuple[tuple[GestureStats, int], ...] = ()
    """Face signs scored leave-one-person-out, each with the number of people its positives come from."""
    people: int = 0
    clips_held_out: bool = False
    """The clips ran with the face signs refitted without each clip's person."""

    def false_triggers_per_minute(self, label: str | None = None) -> float:
        clips = [c for c in self.clips if label is None or c.label == label]
        seconds = sum(c.seconds for c in clips)
        events = sum(len(c.events) for c in clips)
        return 60.0 * events / seconds if seconds > 0 else 0.0

    def stats(self, gesture: Gesture) -> GestureStats | None:
        return next((s for s in self.gestures if s.gesture is gesture), None)

    def to_json(self) -> dict:
        return {
            "folder": self.folder,
            "backend": self.backend,
            "calibrated": self.calibrated,
            "stills": len(self.stills),
            "stills_with_face": sum(s.face for s in self.stills),
            "gestures": [s.to_json() for s in self.gestures],
            "held_out": [dict(s.to_json(), people=n) for s, n in self.held_out],
            "people": self.people,
            "review": self.review,
            "gestures_manifest_only": [s.to_json() for s in self.manifest_gestures],
            "confusion": self.confusion,
            "clips_held_out": self.clips_held_out,
            "clips": [
                {
                    "file": c.file,
                    "label": c.label,
                    "frames": c.frames,
                    "seconds": round(c.seconds, 2),
                    "frames_with_face": c.frames_with_face,
                    "false_triggers": len(c.events),
                    "per_minute": round(c.per_minute, 2),
                    "events": [{"gesture": g, "start": round(s, 2), "end": round(e, 2)} for g, s, e in c.events],
                }
                for c in self.clips
            ],
            "false_triggers_per_minute": {
                label: round(self.false_triggers_per_minute(label), 2)
                for label in sorted({c.label for c in self.clips})
            },
            "mistakes": [{"file": f, "gesture": g, "kind": k} for f, g, k in self.mistakes],
            "errors": [{"file": f, "error": e} for f, e in self.errors],
        }

    def format_table(self, mistakes: bool = False) -> str:
        lines = [
            f"eval-vision {self.folder}  backend={self.backend}  "
            f"{'calibrated profile' if self.calibrated else 'population defaults'}",
            f"{len(self.stills)} stills ({sum(s.face for s in self.stills)} with a face); labels: MANIFEST"
            + (f" + review {Path(self.review).name}" if self.review else " only"),
            "",
            f"{'gesture':14s} {'n':>3s} {'TP':>3s} {'FP':>3s} {'FN':>3s} {'prec':>5s} {'recall':>6s} {'F1':>5s}"
            + ("   MANIFEST only: P / R" if self.manifest_gestures else ""),
        ]
        if self.held_out:
            lines[-1:-1] = [
                f"face signs held out (leave-one-person-out over {self.people} people: each person scored by "
                "parameters fitted without them)",
                f"{'gesture':14s} {'n':>3s} {'TP':>3s} {'FP':>3s} {'FN':>3s} {'prec':>5s} {'recall':>6s} "
                f"{'people':>6s}",
            ]
            for s, n in self.held_out:
                flag = "" if s.precision >= 0.9 and s.recall >= 0.9 else "  < 0.9"
                lines.insert(-1, f"{s.gesture.value:14s} {s.support:3d} {s.tp:3d} {s.fp:3d} {s.fn:3d} "
                                 f"{s.precision:5.2f} {s.recall:6.2f} {n:6d}{flag}")
            lines.insert(-1, "")
            lines.insert(-1, "all signs with the shipped parameters (IN-SAMPLE for the face signs: these photos "
                             "were fitted; hand signs: fixed rules)")
        strict = {s.gesture: s for s in self.manifest_gestures}
        for s in self.gestures:
            flag = "" if s.precision >= 0.9 and s.recall >= 0.9 else "  < 0.9"
            other = strict.get(s.gesture)
            extra = f"   {other.precision:4.2f} / {other.recall:4.2f}" if other is not None else ""
            lines.append(
                f"{s.gesture.value:14s} {s.support:3d} {s.tp:3d} {s.fp:3d} {s.fn:3d} "
                f"{s.precision:5.2f} {s.recall:6.2f} {s.f1:5.2f}{flag:7s}{extra}"
            )
        columns = [s.gesture.value for s in self.gestures] + [NONE_COLUMN]
        lines += ["", "confusion (rows: folder label; columns: gestures fired on its stills)"]
        short = [c[:6] for c in columns]
        lines.append(f"{'label':14s} {'n':>3s} " + " ".join(f"{c:>6s}" for c in short))
        for label, row in self.confusion.items():
            total = row.get("_stills", 0)
            lines.append(f"{label:14s} {total:3d} " + " ".join(f"{row.get(c, 0) or '.':>6}" for c in columns))
        if self.clips:
            held = ", held out: face signs refitted without each clip's person" if self.clips_held_out else ""
            lines += ["", f"false triggers on negative clips (events; nobody signs there{held})"]
            for c in self.clips:
                names = ", ".join(sorted({g for g, _, _ in c.events})) or "-"
                lines.append(
                    f"  {c.file:44s} {c.seconds:6.1f} s  {len(c.events):3d} events  "
                    f"{c.per_minute:5.2f}/min  {names}"
                )
            for label in sorted({c.label for c in self.clips}):
                minutes = sum(c.seconds for c in self.clips if c.label == label) / 60.0
                lines.append(
                    f"  {label}: {self.false_triggers_per_minute(label):.2f} false triggers per minute "
                    f"over {minutes:.1f} min"
                )
        if self.errors:
            lines += ["", "unreadable:"] + [f"  {f}: {e}" for f, e in self.errors]
        if mistakes and self.mistakes:
            lines += ["", "mistakes:"] + [f"  {k:6s} {g:12s} {f}" for f, g, k in self.mistakes]
        return "\n".join(lines)


def score_stills(
    items: Iterable[tuple[LabelledFile, dict[Gesture, float], bool, int]],
    gestures: Iterable[Gesture] | None = None,
) -> tuple[tuple[GestureStats, ...], dict[str, dict[str, int]], tuple[tuple[str, str, str], ...]]:
    """Precision/recall per gesture and the confusion table from (truth, scores, face, hands) rows.

    Pure function (no MediaPipe), shared by ``evaluate_folder`` and the tests' replay of cached
    features. ``gestures`` defaults to every gesture with at least one positive still.
    """
    rows = list(items)
    if gestures is None:
        present = set().union(*(item.positives for item, *_ in rows)) if rows else set()
        gestures = [g for g in Gesture if g in present]
    gestures = list(gestures)
    stats, mistakes = [], []
    for g in gestures:
        tp = fp = fn = 0
        for item, scores, _face, _hands in rows:
            truth = item.truth(g)
            fired = scores.get(g, 0.0) >= THRESHOLD
            if truth is True and fired:
                tp += 1
            elif truth is True:
                fn += 1
                mistakes.append((item.file, g.value, "missed"))
            elif truth is False and fired:
                fp += 1
                mistakes.append((item.file, g.value, "false"))
        stats.append(GestureStats(g, tp, fp, fn))
    confusion: dict[str, dict[str, int]] = {}
    for item, scores, _face, _hands in rows:
        row = confusion.setdefault(item.label, {"_stills": 0})
        row["_stills"] += 1
        firing = [g for g in gestures if scores.get(g, 0.0) >= THRESHOLD]
        for g in firing:
            row[g.value] = row.get(g.value, 0) + 1
        if not firing:
            row[NONE_COLUMN] = row.get(NONE_COLUMN, 0) + 1
    order = {g.value: i for i, g in enumerate(Gesture)}
    confusion = dict(sorted(confusion.items(), key=lambda kv: (order.get(kv[0], 99), kv[0])))
    return tuple(stats), confusion, tuple(mistakes)


VARIANTS = ("tasks+image", "tasks")
"""The face signs with or without the mouth-appearance cues."""


def evaluate_folder(
    path: Path | str,
    *,
    backend: str = "tasks+image",
    profile: Profile | None = None,
    clips: bool = True,
    clip_labels: tuple[str, ...] = CLIP_LABELS,
    max_clip_frames: int | None = None,
    face_model: Path | str | None = None,
    progress: Callable[[str], None] | None = None,
    review: Path | str | None = DEFAULT_REVIEW,
    clip_options_for: Callable[[str], PipelineOptions] | None = None,
    annotated: frozenset[str] = frozenset(),
) -> EvalReport:
    """Evaluate the recognizer on a labelled folder (see the module doc); VisionError if unusable.

    Stills and clips go through the product's own ``Pipeline`` (the code `aluette recognize` runs:
    same features, face rule set, running baseline of a video, recognizer). ``backend``
    (``VARIANTS``) only sets its options: "+image" adds the mouth-appearance cues (dark cavity, teeth,
    tongue), as the pipeline does by default.
    ``review`` is the reviewed-labels file (None: the MANIFEST alone; see the module doc).
    ``clip_options_for(file)``, when given, replaces the talking/neutral clips' options (the face signs
    refitted without the clip's person: a held-out figure); ``annotated`` clips (time spans of their
    signs) are left out of that table, which counts every event as false: the span table scores them.
    """
    if backend not in VARIANTS:
        raise VisionError(f"unknown backend {backend!r}: use one of {', '.join(VARIANTS)}")
    from trainer.vision.pipeline import PipelineOptions  # noqa: PLC0415

    root = Path(path)
    review = review_in_use(review)
    labelled = read_labels(root, review=review)
    manifest = {item.file: item for item in read_labels(root, review=None)} if review is not None else {}
    stills = [item for item in labelled if Path(item.file).suffix.lower() in IMAGE_SUFFIXES]
    face_options: dict[str, Any] = {
        "face_model": None if face_model is None else str(face_model),
        "mouth_image": backend.endswith("+image"),
    }
    errors: list[tuple[str, str]] = []
    options = PipelineOptions(static_image_mode=True, shrug=True, **face_options)
    results, rows, readings, signs = _read_stills(root, stills, options, profile, progress, errors)
    stats, confusion, mistakes = score_stills(rows)
    manifest_stats = _manifest_stats(manifest, rows, stats)
    held_out, people = _stills_held_out(root, rows, readings, signs, stats, profile)
    clip_results: list[ClipResult] = []
    if clips:
        video_options = PipelineOptions(static_image_mode=False, shrug=False, **face_options)
        clip_items = [item for item in labelled if item.is_video and item.label in clip_labels
                      and item.file not in annotated]
        clip_results = _run_clips(root, clip_items, video_options, profile, max_clip_frames, progress, errors,
                                  clip_options_for)
    return EvalReport(
        folder=str(root), backend=backend, calibrated=profile is not None, stills=tuple(results), gestures=stats,
        confusion=confusion, clips=tuple(clip_results), errors=tuple(errors), mistakes=mistakes,
        review=None if review is None else str(review), manifest_gestures=manifest_stats, held_out=held_out,
        people=people, clips_held_out=bool(clip_results) and clip_options_for is not None,
    )


def _stills_held_out(root: Path, rows, readings, signs, stats,
                     profile) -> tuple[tuple[tuple[GestureStats, int], ...], int]:
    """(held-out figures per gesture, people) of the stills, when the face signs can be refitted."""
    if signs is None or profile is not None or not readings:
        return (), 0
    faceless = [item for item, _scores, face, _hands in rows if not face]
    return _held_out(root, readings, signs, [s.gesture for s in stats], faceless)


def _manifest_stats(manifest: dict[str, LabelledFile], rows, stats) -> tuple[GestureStats, ...]:
    """The stills scored against the MANIFEST's labels alone (before the review), when a review is used."""
    if not manifest:
        return ()
    figures, _, _ = score_stills([(manifest[item.file], *rest) for item, *rest in rows],
                                 gestures=[s.gesture for s in stats])
    return figures


def _read_stills(root: Path, stills, options, profile: Profile | None,
                 progress: Callable[[str], None] | None, errors: list[tuple[str, str]]):
    """Each still through one product ``Pipeline`` (reset between stills): the per-still results, the
    rows ``score_stills`` counts, the face readings of the held-out fit, and the pipeline's sign
    parameters (None for a backend without blendshapes)."""
    from trainer.vision.pipeline import Pipeline  # noqa: PLC0415 - MediaPipe is heavy
    from trainer.vision.sources import open_source  # noqa: PLC0415

    results: list[StillResult] = []
    rows = []
    readings = []
    with Pipeline(options, profile=profile) as pipe:
        signs = pipe.signs
        for number, item in enumerate(stills, 1):
            if progress is not None:
                progress(f"[{number}/{len(stills)}] {item.file}")
            try:
                with open_source(root / item.file) as source:
                    frame = next(iter(source))
                pipe.reset()
                scores_frame = pipe.process(frame).scores
            except (VisionError, StopIteration) as error:
                errors.append((item.file, str(error) or "no frame"))
                continue
            scores = dict(scores_frame.scores)
            hands = scores_frame.hands_found
            fired = tuple(g for g in Gesture if scores.get(g, 0.0) >= THRESHOLD)
            results.append(
                StillResult(item.file, item.label, scores_frame.face_found, hands, fired, scores,
                            dict(scores_frame.sides))
            )
            rows.append((item, scores, scores_frame.face_found, hands))
            if scores_frame.face_found and scores_frame.blendshapes:
                readings.append((item, scores_frame.face, scores_frame.mouth_hidden))
    return results, rows, readings, signs


def _run_clips(root: Path, items, options, profile: Profile | None, max_frames: int | None,
               progress: Callable[[str], None] | None, errors: list[tuple[str, str]],
               options_for: Callable[[str], PipelineOptions] | None = None) -> list[ClipResult]:
    """The false events of each unlabelled-sign clip, through ``analyse_video`` (the frame loop that
    `aluette recognize` runs on a clip); unreadable clips go to ``errors``. ``options_for(file)`` keeps
    ``options``' backend and replaces its face signs (held out)."""
    from trainer.vision.pipeline import analyse_video  # noqa: PLC0415 - MediaPipe is heavy

    out = []
    for item in items:
        if progress is not None:
            progress(f"clip {item.file}")
        try:
            mine = options if options_for is None else replace(
                options, face_signs=options_for(item.file).face_signs)
            analysis = analyse_video(root / item.file, profile=profile, options=mine, max_frames=max_frames)
        except VisionError as error:
            errors.append((item.file, str(error)))
            continue
        seconds = analysis.frames / (analysis.fps or 25.0)
        false = tuple((e.gesture.value, e.start, e.end) for e in analysis.events if e.gesture not in item.positives)
        out.append(ClipResult(item.file, item.label, analysis.frames, seconds, analysis.frames_with_face, false))
    return out


def _held_out(root: Path, readings, signs, gestures, faceless=()) -> tuple[tuple[tuple[GestureStats, int], ...], int]:
    """Leave-one-person-out counts of the face signs on the folder's stills (see the module doc).
    A still without a face cannot be read by any face model: it counts as a miss where it shows a sign."""
    from trainer.lab.face_fit import HAND_LABELS, LabelledFace, count, lopo_scores, product_scores  # noqa: PLC0415
    from trainer.lab.labels import read_persons  # noqa: PLC0415
    from trainer.vision.face_signs import FACE_SIGNS  # noqa: PLC0415

    if not any(item.label == "neutral" for item, _, _ in readings):
        return (), 0  # no neutral face to measure the others against: no held-out fit possible
    persons = read_persons(root)
    faces = [LabelledFace(item.file, persons.get(item.file, item.file), reading,
                          {g: item.truth(g) for g in FACE_SIGNS}, item.label, mouth_hidden)
             for item, reading, mouth_hidden in readings]

    shares = {g: float(signs.held_out.get(g.value, {}).get("positive_share", 0.5)) for g in FACE_SIGNS}
    wanted = [g for g in gestures if g in FACE_SIGNS]
    if len({f.person for f in faces}) < 3:
        return (), 0
    try:
        scored = lopo_scores(faces, shares, product_scores, wanted, fit_on=lambda f: f.label not in HAND_LABELS)
    except ValueError:
        return (), 0  # a held-out person had the only neutral faces: too small a folder to hold people out
    out = []
    for g in wanted:
        c = count(scored, g)
        unseen = sum(item.truth(g) is True for item in faceless)
        out.append((GestureStats(g, c.tp, c.fp, c.fn + unseen), c.people))
    return tuple(out), len({f.person for f in faces})


def save_report(report: EvalReport, path: Path | str) -> None:
    Path(path).write_text(json.dumps(report.to_json(), indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    from trainer.lab.tool import library_main

    raise SystemExit(library_main("evaluate", __doc__))
