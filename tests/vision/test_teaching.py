"""The "teach your signs" session logic, fed the recorded frames of a real clip (as the app's camera
thread feeds it the live pipeline's)."""

from __future__ import annotations

import numpy as np
import pytest
from personal_clips import face_model, frames, recorded

from trainer.signals.conventions import CLASSIC
from trainer.signals.gestures import BodyPart, Gesture
from trainer.vision.personal import ENTER
from trainer.vision.teaching import SignTeacher, Step, StepKind, schedule
from trainer.vision.types import VisionError

MO = Gesture.MOUTH_OPEN
# lp_d18 happens to follow a teaching schedule (without the talking step): neutral 0-0.4 s, then an O
# mouth 2.1-3.2 s and a wide open mouth 3.8-5.2 s, with rests between.
D18_STEPS = (Step(StepKind.NEUTRAL, 0.4), Step(StepKind.RELAX, 1.7, MO, 1), Step(StepKind.TAKE, 1.1, MO, 1),
             Step(StepKind.RELAX, 0.6, MO, 2), Step(StepKind.TAKE, 1.4, MO, 2))


@pytest.fixture(scope="module")
def d18(shared, gestures_dir):
    return recorded(str(gestures_dir / "sequence" / "lp_d18.mp4"), str(face_model(shared)))


def test_schedule_teaches_the_face_signs_of_a_convention():
    gestures = CLASSIC.gestures
    steps = schedule(gestures, takes=2)
    taught = {s.gesture for s in steps if s.kind is StepKind.TAKE}
    assert taught and all(g.body_part is BodyPart.FACE for g in taught)
    assert taught == {g for g in gestures if g.body_part is BodyPart.FACE}
    assert steps[0].kind is StepKind.NEUTRAL and steps[1].kind is StepKind.TALK
    assert sum(s.kind is StepKind.TAKE for s in steps) == 2 * len(taught)
    with pytest.raises(VisionError, match="1 to 3 takes"):
        schedule(gestures, takes=4)
    with pytest.raises(VisionError, match="no face sign"):
        schedule([Gesture.THUMB, Gesture.PINKY])


def test_a_session_fed_recorded_frames_teaches_the_sign(d18):
    teacher = SignTeacher(D18_STEPS, name="lp_d18")
    progress = []
    for frame in d18.features:
        teacher.add(frame.features, frame.timestamp, frame.face)
        state = teacher.state()
        progress.append(state.progress)
        if 2.3 < frame.timestamp < 3.0:
            assert state.step == 3 and "take 1" in state.prompt and "mouth" in state.prompt
    state = teacher.state()
    assert state.done and state.error == "" and state.prompt == "Done"
    assert progress == sorted(progress) and progress[-1] == 1.0
    model = state.result
    assert model.gestures == (MO,) and model.signs[0].takes == 2 and model.neutral_frames == 12
    # Two takes (the O and the wide opening): both kinds of opening score over the enter threshold.
    for start, end in ((2.4, 3.0), (4.4, 5.0)):
        scores = np.array([model.score(f)[MO][0] for f in frames(d18, start, end)])
        assert np.mean(scores >= ENTER) >= 0.8, (start, scores)


def test_the_talking_step_feeds_the_rest_frames(d18):
    """A talking step (here 0.4-2.1 s: this man presses his lips) becomes the rest frames that set the
    margins: the O's strength_min rises above the default."""
    steps = (D18_STEPS[0], Step(StepKind.TALK, 1.7), D18_STEPS[2])
    teacher = SignTeacher(steps)
    for frame in d18.features:
        teacher.add(frame.features, frame.timestamp, frame.face)
    model = teacher.state().result
    assert model.rest_frames > 30 and model.signs[0].strength_min > 0.5


def test_a_session_without_a_face_during_the_takes_says_so(d18):
    teacher = SignTeacher(D18_STEPS)
    for frame in d18.features:
        teacher.add(frame.features, frame.timestamp, frame.face and frame.timestamp < 2.0)
        if 3.3 < frame.timestamp < 3.5:  # just after the first take: refused at once, asked again
            state = teacher.state()
            assert "no face seen in that take of the open mouth" in state.last_check.message()
            assert "again" in state.prompt
    teacher.add({}, 100.0, False)  # the camera runs on past the retries
    state = teacher.state()
    assert state.done and state.result is None and "no face seen in that take of the open mouth" in state.error
    assert len(state.checks) == 2 * (1 + 2) and not any(c.accepted for c in state.checks)  # 2 takes, 2 retries each
