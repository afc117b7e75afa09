"""The live webcam (``streamlit-webrtc``): one stream per browser session, wired to its :class:`SignWatcher`.

A camera that lives as long as the session:

* **One widget, one place.** :func:`dock` is called by the app frame on every full run, before the
  page, and draws the widget in the sidebar under a fixed key (:data:`WIDGET_KEY`): the same element at
  the same place on every page, so neither a rerun nor a page change remounts it.
* **No page navigation stop.** streamlit-webrtc stops a worker when the session's page changes
  (its ``SessionShutdownObserver`` compares page hashes). Here the stream belongs to the session,
  not to a page, so the worker's observer is swapped for one that only watches the session ending
  (:func:`trainer.ui.st_adapter.keep_worker_across_pages`, with every other library internal).
* **No full rerun from the camera path.** A script-initiated ``st.rerun()`` reaches the widget
  without its component value and streamlit-webrtc then tears the stream down (the STOP that
  followed every sign). Pages read the watcher from a fragment that reruns only itself
  (:func:`pump`): it drains the watcher's queue and hands the reports to the page's handler, which
  writes session state and draws inside the fragment.
* **State outside the rerun.** The watcher (with its recognizer and session clock) is built once per
  session and kept in session state; reports wait in its queue between fragment runs.
* **It comes back by itself.** A stream that ends without STOP (its connection dropped while the
  machine was busy) is started again in the browser (:mod:`trainer.ui.camera_keeper`), and the
  server answers the new connection's offer even if it never saw the old one end
  (:func:`_forget_answered_offer`).

On localhost the connection must not need any outside server, so the ICE server list is empty (the
library's default would fetch STUN/TURN servers from the internet and stall ~40 s offline). The
widget is only created when the camera switch is on: Streamlit's AppTest cannot run a page that
embeds it, and the browser asks for camera permission as soon as it is shown and started.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import streamlit as st

from trainer.ui import camera_keeper, modes, st_adapter
from trainer.ui.settings import Settings
from trainer.ui.watcher import Report, SignWatcher

WIDGET_KEY = "sign-camera"
"""The widget's key (streamlit-webrtc keeps its context in ``st.session_state[WIDGET_KEY]``)."""
RTC_CONFIGURATION: dict[str, list[Any]] = {"iceServers": []}
MEDIA_CONSTRAINTS = {"video": {"width": {"ideal": 640}, "height": {"ideal": 480}, "frameRate": {"ideal": 30}},
                     "audio": False}
PER_PAGE_KEYS = ("practice_live", "play_camera_frame")
"""The latest frame report each page shows: cleared on a page change, so what a page shows is new."""
POLL_SECONDS = 0.25
"""How often a page's camera fragment drains the watcher while the camera is on."""


USEFUL_FPS = 8.0
"""Frames analysed a second below which recognition is starved: a sign held half a second then
falls on three frames or fewer, too few for the recognizer's onset hold and release, and signs are
missed or late (the recognizer's timings are set and tested at 15-30 frames a second)."""
STARVED_AFTER_FRAMES = 30
"""Frames of a stream analysed before its rate is judged (its first second's rate is not a rate)."""


def starved_notice(fps: float, frames: int) -> str | None:
    """What to tell the person when the camera's recognition is starved of processor time (None:
    it is not, or too few frames were analysed yet to say)."""
    if frames < STARVED_AFTER_FRAMES or fps >= USEFUL_FPS:
        return None
    return (f"The camera is analysing {fps:.0f} frame{'s' if round(fps) != 1 else ''} a second, too few to "
            f"read signs reliably (it needs {USEFUL_FPS:.0f} or more): close other programs or browser tabs "
            "to give it more of the computer.")


@dataclass(frozen=True, slots=True)
class Live:
    """The session's camera in this run: the webrtc context and the watcher its frames go through."""

    ctx: Any
    watcher: SignWatcher

    @property
    def playing(self) -> bool:
        return is_playing(self.ctx)


