"""Start and stop the Streamlit server, and the Chromium flags for a fake camera.

Shared by ``aluette app``, the browser tests, the app benchmarks and the screenshot script, so all of
them start the app the same way: :func:`serve_app` (the server for the length of a ``with``) and
:func:`chromium_page` (Debian's headless Chromium on it, through Playwright). Standard library only at
import time (Streamlit runs in a child process; Playwright, a test extra, is imported by
:func:`chromium_page` alone).
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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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


@dataclass(frozen=True, slots=True)
class AppServer:
    """A running app server: where to reach it, and its log (None: output discarded)."""

    url: str
    port: int
    process: subprocess.Popen
    log: Path | None


@contextmanager
def serve_app(*, home: Path | None = None, log: Path | None = None, timeout: float = 60.0,
              port: int | None = None) -> Iterator[AppServer]:
    """The app on a local port (``port``, or a free one) for the length of the ``with`` (``home``:
    its ALUETTE_HOME data folder; ``log``: where its output goes), stopped with its children on the
    way out."""
    port = port if port is not None else free_port()
    env = {"ALUETTE_HOME": str(home)} if home is not None else None
    process = start_server(port, env=env, log=log)
    try:
        wait_healthy(port, timeout=timeout, process=process)
        yield AppServer(f"http://127.0.0.1:{port}", port, process, log)
    finally:
        stop_server(process)


@contextmanager
def chromium_page(url: str | None = None, *, fake_video: Path | None = None, viewport: tuple[int, int] = (1400, 1100),
                  on_console: Callable[[str], None] | None = None,
                  on_page_error: Callable[[str], None] | None = None) -> Iterator[Any]:
    """A Playwright page in Debian's headless Chromium (``executable_path``: no browser download),
    its camera faked by ``fake_video`` if given, opened at ``url`` if given; the browser is closed on
    the way out. ``on_console`` receives every console line of the page and its frames (the camera
    widget's own connection messages included), as "type: text"; ``on_page_error`` every uncaught
    error of the page's scripts."""
    if not CHROMIUM.is_file():
        raise LaunchError(f"Debian chromium not found at {CHROMIUM}: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                             args=chromium_args(fake_video))
        try:
            page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
            if on_console is not None:
                page.on("console", lambda message: on_console(f"{message.type}: {message.text}"))
            if on_page_error is not None:
                page.on("pageerror", lambda error: on_page_error(str(error)))
            if url is not None:
                page.goto(url, wait_until="domcontentloaded")
            yield page
        finally:
            browser.close()
