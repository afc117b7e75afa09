"""Practice's sensitivity control: for each sign of the chosen convention, the person's own threshold,
a marker they move against the live meter above it (the meter's red tick is where the sign turns on).

Saved in the Store with the person's other records and used by the session's recognizer at once, in
Practice and Play alike (``recognition.use_sensitivity``). The values and their use are the vision
layer's (``trainer.vision.sensitivity``); this module only draws the sliders and passes them on
(``change``, testable without a browser).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from trainer.signals.conventions import Convention
from trainer.signals.gestures import Gesture
from trainer.ui import modes, persistence, recognition, render
from trainer.ui.settings import Settings

STEP = 0.05


def _key(gesture: Gesture) -> str:
    return f"sensitivity_{gesture.value}"


def current() -> Any:
    """The saved thresholds (an empty Sensitivity when none is saved)."""
    from trainer.vision.sensitivity import Sensitivity

    return persistence.load_sensitivity() or Sensitivity()


def change(gesture: Gesture, value: float | None, watcher: Any = None, save=persistence.save_sensitivity) -> Any:
    """Set ``gesture``'s threshold (None: back to the recognizer's), save it, and hand it to the
    session's recognizer; returns the new Sensitivity."""
    sensitivity = current().with_threshold(gesture, value)
    save(sensitivity)
    if watcher is not None:
        recognition.use_sensitivity(watcher, sensitivity)
    return sensitivity


def _moved(gesture: Gesture) -> None:
    change(gesture, st.session_state[_key(gesture)], st.session_state.get("watcher"))


def _reset() -> None:
    from trainer.vision.sensitivity import Sensitivity

    persistence.save_sensitivity(Sensitivity())
    watcher = st.session_state.get("watcher")
    if watcher is not None:
        recognition.use_sensitivity(watcher, Sensitivity())
    for key in [k for k in st.session_state if str(k).startswith("sensitivity_")]:
        del st.session_state[key]


def default_levels() -> Any:
    """The recognizer's levels each marker starts from, as the session's recognizer sets them: a sign
    the person taught begins at the default level on their own scale (vision's ``with_taught``)."""
    from trainer.vision.recognizer import RecognizerConfig, with_taught

    personal = persistence.load_personal()
    return with_taught(RecognizerConfig(), personal.gestures if personal is not None else ())


def panel(settings: Settings) -> None:
    with st.expander("Sensitivity: where each sign turns on", expanded=False):
        st.markdown(
            "Move a sign's marker down if the meter never reaches it when you make the sign plainly, up if "
            "talking or laughing sets it off. Practice and Play use your markers at once; they are saved."
        )
        if not persistence.store_piece().available or not modes.recognizer().available:
            st.caption("Needs the recognizer and a place to save (see the status above).")
            return
        from trainer.vision.sensitivity import HIGHEST, LOWEST

        saved, defaults = current(), default_levels()
        for gesture in Convention.named(settings.convention).gestures:
            sign = Convention.named(settings.convention).sign_of(gesture)
            default = defaults.timing(gesture).enter
            own = saved.own(gesture)
            st.slider(
                f"{render.sign_label(sign, settings.language)} · {render.gesture_label(gesture, settings.language)}"
                + ("" if own is None else f" (default {default:.2f})"),
                min_value=LOWEST, max_value=HIGHEST, value=float(own if own is not None else default), step=STEP,
                key=_key(gesture), on_change=_moved, args=(gesture,),
            )
        st.button("Back to the defaults", key="sensitivity_reset", on_click=_reset)
