"""A person's own sensitivity per sign: the score at which each sign turns on.

Why: no fitted threshold suits every face. Facial-switch products let each user set it against a
live meter (Android's Camera Switches "gesture size", Project Gameface's per-gesture threshold);
here Practice shows each sign's meter with the person's threshold as a marker they can move, the
Store keeps it with their other records, and the session's recognizer (Practice and Play alike)
uses it. A sign not set keeps the recognizer's own threshold (the population's; for a taught sign
the personal score is already on the person's scale: 0.55 is the margin teaching learnt).

The threshold is the recognizer's ``enter`` level on the 0..1 score; its ``exit`` level follows at
the same distance below as in the default timing, so the hysteresis is unchanged.

Pure values; no MediaPipe, no Store, no clock. Must not import the rules engine, bots, quiz or UI.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from trainer.signals.gestures import Gesture
from trainer.vision.recognizer import RecognizerConfig, talking_bar, with_timing
from trainer.vision.types import VisionError

KIND = "sensitivity"
SCHEMA = 1
LOWEST = 0.15
"""The lowest threshold a person may set: below it the resting face's noise fires signs."""
HIGHEST = 0.95
"""The highest: a score is never above 1, and a sign must still be reachable."""


@dataclass(frozen=True, slots=True)
class Sensitivity:
    """The person's own thresholds, one per sign they set (the others keep the recognizer's)."""

    thresholds: tuple[tuple[Gesture, float], ...] = ()

    def own(self, gesture: Gesture) -> float | None:
        return next((v for g, v in self.thresholds if g is gesture), None)

    def threshold(self, gesture: Gesture, config: RecognizerConfig | None = None) -> float:
        """The threshold in use for ``gesture``: the person's own, else the recognizer's."""
        own = self.own(gesture)
        return own if own is not None else (config or RecognizerConfig()).timing(gesture).enter

    def with_threshold(self, gesture: Gesture, value: float | None) -> Sensitivity:
        """A copy with ``gesture``'s threshold set (clamped to LOWEST..HIGHEST), or back to the
        recognizer's (``value`` None)."""
        others = tuple((g, v) for g, v in self.thresholds if g is not gesture)
        if value is None:
            return Sensitivity(others)
        return Sensitivity(tuple(sorted(others + ((gesture, _clamp(value)),), key=lambda gv: gv[0].value)))

    def apply(self, config: RecognizerConfig) -> RecognizerConfig:
        """``config`` with the person's thresholds: each sign set enters at its own level and exits
        as far below it as by default (never below 0). Its raised bar while talking moves down with a
        lowered threshold, by as much (a sign that reads weak on this face stays reachable in a
        conversation), and never below a raised one."""
        for gesture, enter in self.thresholds:
            timing = config.timing(gesture)
            gap = timing.enter - timing.exit
            bar = talking_bar(config, gesture)
            config = with_timing(config, gesture, enter=enter, exit=max(0.0, enter - gap))
            if bar is not None:
                own_bar = max(enter, min(bar, enter + (bar - timing.enter)))
                others = tuple((g, v) for g, v in config.talking_enters if g is not gesture)
                config = replace(config, talking_enters=(*others, (gesture, round(own_bar, 3))))
        return config

    def to_json(self) -> dict:
        return {"kind": KIND, "schema": SCHEMA,
                "thresholds": {g.value: round(v, 3) for g, v in self.thresholds}}

    @classmethod
    def from_json(cls, data: object) -> Sensitivity:
        """From ``to_json`` output; VisionError naming what is wrong otherwise."""
        if not isinstance(data, Mapping) or data.get("kind") != KIND or data.get("schema") != SCHEMA:
            raise VisionError(f"not a sensitivity record (kind {KIND!r}, schema {SCHEMA}): set the "
                              "thresholds again in Practice")
        table = data.get("thresholds")
        if not isinstance(table, Mapping):
            raise VisionError("sensitivity record: 'thresholds' must map sign names to numbers")
        out = Sensitivity()
        for name, value in table.items():
            try:
                gesture = Gesture.parse(str(name))
                number = float(value)
            except (TypeError, ValueError):
                raise VisionError(f"sensitivity record: {name!r}: {value!r} is not a sign and a threshold: "
                                  "set the thresholds again in Practice") from None
            if not LOWEST <= number <= HIGHEST:
                raise VisionError(f"sensitivity record: {name} threshold {number} is outside {LOWEST}..{HIGHEST}")
            out = out.with_threshold(gesture, number)
        return out


def _clamp(value: float) -> float:
    return min(HIGHEST, max(LOWEST, float(value)))


def retuned(config: RecognizerConfig, sensitivity: Sensitivity | None) -> RecognizerConfig:
    """``config`` with ``sensitivity`` applied (unchanged for None)."""
    return config if sensitivity is None else sensitivity.apply(config)

