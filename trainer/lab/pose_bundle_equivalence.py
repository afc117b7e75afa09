"""Does models/pose_landmarker.task under mediapipe 1.2.x see what the solutions Pose of 0.10.21 saw?

Three steps, two Pythons (the two mediapipe versions cannot share one environment):

    OLD=/work/venv-old/bin/python  NEW=/work/venv-mp12/bin/python
    $OLD -m trainer.lab.pose_bundle_equivalence solutions /tmp/old.json [GESTURES_DIR]
    $NEW -m trainer.lab.pose_bundle_equivalence tasks /tmp/new.json [GESTURES_DIR]
    $NEW -m trainer.lab.pose_bundle_equivalence compare /tmp/old.json /tmp/new.json
    $NEW -m trainer.lab.pose_bundle_equivalence samples /tmp/old.json

``solutions`` runs ``mp.solutions.pose.Pose`` as trainer/vision/landmarks.py does on stills
(static_image_mode, model_complexity=1, no smoothing, no segmentation, detection confidence 0.5);
``tasks`` runs ``PoseLandmarker`` in IMAGE mode on the bundle with the same thresholds. Each then times
60 bare video-mode calls on one 640x480 frame (on a shared machine: say its load when quoting).
Both record the 33 points in pixels (x, y, z * width, visibility) for every photo of shrug/,
shrug_baseline/ and neutral/. ``compare`` prints per photo the
mean and max pixel distance of the 33 points and of the points the shrug reads, and whether
trainer/vision/body.py decides the same: the single-photo decision (no baseline: score >= 0.5 and the
upper-body check) and, for each shrugged photo, the decision against its own relaxed photo as baseline.
``samples`` keeps the 0.10.21 points of the shrug/ and shrug_baseline/ photos in
samples/pose_solutions_shrug.json, which tests/vision/test_model_bundles.py compares the bundle with.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[2]

FOLDERS = ("shrug", "shrug_baseline", "neutral")
KEY_POINTS = {"nose": 0, "left_ear": 7, "right_ear": 8, "left_shoulder": 11, "right_shoulder": 12,
              "left_wrist": 15, "right_wrist": 16}
TIMED_FRAMES = 60


def photos(gestures: Path) -> list[Path]:
    return [p for folder in FOLDERS for p in sorted((gestures / folder).glob("*")) if p.suffix.lower() in
            {".jpg", ".jpeg", ".png"}]


def rgb_of(path: Path) -> np.ndarray:
    import cv2

    from trainer.vision.sources import read_image  # BGR, grey and RGBA already made 3-channel

    return cv2.cvtColor(read_image(path), cv2.COLOR_BGR2RGB)


def run_solutions(gestures: Path) -> dict[str, list | None]:
    import mediapipe as mp

    out: dict[str, list | None] = {}
    with mp.solutions.pose.Pose(static_image_mode=True, model_complexity=1, smooth_landmarks=False,
                                enable_segmentation=False, min_detection_confidence=0.5,
                                min_tracking_confidence=0.5) as pose:
        for path in photos(gestures):
            rgb = rgb_of(path)
            h, w = rgb.shape[:2]
            result = pose.process(rgb)
            out[str(path.relative_to(gestures))] = None if not result.pose_landmarks else [
                [p.x * w, p.y * h, p.z * w, p.visibility] for p in result.pose_landmarks.landmark]
    return out


def tasks_options(model: Path, video: bool):
    from mediapipe.tasks.python import BaseOptions, vision

    return vision.PoseLandmarkerOptions(
        base_options=BaseOptions(model_asset_path=str(model)),
        running_mode=vision.RunningMode.VIDEO if video else vision.RunningMode.IMAGE,
        num_poses=1, min_pose_detection_confidence=0.5, min_pose_presence_confidence=0.5,
        min_tracking_confidence=0.5, output_segmentation_masks=False)


def run_tasks(gestures: Path, model: Path) -> dict[str, list | None]:
    import mediapipe as mp
    from mediapipe.tasks.python import vision

    out: dict[str, list | None] = {}
    with vision.PoseLandmarker.create_from_options(tasks_options(model, video=False)) as landmarker:
        for path in photos(gestures):
            rgb = np.ascontiguousarray(rgb_of(path))
            h, w = rgb.shape[:2]
            result = landmarker.detect(mp.Image(image_format=mp.ImageFormat.SRGB, data=rgb))
            out[str(path.relative_to(gestures))] = None if not result.pose_landmarks else [
                [p.x * w, p.y * h, p.z * w, p.visibility] for p in result.pose_landmarks[0]]
    return out


def test_frame(gestures: Path) -> np.ndarray:
    """One 640x480 RGB frame with a person: a shrug photo letterboxed to 4:3."""
    import cv2

    rgb = rgb_of(gestures / "shrug" / "fedb_dumbbell_shrug_1_up_upperbody_crop3x.jpg")
    h, w = rgb.shape[:2]
    scale = min(640 / w, 480 / h)
    small = cv2.resize(rgb, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    frame = np.zeros((480, 640, 3), np.uint8)
    y, x = (480 - small.shape[0]) // 2, (640 - small.shape[1]) // 2
    frame[y:y + small.shape[0], x:x + small.shape[1]] = small
    return frame


def report_times(label: str, times: list[float], found: bool) -> None:
    ms = np.array(times) * 1000
    print(f"{label}, 640x480, {TIMED_FRAMES} calls after one warm-up (pose found: {found}): "
          f"median {np.median(ms):.1f} ms, p90 {np.percentile(ms, 90):.1f} ms, min {ms.min():.1f} ms")


def time_tasks_video(gestures: Path, model: Path) -> None:
    """Bare ``detect_for_video`` calls, the same frame each time (tracking: landmarks only)."""
    import mediapipe as mp
    from mediapipe.tasks.python import vision

    image = mp.Image(image_format=mp.ImageFormat.SRGB, data=test_frame(gestures))
    with vision.PoseLandmarker.create_from_options(tasks_options(model, video=True)) as landmarker:
        found = bool(landmarker.detect_for_video(image, 0).pose_landmarks)  # detector + landmarks
        times = []
        for i in range(1, TIMED_FRAMES + 1):
            start = time.perf_counter()
            landmarker.detect_for_video(image, i * 33)
            times.append(time.perf_counter() - start)
    report_times("Tasks PoseLandmarker VIDEO mode", times, found)


def time_solutions_video(gestures: Path) -> None:
    """The same for the solutions Pose in video mode (static_image_mode=False), for comparison."""
    import mediapipe as mp

    frame = test_frame(gestures)
    with mp.solutions.pose.Pose(static_image_mode=False, model_complexity=1, smooth_landmarks=True,
                                enable_segmentation=False) as pose:
        found = bool(pose.process(frame).pose_landmarks)
        times = []
        for _ in range(TIMED_FRAMES):
            start = time.perf_counter()
            pose.process(frame)
            times.append(time.perf_counter() - start)
    report_times("solutions Pose video mode", times, found)


def decisions(points: list | None) -> tuple[float, str, dict[str, float]]:
    from trainer.vision.body import check_upper_body, score_shrug, shoulder_features

    features = shoulder_features(None if points is None else np.array(points))
    score, _ = score_shrug(features)
    return score, check_upper_body(features).value, features


def compare(old: dict[str, list | None], new: dict[str, list | None]) -> None:

    print(f"{'photo':64} {'mean':>5} {'max':>6} {'vismax':>6} {'keyvis':>6}  old score/check  new score/check"
          "  shrug same, check same, shoulder_drop old/new")
    means, maxes, visible_maxes, key_maxes = [], [], [], []
    same_shrug = same_check = both = 0
    for name in old:
        a, b = old[name], new.get(name)
        sa, ca, fa = decisions(a)
        sb, cb, fb = decisions(b)
        same_shrug += (sa >= 0.5) == (sb >= 0.5)
        same_check += ca == cb
        row = f"{sa:.2f} {ca:11} {sb:.2f} {cb:11}  {(sa >= 0.5) == (sb >= 0.5)!s:5} {ca == cb!s:5}"
        if a is None or b is None:
            print(
                f"{name:64} {'-':>5} {'-':>6} {'-':>6} {'-':>6}  {row}  pose: old {a is not None}, new {b is not None}"
            )
            continue
        both += 1
        pa, pb = np.array(a), np.array(b)
        d = np.linalg.norm(pa[:, :2] - pb[:, :2], axis=1)
        seen = (pa[:, 3] >= 0.5) & (pb[:, 3] >= 0.5)  # body.py reads only points at least this visible
        key = np.zeros(33, bool)
        key[list(KEY_POINTS.values())] = True
        means.append(d.mean())
        maxes.append(d.max())
        visible_maxes.append(d[seen].max() if seen.any() else 0.0)
        key_maxes.append(d[seen & key].max() if (seen & key).any() else 0.0)
        drops = f"{fa.get('shoulder_drop', float('nan')):.3f}/{fb.get('shoulder_drop', float('nan')):.3f}"
        print(f"{name:64} {d.mean():5.2f} {d.max():6.2f} {visible_maxes[-1]:6.2f} {key_maxes[-1]:6.2f}  {row}  {drops}")
    print(f"\n{len(old)} photos, a pose from both on {both}; single-photo shrug decision (score >= 0.5) the same "
          f"on {same_shrug}/{len(old)}, upper-body check the same on {same_check}/{len(old)}")
    if means:
        print(f"33 points: mean distance {np.mean(means):.2f} px (per-photo means up to {np.max(means):.2f} px), "
              f"largest {np.max(maxes):.2f} px; largest among points visible (>= 0.5) in both "
              f"{np.max(visible_maxes):.2f} px")
        print(f"nose, ears, shoulders, wrists visible in both: largest distance {np.max(key_maxes):.2f} px, "
              f"median of the per-photo largest {np.median(key_maxes):.2f} px")
    _compare_with_baselines(old, new)


SAMPLES = REPO / "samples" / "pose_solutions_shrug.json"


def _compare_with_baselines(old: dict[str, list | None], new: dict[str, list | None]) -> None:
    """Each shrugged photo's decision against its own relaxed photo as baseline, old and new."""
    from trainer.vision.body import score_shrug

    pairs = same_pairs = 0
    for name in old:
        if not name.startswith("shrug/"):
            continue
        base = name.replace("shrug/", "shrug_baseline/").replace("_1_up", "_0_down")
        rows: list[tuple[float, Any]] = []
        for run in (old, new):
            _, _, f_now = decisions(run.get(name))
            _, _, f_base = decisions(run.get(base))
            if not f_now or not f_base:
                rows.append((0.0, None))
                continue
            rows.append(score_shrug(f_now, (f_base["shoulder_drop_left"], f_base["shoulder_drop_right"])))
        pairs += 1
        same = (rows[0][0] >= 0.5) == (rows[1][0] >= 0.5) and rows[0][1] == rows[1][1]
        same_pairs += same
        print(
            f"  against its relaxed photo: {name:66} old {rows[0][0]:.2f} {rows[0][1]!s:10} "
            f"new {rows[1][0]:.2f} {rows[1][1]!s:10} same {same}"
        )
    print(f"decisions against the relaxed photo (score >= 0.5 and side) the same on {same_pairs}/{pairs} "
          "shrugged photos")


