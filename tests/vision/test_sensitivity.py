"""Sensitivity a person can set: their own threshold per sign, used by the recognizer (and changed
while it runs), on a recorded stream of a real clip (samples/streams_lp_d13_talking_then_faces.npz,
no MediaPipe)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from trainer.signals.gestures import Gesture
from trainer.vision.pipeline import Pipeline, PipelineOptions
from trainer.vision.recognizer import RecognizerConfig
from trainer.vision.sensitivity import HIGHEST, LOWEST, Sensitivity
from trainer.vision.streams import load_stream, replay, replay_events
from trainer.vision.types import FaceReading, FrameScores, VisionError

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
WINK, POUT = Gesture.WINK, Gesture.POUT


@pytest.fixture(scope="module")
def d13():
    """lp_d13 talks for 6 s, then pouts (lips forward and to one side) at 9.55-10.3 s: its pout
    score peaks at 0.77."""
    return load_stream(SAMPLES / "streams_lp_d13_talking_then_faces.npz")


def _pipeline(sensitivity=None) -> Pipeline:
    return Pipeline(PipelineOptions(hands=False), sensitivity=sensitivity)


def _pouts(events):
    return [e for e in events if e.gesture is POUT and e.start <= 10.3 and e.end >= 9.55]


def test_the_recognizer_uses_the_persons_threshold(d13):
    assert _pouts(replay_events(d13, _pipeline()))
    bigger = Sensitivity().with_threshold(POUT, 0.85)  # "gesture size": a bigger pout is asked for
    assert not _pouts(replay_events(d13, _pipeline(bigger)))
    assert _pouts(replay_events(d13, _pipeline(bigger.with_threshold(POUT, 0.7))))


def test_the_threshold_moves_while_the_stream_runs_and_the_meter_shows_it(d13):
    """The meter's tick is where a sign turns on now: raised to the talking bar while she talks and just
    after (8 s), her usual level once she has been quiet 2 s (9.3 s), then her own threshold."""
    pipeline = _pipeline()
    pouts = []
    for scores, started, _finished in replay(d13, pipeline):
        if 8.0 <= scores.timestamp < 8.04:
            assert pipeline.recognizer.live().thresholds[POUT] == (0.8, 0.4)
        if scores.timestamp >= 9.3 and pipeline.sensitivity is None:
            assert pipeline.recognizer.live().thresholds[POUT] == (0.55, 0.4)
            pipeline.set_sensitivity(Sensitivity().with_threshold(POUT, 0.85))
            assert pipeline.recognizer.live().thresholds[POUT] == pytest.approx((0.85, 0.7))
        pouts += [e for e in started if e.gesture is POUT and e.start >= 9.0]
    assert not pouts


def test_values_clamp_round_trip_and_bad_records_are_named():
    own = Sensitivity().with_threshold(WINK, 0.01).with_threshold(Gesture.POUT, 2.0)
    assert own.own(WINK) == LOWEST and own.own(Gesture.POUT) == HIGHEST
    assert own.threshold(Gesture.BROWS_UP) == RecognizerConfig().timing(Gesture.BROWS_UP).enter
    assert Sensitivity.from_json(own.to_json()) == own
    assert own.with_threshold(WINK, None).own(WINK) is None
    config = own.apply(RecognizerConfig())
    assert (config.timing(WINK).enter, config.timing(WINK).exit) == (LOWEST, 0.0)
    assert config.timing(WINK).hold_ms == RecognizerConfig().timing(WINK).hold_ms  # only the levels move
    with pytest.raises(VisionError, match="not a sensitivity record"):
        Sensitivity.from_json({"kind": "personal_signs"})
    with pytest.raises(VisionError, match="'frown'"):
        Sensitivity.from_json({"kind": "sensitivity", "schema": 1, "thresholds": {"frown": 0.5}})
    with pytest.raises(VisionError, match="outside"):
        Sensitivity.from_json({"kind": "sensitivity", "schema": 1, "thresholds": {"wink": 0.01}})


def test_a_personal_model_exempts_its_signs_from_the_talking_bar_and_keeps_the_thresholds():
    from trainer.vision.personal import PersonalSigns, SignPrototype

    model = PersonalSigns(name="me", dims=("jawOpen", "mouthPucker"), neutral=(0.0, 0.0), spread=(0.03, 0.03),
                          rest_energy=2.0, signs=(SignPrototype(POUT, (0.0, 20.0), 0.5, 2, 40),))
    own = Sensitivity().with_threshold(WINK, 0.4)
    pipeline = Pipeline(PipelineOptions(hands=False), personal=model, sensitivity=own)
    config = pipeline.recognizer.config
    assert config.talking_enter_exempt == (POUT,) and config.timing(WINK).enter == 0.4
    pipeline.set_personal(None)
    config = pipeline.recognizer.config
    assert config.talking_enter_exempt == () and config.timing(WINK).enter == 0.4


def test_a_taught_look_up_keeps_the_default_bar_and_a_set_threshold_wins():
    """The population's look-up begins at a raised 0.75 (speakers glance up); a look-up the person
    taught is scored on their own scale, so it begins at the default level, unless they set their own."""
    from trainer.vision.personal import PersonalSigns, SignPrototype

    look_up = Gesture.LOOK_UP
    default = RecognizerConfig().default
    assert RecognizerConfig().timing(look_up).enter == 0.75 > default.enter
    taught = SignPrototype(look_up, (20.0, 20.0), 0.5, 2, 40)
    model = PersonalSigns(name="me", dims=("eyeLookUpLeft", "eyeLookUpRight"), neutral=(0.0, 0.0),
                          spread=(0.03, 0.03), rest_energy=2.0, signs=(taught,))
    pipeline = Pipeline(PipelineOptions(hands=False), personal=model)
    assert (pipeline.recognizer.config.timing(look_up).enter, pipeline.recognizer.config.timing(look_up).exit) == (
        default.enter, default.exit)
    pipeline.set_sensitivity(Sensitivity().with_threshold(look_up, 0.6))
    assert pipeline.recognizer.config.timing(look_up).enter == 0.6
    pipeline.set_personal(None)
    pipeline.set_sensitivity(None)
    assert pipeline.recognizer.config.timing(look_up).enter == 0.75


def test_a_lowered_threshold_lowers_the_talking_bar_by_as_much_and_a_raised_one_never_lowers_it():
    """A person whose brows read weak sets their marker at 0.4 (0.15 under the default 0.55): while they
    talk, their brows must reach 0.65 (0.8 less 0.15), not 0.8, or they could never signal in a
    conversation; set at 0.9 the bar is 0.9. A look-up's own bar (0.85 over 0.75) moves the same way."""
    from trainer.vision.recognizer import Recognizer, talking_bar

    brows, look_up = Gesture.BROWS_UP, Gesture.LOOK_UP
    config = RecognizerConfig()
    assert talking_bar(config, brows) == 0.8 and talking_bar(config, look_up) == 0.85
    assert talking_bar(Sensitivity().with_threshold(brows, 0.4).apply(config), brows) == pytest.approx(0.65)
    assert talking_bar(Sensitivity().with_threshold(brows, 0.9).apply(config), brows) == 0.9
    assert talking_bar(Sensitivity().with_threshold(look_up, 0.6).apply(config), look_up) == pytest.approx(0.7)
    assert talking_bar(Sensitivity().with_threshold(WINK, 0.4).apply(config), brows) == 0.8  # the others kept

    def seen_while_talking(sensitivity) -> bool:
        """A 0.7 brow raise held 1.2 s in the middle of speech."""
        recognizer = Recognizer(sensitivity.apply(RecognizerConfig()) if sensitivity else RecognizerConfig())
        t, seen = 0.0, False
        for i in range(150):
            t = i / 30.0
            activity = 0.12 + 0.1 * np.sin(2 * np.pi * 4.0 * t)  # lips moving four times a second
            level = 0.7 if 3.0 <= t <= 4.2 else 0.0
            f = FrameScores(t, {brows: level}, {}, face=FaceReading({}, {}), mouth_activity=float(activity))
            seen = seen or any(e.gesture is brows for e in recognizer.update(f).started)
        return seen

    assert not seen_while_talking(None)
    assert seen_while_talking(Sensitivity().with_threshold(brows, 0.4))
