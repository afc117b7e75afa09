"""The app's bridge to the Store (``trainer.storage``): practice attempts, the calibration profile
and saved games, in the SQLite database of the user's data folder.

The Store is one thread-safe connection per database file, so it is shared with
``st.cache_resource`` (keyed by the file's path, which follows ``$ALUETTE_HOME``). Every write is a
committed transaction when the call returns: a killed server loses nothing already confirmed.
The wall clock is read here, at the edge of the app, and passed to the Store.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

import streamlit as st

from trainer.signals.gestures import Gesture, Side
from trainer.signals.signs import Sign
from trainer.ui import drill, modes
from trainer.ui.saved_game import SavedGame

PRACTICE_KIND = "practice_attempt"
PROFILE_KIND = "calibration_profile"
GAME_KIND = "saved_game"
PROFILE_KEY = "default"
PERSONAL_KIND = "personal_signs"
SENSITIVITY_KIND = "sensitivity"


def store_piece() -> modes.Piece:
    """Whether progress can be saved: the database opens. A damaged or foreign database file is left
    untouched (the Store refuses it) and the reason is shown."""
    name = "saving progress (the Store)"
    try:
        _store_or_raise()
    except ValueError as error:
        return modes.Piece(name, False, f"the progress database cannot be used: {error}")
    return modes.Piece(name, True)


@st.cache_resource(show_spinner=False)
def _open_store(path: str):
    from trainer.storage import Store

    return Store.open(path)


def _store_or_raise():
    from trainer.storage import default_path

    return _open_store(str(default_path()))


def store():
    """This user's Store, or None when its file cannot be used (the pages then say so through
    :func:`store_piece`)."""
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


def _problem(doing: str, error: Exception) -> None:
    """A storage failure on a page: shown as a warning (it names the file and the way out); the
    page goes on with what it has in memory."""
    st.warning(f"{doing}: {error}", icon=":material/warning:")


def practice_history() -> list[drill.Attempt]:
    """Every saved attempt, oldest first (empty without a Store; a damaged record is skipped)."""
    db = store()
    if db is None:
        return []
    try:
        entries = db.records(PRACTICE_KIND)
    except ValueError as error:
        _problem("Your practice history could not be read", error)
        return []
    attempts = []
    for entry in entries:
        try:
            attempts.append(attempt_from_json(entry.record))
        except (ValueError, KeyError, TypeError, AttributeError):
            continue  # one hand-edited record must not hide the others
    return attempts


def save_attempt(attempt: drill.Attempt) -> bool:
    """Append the attempt to the log; False when there is no Store or it failed (kept for the session only)."""
    db = store()
    if db is None:
        return False
    try:
        db.append(PRACTICE_KIND, attempt_to_json(attempt), time=now())
    except ValueError as error:
        _problem("This attempt was not saved", error)
        return False
    return True


# -- calibration -----------------------------------------------------------------------------------

def load_profile() -> Any:
    """The user's saved calibration profile (vision's Profile), or None (population defaults)."""
    db = store()
    if db is None:
        return None
    try:
        data = db.get(PROFILE_KIND, PROFILE_KEY)
        if data is None:
            return None
        from trainer.vision.calibration import Profile

        return Profile.from_json(data)
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        _problem("Your saved calibration could not be used (calibrate again to replace it)", error)
        return None


def _get_own(kind: str, read: Callable[[Any], Any], failure: str | None) -> Any:
    """The person's one record of ``kind`` as ``read`` makes it (vision is imported only when there
    is a record), or None: no Store, no record, or one that no longer reads (``failure`` is shown,
    if given; None: an old record silently counts as none)."""
    db = store()
    if db is None:
        return None
    data = db.get(kind, PROFILE_KEY)
    if data is None:
        return None
    try:
        return read(data)
    except ValueError as error:
        if failure is not None:
            _problem(failure, error)
        return None


def _put_own(kind: str, value: Any, failure: str) -> bool:
    """Store ``value.to_json()`` as the person's one record of ``kind``; False when there is no Store
    or it refused (``failure`` is shown: the value still serves until the app closes)."""
    db = store()
    if db is None:
        return False
    try:
        db.put(kind, PROFILE_KEY, value.to_json(), now=now())
    except ValueError as error:
        _problem(failure, error)
        return False
    return True


def save_profile(profile: Any) -> bool:
    return _put_own(PROFILE_KIND, profile, "Your calibration was not saved (it is used until the app closes)")


def forget_profile() -> None:
    db = store()
    if db is not None:
        try:
            db.delete(PROFILE_KIND, PROFILE_KEY)
        except ValueError as error:
            _problem("Your calibration could not be forgotten", error)


# -- personal signs ("teach your signs") -------------------------------------------------------------

def load_personal() -> Any:
    """The user's taught signs (vision's PersonalSigns), or None. A stored model that no longer
    reads (older schema) counts as none: the panel then offers to teach again."""
    def read(data: Any) -> Any:
        from trainer.vision.personal import PersonalSigns

        return PersonalSigns.from_json(data)

    return _get_own(PERSONAL_KIND, read, None)


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


# -- sensitivity (the person's own threshold per sign) ------------------------------------------------

def load_sensitivity() -> Any:
    """The user's own thresholds (vision's Sensitivity), or None (the recognizer's). A record that no
    longer reads is reported and counts as none."""
    def read(data: Any) -> Any:
        from trainer.vision.sensitivity import Sensitivity

        return Sensitivity.from_json(data)

    return _get_own(SENSITIVITY_KIND, read, "Your saved sensitivity could not be used (set it again in Practice)")


def save_sensitivity(sensitivity: Any) -> bool:
    return _put_own(
        SENSITIVITY_KIND, sensitivity, "Your sensitivity was not saved (it is used until the app closes)",
    )


def iso_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


# -- saved games -----------------------------------------------------------------------------------
#
# The page calls these and shows what they raise (SaveError, a ValueError) as a message: every
# check of a name or a stored game is made here, so no save, however damaged, reaches the page as
# an exception.

MAX_NAME = 200
AUTOSAVE_PREFIX = "autosave"


class SaveError(ValueError):
    """A save name or a saved game the app cannot use; the message says why and what to do."""


def check_name(name: object) -> str:
    """The name to save under, stripped; SaveError for an empty, too long or reserved one."""
    if not isinstance(name, str) or not name.strip():
        raise SaveError("Give the game a name to save it under (the name is empty).")
    name = name.strip()
    if len(name) > MAX_NAME:
        raise SaveError(f"That name is {len(name)} characters long: shorten it to at most {MAX_NAME}.")
    if name.startswith(AUTOSAVE_PREFIX):
        raise SaveError(f"Names starting with '{AUTOSAVE_PREFIX}' are kept for automatic saves: choose another name.")
    return name


def save_game(name: str, data: dict) -> bool:
    """Save under a name the person chose (checked by :func:`check_name`)."""
    db = store()
    if db is None:
        return False
    db.put(GAME_KIND, check_name(name), data, now=now())
    return True


def save_named_game(name: str, data: dict) -> str | None:
    """:func:`save_game` for a page: None when saved, else the message to show."""
    try:
        if not save_game(name, data):
            return "Saving is not available: the progress database cannot be used (see the sidebar)."
    except ValueError as error:
        return f"Not saved: {error}"
    return None


def in_words(moment: datetime) -> str:
    """``4 December 2026 at 15:19``: a moment as people write it."""
    return f"{moment.day} {moment.strftime('%B %Y at %H:%M')}"


def autosave_name(describe: str, taken=()) -> str:
    """A new game's autosave slot, named in words after the game and when it began
    (``autosave: game 608204 at 4 players, begun 4 December 2026 at 15:19``); a number tells apart
    two games of the same description begun in the same minute (``taken``: the names in use)."""
    base = f"{AUTOSAVE_PREFIX}: {describe}, begun {in_words(datetime.now())}"
    name, n = base, 2
    while name in taken:
        name, n = f"{base} ({n})", n + 1
    return name


def autosave(data: dict, name: str | None = None) -> str | None:
    """Save a game in its own autosave slot (one per game, whichever tab plays it), kept until the
    person deletes it. ``name``: the game's slot once it has one; the slot's name is returned
    (None when nothing could be saved)."""
    db = store()
    if db is None:
        return None
    try:
        with db.transaction():
            if name is None:
                name = autosave_name(f"game {data.get('seed')} at {data.get('players', 4)} players",
                                     set(db.keys(GAME_KIND)))
            db.put(GAME_KIND, name, data, now=now())
    except ValueError as error:  # a full or read-only disk: the game goes on, the person is told
        st.warning(f"This move was not saved automatically: {error}")
        return None
    st.session_state["_autosave_name"] = name  # the latest slot this tab wrote
    return name


def delete_game(name: str) -> str | None:
    """Delete a saved game (a named save or an autosave): None when done, else the message to show."""
    db = store()
    if db is None:
        return "Deleting is not available: the progress database cannot be used (see the sidebar)."
    try:
        if not db.delete(GAME_KIND, name):
            return f"There is no saved game named {name!r} any more."
    except ValueError as error:
        return f"Not deleted: {error}"
    return None


def saved_games() -> list[str]:
    db = store()
    return [] if db is None else sorted(db.keys(GAME_KIND), reverse=True)


def load_game(name: str) -> dict | None:
    db = store()
    return None if db is None else db.get(GAME_KIND, name)


def read_saved_game(data: Any) -> SavedGame:
    """The stored value of an app save as typed values, checked field by field (once, by
    :meth:`SavedGame.from_json`) before anything replays it; SaveError otherwise."""
    try:
        return SavedGame.from_json(data)
    except ValueError as error:
        raise SaveError(str(error)) from None


def check_saved_game(data: Any) -> dict[str, Any]:
    """The stored value of an app save, once :func:`read_saved_game` has read it."""
    read_saved_game(data)
    return dict(data)


def _unexpected(what: str, name: str, error: BaseException) -> SaveError:
    import logging

    # The details (a bug, not the file) go to the terminal; the page says what to do.
    logging.getLogger(__name__).error("%s %r failed", what, name, exc_info=error)
    return SaveError(f"Cannot {what} {name!r}: it failed unexpectedly ({type(error).__name__}; details in the "
                     "terminal). Start a new game, or delete this save.")


def resume_game(name: str) -> Any:
    """The GameSession saved under ``name``; SaveError (with the reason and a way out) otherwise."""
    from trainer.ui.game_session import GameSession

    way_out = "Start a new game instead (or choose another save)."
    try:
        data = load_game(name)
        if data is None:
            raise SaveError("there is no such save (was it deleted in another tab?)")
        return GameSession.replay(read_saved_game(data))
    except ValueError as error:
        raise SaveError(f"Cannot resume {name!r}: {error}. {way_out}") from None
    except Exception as error:  # noqa: BLE001 - a damaged save must never become a page traceback
        raise _unexpected("resume", name, error) from None


def replay_game(name: str) -> Any:
    """The rules-engine Game saved under ``name`` (for the replay panel); SaveError otherwise."""
    from trainer.rules.saves import game_from_json

    try:
        data = load_game(name)
        if not isinstance(data, dict) or "game" not in data:
            raise SaveError("it holds no game to replay")
        return game_from_json(data["game"])
    except ValueError as error:
        raise SaveError(f"Cannot replay {name!r}: {error}. Choose another save.") from None
    except Exception as error:  # noqa: BLE001
        raise _unexpected("replay", name, error) from None
