"""Record the hands the product's trackers find beside a face on the stills of ../shared/gestures,
into samples/mouth_hands.json: per still with a face and a hand, the mouth centre and face width
(``pipeline.mouth_and_width``) and each hand's 21 points (x, y pixels), side and score. The images
are never copied; each row names its source file.

The tests replay these through ``Pipeline.score_parts`` to check when a hand hides the mouth (a real
hand over the mouth) and when it does not (a tiny phantom "hand" found inside a face):

    nice .venv/bin/python -m trainer.lab.record_mouth_hands [GESTURES_DIR]
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from trainer.lab.labels import labelled_stills
from trainer.vision.pipeline import Pipeline, PipelineOptions, mouth_and_width
from trainer.vision.types import Frame

REPO = Path(__file__).resolve().parents[2]

OUT = REPO / "samples" / "mouth_hands.json"


def record(gestures: Path) -> list[dict]:
    rows = []
    with Pipeline(PipelineOptions(static_image_mode=True, shrug=False)) as pipe:
        for item, image in labelled_stills(gestures):
            pipe.reset()
            result = pipe.process(Frame(image, 0.0))
            marks = result.landmarks
            if marks.face is None or not marks.hands or not result.scores.face_found:
                continue
            mouth, width = mouth_and_width(marks.face)
            rows.append({
                "file": item.file, "label": item.label,
                "mouth": [round(v, 2) for v in mouth], "face_width": round(width, 2),
                "mouth_hidden": result.scores.mouth_hidden,
                "hands": [{"side": h.side.value, "score": round(h.score, 3),
                           "points": [[round(float(x), 1), round(float(y), 1)] for x, y in h.points[:, :2]]}
                          for h in marks.hands],
            })
    return rows


def main(argv: list[str] | None = None) -> int:
    import argparse  # noqa: PLC0415

    parser = argparse.ArgumentParser(
        prog="python -m trainer.lab.record_mouth_hands", description=__doc__.split("\n\n")[0])
    parser.add_argument("gestures", nargs="?", type=Path, default=REPO.parent / "shared" / "gestures")
    gestures = parser.parse_args(argv).gestures
    rows = record(gestures)
    header = {
        "about": "Hands found beside a face on the stills of ../shared/gestures by the product's "
        "Pipeline (still mode): mouth centre, face width and hand points in pixels; "
        "'file' names the source (never copied here). Written by python -m trainer.lab.record_mouth_hands.",
        "created": dt.date.today().isoformat(),
        "rows": rows,
    }
    OUT.write_text(json.dumps(header, indent=0) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(rows)} stills with a face and a hand)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
