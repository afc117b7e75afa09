"""Calibration: robust neutral profiles from real neutral features, JSON round-trips, clear errors."""

from __future__ import annotations

import itertools
import json
import math

import pytest
from face_samples import mesh, rows_with

from trainer.vision.calibration import (
    Calibrator,
    FeatureStat,
    Profile,
    RunningBaseline,
    load_user_profile,
    profile_from_samples,
    profile_path,
)
from trainer.vision.types import VisionError

NEUTRAL = "neutral/yale_s01_normal.jpg"
BLINK = "eyes_closed/yale_s01_sleepy.jpg"


def _neutral_stream(n: int = 60, fps: float = 20.0):
    """A calibration stream of one real neutral face, with small jitter and a few blink frames."""
    base, blink = mesh(NEUTRAL), mesh(BLINK)
    for i in range(n):
        jitter = 1.0 + 0.01 * math.sin(i)
        frame = blink if i % 20 == 7 else {k: v * jitter for k, v in base.items()}
        yield frame, i / fps


def test_calibrator_is_robust_to_blinks():
    calibrator = Calibrator("ann", duration=2.0, min_frames=20)
    for features, t in _neutral_stream():
        calibrator.add(features, t)
    assert calibrator.done and calibrator.frames == 60
    profile = calibrator.profile(created="2026-11-29T12:00:00")
    base = mesh(NEUTRAL)
    # 3 blink frames out of 60 do not move the median eye openness away from the open eye's.
    assert profile.mean("eye_open_mean") == pytest.approx(base["eye_open_mean"], rel=0.02)
    assert profile.mean("eye_open_mean") > 2 * mesh(BLINK)["eye_open_mean"]
    assert profile.spread("eye_open_mean") < 0.05 * base["eye_open_mean"]
    assert profile.frames == 60 and profile.name == "ann"


def test_calibrator_progress_and_errors():
    calibrator = Calibrator("bob", duration=3.0, min_frames=15)
    assert calibrator.progress == 0.0 and not calibrator.done
    calibrator.add(mesh(NEUTRAL), 1.0)
    calibrator.add(mesh(NEUTRAL), 2.5)
    assert calibrator.progress == pytest.approx(0.5)
    with pytest.raises(VisionError, match="backwards"):
        calibrator.add(mesh(NEUTRAL), 2.0)
    with pytest.raises(VisionError, match="needs at least 15"):
        calibrator.profile()


def test_profile_round_trip(tmp_path):
    neutral = [r["features"] for r in rows_with() if r["label"] == "neutral"]
    profile = profile_from_samples("population", neutral, created="2026-11-29", kind="population")
    again = Profile.from_json(json.loads(json.dumps(profile.to_json())))
    assert again.name == "population" and again.kind == "population" and again.frames == len(neutral)
    for key, stat in profile.stats.items():
        assert again.stats[key].mean == pytest.approx(stat.mean, abs=1e-5)
        assert again.stats[key].spread == pytest.approx(stat.spread, abs=1e-5)
    path = tmp_path / "profiles" / "ann.json"
    profile.save(path)
    assert Profile.load(path).stats.keys() == profile.stats.keys()


@pytest.mark.parametrize(
    "data, message",
    [
        ([1, 2], "JSON object"),
        ({"schema": 99, "features": {"a": {"mean": 1, "spread": 0}}}, "schema 99"),
        ({"schema": 1, "features": {}}, "no 'features'"),
        ({"schema": 1, "features": {"eye": {"mean": "x", "spread": 0}}}, "'eye' needs numeric"),
        ({"schema": 1, "features": {"eye": {"mean": 0.3}}}, "'eye' needs numeric"),
        ({"schema": 1, "features": {"eye": {"mean": float("nan"), "spread": 0}}}, "finite"),
        ({"schema": 1, "features": {"eye": {"mean": 0.3, "spread": -1}}}, "spread >= 0"),
        ({"schema": 1, "features": {"eye": {"mean": 0.3, "spread": 0}}, "frames": -3}, "non-negative"),
    ],
)
def test_bad_profiles_are_refused(data, message):
    with pytest.raises(VisionError, match=message):
        Profile.from_json(data)


