"""Names, never codes: no page shows a gesture's id (``brows_up``, ``head_tilt``...) in any text a person
reads, under any convention, in the main area or the sidebar. The ids with an underscore are the ones
no person would write; the others (``wink``, ``pout``) are English words the glosses use."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from trainer.signals.conventions import CONVENTIONS
from trainer.signals.gestures import Gesture

APP = str(Path(__file__).resolve().parents[2] / "streamlit_app.py")
CODES = tuple(g.value for g in Gesture if "_" in g.value)
PAGES = ("practice", "play", "quiz", "rules")


def _texts(at: AppTest) -> list[str]:
    """Every text a person reads on the page: prose, notes, labels, the choices of a selectbox."""
    out: list[str] = []
    for kind in ("markdown", "caption", "info", "success", "warning", "error", "title", "header", "subheader"):
        out += [str(e.value) for e in getattr(at, kind)]
    for kind in ("button", "slider", "toggle", "radio", "checkbox", "number_input", "text_input", "expander"):
        out += [str(e.label) for e in getattr(at, kind)]
    for box in at.selectbox:
        out += [str(box.label), *map(str, box.options)]
    return out


@pytest.mark.parametrize("page", PAGES)
def test_no_page_shows_a_gesture_id(data_home, page):
    at = AppTest.from_file(APP, default_timeout=60)
    at.switch_page(f"trainer/ui/pages/{page}.py").run()
    seen: dict[str, list[str]] = {}
    for convention in CONVENTIONS:
        at.selectbox(key="opt_convention").select(convention).run()
        assert not at.exception, at.exception
        for text in _texts(at):
            for code in CODES:
                if code in text:
                    seen.setdefault(convention, []).append(text[:120])
    assert not seen, seen
