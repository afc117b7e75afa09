"""The Practice page: the app names a sign and shows how it is made, watches (live camera or an
uploaded clip or photo), and says at once whether it saw it, with the time it took and the hold.
Calibration (neutral face), streaks and a history per sign, and the weak signs to practise next.

On the live camera a *try* runs from the ask to a verdict (the asked sign seen) or a timeout
(``trainer.ui.tries``); other gestures seen meanwhile are listed with their times, never counted as
failures. The live part of the page is a camera fragment (``camera.pump``) that reruns only itself.

Wiring only: recognition is the vision layer's, judging and statistics are ``trainer.ui.drill``,
pictures are the deck's, persistence is the Store's.
"""

from __future__ import annotations

import html
import random
import tempfile
from pathlib import Path

import streamlit as st

from trainer.signals.conventions import Convention
from trainer.signals.gestures import GestureEvent, Side
from trainer.signals.signs import Sign
from trainer.ui import camera, drill, modes, persistence, recognition, render, state, tries, uploads
from trainer.ui.page_state import SeenGesture
from trainer.ui.settings import Handedness, Settings
from trainer.ui.views import catch, sensitivity, teach
from trainer.ui.watcher import CalibrationProgress, FrameReport, GestureReport, WatcherFailure

MAX_SEEN = 8
CALIBRATION_SECONDS = 3.0
HISTORY_SECONDS = 1.0
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


def _held(sign: Sign) -> GestureEvent | None:
    """The newest gesture making ``sign`` that the camera confirmed and has not seen end: the person
    is making the sign as it is asked."""
    convention = _convention(state.settings())
    held = [e for e in st.session_state["practice_open"] or () if convention.sign_for(e.gesture) is sign]
    return held[-1] if held else None


def _ask(sign: Sign) -> None:
    st.session_state["practice_target"] = sign
    watcher = st.session_state.get("watcher")
    # Timed on the camera's own clock from the last frame analysed when the sign is asked (or from
    # the first frame after it, when the camera is not running yet).
    now = None if watcher is None else watcher.latest_timestamp
    st.session_state["practice_try"] = tries.ask(sign, now, held=_held(sign))
    st.session_state["practice_started"] = now
    st.session_state["practice_feedback"] = None


def _record(attempt: drill.Attempt) -> None:
    st.session_state["practice_log"].append(attempt)
    st.session_state["practice_feedback"] = attempt
    persistence.save_attempt(attempt)


def _note_seen(event: GestureEvent, reported_at: float, settings: Settings) -> None:
    """List a recognised gesture (once: its end replaces its confirmation), newest last."""
    seen: list[SeenGesture] = st.session_state["practice_seen"]
    # Read as the table reads a camera's gesture: a sign only when held as long as the convention asks.
    made = _convention(settings).read(event)
    seen[:] = [s for s in seen if not (s.event.gesture is event.gesture and s.event.start == event.start)]
    seen.append(SeenGesture(event, made, reported_at))
    del seen[:-MAX_SEEN]


def _note_open(report: GestureReport) -> None:
    """Keep the gestures confirmed and not yet ended (a sign held when the next one is asked)."""
    event = report.event
    still = [e for e in st.session_state["practice_open"] or ()
             if not (e.gesture is event.gesture and e.start == event.start)]
    if not report.final:
        still.append(event)
    st.session_state["practice_open"] = still[-MAX_SEEN:]


def _on_upload_events(events: tuple[GestureEvent, ...], settings: Settings) -> None:
    """A clip or photo is one try: a success if any of its gestures makes the asked sign."""
    for event in events:
        _note_seen(event, event.end, settings)
    target = st.session_state["practice_target"]
    if target is None or not events:
        return
    convention = _convention(settings)
    judged = [drill.judge(target, e, reported_at=e.end, asked_at=None, convention=convention,
                          signing_hand=_signing_hand(settings)) for e in events]
    hit = next((a for a in judged if a.success), None)
    _record(hit if hit is not None else judged[0])


def _describe(event: GestureEvent, sign: Sign | None, settings: Settings, when: str = "") -> str:
    hold = _convention(settings).hold(event.gesture)
    what = (render.sign_label(sign, settings.language) if sign
            else f"no sign: hold it {hold:g} s" if hold else "no sign in this convention")
    count = f" ×{event.count}" if event.count > 1 else ""
    return (f"{when}{render.gesture_label(event.gesture, settings.language)}{count}"
            f"{render.side_label(event.side)} → **{what}** "
            f"(held {event.duration:.2f} s, confidence {event.confidence:.2f})")


