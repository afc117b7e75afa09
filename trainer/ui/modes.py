"""Which input mode the app is in, and why: live camera, uploaded clip or photo, or buttons only.

The app must say plainly why the live camera is not in use (switched off, recognizer or model
missing, browser refused or found no camera). This module only *probes* (``importlib.util.find_spec``,
no heavy import), so it is cheap to call on every rerun.
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
    """One collaborator piece the app wires in: whether it is there, and if not why."""

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
    for module in ("trainer.vision.pipeline",):
        if not has_module(module):
            return Piece("recognizer", False, f"the recognizer is not available in this build ({module} is missing)")
    return Piece("recognizer", True)


def live_camera_support() -> Piece:
    if not has_module("streamlit_webrtc") or not has_module("av"):
        return Piece(
            "live camera",
            False,
            "streamlit-webrtc is not installed; install with `pip install -e '.[app]'`",
        )
    return Piece("live camera", True)


def piece(name: str, *modules: str) -> Piece:
    """A collaborator piece (deck, table, quiz, storage) by the modules it needs."""
    missing = [m for m in modules if not has_module(m)]
    if missing:
        return Piece(name, False, f"{name} is not available in this build ({', '.join(missing)} missing)")
    return Piece(name, True)


def piece_with(name: str, module: str, *attributes: str) -> Piece:
    """A piece that is there only if ``module`` imports and exports ``attributes``. Only for light
    modules (deck, rules, bots, quiz, storage): this really imports them."""
    import importlib

    try:
        loaded = importlib.import_module(module)
    except ImportError as error:
        return Piece(name, False, f"{name} is not available in this build ({module}: {error})")
    missing = [a for a in attributes if not hasattr(loaded, a)]
    if missing:
        return Piece(name, False, f"{name} is not available in this build ({module} lacks {', '.join(missing)})")
    return Piece(name, True)


@dataclass(frozen=True, slots=True)
class ModeReport:
    mode: InputMode
    why: str


def input_mode(camera_switch: bool) -> ModeReport:
    """The mode the sign input is in, with the reason a user can act on."""
    rec = recognizer()
    if not rec.available:
        return ModeReport(InputMode.BUTTONS, f"No recognition: {rec.reason}. Give every sign with its button.")
    if not camera_switch:
        return ModeReport(
            InputMode.UPLOAD,
            "Camera switched off (sidebar). Upload a clip or a photo of a sign, or give signs with the buttons.",
        )
    cam = live_camera_support()
    if not cam.available:
        return ModeReport(InputMode.UPLOAD, f"No live camera: {cam.reason}. Upload a clip or a photo instead.")
    return ModeReport(
        InputMode.LIVE_CAMERA,
        "Live camera: press START under the video. If the browser reports NotAllowedError, camera "
        "permission was refused; NotFoundError means no camera was found. Upload or buttons still work.",
    )
