"""Record the face-mesh landmarks of the labelled stills (and sampled talking-clip frames) to samples/.

    python -m trainer.lab.record_face_landmarks [GESTURES_DIR]   # default ../shared/gestures

Writes ``samples/face_landmarks.npz``: for every still with a face, and every 10th frame of the
talking clips (tracked in video mode, as the live app does), the 478 refined face-mesh points in
pixels (float32), the mouth-appearance cues (which need the image, so they are computed here), the
source file and its folder label. The face-shape model (``python -m trainer.lab.fit_face_shapes``) and the
tests replay this file without MediaPipe. No image is copied: only numbers our own code computed,
each row naming its source file.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from trainer.lab.labels import read_labels
from trainer.vision.face_features import APPEARANCE_NAMES, mouth_appearance

REPO = Path(__file__).resolve().parents[2]

OUT = REPO / "samples" / "face_landmarks.npz"
CLIP_LABELS = ("talking",)
CLIP_STRIDE = 10


def record(gestures: Path) -> dict[str, np.ndarray]:

    from trainer.vision.landmarks import Tracker, TrackerOptions  # noqa: PLC0415
    from trainer.vision.sources import open_source  # noqa: PLC0415
    from trainer.vision.types import Frame  # noqa: PLC0415

    files, labels, points, appearance, clip = [], [], [], [], []

    def add(name: str, label: str, face: np.ndarray, image: np.ndarray, from_clip: bool) -> None:
        files.append(name)
        labels.append(label)
        points.append(np.asarray(face[:, :3], dtype=np.float32))
        cues = mouth_appearance(image, face)
        appearance.append([cues[k] for k in APPEARANCE_NAMES])
        clip.append(from_clip)

    from trainer.lab.labels import labelled_stills  # noqa: PLC0415

    items = read_labels(gestures)
    with Tracker(TrackerOptions(face=True, hands=False, static_image_mode=True)) as still:
        for item, image in labelled_stills(gestures):
            face = still.process(Frame(image, 0.0)).face
            if face is not None:
                add(item.file, item.label, face, image, False)
    for item in items:
        if not item.is_video or item.label not in CLIP_LABELS:
            continue
        with Tracker(TrackerOptions(face=True, hands=False, static_image_mode=False)) as video, \
                open_source(gestures / item.file) as source:
            for frame in source:
                face = video.process(frame).face  # every frame: video mode tracks from the last one
                if face is not None and frame.index % CLIP_STRIDE == 0:
                    add(f"{item.file}#{frame.index}", item.label, face, frame.image, True)
    return {
        "about": np.array(
            "Refined face-mesh points (pixels, float32) computed by trainer.vision.landmarks.Tracker from "
            "the stills of ../shared/gestures and every 10th frame of its talking clips; 'files' names each "
            "source file (never copied here). Written by python -m trainer.lab.record_face_landmarks."),
        "files": np.array(files),
        "labels": np.array(labels),
        "points": np.stack(points),
        "appearance": np.asarray(appearance, dtype=np.float32),
        "appearance_names": np.array(APPEARANCE_NAMES),
        "from_clip": np.asarray(clip, dtype=bool),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m trainer.lab.record_face_landmarks", description=__doc__.splitlines()[0])
    parser.add_argument("gestures", nargs="?", default=str(REPO.parent / "shared" / "gestures"))
    parser.add_argument("--out", default=str(OUT))
    args = parser.parse_args(argv)
    data = record(Path(args.gestures))
    out = Path(args.out)
    tmp = out.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, **data)  # type: ignore[arg-type]  # numpy's stub lets **kwargs fill allow_pickle
    tmp.replace(out)
    print(f"wrote {out}: {len(data['files'])} faces ({int(data['from_clip'].sum())} clip frames)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