def _show_feedback(settings: Settings) -> None:
    attempt: drill.Attempt | None = st.session_state["practice_feedback"]
    current: tries.Try | None = st.session_state["practice_try"]
    if attempt is None and current is not None and current.seen is not None:
        took = current.took_s
        st.success(f"Seen: {render.sign_label(current.target, settings.language)} — recognised "
                   f"{took:.2f} s after it was asked. Hold it, then relax: the hold is timed.",
                   icon=":material/check_circle:")
        return
    if attempt is None:
        return
    label = render.sign_label(attempt.target, settings.language)
    if attempt.success:
        timing = []
        if attempt.detect_s is not None:
            timing.append(f"recognised {attempt.detect_s:.2f} s after it was asked")
        if attempt.hold_s is not None:
            timing.append(f"held {attempt.hold_s:.2f} s")
        note = f" {attempt.note}." if attempt.note else ""
        st.success(f"Seen: {label} — {', '.join(timing) or 'in the file'}.{note}", icon=":material/check_circle:")
    elif attempt.seen is None:
        st.error(f"Not seen: {label} ({attempt.note}). **Try again**, or press **Next sign**.",
                 icon=":material/timer_off:")
    else:
        how = render.gesture_label(attempt.seen, settings.language)
        other = render.sign_label(attempt.seen_sign, settings.language) if attempt.seen_sign else "no sign"
        st.error(f"Not that one: I saw {other} ({how}). Try again.", icon=":material/cancel:")


def _show_seen(settings: Settings) -> None:
    seen: list[SeenGesture] = st.session_state["practice_seen"]
    st.markdown("**Signs seen**")
    if not seen:
        st.caption("Nothing yet.")
    origin = st.session_state["practice_started"]  # when the latest sign was asked (camera clock)
    for entry in reversed(seen):
        event, sign = entry.event, entry.sign
        # When the gesture began, counted from the ask.
        when = f"+{event.start - origin:.1f} s · " if origin is not None and event.start >= origin else ""
        st.markdown(f"- {_describe(event, sign, settings, when)}")


def _meters(report: FrameReport | None, settings: Settings) -> None:
    """One meter per gesture of the chosen convention (its sign named), the threshold marked."""
    if report is None:
        st.caption("Waiting for the first analysed frame…")
        return
    st.caption(
        f"{report.fps:.0f} frames/s analysed · face {'found' if report.face_found else 'not found'} · "
        f"hands {report.hands_found}"
    )
    starved = camera.starved_notice(report.fps, report.frames)
    if starved:
        st.warning(starved, icon=":material/speed:")
    if report.head_turning:
        st.caption("Your head is turning: a face sign begins once your head is still.")
    convention = _convention(settings)
    used = set(convention.gestures)
    bars = []
    thresholds = dict(report.thresholds)
    for gesture, score in report.scores:
        if gesture not in used:
            continue
        sign = convention.sign_of(gesture)
        threshold = thresholds.get(gesture, 0.5)
        width = int(round(100 * min(1.0, max(0.0, score))))
        colour = "#2e7d32" if score >= threshold else "#90a4ae"
        bars.append(
            f'<div style="display:flex;align-items:center;gap:6px;font-size:12px">'
            f'<span style="width:190px" title="{html.escape(render.gesture_label(gesture, settings.language))}">'
            f'{html.escape(render.sign_label(sign, settings.language))}{_alternative(gesture, convention)}</span>'
            f'<div style="position:relative;flex:1;height:10px;background:#eceff1">'
            f'<div style="width:{width}%;height:10px;background:{colour}"></div>'
            f'<div style="position:absolute;left:{100 * threshold:.0f}%;top:-2px;width:2px;height:14px;'
            'background:#d32f2f"></div>'
            f"</div></div>"
        )
    st.markdown("".join(bars), unsafe_allow_html=True)


def _alternative(gesture, convention: Convention) -> str:
    """" (2nd way)" on the meter of a sign's alternative gesture, so that a sign's two meters are
    told apart (the gesture itself in words is the label's tooltip)."""
    way = convention.gestures_for(convention.sign_of(gesture)).index(gesture)
    return "" if way == 0 else f" ({way + 1}{'nd' if way == 1 else 'rd' if way == 2 else 'th'} way)"


human_date = render.human_date  # the calibration's and the taught signs' dates, as people write them


def _on_calibration(report: CalibrationProgress) -> None:
    st.session_state["calibration"] = report
    if report.profile is not None:
        persistence.save_profile(report.profile)


