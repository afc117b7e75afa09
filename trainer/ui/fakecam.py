"""A fake-camera clip for Chromium (``--use-file-for-fake-video-capture``) made from real photos.

Used by the browser end-to-end test and the app benchmarks: a neutral face held, then the same face
making a sign, as an I420 ``.y4m`` written by the vision layer's ``write_y4m``. The photos are read
from ``../shared/gestures`` at run time and never copied into the repository.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

# The same woman, same studio, from ../shared/gestures (MANIFEST: lp_d3 frames 0 and 306).
NEUTRAL_PHOTO = "neutral/lp_d3_f0000_neutral.jpg"
MOUTH_OPEN_PHOTO = "mouth_open/lp_d3_f0306_mouth_open.jpg"
CLIP_SIZE = (640, 480)


def fit(image: np.ndarray, size: tuple[int, int] = CLIP_SIZE) -> np.ndarray:
    """Centre ``image`` on a grey canvas of ``size`` (w, h), scaled to fit, as a webcam frame."""
    import cv2

    w, h = size
    scale = min(w / image.shape[1], h / image.shape[0])
    resized = cv2.resize(image, (int(image.shape[1] * scale), int(image.shape[0] * scale)))
    canvas = np.full((h, w, 3), 128, dtype=np.uint8)
    y = (h - resized.shape[0]) // 2
    x = (w - resized.shape[1]) // 2
    canvas[y:y + resized.shape[0], x:x + resized.shape[1]] = resized
    return canvas


def make_sign_clip(gestures_dir: Path, out: Path, *, neutral_s: float = 2.0, sign_s: float = 2.0,
                   fps: int = 30) -> Path:
    """A .y4m clip: a neutral face held ``neutral_s`` then the same face with the mouth open
    (one ace under every convention) held ``sign_s``. Chromium loops it."""
    import cv2

    from trainer.vision.sources import write_y4m

    neutral = fit(cv2.imread(str(gestures_dir / NEUTRAL_PHOTO)))
    sign = fit(cv2.imread(str(gestures_dir / MOUTH_OPEN_PHOTO)))
    frames = [neutral] * int(neutral_s * fps) + [sign] * int(sign_s * fps)
    write_y4m(frames, out, fps=fps)
    return out
