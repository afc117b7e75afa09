"""The Practice page: the app names a sign and shows how it is made, watches (live camera or an
uploaded clip or photo), and says at once whether it saw it, with the time to detect and the hold.
Calibration (neutral face), streaks and a history per sign, and the weak signs to practise next.

Wiring only: recognition is the vision layer's, judging and statistics are ``trainer.ui.drill``,
pictures are the deck's, persistence is the Store's.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import streamlit as st

from trainer.signals.conventions import Convention
from trainer.signals.gestures import GestureEvent, Side
from trainer.signals.signs import Sign
from trainer.ui import camera, drill, modes, persistence, recognition, render, state, uploads
from trainer.ui.settings import Handedness, Settings
from trainer.ui.watcher import CalibrationProgress, FrameReport, SignSeen, WatcherFailure

MAX_SEEN = 8
UPLOAD_TYPES = ("jpg", "jpeg", "png", "webp", "bmp", "mp4", "webm", "mov", "avi", "y4m")


def _convention(settings: Settings) -> Convention:
    return Convention.named(settings.convention)


def _signing_hand(settings: Settings) -> Side:
    return Side.RIGHT if settings.handedness is Handedness.RIGHT else Side.LEFT


def _history() -> list[drill.Attempt]:
    """Every attempt: the Store's (which already holds this session's), or this session's alone."""
    if persistence.store() is not None:
        return persistence.practice_history()
    return list(st.session_state["practice_log"])


def _table(settings: Settings) -> dict[Sign, drill.SignStats]:
    return drill.stats(_history(), drill.practicable_signs(_convention(settings)))


def _ask(sign: Sign) -> None:
    st.session_state["practice_target"] = sign
    watcher = st.session_state.get("watcher")
    # Time the drill on the camera's own clock: the last frame's timestamp when the sign is asked.
    st.session_state["practice_started"] = None if watcher is None else watcher.latest_timestamp
    st.session_state["practice_feedback"] = None


def _record(attempt: drill.Attempt) -> None:
    st.session_state["practice_log"].append(attempt)
    st.session_state["practice_feedback"] = attempt
    persistence.save_attempt(attempt)


def _on_event(event: GestureEvent, reported_at: float, settings: Settings, *, live: bool = True) -> None:
    """Log what was seen; if a sign is asked and not yet answered, judge the event against it."""
    seen = st.session_state["practice_seen"]
    sign = _convention(settings).sign_for(event.gesture)
    seen.append((event, sign))
    del seen[:-MAX_SEEN]
    target = st.session_state["practice_target"]
    feedback = st.session_state["practice_feedback"]
    if target is None or (feedback is not None and feedback.success):
        return
    attempt = drill.judge(
        target, event, reported_at=reported_at,
        # An uploaded file has its own clock: no time to detect, only the hold.
        asked_at=st.session_state["practice_started"] if live else None,
        convention=_convention(settings), signing_hand=_signing_hand(settings),
    )
    if attempt.success or sign is not None:  # a recognised sign other than the target is a miss
        _record(attempt)


def _describe(event: GestureEvent, sign: Sign | None, settings: Settings) -> str:
    what = render.sign_label(sign, settings.language) if sign else "no sign in this convention"
    side = f", {event.side.value} side" if event.side else ""
    count = f" ×{event.count}" if event.count > 1 else ""
    return f"{event.gesture.value}{count}{side} → **{what}** (held {event.duration:.2f} s, confidence {event.confidence:.2f})"


def _show_feedback(settings: Settings) -> None:
    attempt: drill.Attempt | None = st.session_state["practice_feedback"]
    if attempt is None:
        return
    timing = []
    if attempt.detect_s is not None:
        timing.append(f"detected {attempt.detect_s:.2f} s after it was asked")
    if attempt.hold_s is not None:
        timing.append(f"held {attempt.hold_s:.2f} s")
    timing_text = "; ".join(timing)
    if attempt.success:
        st.success(f"Seen: {render.sign_label(attempt.target, settings.language)} — {timing_text}. {attempt.note}",
                   icon=":material/check_circle:")
    else:
        other = render.sign_label(attempt.seen_sign, settings.language) if attempt.seen_sign else attempt.seen
        st.error(f"Not that one: I saw {other} ({attempt.seen.value if attempt.seen else '—'}). Try again.",
                 icon=":material/cancel:")


def _show_seen(settings: Settings) -> None:
    seen = st.session_state["practice_seen"]
    st.markdown("**Signs seen**")
    if not seen:
        st.caption("Nothing yet.")
    for event, sign in reversed(seen):
        st.markdown(f"- Seen: {_describe(event, sign, settings)}")


