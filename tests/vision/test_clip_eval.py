"""Video evaluation: the annotated spans of the shared clips, and event recall / false events per minute."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest
from personal_clips import face_model

from trainer.lab.clip_eval import (
    SLACK,
    ClipReport,
    SpanKind,
    clip_files,
    evaluate_clips,
    load_spans,
    score_clip,
)
from trainer.signals.gestures import Gesture, GestureEvent
from trainer.vision.types import VisionError

SPANS = Path(__file__).resolve().parents[2] / "samples" / "clip_spans.tsv"


def _duration(path: Path) -> float:
    cap = cv2.VideoCapture(str(path))
    try:
        return cap.get(cv2.CAP_PROP_FRAME_COUNT) / cap.get(cv2.CAP_PROP_FPS)
    finally:
        cap.release()


def test_every_annotated_span_lies_inside_its_clip(gestures_dir):
    spans = load_spans(SPANS)
    files = clip_files(spans)
    assert len(files) >= 15 and sum(s.kind is SpanKind.SIGN for s in spans) >= 30
    for file in files:
        path = gestures_dir / file
        assert path.is_file(), file
        length = _duration(path)
        for span in (s for s in spans if s.file == file):
            assert span.end <= length + 0.05, f"{file}: span {span.start}-{span.end} past the end ({length:.2f} s)"
    # Every person named is the MANIFEST's person of that clip.
    manifest = {}
    for line in (gestures_dir / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        cells = line.split("\t")
        manifest[cells[0]] = cells[-1]
    for span in spans:
        assert manifest[span.file] == span.person, span


def _event(gesture, start, end):
    return GestureEvent(gesture=gesture, start=start, end=end)


def test_scoring_counts_overlaps_with_slack_and_excuses_dontcare(tmp_path):
    spans_file = tmp_path / "spans.tsv"
    spans_file.write_text(
        "file\tgesture\tside\tstart_s\tend_s\tkind\tperson\tnote\n"
        "a.mp4\tpout\t-\t1.0\t2.0\tsign\tp1\t\n"
        "a.mp4\twink\t-\t3.0\t3.5\tsign\tp1\t\n"
        "a.mp4\teyes_closed\t-\t5.0\t6.0\tdontcare\tp1\tblink\n"
        "a.mp4\t*\t-\t8.0\t9.0\tdontcare\tp1\tunreadable\n",
        encoding="utf-8",
    )
    spans = load_spans(spans_file)
    events = [
        _event(Gesture.POUT, 2.0 + SLACK - 0.01, 2.6),   # just inside the slack: reports the pout
        _event(Gesture.WINK, 3.5 + SLACK + 0.05, 4.2),   # just past it: misses the wink, and is false
        _event(Gesture.EYES_CLOSED, 5.2, 5.4),           # don't care
        _event(Gesture.BROWS_UP, 5.2, 5.4),              # a don't-care of another gesture: false
        _event(Gesture.TONGUE_OUT, 8.5, 8.7),            # any gesture don't care
    ]
    scored = score_clip("a.mp4", events, spans, duration=60.0)
    assert [s.gesture for s in scored.reported] == [Gesture.POUT]
    assert [s.gesture for s in scored.missed] == [Gesture.WINK]
    assert [e.gesture for e in scored.false_events] == [Gesture.WINK, Gesture.BROWS_UP]
    report = ClipReport((scored,))
    assert report.recall == 0.5 and report.false_per_minute == pytest.approx(2.0)


@pytest.mark.parametrize("row, message", [
    ("a.mp4\tpout\t-\t2\t1\tsign\tp\t", "start_s < end_s"),
    ("a.mp4\tpouty\t-\t1\t2\tsign\tp\t", "not a gesture name"),
    ("a.mp4\tpout\t-\t1\t2\tmaybe\tp\t", "kind 'maybe'"),
    ("a.mp4\tpout\t-\tone\t2\tsign\tp\t", "seconds"),
])
def test_bad_rows_name_the_line_and_what_to_write(tmp_path, row, message):
    path = tmp_path / "spans.tsv"
    header = "# comment\nfile\tgesture\tside\tstart_s\tend_s\tkind\tperson\tnote\n"
    path.write_text(header + row + "\n", encoding="utf-8")
    with pytest.raises(VisionError, match=message) as caught:
        load_spans(path)
    assert f"{path}:3" in str(caught.value)


def test_evaluate_clips_on_a_real_clip(shared, gestures_dir):
    """The 'nice' meme: eyes shut and lips pursed (1.4-3.0 s) after talking: run through the pipeline."""
    model = face_model(shared)
    from trainer.vision.pipeline import PipelineOptions

    spans = [s for s in load_spans(SPANS) if s.file == "sequence/hellomeme_nice.mp4"]
    report = evaluate_clips(gestures_dir, spans, PipelineOptions(face_model=str(model), hands=False))
    assert report.signs == 2 and len(report.clips) == 1 and report.people == 1
    assert report.minutes == pytest.approx(71 / 15 / 60, rel=0.02)
    data = report.to_json()
    assert data["signs"] == 2 and data["reported"] == report.reported
    clip = report.clips[0]
    assert len(clip.reported) + len(clip.missed) == 2
    # Every false event lies outside the spans that would excuse it (the scoring, on real events).
    own = [s for s in spans if s.file == clip.file]
    assert all(not any(s.excuses(e) for s in own) for e in clip.false_events)


@pytest.mark.xfail(strict=False, reason="issue 11 (blocked for want of labelled people): on this turned head "
                   "both eyes are shut (checked on the frames) but the blendshapes (eyeBlink uneven) and the "
                   "mesh's lid geometry (one eye's openness half the other's) both read a left wink, so the span "
                   "is missed")
def test_closed_eyes_on_the_nice_clip_are_reported(shared, gestures_dir):
    """The closed eyes are a clear sign on this face (1.4-3.0 s)."""
    model = face_model(shared)
    from trainer.vision.pipeline import PipelineOptions

    spans = [s for s in load_spans(SPANS) if s.file == "sequence/hellomeme_nice.mp4"]
    report = evaluate_clips(gestures_dir, spans, PipelineOptions(face_model=str(model), hands=False))
    assert Gesture.EYES_CLOSED in {s.gesture for s in report.clips[0].reported}


def test_eval_vision_reads_a_users_own_clip_folder(shared, gestures_dir, tmp_path, capsys, monkeypatch):
    """A folder of one's own clips with spans.tsv beside them (no photos): the clip table alone."""
    import json

    from trainer.cli import main

    monkeypatch.setenv("ALUETTE_FACE_MODEL", str(face_model(shared)))
    (tmp_path / "clips").mkdir()
    (tmp_path / "clips" / "me.mp4").symlink_to(gestures_dir / "sequence" / "hellomeme_nice.mp4")
    (tmp_path / "spans.tsv").write_text(
        "file\tgesture\tside\tstart_s\tend_s\tkind\tperson\tnote\n"
        "clips/me.mp4\teyes_closed\t-\t1.4\t3.0\tsign\tme\t\n"
        "clips/me.mp4\tpout\t-\t1.75\t2.95\tsign\tme\t\n", encoding="utf-8")
    assert main(["eval-vision", str(tmp_path), "--backend", "tasks+image", "--json"]) == 0
    clips = json.loads(capsys.readouterr().out)["clips"]
    assert clips["signs"] == 2 and clips["clips"] == 1 and clips["people"] == 1
    assert clips["by_gesture"]["eyes_closed"]["signs"] == 1
    (tmp_path / "spans.tsv").write_text("file\tgesture\n", encoding="utf-8")
    assert main(["eval-vision", str(tmp_path)]) == 2
    assert "the header lacks" in capsys.readouterr().err


