"""Record MediaPipe hand landmarks of the real hand photos in ../shared/gestures into
samples/hand_landmarks.json, so fast tests replay them without MediaPipe.

Only numbers computed by our own tracker are stored, each with the source file it came from; the
photos themselves are never copied. Rerun: ``.venv/bin/python scripts/record_hand_samples.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from trainer.vision.landmarks import Tracker, TrackerOptions  # noqa: E402
from trainer.vision.sources import IMAGE_SUFFIXES, read_image  # noqa: E402
from trainer.vision.types import Frame  # noqa: E402

HAND_FOLDERS = ("thumb", "pinky", "index", "index_middle", "ring", "open_palm", "fist", "other")


def main() -> int:
    gestures = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO.parent / "shared" / "gestures"
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
        "computed by scripts/record_hand_samples.py from ../shared/gestures (source file named per row)",
        "records": records,
    }
    out.write_text(json.dumps(payload, separators=(",", ":")) + "\n")
    print(f"wrote {len(records)} records to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
