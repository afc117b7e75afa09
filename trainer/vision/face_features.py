"""Named, scale-free face features from one 478-point refined MediaPipe face mesh.

``face_features(points)`` turns the mesh (pixels, see ``trainer.vision.types``) into a flat
``dict[str, float]`` that the face gesture scorer, the calibration and the evaluation share. Every
distance is divided by the inter-ocular distance (3-D, so a turned head keeps its scale) and measured
in a face frame whose x axis runs from the subject's right eye to their left eye, so head roll does not
leak into vertical measures. Left and right are always the **subject's own**: in an unmirrored image the
subject's left eye is on the image's right (mesh points 263/362), their right eye on the image's left
(33/133).

It runs per frame at 30 fps, so it reads only the few dozen points it needs (about 0.1 ms a call).
``mouth_appearance(image, points)`` adds what shows between the lips (dark cavity, teeth, tongue pink),
which needs the frame itself (about 0.4 ms).
Imports numpy and ``trainer.vision.types`` (OpenCV lazily, for ``mouth_appearance`` only); never
mediapipe or anything outside the vision layer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from trainer.vision.face_shape import ShapeBasis, shape_features
from trainer.vision.types import VisionError

FACE_POINTS = 478
"""The refined face mesh (468 mesh points + 10 iris points)."""

# Mesh indices, named for the SUBJECT's side. The right eye (image left when unmirrored) is 33..133.
_R_EYE_OUTER, _R_EYE_INNER = 33, 133
_L_EYE_OUTER, _L_EYE_INNER = 263, 362
# Upper/lower lid pairs for an EAR-like openness (three vertical chords per eye).
_R_LID_UP = (160, 159, 158)
_R_LID_DOWN = (144, 145, 153)
_L_LID_UP = (387, 386, 385)
_L_LID_DOWN = (373, 374, 380)
# Iris centres (refined mesh): 468 is the subject's right iris, 473 the left.
_R_IRIS, _L_IRIS = 468, 473
# Upper edge of each eyebrow, outer to inner.
_R_BROW = (70, 63, 105, 66, 107)
_L_BROW = (300, 293, 334, 296, 336)
# Mouth: corners, outer lip middle (0 top, 17 bottom), inner lip pairs (upper, lower).
_R_MOUTH, _L_MOUTH = 61, 291
_UPPER_OUTER, _LOWER_OUTER = 0, 17
_INNER_UP = (82, 13, 312)
_INNER_DOWN = (87, 14, 317)
_NOSE_TIP, _NOSE_BASE = 1, 2
_FOREHEAD, _CHIN = 10, 152
_NOSE_BRIDGE = 168
# Lip points near each corner (upper and lower), used for how far the lips push forward.
_LIP_CENTRE = (0, 17, 13, 14, 37, 267, 84, 314)
# Whole lower lid of each eye, outer corner to inner corner (for the lid height under the iris), and
# the four points of each iris ring (for the iris radius).
_R_LID_LOW_LINE = (33, 7, 163, 144, 145, 153, 154, 155, 133)
_L_LID_LOW_LINE = (263, 249, 390, 373, 374, 380, 381, 382, 362)
_R_IRIS_RING = (469, 470, 471, 472)
_L_IRIS_RING = (474, 475, 476, 477)
# Sides of the nose wings: a width that lips do not move (the yardstick of a narrowed, pursed mouth).
_R_NOSE_WING, _L_NOSE_WING = 129, 358
# Only these points are read: converting just them to Python floats keeps the function fast.
_USED_LIST = sorted(
    {_R_EYE_OUTER, _R_EYE_INNER, _L_EYE_OUTER, _L_EYE_INNER, _R_IRIS, _L_IRIS, _R_MOUTH, _L_MOUTH,
     _UPPER_OUTER, _LOWER_OUTER, _NOSE_TIP, _NOSE_BASE, _FOREHEAD, _CHIN, _NOSE_BRIDGE, _R_NOSE_WING,
     _L_NOSE_WING}
    | set(_R_LID_UP + _R_LID_DOWN + _L_LID_UP + _L_LID_DOWN + _R_BROW + _L_BROW + _INNER_UP + _INNER_DOWN
          + _LIP_CENTRE + _R_LID_LOW_LINE + _L_LID_LOW_LINE + _R_IRIS_RING + _L_IRIS_RING)
)
_USED = np.array(_USED_LIST)

FEATURE_NAMES: tuple[str, ...] = (
    "eye_open_left",
    "eye_open_right",
    "eye_open_mean",
    "eye_open_min",
    "eye_open_max",
    "eye_open_ratio",
    "eye_open_diff",
    "brow_raise_left",
    "brow_raise_right",
    "brow_raise",
    "brow_height",
    "gaze_up_left",
    "gaze_up_right",
    "gaze_up",
    "gaze_low_left",
    "gaze_low_right",
    "gaze_low_max",
    "eye_lid_up_left",
    "eye_lid_up_right",
    "eye_lid_up",
    "head_roll",
    "head_yaw",
    "head_pitch",
    "nose_drop",
    "mouth_open",
    "mouth_width",
    "mouth_aspect",
    "mouth_width_nose",
    "lip_protrusion",
    "lip_corner_left",
    "lip_corner_right",
    "lip_corner_mean",
    "lip_corner_diff",
    "mouth_tilt_nose",
    "upper_lip",
    "lower_lip",
    "lower_lip_ratio",
    "jaw_drop",
    "mouth_shift",
    "face_px",
)
"""Every key ``face_features`` returns, in a stable order (documented in docs/vision-face.md)."""


@dataclass(frozen=True, slots=True)
class _FacePoints:
    """The used mesh points of one face: image coordinates (x, y, z) and face-frame coordinates (fu
    across the face, fv down it), by mesh index; ``scale`` is 1 / inter-ocular distance."""

    x: dict[int, float]
    y: dict[int, float]
    z: dict[int, float]
    fu: dict[int, float]
    fv: dict[int, float]
    axis: np.ndarray
    """Subject's right eye centre to left eye centre (3-D, pixels)."""
    iod: float
    flat: float
    """Length of ``axis`` in the image plane."""

    @property
    def scale(self) -> float:
        return 1.0 / self.iod


