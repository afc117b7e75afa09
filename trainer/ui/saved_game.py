"""A saved Play-page game as typed values: the table settings, the seed, and the person's inputs.

The person's inputs are a closed union (:data:`Input`: a move, a "next" click, a sign, words told
after a sign, a "seen!" call), each with its moment in seconds of game time on a timed table.
:class:`~trainer.ui.game_session.GameSession` records these values; :func:`input_to_json` writes
the one saved form of each, and :meth:`SavedGame.from_json` reads a stored game back, checking
every field once (the store's row may be hand-edited or damaged) before anything replays it.

Imports the rules, signals and bots' table-setup layers only (no Streamlit).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from trainer.bots.table_setup import TABLE_SIZES, TableSettings, playable_bots
from trainer.rules.actions import Action, format_action, parse_action
from trainer.signals.conventions import Convention
from trainer.signals.gestures import Gesture, Side
from trainer.signals.relative import Announcement, format_message, parse
from trainer.signals.signs import MadeSign, Sign, Signal

SAVE_FORMAT = "aluette-app-game"
SAVE_VERSION = 3
READABLE_VERSIONS = (1, 2, 3)
# Version 1 had no pauses: an action that comes during a pause continues it. Version 2 paused after a
# deal only when a bot played next: an input that comes during a deal's review continues it.
BOT_NAMES = ("heuristic", *(name for name in playable_bots() if name != "heuristic"))
"""The bots a person may choose (every fair one; never the all-seeing oracle), the default first."""
MAX_INPUTS = 2000
"""A whole game is a few hundred inputs; more is not a save of this app."""
MAX_WORDS = 400
"""The longest words told after a sign a save may hold."""
CAMERA_KEYS = ("gesture", "confidence", "side", "start", "end")
"""What a camera sign's input adds to ``sign`` and ``count`` (absent for a button's sign)."""


class SavedGameError(ValueError):
    """A stored game this app cannot read: names the field and what is wrong with it."""


@dataclass(frozen=True, slots=True)
class Act:
    """The person's move (``t``: its moment on a timed table)."""

    action: Action
    t: float | None = None


@dataclass(frozen=True, slots=True)
class Next:
    """The person has seen the closed trick (or the deal's review): the bots play on."""

    t: float | None = None


@dataclass(frozen=True, slots=True)
class MadeSignInput:
    """The person's sign, as sent: a button's (the convention's gesture) or the camera's reading.
    ``at``: when a camera sign began, in game time (its own onset)."""

    made: MadeSign
    t: float | None = None
    at: float | None = None


@dataclass(frozen=True, slots=True)
class Announce:
    """Words told aloud after the person's last sign (no moment: the eyes catch signs, not words)."""

    words: tuple[Announcement, ...]


@dataclass(frozen=True, slots=True)
class Seen:
    """The person says "seen!" on ``seat`` (a timed game only)."""

    seat: int
    t: float | None = None


Input = Act | Next | MadeSignInput | Announce | Seen
"""One input of the person, in the order made."""


def _moment(t: float | None) -> dict[str, float]:
    return {} if t is None else {"t": t}


def sign_input(made: MadeSign) -> dict[str, Any]:
    """A sign's saved fields: the sign and count, and for a camera sign what the camera saw."""
    item: dict[str, Any] = {"sign": made.sign.value, "count": made.count}
    if made.read_by_camera:
        item.update(gesture=made.gesture.value if made.gesture else None, confidence=made.confidence,
                    side=made.side.value if made.side else None, start=made.start, end=made.end)
        item = {k: v for k, v in item.items() if v is not None}
    return item


def input_to_json(item: Input) -> dict[str, Any]:
    """The saved form of one input (the app's save format, version :data:`SAVE_VERSION`)."""
    if isinstance(item, Act):
        return {"act": format_action(item.action), **_moment(item.t)}
    if isinstance(item, Next):
        return {"next": True, **_moment(item.t)}
    if isinstance(item, Announce):
        return {"announce": format_message(item.words)}
    if isinstance(item, Seen):
        return {"seen": item.seat, **_moment(item.t)}
    return {**sign_input(item.made), **_moment(item.t), **({} if item.at is None else {"at": item.at})}


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _camera_fields_ok(item: dict[str, Any]) -> bool:
    """A camera sign's saved reading: a known gesture and side, a confidence in 0..1, finite times."""
    confidence = item.get("confidence", 0.5)
    return (
        (not any(k in item for k in ("gesture", "side", "start", "end")) or "confidence" in item)
        and _number(confidence) and 0.0 <= confidence <= 1.0
        and item.get("gesture", "wink") in {g.value for g in Gesture}
        and item.get("side", "left") in {s.value for s in Side}
        and all(_number(item[k]) for k in ("start", "end") if k in item)
    )


def made_from_input(item: dict[str, Any], convention: Convention | None = None) -> MadeSign:
    """Read back :func:`sign_input`: a saved sign without camera keys is a button's, given the
    gesture of ``convention`` (None: no gesture)."""
    signal = Signal(Sign(item["sign"]), int(item.get("count", 1)))
    if "confidence" not in item:
        return MadeSign(signal) if convention is None else convention.made(signal)
    gesture, side = item.get("gesture"), item.get("side")
    return MadeSign(signal, Gesture(gesture) if gesture else None, float(item["confidence"]),
                    Side(side) if side else None, item.get("start"), item.get("end"))


