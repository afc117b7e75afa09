"""Measure the single-photo shrug (no baseline) of trainer/vision/body.py on ../shared/gestures.

Prints, for every still Pose finds a body in: how many shrug / non-shrug photos fire with and without
the upper-body check (``check_upper_body``), why the others are refused, and a leave-one-exercise-out
estimate of the population threshold: for each of the 6 gym exercises (2 shrugged + 2 relaxed photos:
the full photo and its upper-body crop), the threshold that best separates the other 5 exercises'
pairs, applied to the held-out one and to the non-gym photos that pass the check.

Nothing is written; the numbers are quoted in body.py and docs/vision-runtime.md. The check's own
limits (min_neck, head_span, arm_raise) were read off these same photos: say so when quoting them.
Rerun: ``/work/venv/bin/python scripts/shrug_single_photo.py [GESTURES_DIR]`` (about 20 s).
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from trainer.vision.body import BodyConfig, UpperBody, check_upper_body, score_shrug, shoulder_features  # noqa: E402
from trainer.vision.landmarks import Tracker, TrackerOptions  # noqa: E402
from trainer.vision.sources import IMAGE_SUFFIXES, read_image  # noqa: E402
from trainer.vision.types import Frame, VisionError  # noqa: E402

SKIP = {"sequence"}


def measure(gestures: Path) -> dict[str, dict[str, float]]:
    out = {}
    with Tracker(TrackerOptions(face=False, hands=False, pose=True, static_image_mode=True)) as tracker:
        for folder in sorted(p for p in gestures.iterdir() if p.is_dir() and p.name not in SKIP):
            for path in sorted(folder.iterdir()):
                if path.suffix.lower() not in IMAGE_SUFFIXES:
                    continue
                try:
                    image = read_image(path)
                except VisionError:
                    continue
                features = shoulder_features(tracker.process(Frame(image, 0.0)).pose)
                if features:
                    out[f"{folder.name}/{path.name}"] = features
    return out


def fires(features: dict[str, float], checked: bool, config: BodyConfig) -> bool:
    if checked:
        return score_shrug(features, None, config)[0] >= 0.5
    # What the detector did before the check: the population ramp alone.
    return features["shoulder_drop"] <= config.population_drop


def exercise(name: str) -> str:
    return re.sub(r"_[01]_(up|down).*", "", name.split("/")[1])


def best_threshold(rows: list[tuple[float, bool]]) -> float:
    values = sorted({v for v, _ in rows})
    candidates = [(a + b) / 2 for a, b in zip(values, values[1:])]
    score = {t: sum((v <= t) == shrug for v, shrug in rows) for t in candidates}
    best = max(score.values())
    tied = [t for t, s in score.items() if s == best]
    return (min(tied) + max(tied)) / 2


def main() -> int:
    gestures = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO.parent / "shared" / "gestures"
    data = measure(gestures)
    config = BodyConfig()
    shrugs = [k for k in data if k.startswith("shrug/")]
    others = [k for k in data if not k.startswith("shrug/")]
    print(f"{len(data)} stills with a pose ({len(shrugs)} shrugs)")
    for checked in (False, True):
        tp = sum(fires(data[k], checked, config) for k in shrugs)
        fp = [k for k in others if fires(data[k], checked, config)]
        label = "with the upper-body check" if checked else "without the check (before)"
        print(f"  {label:28s} shrug TP {tp}/{len(shrugs)}, false {len(fp)}: {', '.join(fp)}")
    reasons = Counter(check_upper_body(data[k], config).value for k in others)
    print("  non-shrug photos by check result:", dict(reasons))
    print("  shrug photos refused:", [k for k in shrugs if check_upper_body(data[k], config) is not UpperBody.OK])

    gym = [k for k in data if k.startswith(("shrug/", "shrug_baseline/"))]
    passing = [k for k in others if not k.startswith("shrug_baseline/") and check_upper_body(data[k]) is UpperBody.OK]
    print("  non-gym photos that pass the check:", ", ".join(passing))
    print("leave one exercise out (threshold on mean shoulder_drop, chosen on the other 5 exercises):")
    held = Counter()
    for name in sorted({exercise(k) for k in gym}):
        train = [(data[k]["shoulder_drop"], k.startswith("shrug/")) for k in gym if exercise(k) != name]
        t = best_threshold(train)
        tuned = replace(config, population_drop=t)
        test = [k for k in gym if exercise(k) == name]
        hits = {k.split("/")[1]: fires(data[k], True, tuned) for k in test}
        held["tp"] += sum(hits[k.split("/")[1]] for k in test if k.startswith("shrug/"))
        held["fp"] += sum(hits[k.split("/")[1]] for k in test if not k.startswith("shrug/"))
        others_fp = sum(fires(data[k], True, tuned) for k in passing)
        print(f"  {name:36s} t={t:.3f}  held-out fired: {hits}  non-gym passing the check that fire: "
              f"{others_fp}/{len(passing)}")
    print(f"  held out in total: {held['tp']}/{len(shrugs)} shrugs, {held['fp']}/{len(gym) - len(shrugs)} relaxed fire")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
