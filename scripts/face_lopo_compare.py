#!/usr/bin/env python
"""Compare face-sign decisions leave-one-person-out on the cached photo readings.

    nice .venv/bin/python scripts/face_lopo_compare.py [--samples samples/face_signs.json]

Each variant is refitted without each person in turn (``trainer.lab.face_fit.lopo_scores``; hand-sign
photos scored, not fitted, as ``aluette eval-vision`` does) with its positive shares chosen by
leave-one-person-out (``choose_shares``), and printed as a held-out table with macro precision and
recall. No MediaPipe run: the readings come from samples/face_signs.json.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from trainer.lab.face_fit import EYE_CLOSURES, HAND_LABELS, MOUTH_SHAPES, choose_shares, count, faces_from_samples, lopo_scores  # noqa: E402
from trainer.signals.gestures import Gesture  # noqa: E402
from trainer.vision.face_signs import FACE_SIGNS  # noqa: E402

VARIANTS = {
    "independent": (),
    "eyes and mouth": (EYE_CLOSURES, MOUTH_SHAPES),
    "mouth only": (MOUTH_SHAPES,),
    "eyes only (shipped)": (EYE_CLOSURES,),
    "eyes, pout vs open": (EYE_CLOSURES, (Gesture.POUT, Gesture.MOUTH_OPEN)),
    "eyes, pout vs open vs tongue": (EYE_CLOSURES, (Gesture.POUT, Gesture.MOUTH_OPEN, Gesture.TONGUE_OUT)),
    "eyes, grimace vs corner": (EYE_CLOSURES, (Gesture.GRIMACE, Gesture.LIP_CORNER)),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", default=str(REPO / "samples" / "face_signs.json"))
    parser.add_argument("--variants", nargs="*", default=list(VARIANTS), choices=list(VARIANTS))
    args = parser.parse_args(argv)
    faces = faces_from_samples(args.samples)
    fitted = [f for f in faces if f.label not in HAND_LABELS]
    for name in args.variants:
        compete = VARIANTS[name]
        shares, _ = choose_shares(fitted, compete=compete)
        scored = lopo_scores(faces, shares, fit_on=lambda f: f.label not in HAND_LABELS, compete=compete)
        print(f"\n{name}: {len(faces)} faces of {len({f.person for f in faces})} people, held out")
        ps, rs = [], []
        for g in FACE_SIGNS:
            c = count(scored, g)
            ps.append(c.precision)
            rs.append(c.recall)
            print(f"  {g.value:12s} P {c.precision:4.2f} R {c.recall:4.2f}  tp {c.tp:3d} fp {c.fp:3d} fn {c.fn:3d}"
                  f"  {c.people:3d} people  share {shares[g]}")
        print(f"  macro P {sum(ps) / len(ps):.3f}  macro R {sum(rs) / len(rs):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
