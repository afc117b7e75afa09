"""Command-line sub-commands of trainer.vision: ``recognize`` and ``enroll`` (``eval-vision`` and
``bench vision`` are tools of ``trainer.lab.vision_cli``).

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
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # OpenCV is imported where a command needs it
    import cv2

_IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff", ".ppm", ".pgm"}


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
                           help="a calibrated profile or a personal sign profile (`aluette enroll`) "
                           "instead of population defaults")
    recognize.add_argument("--shrug", action="store_true", help="also run MediaPipe Pose on clips (stills always do)")
    recognize.add_argument("--mirrored", action="store_true", help="the input was flipped like a selfie view")
    recognize.add_argument("--no-mouth-image", action="store_true",
                           help="leave out the mouth-appearance cues (teeth, tongue) computed from the image")
    recognize.add_argument("--face-model", metavar="FILE", help="a face_landmarker.task other than the bundled one")
    recognize.set_defaults(run=run_recognize)



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
    from trainer.vision.sources import is_still  # noqa: PLC0415

    if is_still(path):
        if holder[0] is None:
            holder[0] = Pipeline(
                PipelineOptions(static_image_mode=True, shrug=True, mirrored=args.mirrored,
                                face_model=args.face_model,
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
            options=PipelineOptions(shrug=args.shrug, mirrored=args.mirrored,
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
    if analysis.shown_at_start:
        lines.append(f"  note: {', '.join(g.value for g in analysis.shown_at_start)} already showing on the first "
                     "frame: a sign is read from a still face, so start the clip a moment before it")
    if target is not None:
        lines.append(f"  annotated: {target}")
    return analysis.to_json(), "\n".join(lines)


class _ClipWriter:
    """Writes annotated frames to a video (or .y4m) as they come."""

    def __init__(self, target: Path) -> None:
        self.target = target
        self._writer: cv2.VideoWriter | None = None
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
            writer = cv2.VideoWriter(str(self.target), cv2.VideoWriter.fourcc(*"mp4v"), 30.0, (w, h))
            if not writer.isOpened():
                raise OSError(f"cannot write the annotated video {self.target}: use a .mp4 or .y4m name")
            self._writer = writer
        self._writer.write(image)

    def close(self) -> None:
        if self._writer is not None:
            self._writer.release()
        if self._y4m_frames:
            from trainer.vision.sources import write_y4m  # noqa: PLC0415

            write_y4m(self._y4m_frames, self.target, 30.0)


# -- enroll ------------------------------------------------------------------------------------------

def run_enroll(args) -> int:
    from trainer.vision.enroll import describe, enroll_from_clips, parse_spec  # noqa: PLC0415

    try:
        specs = [parse_spec(text) for text in args.specs]
        model, reliable = enroll_from_clips(specs, face_model=args.face_model, name=args.name,
                                            progress=lambda msg: print(msg, file=sys.stderr, flush=True))
        model.save(args.out)
    except (OSError, ValueError) as error:
        print(f"aluette enroll: {error}", file=sys.stderr)
        return 2
    print(describe(model))
    print("how reliably each sign will be seen (held out across its takes):")
    for item in reliable.values():
        print(f"  {item.describe()}")
    print(f"written: {args.out}")
    return 0
