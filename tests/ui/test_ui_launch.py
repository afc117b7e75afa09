"""Starting the app: the command line, the streamlit command, and a light start (no MediaPipe)."""

from __future__ import annotations

import subprocess
import sys

from trainer.cli import main
from trainer.ui.launch import APP_SCRIPT, chromium_args, streamlit_command


def test_the_streamlit_command_is_local_headless_and_without_telemetry():
    command = streamlit_command(8765)
    assert command[1:4] == ["-m", "streamlit", "run"] and command[4] == str(APP_SCRIPT)
    flags = dict(zip(command[5::2], command[6::2], strict=False))
    assert flags["--server.port"] == "8765" and flags["--server.address"] == "127.0.0.1"
    assert flags["--server.headless"] == "true" and flags["--browser.gatherUsageStats"] == "false"


def test_chromium_never_goes_online_and_fakes_the_camera_from_a_file(tmp_path):
    args = chromium_args(tmp_path / "clip.y4m")
    for flag in ("--headless", "--no-sandbox", "--disable-background-networking", "--disable-component-update",
                 "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"):
        assert flag in args
    assert f"--use-file-for-fake-video-capture={(tmp_path / 'clip.y4m').resolve()}" in args


def test_aluette_app_rejects_a_bad_port(capsys):
    assert main(["app", "--port", "70000"]) == 2
    assert "70000" in capsys.readouterr().err


def test_aluette_app_rejects_a_bad_slot_count_before_starting_a_server(capsys, monkeypatch):
    started = []
    monkeypatch.setattr(subprocess, "call", lambda *a, **k: started.append(a) or 0)
    assert main(["app", "--analysis-slots", "0"]) == 2
    assert "--analysis-slots 0" in capsys.readouterr().err
    monkeypatch.setenv("ALUETTE_ANALYSIS_SLOTS", "many")
    assert main(["app"]) == 2
    assert "ALUETTE_ANALYSIS_SLOTS='many'" in capsys.readouterr().err
    assert started == []


def test_aluette_app_hands_the_slot_count_to_the_server(capsys, monkeypatch):
    seen = []
    monkeypatch.setattr(subprocess, "call", lambda command, env: seen.append(env) or 0)
    assert main(["app", "--no-browser", "--analysis-slots", "3"]) == 0
    assert seen[0]["ALUETTE_ANALYSIS_SLOTS"] == "3"
    assert "3 camera frames analysed at once" in capsys.readouterr().out


def test_the_pages_import_without_loading_mediapipe_or_the_webcam_stack():
    code = (
        "import sys; import trainer.ui.app, trainer.ui.views.practice, trainer.ui.views.play, "
        "trainer.ui.views.quiz, trainer.ui.views.rules; "
        "print(sorted(m for m in ('mediapipe', 'cv2', 'streamlit_webrtc', 'av') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "[]"
