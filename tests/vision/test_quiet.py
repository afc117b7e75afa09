"""MediaPipe's native log lines stay off our commands' stderr (trainer.vision.quiet), while our own
error messages still reach it; ``ALUETTE_MEDIAPIPE_LOGS=1`` lets the native lines through."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
# What MediaPipe 0.10.21 prints on fd 2 (absl/glog prefixes W0000/I0000/E0000, TF Lite "INFO: ...").
NATIVE = re.compile(r"absl|^[WIEF]\d{4} |TensorFlow Lite|XNNPACK|inference_feedback|landmark_projection|\.cc:\d+\]",
                    re.MULTILINE)


def run(*args: str, logs: bool = False, timeout: float = 240.0) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "ALUETTE_MEDIAPIPE_LOGS"}
    env["PYTHONUNBUFFERED"] = "1"
    if logs:
        env["ALUETTE_MEDIAPIPE_LOGS"] = "1"
    return subprocess.run(list(args), cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout)


def python(code: str, logs: bool = False) -> subprocess.CompletedProcess:
    return run(sys.executable, "-c", textwrap.dedent(code), logs=logs, timeout=60)


@pytest.mark.vision
def test_recognize_prints_json_and_no_mediapipe_lines(gestures_dir: Path, tmp_path: Path):
    """A real photo (face, hands and pose graphs are all built) and then a missing file: stdout is one
    JSON object per input, stderr has our error for the missing one and nothing from MediaPipe."""
    photo = gestures_dir / "thumb" / "mps_gesture_video_f0120_thumb.jpg"
    missing = tmp_path / "no_such_photo.jpg"
    done = run(sys.executable, "-m", "trainer.cli", "recognize", str(photo), str(missing), "--json")
    assert done.returncode == 1  # one input failed
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert lines[0]["face"] and "thumb" in lines[0]["gestures"]
    assert "error" in lines[1]
    assert str(missing) in done.stderr  # our message, printed after the graphs ran
    assert not NATIVE.search(done.stderr), done.stderr


@pytest.mark.vision
def test_the_native_lines_exist_and_the_variable_shows_them(gestures_dir: Path):
    """The control for the test above: with ALUETTE_MEDIAPIPE_LOGS=1 the same command shows them."""
    photo = gestures_dir / "thumb" / "mps_gesture_video_f0120_thumb.jpg"
    done = run(sys.executable, "-m", "trainer.cli", "recognize", str(photo), "--json", logs=True)
    assert done.returncode == 0
    assert json.loads(done.stdout)["face"]
    assert NATIVE.search(done.stderr)


def test_only_the_block_is_silenced_and_stderr_comes_back():
    done = python(
        """
        import os, sys
        from trainer.vision.quiet import quiet_native_logs
        os.write(2, b"before\\n")
        with quiet_native_logs():
            os.write(2, b"native noise\\n")
            print("python noise", file=sys.stderr)
            with quiet_native_logs():
                os.write(2, b"nested noise\\n")
            os.write(2, b"still inside\\n")
        os.write(2, b"after\\n")
        print("python after", file=sys.stderr)
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == ["before", "after", "python after"]


def test_threads_share_one_redirection_and_the_last_restores_it():
    """The Tracker's hand worker and another tracker's construction may overlap: whatever the order
    they leave in, fd 2 is the real stderr afterwards."""
    done = python(
        """
        import os, threading, time
        from trainer.vision.quiet import quiet_native_logs
        start = threading.Barrier(4)
        def work(pause):
            with quiet_native_logs():
                start.wait()
                os.write(2, b"noise from a thread\\n")
                time.sleep(pause)
        threads = [threading.Thread(target=work, args=(0.05 * i,)) for i in range(4)]
        for t in threads: t.start()
        for t in threads: t.join()
        os.write(2, b"after\\n")
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == ["after"]


def test_an_error_inside_replays_the_captured_lines():
    done = python(
        """
        import os
        from trainer.vision.quiet import quiet_native_logs
        try:
            with quiet_native_logs():
                os.write(2, b"E0000 graph.cc:1] the reason\\n")
                raise RuntimeError("graph failed")
        except RuntimeError:
            os.write(2, b"our message\\n")
        """
    )
    assert done.returncode == 0
    assert "the reason" in done.stderr and done.stderr.rstrip().endswith("our message")


def test_the_variable_turns_the_redirection_off():
    done = python(
        """
        import os
        from trainer.vision.quiet import quiet_native_logs
        with quiet_native_logs():
            os.write(2, b"native line\\n")
        """,
        logs=True,
    )
    assert done.stderr.splitlines() == ["native line"]