def face_features(points: np.ndarray, shape: ShapeBasis | None = None) -> dict[str, float]:
    """Scale-free features of one face; see FEATURE_NAMES and docs/vision-face.md for meanings.

    ``points`` is the (478, 3) refined mesh in pixels (z in the same scale as x). Raises VisionError
    for a wrong shape or a degenerate face (eyes on top of each other).
    """
    p = np.asarray(points, dtype=np.float64)
    f = _face_points(p)
    named = {**_eyes(f), **_brows(f), **_gaze(f), **_head_pose(f), **_mouth(f),
             # Not scale-free on purpose: the face size in pixels says how far the mesh can be trusted.
             "face_px": f.iod}
    # The principal components of the brow/eye and lip shapes (trainer.vision.face_shape).
    named.update(shape_features(p, shape))
    return named


def _face_points(p: np.ndarray) -> _FacePoints:
    if p.ndim != 2 or p.shape[0] < FACE_POINTS or p.shape[1] < 3:
        raise VisionError(
            f"face points must be a ({FACE_POINTS}, 3) array in pixels (refined mesh), got shape "
            f"{getattr(p, 'shape', None)}: give the FaceLandmarker's 478 points"
        )
    r_centre = 0.5 * (p[_R_EYE_OUTER] + p[_R_EYE_INNER])
    l_centre = 0.5 * (p[_L_EYE_OUTER] + p[_L_EYE_INNER])
    axis = l_centre - r_centre
    iod = float(np.sqrt(axis @ axis))
    flat = math.hypot(axis[0], axis[1])
    if not (iod > 1e-6 and flat > 1e-6 and math.isfinite(iod)):
        raise VisionError("degenerate face: both eyes at the same place; is this a real face mesh?")
    # Face frame: u from the subject's right eye to the left eye (image plane), v = u turned 90
    # degrees clockwise, i.e. pointing down the face. Measures along v ignore head roll.
    ux, uy = axis[0] / flat, axis[1] / flat
    # Plain Python floats from here on: a few dozen scalar operations are faster than as many
    # tiny numpy calls (the whole function must stay well under 0.3 ms per frame).
    q = p[_USED]
    frame = q[:, :2] @ np.array([[ux, -uy], [uy, ux]])
    return _FacePoints(
        x=dict(zip(_USED_LIST, q[:, 0].tolist(), strict=False)),
        y=dict(zip(_USED_LIST, q[:, 1].tolist(), strict=False)),
        z=dict(zip(_USED_LIST, q[:, 2].tolist(), strict=False)),
        fu=dict(zip(_USED_LIST, frame[:, 0].tolist(), strict=False)),
        fv=dict(zip(_USED_LIST, frame[:, 1].tolist(), strict=False)),
        axis=axis, iod=iod, flat=flat,
    )


