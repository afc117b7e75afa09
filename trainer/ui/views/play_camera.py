"""Play by signing: the camera's recognised gestures go to the partner as signs, from a fragment.

The Play page calls :func:`panel` once, below its sign buttons. The panel is a camera fragment
(:func:`trainer.ui.camera.pump`): it reruns itself a few times a second, never the page, so the
stream is never interrupted; each sign the recognizer *finishes* (final events carry the repeat
count: one mouth opening per ace) is handed to the page's ``send`` and the outcome is listed here at
once, with the time from the sign's onset to the partner receiving it. The rest of the table (the
partner's beliefs, the coach) shows the signs at the next full run, i.e. the person's next click.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import streamlit as st

from trainer.signals.conventions import Convention
from trainer.signals.signs import MadeSign
from trainer.ui import camera, modes, render
from trainer.ui.settings import Settings
from trainer.ui.watcher import FrameReport, GestureReport, WatcherFailure

SHOWN = 4
"""Camera signs listed under the video, newest first."""


@dataclass(frozen=True, slots=True)
class CameraSign:
    """One finished camera gesture turned into a sign, and what the table did with it."""

    deal: int
    label: str
    received: bool
    latency_s: float | None
    """Onset of the gesture to the partner receiving it, on the camera's clock (None if refused)."""
    why: str = ""


Send = Callable[[MadeSign, str, float | None], str | None]
"""The page's sender: makes the sign at the table (begun that many seconds ago, when known), returns
None when sent or the refusal's text."""


def made_sign(report: GestureReport, convention: Convention) -> MadeSign | None:
    """The sign a finished gesture makes under ``convention`` (None: not a sign, or not final),
    with the gesture, count, side, confidence and times the camera saw (``Convention.read``)."""
    if not report.final:
        return None
    return convention.read(report.event)


def handle(reports: list, *, deal: int, convention: Convention, settings: Settings, send: Send,
           now: float | None) -> list[CameraSign]:
    """Send every finished camera sign in ``reports`` through ``send``; returns what happened, in order.
    ``now`` is the session-clock time of the newest analysed frame (for the onset-to-received time)."""
    out: list[CameraSign] = []
    for report in reports:
        if not isinstance(report, GestureReport):
            continue
        made = made_sign(report, convention)
        if made is None:
            continue
        label = render.sign_label(made.sign, settings.language) + (f" ×{made.count}" if made.count > 1 else "")
        # The sign's own moment: its onset on the camera's clock, that long before the newest frame.
        ago = None if now is None or made.start is None else max(0.0, now - made.start)
        refused = send(made, "camera", ago)
        latency = None if refused is not None or now is None else max(0.0, now - report.event.start)
        out.append(CameraSign(deal, label, refused is None, latency, refused or ""))
    return out


def refused_line(sign: CameraSign) -> str:
    """"✗ Madame not sent: you do not hold Madame. …": the refusal's reason said once (the table's
    refusal texts begin with their own "Not sent:")."""
    why = sign.why.strip()
    if why.lower().startswith("not sent:"):
        why = why[len("not sent:"):].strip()
    return f"✗ {sign.label} not sent" + (f": {why}" if why else ".")


def panel(settings: Settings, session: Any, send: Send) -> None:
    """The camera part of the Play page (``session``: the GameSession; ``send``: the page's sender)."""
    mode = modes.input_mode(settings.camera, upload=False)  # Play has sign buttons, no upload
    if mode.mode is not modes.InputMode.LIVE_CAMERA:
        st.caption(f"Camera signs: off — {mode.why}")
        return
    convention = Convention.named(session.convention)
    st.markdown("**Signs from the camera** (sidebar): each sign goes to your partner when you finish making it.")

    def draw(reports: list) -> None:
        live = camera.current()
        # During a deal's review the screen (this list included) still belongs to the closed deal.
        game = session.table.game
        deal = game.results[-1].deal if session.reviewing and game.results else game.deal_number
        made = handle(reports, deal=deal, convention=convention, settings=settings, send=send,
                      now=None if live is None else live.watcher.latest_timestamp)
        log: list[CameraSign] = st.session_state.setdefault("play_camera_log", [])
        log.extend(made)
        frames = [r for r in reports if isinstance(r, FrameReport)]
        if frames:
            st.session_state["play_camera_frame"] = frames[-1]
        for report in reports:
            if isinstance(report, WatcherFailure):
                st.session_state["play_camera_failure"] = report.message
        _draw_status(live, deal, log)

    camera.pump(draw)


def _draw_status(live: camera.Live | None, deal: int, log: list[CameraSign]) -> None:
    failure = st.session_state.get("play_camera_failure")
    if failure:
        st.error(f"Recognition stopped: {failure}")
    frame: FrameReport | None = st.session_state.get("play_camera_frame")
    if live is None or not live.playing:
        st.caption("Camera stopped: press START in the sidebar.")
    elif frame is not None:
        face = "found" if frame.face_found else "not found"
        st.caption(f"Camera on · {frame.fps:.0f} frames/s analysed · face {face}")
        starved = camera.starved_notice(frame.fps, frame.frames)
        if starved:
            st.warning(starved, icon=":material/speed:")
    this_deal = [c for c in log if c.deal == deal]
    received = sum(c.received for c in this_deal)
    st.markdown(f"Camera signs received by your partner this deal: **{received}**")
    for sign in reversed(this_deal[-SHOWN:]):
        if sign.received:
            timing = f" {sign.latency_s:.1f} s after you began it" if sign.latency_s is not None else ""
            st.caption(f"✓ {sign.label}: received by your partner{timing}")
        else:
            st.caption(refused_line(sign))
