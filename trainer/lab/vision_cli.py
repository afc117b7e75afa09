"""The lab's vision commands: ``aluette eval-vision`` and ``aluette bench vision``.

They run on purpose to measure the recognizer and are never imported by the app. Imports stay light
here (standard library) as in every command module; the heavy ones happen inside the handlers.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, cast

from trainer.vision.cli import _IMAGE_SUFFIXES, _load_profile, _split_profile

if TYPE_CHECKING:
    from trainer.lab.clip_eval import ClipReport

DEFAULT_BENCH_CLIP = "gestures/sequence/lp_d3.mp4"
"""A face clip of ../shared (a woman making several expressions, 512x512, 354 frames)."""


def add_commands(subparsers) -> None:
    evaluate = subparsers.add_parser(
        "eval-vision",
        help="precision/recall/F1 per gesture and false triggers per minute on a labelled folder",
        description="Evaluate the recognizer on a labelled folder (folder name = label; MANIFEST.tsv notes).",
    )
    evaluate.add_argument("folder", metavar="DIR", help="e.g. ../shared/gestures")
    evaluate.add_argument("--json", action="store_true", help="print the report as JSON")
    evaluate.add_argument(
        "--backend", choices=("tasks+image", "tasks"), default="tasks+image",
        help="the face signs with or without the mouth-appearance cues (default tasks+image)",
    )
    evaluate.add_argument("--face-model", metavar="FILE", help="face_landmarker.task for --backend tasks")
    evaluate.add_argument("--profile", metavar="FILE",
                          help="a calibrated profile instead of population defaults; a personal sign profile "
                          "(`aluette enroll`) is used on the annotated clips")
    evaluate.add_argument("--spans", metavar="FILE",
                          help="time spans of the clips to score (default: DIR/spans.tsv, or samples/clip_spans.tsv "
                          "for ../shared/gestures); see docs/vision-personal.md")
    evaluate.add_argument("--no-clips", action="store_true", help="stills only (skip the talking/neutral clips)")
    evaluate.add_argument("--no-photos", action="store_true",
                          help="only the clips annotated with time spans (event recall, false events per minute)")
    evaluate.add_argument("--no-review", action="store_true",
                          help="MANIFEST labels only (ignore the reviewed labels of samples/gestures_review.tsv)")
    evaluate.add_argument("--max-clip-frames", type=int, metavar="N", help="read at most N frames per clip")
    evaluate.add_argument("--mistakes", action="store_true", help="list every missed and false detection")
    evaluate.add_argument("--out", metavar="FILE", help="also save the JSON report there")
    evaluate.set_defaults(run=run_eval)


def add_bench_commands(bench_subparsers) -> None:
    bench = bench_subparsers.add_parser(
        "vision",
        help="frames per second of the full vision pipeline and of the bare MediaPipe calls",
        description="Run the full pipeline over a clip resized to 640x480 (face + hands), then the bare "
        "MediaPipe graphs on the same frames, and print both rates.",
    )
    bench.add_argument("clip", nargs="?", help=f"a video or .y4m (default: ../shared/{DEFAULT_BENCH_CLIP})")
    bench.add_argument(
        "--json", action="store_true", help='one object {"frames", "size", "pipeline_fps", "mediapipe_fps"}'
    )
    bench.add_argument("--frames", type=int, default=300, help="frames to time (default 300; the clip loops)")
    bench.add_argument("--size", default="640x480", help="frame size WxH (default 640x480)")
    bench.add_argument("--hands-every", type=int, default=2,
                       help="run hands every n-th frame, as the live pipeline does (default 2; 1 = every frame)")
    bench.set_defaults(run=run_bench)


# -- eval-vision -----------------------------------------------------------------------------------

def run_eval(args) -> int:
    from trainer.lab.evaluate import save_report  # noqa: PLC0415

    try:
        profile, personal = _split_profile(_load_profile(args.profile))
        spans = None if args.no_clips else _clip_spans(args.folder, args.spans)
    except (OSError, ValueError) as error:
        print(f"aluette eval-vision: {error}", file=sys.stderr)
        return 2
    progress = None if args.json else (lambda msg: print(msg, file=sys.stderr, flush=True))
    photos = not (spans is not None and (args.no_photos or not _has_photos(args.folder)))
    with _held_out_clips(args, spans or (), profile, personal, photos) as held:
        # A user's own clip folder (spans.tsv and clips only) has no photo table.
        report = _photo_report(args, profile, progress, spans or (), held) if photos else None
        clips = None if spans is None else _clip_report(args, spans, profile, personal, progress, held)
    if report is None:
        clips = cast("ClipReport", clips)  # no photo table only when spans were given
        if args.out:
            Path(args.out).write_text(json.dumps({"clips": clips.to_json()}, indent=1) + "\n", encoding="utf-8")
        print(json.dumps({"clips": clips.to_json()}) if args.json else clips.format_table(mistakes=args.mistakes))
        return 0
    if args.out:
        save_report(report, args.out)
    if args.json:
        out = report.to_json()
        if clips is not None:
            out["clips"] = clips.to_json()
        print(json.dumps(out))
    else:
        print(report.format_table(mistakes=args.mistakes))
        if clips is not None:
            print()
            print(clips.format_table(mistakes=args.mistakes))
    return 0


def _clip_options(args, personal):
    from trainer.vision.pipeline import PipelineOptions  # noqa: PLC0415

    backend = "tasks" if personal is not None else args.backend
    return backend, PipelineOptions(face_model=args.face_model,
                                    mouth_image=backend.endswith("+image") or personal is not None)


def _held_out_clips(args, spans, profile, personal, photos):
    """Population figures on clips are held out: the shipped face signs were fitted on the stills of
    most of ../shared/gestures' people, so each clip (annotated, and the talking/neutral ones of the
    photo report) runs with them refitted without its person. A null context (None) for personal
    signs or a calibrated profile (nothing fitted on people)."""
    from contextlib import nullcontext  # noqa: PLC0415

    backend, options = _clip_options(args, personal)
    if args.no_clips or personal is not None or profile is not None:
        return nullcontext(None)
    from trainer.lab.clip_replay import held_out_options  # noqa: PLC0415
    from trainer.lab.labels import talking_clips  # noqa: PLC0415

    negatives = talking_clips(args.folder) if photos else []
    return held_out_options(args.folder, spans, options, also=negatives)


def _photo_report(args, profile, progress, spans, held):
    from trainer.lab.clip_eval import clip_files  # noqa: PLC0415
    from trainer.lab.evaluate import evaluate_folder  # noqa: PLC0415

    return evaluate_folder(
        args.folder,
        backend=args.backend,
        profile=profile,
        clips=not args.no_clips,
        max_clip_frames=args.max_clip_frames,
        face_model=args.face_model,
        progress=progress,
        clip_options_for=None if held is None else held.options_for,
        annotated=frozenset(clip_files(spans)),
        **({"review": None} if args.no_review else {}),
    )


REPO_SPANS = Path(__file__).resolve().parents[2] / "samples" / "clip_spans.tsv"


def _clip_spans(folder: str, spans_file: str | None):
    """The spans of the clips to score in ``folder``: --spans, else DIR/spans.tsv, else the repository's
    annotations of ../shared/gestures when every clip they name is in ``folder``; None when there are
    none. A talking clip with don't-care rows only stays in the talking table (``annotated_clips``)."""
    from trainer.lab.clip_eval import clip_files, load_spans, scored_spans, spans_for  # noqa: PLC0415

    found = spans_for(folder, spans_file)
    if found is not None:
        return scored_spans(folder, found[1])
    if REPO_SPANS.is_file():
        spans = load_spans(REPO_SPANS)
        if all((Path(folder) / f).is_file() for f in clip_files(spans)):
            return scored_spans(folder, spans)
    return None