def _meters(report: FrameReport | None) -> None:
    if report is None:
        st.caption("Waiting for the first analysed frame…")
        return
    st.caption(
        f"{report.fps:.0f} frames/s analysed · face {'found' if report.face_found else 'not found'} · "
        f"hands {report.hands_found}"
    )
    bars = []
    thresholds = dict(report.thresholds)
    for gesture, score in report.scores:
        threshold = thresholds.get(gesture, 0.5)
        width = int(round(100 * min(1.0, max(0.0, score))))
        colour = "#2e7d32" if score >= threshold else "#90a4ae"
        bars.append(
            f'<div style="display:flex;align-items:center;gap:6px;font-size:12px">'
            f'<span style="width:90px">{gesture.value}</span>'
            f'<div style="position:relative;flex:1;height:10px;background:#eceff1">'
            f'<div style="width:{width}%;height:10px;background:{colour}"></div>'
            f'<div style="position:absolute;left:{100 * threshold:.0f}%;top:-2px;width:2px;height:14px;background:#d32f2f"></div>'
            f"</div></div>"
        )
    st.markdown("".join(bars), unsafe_allow_html=True)


def _on_calibration(report: CalibrationProgress) -> None:
    st.session_state["calibration"] = report
    if report.profile is not None:
        persistence.save_profile(report.profile)


def _take(reports: list, settings: Settings) -> None:
    """Apply the watcher's reports to this session's drill (page thread)."""
    for report in reports:
        if isinstance(report, FrameReport):
            st.session_state["practice_live"] = report
            if st.session_state["practice_target"] is not None and st.session_state["practice_started"] is None:
                # The sign was asked before the camera ran: time it from the first frame analysed.
                st.session_state["practice_started"] = report.timestamp
        elif isinstance(report, SignSeen) and not report.final:
            # Answer at once: the drill judges the event when it is confirmed, not when it ends.
            _on_event(report.event, report.reported_at, settings)
        elif isinstance(report, CalibrationProgress):
            _on_calibration(report)
        elif isinstance(report, WatcherFailure):
            st.session_state["practice_failure"] = report.message


def _live_panel(settings: Settings) -> None:
    """Feedback, signs seen and the live meters (redrawn by the watch loop)."""
    calibration = st.session_state["calibration"]
    if isinstance(calibration, CalibrationProgress):
        if calibration.error:
            st.error(f"Calibration failed: {calibration.error}")
        elif calibration.profile is None:
            st.progress(calibration.progress, text=f"Calibrating: keep a neutral face… ({calibration.frames} frames)")
        else:
            st.success(f"Calibrated from {calibration.frames} frames and saved; recognition now follows your face.")
    failure = st.session_state["practice_failure"]
    if failure:
        st.error(f"Recognition stopped: {failure}")
    _show_feedback(settings)
    _show_seen(settings)
    _meters(st.session_state["practice_live"])


def _ask_next(table: dict[Sign, drill.SignStats]) -> None:
    rng = random.Random(st.session_state["practice_seed"])
    _ask(drill.next_target(rng, table, avoid=st.session_state["practice_target"]))
    st.session_state["practice_seed"] = rng.random()


def _ask_chosen() -> None:
    chosen = st.session_state.get("practice_choose")
    if chosen is not None:
        _ask(chosen)


def _target_panel(settings: Settings, table: dict[Sign, drill.SignStats]) -> None:
    cols = st.columns(2)
    cols[0].button("Next sign", key="practice_next", type="primary", on_click=_ask_next, args=(table,))
    signs = drill.practicable_signs(_convention(settings))
    cols[1].selectbox(
        "or choose", (None,) + signs, key="practice_choose", on_change=_ask_chosen,
        format_func=lambda s: "—" if s is None else render.sign_label(s, settings.language),
    )
    target: Sign | None = st.session_state["practice_target"]
    if target is None:
        st.info("Press **Next sign** (or choose one) and make it in front of the camera or in a clip.")
        return
    convention = _convention(settings)
    gesture = convention.gesture_for(target)
    st.subheader(f"Make: {render.sign_label(target, settings.language)}")
    cards = ", ".join(c.code for c in target.cards) or target.english
    st.markdown(f"*Means:* {cards}. *How:* **{gesture.description}**.")
    alternatives = convention.gestures_for(target)[1:]
    if alternatives:
        st.caption("Also accepted: " + "; ".join(g.description for g in alternatives))
    picture = render.sign_svg(target, settings.convention, width=220, label=True)
    if picture is not None:
        render.show_svg(picture, width=220, title=gesture.value)
    else:
        render.unavailable(modes.Piece("sign drawings", False, "the drawn sign demonstrations (trainer.deck.sign_svg) are not in this build"))


def _upload_panel(settings: Settings) -> None:
    upload = st.file_uploader(
        "Upload a clip or a photo of yourself making the sign",
        type=list(UPLOAD_TYPES),
        key="practice_upload",
    )
    if upload is None:
        return
    marker = (upload.name, upload.size)
    if st.session_state["practice_upload_done"] == marker:
        return
    with st.spinner("Recognising…"):
        try:  # size, content type, pixel budget and every failure: one message (trainer.ui.uploads)
            result = uploads.analyse_upload(upload, persistence.load_profile())
        except ValueError as error:
            st.error(f"Could not read {upload.name}: {error}")
            return
    st.session_state["practice_upload_done"] = marker
    st.caption(
        f"{result.frames} frame(s) analysed; face {'found' if result.face_found else 'not found'}; hands {result.hands_found}."
    )
    if not result.events:
        st.warning("No sign recognised in this file.")
    for event in result.events:
        _on_event(event, event.end, settings, live=False)


