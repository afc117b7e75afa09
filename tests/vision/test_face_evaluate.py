"""Labels from folder names and MANIFEST notes, the scoring of a labelled folder, and the report."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from trainer.lab.evaluate import EvalReport, GestureStats, evaluate_folder, score_stills
from trainer.lab.labels import label_file, read_labels
from trainer.signals.gestures import Gesture, Side
from trainer.vision.types import VisionError

REPO = Path(__file__).resolve().parents[2]


def test_notes_add_second_gestures_and_dont_cares():
    surprised = label_file(
        "brows_up/yale_s01_surprised.jpg", "brows_up",
        "Yale 'surprised': brows raised + mouth open (also counts as mouth_open); grayscale",
    )
    assert surprised.positives == {Gesture.BROWS_UP, Gesture.MOUTH_OPEN}
    assert surprised.truth(Gesture.WINK) is False
    wink = label_file("wink/x.jpg", "wink", "subject RIGHT eye closed (image left), slight smirk")
    assert wink.side is Side.RIGHT and wink.truth(Gesture.LIP_CORNER) is None
    tongue = label_file("tongue_out/t.jpg", "tongue_out", "tongue out, eyes wide")
    assert tongue.truth(Gesture.TONGUE_OUT) is True and tongue.truth(Gesture.MOUTH_OPEN) is None
    look = label_file("look_up/l.jpg", "look_up", "eyes up, mouth open")
    assert look.truth(Gesture.MOUTH_OPEN) is None and look.truth(Gesture.LOOK_UP) is True
    neutral = label_file("neutral/n.jpg", "neutral", "")
    assert not neutral.positives and all(neutral.truth(g) is False for g in Gesture)


def test_real_manifest_labels(gestures_dir):
    items = {item.file: item for item in read_labels(gestures_dir)}
    assert items["grimace/lp_d3_f0018_grimace_wink.jpg"].positives == {Gesture.GRIMACE, Gesture.WINK}
    assert items["head_tilt/tongue_res1_f0216_tilt_tongue.jpg"].truth(Gesture.TONGUE_OUT) is True
    assert items["wink/lp_d3_f0036_wink_right.jpg"].side is Side.RIGHT
    assert items["talking/grid_bbaf2n_talking.mpg"].is_video
    # Every MANIFEST row is read, under its folder's label (the set grows: count it, do not pin it).
    with (gestures_dir / "MANIFEST.tsv").open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    winks = sum(row["label"] == "wink" for row in rows)
    assert winks >= 18 and sum(item.label == "wink" for item in items.values()) == winks
    assert {row["file"] for row in rows} >= set(items)


def test_folder_errors(tmp_path):
    with pytest.raises(VisionError, match="does not exist"):
        read_labels(tmp_path / "nowhere")
    (tmp_path / "loose.jpg").write_bytes(b"")
    with pytest.raises(VisionError, match="no labelled image"):
        read_labels(tmp_path)


def test_score_stills_counts_and_confusion():
    a = label_file("wink/a.jpg", "wink", "subject LEFT eye closed")
    b = label_file("neutral/b.jpg", "neutral")
    c = label_file("brows_up/c.jpg", "brows_up", "brows up (also counts as mouth_open)")
    rows = [
        (a, {Gesture.WINK: 0.9}, True, 0),
        (b, {Gesture.WINK: 0.6}, True, 0),
        (c, {Gesture.BROWS_UP: 0.7, Gesture.MOUTH_OPEN: 0.2}, True, 0),
    ]
    stats, confusion, mistakes = score_stills(rows)
    by = {s.gesture: s for s in stats}
    assert (by[Gesture.WINK].tp, by[Gesture.WINK].fp, by[Gesture.WINK].fn) == (1, 1, 0)
    assert by[Gesture.MOUTH_OPEN].recall == 0.0 and by[Gesture.BROWS_UP].f1 == 1.0
    assert confusion["neutral"] == {"_stills": 1, "wink": 1}
    assert ("brows_up/c.jpg", "mouth_open", "missed") in mistakes and ("neutral/b.jpg", "wink", "false") in mistakes


def test_report_table_and_json():
    stats = (GestureStats(Gesture.WINK, 9, 1, 1), GestureStats(Gesture.POUT, 1, 3, 5))
    report = EvalReport("dir", "mesh", False, (), stats, {"wink": {"_stills": 10, "wink": 9}})
    table = report.format_table()
    assert "wink" in table and "0.90" in table and "< 0.9" in table
    data = json.loads(json.dumps(report.to_json()))
    assert data["gestures"][0] == {"gesture": "wink", "support": 10, "tp": 9, "fp": 1, "fn": 1,
                                   "precision": 0.9, "recall": 0.9, "f1": 0.9}
    with pytest.raises(VisionError, match="unknown backend"):
        evaluate_folder("dir", backend="webcam")


@pytest.mark.vision
def test_evaluate_a_small_real_folder(tmp_path, gestures_dir):
    """Symlinks to a few real files (nothing copied into the repository), one short talking clip."""
    picks = [
        "wink/lp_d3_f0006_wink_left.jpg",
        "eyes_closed/lp_d14_f0144_eyes_closed.jpg",
        "neutral/lp_d18_f0000_neutral.jpg",
        "mouth_open/lp_d18_f0132_mouth_open.jpg",
        "talking/grid_bbaf2n_talking.mpg",
    ]
    for file in picks:
        target = tmp_path / file
        target.parent.mkdir(parents=True, exist_ok=True)
        target.symlink_to(gestures_dir / file)
    (tmp_path / "neutral" / "broken.jpg").write_text("not an image", encoding="utf-8")
    report = evaluate_folder(tmp_path, max_clip_frames=40)
    by = {s.gesture: s for s in report.gestures}
    assert set(by) == {Gesture.WINK, Gesture.EYES_CLOSED, Gesture.MOUTH_OPEN}
    assert by[Gesture.WINK].tp == 1 and by[Gesture.EYES_CLOSED].tp == 1 and by[Gesture.MOUTH_OPEN].tp == 1
    assert [f for f, _ in report.errors] == ["neutral/broken.jpg"]
    wink = next(s for s in report.stills if s.file.startswith("wink/"))
    assert wink.sides[Gesture.WINK] is Side.LEFT
    (clip,) = report.clips
    assert clip.frames == 40 and clip.seconds == pytest.approx(1.6) and clip.frames_with_face == 40
    assert "false triggers per minute" in report.format_table()


@pytest.mark.vision
def test_evaluation_reads_what_aluette_recognize_reads(tmp_path, gestures_dir):
    """eval-vision runs the product's own Pipeline: the same scores on a still and the same events
    on a talking clip (running baseline and talking suppression included) as analyse_image /
    analyse_video, which serve `aluette recognize`."""
    from trainer.vision.pipeline import PipelineOptions, analyse_image, analyse_video

    # A talking clip that still has a (false) event: an index sign read from a hand. The head tilt of
    # spectre_lrs3_BImnT7lcLDE_00003, used before, is gone since the running baseline leaves out the
    # frames that show a sign.
    still, clip = "brows_up/yale_s02_surprised.jpg", "talking/skyreels_a1_driving5.mp4"
    for file in (still, clip):
        target = tmp_path / file
        target.parent.mkdir(parents=True, exist_ok=True)
        target.symlink_to(gestures_dir / file)
    report = evaluate_folder(tmp_path)
    (result,) = report.stills
    assert result.scores == pytest.approx(analyse_image(gestures_dir / still).scores)
    recognized = analyse_video(gestures_dir / clip, options=PipelineOptions(shrug=False))
    (evaluated,) = report.clips
    assert evaluated.frames == recognized.frames
    assert [g for g, _, _ in evaluated.events] == [e.gesture.value for e in recognized.events]
    assert evaluated.events  # the comparison is not vacuous: this clip has (false) events


def test_negative_clips_run_held_out_and_leave_annotated_clips_to_the_span_table(tmp_path, gestures_dir):
    """The talking/neutral table counts every event as false, so a clip whose signs are annotated
    (lp_d13 talks, then smiles and pouts) is left to the span table; the others run with the options
    given per clip (eval-vision's face signs refitted without the clip's person)."""
    from trainer.vision.pipeline import PipelineOptions

    picks = ["neutral/lp_d18_f0000_neutral.jpg", "talking/grid_bbaf2n_talking.mpg",
             "talking/lp_d13_talking_then_faces.mp4"]
    for file in picks:
        target = tmp_path / file
        target.parent.mkdir(parents=True, exist_ok=True)
        target.symlink_to(gestures_dir / file)
    asked = []

    def options_for(file):
        asked.append(file)
        return PipelineOptions(face_signs=str(REPO / "models" / "face_signs.json"))

    report = evaluate_folder(tmp_path, max_clip_frames=20, clip_options_for=options_for,
                             annotated=frozenset({"talking/lp_d13_talking_then_faces.mp4"}))
    assert [c.file for c in report.clips] == ["talking/grid_bbaf2n_talking.mpg"]
    assert asked == ["talking/grid_bbaf2n_talking.mpg"]
    assert report.clips_held_out and "held out" in report.format_table()
    assert report.to_json()["clips_held_out"] is True
    plain = evaluate_folder(tmp_path, max_clip_frames=20)
    assert len(plain.clips) == 2 and not plain.clips_held_out and "held out" not in plain.format_table()
