"""Uploaded photos and clips: capped in size, typed by their bytes (not their name), saved under a
safe name, and analysed so that any failure is one message for the page, never a traceback.

The server's own cap (``server.maxUploadSize`` in .streamlit/config.toml) stops larger uploads
before they reach Python; :data:`MAX_UPLOAD_BYTES` is the same figure, checked again here so the
rule holds however the server was started. Pixel budgets and the rest are the vision layer's
(:mod:`trainer.vision.media_limits`), applied when the file is opened.
"""

from __future__ import annotations

import logging
import re
import tempfile
from pathlib import Path
from typing import Any

MAX_UPLOAD_BYTES = 50 * 1024 * 1024
KINDS = "a photo (JPEG, PNG, WebP, BMP) or a clip (MP4, WebM, MOV, AVI, y4m)"


class UploadError(ValueError):
    """An upload the app will not analyse; the message says why and what to upload instead."""


def safe_name(name: str) -> str:
    """The uploaded file's name without folders or odd characters (it only labels the temp file)."""
    base = re.sub(r"[^\w.\-]+", "_", Path(str(name)).name)[-100:].lstrip(".")
    return base or "upload"


def save_upload(upload: Any, folder: str | Path) -> Path:
    """Write ``upload`` (Streamlit's UploadedFile) into ``folder`` after checking size and content."""
    size = int(getattr(upload, "size", 0) or 0)
    if size > MAX_UPLOAD_BYTES:
        raise UploadError(f"{upload.name} is {size / 1e6:.0f} MB, over the {MAX_UPLOAD_BYTES / 1e6:.0f} MB limit: "
                          "upload a shorter clip or a single photo")
    data = upload.getvalue()
    if not data:
        raise UploadError(f"{upload.name} is empty: upload {KINDS}")
    if len(data) > MAX_UPLOAD_BYTES:
        raise UploadError(f"{upload.name} is over the {MAX_UPLOAD_BYTES / 1e6:.0f} MB limit: upload a shorter clip")
    path = Path(folder) / safe_name(upload.name)
    path.write_bytes(data)
    from trainer.vision.sources import media_kind  # OpenCV loads only when a file is uploaded

    if media_kind(path) is None:
        path.unlink()
        raise UploadError(f"{upload.name}: its content is not {KINDS}, whatever its name says: upload one of those")
    return path


def analyse_upload(upload: Any, profile: Any = None) -> Any:
    """The recognizer's FileResult for an upload; UploadError (a message for the page) on any failure."""
    from trainer.ui import recognition

    with tempfile.TemporaryDirectory() as folder:
        path = save_upload(upload, folder)
        try:
            return recognition.analyse_file(path, profile)
        except ValueError as error:
            raise UploadError(str(error).replace(str(path), upload.name)) from None
        except Exception as error:  # noqa: BLE001 - a hostile file must not become a page traceback
            logging.getLogger(__name__).error("analysing the upload %r failed", upload.name, exc_info=error)
            raise UploadError(f"{upload.name} could not be analysed ({type(error).__name__}; details in the "
                              f"terminal): try {KINDS} saved again by another program") from None