def live_camera(key: str, watcher: SignWatcher) -> Any:
    """Show the camera widget; frames go through ``watcher``. Returns the webrtc context."""
    from streamlit_webrtc import WebRtcMode, webrtc_streamer

    _forget_answered_offer(key)
    answered = st_adapter.answer_of(st.session_state.get(key)) is not None
    ctx = webrtc_streamer(
        key=key,
        mode=WebRtcMode.SENDRECV,
        rtc_configuration=RTC_CONFIGURATION,
        media_stream_constraints=MEDIA_CONSTRAINTS,
        video_frame_callback=watcher,
        # Nothing is heard: without this the browser adds an audio transceiver to receive sound back,
        # whose ICE transport the server closed while connecting when several sessions started at
        # once (aiortc InvalidStateError "RTCIceTransport is closed", 3 in each eight-session soak).
        sendback_audio=False,
        async_processing=True,
        video_html_attrs={"autoPlay": True, "controls": False, "muted": True, "style": {"width": "100%"}},
    )
    st_adapter.keep_worker_across_pages(ctx)
    # Only the newest frame waits between the browser and the watcher: a server behind the camera's
    # rate otherwise piles frames up in the libraries' unbounded queues (seen in the evening's soak).
    if not os.environ.get(UNBOUNDED_ENV):
        st_adapter.keep_newest_frames(st_adapter.worker_of(ctx))
    _start_queue_log()
    _remember_answered_offer(key, ctx)
    if answered and st_adapter.answer_of(ctx) is None and st_adapter.worker_of(ctx) is None:
        # The stream ended and the library dropped its answer, but this run already drew the widget
        # with it, and the rerun the library asks for to take it out did not come (seen in the
        # server: one run after the drop, none after it). A new connection would take that stale
        # answer and fail after the ICE timeout, so rerun now.
        st.rerun()
    return ctx


UNBOUNDED_ENV = "ALUETTE_LAB_UNBOUNDED_FRAMES"
"""Set (to anything) for the soak's control run only: the frame queues are left unbounded, as before."""
QUEUE_LOG_ENV = "ALUETTE_QUEUE_LOG"
"""A file to which the server appends, every :data:`QUEUE_LOG_EVERY_S`, how many frames wait in each
queue of each live connection (one JSON line; set by ``trainer.lab.soak``)."""
QUEUE_LOG_EVERY_S = 2.0
_queue_log = threading.Lock()
_queue_log_started = False


def _start_queue_log() -> None:
    """Start the server's frame-queue log once, if :data:`QUEUE_LOG_ENV` names a file."""
    global _queue_log_started
    path = os.environ.get(QUEUE_LOG_ENV)
    with _queue_log:
        if not path or _queue_log_started:
            return
        _queue_log_started = True
    threading.Thread(target=_log_queues, args=(Path(path),), name="aluette-queue-log", daemon=True).start()


def _log_queues(path: Path) -> None:
    while True:
        depths = [st_adapter.queue_depths(worker) for worker in st_adapter.live_workers()]
        with path.open("a") as out:
            out.write(json.dumps({"t": round(time.time(), 1), "workers": depths}) + "\n")
        time.sleep(QUEUE_LOG_EVERY_S)


OFFER_KEY = "camera_offer"
"""(id of the worker, the browser's offer it answered): how a new offer for a new connection is told
from the one the running worker already serves."""


def _offer_sdp(key: str) -> str | None:
    return st_adapter.offer_sdp(key, st.session_state)


def _remember_answered_offer(key: str, ctx: Any) -> None:
    worker = st_adapter.worker_of(ctx)
    if worker is None:
        st.session_state.pop(OFFER_KEY, None)
        return
    remembered = st.session_state.get(OFFER_KEY)
    if remembered is None or remembered[0] != id(worker):
        st.session_state[OFFER_KEY] = (id(worker), _offer_sdp(key))


def _worker_of_replaced_offer(key: str) -> int | None:
    """The id of the worker that answered the browser's earlier offer, if the browser has sent
    another offer since (a new connection that worker does not serve); else None."""
    remembered = st.session_state.get(OFFER_KEY)
    offer = _offer_sdp(key)
    if remembered is None or offer is None or remembered[1] in (None, offer):
        return None
    return remembered[0]


