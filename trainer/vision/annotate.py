"""Drawing on frames: landmarks (face contours, hands, shoulders) and live gesture meters (a bar per
gesture with its enter/exit thresholds, lit while the gesture is active). Used by
``aluette recognize --annotate OUT`` and by the app's camera overlay.

Plain OpenCV primitives on a copy of the frame (about 1 ms at 640x480), so it can run in the frame
callback. Must not import the rules engine, bots, quiz or UI.
"""

from __future__ import annotations

from collections.abc import Mapping

import cv2
import numpy as np

from trainer.signals.gestures import Gesture
from trainer.vision.recognizer import LiveState
from trainer.vision.types import Landmarks

# Face mesh contours worth drawing (lips, eyes, brows, oval): index chains of the 468-point mesh.
_FACE_CHAINS = (
    (61, 146, 91, 181, 84, 17, 314, 405, 321, 375, 291, 409, 270, 269, 267, 0, 37, 39, 40, 185, 61),
    (78, 95, 88, 178, 87, 14, 317, 402, 318, 324, 308, 415, 310, 311, 312, 13, 82, 81, 80, 191, 78),
    (33, 7, 163, 144, 145, 153, 154, 155, 133, 173, 157, 158, 159, 160, 161, 246, 33),
    (263, 249, 390, 373, 374, 380, 381, 382, 362, 398, 384, 385, 386, 387, 388, 466, 263),
    (70, 63, 105, 66, 107),
    (300, 293, 334, 296, 336),
    (10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152,
     148, 176, 149, 150, 136, 172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109, 10),
)
_HAND_CHAINS = ((0, 1, 2, 3, 4), (0, 5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15, 16), (0, 17, 18, 19, 20),
                (5, 9, 13, 17))
_POSE_CHAINS = ((7, 11, 12, 8),)
FACE_COLOUR = (200, 200, 200)
HAND_COLOURS = {"left": (80, 200, 255), "right": (255, 160, 60)}
BAR_ON = (60, 200, 60)
BAR_OFF = (150, 150, 150)
ACTIVE = (40, 220, 255)


def _chain(image: np.ndarray, points: np.ndarray, chain, colour, thickness: int = 1) -> None:
    pts = np.round(points[list(chain), :2]).astype(np.int32)
    cv2.polylines(image, [pts], False, colour, thickness, cv2.LINE_AA)


def draw_landmarks(image: np.ndarray, landmarks: Landmarks) -> np.ndarray:
    """Draw on ``image`` in place and return it."""
    scale = max(1, round(max(image.shape[:2]) / 640))
    if landmarks.face is not None:
        for chain in _FACE_CHAINS:
            _chain(image, landmarks.face, chain, FACE_COLOUR, scale)
        if landmarks.face.shape[0] >= 478:
            for iris in (468, 473):
                x, y = np.round(landmarks.face[iris, :2]).astype(int)
                cv2.circle(image, (int(x), int(y)), 2 * scale, (0, 255, 255), -1, cv2.LINE_AA)
    for hand in landmarks.hands:
        colour = HAND_COLOURS[hand.side.value]
        for hand_chain in _HAND_CHAINS:
            _chain(image, hand.points, hand_chain, colour, 2 * scale)
        for x, y in np.round(hand.points[:, :2]).astype(int):
            cv2.circle(image, (int(x), int(y)), 2 * scale, colour, -1, cv2.LINE_AA)
        wx, wy = np.round(hand.points[0, :2]).astype(int)
        cv2.putText(image, hand.side.value, (int(wx) + 4, int(wy) + 14), cv2.FONT_HERSHEY_SIMPLEX,
                    0.45 * scale, colour, scale, cv2.LINE_AA)
    if landmarks.pose is not None:
        for pose_chain in _POSE_CHAINS:
            _chain(image, landmarks.pose, pose_chain, (255, 0, 255), 2 * scale)
    return image


def draw_meters(
    image: np.ndarray,
    scores: Mapping[Gesture, float],
    thresholds: Mapping[Gesture, tuple[float, float]] | None = None,
    active: Mapping[Gesture, object] | None = None,
    talking: float | None = None,
    gestures: tuple[Gesture, ...] | None = None,
) -> np.ndarray:
    """A translucent panel on the left: one bar per gesture (score 0..1), a white tick at the enter
    threshold and a grey one at the exit threshold; active gestures are lit and named in colour."""
    gestures = gestures or tuple(Gesture)
    h, w = image.shape[:2]
    row = max(12, min(22, (h - 24) // (len(gestures) + 1)))
    font = 0.32 * row / 14
    label_w = 8 + max(cv2.getTextSize(g.value, cv2.FONT_HERSHEY_SIMPLEX, font, 1)[0][0] for g in gestures)
    bar_w = max(40, min(120, w // 6))
    width = label_w + bar_w + 6
    panel_h = row * (len(gestures) + (1 if talking is not None else 0)) + 8
    overlay = image[0:min(h, panel_h), 0:min(w, width)]
    overlay[:] = (overlay * 0.45).astype(np.uint8)
    for i, gesture in enumerate(gestures):
        y = 4 + i * row
        score = float(scores.get(gesture, 0.0))
        is_active = active is not None and gesture in active
        colour = ACTIVE if is_active else (230, 230, 230)
        cv2.putText(image, gesture.value, (4, y + row - 4), cv2.FONT_HERSHEY_SIMPLEX, font, colour, 1, cv2.LINE_AA)
        x0, x1 = label_w, label_w + bar_w
        cv2.rectangle(image, (x0, y + 3), (x1, y + row - 3), (70, 70, 70), -1)
        fill = x0 + int(round(bar_w * max(0.0, min(1.0, score))))
        cv2.rectangle(image, (x0, y + 3), (fill, y + row - 3), BAR_ON if is_active else BAR_OFF, -1)
        enter, exit_ = (thresholds or {}).get(gesture, (0.5, 0.5))
        for value, tick in ((exit_, (120, 120, 120)), (enter, (255, 255, 255))):
            tx = x0 + int(round(bar_w * value))
            cv2.line(image, (tx, y + 1), (tx, y + row - 1), tick, 1)
    if talking is not None:
        y = 4 + len(gestures) * row
        label = f"talking {talking:.2f}"
        cv2.putText(image, label, (4, y + row - 4), cv2.FONT_HERSHEY_SIMPLEX, font,
                    (80, 80, 255) if talking >= 0.5 else (200, 200, 200), 1, cv2.LINE_AA)
    return image


def annotate(image: np.ndarray, landmarks: Landmarks | None, live: LiveState | None) -> np.ndarray:
    """A copy of the frame with landmarks and meters drawn."""
    out = image.copy()
    if landmarks is not None:
        draw_landmarks(out, landmarks)
    if live is not None:
        draw_meters(out, live.scores, live.thresholds, live.active, live.talking)
    return out
