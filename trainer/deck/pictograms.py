"""Pictograms of the gestures: a small face, hand or shoulders for each :class:`Gesture`.

Imports only ``trainer.signals.gestures``. Each glyph is a ``<g>`` fragment drawn in a 100 x 100
box with no ids, so it can be placed in a card's corner, on a bot's avatar or in the Practice page
as many times as needed. Sides are the subject's own (as in :class:`Side`): the subject's left eye
appears on the viewer's right, like a person facing you.
"""

from __future__ import annotations

from dataclasses import dataclass

from trainer.signals.gestures import BodyPart, Gesture

SKIN = "#f4cfa8"
INK = "#4a2c17"
LIP = "#c2514a"
TONGUE = "#e77a86"
HAIR = "#5a3a22"
BROW = "#24160c"
"""Brows darker than the outline, so they read on the darkest skin of the looks."""
SHIRT = "#5f7fa8"


def _face(
    *,
    brows: str = "plain",
    left_eye: str = "open",
    right_eye: str = "open",
    mouth: str = "plain",
    tilt: float = 0.0,
    arrow: str = "",
) -> str:
    """A round face. Left/right are the subject's: their left eye is drawn at the viewer's right."""
    parts = [
        f'<circle cx="50" cy="53" r="35" fill="{SKIN}" stroke="{INK}" stroke-width="2.4"/>',
        # The hairline sits high (y 26 at the middle), so a raised brow shows on bare forehead.
        f'<path d="M17,40 C18,13 82,13 83,40 C72,21 28,21 17,40 Z" fill="{HAIR}"/>',
    ]
    # viewer's left = subject's right
    for cx, state in ((37, right_eye), (63, left_eye)):
        parts.append(_eye(cx, state))
    parts.append(_brows(brows))
    parts.append(_mouth(mouth))
    body = "".join(parts)
    if tilt:
        body = f'<g transform="rotate({tilt:.1f} 50 53) translate(0,2) scale(0.96)">{body}</g>'
    return body + arrow


def _eye(cx: float, state: str) -> str:
    if state == "closed":
        return (
            f'<path d="M{cx - 6},48 Q{cx},53 {cx + 6},48" fill="none" stroke="{INK}" '
            f'stroke-width="2.6" stroke-linecap="round"/>'
        )
    pupil_dy = -3.2 if state == "up" else 0.0
    # "aside": looking away across the table, pupils to the viewer's left.
    pupil_dx = -3.2 if state == "aside" else 0.0
    # "wide": the eyes a raised brow opens, white all round a smaller pupil.
    ry, pupil = (7.0, 2.2) if state == "wide" else (5.0, 2.6)
    return (
        f'<ellipse cx="{cx}" cy="47" rx="6" ry="{ry}" fill="#ffffff" stroke="{INK}" stroke-width="1.6"/>'
        f'<circle cx="{cx + pupil_dx:.1f}" cy="{47 + pupil_dy:.1f}" r="{pupil}" fill="{INK}"/>'
    )


def _brows(state: str) -> str:
    if state == "up":
        # High, thick arches on the bare forehead between the hairline (y 26) and wide-open eyes:
        # read at 84 px on every look, dark hair and beret included (tests/ui/test_browser_table.py).
        return (
            f'<path d="M27,37 Q36,25 46,34" fill="none" stroke="{BROW}" stroke-width="3.4" stroke-linecap="round"/>'
            f'<path d="M54,34 Q64,25 73,37" fill="none" stroke="{BROW}" stroke-width="3.4" stroke-linecap="round"/>'
        )
    if state == "knit":
        return (
            f'<path d="M29,36 L45,40" fill="none" stroke="{BROW}" stroke-width="2.8" stroke-linecap="round"/>'
            f'<path d="M55,40 L71,36" fill="none" stroke="{BROW}" stroke-width="2.8" stroke-linecap="round"/>'
        )
    return (
        f'<path d="M30,38 Q37,35 44,38" fill="none" stroke="{BROW}" stroke-width="2.4" stroke-linecap="round"/>'
        f'<path d="M56,38 Q63,35 70,38" fill="none" stroke="{BROW}" stroke-width="2.4" stroke-linecap="round"/>'
    )