def _avg(values: dict[int, float], index: tuple) -> float:
    return sum(values[i] for i in index) / len(index)


def _eye_line(f: _FacePoints) -> tuple[float, float]:
    """Height (fv) of the right and left eye's corner line."""
    return 0.5 * (f.fv[_R_EYE_OUTER] + f.fv[_R_EYE_INNER]), 0.5 * (f.fv[_L_EYE_OUTER] + f.fv[_L_EYE_INNER])


def _eye_widths(f: _FacePoints) -> tuple[float, float]:
    return (abs(f.fu[_R_EYE_INNER] - f.fu[_R_EYE_OUTER]) or 1.0, abs(f.fu[_L_EYE_OUTER] - f.fu[_L_EYE_INNER]) or 1.0)


def _eyes(f: _FacePoints) -> dict[str, float]:
    """Lid openness of each eye (EAR-like: mean of three vertical chords over the eye's width)."""
    x, y = f.x, f.y

    def chords(up: tuple, down: tuple, outer: int, inner: int) -> float:
        vertical = sum(math.hypot(x[d] - x[u], y[d] - y[u]) for u, d in zip(up, down, strict=False)) / len(up)
        width = math.hypot(x[outer] - x[inner], y[outer] - y[inner])
        return vertical / width if width > 0 else 0.0

    eye_r = chords(_R_LID_UP, _R_LID_DOWN, _R_EYE_OUTER, _R_EYE_INNER)
    eye_l = chords(_L_LID_UP, _L_LID_DOWN, _L_EYE_OUTER, _L_EYE_INNER)
    eye_max = max(eye_l, eye_r)
    return {
        "eye_open_left": eye_l,
        "eye_open_right": eye_r,
        "eye_open_mean": 0.5 * (eye_l + eye_r),
        "eye_open_min": min(eye_l, eye_r),
        "eye_open_max": eye_max,
        "eye_open_ratio": min(eye_l, eye_r) / eye_max if eye_max > 0 else 1.0,
        "eye_open_diff": eye_l - eye_r,
    }


def _brows(f: _FacePoints) -> dict[str, float]:
    """Brow height above each eye (/IOD) and against the eye-to-forehead span."""
    fv = f.fv
    eye_v_r, eye_v_l = _eye_line(f)
    brow_r = (eye_v_r - _avg(fv, _R_BROW)) * f.scale
    brow_l = (eye_v_l - _avg(fv, _L_BROW)) * f.scale
    # Brow height as a fraction of the eye-to-forehead-top span: less person-dependent than /IOD.
    eye_mid = 0.5 * (eye_v_r + eye_v_l)
    span = eye_mid - fv[_FOREHEAD]
    brow_height = (eye_mid - 0.5 * (_avg(fv, _R_BROW) + _avg(fv, _L_BROW))) / span if span > 0 else 0.0
    return {
        "brow_raise_left": float(brow_l),
        "brow_raise_right": float(brow_r),
        "brow_raise": float(0.5 * (brow_l + brow_r)),
        "brow_height": float(brow_height),
    }


