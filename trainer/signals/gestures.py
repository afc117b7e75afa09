"""Gestures the recognizer can see, and the typed events it emits. Standard library only.

A gesture is a movement of the face, hand or body, independent of any card; a convention
(``trainer.signals.conventions``) says which sign each gesture makes at the table. This module
imports nothing of the project, so the vision layer depends on it without depending on the rules.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class BodyPart(enum.Enum):
    FACE = "face"
    HAND = "hand"
    BODY = "body"


class Gesture(enum.Enum):
    """The gestures of RULES.md's sign table (default signs and their regional alternatives)."""

    # Members are singletons compared by identity, so identity hashing is consistent with equality.
    # Enum's own __hash__ is a Python call (hash of the name): gestures key the per-frame score
    # dictionaries, where it cost ~170 calls and ~0.1 ms a video frame.
    __hash__ = object.__hash__

    BROWS_UP = "brows_up"
    LOOK_UP = "look_up"
    LIP_CORNER = "lip_corner"
    HEAD_TILT = "head_tilt"
    WINK = "wink"
    EYES_CLOSED = "eyes_closed"
    POUT = "pout"
    MOUTH_OPEN = "mouth_open"
    TONGUE_OUT = "tongue_out"
    LIP_BITE = "lip_bite"
    SHRUG = "shrug"
    GRIMACE = "grimace"
    THUMB = "thumb"
    PINKY = "pinky"
    INDEX = "index"
    INDEX_MIDDLE = "index_middle"
    RING = "ring"
    WRITING = "writing"

    @classmethod
    def parse(cls, name: str) -> Gesture:
        try:
            return cls(name.strip().lower())
        except ValueError:
            known = ", ".join(g.value for g in cls)
            raise ValueError(f"unknown gesture {name!r}: known gestures are {known}") from None

    @property
    def body_part(self) -> BodyPart:
        if self in _HAND_GESTURES:
            return BodyPart.HAND
        if self is Gesture.SHRUG:
            return BodyPart.BODY
        return BodyPart.FACE

    @property
    def sided(self) -> bool:
        """Whether the event says which side (wink eye, lip corner, tilt direction, shrug, hand)."""
        return self in _SIDED

    @property
    def uses_mouth(self) -> bool:
        """Mouth gestures, which speech imitates: while the person talks the recognizer asks them for a
        higher score and a longer hold (``trainer.vision.recognizer``'s ``talking_*`` settings)."""
        return self in _MOUTH

    @property
    def description(self) -> str:
        return _DESCRIPTIONS[self]


class Side(enum.Enum):
    """Left or right, always the subject's own (not the image's)."""

    LEFT = "left"
    RIGHT = "right"

    __hash__ = object.__hash__  # as Gesture's


_HAND_GESTURES = frozenset(
    {Gesture.THUMB, Gesture.PINKY, Gesture.INDEX, Gesture.INDEX_MIDDLE, Gesture.RING, Gesture.WRITING}
)
_SIDED = frozenset(
    {Gesture.WINK, Gesture.LIP_CORNER, Gesture.HEAD_TILT, Gesture.SHRUG} | _HAND_GESTURES
)
_MOUTH = frozenset(
    {Gesture.POUT, Gesture.MOUTH_OPEN, Gesture.TONGUE_OUT, Gesture.LIP_BITE, Gesture.LIP_CORNER,
     Gesture.GRIMACE}
)
_DESCRIPTIONS = {
    Gesture.BROWS_UP: "raise both eyebrows",
    Gesture.LOOK_UP: "look up to the sky",
    Gesture.LIP_CORNER: "raise one corner of the lips",
    Gesture.HEAD_TILT: "tilt the head to one side",
    Gesture.WINK: "close one eye",
    Gesture.EYES_CLOSED: "close both eyes",
    Gesture.POUT: "push the lips forward (faire la moue)",
    Gesture.MOUTH_OPEN: "open the mouth",
    Gesture.TONGUE_OUT: "stick out the tongue",
    Gesture.LIP_BITE: "bite the lower lip",
    Gesture.SHRUG: "shrug one shoulder",
    Gesture.GRIMACE: "grimace (teeth clenched, face screwed up)",
    Gesture.THUMB: "show the thumb",
    Gesture.PINKY: "show the little finger",
    Gesture.INDEX: "show the index finger",
    Gesture.INDEX_MIDDLE: "show the index and middle fingers",
    Gesture.RING: "show the ring finger",
    Gesture.WRITING: "mime writing: thumb and index pinched, moving toward the table",
}


@dataclass(frozen=True, slots=True)
class GestureEvent:
    """One gesture seen by the recognizer.

    ``start`` and ``end`` are seconds on the source's own clock (frame timestamps, never the wall
    clock); ``count`` is the number of repeats inside the event (one mouth opening per ace);
    ``confidence`` is the peak score in 0..1.
    """

    gesture: Gesture
    start: float
    end: float
    count: int = 1
    confidence: float = 1.0
    side: Side | None = None

    @property
    def duration(self) -> float:
        return self.end - self.start

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "gesture": self.gesture.value,
            "start": round(self.start, 3),
            "end": round(self.end, 3),
            "count": self.count,
            "confidence": round(self.confidence, 3),
        }
        if self.side is not None:
            out["side"] = self.side.value
        return out