def _has_photos(folder: str) -> bool:
    root = Path(folder)
    return (root / "MANIFEST.tsv").is_file() or any(
        p.suffix.lower() in _IMAGE_SUFFIXES for p in root.glob("*/*") if p.is_file())


def _clip_report(args, spans, profile, personal, progress, held):
    from trainer.lab.clip_eval import clip_files, evaluate_clips  # noqa: PLC0415

    backend, options = _clip_options(args, personal)
    if held is None:
        return evaluate_clips(args.folder, spans, options, profile=profile, personal=personal,
                              max_frames=args.max_clip_frames, progress=progress,
                              label="personal signs" if personal is not None else f"population, {backend}")
    return evaluate_clips(args.folder, spans, options, max_frames=args.max_clip_frames, progress=progress,
                          label=f"population, {backend}, {held.label(clip_files(spans))}",
                          options_for=held.options_for)


# -- bench vision ------------------------------------------------------------------------------------

def _default_clip() -> Path:
    import os  # noqa: PLC0415

    shared = Path(os.environ.get("ALUETTE_SHARED", Path(__file__).resolve().parents[2].parent / "shared"))
    return shared / DEFAULT_BENCH_CLIP


def run_bench(args) -> int:
    from trainer.lab.bench import bench_vision  # noqa: PLC0415

    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        print(f"aluette bench vision: --size {args.size!r} must look like 640x480", file=sys.stderr)
        return 2
    clip = Path(args.clip) if args.clip else _default_clip()
    progress = None if args.json else (lambda msg: print(msg, file=sys.stderr, flush=True))
    started = time.perf_counter()
    result = bench_vision(clip, frames=args.frames, size=(width, height), hands_every=args.hands_every,
                          progress=progress)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(result.format(time.perf_counter() - started))
    return 0


if __name__ == "__main__":
    from trainer.lab.tool import commands_main

    raise SystemExit(commands_main("vision_cli"))
