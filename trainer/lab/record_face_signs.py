"""Record what the default face backend (MediaPipe Tasks FaceLandmarker) reads on every labelled still
of ../shared/gestures, into samples/face_signs.json: one row per still with its label, its `person`
(MANIFEST), its truth per face sign (MANIFEST notes + samples/gestures_review.tsv: true, false or null =
don't care), the 52 blendshapes under their MediaPipe names, our geometry features
(``trainer.vision.face_features``) and the mouth-appearance cues. The images are never copied; each
row names its source file.

``python -m trainer.lab.face_fit signs`` fits the population parameters from it (leave-one-person-out), and the tests
check the product against it on held-out people. Rerun after the labels or the features change:

    nice .venv/bin/python -m trainer.lab.record_face_signs [GESTURES_DIR]

After a change of the labels alone (MANIFEST notes, samples/gestures_review.tsv), ``--labels-only``
rewrites each recorded row's truth without running MediaPipe again:

    .venv/bin/python -m trainer.lab.record_face_signs --labels-only [GESTURES_DIR]
"""

from __future__ import annotations

import csv
import datetime as dt
import json
from pathlib import Path

from trainer.lab.labels import labelled_stills, read_labels
from trainer.vision.face_signs import FACE_SIGNS
from trainer.vision.pipeline import Pipeline, PipelineOptions
from trainer.vision.types import Frame

REPO = Path(__file__).resolve().parents[2]

OUT = REPO / "samples" / "face_signs.json"


def persons(gestures: Path) -> dict[str, str]:
    with (gestures / "MANIFEST.tsv").open(newline="", encoding="utf-8") as handle:
        return {row["file"]: row.get("person") or row["file"] for row in csv.DictReader(handle, delimiter="\t")}


def record(gestures: Path) -> list[dict]:
    who = persons(gestures)
    rows = []
    # The product's own Pipeline (still mode, default Tasks backend, hands on): the same reading as
    # `aluette recognize`, and whether a hand hid the mouth (the pipeline then mutes the mouth signs).
    with Pipeline(PipelineOptions(static_image_mode=True, shrug=False)) as pipe:
        for item, image in labelled_stills(gestures):
            pipe.reset()
            frame = pipe.process(Frame(image, 0.0)).scores
            row = {"file": item.file, "label": item.label, "person": who.get(item.file, item.file),
                   "truth": {g.value: item.truth(g) for g in FACE_SIGNS}}
            reading = frame.face
            if frame.face_found and frame.blendshapes and reading is not None:
                row["mouth_hidden"] = frame.mouth_hidden
                row["blendshapes"] = {k: round(v, 5) for k, v in reading.blendshapes.items() if not k.startswith("_")}
                row["geometry"] = {k: round(v, 5) for k, v in reading.geometry.items()}
                row["appearance"] = {k: round(v, 5) for k, v in reading.appearance.items()}
            rows.append(row)
    return rows


def relabel(gestures: Path) -> list[dict]:
    """The recorded rows with their truth (and person) read again from the labels: no MediaPipe run."""
    labels = {item.file: item for item in read_labels(gestures)}
    who = persons(gestures)
    rows = json.loads(OUT.read_text(encoding="utf-8"))["rows"]
    missing = [r["file"] for r in rows if r["file"] not in labels]
    if missing:
        raise SystemExit(f"{len(missing)} recorded stills are no longer labelled (first: {missing[0]}): "
                         "rerun without --labels-only")
    for row in rows:
        row["person"] = who.get(row["file"], row["file"])
        row["truth"] = {g.value: labels[row["file"]].truth(g) for g in FACE_SIGNS}
    return rows


def main(argv: list[str] | None = None) -> int:
    import argparse  # noqa: PLC0415

    parser = argparse.ArgumentParser(
        prog="python -m trainer.lab.record_face_signs", description=__doc__.split("\n\n")[0])
    parser.add_argument("gestures", nargs="?", type=Path, default=REPO.parent / "shared" / "gestures")
    parser.add_argument("--labels-only", action="store_true", help="refresh the labels, keep the readings")
    args = parser.parse_args(argv)
    rows = relabel(args.gestures) if args.labels_only else record(args.gestures)
    header = {
        "about": "What the product's Pipeline (still mode, Tasks FaceLandmarker models/face_landmarker.task) "
                 "reads on every still of ../shared/gestures: blendshapes, trainer.vision.face_features "
                 "geometry, mouth appearance, and whether a hand hid the mouth; "
                 "../shared/gestures; 'file' names the source (never copied here). "
                 "Written by python -m trainer.lab.record_face_signs.",
        "created": dt.date.today().isoformat(),
    }
    body = ",\n".join(json.dumps(r, separators=(",", ":")) for r in rows)
    OUT.write_text(json.dumps(header, indent=1)[:-2] + ',\n "rows": [\n' + body + "\n]}\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(rows)} stills, {sum('blendshapes' in r for r in rows)} with a face)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
