"""The live webcam widget (``streamlit-webrtc``), wired to a per-session :class:`SignWatcher`.

On localhost the connection must not need any outside server, so the ICE server list is empty (the
library's default would fetch STUN/TURN servers from the internet and stall ~40 s offline). The
widget is only created when the camera switch is on: Streamlit's AppTest cannot run a page that
embeds it, and the browser asks for camera permission as soon as it is shown and started.
"""

from __future__ import annotations

import time
from typing import Any, Callable

import streamlit as st

from trainer.ui.settings import Settings
from trainer.ui.watcher import Report, SignWatcher

RTC_CONFIGURATION = {"iceServers": []}
MEDIA_CONSTRAINTS = {"video": {"width": {"ideal": 640}, "height": {"ideal": 480}, "frameRate": {"ideal": 30}}, "audio": False}


def live_camera(key: str, watcher: SignWatcher) -> Any:
    """Show the camera widget; frames go through ``watcher``. Returns the webrtc context."""
    from streamlit_webrtc import WebRtcMode, webrtc_streamer

    return webrtc_streamer(
        key=key,
        mode=WebRtcMode.SENDRECV,
        rtc_configuration=RTC_CONFIGURATION,
        media_stream_constraints=MEDIA_CONSTRAINTS,
        video_frame_callback=watcher,
        async_processing=True,
        video_html_attrs={"autoPlay": True, "controls": False, "muted": True, "style": {"width": "100%"}},
    )


def is_playing(ctx: Any) -> bool:
    return bool(ctx is not None and ctx.state.playing)


def session_watcher(make) -> SignWatcher:
    """This session's watcher, built once by ``make()`` and kept in session state."""
    watcher = st.session_state.get("watcher")
    if watcher is None:
        watcher = make()
        st.session_state["watcher"] = watcher
    return watcher


def settings_camera(key: str, settings: Settings) -> tuple[Any, SignWatcher]:
    """The camera widget ``key`` over this session's watcher (recognizer with the user's saved
    calibration profile), mirrored as the settings say. Returns ``(ctx, watcher)`` for :func:`watch`."""
    from trainer.ui import persistence, recognition

    watcher = session_watcher(lambda: recognition.make_watcher(settings, persistence.load_profile()))
    watcher.mirror = settings.mirror
    return live_camera(key, watcher), watcher


POLL_SECONDS = 0.25


def watch(ctx: Any, watcher: SignWatcher, handle: Callable[[list[Report]], None], *,
          period: float = POLL_SECONDS) -> None:
    """While the camera plays, hand the watcher's reports to ``handle`` a few times a second.

    This is streamlit-webrtc's own pattern: the page script stays in this loop (call it last on
    the page) and updates placeholders; any widget interaction reruns the script and ends it. A
    ``st.fragment(run_every=...)`` poller was tried and measured against it: each fragment rerun
    stalls the video (26 fps with this loop, 7-10 fps with a fragment, same machine and clip).
    """
    while is_playing(ctx):
        handle(watcher.drain())
        time.sleep(period)
