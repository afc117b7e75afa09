"""Rule variants of Aluette: every point the written sources disagree on, as a frozen option object.

Standard library only. A :class:`Ruleset` is a plain value: the engine, the bots and the save files
read it, nothing mutates it. ``Ruleset.preset("pagat")`` gives the named presets of RULES.md
("Presets" table); ``Ruleset()`` is the default ``vendee`` preset.

Tables (RULES.md "A deal" and "Other player counts"):

* 4 players: two teams (seats 0+2, 1+3), 9 cards each dealt in batches of 3, talon 12, 9 tricks.
* 3 players, each alone: 12 cards each, talon 12, 12 tricks, no partner.
* 6 players: three teams of two (seats i and i+3), 8 cards each, no talon, no chant, 8 tricks.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import Enum
from typing import Any

from trainer.rules.errors import RulesetError
from trainer.rules.fastdeal import HAND_SIZES, PlayoutFlags


class Players(Enum):
    """How many sit at the table (RULES.md "A deal" 1 and "Other player counts")."""

    THREE = 3
    FOUR = 4
    SIX = 6


class ChantReceivers(Enum):
    """Who receives the talon in a chant (RULES.md "A deal" 3)."""

    LEFT_OPPONENT_AND_DEALERS_PARTNER = "left_opponent_and_dealers_partner"
    """The two players left of the dealer (French Wikipedia, two French rule sites)."""
    LEFT_OPPONENT_AND_DEALER = "left_opponent_and_dealer"
    """The player left of the dealer and the dealer (pagat, English Wikipedia, the Italian text)."""


class LeadAfterPourri(Enum):
    """Who leads after a spoiled trick (RULES.md "A deal" 6)."""

    LEADER = "leader"
    """The player who led the spoiled trick leads again (French and Italian texts, pagat)."""
    SPOILER = "spoiler"
    """The player who spoiled it, i.e. played the last of the equal highest cards (English Wikipedia)."""


class GameEnd(Enum):
    """When the game ends (RULES.md "A game")."""

    FIRST_TO_POINTS = "first_to_points"
    """The first team to reach ``Ruleset.target_points`` (5) wins (French Wikipedia, Vendée clubs)."""
    FIXED_DEALS = "fixed_deals"
    """Exactly ``Ruleset.deals`` (5) deals; more points wins; a draw is possible (pagat)."""


class GivingUp(Enum):
    """What happens when a team offers to give the deal up (RULES.md "Giving up")."""

    OPPONENTS_SCORE = "opponents_score"
    """The opponents take 1 point without play (French and English Wikipedia)."""
    ACCEPT_OR_REFUSE = "accept_or_refuse"
    """Opponents accept (+1 for them) or refuse and commit to mordienne: success 2 for them,
    failure 2 for the surrendering team (pagat, Italian text)."""


class AnnouncedMordienne(Enum):
    """Whether mordienne may be announced before the first trick, and what it does (RULES.md)."""

    OFF = "off"
    """No announcement."""
    ACCEPT_OR_DECLINE = "accept_or_decline"
    """Opponents accept (game to 10 points, the deal winner scores 2) or decline (deal not played,
    the announcer's team scores 1) (French Wikipedia)."""
    EXTENDS_TO_TEN = "extends_to_ten"
    """The announcement only extends the game to 10 points (pagat after Rebour)."""


@dataclass(frozen=True, slots=True)
class Ruleset:
    """Every disputed rule of Aluette. Defaults are the ``vendee`` preset.

    The game-length numbers: ``target_points`` for :attr:`GameEnd.FIRST_TO_POINTS`, ``deals`` for
    :attr:`GameEnd.FIXED_DEALS`, ``extended_points`` once mordienne has been announced (accepted, or
    under :attr:`AnnouncedMordienne.EXTENDS_TO_TEN`): the game then ends when a team reaches it,
    whatever ``game_end`` says, because the sources say the game "is then played to 10 points".
    """

    players: Players = Players.FOUR
    chant_allowed: bool = True
    chant_receivers: ChantReceivers = ChantReceivers.LEFT_OPPONENT_AND_DEALERS_PARTNER
    lead_after_pourri: LeadAfterPourri = LeadAfterPourri.LEADER
    pourri_breaks_mordienne_run: bool = True
    game_end: GameEnd = GameEnd.FIRST_TO_POINTS
    target_points: int = 5
    deals: int = 5
    extended_points: int = 10
    giving_up: GivingUp = GivingUp.OPPONENTS_SCORE
    announced_mordienne: AnnouncedMordienne = AnnouncedMordienne.ACCEPT_OR_DECLINE
    name: str = "vendee"
    """The preset this ruleset came from, or ``"custom"``; shown in play and save files."""

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            expected = _FIELD_TYPES[field.name]
            if expected is int:
                # bool is an int subclass: reject it explicitly so True never means 1 point.
                if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                    raise RulesetError(f"ruleset {field.name} must be a positive integer, got {value!r}")
            elif not isinstance(value, expected):
                raise RulesetError(
                    f"ruleset {field.name} must be a {expected.__name__}, got {value!r}"
                    + (f": choose one of {[m.value for m in expected]}" if issubclass(expected, Enum) else "")
                )

    # -- presets --------------------------------------------------------------------------------

    @classmethod
    def preset(cls, name: str, **changes: Any) -> Ruleset:
        """The named preset of RULES.md (``vendee``, ``pagat``, ``english``), optionally changed.

        ``Ruleset.preset("pagat", players=Players.THREE)``. Raises :class:`RulesetError` naming the
        choices for an unknown name.
        """
        key = name.strip().lower() if isinstance(name, str) else name
        if key not in PRESETS:
            raise RulesetError(f"unknown ruleset preset {name!r}: choose one of {', '.join(PRESETS)}")
        ruleset = PRESETS[key]
        if changes:
            unknown = set(changes) - {f.name for f in fields(cls)}
            if unknown:
                raise RulesetError(f"unknown ruleset option(s) {sorted(unknown)}")
            ruleset = replace(ruleset, **changes)
        return ruleset

    # -- the table ----------------------------------------------------------------------------

    @property
    def player_count(self) -> int:
        # ``_value_`` rather than ``.value``: read in the engine's hot paths, and the enum property
        # goes through Python code.
        return self.players._value_

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player: 9 (4 players), 12 (3 players), 8 (6 players)."""
        return HAND_SIZES[self.players._value_]

    @property
    def tricks_per_deal(self) -> int:
        return self.hand_size

    def playout_flags(self) -> PlayoutFlags:
        """What trick play needs of this ruleset, for :class:`~trainer.rules.fastdeal.FastDeal`
        (the game's own deal, the replay contract and the bots' playouts all build it here)."""
        return PlayoutFlags(
            spoiler_leads=self.lead_after_pourri is LeadAfterPourri.SPOILER,
            pourri_breaks_run=self.pourri_breaks_mordienne_run,
            total_tricks=self.tricks_per_deal,
        )

    @property
    def talon_size(self) -> int:
        """48 minus the dealt cards: 12 with 3 or 4 players, 0 with 6."""
        return 48 - self.player_count * self.hand_size

    @property
    def chant_possible(self) -> bool:
        """A chant needs a talon and the option; 6-player tables have neither."""
        return self.chant_allowed and self.talon_size == 12

    @property
    def declarations_possible(self) -> bool:
        """Giving up and announced mordienne are team-against-team rules: only the 4-player table."""
        return self.players is Players.FOUR

    @property
    def team_count(self) -> int:
        return _TEAM_COUNT[self.players._value_]

    def team_of(self, seat: int) -> int:
        """Team number of a seat: seat % 2 (4 players), seat % 3 (6 players), the seat (3 players)."""
        return seat % self.team_count

    def team_seats(self, team: int) -> tuple[int, ...]:
        return tuple(s for s in range(self.player_count) if self.team_of(s) == team)

    def partners(self, seat: int) -> tuple[int, ...]:
        """The other seats of the seat's team (none with 3 players)."""
        return tuple(s for s in self.team_seats(self.team_of(seat)) if s != seat)

    def chant_receivers_for(self, dealer: int) -> tuple[int, int]:
        """The two seats that receive the talon, in the order they are dealt to."""
        n = self.player_count
        left = (dealer + 1) % n
        if self.chant_receivers is ChantReceivers.LEFT_OPPONENT_AND_DEALERS_PARTNER:
            return left, (dealer + 2) % n
        return left, dealer

    # -- JSON ---------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """Plain JSON values: enums by value."""
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = value.value if isinstance(value, Enum) else value
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Ruleset:
        if not isinstance(data, dict):
            raise RulesetError(f"a ruleset must be a JSON object, got {type(data).__name__}")
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise RulesetError(f"unknown ruleset option(s) {sorted(unknown)}: known are {sorted(known)}")
        values = {}
        for name, value in data.items():
            kind = _FIELD_TYPES[name]
            if isinstance(kind, type) and issubclass(kind, Enum):
                try:
                    value = kind(value)
                except ValueError:
                    raise RulesetError(
                        f"ruleset {name} {value!r} is not one of {[m.value for m in kind]}"
                    ) from None
            values[name] = value
        return cls(**values)


_FIELD_TYPES = {
    "players": Players,
    "chant_allowed": bool,
    "chant_receivers": ChantReceivers,
    "lead_after_pourri": LeadAfterPourri,
    "pourri_breaks_mordienne_run": bool,
    "game_end": GameEnd,
    "target_points": int,
    "deals": int,
    "extended_points": int,
    "giving_up": GivingUp,
    "announced_mordienne": AnnouncedMordienne,
    "name": str,
}
_TEAM_COUNT = {3: 3, 4: 2, 6: 3}

VENDEE = Ruleset()
PAGAT = Ruleset(
    chant_receivers=ChantReceivers.LEFT_OPPONENT_AND_DEALER,
    lead_after_pourri=LeadAfterPourri.LEADER,
    game_end=GameEnd.FIXED_DEALS,
    giving_up=GivingUp.ACCEPT_OR_REFUSE,
    announced_mordienne=AnnouncedMordienne.EXTENDS_TO_TEN,
    name="pagat",
)
ENGLISH = Ruleset(
    chant_receivers=ChantReceivers.LEFT_OPPONENT_AND_DEALER,
    lead_after_pourri=LeadAfterPourri.SPOILER,
    game_end=GameEnd.FIXED_DEALS,
    giving_up=GivingUp.OPPONENTS_SCORE,
    announced_mordienne=AnnouncedMordienne.OFF,
    name="english",
)
PRESETS: dict[str, Ruleset] = {"vendee": VENDEE, "pagat": PAGAT, "english": ENGLISH}
"""The presets of RULES.md, by name; ``vendee`` is the default."""
