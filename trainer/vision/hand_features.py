"""Per-hand features: scale-free numbers computed from 21 MediaPipe hand landmarks (pixels).

Every distance is divided by the hand size, the wrist to middle-finger MCP distance (3-D, so a hand
turned toward the camera is not shrunk as much as by its 2-D outline). What each finger does is
summarised by ``extension`` in 0..1 (0 folded into the palm, 1 straight out), mixing two cues that
fail differently: how far the tip is from the wrist compared with the PIP joint (robust to blur) and
how straight the finger's joints are (robust to a finger pointed toward the camera).

The ramps' end points were read off the real photos in ../shared/gestures (replayed from
``samples/hand_landmarks.json``): extended fingers have tip/PIP distance ratios 1.3-1.5 and joint
angles 165-178 degrees; folded fingers 0.45-1.0 and 85-130 degrees; the half-curled fingers of an
O shape or a heart sit at 1.0-1.1 and 135-150, on the boundary.

Must not import the rules engine, bots, quiz or UI (only numpy and trainer.vision.types).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from trainer.signals.gestures import Side
from trainer.vision.types import HandLandmarks

WRIST = 0
THUMB = (1, 2, 3, 4)
INDEX = (5, 6, 7, 8)
MIDDLE = (9, 10, 11, 12)
RING = (13, 14, 15, 16)
PINKY = (17, 18, 19, 20)
FINGERS = (THUMB, INDEX, MIDDLE, RING, PINKY)
FINGER_NAMES = ("thumb", "index", "middle", "ring", "pinky")
TIPS = (4, 8, 12, 16, 20)


@dataclass(frozen=True, slots=True)
class HandFeatureConfig:
    """Ramps that turn raw geometry into 0..1 cues (value at 0, value at 1)."""

    ratio_ramp: tuple[float, float] = (0.85, 1.1)
    """Finger tip-to-wrist over PIP-to-wrist distance."""
    straight_ramp: tuple[float, float] = (130.0, 160.0)
    """Mean joint angle of a finger, degrees (180 = straight)."""
    ratio_weight: float = 0.35
    """Weight of the distance-ratio cue against the joint-angle cue. The angles (3-D) win: a fist
    turned toward the camera (thumb up at the lens, ../shared thumb clip) projects its curled index
    tip far from the wrist (ratio cue 1) while its joints are bent (angle cue 0)."""
    thumb_reach_ramp: tuple[float, float] = (0.75, 1.0)
    """Thumb tip to little-finger MCP, in hand sizes: a thumb folded across the palm (ASL 'I', the
    pinky sign) stays within 0.7; a thumb held out (thumb up, 'call') is 0.95 and more away."""
    thumb_clear_ramp: tuple[float, float] = (0.4, 0.7)
    """Thumb tip to index PIP, in hand sizes: a fist's thumb lies alongside the index."""
    thumb_open_ramp: tuple[float, float] = (0.35, 0.6)
    """Thumb tip to index tip, in hand sizes: an O shape or a pinch is not a thumb shown."""


DEFAULT_CONFIG = HandFeatureConfig()


@dataclass(frozen=True, slots=True)
class HandFeatures:
    """Scale-free description of one hand."""

    side: Side
    size: float
    """Wrist to middle MCP, pixels (the unit of every other distance)."""
    extension: tuple[float, float, float, float, float]
    """0..1 per finger, thumb first."""
    curl: tuple[float, float, float, float, float]
    """Mean joint bend per finger, 0 straight .. 1 folded back on itself (degrees / 180)."""
    pinch: float
    """Thumb tip to index tip, in hand sizes (small = pinched)."""
    index_reach: float
    """Index tip to the palm centre, in hand sizes: 0.65-1.1 for a pen grip or an O, 0.35-0.75 for a
    fist whose thumb happens to touch the index."""
    tips: np.ndarray
    """5 x 3 fingertip positions relative to the wrist, in hand sizes."""
    palm_facing: float
    """+1 palm toward the camera, -1 back of the hand toward it."""
    pinch_point: np.ndarray
    """Midpoint of the thumb and index tips, pixels (x, y): the 'pen' of the writing mime."""
    center: np.ndarray
    """Mean of the wrist and the four MCPs, pixels (x, y)."""
    tip_points: np.ndarray
    """5 x 2 fingertip positions in pixels (thumb first), to relate a finger to the face."""

    def extended(self, name: str) -> float:
        return self.extension[FINGER_NAMES.index(name)]

    def as_dict(self, prefix: str) -> dict[str, float]:
        """Flat named numbers for FrameScores.features, e.g. ``hand_left_index_ext``."""
        out = {f"{prefix}_{name}_ext": round(float(v), 4)
               for name, v in zip(FINGER_NAMES, self.extension, strict=False)}
        out.update({f"{prefix}_{name}_curl": round(float(v), 4)
                    for name, v in zip(FINGER_NAMES, self.curl, strict=False)})
        out[f"{prefix}_pinch"] = round(float(self.pinch), 4)
        out[f"{prefix}_index_reach"] = round(float(self.index_reach), 4)
        out[f"{prefix}_palm_facing"] = round(float(self.palm_facing), 4)
        out[f"{prefix}_size_px"] = round(float(self.size), 2)
        return out