def test_population_clip_figures_are_held_out_for_the_people_the_signs_were_fitted_on(gestures_dir):
    """`aluette eval-vision` scores each annotated clip with the face signs refitted without the
    clip's person when the shipped parameters were fitted on that person's stills (lp_d3 and lp_d19
    both have stills in samples/face_signs.json): a figure for a face never fitted, not memory."""
    import json

    from trainer.lab.clip_replay import SAMPLES, held_out_options, shipped_shares
    from trainer.lab.face_fit import HAND_LABELS, faces_from_samples, fit_params
    from trainer.vision.pipeline import PipelineOptions

    clips = ("sequence/lp_d3.mp4", "sequence/lp_d19.mp4")
    spans = [s for s in load_spans(SPANS) if s.file in clips]
    options = PipelineOptions(hands=False)
    faces = [f for f in faces_from_samples(SAMPLES) if f.label not in HAND_LABELS]
    shipped = json.loads((Path(__file__).resolve().parents[2] / "models" / "face_signs.json").read_text())
    with held_out_options(gestures_dir, spans, options) as held:
        assert held.fitted == {"lp_d3", "lp_d19"}
        assert held.label(clips) == "held out: face signs refitted without each of the 2 people fitted"
        files = [held.options_for(clip).face_signs for clip in clips]
        assert None not in files and files[0] != files[1]
        for clip, file, person in zip(clips, files, ("lp_d3", "lp_d19"), strict=False):
            assert held.options_for(clip).hands is False  # the caller's options, face signs replaced
            refitted = json.loads(Path(file).read_text())
            without = fit_params([f for f in faces if f.person != person], shipped_shares()).to_json()
            assert refitted == json.loads(json.dumps(without))
            assert refitted["signs"] != shipped["signs"]


def test_clips_of_people_never_fitted_run_with_the_shipped_face_signs(gestures_dir, tmp_path):
    """A user's own clip folder: nobody in it was fitted, so the shipped parameters are already a
    held-out figure and nothing is refitted."""
    from trainer.lab.clip_replay import held_out_options
    from trainer.vision.pipeline import PipelineOptions

    (tmp_path / "spans.tsv").write_text(
        "file\tgesture\tside\tstart_s\tend_s\tkind\tperson\tnote\n"
        "me.mp4\teyes_closed\t-\t1.4\t3.0\tsign\tme\t\n", encoding="utf-8")
    spans = load_spans(tmp_path / "spans.tsv")
    options = PipelineOptions(hands=False)
    with held_out_options(tmp_path, spans, options) as held:
        assert held.fitted == frozenset()
        assert held.options_for("me.mp4") is options
        assert held.label(["me.mp4"]) == "held out: nobody in these clips was fitted"
