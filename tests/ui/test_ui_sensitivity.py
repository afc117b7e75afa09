"""Practice's sensitivity control: the person's threshold per sign is saved in the Store, the
session's recognizer (the watcher Practice and Play share) is built with it and follows a move at
once; the panel draws one marker per sign of the convention."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from streamlit.testing.v1 import AppTest

from trainer.signals.gestures import Gesture
from trainer.ui import persistence, recognition
from trainer.ui.settings import Settings
from trainer.ui.views import sensitivity

APP = str(Path(__file__).resolve().parents[2] / "streamlit_app.py")
WINK = Gesture.WINK


def _thresholds(watcher, t: float) -> dict:
    """The thresholds the session's recognizer used on a frame at ``t`` (what Practice's meter marks)."""
    watcher.analyse(np.zeros((48, 64, 3), dtype=np.uint8), t)
    report = [r for r in watcher.drain() if hasattr(r, "thresholds")][-1]
    return dict(report.thresholds)


def test_a_moved_marker_is_saved_and_used_by_the_running_recognizer_and_the_next_one(data_home):
    watcher = recognition.make_watcher(Settings())
    try:
        assert _thresholds(watcher, 0.0)[WINK] == 0.55
        sensitivity.change(WINK, 0.35, watcher)
        assert persistence.load_sensitivity().own(WINK) == 0.35
        assert _thresholds(watcher, 0.033)[WINK] == 0.35  # the running pipeline, at once
    finally:
        watcher.close()
    # A new session (Play after a restart) builds its recognizer with the saved threshold.
    again = recognition.make_watcher(Settings())
    try:
        assert _thresholds(again, 0.0)[WINK] == 0.35
        sensitivity.change(WINK, None, again)
        assert _thresholds(again, 0.033)[WINK] == 0.55 and persistence.load_sensitivity().own(WINK) is None
    finally:
        again.close()


def test_the_panel_shows_a_marker_per_sign_of_the_convention(data_home):
    persistence.save_sensitivity(sensitivity.current().with_threshold(WINK, 0.4))
    at = AppTest.from_file(APP, default_timeout=60)
    at.switch_page("trainer/ui/pages/practice.py").run()
    assert not at.exception, at.exception
    assert any(e.label == "Sensitivity: where each sign turns on" for e in at.expander)
    wink = next(s for s in at.slider if s.key == "sensitivity_wink")
    assert wink.value == 0.4 and "(default 0.55)" in wink.label
    wink.set_value(0.3).run()
    assert not at.exception, at.exception
    assert persistence.load_sensitivity().own(WINK) == 0.3


def test_markers_name_signs_in_words_and_start_a_taught_look_up_at_the_default_level(data_home):
    """Each marker says its sign and gesture in words, never a gesture id; a look-up the person taught
    starts at the default level (0.55), where the population's begins at 0.75, as the recognizer does."""
    from trainer.vision.personal import PersonalSigns, SignPrototype

    def look_up_marker():
        at = AppTest.from_file(APP, default_timeout=60)
        at.switch_page("trainer/ui/pages/practice.py").run()
        at.selectbox(key="opt_convention").select("regional").run()
        assert not at.exception, at.exception
        assert all("_" not in s.label for s in at.slider if s.key.startswith("sensitivity_")), \
            [s.label for s in at.slider]
        return next(s for s in at.slider if s.key == "sensitivity_look_up")

    marker = look_up_marker()
    assert marker.value == 0.75 and "regarder le ciel" in marker.label, marker.label
    taught = SignPrototype(Gesture.LOOK_UP, (20.0, 20.0), 0.5, 2, 40)
    persistence.save_personal(PersonalSigns(name="me", dims=("eyeLookUpLeft", "eyeLookUpRight"), neutral=(0.0, 0.0),
                                            spread=(0.03, 0.03), rest_energy=2.0, signs=(taught,)))
    assert look_up_marker().value == 0.55