def _mouth(state: str) -> str:
    if state == "corner":
        # the subject's left corner (viewer's right) raised: a half smile
        # with its dimple: a half smile must read at the table's 84 px on every skin
        return (f'<path d="M37,70 Q50,73 58,67 Q65,61 67,54" fill="none" stroke="{BROW}" stroke-width="4" '
                'stroke-linecap="round"/>'
                f'<path d="M70,53 Q75,60 70,68" fill="none" stroke="{BROW}" stroke-width="3" stroke-linecap="round"/>')
    if state == "pout":
        return (
            f'<ellipse cx="50" cy="72" rx="10" ry="7.5" fill="{LIP}" stroke="{BROW}" stroke-width="2.6"/>'
            f'<ellipse cx="50" cy="71" rx="3" ry="2" fill="{INK}"/>'
            f'<path d="M60,66 q4,-3 7,-1 M61,75 q4,2 7,0" fill="none" stroke="{BROW}" stroke-width="1.2"/>'
        )
    if state == "open":
        return f'<ellipse cx="50" cy="71" rx="8" ry="9.5" fill="#5b1a16" stroke="{BROW}" stroke-width="2"/>'
    if state == "tongue":
        return (
            f'<ellipse cx="50" cy="69" rx="9" ry="5.5" fill="#5b1a16" stroke="{BROW}" stroke-width="2"/>'
            f'<path d="M43,70 L43,78 Q50,88 57,78 L57,70 Z" fill="{TONGUE}" stroke="{BROW}" stroke-width="2.6"/>'
            f'<path d="M50,72 L50,80" stroke="{BROW}" stroke-width="1" opacity="0.6"/>'
        )
    if state == "bite":
        # upper teeth resting on the drawn-in lower lip
        return (
            f'<path d="M35,69 Q50,66 65,69" fill="none" stroke="{BROW}" stroke-width="2.4" stroke-linecap="round"/>'
            f'<path d="M36,72 Q50,70 64,72 Q60,82 50,82 Q40,82 36,72 Z" fill="{LIP}" stroke="{BROW}" stroke-width="2"/>'
            f'<rect x="41" y="68" width="6" height="7" rx="1" fill="#ffffff" stroke="{BROW}" stroke-width="1.2"/>'
            f'<rect x="47" y="68" width="6" height="7.5" rx="1" fill="#ffffff" stroke="{BROW}" stroke-width="1.2"/>'
            f'<rect x="53" y="68" width="6" height="7" rx="1" fill="#ffffff" stroke="{BROW}" stroke-width="1.2"/>'
        )
    if state == "grimace":
        return (
            f'<rect x="36" y="65" width="28" height="11" rx="3" fill="#ffffff" stroke="{BROW}" stroke-width="2"/>'
            f'<path d="M36,70.5 L64,70.5 M43,65 L43,76 M50,65 L50,76 M57,65 L57,76" stroke="{BROW}" '
            'stroke-width="1.2"/>'
        )
    return f'<path d="M40,70 Q50,74 60,70" fill="none" stroke="{BROW}" stroke-width="2.6" stroke-linecap="round"/>'


def _up_arrow(x: float, y: float) -> str:
    return (
        f'<path d="M{x},{y + 12} L{x},{y} M{x - 5},{y + 5} L{x},{y} L{x + 5},{y + 5}" fill="none" '
        f'stroke="#c8372d" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/>'
    )


# -- hands -----------------------------------------------------------------------------------------

_FINGER_X = {"index": 36.0, "middle": 47.0, "ring": 58.0, "pinky": 68.0}
_FINGER_LENGTH = {"index": 34.0, "middle": 38.0, "ring": 34.0, "pinky": 27.0}


