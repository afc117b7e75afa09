"""Fake-camera clips for Chromium (``--use-file-for-fake-video-capture``) made from real footage.

Used by the browser end-to-end test, the app benchmarks and the screenshot script, as I420 ``.y4m``
files written by the vision layer's ``write_y4m`` at test time. The footage is read from
``../shared/gestures`` at run time and never copied into the repository.

* :func:`make_signing_clip`: a real clip of a man opening his mouth twice (one ace each time under
  every convention), closed-mouth frames of the same clip appended so that Chromium's loop keeps
  the openings apart (the recognizer counts openings closer than its release time as repeats).
* :func:`make_sign_clip`: two photos, a neutral face held then the same face with the mouth open.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

# The same woman, same studio, from ../shared/gestures (MANIFEST: lp_d3 frames 0 and 306).
NEUTRAL_PHOTO = "neutral/lp_d3_f0000_neutral.jpg"
MOUTH_OPEN_PHOTO = "mouth_open/lp_d3_f0306_mouth_open.jpg"
CLIP_SIZE = (640, 480)
# A real man, studio, a deliberate mouth opening: the jaw dropped to an 'O' at 0.13-1.27 s, then
# closed (MANIFEST: mouth_open/skyreels_drv7_open_clip.mp4, 30 fps, 480x480). Its second opening
# (2.03-3.07 s, teeth showing) also reads as tongue_out, so the clip is cut before it.
SIGNING_CLIP = "mouth_open/skyreels_drv7_open_clip.mp4"
SIGNING_CUT_S = 1.9
"""Where the clip is cut: after the 'O' and the blink, the mouth closed."""
SIGNING_ONSET_S = 0.13
"""Where the opening begins (what the recognizer reports on the file)."""
LOOP_PAD_S = 2.0
"""Closed-mouth time appended: longer than the recognizer's 0.6 s release plus its 0.4 s refractory
time, so that Chromium's loop gives one ace each time, not a repeat count; and mostly a neutral face,
as a person's is between signs, for the recognizer's running neutral baseline (holding the 'O'
longer instead made it part of that baseline, and the opening was missed for minutes)."""


def _photo(path: Path) -> np.ndarray:
    """A photo read by OpenCV; a ValueError naming the file when it cannot be read."""
    import cv2

    image = cv2.imread(str(path))
    if image is None:
        raise ValueError(f"cannot read the photo {path}: is it there, and an image?")
    return image


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

    from trainer.vision.sources import write_y4m

    neutral = fit(_photo(gestures_dir / NEUTRAL_PHOTO))
    sign = fit(_photo(gestures_dir / MOUTH_OPEN_PHOTO))
    frames = [neutral] * int(neutral_s * fps) + [sign] * int(sign_s * fps)
    write_y4m(frames, out, fps=fps)
    return out


def make_signing_clip(gestures_dir: Path, out: Path, *, pad_s: float = LOOP_PAD_S, slow: int = 1) -> tuple[Path, float]:
    """The real signing clip as a fake camera: its frames up to :data:`SIGNING_CUT_S`, fitted to a
    webcam frame, then the last (closed-mouth) frame held ``pad_s``. Returns the file and the loop's
    length in seconds (Chromium plays it again and again: one opening per loop). ``slow`` plays the
    clip that many times slower (each frame repeated): the same man holding his mouth open longer,
    as a person holding a sign while clicking."""
    import cv2

    from trainer.vision.sources import write_y4m

    path = gestures_dir / SIGNING_CLIP
    capture = cv2.VideoCapture(str(path))
    fps = capture.get(cv2.CAP_PROP_FPS) or 30.0
    frames: list[Any] = []
    while len(frames) < int(SIGNING_CUT_S * fps) * slow:
        ok, image = capture.read()
        if not ok:
            break
        frames.extend([fit(image)] * slow)
    capture.release()
    if not frames:
        raise ValueError(f"no frame could be read from {path}: check ../shared/gestures")
    rate = int(round(fps))
    frames += [frames[-1]] * int(round(pad_s * rate))
    write_y4m(frames, out, fps=rate)
    return out, len(frames) / rate


def seed_with_one_ace() -> int:
    """The first seed of a vendee deal in which the person holds exactly one ace: the signing clip's
    mouth opening (un as) is then the truth, and the table lets it through (browser test, screenshots
    and the camera benchmark all play this deal)."""
    from trainer.rules.cards import ACES
    from trainer.ui.game_session import HUMAN_SEAT, GameSession

    for seed in range(500):
        hand = GameSession.start("vendee", "classic", seed).table.view(HUMAN_SEAT).hand
        if sum(card in ACES for card in hand) == 1:
            return seed
    raise ValueError("no seed below 500 deals exactly one ace to the person")