def _gaze(f: _FacePoints) -> dict[str, float]:
    """Where the irises sit in the eyes, and how high the upper lids are."""
    fu, fv = f.fu, f.fv
    eye_v_r, eye_v_l = _eye_line(f)
    w_r, w_l = _eye_widths(f)
    # Iris height above the line of the eye corners, relative to the eye's own width.
    gaze_r = (eye_v_r - fv[_R_IRIS]) / w_r
    gaze_l = (eye_v_l - fv[_L_IRIS]) / w_l

    def white_below(iris: int, ring: tuple, lid: tuple) -> float:
        # How far the iris centre sits above the lower lid, in iris radii, at the iris's own column
        # (the lid is curved and a gaze up is often also sideways). Looking up bares the white below
        # the iris; a surprised stare raises the upper lid but leaves the iris on the lower lid.
        u, v = fu[iris], fv[iris]
        radius = sum(math.hypot(fu[i] - u, fv[i] - v) for i in ring) / len(ring)
        if radius <= 0:
            return 0.0
        low = fv[lid[0]] if abs(u - fu[lid[0]]) < abs(u - fu[lid[-1]]) else fv[lid[-1]]
        for k in range(len(lid) - 1):
            a, b = lid[k], lid[k + 1]
            ua, ub = fu[a], fu[b]
            if min(ua, ub) <= u <= max(ua, ub) and ua != ub:
                low = fv[a] + (fv[b] - fv[a]) * (u - ua) / (ub - ua)
                break
        return (low - v) / radius

    low_r = white_below(_R_IRIS, _R_IRIS_RING, _R_LID_LOW_LINE)
    low_l = white_below(_L_IRIS, _L_IRIS_RING, _L_LID_LOW_LINE)
    # Upper lid above the eye-corner line, relative to the eye's width (the lid follows a gaze up).
    lid_r = (eye_v_r - _avg(fv, _R_LID_UP)) / w_r
    lid_l = (eye_v_l - _avg(fv, _L_LID_UP)) / w_l
    return {
        "gaze_up_left": float(gaze_l),
        "gaze_up_right": float(gaze_r),
        "gaze_up": float(0.5 * (gaze_l + gaze_r)),
        "gaze_low_left": float(low_l),
        "gaze_low_right": float(low_r),
        # The larger of the two: on a gaze up and sideways the mesh can leave one iris low (lp_d10).
        "gaze_low_max": float(max(low_l, low_r)),
        "eye_lid_up_left": float(lid_l),
        "eye_lid_up_right": float(lid_r),
        "eye_lid_up": float(0.5 * (lid_l + lid_r)),
    }


def _head_pose(f: _FacePoints) -> dict[str, float]:
    """Roll, yaw and pitch in degrees, and where the nose tip sits between the eyes and the mouth."""
    axis, fv, z = f.axis, f.fv, f.z
    # Roll > 0: the head leans toward the subject's LEFT shoulder (their left eye drops).
    roll = math.degrees(math.atan2(axis[1], axis[0]))
    # Yaw > 0: the subject turns toward their left (their left eye goes away from the camera).
    yaw = math.degrees(math.atan2(axis[2], f.flat))
    # Pitch > 0: chin forward/up (face tilted up). Forehead-to-chin line in depth.
    dv = fv[_CHIN] - fv[_FOREHEAD]
    pitch = math.degrees(math.atan2(z[_FOREHEAD] - z[_CHIN], dv if dv > 0 else 1e-6))
    eye_line = 0.5 * sum(_eye_line(f))
    mouth_line = 0.5 * (fv[_R_MOUTH] + fv[_L_MOUTH])
    nose_drop = (fv[_NOSE_TIP] - eye_line) / (mouth_line - eye_line) if mouth_line > eye_line else 0.0
    return {"head_roll": roll, "head_yaw": yaw, "head_pitch": pitch, "nose_drop": float(nose_drop)}