def test_load_missing_or_garbled_file(tmp_path):
    with pytest.raises(VisionError, match="calibrate first"):
        Profile.load(tmp_path / "nobody.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(VisionError, match="not readable JSON"):
        Profile.load(bad)


def test_empty_samples_and_defaults():
    with pytest.raises(VisionError, match="no neutral face frames"):
        profile_from_samples("x", [])
    profile = Profile("p", {"a": FeatureStat(1.0, 0.1)})
    assert profile.mean("a") == 1.0 and profile.mean("missing", 7.0) == 7.0 and profile.spread("missing") == 0.0


def test_profiles_are_saved_per_user(data_home):
    assert load_user_profile("Ann Marie") is None
    path = profile_path("Ann Marie")
    assert path == data_home / "profiles" / "Ann_Marie.json"
    profile_from_samples("Ann Marie", [mesh(NEUTRAL)], created="2026-11-29").save(path)
    assert load_user_profile("Ann Marie").name == "Ann Marie"
    with pytest.raises(VisionError, match="choose a name"):
        profile_path(" ../ ")


def _talking_faces():
    """Real faces of one person: neutral with jitter, now and then a blink or a smile."""
    base, blink, smile = mesh(NEUTRAL), mesh(BLINK), mesh("smile/yale_s01_happy.jpg")
    for i in range(400):
        if i % 25 == 7:
            yield blink
        elif i % 40 == 11:
            yield smile
        else:
            yield {k: v * (1.0 + 0.01 * math.sin(i)) for k, v in base.items()}


def test_running_baseline_gives_the_profile_of_its_window():
    """Every third frame of the last window, as ``profile_from_samples`` would make of them, rebuilt
    once a second once the span is seen; time going back is a new stream."""
    fps, window = 30.0, 5.0
    baseline = RunningBaseline(window=window, min_span=3.0)
    frames = list(_talking_faces())
    built: list[tuple[float, Profile]] = []
    for i, features in enumerate(frames):
        profile = baseline.add(i / fps, features)
        if profile is not None:
            built.append((i / fps, profile))
    times = [t for t, _ in built]
    assert times[0] == pytest.approx(3.0, abs=0.11)  # the third kept frame after 3 s of span
    assert all(b - a == pytest.approx(1.0, abs=0.04) for a, b in itertools.pairwise(times))
    last_t, last = built[-1]
    kept = [f for i, f in enumerate(frames) if (i + 1) % 3 == 0 and last_t - i / fps <= window
            and i / fps <= last_t]
    expected = profile_from_samples("running baseline", kept, kind="auto")
    assert last.kind == "auto" and last.frames == expected.frames == len(kept)
    assert last.stats.keys() == expected.stats.keys()
    for name, stat in expected.stats.items():
        assert last.stats[name].mean == pytest.approx(stat.mean, rel=1e-12, abs=1e-12), name
        assert last.stats[name].spread == pytest.approx(stat.spread, rel=1e-12, abs=1e-12), name
    # A blink or a smile now and then does not move the neutral eye.
    assert last.mean("eye_open_mean") == pytest.approx(mesh(NEUTRAL)["eye_open_mean"], rel=0.02)
    # A new stream (time goes back) starts over: no profile until its own span is seen.
    assert baseline.add(0.0, frames[0]) is None
    assert all(baseline.add(i / fps, frames[i]) is None for i in range(1, 80))


def test_running_baseline_takes_features_that_appear_later():
    """A feature missing from the first frames (NaN there) still gets its median from the frames
    that have it; one never measured stays out of the profile."""
    base = mesh(NEUTRAL)
    baseline = RunningBaseline(window=10.0, min_span=1.0, keep_every=1)
    profile = None
    for i in range(61):  # rebuilt at 1 s (one "late" frame) and at 2 s (31 of them)
        features = dict(base, late=2.0 + 0.01 * (i % 3)) if i >= 30 else dict(base)
        features["never"] = math.nan
        profile = baseline.add(i / 30, features) or profile
    assert profile is not None
    assert profile.mean("late") == pytest.approx(2.01)
    assert "never" not in profile.stats
    assert profile.mean("eye_open_mean") == pytest.approx(base["eye_open_mean"])


def test_a_feature_whose_rest_is_one_end_of_its_range_takes_that_quantile():
    """Eyes at rest are open; a face that squints or winks most of the time (lppage_ia1's driver) must
    not make a half-shut eye its neutral: with a quantile for the eyes' openness the rest is the open
    eye, the other features keep their median."""
    rows = [{"eye_open_max": 0.12 if i % 3 else 0.30, "mouth_open": 0.05} for i in range(60)]
    plain = RunningBaseline(window=10.0, min_span=1.0, keep_every=1)
    sided = RunningBaseline(window=10.0, min_span=1.0, keep_every=1, quantiles={"eye_open_max": 0.9})
    for i, row in enumerate(rows):
        a = plain.add(i / 30.0, row) or locals().get("a")
        b = sided.add(i / 30.0, row) or locals().get("b")
    assert a.stats["eye_open_max"].mean == pytest.approx(0.12)  # the median: shut
    assert b.stats["eye_open_max"].mean == pytest.approx(0.30)
    assert b.stats["mouth_open"].mean == pytest.approx(0.05)
    assert b.stats["eye_open_max"].spread == a.stats["eye_open_max"].spread
