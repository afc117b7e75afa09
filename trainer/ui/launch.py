"""Start and stop the Streamlit server, and the Chromium flags for a fake camera.

Shared by ``aluette app``, the browser end-to-end test and the app benchmarks, so all three start the
app the same way. Standard library only (Streamlit runs in a child process).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
APP_SCRIPT = REPO_ROOT / "streamlit_app.py"
CHROMIUM = Path("/usr/bin/chromium")


class LaunchError(ValueError):
    """The app could not be started (script missing, port busy, server never became healthy)."""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def streamlit_command(port: int, *, headless: bool = True, script: Path = APP_SCRIPT) -> list[str]:
    """``streamlit run`` on the app, localhost only, without telemetry."""
    if not script.is_file():
        raise LaunchError(f"app script {script} not found: run from a checkout of the project")
    return [
        sys.executable, "-m", "streamlit", "run", str(script),
        "--server.port", str(port),
        "--server.address", "127.0.0.1",
        "--server.headless", "true" if headless else "false",
        "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none",
        "--client.toolbarMode", "minimal",
    ]


def start_server(port: int, *, env: dict[str, str] | None = None, log: Path | None = None) -> subprocess.Popen:
    """Start the app in its own process group (so :func:`stop_server` ends Streamlit's children too)."""
    out = open(log, "wb") if log is not None else subprocess.DEVNULL
    return subprocess.Popen(
        streamlit_command(port),
        cwd=REPO_ROOT,
        env={**os.environ, **(env or {})},
        stdout=out,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def wait_healthy(port: int, timeout: float = 30.0, process: subprocess.Popen | None = None) -> float:
    """Wait until ``/_stcore/health`` answers ok; return the seconds waited."""
    start = time.monotonic()
    url = f"http://127.0.0.1:{port}/_stcore/health"
    while time.monotonic() - start < timeout:
        if process is not None and process.poll() is not None:
            raise LaunchError(f"streamlit exited with code {process.returncode} before it was healthy")
        try:
            with urllib.request.urlopen(url, timeout=1.0) as response:
                if response.status == 200:
                    return time.monotonic() - start
        except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
            pass
        time.sleep(0.05)
    raise LaunchError(f"the app on port {port} was not healthy after {timeout:.0f} s")


def stop_server(process: subprocess.Popen, timeout: float = 10.0) -> None:
    """Stop the server started by :func:`start_server` (its process group only)."""
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=timeout)
    except ProcessLookupError:
        return
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=timeout)


def chromium_args(fake_video: Path | None = None) -> list[str]:
    """Flags for a headless Chromium that never goes online and, given a ``.y4m``, fakes a camera."""
    args = [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run",
        "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
    ]
    if fake_video is not None:
        args.append(f"--use-file-for-fake-video-capture={Path(fake_video).resolve()}")
    return args