def _hand(extended: tuple[str, ...], *, thumb: bool = False, pinch: bool = False) -> str:
    """A back-of-hand fist with the named fingers raised (a right hand seen from the front)."""
    parts = []
    for name, x in _FINGER_X.items():
        width = 9.0 if name != "pinky" else 8.0
        if name in extended:
            top = 52 - _FINGER_LENGTH[name]
            parts.append(
                f'<rect x="{x - width / 2:.1f}" y="{top:.1f}" width="{width}" height="{60 - top:.1f}" '
                f'rx="{width / 2:.1f}" fill="{SKIN}" stroke="{INK}" stroke-width="2"/>'
                f'<path d="M{x - 2.5:.1f},{top + 5:.1f} h5" stroke="{INK}" stroke-width="1" opacity="0.5"/>'
            )
        else:
            # a folded finger: a knuckle bump above the fist
            parts.append(
                f'<rect x="{x - width / 2:.1f}" y="48" width="{width}" height="14" rx="{width / 2:.1f}" '
                f'fill="{SKIN}" stroke="{INK}" stroke-width="2"/>'
            )
    palm = (
        f'<path d="M29,54 L76,54 Q78,54 78,60 L76,82 Q74,92 60,92 L42,92 Q30,92 29,82 Z" '
        f'fill="{SKIN}" stroke="{INK}" stroke-width="2.2"/>'
    )
    if thumb:
        thumb_part = (
            f'<path d="M31,66 Q22,60 22,40 Q22,32 28,32 Q34,32 34,40 L34,62 Z" fill="{SKIN}" '
            f'stroke="{INK}" stroke-width="2.2"/>'
        )
    elif pinch:
        thumb_part = (
            f'<path d="M31,68 Q20,58 26,42 Q29,36 34,40 L34,62 Z" fill="{SKIN}" stroke="{INK}" stroke-width="2.2"/>'
        )
    else:
        # thumb folded across the fingers
        thumb_part = (
            f'<path d="M30,70 Q34,60 48,62 Q56,63 55,68 Q54,72 46,71 L34,74 Z" fill="{SKIN}" '
            f'stroke="{INK}" stroke-width="2"/>'
        )
    return "".join(parts) + palm + thumb_part


def _writing() -> str:
    """Thumb and index pinched like holding a pen, moving toward the table."""
    return (
        f'<g transform="rotate(20 50 55)">'
        f'<rect x="31.5" y="26" width="9" height="34" rx="4.5" fill="{SKIN}" stroke="{INK}" stroke-width="2"/>'
        f'<rect x="42.5" y="48" width="9" height="14" rx="4.5" fill="{SKIN}" stroke="{INK}" stroke-width="2"/>'
        f'<rect x="53.5" y="48" width="9" height="14" rx="4.5" fill="{SKIN}" stroke="{INK}" stroke-width="2"/>'
        f'<rect x="64" y="49" width="8" height="12" rx="4" fill="{SKIN}" stroke="{INK}" stroke-width="2"/>'
        f'<path d="M29,54 L76,54 Q78,54 78,60 L76,82 Q74,92 60,92 L42,92 Q30,92 29,82 Z" fill="{SKIN}" '
        f'stroke="{INK}" stroke-width="2.2"/>'
        f'<path d="M31,66 Q20,50 30,30 Q34,24 38,28 L37,60 Z" fill="{SKIN}" stroke="{INK}" stroke-width="2.2"/>'
        f'</g>'
        # the table line and the downward stroke
        f'<path d="M8,96 L92,96" stroke="#8d5524" stroke-width="3" stroke-linecap="round"/>'
        f'<path d="M14,14 L14,34 M9,28 L14,34 L19,28" fill="none" stroke="#c8372d" stroke-width="2.4" '
        f'stroke-linecap="round" stroke-linejoin="round"/>'
    )


def _shrug() -> str:
    """Head and shoulders, the subject's left shoulder (viewer's right) raised."""
    return (
        f'<path d="M6,96 L10,74 Q14,64 30,62 L40,60 L60,60 L74,50 Q88,48 90,64 L94,96 Z" fill="{SHIRT}" '
        f'stroke="{INK}" stroke-width="2.2"/>'
        f'<rect x="43" y="48" width="14" height="14" fill="{SKIN}" stroke="{INK}" stroke-width="2"/>'
        f'<circle cx="50" cy="32" r="20" fill="{SKIN}" stroke="{INK}" stroke-width="2.2"/>'
        f'<path d="M30,28 C31,10 69,10 70,28 C62,20 38,20 30,28 Z" fill="{HAIR}"/>'
        f'<circle cx="43" cy="32" r="2" fill="{INK}"/><circle cx="57" cy="32" r="2" fill="{INK}"/>'
        f'<path d="M44,41 Q50,39 56,41" fill="none" stroke="{INK}" stroke-width="2"/>'
        + _up_arrow(84, 26)
    )


def _look_up() -> str:
    return _face(brows="up", left_eye="up", right_eye="up") + _up_arrow(88, 6)