def _mouth(f: _FacePoints) -> dict[str, float]:
    """Opening, width, protrusion, corner heights, lips and jaw, shift and tilt of the mouth."""
    x, y, z, fu, fv, scale = f.x, f.y, f.z, f.fu, f.fv, f.scale
    eye_line = 0.5 * sum(_eye_line(f))
    gap = (_avg(fv, _INNER_DOWN) - _avg(fv, _INNER_UP)) * scale
    width = math.hypot(x[_L_MOUTH] - x[_R_MOUTH], y[_L_MOUTH] - y[_R_MOUTH]) * scale
    # The same width against the nose wings': a pout draws the corners in, the nose stays. By eye
    # distance a small, blurred HaGRID face had a narrower mouth than an O-shaped pucker (0.54 of
    # neutral), by its nose clearly not (0.76 vs 0.56-0.60); over the neutral photos the spread is
    # about the same (5 % vs 6 %).
    nose = math.hypot(x[_L_NOSE_WING] - x[_R_NOSE_WING], y[_L_NOSE_WING] - y[_R_NOSE_WING]) * scale
    # How far the lip middle sits in front of the mouth corners and cheeks (z smaller = nearer).
    lips_z = _avg(z, _LIP_CENTRE)
    protrusion = (0.5 * (z[_R_MOUTH] + z[_L_MOUTH]) - lips_z) * scale
    # Corner lift relative to the upper lip's middle: raising a corner moves it up the face.
    upper_ref = 0.5 * (fv[_UPPER_OUTER] + fv[_INNER_UP[1]])
    corner_r = (upper_ref - fv[_R_MOUTH]) * scale
    corner_l = (upper_ref - fv[_L_MOUTH]) * scale
    upper_lip = (fv[_INNER_UP[1]] - fv[_UPPER_OUTER]) * scale
    lower_lip = (fv[_LOWER_OUTER] - fv[_INNER_DOWN[1]]) * scale
    jaw = (fv[_CHIN] - eye_line) * scale
    # Sideways shift of the mouth middle from the nose line (a twisted mouth, a one-sided pull).
    mid_u = 0.5 * (fu[_R_MOUTH] + fu[_L_MOUTH])
    shift = (mid_u - fu[_NOSE_TIP]) * scale
    # Tilt of the corner-to-corner line against the face's own midline (nose bridge to chin), in
    # degrees; + = the subject's left corner lower. A one-sided pull tilts the mouth against the nose,
    # while a head roll turns both together. (Against the eye line, as lip_corner_diff measures, faces
    # whose eyes and mouth are not quite parallel at rest fired: lower held-out precision.)
    down_x, down_y = x[_CHIN] - x[_NOSE_BRIDGE], y[_CHIN] - y[_NOSE_BRIDGE]
    across_x, across_y = x[_L_MOUTH] - x[_R_MOUTH], y[_L_MOUTH] - y[_R_MOUTH]
    tilt = math.degrees(math.atan2(across_x * down_x + across_y * down_y,
                                   abs(across_y * down_x - across_x * down_y)))
    return {
        "mouth_open": gap,
        "mouth_width": width,
        "mouth_aspect": gap / width if width > 0 else 0.0,
        "mouth_width_nose": width / nose if nose > 1e-9 else 0.0,
        "lip_protrusion": float(protrusion),
        "lip_corner_left": float(corner_l),
        "lip_corner_right": float(corner_r),
        "lip_corner_mean": float(0.5 * (corner_l + corner_r)),
        "lip_corner_diff": float(corner_l - corner_r),
        "mouth_tilt_nose": tilt,
        "upper_lip": float(upper_lip),
        "lower_lip": float(lower_lip),
        "lower_lip_ratio": float(lower_lip / upper_lip) if upper_lip > 1e-6 else 0.0,
        "jaw_drop": float(jaw),
        "mouth_shift": float(shift),
    }


