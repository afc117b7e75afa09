"""The user's settings for the app: rules preset, sign convention, language, hand, mirror, camera.

A frozen value the sidebar builds and every page reads. Imports only the standard library and the
signals layer (for the convention names), so it is cheap to import before any page renders.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from trainer.signals.conventions import CONVENTIONS


class Language(enum.Enum):
    """The language the app names cards and signs in; French names always come first."""

    FRENCH = "fr"
    ENGLISH = "en"
    ITALIAN = "it"

    @property
    def label(self) -> str:
        return {"fr": "Français", "en": "English", "it": "Italiano"}[self.value]


class Handedness(enum.Enum):
    """Which hand the user signs with; hand gestures are expected on that side."""

    RIGHT = "right"
    LEFT = "left"


PRESETS: tuple[str, ...] = ("vendee", "pagat", "english")
"""The rules presets of RULES.md, the default first."""


class SettingsError(ValueError):
    """A setting value the app does not know; names the value and the choices."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the sidebar lets the user choose."""

    preset: str = "vendee"
    convention: str = "classic"
    language: Language = Language.FRENCH
    handedness: Handedness = Handedness.RIGHT
    mirror: bool = True
    """Show the video as a mirror (what people expect of a webcam). Sides stay the subject's own."""
    camera: bool = False
    """The live camera is off until the user switches it on: starting it asks for a permission,
    and a page that embeds the WebRTC widget cannot run under Streamlit's AppTest."""

    def __post_init__(self) -> None:
        if self.preset not in PRESETS:
            raise SettingsError(f"unknown preset {self.preset!r}: choose one of {', '.join(PRESETS)}")
        if self.convention not in CONVENTIONS:
            raise SettingsError(
                f"unknown convention {self.convention!r}: choose one of {', '.join(CONVENTIONS)}"
            )

    def with_(self, **changes) -> Settings:
        return replace(self, **changes)
