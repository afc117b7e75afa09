"""Keep MediaPipe's native log lines off our commands' stderr.

MediaPipe's C++ side (absl logging, TF Lite) writes straight to file descriptor 2: "WARNING: All log
messages before absl::InitializeLog() ...", "INFO: Created TensorFlow Lite XNNPACK delegate for CPU",
"W0000 ... inference_feedback_manager.cc ... Feedback manager requires ...", "landmark_projection_
calculator.cc ... NORM_RECT without IMAGE_DIMENSIONS". ``GLOG_minloglevel`` does not stop them, and
Python's ``sys.stderr`` is not involved, so the only lever is the file descriptor itself.

Measured with mediapipe 0.10.21 (face mesh, hands, pose; static and video mode, 40 varied photos):
the lines come (1) while a graph opens its calculators, which it does on its own threads *after*
its constructor returned, so a block around the constructor alone loses the race now and then; a
first ``process`` call inside the block waits for them; and (2) once per process, on the first
frame where any graph finds landmarks ("Using NORM_RECT without IMAGE_DIMENSIONS"). None after.
So ``quiet_native_logs()`` is meant to wrap construction plus a warm-up call, and the calls up to
the first detection (at most ``QUIET_FRAMES``), never every frame: while it is active, fd 2 points
to a temporary file, and *anything* written to stderr by any thread goes there too. Nested or
concurrent blocks share one redirection (a lock and a depth count); the last one out restores fd 2.
If a block ends with an exception, the captured lines are replayed on stderr, since they may
explain the failure.

Set ``ALUETTE_MEDIAPIPE_LOGS=1`` to see the native lines (nothing is redirected then).

Standard library only; must not import mediapipe, the rules engine, bots or UI.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import threading
from collections.abc import Iterator

QUIET_FRAMES = 300
"""Frames (10 s at 30 fps) during which a tracker keeps its ``process`` calls quiet while none of
its graphs has found anything yet: a graph's first landmarks print one more warning (measured)."""
LOGS_ENV = "ALUETTE_MEDIAPIPE_LOGS"
"""Set to 1 (or anything but "" / "0") to let MediaPipe's native log lines through."""

_lock = threading.Lock()
_depth = 0
_saved_fd: int | None = None
_capture = None
_failed = False


def native_logs_wanted() -> bool:
    """True when the user asked to see MediaPipe's native logs (``ALUETTE_MEDIAPIPE_LOGS=1``)."""
    return os.environ.get(LOGS_ENV, "").strip() not in ("", "0")


def _flush_python_stderr() -> None:
    # Text our own code already wrote must reach the real stderr before the descriptor moves.
    for stream in (sys.stderr, sys.__stderr__):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass


def _enter() -> bool:
    """Redirect fd 2 (first entrant only). False when there is no usable fd 2 to redirect."""
    global _depth, _saved_fd, _capture
    with _lock:
        if _depth == 0:
            try:
                capture = tempfile.TemporaryFile(prefix="aluette-mediapipe-", suffix=".log")
                _flush_python_stderr()
                saved = os.dup(2)
            except OSError:
                return False
            os.dup2(capture.fileno(), 2)
            _saved_fd, _capture = saved, capture
        _depth += 1
        return True


def _leave(failed: bool) -> None:
    global _depth, _saved_fd, _capture, _failed
    with _lock:
        _failed = _failed or failed
        _depth -= 1
        if _depth > 0:
            return
        capture, saved, replay = _capture, _saved_fd, _failed
        _capture, _saved_fd, _failed = None, None, False
        _flush_python_stderr()
        # The outermost _enter set both (depth 0 -> 1); nothing else clears them.
        assert saved is not None and capture is not None
        os.dup2(saved, 2)
        os.close(saved)
        if replay:
            capture.seek(0)
            text = capture.read()
            if text:
                os.write(2, b"MediaPipe's own log lines before the error:\n" + text)
        capture.close()


@contextlib.contextmanager
def quiet_native_logs() -> Iterator[None]:
    """Send file descriptor 2 to a temporary file for the duration of the block (see module docs)."""
    if native_logs_wanted() or not _enter():
        yield
        return
    failed = True
    try:
        yield
        failed = False
    finally:
        _leave(failed)