def _take(reports: list, settings: Settings) -> None:
    """Apply the watcher's reports to this session's try (page thread)."""
    convention, hand = _convention(settings), _signing_hand(settings)
    for report in reports:
        current: tries.Try | None = st.session_state["practice_try"]
        step = None
        if isinstance(report, FrameReport):
            st.session_state["practice_live"] = report
            limits = dict(report.thresholds)
            active = frozenset(g for g, score in report.scores if score >= limits.get(g, 0.5))
            # Gestures begun too long ago to answer an ask (tries.BEFORE_MAX_S) are forgotten: their
            # end may never reach this page (drained on another page). So are those of a stream that
            # stopped: their end never comes, and the session clock skips the pause between streams.
            since = max(report.stream_start, report.timestamp - tries.BEFORE_MAX_S)
            st.session_state["practice_open"] = [e for e in st.session_state["practice_open"] or ()
                                                 if e.start >= since]
            if current is not None:
                current = tries.stream_began(current, report.stream_start)
                step = tries.on_frame(current, report.timestamp, convention=convention, signing_hand=hand,
                                      active=active)
        elif isinstance(report, GestureReport):
            _note_seen(report.event, report.reported_at, settings)
            _note_open(report)
            if current is not None:
                step = tries.on_event(current, report.event, report.reported_at, final=report.final,
                                      convention=convention, signing_hand=hand)
        elif isinstance(report, CalibrationProgress):
            _on_calibration(report)
        elif isinstance(report, WatcherFailure):
            st.session_state["practice_failure"] = report.message
        if step is not None:
            st.session_state["practice_try"] = step.current
            if step.current is not None and step.current.asked_at is not None:
                st.session_state["practice_started"] = step.current.asked_at  # kept past the verdict
            if step.attempt is not None:
                _record(step.attempt)


def _calibration_status(profile) -> None:
    """The one line about the calibration, for its state now: in progress, failed, done (in this
    session or before) or none. Drawn in a fragment redrawn while the camera is on, so a calibration
    finished by the camera replaces "Not calibrated" instead of being said beside it."""
    calibration = st.session_state["calibration"]
    if isinstance(calibration, CalibrationProgress):
        if calibration.error:
            st.error(f"Calibration failed: {calibration.error}")
            return
        if calibration.profile is None:
            done = calibration.progress * CALIBRATION_SECONDS
            st.progress(calibration.progress,
                        text=f"Calibrating: keep a relaxed, neutral face… "
                             f"{done:.1f} s of {CALIBRATION_SECONDS:g} s ({calibration.frames} frames)")
            return
        profile = calibration.profile
    if profile is None:
        st.caption("Not calibrated: population defaults are in use.")
        return
    when = f" on {human_date(profile.created)}" if profile.created else ""
    frames = f"{profile.frames} frame{'s' if profile.frames != 1 else ''}"
    if isinstance(calibration, CalibrationProgress) and calibration.profile is profile:
        st.success(f"Calibrated{when} from {frames} over {CALIBRATION_SECONDS:g} s and saved; "
                   "recognition now follows your face.")
    else:
        st.caption(f"Calibrated{when} from {frames}.")


def _live_panel(settings: Settings, reports: list) -> None:
    """The camera fragment's body: apply the new reports, then draw the try, the signs seen, meters."""
    _take(reports, settings)
    live = camera.current()
    if live is None or not live.playing:
        st.caption("Camera stopped: press START in the sidebar (the browser asks for permission the first "
                   "time). It then stays on across pages until you press STOP. Start with a still face: a "
                   "face sign already made as the camera starts counts once you make it again.")
    failure = st.session_state["practice_failure"]
    if failure:
        st.error(f"Recognition stopped: {failure}")
    current: tries.Try | None = st.session_state["practice_try"]
    report: FrameReport | None = st.session_state["practice_live"]
    if current is not None and current.seen is None and current.asked_at is not None and report is not None:
        waited = max(0.0, report.timestamp - current.asked_at)
        st.caption(f"Watching for {render.sign_label(current.target, settings.language)}: "
                   f"{waited:.1f} s of {tries.TIMEOUT_S:g} s. A sign you are already making counts once "
                   f"you have held it {tries.HOLD_AFTER_S:g} s after the ask.")
    _show_feedback(settings)
    _show_seen(settings)
    st.markdown("**Meters** (the signs of your convention; red tick: where a sign turns on, yours to move "
                "under *Sensitivity* below; it rises while you talk and for a moment after, since speech "
                "makes some signs' shapes too)")
    _meters(report, settings)


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
    # Outside the camera fragment, which redraws a few times a second and could swallow a click.
    st.button("Try again", key="practice_again", on_click=_ask, args=(target,),
              help="The same sign again: a new try, timed from now.")
    convention = _convention(settings)
    gesture = convention.gesture_for(target)
    st.subheader(f"Make: {render.sign_label(target, settings.language)}")
    cards = render.cards_label(target.cards, settings.language) or target.english
    st.markdown(f"*Means:* {cards}. *How:* **{gesture.description}**.")
    alternatives = convention.gestures_for(target)[1:]
    if alternatives:
        st.caption("Also accepted: " + "; ".join(g.description for g in alternatives))
    picture = render.sign_svg(target, settings.convention, width=220, label=True)
    render.show_svg(picture, width=220, title=render.gesture_label(gesture, settings.language))


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
        f"{result.frames} frame(s) analysed; face {'found' if result.face_found else 'not found'}; "
        f"hands {result.hands_found}."
    )
    if not result.events:
        st.warning("No sign recognised in this file.")
    if result.shown_at_start:
        made = "; ".join(g.description for g in result.shown_at_start)
        st.info(f"The clip begins with a sign already made ({made}): a sign is read from a still face, so "
                "it counts only when made again. Start the clip a moment before the sign.")
    _on_upload_events(result.events, settings)


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
    render.missing(persistence.store_piece())


