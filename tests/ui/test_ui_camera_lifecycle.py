"""When the camera fragment asks for the full run that streamlit-webrtc needs (``camera.lifecycle_pending``).

The library starts, answers and ends connections only in a full run, started by the widget's new
value; a camera fragment's timed run can take that value first, and then no full run follows (seen
after a stalled server: the ended stream was never reset and its stale answer stayed in the widget).
Each case sets the library's context and the widget's value as they stand in such a moment."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def _script() -> None:
    import streamlit as st
    from streamlit_webrtc.component import generate_frontend_component_key

    from trainer.ui import camera

    class State:
        def __init__(self, playing: bool, signalling: bool) -> None:
            self.playing, self.signalling = playing, signalling

    class Context:
        def __init__(self, playing: bool, signalling: bool, worker: object | None, answer: str | None) -> None:
            self.state = State(playing, signalling)
            self.worker, self._sdp_answer_json = worker, answer

        def _get_worker(self):
            return self.worker

    worker = object()
    offer = {"sdp": "v=0 new", "type": "offer"}
    cases = {
        "ended, worker still there": (Context(False, False, worker, "answer"), None, None),
        "ended, answer still sent": (Context(False, False, None, "answer"), None, None),
        "idle and clean": (Context(False, False, None, None), None, None),
        "offer, no worker": (Context(False, True, None, None), offer, None),
        "offer already answered": (Context(False, True, worker, "answer"), offer, (id(worker), "v=0 new")),
        "new offer, old worker": (Context(False, True, worker, "answer"), offer, (id(worker), "v=0 old")),
        "playing": (Context(True, False, worker, "answer"), None, (id(worker), "v=0 new")),
    }
    pending = {}
    for name, (context, value, remembered) in cases.items():
        st.session_state[camera.WIDGET_KEY] = context
        st.session_state[generate_frontend_component_key(camera.WIDGET_KEY)] = (
            {"playing": context.state.playing, "sdpOffer": value or "", "iceCandidates": {}})
        st.session_state.pop(camera.OFFER_KEY, None)
        if remembered is not None:
            st.session_state[camera.OFFER_KEY] = remembered
        pending[name] = camera.lifecycle_pending()
    st.session_state["pending"] = pending


def test_a_full_run_is_asked_for_exactly_when_the_library_has_work_left():
    at = AppTest.from_function(_script, default_timeout=60).run()
    assert not at.exception, at.exception
    assert at.session_state["pending"] == {
        "ended, worker still there": True,
        "ended, answer still sent": True,
        "idle and clean": False,
        "offer, no worker": True,
        "offer already answered": False,
        "new offer, old worker": True,
        "playing": False,
    }
