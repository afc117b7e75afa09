"""The table a person sits at: its size, its settings, who sits where and what each seat is called.

The app's Play page and ``aluette play`` offer the same choices through one value,
:class:`TableSettings` (RULES.md "A deal", "Other player counts", "Signs"):

* the table size (3, 4 or 6 players) and the rules preset — seating, partnerships and deal sizes
  are the engine's (:class:`~trainer.rules.ruleset.Ruleset`);
* how watchful the opponents are (a named :data:`~trainer.signals.table.VIGILANCE_LEVELS` level,
  ``blind`` … ``hawk``);
* whether signs may lie (the bots then trust signs less, and a person's bluff is sent);
* how many signs each player may call "seen!" a deal (a wrong call spends one; a bot's catch too);
* the sign convention;
* which bots sit as the partner and as the opponents, among the bots that play fair (never one
  that is shown every hand).

The person always sits at seat 0, South; seats go clockwise (play goes to the left), so seat 1 is
on the person's left. Partners face each other: North at four, North (seat 3) at six; at three
everybody plays alone.

Imports the rules, the signals and the bots' own modules (never vision or UI).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any

from trainer.bots.base import BotError, bot_names
from trainer.rules.errors import RulesetError
from trainer.rules.ruleset import PRESETS, Players, Ruleset
from trainer.signals.conventions import CONVENTIONS, Convention
from trainer.signals.table import VIGILANCE_LEVELS, Vigilance

if TYPE_CHECKING:  # an annotation only: the table is imported when one is made
    from trainer.bots.table import Table

HUMAN_SEAT = 0
TABLE_SIZES: tuple[int, ...] = tuple(p.value for p in Players)
"""3, 4 and 6 players (RULES.md)."""

ALL_SEEING = ("oracle",)
"""Bots that are shown every hand (the arena's upper bound): never seated with a person."""


def playable_bots() -> tuple[str, ...]:
    """The registered bots a person may play with or against: every one that plays fair."""
    return tuple(name for name in bot_names() if name not in ALL_SEEING)


BOT_OPTIONS: dict[str, dict[str, Any]] = {
    "search": {"max_ms": None, "worlds": 48}, "ismcts": {"max_ms": None, "worlds": 300},
}
"""Fixed budgets instead of time budgets, so the same seed replays the same decisions (saves resume
by replaying the person's inputs)."""

_SEAT_NAMES: dict[int, tuple[str, ...]] = {
    3: ("South", "West", "East"),
    4: ("South", "West", "North", "East"),
    6: ("South", "South-West", "North-West", "North", "North-East", "South-East"),
}


DEFAULT_CALLS = 3
"""Calls a deal: enough to catch the signs of a deal that you saw (opponents make one to four),
too few to click at every face: a blind click is a call a real sign will miss."""


class TableSetupError(BotError):
    """A table setting that does not exist; names the value and the choices."""


def seat_names(players: int) -> tuple[str, ...]:
    """Compass names of the seats, clockwise from the person's (South)."""
    try:
        return _SEAT_NAMES[players]
    except KeyError:
        raise TableSetupError(f"a table seats {', '.join(map(str, TABLE_SIZES))} players, not {players!r}") from None


def partner_seat(players: int) -> int | None:
    """The person's partner, facing them (None at three: everybody plays alone)."""
    partners = Ruleset(players=Players(players)).partners(HUMAN_SEAT)
    return partners[0] if partners else None


@dataclass(frozen=True, slots=True)
class TableSettings:
    """Everything chosen before a game: table size, rules, watchfulness, lies, convention, bots."""

    players: int = 4
    preset: str = "vendee"
    vigilance: str = "normal"
    """The opponents' watchfulness, a name of :data:`VIGILANCE_LEVELS`."""
    lies: bool = False
    """Whether signs may lie: bots trust signs less, and a person's bluff is sent."""
    convention: str = "classic"
    partner: str = "heuristic"
    """The partner's bot (unused at three: nobody has a partner)."""
    opponents: str = "heuristic"
    calls: int | None = DEFAULT_CALLS
    """"seen!" calls each player may make a deal, a wrong call included (None: no limit, as in
    saves from before the setting). A bot's catch is a call too: the bots watch under the same rule."""

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or self.players not in TABLE_SIZES:
            raise TableSetupError(f"a table seats {', '.join(map(str, TABLE_SIZES))} players, not {self.players!r}")
        if self.preset not in PRESETS:
            raise TableSetupError(f"unknown preset {self.preset!r}: choose one of {', '.join(PRESETS)}")
        if self.vigilance not in VIGILANCE_LEVELS:
            raise TableSetupError(f"unknown vigilance {self.vigilance!r}: choose one of {', '.join(VIGILANCE_LEVELS)}")
        if self.calls is not None and (isinstance(self.calls, bool) or not isinstance(self.calls, int)
                                       or not 1 <= self.calls <= 20):
            raise TableSetupError(f"'seen!' calls a deal are a whole number from 1 to 20, not {self.calls!r}")
        if not isinstance(self.lies, bool):
            raise TableSetupError(f"'lies' is true or false, not {self.lies!r}")
        if self.convention not in CONVENTIONS:
            raise TableSetupError(f"unknown convention {self.convention!r}: choose one of {', '.join(CONVENTIONS)}")
        fair = playable_bots()
        for role in ("partner", "opponents"):
            name = getattr(self, role)
            if name not in fair:
                why = " (it is shown every hand: the arena's bound, never a player's)" if name in ALL_SEEING else ""
                raise TableSetupError(f"the {role} bot {name!r} cannot sit at a person's table{why}: "
                                      f"choose one of {', '.join(fair)}")

    def with_(self, **changes: Any) -> TableSettings:
        return replace(self, **changes)

    # -- the table -------------------------------------------------------------------------------

    @property
    def ruleset(self) -> Ruleset:
        try:
            return Ruleset.preset(self.preset, players=Players(self.players))
        except RulesetError as error:  # checked in __post_init__; kept for a clear message anyway
            raise TableSetupError(str(error)) from None

    @property
    def seat_names(self) -> tuple[str, ...]:
        return seat_names(self.players)

    @property
    def partner_seat(self) -> int | None:
        return partner_seat(self.players)

    def seats(self) -> list[str]:
        """Who sits where: ``"human"`` at seat 0, the partner bot facing, the opponents' bot elsewhere."""
        partner = self.partner_seat
        return ["human" if s == HUMAN_SEAT else self.partner if s == partner else self.opponents
                for s in range(self.players)]

    def table(self, seed: int | str, *, ruleset: Ruleset | None = None, **options: Any) -> Table:
        """A new :class:`~trainer.bots.table.Table` with these settings and ``seed`` (``ruleset``:
        a resumed game's own, when it is not one of the presets)."""
        from trainer.bots.table import Table

        rules = ruleset if ruleset is not None else self.ruleset
        if rules.player_count != self.players:
            raise TableSetupError(f"a {self.players}-player table cannot play a {rules.player_count}-player game")
        return Table.create(
            self.seats(), bot_options=BOT_OPTIONS, ruleset=rules, seed=seed,
            vigilance=Vigilance.named(self.vigilance), lying_allowed=self.lies,
            convention=Convention.named(self.convention), calls_per_deal=self.calls, **options,
        )

    def summary(self) -> str:
        """One line for the start of a game: ``4 players (vendee), vigilance normal, 3 'seen!' calls a
        deal, signs tell the truth, convention classic; partner heuristic, opponents heuristic``."""
        bots = (f"opponents {self.opponents} (everyone plays alone)" if self.partner_seat is None
                else f"partner {self.partner}, opponents {self.opponents}")
        calls = ("" if self.partner_seat is None else
                 ", 'seen!' without limit" if self.calls is None else f", {self.calls} 'seen!' calls a deal")
        return (f"{self.players} players ({self.preset}), vigilance {self.vigilance}{calls}, "
                f"{'signs may lie' if self.lies else 'signs tell the truth'}, convention {self.convention}; {bots}")

    # -- JSON ------------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_json(cls, data: Any) -> TableSettings:
        """Read the settings from a save; a missing key takes its default (saves from before a
        setting existed: 4 players, vigilance normal, truthful signs)."""
        if not isinstance(data, dict):
            raise TableSetupError(f"table settings are a JSON object, got {type(data).__name__}")
        known = {f.name for f in fields(cls)}
        # A save from before the "seen!" limit was played without one: it replays without one.
        return cls(**{"calls": None, **{k: v for k, v in data.items() if k in known}})


def team_names(players: int) -> tuple[str, ...]:
    """What each team is called from the person's chair: ``your team`` / ``the opponents`` at four,
    ``you`` / ``West`` / ``East`` at three, the pairs by their seats at six."""
    rules = Ruleset(players=Players(players))
    names = seat_names(players)
    out = []
    for team in range(rules.team_count):
        seats = rules.team_seats(team)
        if HUMAN_SEAT in seats:
            out.append("you" if len(seats) == 1 else "your team")
        elif len(seats) == 1:
            out.append(names[seats[0]])
        elif rules.team_count == 2:
            out.append("the opponents")
        else:
            out.append(" and ".join(names[s] for s in seats))
    return tuple(out)
