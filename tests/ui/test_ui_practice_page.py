"""The Practice page under Streamlit's AppTest, camera switched off, driven by its widgets."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from trainer.signals.signs import Sign
from trainer.ui import drill, persistence

APP = str(Path(__file__).resolve().parents[2] / "streamlit_app.py")


def _practice() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.switch_page("trainer/ui/pages/practice.py").run()
    assert not at.exception, at.exception
    return at


def test_choosing_a_sign_names_it_and_shows_how_it_is_made(data_home):
    at = _practice()
    assert any("Mode:" in i.value and "live camera" not in i.value.split(".")[0] for i in at.info)
    at.selectbox(key="practice_choose").select(Sign.MADAME).run()
    assert not at.exception, at.exception
    assert [h.value for h in at.subheader][0] == "Make: Madame"
    assert any("raise one corner of the lips" in m.value for m in at.markdown)
    # What the sign means, by the card's name, never its code.
    means = [m.value for m in at.markdown if m.value.startswith("*Means:*")]
    assert means and "Madame (trois de coupe)" in means[0] and "3C" not in means[0], means
    # The drawn demonstration is the deck's picture of that gesture.
    assert any("data:image/svg+xml;base64" in m.value for m in at.markdown)


def test_next_sign_asks_a_weak_sign(data_home):
    at = _practice()
    at.button(key="practice_next").click().run()
    assert not at.exception, at.exception
    asked = at.session_state["practice_target"]
    assert isinstance(asked, Sign)
    assert at.subheader[0].value.startswith("Make: ")


def test_history_and_streaks_come_from_the_store(data_home):
    from trainer.storage import Store

    with Store.open() as store:
        for success in (True, False, True, True):
            store.append(persistence.PRACTICE_KIND,
                         persistence.attempt_to_json(drill.Attempt(Sign.BORGNE, success, detect_s=0.7)), time=1.0)
    at = _practice()
    history = next(m.value for m in at.markdown if m.value.startswith("| sign | tries |"))
    borgne = next(line for line in history.splitlines() if line.startswith("| le Borgne |"))
    assert [cell.strip() for cell in borgne.split("|")[2:7]] == ["4", "3", "75%", "2", "0.70 s"]
    # le Borgne has been practised, so it is not among the weak signs suggested first.
    suggestion = next(m.value for m in at.markdown if m.value.startswith("**Practise next:**"))
    assert "le Borgne" not in suggestion


def test_attempts_round_trip_through_the_json_the_store_keeps():
    attempt = drill.Attempt(Sign.AS, True, count=2, detect_s=0.4, hold_s=0.3, note="x")
    assert persistence.attempt_from_json(persistence.attempt_to_json(attempt)) == attempt


def test_a_damaged_database_is_reported_and_left_untouched(data_home):
    data_home.mkdir(parents=True, exist_ok=True)
    from trainer.storage import default_path

    path = default_path()
    path.write_bytes(b"this is not a database" * 100)
    before = path.read_bytes()
    at = _practice()
    assert any("progress database cannot be used" in w.value for w in at.warning)
    quiz = AppTest.from_file(APP, default_timeout=60)
    quiz.switch_page("trainer/ui/pages/quiz.py").run()
    assert not quiz.exception, quiz.exception
    assert any("progress database cannot be used" in w.value for w in quiz.warning)
    assert path.read_bytes() == before


@pytest.mark.vision
def test_an_uploaded_photo_answers_the_drill_and_is_saved(data_home, gestures_dir):
    from trainer.ui.fakecam import MOUTH_OPEN_PHOTO, NEUTRAL_PHOTO

    at = _practice()
    assert any(i.value.startswith("**Mode: clip or photo upload.**") for i in at.info)
    at.selectbox(key="practice_choose").select(Sign.AS).run()
    photo = (gestures_dir / MOUTH_OPEN_PHOTO).read_bytes()
    at.file_uploader(key="practice_upload").upload("mouth.jpg", photo, "image/jpeg").run()
    assert not at.exception, at.exception
    assert at.success and at.success[0].value.startswith("Seen: un as")
    # The gesture in words, never its id.
    assert any("ouvrir la bouche" in m.value and "un as" in m.value for m in at.markdown)
    assert not [m.value for m in at.markdown if "mouth_open" in m.value]
    assert persistence.attempt_from_json(_saved_attempts()[-1]).success

    # Calibration from a neutral photo is saved as the user's profile.
    neutral = (gestures_dir / NEUTRAL_PHOTO).read_bytes()
    at.file_uploader(key="calibration_upload").upload("neutral.jpg", neutral, "image/jpeg").run()
    at.button(key="calibration_from_file").click().run()
    assert not at.exception, at.exception
    assert any(s.value.startswith("Calibrated from neutral.jpg") for s in at.success)
    # Said once, for the state now: not "Not calibrated" beside it.
    assert not [c.value for c in at.caption if c.value.startswith("Not calibrated")]
    profile = persistence.load_profile()
    assert profile is not None and profile.frames == 1


def _saved_attempts() -> list:
    from trainer.storage import Store

    with Store.open() as store:
        return [entry.record for entry in store.records(persistence.PRACTICE_KIND)]


@pytest.mark.vision
def test_one_attempt_counts_once(data_home, gestures_dir):
    from trainer.ui.fakecam import MOUTH_OPEN_PHOTO

    at = _practice()
    at.selectbox(key="practice_choose").select(Sign.AS).run()
    at.file_uploader(key="practice_upload").upload("mouth.jpg", (gestures_dir / MOUTH_OPEN_PHOTO).read_bytes(),
                                                   "image/jpeg").run()
    history = next(m.value for m in at.markdown if m.value.startswith("| sign | tries |"))
    row = next(line for line in history.splitlines() if line.startswith("| un as |"))
    assert [cell.strip() for cell in row.split("|")[2:4]] == ["1", "1"]
    assert len(_saved_attempts()) == 1


def test_an_uploaded_clip_that_begins_on_a_sign_says_so(data_home, clip_head):
    """A clip cut on the sign (tongue_res2: the tongue out from its first frame) gives no event, since a
    sign is read from a still face; the page says why and how to film it, in words."""
    clip = clip_head("tongue_out/tongue_res2_webcam.mp4", 40, 24.0, size=(320, 240))
    at = _practice()
    at.selectbox(key="practice_choose").select(Sign.AS).run()
    at.file_uploader(key="practice_upload").upload("tongue.y4m", clip.read_bytes(), "video/x-yuv4mpeg").run()
    assert not at.exception, at.exception
    notes = [i.value for i in at.info if i.value.startswith("The clip begins with a sign already made")]
    assert notes and "stick out the tongue" in notes[0] and "tongue_out" not in notes[0], [i.value for i in at.info]
