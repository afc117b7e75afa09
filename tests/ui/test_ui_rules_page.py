"""The Rules page under AppTest: summary, sign table of the chosen convention, cards by strength."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "streamlit_app.py")


def test_rules_page_follows_the_convention_chosen_in_the_sidebar(data_home):
    at = AppTest.from_file(APP, default_timeout=60)
    at.switch_page("trainer/ui/pages/rules.py").run()
    assert not at.exception, at.exception
    signs = next(m.value for m in at.markdown if m.value.startswith("| sign |"))
    assert "raise both eyebrows" in signs and "look up to the sky" not in signs
    at.selectbox(key="opt_convention").select("regional").run()
    signs = next(m.value for m in at.markdown if m.value.startswith("| sign |"))
    assert "look up to the sky" in signs
    # Each sign is drawn as its gesture under the convention chosen, named in words.
    assert 'title="regarder le ciel — look up to the sky"' in signs and "lever les sourcils" not in signs
    # What each sign means, by the cards' names, never their codes ("Monsieur 3D").
    monsieur = next(row for row in signs.splitlines() if row.startswith("| Monsieur |"))
    assert "| Monsieur (trois de deniers) |" in monsieur and "3D" not in monsieur, monsieur


def test_rules_page_lists_all_48_cards_with_pictures_in_strength_order(data_home):
    at = AppTest.from_file(APP, default_timeout=60)
    at.switch_page("trainer/ui/pages/rules.py").run()
    pictures = [m.value for m in at.markdown if "data:image/svg+xml" in m.value and not m.value.startswith("| sign |")]
    assert sum(p.count("<img") for p in pictures) == 48
    assert 'title="3D"' in pictures[0] and 'title="3E"' in pictures[-1]


def test_french_names_come_first_with_the_chosen_translation(data_home):
    from trainer.ui.settings import Language

    at = AppTest.from_file(APP, default_timeout=60)
    at.switch_page("trainer/ui/pages/rules.py").run()
    # Names, never codes: the code is only the picture's tooltip.
    first = next(m.value for m in at.markdown if m.value.startswith("luettes — "))
    assert first == "luettes — Monsieur (trois de deniers)"
    at.selectbox(key="opt_language").select(Language.ITALIAN).run()
    first = next(m.value for m in at.markdown if m.value.startswith("luettes — "))
    assert first == "luettes — Monsieur (trois de deniers) — tre di denari"
    at.selectbox(key="opt_language").select(Language.ENGLISH).run()
    first = next(m.value for m in at.markdown if m.value.startswith("luettes — "))
    assert first == "luettes — Monsieur (trois de deniers) — Mister"


def test_a_convention_that_gives_a_speech_made_gesture_a_sign_says_so_where_it_is_chosen(data_home):
    """Speech and laughter make grimaces and head tilts: the sidebar says, in words, under a convention
    that gives them a card or misère, that they count only when held (and nothing under the classic one)."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.switch_page("trainer/ui/pages/rules.py").run()
    notes = lambda: [c.value for c in at.sidebar.caption if c.value.startswith("Speech and laughter")]  # noqa: E731
    assert notes() == []
    at.selectbox(key="opt_convention").select("camera_friendly").run()
    assert notes() == ["Speech and laughter imitate faire la grimace — grimace (misère): in this convention it "
                       "counts only when held 1 s."]
    at.selectbox(key="opt_convention").select("regional").run()
    assert "pencher la tête — tilt the head (Madame) and faire la grimace — grimace (misère)" in notes()[0]
    assert "_" not in notes()[0]  # no gesture id (head_tilt)
    # Each convention is listed with what talking makes it send.
    from trainer.ui.sidebar import TALKING_FALSE_SIGNS, convention_label

    assert set(TALKING_FALSE_SIGNS) == {"classic", "regional", "camera_friendly"}
    talking = TALKING_FALSE_SIGNS["regional"]
    assert convention_label("regional").endswith(f"· {talking:.1f} false signs/min while talking")
