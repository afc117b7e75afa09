"""Fit the face-shape basis (models/face_shape.json) from the recorded landmarks, without labels.

    python -m trainer.lab.fit_face_shapes [--components 16]

Reads ``samples/face_landmarks.npz`` (``python -m trainer.lab.record_face_landmarks``): the reference face is the
aligned mean of the ``neutral`` stills; each region's principal components come from every recorded
face (stills and talking frames). Regions: ``up`` = both brows, both eyes and the irises; ``mouth`` =
the lips (MediaPipe's own FACEMESH_* contour sets). See trainer/vision/face_shape.py. Then rerun
``python -m trainer.lab.tune_thresholds --replay`` so the gesture models see the new components.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
from pathlib import Path

import numpy as np

from trainer.vision.face_shape import DEFAULT_SHAPE_FILE, fit_shape_basis

REPO = Path(__file__).resolve().parents[2]

LANDMARKS = REPO / "samples" / "face_landmarks.npz"


def regions() -> dict[str, tuple[int, ...]]:
    from mediapipe.tasks.python.vision.face_landmarker import FaceLandmarksConnections as mesh  # noqa: PLC0415

    def points(*sets) -> tuple[int, ...]:
        return tuple(sorted({i for edges in sets for edge in edges for i in (edge.start, edge.end)}))

    return {
        "up": points(mesh.FACE_LANDMARKS_LEFT_EYEBROW, mesh.FACE_LANDMARKS_RIGHT_EYEBROW,
                     mesh.FACE_LANDMARKS_LEFT_EYE, mesh.FACE_LANDMARKS_RIGHT_EYE) + tuple(range(468, 478)),
        "mouth": points(mesh.FACE_LANDMARKS_LIPS),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m trainer.lab.fit_face_shapes", description=__doc__.splitlines()[0])
    parser.add_argument("--landmarks", default=str(LANDMARKS))
    parser.add_argument("--components", type=int, default=16)
    parser.add_argument("--out", default=str(DEFAULT_SHAPE_FILE))
    args = parser.parse_args(argv)
    data = np.load(args.landmarks)
    neutral = (data["labels"] == "neutral") & ~data["from_clip"]
    basis = fit_shape_basis(data["points"], neutral, regions(), args.components,
                            version=f"{dt.date.today().isoformat()}-shape")
    out = Path(args.out)
    payload = dict(basis.to_json(), about=(
        f"Face-shape basis fitted by python -m trainer.lab.fit_face_shapes from {len(data['points'])} recorded faces "
        f"({int(neutral.sum())} neutral stills for the reference) of ../shared/gestures; see "
        "trainer/vision/face_shape.py."))
    tmp = out.with_suffix(".tmp")
    tmp.write_text(json.dumps(payload, separators=(",", ":")) + "\n", encoding="utf-8")
    tmp.replace(out)
    print(f"wrote {out}: {', '.join(f'{r.name} {len(r.points)} points x {len(r.components)}' for r in basis.regions)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