# -- appearance of the mouth (needs the image) ------------------------------------------------------
# Inner lip contour (upper then lower, one loop), outer lip contour, and two cheek points for the skin
# reference.
_INNER_LOOP = (78, 191, 80, 81, 82, 13, 312, 311, 310, 415, 308, 324, 318, 402, 317, 14, 87, 178, 88, 95)
_OUTER_LOOP = (61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291, 375, 321, 405, 314, 17, 84, 181, 91, 146)
_CHEEK_POINTS = (50, 280)
APPEARANCE_NAMES: tuple[str, ...] = (
    "mouth_area",
    "mouth_dark",
    "mouth_teeth",
    "mouth_pink",
    "mouth_tongue",
    "mouth_teeth_white",
    "mouth_teeth_low",
    "mouth_teeth_share",
)
"""Keys of ``mouth_appearance``: areas inside the lips as fractions of the squared inter-ocular
distance (``mouth_teeth_share``: a fraction of the opening)."""
# Below this opening (/ inter-ocular distance²) a share of the opening is noise: reported as 0.
_MIN_SHARE_AREA = 0.02
# Lips whose Lab a* (redness, 0 = grey) is below this are treated as colourless (a grayscale photo).
_MIN_LIP_RED = 8.0
_COLOUR_NAMES = ("mouth_tongue", "mouth_teeth_white", "mouth_teeth_low", "mouth_teeth_share")


def _sampled_box(image: np.ndarray, loop: np.ndarray):
    """The image inside ``loop``'s bounding box, sampled on a grid of at most ~48 px across (fractions
    of a few hundred pixels are as good as of thousands, and the cost stays flat whatever the
    resolution): (crop, (x0, y0), step), or None for a box under 2 px."""
    height, width = image.shape[:2]
    x0, y0 = np.floor(loop.min(axis=0)).astype(int)
    x1, y1 = np.ceil(loop.max(axis=0)).astype(int) + 1
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, width), min(y1, height)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    step = max(1, int(max(x1 - x0, y1 - y0) // 48))
    return np.ascontiguousarray(image[y0:y1:step, x0:x1:step]), (x0, y0), step


def _polygon_mask(shape: tuple[int, ...], polygon: np.ndarray, origin: tuple[int, int], step: int) -> np.ndarray:
    """Boolean mask of ``polygon`` (image pixels) on a crop made by ``_sampled_box``."""
    import cv2  # noqa: PLC0415

    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round((polygon - origin) / step).astype(np.int32)], 1)
    return mask.view(bool)


def _cheek_patches(image: np.ndarray, p: np.ndarray, iod: float) -> list[np.ndarray]:
    """The skin reference: small patches of the image on both cheeks (those inside the image)."""
    height, width = image.shape[:2]
    r = max(2, int(0.08 * iod))
    patches = []
    for index in _CHEEK_POINTS:
        cx, cy = int(round(p[index, 0])), int(round(p[index, 1]))
        patch = image[max(cy - r, 0):min(cy + r, height), max(cx - r, 0):min(cx + r, width)]
        if patch.size:
            patches.append(patch)
    return patches


def _image_and_points(image: np.ndarray, points: np.ndarray) -> np.ndarray:
    """The face points as floats; VisionError naming the shape when the points or the image are wrong."""
    p = np.asarray(points, dtype=np.float64)
    if p.ndim != 2 or p.shape[0] < FACE_POINTS:
        raise VisionError(f"face points must be ({FACE_POINTS}, 3) in pixels, got shape {p.shape}")
    if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3:
        raise VisionError(f"mouth_appearance needs an H x W x 3 BGR image, got shape {getattr(image, 'shape', None)}")
    return p


