"""Record landmark streams of real clips in ../shared/gestures into samples/streams_<clip>.npz, so
fast tests replay the temporal logic (recognizer, talking suppression, writing) without MediaPipe.

Per frame it stores what the tracker (MediaPipe Tasks) read and our own code computed: the timestamp (the clip's
clock), the Tasks FaceLandmarker's 52 blendshapes (MediaPipe names), the face features of
``trainer.vision.face_features`` (geometry and mouth appearance; NaN when no face), the mouth centre and
face width, both eyes' centres, and up to two hands' 21 landmarks (pixels) with their subject side.
The clips themselves are never copied; each file names its source. Rerun after the face features change:

    nice .venv/bin/python -m trainer.lab.record_streams            # every talking clip of the MANIFEST + OTHER_CLIPS
    nice .venv/bin/python -m trainer.lab.record_streams talking/lp_d20_talking.mp4 ...
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

from trainer.vision.face_features import face_features, mouth_appearance
from trainer.vision.landmarks import Tracker, TrackerOptions
from trainer.vision.pipeline import eye_centres, mouth_and_width
from trainer.vision.sources import open_source
from trainer.vision.types import VisionError

REPO = Path(__file__).resolve().parents[2]

VIDEO_SUFFIXES = (".mp4", ".mpg", ".avi", ".mov", ".webm")
OTHER_CLIPS = (
    "sequence/lp_d18.mp4",
    "sequence/lp_d3.mp4",
    "sequence/lp_d10.mp4",
    "thumb/mps_gesture_test_video_thumb.mp4",
)
SIDES = {"left": 1, "right": 2}


def talking_clips(gestures: Path) -> list[str]:
    """Every talking clip of the MANIFEST (its stills aside)."""
    with (gestures / "MANIFEST.tsv").open(newline="", encoding="utf-8") as handle:
        return [row["file"] for row in csv.DictReader(handle, delimiter="\t")
                if row["label"] == "talking" and Path(row["file"]).suffix.lower() in VIDEO_SUFFIXES]


def _two_hands(found) -> tuple[np.ndarray, np.ndarray]:
    """(points, sides) of the first two hands found, NaN points and side 0 where none."""
    points = np.full((2, 21, 3), np.nan, np.float32)
    sides = np.zeros(2, np.int8)
    for i, hand in enumerate(found[:2]):
        points[i] = hand.points
        sides[i] = SIDES[hand.side.value]
    return points, sides


def _matrix(rows: list, keys: list[str]) -> np.ndarray:
    """One float32 row per frame of ``keys``' values; a frame without values is a row of NaN."""
    return np.array([[f.get(k, np.nan) for k in keys] if f else [np.nan] * len(keys) for f in rows],
                    dtype=np.float32).reshape(len(rows), len(keys))


def record(gestures: Path, rel: str) -> Path:
    import mediapipe  # noqa: PLC0415 - only to name its version in the file

    source = open_source(gestures / rel)
    times, faces, shapes, mouths, eyes, hands, hand_sides = [], [], [], [], [], [], []
    keys: list[str] | None = None
    shape_keys: list[str] | None = None
    with source, Tracker(TrackerOptions(face=True, hands=True)) as tracker:
        for frame in source:
            marks = tracker.process(frame)
            times.append(frame.timestamp)
            feats = None
            if marks.face is not None:
                try:
                    feats = dict(face_features(marks.face), **mouth_appearance(frame.image, marks.face))
                except VisionError:
                    feats = None
            if feats is not None and keys is None:
                keys = sorted(feats)
            if feats is not None and marks.blendshapes and shape_keys is None:
                shape_keys = sorted(k for k in marks.blendshapes if not k.startswith("_"))
            faces.append(feats)
            shapes.append(marks.blendshapes if feats is not None else None)
            if feats is not None and marks.face is not None:  # features only come with a face
                (mx, my), width = mouth_and_width(marks.face)
                mouths.append((mx, my, width))
                (lx, ly), (rx, ry) = eye_centres(marks.face)
                eyes.append((lx, ly, rx, ry))
            else:
                mouths.append((np.nan, np.nan, np.nan))
                eyes.append((np.nan,) * 4)
            points, sides = _two_hands(marks.hands)
            hands.append(points)
            hand_sides.append(sides)
    keys = keys or []
    face_matrix = _matrix(faces, keys)
    shape_keys = shape_keys or []
    shape_matrix = _matrix(shapes, shape_keys)
    out = REPO / "samples" / f"streams_{Path(rel).stem}.npz"
    np.savez_compressed(
        out,
        source=np.array(f"../shared/gestures/{rel}"),
        about=np.array(
            f"computed by python -m trainer.lab.record_streams with MediaPipe {mediapipe.__version__} (Tasks, "
            "video mode): FaceLandmarker blendshapes, HandLandmarker, and trainer.vision.face_features "
            "(geometry + mouth appearance)"
        ),
        size=np.array(source.info.size or (0, 0)),
        t=np.array(times, dtype=np.float64),
        face_keys=np.array(keys),
        face=face_matrix,
        blendshape_keys=np.array(shape_keys),
        blendshapes=shape_matrix,
        mouth=np.array(mouths, dtype=np.float32),
        eyes=np.array(eyes, dtype=np.float32).reshape(len(eyes), 4),
        hands=np.array(hands, dtype=np.float32),
        hand_sides=np.array(hand_sides, dtype=np.int8),
    )
    return out


def main(argv: list[str] | None = None) -> int:
    import argparse  # noqa: PLC0415

    parser = argparse.ArgumentParser(prog="python -m trainer.lab.record_streams", description=__doc__.split("\n\n")[0])
    parser.add_argument("clips", nargs="*",
                        help="clips of ../shared/gestures (default: the talking clips and OTHER_CLIPS)")
    clips = parser.parse_args(argv).clips
    gestures = REPO.parent / "shared" / "gestures"
    for rel in clips or [*talking_clips(gestures), *OTHER_CLIPS]:
        out = record(gestures, rel)
        print(f"{rel} -> {out.relative_to(REPO)} ({out.stat().st_size // 1024} KiB)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
