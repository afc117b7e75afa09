"""Which input mode the app is in, and why: live camera, uploaded clip or photo, or buttons only.

The app must say plainly why the live camera is not in use (switched off, recognizer or model
missing, browser refused or found no camera). This module only *probes* (``importlib.util.find_spec``,
no heavy import), so it is cheap to call on every rerun. Only the optional extras (MediaPipe,
OpenCV, streamlit-webrtc, PyAV) are probed: the app's own modules are imported, never probed.
"""

from __future__ import annotations

import enum
import importlib.util
import sys
from dataclasses import dataclass


class InputMode(enum.Enum):
    LIVE_CAMERA = "live camera"
    UPLOAD = "clip or photo upload"
    BUTTONS = "sign buttons only"


@dataclass(frozen=True, slots=True)
class Piece:
    """A part of the app that may be unavailable, and if so why: an optional extra (the recognizer,
    the live camera) or the progress database. The app's own modules are always there."""

    name: str
    available: bool
    reason: str = ""


def has_module(module: str) -> bool:
    """Whether ``module`` can be found, without importing it.

    A module already in ``sys.modules`` is there, even half-imported: while another thread imports
    OpenCV for the first time, ``sys.modules['cv2']`` is a module whose ``__spec__`` is None (its
    loader swaps itself in), and ``find_spec`` then raises ``ValueError('cv2.__spec__ is None')``.
    Reading that as "not installed" told users the model was missing while the camera started.
    """
    if module in sys.modules:
        return True
    try:
        return importlib.util.find_spec(module) is not None
    except ValueError:
        # The module was put into sys.modules between the check above and find_spec (being imported).
        return module in sys.modules
    except ImportError:
        return False


def recognizer() -> Piece:
    """Can the app recognise signs from images at all (vision extras and the pipeline present)?"""
    if not has_module("mediapipe") or not has_module("cv2"):
        return Piece(
            "recognizer",
            False,
            "model missing: the vision extras (mediapipe 0.10.21 with its bundled models) are not "
            "installed; install with `pip install -e '.[app]'`",
        )
    return Piece("recognizer", True)


def live_camera_support() -> Piece:
    if not has_module("streamlit_webrtc") or not has_module("av"):
        return Piece(
            "live camera",
            False,
            "streamlit-webrtc is not installed; install with `pip install -e '.[app]'`",
        )
    return Piece("live camera", True)


@dataclass(frozen=True, slots=True)
class ModeReport:
    mode: InputMode
    why: str


def input_mode(camera_switch: bool, *, upload: bool = True) -> ModeReport:
    """The mode the sign input is in, with the reason a user can act on. ``upload`` says whether
    the page takes an uploaded clip or photo (Practice does; Play and the Quiz do not): a page is
    never told to suggest an action it lacks."""
    rec = recognizer()
    if not rec.available:
        return ModeReport(InputMode.BUTTONS, f"No recognition: {rec.reason}. Give every sign with its button.")
    fallback = InputMode.UPLOAD if upload else InputMode.BUTTONS
    if not camera_switch:
        return ModeReport(
            fallback,
            "Camera switched off: switch on “Camera on” in the sidebar"
            + (", upload a clip or a photo of a sign," if upload else "")
            + " or give signs with the buttons.",
        )
    cam = live_camera_support()
    if not cam.available:
        return ModeReport(
            fallback,
            f"No live camera: {cam.reason}. "
            + ("Upload a clip or a photo instead." if upload else "Give signs with the buttons."),
        )
    return ModeReport(
        InputMode.LIVE_CAMERA,
        "Live camera: press START under the video. If the browser reports NotAllowedError, camera "
        "permission was refused; NotFoundError means no camera was found. "
        + ("Upload or buttons still work." if upload else "The buttons still work."),
    )
