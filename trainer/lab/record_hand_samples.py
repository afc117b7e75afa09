"""Record MediaPipe hand landmarks of the real hand photos in ../shared/gestures into
samples/hand_landmarks.json, so fast tests replay them without MediaPipe.

Only numbers computed by our own tracker are stored, each with the source file it came from; the
photos themselves are never copied. Rerun: ``.venv/bin/python -m trainer.lab.record_hand_samples``.
"""

from __future__ import annotations

import json
from pathlib import Path

from trainer.vision.landmarks import Tracker, TrackerOptions
from trainer.vision.sources import IMAGE_SUFFIXES, read_image
from trainer.vision.types import Frame

REPO = Path(__file__).resolve().parents[2]

HAND_FOLDERS = ("thumb", "pinky", "index", "index_middle", "ring", "open_palm", "fist", "other")


def main(argv: list[str] | None = None) -> int:
    import argparse  # noqa: PLC0415

    parser = argparse.ArgumentParser(
        prog="python -m trainer.lab.record_hand_samples", description=__doc__.split("\n\n")[0])
    parser.add_argument("gestures", nargs="?", type=Path, default=REPO.parent / "shared" / "gestures")
    gestures = parser.parse_args(argv).gestures
    records = []
    with Tracker(TrackerOptions(face=False, hands=True, static_image_mode=True)) as tracker:
        for folder in HAND_FOLDERS:
            directory = gestures / folder
            if not directory.is_dir():
                continue
            for path in sorted(directory.iterdir()):
                if path.suffix.lower() not in IMAGE_SUFFIXES:
                    continue
                image = read_image(path)
                marks = tracker.process(Frame(image=image, timestamp=0.0))
                records.append(
                    {
                        "file": f"{folder}/{path.name}",
                        "label": folder,
                        "size": [marks.width, marks.height],
                        "hands": [
                            {
                                "side": hand.side.value,
                                "score": round(hand.score, 4),
                                "points": [[round(float(v), 2) for v in p] for p in hand.points],
                            }
                            for hand in marks.hands
                        ],
                    }
                )
    out = REPO / "samples" / "hand_landmarks.json"
    payload = {
        "about": "MediaPipe 0.10.21 Hands (static mode) landmarks in pixels, subject-side handedness, "
        "computed by python -m trainer.lab.record_hand_samples from ../shared/gestures (source file named per row)",
        "records": records,
    }
    out.write_text(json.dumps(payload, separators=(",", ":")) + "\n")
    print(f"wrote {len(records)} records to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