def _history_panel(settings: Settings, table: dict[Sign, drill.SignStats]) -> None:
    st.subheader("Your signs")
    weak = drill.weak_signs(table)
    st.markdown("**Practise next:** " + ", ".join(render.sign_label(s, settings.language) for s in weak))
    # A markdown table, not st.dataframe: the first page must not pay for importing pandas.
    lines = ["| sign | tries | seen | success | streak | best time to detect |", "|---|---:|---:|---:|---:|---:|"]
    for s in table.values():
        best = "—" if s.best_detect_s is None else f"{s.best_detect_s:.2f} s"
        lines.append(f"| {render.sign_label(s.sign, settings.language)} | {s.tries} | {s.successes} | "
                     f"{round(100 * s.rate)}% | {s.streak} | {best} |")
    st.markdown("\n".join(lines))
    if not persistence.store_piece().available:
        render.unavailable(persistence.store_piece())


def _save_upload(upload, folder: str) -> Path:
    return uploads.save_upload(upload, folder)  # checked size and content, safe name


def _calibration_panel(settings: Settings, mode: modes.ModeReport) -> None:
    with st.expander("Calibrate (neutral face)", expanded=False):
        st.markdown(
            "Look at the camera with a relaxed, neutral face for three seconds (or upload a neutral "
            "photo or clip). Thresholds then follow your own face; without calibration the population "
            "defaults are used."
        )
        store = persistence.store_piece()
        if not store.available:
            render.unavailable(store)
            return
        if not modes.recognizer().available:
            st.caption("Calibration needs the recognizer, which is not available in this build.")
            return
        profile = persistence.load_profile()
        if profile is None:
            st.caption("Not calibrated: population defaults are in use.")
        else:
            st.caption(f"Calibrated {profile.created or ''} from {profile.frames} frame(s).")
            if st.button("Forget my calibration", key="calibration_forget"):
                persistence.forget_profile()
                watcher = st.session_state["watcher"]
                if watcher is not None:
                    watcher.use_profile(None)
                st.rerun()
        if mode.mode is modes.InputMode.LIVE_CAMERA:
            if st.button("Calibrate from the camera (3 s)", key="calibration_start"):
                watcher = st.session_state["watcher"]
                if watcher is not None:
                    watcher.start_calibration(recognition.new_calibrator(3.0), persistence.iso_now())
                    st.session_state["calibration"] = "running"
        upload = st.file_uploader("…or a neutral photo or clip", type=list(UPLOAD_TYPES), key="calibration_upload")
        if upload is not None and st.button("Calibrate from this file", key="calibration_from_file"):
            with tempfile.TemporaryDirectory() as folder:
                try:
                    made = recognition.profile_from_file(_save_upload(upload, folder), persistence.iso_now())
                except ValueError as error:
                    st.error(f"Calibration failed: {error}")
                    return
            persistence.save_profile(made)
            if st.session_state["watcher"] is not None:
                st.session_state["watcher"].use_profile(made)
            st.success(f"Calibrated from {upload.name} ({made.frames} frame(s) with a face) and saved.")


def show() -> None:
    settings = state.settings()
    st.title("Practice the signs")
    mode = modes.input_mode(settings.camera)
    st.info(f"**Mode: {mode.mode.value}.** {mode.why}", icon=":material/videocam:")
    if mode.mode is modes.InputMode.BUTTONS:
        st.caption("Practice needs recognition; meanwhile study how each sign is made below.")
    table = _table(settings)
    left, right = st.columns([3, 2])
    with right:
        _target_panel(settings, table)
    ctx = watcher = live_box = None
    with left:
        if mode.mode is modes.InputMode.LIVE_CAMERA:
            ctx, watcher = camera.settings_camera("practice-camera", settings)
            # Always the same slots whether the camera plays or not, so a rerun never leaves the
            # previous run's elements behind (greyed) while the watch loop keeps the script alive.
            status = st.empty()
            if not camera.is_playing(ctx):
                status.caption("Camera stopped: press START above (the browser asks for permission the first time).")
            live_box = st.empty()
            with live_box.container():
                _live_panel(settings)
        else:
            if mode.mode is modes.InputMode.UPLOAD:
                _upload_panel(settings)
            _show_feedback(settings)
            _show_seen(settings)
    _calibration_panel(settings, mode)
    _history_panel(settings, _table(settings))  # again: an upload above may have added an attempt
    if ctx is not None:
        def refresh(reports: list) -> None:
            attempts = len(st.session_state["practice_log"])
            _take(reports, settings)
            if len(st.session_state["practice_log"]) != attempts:
                st.rerun()  # a new attempt: redraw the history and the suggestions too
            with live_box.container():
                _live_panel(settings)

        camera.watch(ctx, watcher, refresh)  # last: the page stays here while the camera plays
