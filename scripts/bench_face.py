#!/usr/bin/env python
"""Time the face stage per frame: features, mouth appearance, gesture scores (milliseconds per call).

    python scripts/bench_face.py [IMAGE]     # default ../shared/gestures/mouth_open/lp_d18_f0132_mouth_open.jpg

Runs the face mesh once on the image (resized to 640x480), then times each function many times and
prints the best of five runs (the machine is shared: the minimum is the least disturbed figure).
"""

from __future__ import annotations

import sys
import timeit
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def main(argv: list[str]) -> int:
    import cv2

    from trainer.vision.face_features import face_features, mouth_appearance
    from trainer.vision.face_gestures import load_thresholds, score_face
    from trainer.vision.landmarks import Tracker, TrackerOptions
    from trainer.vision.types import Frame

    path = Path(argv[0]) if argv else REPO.parent / "shared" / "gestures" / "mouth_open" / "lp_d18_f0132_mouth_open.jpg"
    image = cv2.resize(cv2.imread(str(path)), (640, 480))
    with Tracker(TrackerOptions(face=True, hands=False, static_image_mode=True)) as tracker:
        points = tracker.process(Frame(image, 0.0)).face
    if points is None:
        print(f"no face in {path}", file=sys.stderr)
        return 1
    features = dict(face_features(points), **mouth_appearance(image, points))
    thresholds = load_thresholds(backend="mesh+image")
    for name, call in (
        ("face_features", lambda: face_features(points)),
        ("mouth_appearance", lambda: mouth_appearance(image, points)),
        ("score_face", lambda: score_face(features, None, thresholds)),
    ):
        best = min(timeit.repeat(call, number=300, repeat=5)) / 300 * 1000
        print(f"{name:18s} {best:.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
