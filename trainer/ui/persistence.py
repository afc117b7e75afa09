"""The app's bridge to the Store (``trainer.storage``): practice attempts, the calibration profile
and saved games, in the SQLite database of the user's data folder.

The Store is one thread-safe connection per database file, so it is shared with
``st.cache_resource`` (keyed by the file's path, which follows ``$ALUETTE_HOME``). Every write is a
committed transaction when the call returns: a killed server loses nothing already confirmed.
The wall clock is read here, at the edge of the app, and passed to the Store.
"""

from __future__ import annotations

import time
from datetime import datetime, timezone
from typing import Any

import streamlit as st

from trainer.signals.gestures import Gesture, Side
from trainer.signals.signs import Sign
from trainer.ui import drill, modes

PRACTICE_KIND = "practice_attempt"
PROFILE_KIND = "calibration_profile"
GAME_KIND = "saved_game"
PROFILE_KEY = "default"
PERSONAL_KIND = "personal_signs"


def store_piece() -> modes.Piece:
    """Whether progress can be saved: the Store is in this build and the database opens. A damaged
    or foreign database file is left untouched (the Store refuses it) and the reason is shown."""
    piece = modes.piece_with("saving progress (the Store)", "trainer.storage", "Store")
    if not piece.available:
        return piece
    try:
        _store_or_raise()
    except ValueError as error:
        return modes.Piece(piece.name, False, f"the progress database cannot be used: {error}")
    return piece


@st.cache_resource(show_spinner=False)
def _open_store(path: str):
    from trainer.storage import Store

    return Store.open(path)


def _store_or_raise():
    from trainer.storage import default_path

    return _open_store(str(default_path()))


def store():
    """This user's Store, or None when it is not in this build or its file cannot be used (the
    pages then say so through :func:`store_piece`)."""
    if not modes.piece_with("saving progress (the Store)", "trainer.storage", "Store").available:
        return None
    try:
        return _store_or_raise()
    except ValueError:
        return None


def now() -> float:
    return time.time()


# -- practice --------------------------------------------------------------------------------------

def attempt_to_json(attempt: drill.Attempt) -> dict:
    return {
        "target": attempt.target.value,
        "success": attempt.success,
        "seen": attempt.seen.value if attempt.seen else None,
        "seen_sign": attempt.seen_sign.value if attempt.seen_sign else None,
        "detect_s": attempt.detect_s,
        "hold_s": attempt.hold_s,
        "side": attempt.side.value if attempt.side else None,
        "count": attempt.count,
        "note": attempt.note,
    }


def attempt_from_json(data: dict) -> drill.Attempt:
    return drill.Attempt(
        target=Sign(data["target"]),
        success=bool(data["success"]),
        seen=Gesture(data["seen"]) if data.get("seen") else None,
        seen_sign=Sign(data["seen_sign"]) if data.get("seen_sign") else None,
        detect_s=data.get("detect_s"),
        hold_s=data.get("hold_s"),
        side=Side(data["side"]) if data.get("side") else None,
        count=int(data.get("count", 1)),
        note=data.get("note", ""),
    )


def practice_history() -> list[drill.Attempt]:
    """Every saved attempt, oldest first (empty without a Store)."""
    db = store()
    if db is None:
        return []
    return [attempt_from_json(entry.record) for entry in db.records(PRACTICE_KIND)]


def save_attempt(attempt: drill.Attempt) -> bool:
    """Append the attempt to the log; False when there is no Store (kept for the session only)."""
    db = store()
    if db is None:
        return False
    db.append(PRACTICE_KIND, attempt_to_json(attempt), time=now())
    return True


# -- calibration -----------------------------------------------------------------------------------

def load_profile() -> Any:
    """The user's saved calibration profile (vision's Profile), or None (population defaults)."""
    db = store()
    if db is None:
        return None
    data = db.get(PROFILE_KIND, PROFILE_KEY)
    if data is None:
        return None
    from trainer.vision.calibration import Profile

    return Profile.from_json(data)


def save_profile(profile: Any) -> bool:
    db = store()
    if db is None:
        return False
    db.put(PROFILE_KIND, PROFILE_KEY, profile.to_json(), now=now())
    return True


def forget_profile() -> None:
    db = store()
    if db is not None:
        db.delete(PROFILE_KIND, PROFILE_KEY)


# -- personal signs ("teach your signs") -------------------------------------------------------------

def load_personal() -> Any:
    """The user's taught signs (vision's PersonalSigns), or None. A stored model that no longer
    reads (older schema) counts as none: the panel then offers to teach again."""
    db = store()
    if db is None:
        return None
    data = db.get(PERSONAL_KIND, PROFILE_KEY)
    if data is None:
        return None
    from trainer.vision.personal import PersonalSigns

    try:
        return PersonalSigns.from_json(data)
    except ValueError:
        return None


def save_personal(model: Any) -> bool:
    db = store()
    if db is None:
        return False
    db.put(PERSONAL_KIND, PROFILE_KEY, model.to_json(), now=now())
    return True


def forget_personal() -> None:
    db = store()
    if db is not None:
        db.delete(PERSONAL_KIND, PROFILE_KEY)


def iso_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


# -- saved games -----------------------------------------------------------------------------------

def save_game(name: str, data: dict) -> bool:
    db = store()
    if db is None:
        return False
    db.put(GAME_KIND, name, data, now=now())
    return True


def saved_games() -> list[str]:
    db = store()
    return [] if db is None else sorted(db.keys(GAME_KIND), reverse=True)


def load_game(name: str) -> dict | None:
    db = store()
    return None if db is None else db.get(GAME_KIND, name)
