"""One game on the Play page: the bots' Table, the person at seat 0, and what the person did.

Holds no rules and no bot logic: the Table (``trainer.bots.table``) runs the game and the bots, the
engine (``trainer.rules``) says what is legal and scores. This module only records the person's
inputs in order (actions and signs), so a game saves as ``settings + inputs`` and resumes by
replaying them on a new Table built from the same seed (bots and catching are seeded by the table,
and the search bot is given a fixed number of worlds instead of a time budget, so a replay makes the
same decisions). The engine's own save (``game_to_json``) is stored alongside for trick-by-trick replay.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from trainer.rules.actions import Action, format_action, parse_action
from trainer.rules.ruleset import Ruleset
from trainer.signals.conventions import Convention
from trainer.signals.gestures import Gesture
from trainer.signals.signs import Sign, Signal

HUMAN_SEAT = 0
PARTNER_SEAT = 2
SAVE_FORMAT = "aluette-app-game"
SAVE_VERSION = 1
BOT_NAMES = ("heuristic", "search", "random")
# Deterministic bots (no time budget), so a saved game replays exactly.
BOT_OPTIONS = {"search": {"max_ms": None, "worlds": 48}}


class SessionError(ValueError):
    """A saved game that cannot be resumed, or an input the table refused; says why."""


@dataclass(frozen=True, slots=True)
class Seating:
    """Who sits where: the person at seat 0, the partner bot opposite, two opponent bots."""

    partner: str = "heuristic"
    opponents: str = "heuristic"

    def seats(self) -> list[str]:
        return ["human", self.opponents, self.partner, self.opponents]


@dataclass(slots=True)
class GameSession:
    """A live game and the person's inputs so far."""

    preset: str
    convention: str
    seed: int
    seating: Seating
    table: Any
    inputs: list[dict] = field(default_factory=list)

    @classmethod
    def start(cls, preset: str, convention: str, seed: int, seating: Seating = Seating()) -> "GameSession":
        from trainer.bots.table import Table

        table = Table.create(
            seating.seats(), bot_options=BOT_OPTIONS, ruleset=Ruleset.preset(preset), seed=seed,
            convention=Convention.named(convention),
        )
        table.step()
        return cls(preset, convention, seed, seating, table)

    # -- the person acts --------------------------------------------------------------------------

    def act(self, action: Action) -> None:
        """Submit the person's action (the engine checks it) and let the bots play on."""
        self.table.submit(HUMAN_SEAT, action)
        self.inputs.append({"act": format_action(action)})
        self.table.step()

    def sign(self, sign: Signal | Gesture) -> Any:
        """The person makes a sign (a button: a Signal; the camera: a Gesture). Returns the SignEvent."""
        event = self.table.submit_sign(HUMAN_SEAT, sign)
        self.inputs.append({"sign": event.signal.sign.value, "count": event.signal.count})
        return event

    # -- save and resume --------------------------------------------------------------------------

    def to_json(self) -> dict:
        from trainer.rules.saves import game_to_json

        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "preset": self.preset,
            "convention": self.convention,
            "seed": self.seed,
            "partner": self.seating.partner,
            "opponents": self.seating.opponents,
            "inputs": list(self.inputs),
            "game": game_to_json(self.table.game),
        }

    @classmethod
    def from_json(cls, data: dict) -> "GameSession":
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise SessionError("this is not a saved game of the app: start a new game instead")
        if data.get("version") != SAVE_VERSION:
            raise SessionError(f"saved game version {data.get('version')!r} is not {SAVE_VERSION}: start a new game")
        session = cls.start(data["preset"], data["convention"], int(data["seed"]),
                            Seating(data["partner"], data["opponents"]))
        for n, item in enumerate(data["inputs"]):
            try:
                if "act" in item:
                    session.act(parse_action(item["act"]))
                else:
                    session.sign(Signal(Sign(item["sign"]), int(item.get("count", 1))))
            except ValueError as error:
                raise SessionError(f"input {n + 1} of the saved game ({item}) cannot be replayed: {error}") from None
        return session
