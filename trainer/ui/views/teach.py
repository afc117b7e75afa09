"""Practice's "teach your signs" panel: a few seconds of neutral face, a few seconds of talking,
then 2-3 takes of each face sign of the chosen convention, with progress; the taught signs are saved in
the Store and used by Practice and Play (``recognition.PersonalState`` on the session's watcher).

The teaching itself is the vision layer's ``SignTeacher``, fed by the live pipeline on the camera
thread (``recognition._TeachingTap``); this module only starts it, follows its progress and saves the
result (``finish``, testable without a browser).
"""

from __future__ import annotations

import time
from typing import Any

import streamlit as st

from trainer.signals.conventions import Convention
from trainer.signals.gestures import Gesture
from trainer.ui import modes, persistence, recognition, render
from trainer.ui.settings import Language, Settings

POLL_S = 0.25
NO_FRAMES_S = 5.0


def teachable_gestures(settings: Settings) -> tuple[Gesture, ...]:
    """The face signs of the chosen convention, in its order (hand signs keep the built-in recognizer)."""
    from trainer.vision.personal import teachable

    return tuple(g for g in Convention.named(settings.convention).gestures if teachable(g))


def start(watcher: Any, gestures: tuple[Gesture, ...], takes: int, created: str) -> Any:
    """Begin a teaching session on ``watcher``: from the next frame on, the pipeline runs the Tasks
    face backend and hands every frame's features to a new SignTeacher (returned)."""
    from trainer.vision.teaching import SignTeacher, schedule

    teacher = SignTeacher(schedule(gestures, takes=takes), created=created)
    watcher.personal.teacher = teacher
    watcher.use_profile(persistence.load_profile())  # rebuild the pipeline around the tap
    return teacher


def finish(watcher: Any, teacher_state: Any, save=persistence.save_personal,
           language: Language = Language.FRENCH) -> str:
    """End the session: on success save the taught signs, use them from the next frame on, and say
    so (the signs in words); else say why. Returns the message (an error message starts with
    "Teaching failed")."""
    state = watcher.personal
    state.teacher = None
    if teacher_state.result is None:
        watcher.use_profile(persistence.load_profile())
        return f"Teaching failed: {teacher_state.error or 'no result'}. Try again."
    state.model = teacher_state.result
    saved = save(teacher_state.result)
    watcher.use_profile(persistence.load_profile())
    taught = ", ".join(render.gesture_label(s.gesture, language) for s in teacher_state.result.signs)
    message = (f"Taught {taught} from {teacher_state.frames} frames"
               + (" and saved." if saved else " (not saved: no Store)."))
    left_out = sorted(render.gesture_label(g, language) for g in
                      {c.gesture for c in teacher_state.checks if not c.accepted}
                      - {s.gesture for s in teacher_state.result.signs})
    if left_out:
        message += f" Not taught (no take showed it clearly): {', '.join(left_out)}."
    if teacher_state.reliability:
        reliability = "; ".join(r.describe() for r in teacher_state.reliability)
        message += f" How reliably each will be seen: {reliability}."
    return message


def refusal(check: Any) -> tuple[str, float] | None:
    """What to tell about a refused take (the reason, "try again"), with its meter (0..1: how much of
    the bar the take reached); None for an accepted one."""
    if check is None or check.accepted:
        return None
    return check.message(), max(0.0, min(1.0, check.meter))


def taught_text(model: Any, language: Language) -> str:
    """What is taught now, in words and with a date as people write it."""
    when = f" on {render.human_date(model.created)}" if model.created else ""
    return f"Taught{when}: " + ", ".join(
        f"{render.gesture_label(s.gesture, language)} ({s.takes} take{'s' if s.takes != 1 else ''})"
        for s in model.signs)


def _status(model: Any, language: Language) -> None:
    if model is None:
        st.caption("No signs taught yet: the built-in recognizer is used for every sign.")
    else:
        st.caption(taught_text(model, language))


