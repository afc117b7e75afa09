"""Command-line sub-commands of trainer.vision: ``recognize``, ``eval-vision`` and ``bench vision``.

Keep imports here light (standard library only): numpy, OpenCV and MediaPipe are imported inside the
handlers, so ``aluette --help`` and the other areas' commands start fast and work without them.

``aluette recognize PATH... --json`` prints one JSON object per input, one per line (the contract used
by outside checks):

* still image: ``{"path", "face": bool, "hands": int, "gestures": [names], "scores": {name: 0..1}}``
* video / .y4m: ``{"path", "frames": n, "events": [{"gesture", "start", "end", "count", "confidence"}]}``
* unreadable input: ``{"path", "error": message}`` (also on stderr); the other paths still run and the
  exit code is 1.

A folder stands for the images in it (one object per image).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

_IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff", ".ppm", ".pgm"}
DEFAULT_BENCH_CLIP = "gestures/sequence/lp_d3.mp4"
"""A face clip of ../shared (a woman making several expressions, 512x512, 354 frames)."""


def add_commands(subparsers) -> None:
    recognize = subparsers.add_parser(
        "recognize",
        help="recognise the signs in photos, clips (.mp4, .y4m...) or folders of photos",
        description="Recognise gestures in still images (scores per gesture) and clips (timed events).",
    )
    recognize.add_argument("paths", nargs="+", metavar="PATH", help="image, video, .y4m or folder of images")
    recognize.add_argument("--json", action="store_true", help="one JSON object per input, one per line")
    recognize.add_argument(
        "--annotate", metavar="OUT",
        help="write the frames with landmarks and gesture meters drawn: a file for one input, "
        "else a folder (one annotated image/video per input)",
    )
    recognize.add_argument("--profile", metavar="FILE",
                           help="a calibrated profile or a personal sign profile (`aluette enroll`; it implies "
                           "--backend tasks) instead of population defaults")
    recognize.add_argument("--shrug", action="store_true", help="also run MediaPipe Pose on clips (stills always do)")
    recognize.add_argument("--mirrored", action="store_true", help="the input was flipped like a selfie view")
    recognize.add_argument("--backend", choices=("tasks", "mesh"), default="tasks",
                           help="face backend: Tasks FaceLandmarker + blendshapes (default; bundled "
                           "models/face_landmarker.task) or the solutions face mesh")
    recognize.add_argument("--no-mouth-image", action="store_true",
                           help="leave out the mouth-appearance cues (teeth, tongue) computed from the image")
    recognize.add_argument("--face-model", metavar="FILE", help="a face_landmarker.task other than the bundled one")
    recognize.set_defaults(run=run_recognize)

    evaluate = subparsers.add_parser(
        "eval-vision",
        help="precision/recall/F1 per gesture and false triggers per minute on a labelled folder",
        description="Evaluate the recognizer on a labelled folder (folder name = label; MANIFEST.tsv notes).",
    )
    evaluate.add_argument("folder", metavar="DIR", help="e.g. ../shared/gestures")
    evaluate.add_argument("--json", action="store_true", help="print the report as JSON")
    evaluate.add_argument(
        "--backend", choices=("tasks+image", "tasks", "mesh+image", "mesh"), default="tasks+image",
        help="face backend: Tasks FaceLandmarker (blendshapes) or solutions mesh, with or without the "
        "mouth-appearance cues (default tasks+image)",
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


    enroll = subparsers.add_parser(
        "enroll",
        help="teach your own face signs from clips: writes a personal sign profile",
        description="Teach personal signs. Each SPEC is CLIP:GESTURE:START-END (seconds of that clip); GESTURE is "
        "a face sign, 'neutral' for the resting face (needed) or 'talking' (sets the rejection margins). Several "
        "SPECs per gesture are several takes. Needs the Tasks face model (face_landmarker.task).",
    )
    enroll.add_argument("specs", nargs="+", metavar="SPEC", help="CLIP:GESTURE:START-END")
    enroll.add_argument("--out", required=True, metavar="PROFILE.json", help="where to write the profile")
    enroll.add_argument("--name", default="", help="whose signs these are (stored in the profile)")
    enroll.add_argument("--face-model", metavar="FILE", help="face_landmarker.task (default: $ALUETTE_FACE_MODEL "
                        "or the data folder)")
    enroll.set_defaults(run=run_enroll)


def add_bench_commands(bench_subparsers) -> None:
    bench = bench_subparsers.add_parser(
        "vision",
        help="frames per second of the full vision pipeline and of the bare MediaPipe calls",
        description="Run the full pipeline over a clip resized to 640x480 (face + hands), then the bare "
        "MediaPipe graphs on the same frames, and print both rates.",
    )
    bench.add_argument("clip", nargs="?", help=f"a video or .y4m (default: ../shared/{DEFAULT_BENCH_CLIP})")
    bench.add_argument("--json", action="store_true", help='one object {"frames", "size", "pipeline_fps", "mediapipe_fps"}')
    bench.add_argument("--frames", type=int, default=300, help="frames to time (default 300; the clip loops)")
    bench.add_argument("--size", default="640x480", help="frame size WxH (default 640x480)")
    bench.add_argument("--hands-every", type=int, default=2,
                       help="run hands every n-th frame, as the live pipeline does (default 2; 1 = every frame)")
    bench.set_defaults(run=run_bench)


# -- recognize -------------------------------------------------------------------------------------

def _expand(paths: list[str]) -> list[str]:
    out: list[str] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            images = sorted(str(p) for p in path.iterdir() if p.is_file() and p.suffix.lower() in _IMAGE_SUFFIXES)
            out.extend(images or [raw])  # an empty folder is reported as an error below
        else:
            out.append(raw)
    return out


def _annotate_target(out: str | None, path: str, many: bool, video: bool) -> Path | None:
    if out is None:
        return None
    target = Path(out)
    if many or target.is_dir() or not target.suffix:
        target.mkdir(parents=True, exist_ok=True)
        return target / (Path(path).stem + ("_annotated.mp4" if video else "_annotated.png"))
    target.parent.mkdir(parents=True, exist_ok=True)
    return target


def run_recognize(args) -> int:
    from trainer.vision.types import VisionError  # noqa: PLC0415 - keep `aluette` start-up light

    try:
        profile = _load_profile(args.profile)
    except (OSError, ValueError) as error:
        print(f"aluette recognize: {error}", file=sys.stderr)
        return 2
    profile, args.personal = _split_profile(profile)
    if args.personal is not None:
        args.backend = "tasks"  # a personal profile is made of blendshapes
    paths = _expand(args.paths)
    many = len(paths) > 1
    failures = 0
    still_pipe: list = [None]  # one static-mode pipeline shared by every still, built on first use
    try:
        for path in paths:
            try:
                obj, text = _recognize_one(path, args, profile, many, still_pipe)
            except (VisionError, OSError, ValueError) as error:
                failures += 1
                message = str(error) if str(path) in str(error) else f"{path}: {error}"
                print(f"aluette recognize: error: {message}", file=sys.stderr)
                if args.json:
                    print(json.dumps({"path": path, "error": message}), flush=True)
                continue
            print(json.dumps(obj) if args.json else text, flush=True)
    finally:
        if still_pipe[0] is not None:
            still_pipe[0].close()
    return 1 if failures else 0


def _load_profile(path: str | None):
    """A calibration ``Profile`` or a personal ``PersonalSigns``, whichever the file holds."""
    if path is None:
        return None
    from trainer.vision.calibration import Profile  # noqa: PLC0415
    from trainer.vision.personal import PersonalSigns, is_personal_json  # noqa: PLC0415

    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError:
        data = None  # Profile.load names the JSON error
    if is_personal_json(data):
        return PersonalSigns.from_json(data)
    return Profile.load(path)


def _split_profile(profile):
    """(calibration profile, personal signs): one of them or neither."""
    from trainer.vision.personal import PersonalSigns  # noqa: PLC0415

    return (None, profile) if isinstance(profile, PersonalSigns) else (profile, None)


def _recognize_one(path: str, args, profile, many: bool, holder: list):
    from trainer.vision.pipeline import Pipeline, PipelineOptions, analyse_image  # noqa: PLC0415
    from trainer.vision.sources import open_source  # noqa: PLC0415

    with open_source(path) as source:
        still = source.info.is_still
    if still:
        if holder[0] is None:
            holder[0] = Pipeline(
                PipelineOptions(static_image_mode=True, shrug=True, mirrored=args.mirrored,
                                face_backend=args.backend, face_model=args.face_model,
                                mouth_image=not args.no_mouth_image),
                profile=profile,
                personal=args.personal,
            )
        pipe = holder[0]
        pipe.reset()
        analysis = analyse_image(path, profile=profile, pipeline=pipe)
        target = _annotate_target(args.annotate, path, many, video=False)
        if target is not None:
            _write_annotated_image(path, analysis, target)
        return analysis.to_json(), _still_text(analysis, target)
    return _recognize_clip(path, args, profile, many)


def _still_text(analysis, target) -> str:
    hands = f"{analysis.hands} hand{'s' if analysis.hands != 1 else ''}"
    head = f"{analysis.path}: face {'yes' if analysis.face else 'no'}, {hands}"
    if analysis.gestures:
        parts = []
        for g in analysis.gestures:
            side = analysis.sides.get(g)
            parts.append(f"{g.value} {analysis.scores[g]:.2f}" + (f" ({side.value})" if side and g.sided else ""))
        head += " -> " + ", ".join(parts)
    else:
        best = max(analysis.scores.items(), key=lambda kv: kv[1])
        head += f" -> no sign (highest: {best[0].value} {best[1]:.2f})"
    if target is not None:
        head += f"\n  annotated: {target}"
    return head


def _write_annotated_image(path: str, analysis, target: Path) -> None:
    import cv2  # noqa: PLC0415

    from trainer.vision.annotate import annotate  # noqa: PLC0415
    from trainer.vision.sources import read_image  # noqa: PLC0415

    image = read_image(path)
    out = annotate(image, analysis.result.landmarks, analysis.result.live)
    if not cv2.imwrite(str(target), out):
        raise OSError(f"cannot write the annotated image {target}: check the folder and the extension")


def _recognize_clip(path: str, args, profile, many: bool):
    from trainer.vision.pipeline import PipelineOptions, analyse_video  # noqa: PLC0415

    target = _annotate_target(args.annotate, path, many, video=True)
    writer = _ClipWriter(target) if target is not None else None
    try:
        analysis = analyse_video(
            path,
            profile=profile,
            options=PipelineOptions(shrug=args.shrug, mirrored=args.mirrored, face_backend=args.backend,
                                    face_model=args.face_model, mouth_image=not args.no_mouth_image),
            on_frame=writer.add if writer is not None else None,
            personal=args.personal,
        )
    finally:
        if writer is not None:
            writer.close()
    lines = [f"{analysis.path}: {analysis.frames} frames" + (f" at {analysis.fps:g} fps" if analysis.fps else "")
             + f", face in {analysis.frames_with_face}, hands in {analysis.frames_with_hands}; "
             + f"{len(analysis.events)} event{'s' if len(analysis.events) != 1 else ''}"]
    for e in analysis.events:
        side = f" ({e.side.value})" if e.side is not None and e.gesture.sided else ""
        count = f" x{e.count}" if e.count > 1 else ""
        lines.append(f"  {e.start:7.2f}-{e.end:7.2f} s  {e.gesture.value}{side}{count}  confidence {e.confidence:.2f}")
    if target is not None:
        lines.append(f"  annotated: {target}")
    return analysis.to_json(), "\n".join(lines)


class _ClipWriter:
    """Writes annotated frames to a video (or .y4m) as they come."""

    def __init__(self, target: Path) -> None:
        self.target = target
        self._writer = None
        self._y4m_frames: list = []

    def add(self, frame, result) -> None:
        import cv2  # noqa: PLC0415

        from trainer.vision.annotate import annotate  # noqa: PLC0415

        image = annotate(frame.image, result.landmarks, result.live)
        if self.target.suffix.lower() == ".y4m":
            self._y4m_frames.append(image)
            return
        if self._writer is None:
            h, w = image.shape[:2]
            self._writer = cv2.VideoWriter(str(self.target), cv2.VideoWriter_fourcc(*"mp4v"), 30.0, (w, h))
            if not self._writer.isOpened():
                raise OSError(f"cannot write the annotated video {self.target}: use a .mp4 or .y4m name")
        self._writer.write(image)

    def close(self) -> None:
        if self._writer is not None:
            self._writer.release()
        if self._y4m_frames:
            from trainer.vision.sources import write_y4m  # noqa: PLC0415

            write_y4m(self._y4m_frames, self.target, 30.0)


# -- eval-vision -----------------------------------------------------------------------------------

def run_eval(args) -> int:
    from trainer.vision.evaluate import save_report  # noqa: PLC0415

    try:
        profile, personal = _split_profile(_load_profile(args.profile))
        spans = None if args.no_clips else _clip_spans(args.folder, args.spans)
    except (OSError, ValueError) as error:
        print(f"aluette eval-vision: {error}", file=sys.stderr)
        return 2
    progress = None if args.json else (lambda msg: print(msg, file=sys.stderr, flush=True))
    if spans is not None and (args.no_photos or not _has_photos(args.folder)):
        report = None  # a user's own clip folder: spans.tsv and clips only
    else:
        report = _photo_report(args, profile, progress)
    clips = None
    if spans is not None:
        clips = _clip_report(args, spans, profile, personal, progress)
    if report is None:
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


def _photo_report(args, profile, progress):
    from trainer.vision.evaluate import evaluate_folder  # noqa: PLC0415

    return evaluate_folder(
        args.folder,
        backend=args.backend,
        profile=profile,
        clips=not args.no_clips,
        max_clip_frames=args.max_clip_frames,
        face_model=args.face_model,
        progress=progress,
        **({"review": None} if args.no_review else {}),
    )


REPO_SPANS = Path(__file__).resolve().parents[2] / "samples" / "clip_spans.tsv"


def _clip_spans(folder: str, spans_file: str | None):
    """The spans describing ``folder``: --spans, else DIR/spans.tsv, else the repository's annotations
    of ../shared/gestures when every clip they name is in ``folder``; None when there are none."""
    from trainer.vision.clip_eval import clip_files, load_spans, spans_for  # noqa: PLC0415

    found = spans_for(folder, spans_file)
    if found is not None:
        return found[1]
    if REPO_SPANS.is_file():
        spans = load_spans(REPO_SPANS)
        if all((Path(folder) / f).is_file() for f in clip_files(spans)):
            return spans
    return None


def _has_photos(folder: str) -> bool:
    root = Path(folder)
    return (root / "MANIFEST.tsv").is_file() or any(
        p.suffix.lower() in _IMAGE_SUFFIXES for p in root.glob("*/*") if p.is_file())


def _clip_report(args, spans, profile, personal, progress):
    from trainer.vision.clip_eval import evaluate_clips  # noqa: PLC0415
    from trainer.vision.pipeline import PipelineOptions  # noqa: PLC0415

    backend = "tasks" if personal is not None else args.backend
    options = PipelineOptions(face_backend="tasks" if backend.startswith("tasks") else "mesh",
                              face_model=args.face_model, mouth_image=backend.endswith("+image") or personal is not None)
    return evaluate_clips(args.folder, spans, options, profile=profile, personal=personal,
                          max_frames=args.max_clip_frames, progress=progress,
                          label="personal signs" if personal is not None else f"population, {backend}")


# -- enroll ------------------------------------------------------------------------------------------

def run_enroll(args) -> int:
    from trainer.vision.enroll import describe, parse_spec, teach_from_clips  # noqa: PLC0415

    try:
        specs = [parse_spec(text) for text in args.specs]
        model = teach_from_clips(specs, face_model=args.face_model, name=args.name,
                                 progress=lambda msg: print(msg, file=sys.stderr, flush=True))
        model.save(args.out)
    except (OSError, ValueError) as error:
        print(f"aluette enroll: {error}", file=sys.stderr)
        return 2
    print(describe(model))
    print(f"written: {args.out}")
    return 0


# -- bench vision ------------------------------------------------------------------------------------

def _default_clip() -> Path:
    import os  # noqa: PLC0415

    shared = Path(os.environ.get("ALUETTE_SHARED", Path(__file__).resolve().parents[2].parent / "shared"))
    return shared / DEFAULT_BENCH_CLIP


def run_bench(args) -> int:
    from trainer.vision.bench import bench_vision  # noqa: PLC0415

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
