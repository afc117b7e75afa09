#!/usr/bin/env python
"""Fit the face signs' population parameters and write models/face_signs.json.

    nice .venv/bin/python scripts/fit_face_signs.py [--samples samples/face_signs.json]

Reads the faces recorded by scripts/record_face_signs.py (never the images), leaves out the photos of
hand signs (a hand over the mouth is muted by the pipeline), picks each sign's positive share
leave-one-person-out (trainer.lab.face_fit.choose_shares), fits every sign on all people with it (the
competing signs, ``face_fit.COMPETING``, jointly: they are scored as a softmax with "none"),
and stores the held-out (LOPO) figures beside the parameters. Prints the held-out table.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from trainer.lab.face_fit import HAND_LABELS, choose_shares, faces_from_samples, fit_params  # noqa: E402
from trainer.vision.face_signs import DEFAULT_SIGNS, FaceSignParams  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", default=str(REPO / "samples" / "face_signs.json"))
    parser.add_argument("--out", default=str(DEFAULT_SIGNS))
    args = parser.parse_args(argv)
    faces = [f for f in faces_from_samples(args.samples) if f.label not in HAND_LABELS]
    shares, held = choose_shares(faces)
    fitted = fit_params(faces, shares)
    params = FaceSignParams(fitted.models, fitted.population, held_out={
        g.value: {**held[g].to_json(), "positive_share": shares[g]} for g in held}, compete=fitted.compete)
    about = {
        "created": dt.date.today().isoformat(),
        "about": "Population parameters of the face signs (trainer.vision.face_signs), fitted by "
                 "scripts/fit_face_signs.py on samples/face_signs.json (hand-sign photos left out). "
                 "held_out: leave-one-person-out counts (people = people with a positive).",
        "faces": len(faces),
        "people": len({f.person for f in faces}),
    }
    Path(args.out).write_text(json.dumps(params.to_json(about), indent=1) + "\n", encoding="utf-8")
    print(f"{len(faces)} faces of {about['people']} people; held out (leave-one-person-out):")
    for g, c in held.items():
        print(f"  {g.value:12s} P {c.precision:4.2f} R {c.recall:4.2f}  tp {c.tp:3d} fp {c.fp:3d} fn {c.fn:3d}  "
              f"{c.people} people  share {shares[g]}")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
