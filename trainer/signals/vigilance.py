"""The signing layer's plain values: its error, partners' seats and the table's vigilance.

A leaf module (standard library only), so that the sign log (:mod:`trainer.signals.table`) and the
opponents' eyes (:mod:`trainer.signals.watching`) both import it without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass


class SignalError(ValueError):
    """A sign that the table refuses: a lie at a table without lies, a bad seat or chance."""


def partner_of(seat: int, players: int) -> int | None:
    """Partners face each other: seat+2 at four, seat+3 at six; nobody at three."""
    if players == 3:
        return None
    return (seat + players // 2) % players


# -- vigilance ------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Vigilance:
    """How well opponents watch: ``catch`` is the chance that one opponent catches an open sign;
    a discreet sign (made while the opponents look away) is caught ``discreet_factor`` times as often."""

    catch: float = 0.25
    discreet_factor: float = 0.3

    def __post_init__(self) -> None:
        for name in ("catch", "discreet_factor"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
                raise SignalError(f"vigilance {name} must be a chance between 0 and 1, got {value!r}")

    def chance(self, discreet: bool) -> float:
        return self.catch * self.discreet_factor if discreet else self.catch

    @classmethod
    def named(cls, name: str) -> Vigilance:
        try:
            return VIGILANCE_LEVELS[name]
        except KeyError:
            raise SignalError(
                f"unknown vigilance {name!r}: choose one of {', '.join(VIGILANCE_LEVELS)} or a number 0..1"
            ) from None

    @classmethod
    def parse(cls, text: str | float) -> Vigilance:
        """A level name (``"sharp"``) or a catch chance (``"0.4"``)."""
        if isinstance(text, (int, float)):
            return cls(float(text))
        try:
            return cls(float(text))
        except ValueError:
            return cls.named(text.strip().lower())


VIGILANCE_LEVELS: dict[str, Vigilance] = {
    "blind": Vigilance(0.0),
    "casual": Vigilance(0.1),
    "normal": Vigilance(0.25),
    "sharp": Vigilance(0.5),
    "hawk": Vigilance(0.9),
}