def _cavity_cues(inner_hsv: np.ndarray, skin_s: float, skin_v: float, unit: float) -> dict[str, float]:
    """Dark cavity, teeth and pink areas among the HSV pixels inside the lips, against the cheeks'
    saturation and brightness (``unit``: the area of one sampled pixel in squared inter-ocular distances)."""
    hue, sat, val = inner_hsv[:, 0], inner_hsv[:, 1].astype(np.float32), inner_hsv[:, 2].astype(np.float32)
    dark = val < 0.45 * skin_v
    teeth = (val > skin_v) & (sat < 0.8 * skin_s + 5)
    # OpenCV hue is 0..180: red/pink wraps around 0.
    pink = ~dark & ~teeth & ((hue < 12) | (hue > 160)) & (sat > max(skin_s, 40.0))
    return {
        "mouth_dark": float(np.count_nonzero(dark)) * unit,
        "mouth_teeth": float(np.count_nonzero(teeth)) * unit,
        "mouth_pink": float(np.count_nonzero(pink)) * unit,
    }


def mouth_appearance(image: np.ndarray, points: np.ndarray) -> dict[str, float]:
    """What shows between the lips: dark cavity (an open mouth), teeth (a grimace), pink and tongue.

    ``image`` is the BGR frame the ``points`` (pixels) come from. Each value is an area inside the
    inner lip contour divided by the squared inter-ocular distance, so a closed mouth gives ~0 and the
    numbers do not depend on the face size. Pixels are compared with the subject's own cheek skin
    (brightness, saturation), which makes them robust to lighting and skin tone; a grayscale image
    simply never shows pink. The colour cues (``mouth_tongue``, ``mouth_teeth_*``) compare with the
    subject's own lips too (``_lip_colour_cues``).

    Runs on every video frame, so the work is a fixed handful of array calls whatever the face size:
    one crop of the lips' box on a grid of at most ~48 px across, and the crop and the cheek patches
    converted together, once to HSV and once to Lab (about 0.4 ms on a 640x480 frame; the video
    pipeline measures it on every 2nd frame).
    """
    import cv2  # noqa: PLC0415 - only the appearance cues need OpenCV

    p = _image_and_points(image, points)
    iod = float(np.linalg.norm(0.5 * (p[_R_EYE_OUTER] + p[_R_EYE_INNER]) - 0.5 * (p[_L_EYE_OUTER] + p[_L_EYE_INNER])))
    empty = dict.fromkeys(APPEARANCE_NAMES, 0.0)
    inner = p[list(_INNER_LOOP), :2]
    outer = p[list(_OUTER_LOOP), :2]
    box = _sampled_box(image, outer)
    if iod <= 1e-6 or box is None:
        return empty
    crop, origin, step = box
    inside = _polygon_mask(crop.shape, inner, origin, step)
    n_inside = int(np.count_nonzero(inside))
    if n_inside == 0:
        return empty
    patches = _cheek_patches(image, p, iod)
    if not patches:
        return empty
    # The crop and the cheeks as one row of pixels: one colour conversion per colour space. (A row,
    # not a column: OpenCV converts row by row, and a column of 1-pixel rows cost 20-30 us a
    # conversion instead of 4-9 us, measured.)
    n_crop = crop.shape[0] * crop.shape[1]
    pixels = np.concatenate([crop.reshape(1, -1, 3), *(patch.reshape(1, -1, 3) for patch in patches)], axis=1)
    hsv = cv2.cvtColor(pixels, cv2.COLOR_BGR2HSV).reshape(-1, 3)
    lab = cv2.cvtColor(pixels, cv2.COLOR_BGR2LAB).reshape(-1, 3)
    half = (pixels.shape[1] - n_crop) // 2  # medians via partition: np.median's checks cost more than the work
    _, skin_s, skin_v = (float(v) for v in np.partition(hsv[n_crop:], half, axis=0)[half])
    skin_l, skin_a, _ = (float(v) for v in np.partition(lab[n_crop:], half, axis=0)[half])
    skin_v = skin_v or 1.0
    skin_a -= 128.0
    unit = step * step / (iod * iod)
    shape = crop.shape[:2]
    return {
        "mouth_area": n_inside * unit,
        **_cavity_cues(hsv[:n_crop][inside.reshape(-1)], skin_s, skin_v, unit),
        **_lip_colour_cues(
            hsv[:n_crop, 2].reshape(shape), lab[:n_crop].reshape(*shape, 3), inside,
            _polygon_mask(crop.shape, outer, origin, step) & ~inside, n_inside, unit, skin_l, skin_a, skin_v,
        ),
    }


