"""Every use of a private Streamlit or streamlit-webrtc internal, in one place, behind a version check.

The app needs four things neither library offers publicly (each reason is at its function):

* one lock for a session's state across its script threads (:func:`share_session_state_lock`);
* the browser's latest WebRTC offer and the worker that answered it, to answer a new connection the
  library would otherwise leave waiting (:func:`offer_sdp`, :func:`worker_of`, :func:`reset_context`);
* a stream that outlives page changes (:func:`keep_worker_across_pages`);
* a same-origin frame that runs a small script (:func:`run_script`): public (``st.iframe``) since
  Streamlit 1.50; ``components.v1.html`` is deprecated.

:func:`check_versions` says, at start-up, whether the installed versions are the series these were
checked on (``SUPPORTED``); the app shows its message instead of failing somewhere deep in a rerun.
tests/ui/test_ui_st_adapter.py checks every internal named here against the installed libraries.

Imports streamlit; streamlit-webrtc only inside the functions that need it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from typing import Any

SUPPORTED = {"streamlit": ((1, 65), (2, 0)), "streamlit-webrtc": ((0, 79), (0, 80))}
"""(lowest, first unsupported) release series of each library whose internals this module uses."""


@dataclass(frozen=True, slots=True)
class VersionProblem:
    """An installed library outside the series this module was checked on."""

    package: str
    installed: str | None

    @property
    def message(self) -> str:
        low, high = SUPPORTED[self.package]
        wanted = f">={low[0]}.{low[1]},<{high[0]}.{high[1]}"
        have = f"{self.installed} is installed" if self.installed else "it is not installed"
        return (f"{self.package} {wanted} is needed and {have}: reinstall the app with "
                f"`pip install -e \".[app]\"` in its folder")


def _series(version: str) -> tuple[int, int]:
    parts = []
    for piece in version.split(".")[:2]:
        digits = "".join(ch for ch in piece if ch.isdigit())
        parts.append(int(digits or 0))
    return (parts + [0, 0])[0], (parts + [0, 0])[1]


def check_versions() -> tuple[VersionProblem, ...]:
    """The installed libraries this module cannot vouch for (empty when all is well)."""
    problems = []
    for package, (low, high) in SUPPORTED.items():
        try:
            installed = metadata.version(package)
        except metadata.PackageNotFoundError:
            problems.append(VersionProblem(package, None))
            continue
        if not low <= _series(installed) < high:
            problems.append(VersionProblem(package, installed))
    return tuple(problems)


# -- Streamlit: one lock per session state ---------------------------------------------------------

_locks: dict[int, Any] = {}
"""One re-entrant lock per session state, by ``id`` (Streamlit's SessionState has slots: no attribute
can be hung on it, and it cannot be weakly referenced). A lock outliving its session costs a few bytes."""
_locks_guard = threading.Lock()


def lock_of(state: Any) -> Any:
    """The lock shared by every wrapper of ``state`` (made on first use)."""
    with _locks_guard:
        lock = _locks.get(id(state))
        if lock is None:
            lock = _locks[id(state)] = threading.RLock()
        return lock


def share_session_state_lock() -> None:
    """Make every ``SafeSessionState`` use one lock per session state, and give the running script's
    wrapper that lock too (see :mod:`trainer.ui.session_lock` for why). Touches ``SafeSessionState``'s
    private ``_lock``."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx  # noqa: PLC0415
    from streamlit.runtime.state.safe_session_state import SafeSessionState  # noqa: PLC0415

    if not getattr(SafeSessionState.__init__, "shares_lock", False):
        original = SafeSessionState.__init__

        def __init__(self, state, yield_callback) -> None:
            original(self, state, yield_callback)
            object.__setattr__(self, "_lock", lock_of(state))

        __init__.shares_lock = True  # type: ignore[attr-defined]
        SafeSessionState.__init__ = __init__  # type: ignore[method-assign]
    ctx = get_script_run_ctx()
    wrapper = getattr(ctx, "session_state", None)
    if isinstance(wrapper, SafeSessionState):
        shared = lock_of(wrapper._state)
        if wrapper._lock is not shared:
            # Safe to swap here: this thread holds no lock between two session-state calls, and the
            # first run of a session has no other script thread yet.
            object.__setattr__(wrapper, "_lock", shared)


# -- streamlit-webrtc: the connection behind the widget ------------------------------------------

