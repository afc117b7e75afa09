"""Practice's "teach your signs": the panel under AppTest, and the teaching path the panel drives
(the live pipeline's tap feeding a SignTeacher, then ``teach.finish``) on a real clip's frames."""

from __future__ import annotations

import sys
from pathlib import Path

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
    taught = [c.value for c in at.caption if c.value.startswith("Taught")]
    # The sign in words and the date as people write it (created without a zone: the server's time).
    assert taught == [
        "Taught on 1 December 2026 at 21:00: faire la moue — pout (lips pushed forward) (2 takes)"], taught
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
    assert message.startswith("Taught ouvrir la bouche") and "and saved." in message  # in words, not "mouth_open"
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


def _teach_script(model: str) -> None:
    """The Teach panel with a live camera stood in for; the teaching session it starts is a real
    SignTeacher fed with a real clip's frames (lp_d18 opening his mouth twice), so it is over as soon
    as the panel follows it."""
    import os
    import sys
    from pathlib import Path

    import streamlit as st
    from ui_camera_stand_in import stand_in_camera

    from trainer.ui import modes, recognition
    from trainer.ui.views import teach

    os.environ["ALUETTE_FACE_MODEL"] = model
    sys.path.insert(0, str(Path(teach.__file__).resolve().parents[3] / "tests" / "vision"))
    from personal_clips import recorded
    from test_teaching import D18_STEPS

    from trainer.vision.teaching import SignTeacher

    def fed_start(watcher, gestures, takes, created):
        shared = Path(model).parents[1]
        clip = recorded(str(shared / "gestures" / "sequence" / "lp_d18.mp4"), model)
        teacher = SignTeacher(D18_STEPS, created=created)
        for frame in clip.features:
            teacher.add(frame.features, frame.timestamp, frame.face)
        watcher.personal.teacher = teacher
        return teacher

    teach.start = fed_start
    stand_in_camera(lambda: recognition.make_watcher(st.session_state["settings"]))
    st.session_state["watcher"] = st.session_state["fake_watcher"]
    settings = st.session_state["settings"]
    teach.panel(settings, modes.input_mode(settings.camera))


def test_a_finished_teaching_replaces_no_signs_taught_yet(shared, data_home):
    """"No signs taught yet" stood beside "Taught … and saved." after a teaching: the status line now
    says what is taught when the teaching ends."""
    from personal_clips import face_model

    at = AppTest.from_function(_teach_script, args=(str(face_model(shared)),), default_timeout=300).run()
    assert not at.exception, at.exception
    assert [c.value for c in at.caption if c.value.startswith("No signs taught yet")]
    at.button(key="teach_start").click().run()
    assert not at.exception, at.exception
    captions = [c.value for c in at.caption]
    assert not [c for c in captions if c.startswith("No signs taught yet")], captions
    done = [s.value for s in at.success]
    assert done and done[0].startswith("Taught ouvrir la bouche") and "and saved." in done[0], done
    assert [c for c in captions if c.startswith("Taught on ") and "ouvrir la bouche" in c], captions


def test_a_refused_take_is_told_with_its_meter():
    """The page's words for a refused take: the reason, "try again", and the meter (0..1)."""
    from trainer.ui.views import teach
    from trainer.vision.takes import TakeCheck

    refused = TakeCheck(Gesture.BROWS_UP, False, 0.35, 1.05, 0.2, 0, None, "no clear raised brows in that take")
    assert teach.refusal(refused) == ("no clear raised brows in that take: try again", 0.35)
    assert teach.refusal(TakeCheck(Gesture.BROWS_UP, True, 1.7, 5.1, 0.2, 0, None)) is None
    assert teach.refusal(TakeCheck(Gesture.POUT, False, 3.0, 9.0, 0.9, 0, None, "x"))[1] == 1.0


def test_signs_left_out_of_a_teaching_are_named_in_words():
    """A sign none of whose takes was clear is named in the message as the person knows it, never by its
    gesture id."""
    from types import SimpleNamespace

    from trainer.ui.views import teach

    taught = SimpleNamespace(gesture=Gesture.MOUTH_OPEN)
    checks = [SimpleNamespace(gesture=Gesture.MOUTH_OPEN, accepted=True),
              SimpleNamespace(gesture=Gesture.BROWS_UP, accepted=False)]
    state = SimpleNamespace(result=SimpleNamespace(signs=(taught,)), checks=checks, frames=90, reliability=(),
                            error=None)
    watcher = SimpleNamespace(personal=SimpleNamespace(teacher=object(), model=None), use_profile=lambda _p: None)
    message = teach.finish(watcher, state, save=lambda _m: True)
    assert message.endswith("Not taught (no take showed it clearly): lever les sourcils — raise the eyebrows."), message
    assert "brows_up" not in message and "mouth_open" not in message