def _median(values: np.ndarray) -> float:
    """``np.median`` of a 1-D array by partition (the same number; np.median's checks cost ~10x more)."""
    n = len(values)
    half = n // 2
    if n % 2:
        return float(np.partition(values, half)[half])
    low, high = np.partition(values, (half - 1, half))[half - 1:half + 1]
    return float((low + high) / 2)


def _lip_colour_cues(val: np.ndarray, lab: np.ndarray, inside: np.ndarray, lips: np.ndarray, n_inside: int,
                     unit: float, skin_l: float, skin_a: float, skin_v: float) -> dict[str, float]:
    """Tongue and teeth inside the lips, measured against the subject's own cheeks AND lips.

    Colours in Lab: a* is redness (0 = grey), L lightness. The lips (ring between the outer and inner
    contour) give the person's own "how red is red" under this light, so the same thresholds work for
    pale and dark skin, warm and cold light:
    * tongue: at least 60 % as much redder than the cheeks as the lips are, and not dark. The tongue out
      fills the opening with it; an O-shaped open mouth shows a dark, brownish cavity (little redder than
      the skin) with the tongue only at its floor.
    * teeth ("white"): clearly less red than the lips (a* at most 70 % of theirs) and not dark (L at
      least 75 % of the cheeks') — finds yellowish or shaded teeth that the cheek-brightness test of
      ``mouth_teeth`` misses. Colourless lips (grayscale photo): brighter than the cheeks and grey.
    * teeth_low: those teeth in the lower half of the opening (per column): bared lower teeth (a
      grimace, a clench) rather than a smile's upper row.
    * teeth_share: teeth over the whole opening (a clench fills it; a smile or a bite shows a strip).

    ``val`` (HSV value) and ``lab`` are the crop of ``mouth_appearance``; ``inside`` and ``lips`` its masks.
    """
    if not lips.any():
        return dict.fromkeys(_COLOUR_NAMES, 0.0)
    light = lab[:, :, 0].astype(np.float32)
    red = lab[:, :, 1].astype(np.float32) - 128.0
    lip_red = _median(red[lips])
    # Dark: the same cut as mouth_dark's V < 0.45 skin, a little wider (shadowed cavity, not tongue).
    dark = val < 0.55 * skin_v
    tongue = inside & ~dark & (red - skin_a >= max(3.0, 0.6 * (lip_red - skin_a)))
    if lip_red >= _MIN_LIP_RED:
        teeth = inside & (red <= 0.7 * lip_red) & (light >= 0.75 * skin_l)
    else:
        teeth = inside & (np.abs(red) <= 2.0) & (light >= skin_l)
    # Lower half of the opening, column by column (top and bottom row of the opening in each column).
    rows = np.arange(inside.shape[0], dtype=np.float32)[:, None]
    top = np.argmax(inside, axis=0)
    bottom = inside.shape[0] - 1 - np.argmax(inside[::-1], axis=0)
    low = rows > 0.5 * (top + bottom)[None, :]
    n_teeth = int(np.count_nonzero(teeth))
    return {
        "mouth_tongue": float(np.count_nonzero(tongue)) * unit,
        "mouth_teeth_white": n_teeth * unit,
        "mouth_teeth_low": float(np.count_nonzero(teeth & low)) * unit,
        "mouth_teeth_share": n_teeth / n_inside if n_inside * unit >= _MIN_SHARE_AREA else 0.0,
    }