def offer_sdp(key: str, session_state: Any) -> str | None:
    """The SDP of the browser's latest offer for the widget ``key`` (None if it sent none)."""
    from streamlit_webrtc.component import generate_frontend_component_key  # noqa: PLC0415

    value = session_state.get(generate_frontend_component_key(key)) or {}
    offer = value.get("sdpOffer") or None
    return offer.get("sdp") if isinstance(offer, dict) else None


def worker_of(context: Any) -> Any:
    """The worker serving a webrtc context's connection (None without one)."""
    return context._get_worker() if context is not None and hasattr(context, "_get_worker") else None


def answer_of(context: Any) -> str | None:
    """The SDP answer a webrtc context holds for its browser (None when it holds none)."""
    return getattr(context, "_sdp_answer_json", None) if context is not None else None


def reset_context(context: Any) -> None:
    """Forget the context's worker and answer, so that the next widget call answers a new offer."""
    from streamlit_webrtc.component import _reset_context  # noqa: PLC0415

    _reset_context(context)


def keep_worker_across_pages(context: Any) -> None:
    """Replace the worker's page-watching shutdown observer by one that watches only the session (tab
    closed, server stopping): streamlit-webrtc stops a stream when the page changes and has no option
    against it."""
    worker = worker_of(context)
    observer = getattr(worker, "_session_shutdown_observer", None)
    if observer is None or getattr(observer, "session_only", False):
        return
    observer.stop()
    worker._session_shutdown_observer = _session_only_observer(worker.stop)


def _session_only_observer(callback: Callable[[], None]) -> Any:
    from streamlit_webrtc.shutdown import SessionShutdownObserver  # noqa: PLC0415

    class SessionOnlyObserver(SessionShutdownObserver):
        """Stops the worker when the session ends, not when its page changes (no page hash to
        compare, so the library's navigation check never fires)."""

        session_only = True

        @staticmethod
        def _resolve_initial_page_script_hash(app_session) -> str:
            return ""

    return SessionOnlyObserver(callback)


# -- a small script in a same-origin frame ---------------------------------------------------------

def run_script(html: str) -> None:
    """Embed ``html`` (a ``<script>``, trusted: our own constant) in an invisible same-origin frame."""
    import streamlit as st  # noqa: PLC0415

    st.iframe(html, height=1)


# -- aiortc / streamlit-webrtc: the frame queues between the browser and the watcher ---------------

FRAME_QUEUES = ("decoded", "relay_in", "process_in", "relay_out")
"""The queues a video frame waits in on the server, in its order of passage (every one unbounded in
the libraries):

* ``decoded``: aiortc's ``RemoteStreamTrack._queue``, frames its decoder thread has decoded, read by
  the streamlit-webrtc relay's task for the incoming track;
* ``relay_in``: the relay's ``RelayStreamTrack._queue`` feeding the processing track;
* ``process_in``: streamlit-webrtc's ``AsyncMediaProcessTrack._in_queue`` (a ``queue.Queue``), read
  by its processing thread, which calls the watcher with the newest frame and drops the rest;
* ``relay_out``: the relay's queue of processed frames (BGR, 0.9 MB each at 640x480) waiting for the
  ``RTCRtpSender`` to encode them back to the browser at whatever rate the processor lets it.

Before them, aiortc's receiver queues the *encoded* frames for its decoder thread (``ENCODED``, a
``queue.Queue``, tens of kB a frame): counted, never bounded (a VP8 frame needs the ones before it).
"""
ENCODED = "encoded"


def frame_queues(worker: Any) -> dict[str, Any]:
    """The frame queues (:data:`FRAME_QUEUES`) of a webrtc worker's video, by name; the ones it does
    not have yet (no connection, no track) are left out."""
    if worker is None:
        return {}
    receiver = sender_track = None
    pc = getattr(worker, "pc", None)
    for transceiver in pc.getTransceivers() if pc is not None else ():
        if getattr(transceiver, "kind", None) == "video":
            receiver, sender_track = transceiver.receiver, getattr(transceiver.sender, "track", None)
            break
    found = frame_queues_of(getattr(receiver, "track", None), getattr(worker, "_output_video_track", None),
                            sender_track)
    encoded = getattr(receiver, "_RTCRtpReceiver__decoder_queue", None)
    return {ENCODED: encoded, **found} if encoded is not None else found


def frame_queues_of(receiver_track: Any, process_track: Any, sender_track: Any) -> dict[str, Any]:
    """The frame queues of a video path given its three tracks: aiortc's remote track (what the
    browser sends), streamlit-webrtc's processing track, and the track the sender encodes."""
    found = {
        "decoded": getattr(receiver_track, "_queue", None),
        "relay_in": getattr(getattr(process_track, "track", None), "_queue", None),
        "process_in": getattr(process_track, "_in_queue", None),
        "relay_out": getattr(sender_track, "_queue", None),
    }
    return {name: q for name, q in found.items() if q is not None}