def _shape_ok(item: dict[str, Any], version: int, timed: bool) -> bool:
    """Whether a saved input (without its moments) has the keys and types of one kind of input."""
    count = item.get("count", 1)
    return (
        (set(item) == {"act"} and isinstance(item["act"], str))
        or (set(item) == {"seen"} and _whole(item["seen"]) and 0 < item["seen"] < 6 and timed)
        or (item == {"next": True} and version >= 2)  # "next" after a closed trick (version 2)
        or (set(item) == {"announce"} and isinstance(item["announce"], str) and len(item["announce"]) <= MAX_WORDS)
        or (set(item) <= {"sign", "count", *CAMERA_KEYS} and isinstance(item.get("sign"), str)
            and _whole(count) and 1 <= count <= 9 and _camera_fields_ok(item))
    )


def input_from_json(n: int, raw: Any, *, version: int, timed: bool, convention: Convention | None = None) -> Input:
    """Saved input number ``n`` as a typed value; :class:`SavedGameError` naming it otherwise."""
    shown = str(raw)[:80]
    # A timed game's input carries its moment ("t"; a camera sign also its onset, "at").
    moments = {k: raw[k] for k in ("t", "at") if isinstance(raw, dict) and k in raw}
    if any(not _number(v) or not 0 <= v < 1e9 for v in moments.values()):
        raise SavedGameError(f"its input {n} ({shown}) has a moment that is not a number of seconds")
    item = {k: v for k, v in raw.items() if k not in moments} if isinstance(raw, dict) else raw
    if not isinstance(item, dict) or not _shape_ok(item, version, timed):
        raise SavedGameError(f"its input {n} ({shown}) is not a move, a sign, words after a sign or a catch")
    t = None if "t" not in moments else float(moments["t"])
    try:
        if "act" in item:
            return Act(parse_action(item["act"]), t)
        if "next" in item:
            return Next(t)
        if "seen" in item:
            return Seen(item["seen"], t)
        if "announce" in item:
            return Announce(parse(item["announce"]))
        at = None if "at" not in moments else float(moments["at"])
        return MadeSignInput(made_from_input(item, convention), t, at)
    except ValueError as error:
        raise SavedGameError(f"its input {n} ({shown}) cannot be read: {error}") from None


@dataclass(frozen=True, slots=True)
class SavedGame:
    """A stored game of the app, read and checked: what a resume replays."""

    settings: TableSettings
    seed: int
    timed: bool
    version: int
    inputs: tuple[Input, ...]

    @classmethod
    def from_json(cls, data: Any) -> SavedGame:
        """Read a stored value, checked field by field; :class:`SavedGameError` says what is wrong."""
        version = _check_header(data)
        settings = _settings(data)
        inputs = data.get("inputs")
        if not isinstance(inputs, list) or len(inputs) > MAX_INPUTS:
            raise SavedGameError(f"its inputs are not a list of at most {MAX_INPUTS}")
        timed = data.get("timed", False)
        if not isinstance(timed, bool):
            raise SavedGameError(f"its 'timed' {timed!r} is not true or false")
        try:
            convention = Convention.named(settings.convention)
        except ValueError as error:
            raise SavedGameError(f"its convention cannot be used: {error}") from None
        typed = tuple(input_from_json(n, item, version=version, timed=timed, convention=convention)
                      for n, item in enumerate(inputs, 1))
        return cls(settings, data["seed"], timed, version, typed)


def _check_header(data: Any) -> int:
    """The save's format and version; the version."""
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SavedGameError("it is not a saved game of this app")
    version = data.get("version")
    if isinstance(version, bool) or version not in READABLE_VERSIONS:
        raise SavedGameError(f"it was saved in format {version!r}, this app reads "
                             f"{', '.join(map(str, READABLE_VERSIONS))}")
    seed = data.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2 ** 63:
        raise SavedGameError(f"its seed {seed!r} is not a whole number of at most 63 bits")
    return int(version)


def _settings(data: dict[str, Any]) -> TableSettings:
    """The table settings of a save, each checked (saves from before a setting hold none: its default)."""
    for name in ("preset", "convention", "partner", "opponents"):
        if not isinstance(data.get(name), str):
            raise SavedGameError(f"its {name!r} is missing or not a name")
    for name in ("partner", "opponents"):
        if data[name] not in BOT_NAMES:
            raise SavedGameError(f"its {name} {data[name]!r} is not one of the bots ({', '.join(BOT_NAMES)})")
    players = data.get("players", 4)
    if isinstance(players, bool) or players not in TABLE_SIZES:
        raise SavedGameError(f"its table size {players!r} is not one of {', '.join(map(str, TABLE_SIZES))} players")
    if not isinstance(data.get("vigilance", "normal"), str):
        raise SavedGameError(f"its vigilance {data.get('vigilance')!r} is not a name")
    calls = data.get("calls")
    if calls is not None and (not _whole(calls) or not 1 <= calls <= 20):
        raise SavedGameError(f"its 'seen!' calls a deal {calls!r} are not a whole number from 1 to 20")
    if not isinstance(data.get("lies", False), bool):
        raise SavedGameError(f"its 'lies' setting {data.get('lies')!r} is not true or false")
    try:
        return TableSettings.from_json(data)
    except ValueError as error:
        raise SavedGameError(f"its table settings cannot be used: {error}") from None
