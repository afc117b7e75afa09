"""`aluette enroll` and `aluette recognize --profile` with a personal profile, on a real clip."""

from __future__ import annotations

import json

import pytest
from personal_clips import face_model

from trainer.cli import main
from trainer.signals.gestures import Gesture
from trainer.vision.enroll import parse_spec
from trainer.vision.types import VisionError


@pytest.mark.parametrize("spec, message", [
    ("me.mp4:pout", "write CLIP:GESTURE:START-END"),
    ("me.mp4:thumb:1-2", "not a face sign that can be taught"),
    ("me.mp4:pout:2-1", "START < END"),
    ("me.mp4:pout:2..4", "START-END in seconds"),
])
def test_bad_specs_name_the_spec_and_the_format(spec, message):
    with pytest.raises(VisionError, match=message) as caught:
        parse_spec(spec)
    assert repr(spec) in str(caught.value)


def test_spec_parsing_keeps_colons_in_the_path():
    spec = parse_spec("C:/clips/me.mp4:Neutral:0-3.5")
    assert (spec.clip, spec.role, spec.gesture, spec.start, spec.end) == ("C:/clips/me.mp4", "neutral", None, 0.0, 3.5)
    assert parse_spec("me.mp4:pout:1-2").gesture is Gesture.POUT


def test_enroll_reports_bad_input_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "me.json"
    assert main(["enroll", "--out", str(out), "me.mp4:pout:1-2"]) == 2
    assert "no neutral span" in capsys.readouterr().err and not out.exists()
    assert main(["enroll", "--out", str(out), "nope.mp4:neutral:0-1", "nope.mp4:pout:1-2"]) == 2
    assert "nope.mp4 not found" in capsys.readouterr().err and not out.exists()


def test_enroll_then_recognize_with_the_profile(shared, gestures_dir, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("ALUETTE_FACE_MODEL", str(face_model(shared)))
    clip = gestures_dir / "sequence" / "lp_d18.mp4"
    out = tmp_path / "me.json"
    code = main(["enroll", "--out", str(out), f"{clip}:neutral:0-0.4", f"{clip}:neutral:1.6-2.0",
                 f"{clip}:mouth_open:2.1-3.2"])
    printed = capsys.readouterr().out
    assert code == 0 and "mouth_open" in printed and json.loads(out.read_text())["kind"] == "personal_signs"
    assert main(["recognize", "--profile", str(out), str(clip), "--json"]) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert set(result) == {"path", "frames", "events"} and result["frames"] == 216
    opens = [e for e in result["events"] if e["gesture"] == "mouth_open"]
    # Taught from the round O alone, the wide opening with teeth 3.8-5.2 s is reported too.
    assert any(e["start"] <= 3.2 and e["end"] >= 2.1 for e in opens)
    assert any(e["start"] <= 5.2 and e["end"] >= 3.8 for e in opens)
    assert set(opens[0]) == {"gesture", "start", "end", "count", "confidence"}


def test_recognize_still_takes_a_calibration_profile(gestures_dir, tmp_path, capsys):
    """--profile tells the two kinds apart: a calibration Profile keeps working as before."""
    from trainer.vision.calibration import profile_from_samples
    from trainer.vision.pipeline import analyse_image

    photo = gestures_dir / "neutral" / "lp_d18_f0000_neutral.jpg"
    features = analyse_image(photo).result.scores.features
    cal = tmp_path / "cal.json"
    profile_from_samples("me", [features]).save(cal)
    assert main(["recognize", "--profile", str(cal), str(photo), "--json"]) == 0
    result = json.loads(capsys.readouterr().out.strip())
    assert set(result) == {"path", "face", "hands", "gestures", "scores"} and result["face"] is True
    bad = tmp_path / "bad.json"
    bad.write_text('{"kind": "personal_signs", "schema": 1}', encoding="utf-8")
    assert main(["recognize", "--profile", str(bad), str(photo), "--json"]) == 2
    assert "malformed" in capsys.readouterr().err


def test_enroll_refuses_a_span_that_shows_no_sign(shared, gestures_dir, tmp_path, capsys, monkeypatch):
    """lp_d18 at 1.6-2.0 s is his resting face: given as a mouth_open take it is refused (exit 2, the
    spec and the reason named, nothing written); his round O at 2.1-3.2 s is kept, with how reliably
    each sign will be seen."""
    monkeypatch.setenv("ALUETTE_FACE_MODEL", str(face_model(shared)))
    clip = gestures_dir / "sequence" / "lp_d18.mp4"
    out = tmp_path / "me.json"
    code = main(["enroll", "--out", str(out), f"{clip}:neutral:0-0.4", f"{clip}:mouth_open:1.6-2.0"])
    err = capsys.readouterr().err
    assert code == 2 and not out.exists()
    assert f"spec '{clip}:mouth_open:1.6-2.0': no clear open mouth in that span" in err and "nothing was written" in err
    code = main(["enroll", "--out", str(out), f"{clip}:neutral:0-0.4", f"{clip}:mouth_open:2.1-3.2",
                 f"{clip}:mouth_open:3.8-5.2"])
    printed = capsys.readouterr().out
    assert code == 0 and out.exists()
    assert "open mouth: seen in" in printed and "of 2 held-out takes" in printed