def queue_depths(worker: Any) -> dict[str, int]:
    """How many frames wait in each of the worker's frame queues now."""
    return {name: q.qsize() for name, q in frame_queues(worker).items()}


NEWEST_FRAMES = 1
"""Frames an asyncio frame queue keeps once :func:`keep_newest_frames` bounds it: only the newest
waits, as a live camera needs (an older frame is already stale when a newer one is there)."""


def keep_newest_frames(worker: Any, *, keep: int = NEWEST_FRAMES) -> int:
    """Bound the worker's asyncio frame queues (``decoded``, ``relay_in``, ``relay_out``) so that a
    frame arriving at a full queue drops the oldest waiting one; returns how many queues were bound
    now (0 once done). ``process_in`` needs nothing: its thread already takes all and keeps the newest;
    ``encoded`` must keep every frame.

    Why: with every queue unbounded, a consumer slower than the camera's 30 frames a second (the
    sender's VP8 encoder on a starved server) lets decoded and processed frames pile up without
    limit, 0.5-0.9 MB each; the server's memory then follows the machine's load (seen in the evening's soak).
    The end-of-stream ``None`` is never dropped: it is the newest when it comes."""
    return keep_newest_in(frame_queues(worker), keep=keep)


def keep_newest_in(queues: dict[str, Any], *, keep: int = NEWEST_FRAMES) -> int:
    """:func:`keep_newest_frames` on queues found by :func:`frame_queues_of`."""
    bound = 0
    for name, q in queues.items():
        if name in ("process_in", ENCODED) or getattr(q, "keeps_newest", None) is not None:
            continue
        _bind_newest(q, keep)
        bound += 1
    return bound


def _bind_newest(q: Any, keep: int) -> None:
    # The instance's own put_nowait, so that asyncio.Queue.put (the decoder thread's path) and the
    # relay's put_nowait both go through it, and a consumer already awaiting this very queue's get()
    # is woken as before (replacing the queue object would strand it).
    original = q.put_nowait

    def put_newest(item: Any) -> None:
        while q.qsize() >= keep:
            q.get_nowait()
        original(item)

    q.put_nowait = put_newest
    q.keeps_newest = keep


@dataclass(frozen=True, slots=True)
class VideoPath:
    """The server's video path of a SENDRECV stream, built as streamlit-webrtc builds it, without a
    browser or a network (for trainer.lab.memory_probe and the tests): ``incoming`` is aiortc's remote
    track (fed with :meth:`deliver`), ``processed`` streamlit-webrtc's asynchronous processing track
    around the frame callback, ``sent`` the relay's track the sender would encode."""

    incoming: Any
    processed: Any
    sent: Any

    @classmethod
    def build(cls, callback: Callable[[Any], Any]) -> VideoPath:
        from aiortc.contrib.media import MediaRelay  # noqa: PLC0415
        from aiortc.rtcrtpreceiver import RemoteStreamTrack  # noqa: PLC0415
        from streamlit_webrtc.models import CallbackAttachableProcessor  # noqa: PLC0415
        from streamlit_webrtc.webrtc import _wrap_with_processor  # noqa: PLC0415

        relay = MediaRelay()
        incoming = RemoteStreamTrack(kind="video")
        processed = _wrap_with_processor(incoming, CallbackAttachableProcessor(callback, None, None),
                                         async_processing=True, relay=relay)
        return cls(incoming, processed, relay.subscribe(processed))

    def queues(self) -> dict[str, Any]:
        return frame_queues_of(self.incoming, self.processed, self.sent)

    def deliver(self, frame: Any, loop: Any) -> None:
        """Hand a decoded frame (None: the end) to the loop, from another thread, as aiortc's decoder
        thread does."""
        import asyncio  # noqa: PLC0415

        asyncio.run_coroutine_threadsafe(self.incoming._queue.put(frame), loop)

    def start(self) -> None:
        """Start the processing thread (its first ``recv`` would), so that its queue exists."""
        self.processed._start()

    def stop(self) -> None:
        self.processed.stop()


def live_workers() -> list[Any]:
    """Every webrtc worker of this server whose connection has not been stopped (streamlit-webrtc's
    own registry, kept to stop their decoder threads at exit)."""
    from streamlit_webrtc.webrtc import _live_workers  # noqa: PLC0415

    return list(_live_workers)
