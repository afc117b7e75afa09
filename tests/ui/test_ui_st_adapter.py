"""Every private Streamlit / streamlit-webrtc internal the app uses lives in trainer.ui.st_adapter and
exists in the installed libraries; the version check names what is wrong and how to fix it."""

from __future__ import annotations

import inspect
import weakref

import pytest

pytest.importorskip("streamlit")
pytest.importorskip("streamlit_webrtc")

from trainer.ui import st_adapter  # noqa: E402


def test_the_installed_libraries_are_the_series_the_adapter_was_checked_on():
    assert st_adapter.check_versions() == ()


def test_a_library_outside_its_series_is_named_with_the_way_out(monkeypatch):
    versions = {"streamlit": "1.60.0", "streamlit-webrtc": "0.79.0"}  # 1.60: before the checked series
    monkeypatch.setattr(st_adapter.metadata, "version", lambda name: versions[name])
    (problem,) = st_adapter.check_versions()
    assert problem.package == "streamlit" and "1.60.0 is installed" in problem.message
    assert ">=1.65,<2.0" in problem.message and 'pip install -e ".[app]"' in problem.message

    def missing(name):
        raise st_adapter.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(st_adapter.metadata, "version", missing)
    assert {p.package for p in st_adapter.check_versions()} == {"streamlit", "streamlit-webrtc"}
    assert all("not installed" in p.message for p in st_adapter.check_versions())


def test_every_internal_the_adapter_names_exists():
    from streamlit.runtime.state.safe_session_state import SafeSessionState
    from streamlit_webrtc import component, shutdown
    from streamlit_webrtc.component import WebRtcStreamerContext

    assert "_lock" in SafeSessionState.__annotations__ or "_lock" in inspect.getsource(SafeSessionState)
    assert callable(component.generate_frontend_component_key) and callable(component._reset_context)
    assert hasattr(WebRtcStreamerContext, "_get_worker")
    assert "_sdp_answer_json" in inspect.getsource(WebRtcStreamerContext)
    assert hasattr(shutdown.SessionShutdownObserver, "_resolve_initial_page_script_hash")
    from streamlit_webrtc.webrtc import WebRtcWorker

    assert "_session_shutdown_observer" in inspect.getsource(WebRtcWorker)
    # The frame queues (st_adapter.frame_queues) and the path the memory probe builds (VideoPath).
    from aiortc.contrib.media import RelayStreamTrack
    from aiortc.rtcrtpreceiver import RemoteStreamTrack
    from streamlit_webrtc import process, webrtc

    assert "self._output_video_track = track" in inspect.getsource(WebRtcWorker)
    assert "self._queue" in inspect.getsource(RemoteStreamTrack) and "_queue" in inspect.getsource(RelayStreamTrack)
    assert "self._in_queue" in inspect.getsource(process.AsyncMediaProcessTrack)
    assert callable(webrtc._wrap_with_processor) and callable(process.AsyncMediaProcessTrack._start)
    assert isinstance(webrtc._live_workers, weakref.WeakSet)
    from aiortc.rtcrtpreceiver import RTCRtpReceiver

    assert "self.__decoder_queue: queue.Queue" in inspect.getsource(RTCRtpReceiver)


def test_no_module_but_the_adapter_reaches_into_the_libraries():
    """Read as code (attributes used, names and modules imported), not as text: docs may name them."""
    import ast
    from pathlib import Path

    private = {"_get_worker", "_sdp_answer_json", "_reset_context", "_session_shutdown_observer",
               "SafeSessionState", "generate_frontend_component_key", "_queue", "_in_queue",
               "_output_video_track", "_wrap_with_processor", "_live_workers",
               "_RTCRtpReceiver__decoder_queue"}
    modules = ("streamlit_webrtc.component", "streamlit_webrtc.shutdown", "streamlit.components.v1",
               "streamlit.runtime")
    root = Path(st_adapter.__file__).resolve().parents[1]
    offenders = []
    for path in root.rglob("*.py"):
        if path.name == "st_adapter.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Attribute):
                names.append(node.attr)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names += [alias.name for alias in node.names]
                if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(modules):
                    offenders.append(f"{path.relative_to(root)}: from {node.module}")
            offenders += [f"{path.relative_to(root)}: {name}" for name in names
                          if name in private or name.startswith(modules)]
    assert offenders == []
