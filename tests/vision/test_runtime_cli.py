"""The ``aluette recognize`` / ``eval-vision`` / ``bench vision`` command lines, run as a user would
(subprocess), checking the exact JSON contract of issue 3."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
GESTURE_NAMES = {
    "brows_up", "look_up", "lip_corner", "head_tilt", "wink", "eyes_closed", "pout", "mouth_open",
    "tongue_out", "lip_bite", "shrug", "grimace", "thumb", "pinky", "index", "index_middle", "ring",
    "writing",
}


def aluette(*args: str, timeout: float = 240.0) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.run(
        [sys.executable, "-m", "trainer.cli", *args],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout,
    )


@pytest.fixture(scope="module")
def short_clip(clip_head) -> Path:
    """The first 45 frames (1.5 s) of a real face clip, as .y4m (what the browser's fake camera plays)."""
    return clip_head("sequence/lp_d18.mp4", 45, 30.0, size=(256, 256), name="lp_d18_start.y4m")


@pytest.fixture(scope="module")
def bad_files(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("bad")
    files = {
        "text": folder / "notes.jpg",
        "empty": folder / "empty.png",
        "tiny": folder / "tiny.png",
        "missing": folder / "missing.jpg",
    }
    files["text"].write_text("this is not a picture")
    files["empty"].write_bytes(b"")
    cv2.imwrite(str(files["tiny"]), np.zeros((1, 1, 3), np.uint8))
    return files


def test_recognize_json_contract(gestures_dir: Path, short_clip: Path, bad_files):
    thumb = gestures_dir / "thumb" / "mps_hand_thumb_up.jpg"
    wink = gestures_dir / "wink" / "yale_s01_wink_left.jpg"
    paths = [thumb, bad_files["text"], short_clip, bad_files["empty"], wink, bad_files["tiny"], bad_files["missing"]]
    run = aluette("recognize", *map(str, paths), "--json")
    assert run.returncode == 1, run.stderr[-2000:]
    lines = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
    assert [obj["path"] for obj in lines] == [str(p) for p in paths]

    still = lines[0]
    assert set(still) == {"path", "face", "hands", "gestures", "scores"}
    assert still["face"] is False and still["hands"] == 1 and still["gestures"] == ["thumb"]
    assert set(still["scores"]) == GESTURE_NAMES
    assert all(0.0 <= v <= 1.0 for v in still["scores"].values())
    assert lines[4]["face"] is True and "wink" in lines[4]["gestures"]

    clip = lines[2]
    assert set(clip) == {"path", "frames", "events"} and clip["frames"] == 45
    for event in clip["events"]:
        assert {"gesture", "start", "end", "count", "confidence"} <= set(event)
        assert event["gesture"] in GESTURE_NAMES and 0 <= event["start"] <= event["end"] <= 1.5

    for index, word in ((1, "not an image this trainer reads"), (3, "empty"), (5, "too small"), (6, "no such file")):
        assert set(lines[index]) == {"path", "error"}
        assert word in lines[index]["error"]
        assert str(paths[index]) in run.stderr


def test_recognize_readable_summary_and_annotate(gestures_dir: Path, short_clip: Path, tmp_path: Path):
    photo = gestures_dir / "index_middle" / "hagrid_peace.png"
    out = tmp_path / "annotated"
    run = aluette("recognize", str(photo), str(short_clip), "--annotate", str(out))
    assert run.returncode == 0, run.stderr[-2000:]
    assert "index_middle" in run.stdout and "frames" in run.stdout
    assert "note:" not in run.stdout  # the clip opens on a face at rest
    image = cv2.imread(str(out / "hagrid_peace_annotated.png"))
    original = cv2.imread(str(photo))
    assert image is not None and image.shape == original.shape and not np.array_equal(image, original)
    video = cv2.VideoCapture(str(out / "lp_d18_start_annotated.mp4"))
    assert int(video.get(cv2.CAP_PROP_FRAME_COUNT)) == 45
    video.release()


def test_recognize_says_when_a_clip_begins_on_a_sign(clip_head):
    """tongue_out/tongue_res2_webcam.mp4 shows the tongue from its first frame (clip_spans.tsv: 0.00-2.20 s).
    A sign is read from its absence (``RecognizerConfig.onset_parts``), so its first 2.5 s give no event;
    the summary says why and what to do, and the JSON keeps its keys."""
    clip = clip_head("tongue_out/tongue_res2_webcam.mp4", 60, 24.0)
    run = aluette("recognize", str(clip))
    assert run.returncode == 0, run.stderr[-2000:]
    assert "0 events" in run.stdout
    (note,) = [x for x in run.stdout.splitlines() if x.strip().startswith("note:")]
    assert "tongue_out" in note and "already showing on the first frame" in note, note
    (line,) = [json.loads(x) for x in aluette("recognize", str(clip), "--json").stdout.splitlines() if x.strip()]
    assert set(line) == {"path", "frames", "events"} and line["events"] == []


def test_recognize_only_bad_input_fails_cleanly(bad_files):
    run = aluette("recognize", str(bad_files["text"]))
    assert run.returncode == 1
    assert "Traceback" not in run.stderr and "not an image this trainer reads" in run.stderr


def test_bench_vision_json(short_clip: Path):
    run = aluette("bench", "vision", str(short_clip), "--json", "--frames", "30", "--size", "160x120")
    assert run.returncode == 0, run.stderr[-2000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert set(result) == {"frames", "size", "pipeline_fps", "mediapipe_fps"}
    assert result["frames"] == 30 and result["size"] == [160, 120]
    assert result["pipeline_fps"] > 0 and result["mediapipe_fps"] > 0
    # Issue 11 item 5: no MediaPipe warning per landmark ("New timestamp is equal or less than the last
    # one": the warm-up fed the Tasks graph negative timestamps).
    assert "equal or less" not in run.stderr, run.stderr[-500:]


def test_eval_vision_on_a_small_labelled_folder(tmp_path: Path, gestures_dir: Path):
    for label, name in (("thumb", "mps_hand_thumb_up.jpg"), ("pinky", "hagrid_pinkie.png"),
                        ("open_palm", "hagrid_palm.png")):
        (tmp_path / label).mkdir()
        (tmp_path / label / name).symlink_to(gestures_dir / label / name)
    run = aluette("eval-vision", str(tmp_path), "--json", "--no-clips")
    assert run.returncode == 0, run.stderr[-2000:]
    report = json.loads(run.stdout)
    by_name = {g["gesture"]: g for g in report["gestures"]}
    assert by_name["thumb"]["recall"] == 1.0 and by_name["pinky"]["recall"] == 1.0


def test_cli_module_imports_nothing_heavy():
    code = (
        "import sys, trainer.cli; trainer.cli.build_parser(); "
        "print([m for m in ('numpy', 'cv2', 'mediapipe') if m in sys.modules])"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert run.stdout.strip() == "[]", run.stdout + run.stderr