def _save_upload(upload, folder: str) -> Path:
    return uploads.save_upload(upload, folder)  # checked size and content, safe name


def _calibration_panel(settings: Settings, mode: modes.ModeReport) -> None:
    with st.expander("Calibrate (neutral face)", expanded=False):
        st.markdown(
            f"Look at the camera with a relaxed, neutral face for {CALIBRATION_SECONDS:g} seconds of video "
            "(or upload a neutral photo or clip). Thresholds then follow your own face; without calibration the "
            "population defaults are used."
        )
        if render.missing(persistence.store_piece()):
            return
        if not modes.recognizer().available:
            st.caption("Calibration needs the recognizer, which is not available in this build.")
            return
        profile = persistence.load_profile()
        status = st.container()  # filled last: the state after this run's clicks
        if profile is not None:
            if st.button("Forget my calibration", key="calibration_forget"):
                persistence.forget_profile()
                st.session_state["calibration"] = None
                watcher = st.session_state["watcher"]
                if watcher is not None:
                    watcher.use_profile(None)
                st.rerun()
        if mode.mode is modes.InputMode.LIVE_CAMERA:
            if st.button(f"Calibrate from the camera ({CALIBRATION_SECONDS:g} s of video)", key="calibration_start"):
                watcher = st.session_state["watcher"]
                if watcher is not None:
                    watcher.start_calibration(recognition.new_calibrator(CALIBRATION_SECONDS), persistence.iso_now())
                    st.session_state["calibration"] = CalibrationProgress(0.0, 0)
        upload = st.file_uploader("…or a neutral photo or clip", type=list(UPLOAD_TYPES), key="calibration_upload")
        if upload is not None and st.button("Calibrate from this file", key="calibration_from_file"):
            with tempfile.TemporaryDirectory() as folder:
                try:
                    made = recognition.profile_from_file(_save_upload(upload, folder), persistence.iso_now())
                except ValueError as error:
                    made = None
                    st.error(f"Calibration failed: {error}")
            if made is not None:
                persistence.save_profile(made)
                profile = made
                st.session_state["calibration"] = None  # the file's calibration replaces the camera's
                if st.session_state["watcher"] is not None:
                    st.session_state["watcher"].use_profile(made)
                st.success(f"Calibrated from {upload.name} ({made.frames} frame(s) with a face) and saved.")
        live = mode.mode is modes.InputMode.LIVE_CAMERA and camera.current() is not None

        @st.fragment(run_every=HISTORY_SECONDS if live else None)
        def calibration_status() -> None:
            shown = persistence.load_profile() if live else profile
            _calibration_status(shown)

        with status:
            calibration_status()


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
    with left:
        if mode.mode is modes.InputMode.LIVE_CAMERA:
            camera.pump(lambda reports: _live_panel(settings, reports))
        else:
            if mode.mode is modes.InputMode.UPLOAD:
                _upload_panel(settings)
            _show_feedback(settings)
            _show_seen(settings)
    _calibration_panel(settings, mode)
    teach.panel(settings, mode)
    sensitivity.panel(settings)
    catch.panel(settings)
    live = camera.current()

    # Redrawn once a second while the camera is on, so a verdict reaches the table without a full
    # rerun (which would not stop the stream, but would redraw the whole page for one row).
    @st.fragment(run_every=HISTORY_SECONDS if live is not None else None)
    def history() -> None:
        _history_panel(settings, _table(settings))  # again: an upload above may have added an attempt

    history()