def write_samples(old: dict[str, list | None]) -> None:
    points = {name: None if value is None else [[round(v, 2 if i < 3 else 4) for i, v in enumerate(p)] for p in value]
              for name, value in old.items() if name.startswith(("shrug/", "shrug_baseline/"))}
    head = {
        "about": "33 pose points (x px, y px, z * width px, visibility) that mediapipe 0.10.21's solutions Pose "
                 "(static_image_mode, model_complexity=1, no smoothing) finds on these photos of ../shared/gestures",
        "created": "python -m trainer.lab.pose_bundle_equivalence solutions, then samples",
    }
    lines = [f" {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()]
    rows = [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in points.items()]  # one photo a line
    SAMPLES.write_text("{\n" + "\n".join(lines) + '\n "points": {\n' + ",\n".join(rows) + "\n }\n}\n")
    print(f"{SAMPLES}: {len(points)} photos")


def main(argv: list[str] | None = None) -> int:
    import argparse  # noqa: PLC0415

    parser = argparse.ArgumentParser(prog="python -m trainer.lab.pose_bundle_equivalence", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("step", choices=("solutions", "tasks", "compare", "samples"))
    parser.add_argument("files", nargs="+", help="the step's JSON file(s), then an optional GESTURES_DIR")
    args = parser.parse_args(argv)
    argv = [args.step, *args.files]
    if argv[0] == "samples":
        write_samples(json.loads(Path(argv[1]).read_text()))
        return 0
    if argv[0] == "compare":
        compare(json.loads(Path(argv[1]).read_text()), json.loads(Path(argv[2]).read_text()))
        return 0
    gestures = Path(argv[2]) if len(argv) > 2 else REPO.parent / "shared" / "gestures"
    model = REPO / "models" / "pose_landmarker.task"
    result = run_solutions(gestures) if argv[0] == "solutions" else run_tasks(gestures, model)
    Path(argv[1]).write_text(json.dumps(result))
    print(f"{argv[1]}: {sum(v is not None for v in result.values())} of {len(result)} photos with a pose")
    if argv[0] == "tasks":
        time_tasks_video(gestures, model)
    else:
        time_solutions_video(gestures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
