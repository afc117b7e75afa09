"""The recognizer's own figures per gesture, for the arena's measured camera (``--channel camera``).

Reads what ``aluette eval-vision DIR --json --out PHOTOS.json`` wrote and keeps, per gesture:

- ``recall``: held out by person on the labelled photos (the figure for a face the recognizer never
  saw); the in-sample figure where the gesture has no held-out one (hand signs: hand-written rules,
  nothing fitted), marked so in ``recall_from``;
- ``false_durations_s``: how long each event of that gesture lasted on the talking and neutral
  clips (people talking, laughing, sitting still: no sign made), so the arena can count false reads
  a minute, all of them or those held as long as the app asks (``CAMERA_MIN_HOLD_S``);
- ``precision`` (photos, held out where there is one), for reference: what the app's partner is told.

    python -m trainer.lab.camera_figures eval_vision.json --photos eval_photos.json \\
        --out trainer/bots/camera_figures.json

``eval_vision.json`` is ``--json``'s output (its ``clips`` key is the annotated clips' report);
``--photos`` is ``--out``'s file, whose ``clips`` list holds the talking and neutral clips' events.
A file holding both (an older ``--json`` or ``--out`` alone) serves as either.

Imports the standard library and trainer.signals.gestures; run on purpose, never imported by the app.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from trainer.signals.gestures import Gesture


def _per_gesture(rows: list[dict]) -> dict[str, dict]:
    return {r["gesture"]: r for r in rows if isinstance(r, dict) and "gesture" in r}


def figures(report: dict, photos: dict | None = None, *, source: str = "") -> dict:
    """The figures file's content from eval-vision's JSON (``photos``: the ``--out`` report with the
    talking clips, when ``report``'s ``clips`` is the annotated clips' report)."""
    photos = photos if photos is not None else report
    talking = photos.get("clips")
    if not isinstance(talking, list):
        raise ValueError("no talking/neutral clip list: pass the --out file of aluette eval-vision as --photos")
    held = _per_gesture(report.get("held_out", []) or photos.get("held_out", []))
    sample = _per_gesture(report.get("gestures", []) or photos.get("gestures", []))
    seconds = sum(float(c["seconds"]) for c in talking)
    durations: dict[str, list[float]] = {}
    for clip in talking:
        for e in clip.get("events", []):
            durations.setdefault(e["gesture"], []).append(round(float(e["end"]) - float(e["start"]), 2))
    out: dict[str, dict] = {}
    for g in Gesture:
        h, s = held.get(g.value), sample.get(g.value)
        recall, frm = None, None
        # A held-out figure from one person only is no figure for a new face (lip_bite's 0/0).
        if h is not None and h.get("support", 0) > 0 and h.get("people", 2) >= 2:
            recall, frm = h["recall"], "held out by person"
        elif s is not None and s.get("support", 0) > 0:
            recall, frm = s["recall"], "in-sample"
        precision = (h or s or {}).get("precision")
        if recall is None and g.value not in durations:
            continue
        out[g.value] = {
            "recall": recall, "recall_from": frm, "support": (h or s or {}).get("support"),
            "precision_photos": precision,
            "false_events": len(durations.get(g.value, [])),
            "false_per_min": round(60.0 * len(durations.get(g.value, [])) / seconds, 3) if seconds else 0.0,
            "false_durations_s": sorted(durations.get(g.value, [])),
        }
    annotated = report.get("clips") if isinstance(report.get("clips"), dict) else None
    return {
        "source": source or "aluette eval-vision ../shared/gestures --json",
        "talking_clips": len(talking),
        "talking_minutes": round(seconds / 60.0, 3),
        "false_per_min_total": round(60.0 * sum(len(v) for v in durations.values()) / seconds, 3) if seconds else 0.0,
        "annotated_clips": None
        if annotated is None
        else {
            k: annotated.get(k)
            for k in ("minutes", "signs", "reported", "event_recall", "false_per_minute", "by_gesture")
        },
        "gestures": out,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m trainer.lab.camera_figures", description=__doc__.split("\n")[0])
    p.add_argument("report", type=Path, help="aluette eval-vision --json output")
    p.add_argument("--photos", type=Path, help="aluette eval-vision --out file (the talking clips' events)")
    p.add_argument("--source", default="", help="where the figures come from (date, commit, command)")
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args(argv)
    try:
        report = json.loads(args.report.read_text(encoding="utf-8"))
        photos = json.loads(args.photos.read_text(encoding="utf-8")) if args.photos else None
        data = figures(report, photos, source=args.source)
    except (OSError, ValueError, KeyError) as error:
        print(f"camera_figures: {error}", file=sys.stderr)
        return 2
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"{len(data['gestures'])} gestures, {data['talking_minutes']} min of talking clips, "
          f"{data['false_per_min_total']} false reads a minute -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
