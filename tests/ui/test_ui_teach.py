"""Practice's "teach your signs": the panel under AppTest, and the teaching path the panel drives
(the live pipeline's tap feeding a SignTeacher, then ``teach.finish``) on a real clip's frames."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from trainer.signals.gestures import Gesture
from trainer.ui import persistence

APP = str(Path(__file__).resolve().parents[2] / "streamlit_app.py")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "vision"))


def _practice() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.switch_page("trainer/ui/pages/practice.py").run()
    assert not at.exception, at.exception
    return at


def _model():
    from trainer.vision.personal import PersonalSigns, SignPrototype

    return PersonalSigns(name="me", dims=("jawOpen", "mouthPucker"), neutral=(0.0, 0.0), spread=(0.03, 0.03),
                         rest_energy=2.0, signs=(SignPrototype(Gesture.POUT, (0.0, 20.0), 0.5, 2, 40),),
                         created="2026-12-01T21:00:00")


def test_panel_lists_the_taught_signs_and_forgets_them(data_home):
    from trainer.storage import Store

    at = _practice()
    assert any(e.label == "Teach your signs" for e in at.expander)
    assert any("No signs taught yet" in c.value for c in at.caption)
    with Store.open() as store:
        store.put(persistence.PERSONAL_KIND, persistence.PROFILE_KEY, _model().to_json(), now=1.0)
    at = _practice()
    assert any("pout (2 takes)" in c.value for c in at.caption)
    at.button(key="teach_forget").click().run()
    assert not at.exception, at.exception
    with Store.open() as store:
        assert store.get(persistence.PERSONAL_KIND, persistence.PROFILE_KEY) is None


class _Watcher:
    """What ``teach.finish`` needs of the session's SignWatcher."""

    def __init__(self, personal) -> None:
        self.personal = personal
        self.profiles: list = []

    def use_profile(self, profile) -> None:
        self.profiles.append(profile)


def test_the_tap_feeds_the_teacher_and_finish_uses_the_signs(shared, gestures_dir, data_home, monkeypatch):
    from personal_clips import face_model
    from test_teaching import D18_STEPS

    from trainer.ui import recognition
    from trainer.ui.views import teach
    from trainer.vision.sources import open_source
    from trainer.vision.teaching import SignTeacher

    monkeypatch.setenv("ALUETTE_FACE_MODEL", str(face_model(shared)))
    state = recognition.PersonalState()
    state.teacher = SignTeacher(D18_STEPS)
    pipeline = recognition.make_pipeline(None, state)
    with open_source(gestures_dir / "sequence" / "lp_d18.mp4") as source:
        clip = list(source)
    try:
        for frame in clip:
            pipeline.process(frame)
    finally:
        pipeline.close()
    watcher = _Watcher(state)
    saved: list = []
    message = teach.finish(watcher, state.teacher.state(), save=lambda m: saved.append(m) or True)
    assert message.startswith("Taught mouth_open") and "and saved." in message
    # Both takes (the O and the wide opening) are kept, and each is seen when taught from the other.
    assert message.endswith("How reliably each will be seen: open mouth: seen in 2 of 2 held-out takes.")
    assert state.teacher is None and state.model is saved[0] and watcher.profiles == [None]
    # The rebuilt pipeline recognises this man's wide open mouth with the taught signs.
    pipeline = recognition.make_pipeline(None, state)
    try:
        scores = [pipeline.process(f).scores.scores[Gesture.MOUTH_OPEN] for f in clip if 4.4 <= f.timestamp <= 5.0]
    finally:
        pipeline.close()
    assert sum(s >= 0.55 for s in scores) >= 0.8 * len(scores)


def test_a_refused_take_is_told_with_its_meter():
    """The page's words for a refused take: the reason, "try again", and the meter (0..1)."""
    from trainer.ui.views import teach
    from trainer.vision.takes import TakeCheck

    refused = TakeCheck(Gesture.BROWS_UP, False, 0.35, 1.05, 0.2, 0, None, "no clear raised brows in that take")
    assert teach.refusal(refused) == ("no clear raised brows in that take: try again", 0.35)
    assert teach.refusal(TakeCheck(Gesture.BROWS_UP, True, 1.7, 5.1, 0.2, 0, None)) is None
    assert teach.refusal(TakeCheck(Gesture.POUT, False, 3.0, 9.0, 0.9, 0, None, "x"))[1] == 1.0