def _follow(watcher: Any, teacher: Any, language: Language, status: Any) -> None:
    """Show the prompt and progress until the session ends (the camera thread feeds the teacher);
    then the outcome, and the status line above (``status``, a placeholder) says what is taught now."""
    bar = st.progress(0.0, text="Starting…")
    verdict = st.empty()
    last_frames, last_change = -1, time.monotonic()
    shown = 0
    while True:
        state = teacher.state()
        bar.progress(state.progress, text=f"Step {state.step}/{state.steps}: {state.prompt}")
        if len(state.checks) != shown:
            shown = len(state.checks)
            refused = refusal(state.last_check)
            with verdict.container():
                if refused is None:
                    st.caption(f"Take kept ({render.gesture_label(state.last_check.gesture, language)}).")
                else:
                    text, meter = refused
                    st.warning(f"Take refused: {text}.", icon=":material/replay:")
                    st.progress(meter, text=f"That take reached {100 * meter:.0f} % of a clear sign")
        if state.done:
            break
        if state.frames != last_frames:
            last_frames, last_change = state.frames, time.monotonic()
        elif time.monotonic() - last_change > NO_FRAMES_S:
            watcher.personal.teacher = None
            st.error("No face frames are coming: start the camera (press START above), face it, and try again.")
            return
        time.sleep(POLL_S)
    message = finish(watcher, state, language=language)
    (st.error if message.startswith("Teaching failed") else st.success)(message)
    with status.container():  # the line drawn before teaching began now says what is taught
        _status(persistence.load_personal() or getattr(watcher.personal, "model", None), language)


def panel(settings: Settings, mode: modes.ModeReport) -> None:
    with st.expander("Teach your signs", expanded=False):
        st.markdown(
            "Make the signs your own way: hold a neutral face for a few seconds, talk for a few "
            "seconds (so speech is not taken for a sign), then make each face sign two or three times "
            "when asked. The recognizer then knows *your* signs; hand signs "
            "keep the built-in recognizer. From your own clips: `aluette enroll` (docs/vision-personal.md)."
        )
        store = persistence.store_piece()
        if not store.available:
            st.caption(f"Taught signs cannot be saved: {store.reason}")
            return
        if not modes.recognizer().available:
            st.caption("Teaching needs the recognizer, which is not available in this build.")
            return
        model = persistence.load_personal()
        status = st.empty()  # one line, replaced when a teaching ends
        with status.container():
            _status(model, settings.language)
        if model is not None:
            if st.button("Forget my taught signs", key="teach_forget"):
                persistence.forget_personal()
                watcher = st.session_state.get("watcher")
                if watcher is not None and hasattr(watcher, "personal"):
                    watcher.personal.model = None
                    watcher.use_profile(persistence.load_profile())
                st.rerun()
        if not recognition.face_model_available():
            st.caption("Teaching needs the face model face_landmarker.task (set $ALUETTE_FACE_MODEL or put it "
                       "in your data folder).")
            return
        if mode.mode is not modes.InputMode.LIVE_CAMERA:
            st.caption("Teaching from the app needs the live camera; with clips, use `aluette enroll`.")
            return
        options = teachable_gestures(settings)
        chosen = st.multiselect("Signs to teach", options, default=list(options), key="teach_signs",
                                format_func=lambda g: render.gesture_label(g, settings.language))
        takes = st.radio("Takes of each sign", (2, 3), horizontal=True, key="teach_takes")
        watcher = st.session_state.get("watcher")
        if watcher is not None and not hasattr(watcher, "personal"):
            watcher = None  # a watcher not built by recognition.make_watcher: it cannot feed a teacher
        if watcher is None:
            st.caption("Start the camera above first.")
        if st.button("Start teaching", key="teach_start", disabled=not chosen or watcher is None):
            teacher = start(watcher, tuple(chosen), int(takes or 2), persistence.iso_now())
            _follow(watcher, teacher, settings.language, status)