def _forget_answered_offer(key: str) -> None:
    """Drop the worker of a connection the browser has replaced. When a stream drops and a new one
    starts soon after (:mod:`trainer.ui.camera_keeper`, or a quick STOP -> START on a busy machine),
    the server may never run with the widget idle in between: it then sees a new offer while the
    old worker still stands, and the library (which makes a worker only when there is none) leaves
    that offer unanswered for ever. Resetting the context here lets this run's widget call build
    the worker for the new offer."""
    context = st.session_state.get(key)
    if context is None:
        return
    worker = st_adapter.worker_of(context)
    if worker is not None and _worker_of_replaced_offer(key) == id(worker):
        st_adapter.reset_context(context)
        st.session_state.pop(OFFER_KEY, None)


def lifecycle_pending(key: str = WIDGET_KEY) -> bool:
    """Whether the widget's state calls for a full run that has not come. streamlit-webrtc starts,
    answers and ends connections only in a full run of the script, started by the widget's change
    of value. But a camera fragment's timed run can take that change first (it applies every
    widget's new value), and no full run follows: seen after a stalled server, when the ended stream
    was never reset, its stale answer stayed in the widget, and the next start failed."""
    context = st.session_state.get(key)
    state = getattr(context, "state", None)
    if state is None:
        return False
    worker = st_adapter.worker_of(context)
    if not state.playing and not state.signalling:
        return worker is not None or st_adapter.answer_of(context) is not None  # an ended stream to reset
    if state.signalling:
        if worker is None:
            return _offer_sdp(key) is not None  # an offer to answer
        return _worker_of_replaced_offer(key) is not None
    return False


def is_playing(ctx: Any) -> bool:
    return bool(ctx is not None and ctx.state.playing)


def session_watcher(make: Callable[[], SignWatcher]) -> SignWatcher:
    """This session's watcher, built once by ``make()`` and kept in session state."""
    watcher = st.session_state.get("watcher")
    if watcher is None:
        watcher = make()
        st.session_state["watcher"] = watcher
    return watcher


def dock(settings: Settings, page: str) -> None:
    """The session's camera, drawn in the sidebar on every full run (called by the app frame before
    the page, so it keeps its place). ``page`` names the page being shown: reports made while
    another page was open are dropped when it changes (a sign made on Rules is not sent on Play)."""
    st.session_state["camera_live"] = None
    mode = modes.input_mode(settings.camera)
    if mode.mode is not modes.InputMode.LIVE_CAMERA:
        return
    from trainer.ui import persistence, recognition

    watcher = session_watcher(lambda: recognition.make_watcher(settings, persistence.load_profile()))
    watcher.mirror = settings.mirror
    if not watcher.ready:
        # Load MediaPipe and build the recognizer here, before any video runs. Built by the analysis
        # thread once frames flow, its imports' thousands of small file reads each wait for the
        # interpreter lock behind the video threads (over 40 s on a busy machine instead of ~3 s).
        with st.spinner("Loading the recognizer…"):
            watcher.prepare()
    if st.session_state.get("camera_page") != page:
        # A new page starts from fresh camera state: what was seen meanwhile is not its business.
        st.session_state["camera_page"] = page
        watcher.drain()
        for key in PER_PAGE_KEYS:
            st.session_state[key] = None
    with st.sidebar:
        st.markdown("**Camera**")
        ctx = live_camera(WIDGET_KEY, watcher)
        if not is_playing(ctx):
            st.caption("Press START (the browser asks for permission the first time). "
                       "The camera then stays on across pages until you press STOP.")
        camera_keeper.keep_playing()
    st.session_state["camera_live"] = Live(ctx, watcher)


def current() -> Live | None:
    """The session's camera in this run (None: switched off or unavailable)."""
    return st.session_state.get("camera_live")


def pump(handle: Callable[[list[Report]], None], *, period: float = POLL_SECONDS) -> None:
    """Draw a fragment that hands the watcher's new reports to ``handle`` and reruns itself (only
    itself, never the page) every ``period`` seconds while the camera is on. ``handle`` updates
    session state and draws what depends on the camera; it runs once with ``[]`` when there is
    nothing to drain. Call it where the page wants that part drawn."""
    # Polls whenever the camera is on, playing or not: START and STOP change the stream without
    # promising a full run that would switch the polling on (a try once waited on a frozen page).
    @st.fragment(run_every=period if current() is not None else None)
    def camera_fragment() -> None:
        now = current()
        if now is not None and lifecycle_pending():
            st.rerun(scope="app")
        handle(now.watcher.drain() if now is not None else [])

    camera_fragment()
