"""Teaching that checks what it learns, on the recorded streams of real clips (samples/streams_*.npz,
no MediaPipe): a take that shows no sign, or only talking, is refused at once and keeps nothing; a
real sign is kept; after teaching, each sign says how reliably it will be seen."""

from __future__ import annotations

from pathlib import Path

import pytest

from trainer.signals.gestures import Gesture
from trainer.vision.personal import RestSpace
from trainer.vision.streams import load_stream
from trainer.vision.takes import check_take, reliability
from trainer.vision.teaching import SignTeacher, Step, StepKind

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
MO, LC, POUT = Gesture.MOUTH_OPEN, Gesture.LIP_CORNER, Gesture.POUT


def _features(frame) -> dict[str, float]:
    out = dict(frame.face)
    out.update({"bs_" + k: v for k, v in frame.blendshapes.items()})
    return out


def _span(stream, start: float, end: float) -> list[dict[str, float]]:
    return [_features(f) for f in stream.frames if f.face and f.blendshapes and start <= f.timestamp <= end]


@pytest.fixture(scope="module")
def d18():
    """lp_d18: neutral 0-0.4 s and 1.6-2.0 s, a round O mouth 2.1-3.2 s, a wide opening 3.8-5.2 s."""
    return load_stream(SAMPLES / "streams_lp_d18.npz")


@pytest.fixture(scope="module")
def d19():
    """lp_d19: neutral 0-0.17 s and 0.83-1.33 s, smirks 1.37-2.03 s, 5.27-5.87 s, 6.43-7.17 s."""
    return load_stream(SAMPLES / "streams_lp_d19.npz")


@pytest.fixture(scope="module")
def d13():
    """lp_d13: talking 0-6.2 s, a pout (lips forward and to one side) 9.55-10.3 s, neutral 11-11.73 s."""
    return load_stream(SAMPLES / "streams_lp_d13_talking_then_faces.npz")


def test_a_real_sign_is_kept_and_the_neutral_face_given_as_one_is_refused(d18, d19):
    space = RestSpace.of(_span(d19, 0.0, 0.17) + _span(d19, 0.83, 1.33))
    smirk = check_take(LC, _span(d19, 1.37, 2.03), space)
    assert smirk.accepted and smirk.meter >= 1.0 and smirk.message() == ""
    space = RestSpace.of(_span(d18, 0.0, 0.4))
    neutral = check_take(MO, _span(d18, 1.6, 2.0), space)
    assert not neutral.accepted and neutral.meter < 0.5
    assert neutral.message() == "no clear open mouth in that take: try again"
    assert check_take(MO, _span(d18, 2.1, 3.2), space).accepted


def test_the_asked_sign_must_be_the_one_that_moved(d18):
    """The round O is clearly a change from neutral, but not a wink or raised brows."""
    space = RestSpace.of(_span(d18, 0.0, 0.4) + _span(d18, 1.6, 2.0))
    o_mouth = _span(d18, 2.1, 3.2)
    assert check_take(MO, o_mouth, space).accepted
    for gesture in (Gesture.WINK, Gesture.BROWS_UP, Gesture.HEAD_TILT):
        check = check_take(gesture, o_mouth, space)
        assert not check.accepted and check.reason.startswith("no clear"), (gesture, check)


def test_talking_given_as_a_take_is_refused_and_a_pout_after_it_is_kept(d13):
    space = RestSpace.of(_span(d13, 11.0, 11.73))
    talk = _span(d13, 0.0, 3.0)
    speech = check_take(POUT, _span(d13, 4.0, 6.2), space, rest=talk)  # puckers as she talks
    # Her talking reaches it all the way (0.99 of its strength), and it comes and goes (3 reversals).
    assert not speech.accepted and speech.speech > 0.85 and speech.reversals > 2 and "talking" in speech.reason
    pout = check_take(POUT, _span(d13, 9.55, 10.3), space, rest=talk)
    assert pout.accepted, pout


def _session(stream, steps, retry_relax_s=3.0):
    teacher = SignTeacher(steps, retry_relax_s=retry_relax_s)
    states = []
    for frame in stream.frames:
        face = frame.face is not None and frame.blendshapes is not None
        teacher.add(_features(frame) if face else {}, frame.timestamp, face)
        states.append(teacher.state())
    return teacher, states


def test_a_refused_take_is_said_at_once_keeps_nothing_and_is_asked_again(d18):
    """The first take (1.6-2.0 s) is his neutral face: refused when it ends, with the reason and the
    meter; the take is asked again after a short rest and the O (2.2-2.6 s) is kept."""
    steps = (Step(StepKind.NEUTRAL, 0.4), Step(StepKind.RELAX, 1.2, MO, 1), Step(StepKind.TAKE, 0.4, MO, 1))
    teacher, states = _session(d18, steps, retry_relax_s=0.2)
    first = next(s for s in states if s.checks)
    assert first.last_check.gesture is MO and not first.last_check.accepted
    assert "no clear open mouth" in first.last_check.message() and first.last_check.meter < 1.0
    assert "again" in first.prompt and first.steps == 5  # the take asked again: relax + take
    state = teacher.state()
    assert state.done and state.error == ""
    assert [c.accepted for c in state.checks] == [False, True]
    model = state.result
    assert model.gestures == (MO,) and model.signs[0].takes == 1
    assert abs(model.signs[0].frames - len(_span(d18, 2.2, 2.6))) <= 1  # only the kept take's frames
    assert state.reliability[0].tested == 0 and "one take" in state.reliability[0].describe()


def test_a_session_that_only_talks_teaches_nothing():
    """A person who talks through every prompt (edtalk's talking source, 10 s): every take is refused
    (retried twice), nothing is taught, and the error says why."""
    stream = load_stream(SAMPLES / "streams_edtalk_mouth_source_talking.npz")
    steps = [Step(StepKind.NEUTRAL, 0.6), Step(StepKind.TALK, 1.0)]
    for gesture in (Gesture.BROWS_UP, Gesture.WINK, POUT, MO, LC):
        steps += [Step(StepKind.RELAX, 0.1, gesture, 1), Step(StepKind.TAKE, 0.5, gesture, 1)]
    teacher, _states = _session(stream, steps, retry_relax_s=0.1)
    teacher.add({}, 1000.0, False)  # the camera goes on after the clip: the session ends
    state = teacher.state()
    assert state.done and state.result is None and len(state.checks) == 15
    assert not any(c.accepted for c in state.checks)
    assert state.error.startswith("no take showed its sign clearly, nothing was taught")


def test_reliability_holds_each_take_out(d19):
    """lp_d19's three smirks: taught from two, the third is scored, each in turn (the first, the mouth
    pulled to one side, reaches 0.4 on the model of the two later, wider grins: not seen)."""
    neutral = _span(d19, 0.0, 0.17) + _span(d19, 0.83, 1.33)
    takes = {LC: [_span(d19, 1.37, 2.03), _span(d19, 5.27, 5.87), _span(d19, 6.43, 7.17)]}
    item = reliability(neutral, takes, rest=_span(d19, 3.4, 4.2))[LC]
    assert (item.takes, item.tested) == (3, 3) and item.seen >= 2
    assert item.talking_frames > 0 and item.talking_over == 0.0
    assert item.describe().startswith(f"raised lip corner: seen in {item.seen} of 3 held-out takes")