_GLYPHS = {
    Gesture.BROWS_UP: lambda: _face(brows="up", left_eye="wide", right_eye="wide"),
    Gesture.LOOK_UP: _look_up,
    Gesture.LIP_CORNER: lambda: _face(mouth="corner"),
    Gesture.HEAD_TILT: lambda: _face(tilt=18.0),
    Gesture.WINK: lambda: _face(left_eye="closed"),
    Gesture.EYES_CLOSED: lambda: _face(left_eye="closed", right_eye="closed"),
    Gesture.POUT: lambda: _face(mouth="pout"),
    Gesture.MOUTH_OPEN: lambda: _face(mouth="open", brows="up"),
    Gesture.TONGUE_OUT: lambda: _face(mouth="tongue"),
    Gesture.LIP_BITE: lambda: _face(mouth="bite"),
    Gesture.SHRUG: _shrug,
    Gesture.GRIMACE: lambda: _face(mouth="grimace", brows="knit"),
    Gesture.THUMB: lambda: _hand((), thumb=True),
    Gesture.PINKY: lambda: _hand(("pinky",)),
    Gesture.INDEX: lambda: _hand(("index",)),
    Gesture.INDEX_MIDDLE: lambda: _hand(("index", "middle")),
    Gesture.RING: lambda: _hand(("ring",)),
    Gesture.WRITING: _writing,
}
_CACHE: dict[Gesture, str] = {}


def gesture_glyph(gesture: Gesture) -> str:
    """The pictogram of ``gesture`` as SVG elements in a 100 x 100 box (no wrapping element)."""
    glyph = _CACHE.get(gesture)
    if glyph is None:
        glyph = _CACHE[gesture] = _GLYPHS[gesture]()
    return glyph


# -- people: the same pictograms in other colours, for the bots' avatars ---------------------------


@dataclass(frozen=True, slots=True)
class Look:
    """How an avatar looks: skin, hair and shirt colours and one accessory ('', 'beret', 'earrings')."""

    skin: str = SKIN
    hair: str = HAIR
    shirt: str = SHIRT
    accessory: str = ""


LOOKS: tuple[Look, ...] = (
    Look(),
    Look("#e0ac7e", "#1f1a17", "#8e1f1a", "beret"),
    Look("#f7dcc4", "#c98a3a", "#5f8f2f", "earrings"),
    Look("#9a6440", "#2b211c", "#e3b23c", ""),
    Look("#f1c7a0", "#9a9a9a", "#2f62a8", "beret"),
    Look("#c68a5e", "#4a2a1a", "#7a4aa8", "earrings"),
)
"""A few distinct looks; ``LOOKS[seat % len(LOOKS)]`` tells four bots apart at a glance."""

_ACCESSORY = {
    "": "",
    "beret": (
        '<ellipse cx="50" cy="16" rx="29" ry="8" fill="#2b2b3a" stroke="#1a1a24" stroke-width="1.5"/>'
        '<path d="M50,8 L52,2" stroke="#2b2b3a" stroke-width="3" stroke-linecap="round"/>'
    ),
    "earrings": (
        '<circle cx="15.5" cy="62" r="3.2" fill="#e3b23c" stroke="#7a5a0c" stroke-width="1"/>'
        '<circle cx="84.5" cy="62" r="3.2" fill="#e3b23c" stroke="#7a5a0c" stroke-width="1"/>'
    ),
}


def person_glyph(gesture: Gesture | None, look: Look = Look(), *, away: bool = False) -> str:
    """A person making ``gesture`` (a neutral face for None), drawn in ``look``'s colours; ``away``:
    the neutral face looking away (an opponent not watching)."""
    if gesture is not None:
        body = gesture_glyph(gesture)
    else:
        body = _face(left_eye="aside", right_eye="aside") if away else _face()
    # The default colours are unique tokens in the drawings, so a look is a plain substitution.
    body = body.replace(SKIN, look.skin).replace(HAIR, look.hair).replace(SHIRT, look.shirt)
    if gesture is None or gesture.body_part is BodyPart.FACE:
        extra = _ACCESSORY.get(look.accessory, "")
        if gesture is Gesture.HEAD_TILT and extra:
            extra = f'<g transform="rotate(18.0 50 53) translate(0,2) scale(0.96)">{extra}</g>'
        body += extra
    return body