def ramp(value: float, low: float, high: float) -> float:
    """0 at ``low``, 1 at ``high``, linear between, clipped."""
    if high == low:
        return float(value >= high)
    return float(min(1.0, max(0.0, (value - low) / (high - low))))


def _angle(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> float:
    """Angle at b in degrees."""
    u, v = a - b, c - b
    nu, nv = float(np.linalg.norm(u)), float(np.linalg.norm(v))
    if nu < 1e-9 or nv < 1e-9:
        return 180.0
    return float(np.degrees(np.arccos(np.clip(float(u @ v) / (nu * nv), -1.0, 1.0))))


def hand_features(hand: HandLandmarks, config: HandFeatureConfig = DEFAULT_CONFIG) -> HandFeatures:
    """Compute the features of one hand. Raises ValueError on a degenerate hand (size 0)."""
    p = np.asarray(hand.points, dtype=np.float64)
    if p.shape != (21, 3):
        raise ValueError(f"hand landmarks have shape {p.shape}: expected 21 x 3 MediaPipe points")
    wrist = p[WRIST]
    size = float(np.linalg.norm(p[MIDDLE[0]] - wrist))
    if size < 1e-6:
        raise ValueError("hand landmarks are degenerate (wrist on the middle knuckle): skip this hand")

    extension: list[float] = []
    curl: list[float] = []
    # Thumb: its joints bend little even when folded, so judge it by where its tip is.
    t_angles = (_angle(p[1], p[2], p[3]), _angle(p[2], p[3], p[4]))
    curl.append((180.0 - sum(t_angles) / 2) / 180.0)
    reach = float(np.linalg.norm(p[4] - p[PINKY[0]])) / size
    clear = float(np.linalg.norm(p[4] - p[INDEX[1]])) / size
    pinch = float(np.linalg.norm(p[4] - p[8])) / size
    extension.append(
        min(
            ramp(reach, *config.thumb_reach_ramp),
            ramp(clear, *config.thumb_clear_ramp),
            ramp(pinch, *config.thumb_open_ramp),
        )
    )
    for mcp, pip, dip, tip in FINGERS[1:]:
        angles = (_angle(wrist, p[mcp], p[pip]), _angle(p[mcp], p[pip], p[dip]), _angle(p[pip], p[dip], p[tip]))
        straight = sum(angles) / 3
        ratio = float(np.linalg.norm(p[tip] - wrist)) / max(float(np.linalg.norm(p[pip] - wrist)), 1e-6)
        extension.append(
            config.ratio_weight * ramp(ratio, *config.ratio_ramp)
            + (1.0 - config.ratio_weight) * ramp(straight, *config.straight_ramp)
        )
        curl.append((180.0 - straight) / 180.0)

    # Palm normal from the wrist->index MCP and wrist->pinky MCP vectors. MediaPipe's z grows away
    # from the camera, so for the subject's right hand a negative normal z means the palm faces us;
    # the left hand is the mirror image.
    normal = np.cross(p[INDEX[0]] - wrist, p[PINKY[0]] - wrist)
    norm = float(np.linalg.norm(normal))
    nz = float(normal[2]) / norm if norm > 1e-9 else 0.0
    palm_facing = -nz if hand.side is Side.RIGHT else nz

    tips = (p[list(TIPS)] - wrist) / size
    palm = p[[WRIST, INDEX[0], MIDDLE[0], RING[0], PINKY[0]]]
    center = palm[:, :2].mean(axis=0)
    index_reach = float(np.linalg.norm(p[INDEX[3]] - palm.mean(axis=0))) / size
    return HandFeatures(
        side=hand.side,
        size=size,
        extension=tuple(extension),  # type: ignore[arg-type]
        curl=tuple(curl),  # type: ignore[arg-type]
        pinch=pinch,
        index_reach=index_reach,
        tips=tips,
        palm_facing=palm_facing,
        pinch_point=(p[4, :2] + p[8, :2]) / 2,
        center=center,
        tip_points=p[list(TIPS), :2].copy(),
    )
