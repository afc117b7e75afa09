"""One game on the Play page: the bots' Table, the person at seat 0, and what the person did.

Holds no rules and no bot logic: the Table (``trainer.bots.table``) runs the game and the bots, the
engine (``trainer.rules``) says what is legal and scores. This module only records the person's
inputs in order (actions, signs, words told after a sign, and "next" clicks), so a game saves as
``settings + inputs`` — the table settings (:class:`~trainer.bots.table_setup.TableSettings`: size,
preset, vigilance, lies, convention, bots) — and resumes by replaying them on a new Table built from
the same seed (bots and catching are seeded by the table, and the search bots are given a fixed
number of worlds instead of a time budget, so a replay makes the same decisions). The engine's own save (``game_to_json``) is stored alongside for
trick-by-trick replay.

A card table pauses when a trick closes and a bot would play next: the closed trick stays on the
table until the person clicks "next" (:meth:`GameSession.next`). It always pauses when a deal ends,
whoever plays next: the closed deal stays on screen as a review (:attr:`GameSession.reviewing`)
until "Next deal", and nothing of the new deal happens before (no sign point is offered, so the
bots' first signs of the new deal come after the click). The bots are stepped
one action at a time, so each bot move is recorded with the rule that chose it (:class:`BotMove`),
which the coach reads. Stepping one action at a time makes the same decisions as stepping them all
at once (the table offers its sign points between actions either way).

A *timed* game (the Play page's) runs a timed Table (:mod:`trainer.signals.watching`): the
opponents look at the person or away, and each input carries its moment in seconds of game time
(``"t"``), read from :attr:`GameSession.clock`; a replay sets the table's clock to the same moments,
so the same signs are caught. The person catches opponents' signs by :meth:`GameSession.seen`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable

from trainer.bots.table_setup import BOT_OPTIONS as TABLE_BOT_OPTIONS
from trainer.bots.table_setup import TableSettings, playable_bots
from trainer.rules.actions import Action, Phase, format_action, parse_action
from trainer.ui.table_events import closes, ends_deal
from trainer.signals.gestures import Gesture, Side
from trainer.signals.relative import Announcement, format_message, parse
from trainer.signals.signs import MadeSign, Sign, Signal
from trainer.signals.table import check_camera_hold

HUMAN_SEAT = 0
PAGE_SIGN_WINDOW_S = 20.0
"""On the page, bots sign at any moment of the 20 s after a click: a person watching needs the page
drawn and their eyes back on the table (the bots' own tables use 4 s)."""
PARTNER_SEAT = 2
"""The partner's seat at the 4-player table (``GameSession.partner_seat`` at any size)."""
SAVE_FORMAT = "aluette-app-game"
SAVE_VERSION = 3
READABLE_VERSIONS = (1, 2, 3)
# Version 1 had no pauses: an action that comes during a pause continues it. Version 2 paused after a
# deal only when a bot played next: an input that comes during a deal's review continues it.
BOT_NAMES = ("heuristic", *(name for name in playable_bots() if name != "heuristic"))
"""The bots a person may choose (every fair one; never the all-seeing oracle), the default first."""
BOT_OPTIONS = TABLE_BOT_OPTIONS


class SessionError(ValueError):
    """A saved game that cannot be resumed, or an input the table refused; says why."""


@dataclass(frozen=True, slots=True)
class Seating:
    """Who sits where at four: the person at seat 0, the partner bot opposite, two opponent bots
    (kept for callers from before :class:`TableSettings`, which seats every table size)."""

    partner: str = "heuristic"
    opponents: str = "heuristic"

    def seats(self) -> list[str]:
        return ["human", self.opponents, self.partner, self.opponents]


@dataclass(frozen=True, slots=True)
class BotMove:
    """One decision a bot made: in which deal, after how many finished tricks, what, and why
    (the bot's ``last_rule``; empty for a bot that names no rule)."""

    deal: int
    trick: int
    seat: int
    action: Action
    rule: str
    belief: Any = None
    """For the partner's moves: what it knew for certain of the person's hand when it chose (a
    ``trainer.bots.worlds.Holding`` from the signs it saw; None when it knew nothing)."""
    readings: tuple = ()
    """For the partner's moves: each of the person's signs it had received and what it made of
    them (``trainer.bots.knowledge.Reading``: certain, a hint, dropped), read with the partner
    bot's own trust and camera figures — the same reading its choice used."""


@dataclass(slots=True)
class GameSession:
    """A live game and the person's inputs so far."""

    settings: TableSettings
    seed: int
    table: Any
    inputs: list[dict] = field(default_factory=list)
    moves: list[BotMove] = field(default_factory=list)
    deal_hands: dict[int, tuple] = field(default_factory=dict)
    """The person's hand of each deal as play began (after any chant discards), for the coach."""
    paused: bool = False
    """A trick just closed and a bot plays next, or a deal ended: waiting for the person's "next"."""
    reviewing: bool = False
    """A deal ended and stays on screen as a review until "Next deal" (implies :attr:`paused`)."""
    timed: bool = False
    """The opponents' eyes catch signs by their moments, and the person catches by eye."""
    clock: Callable[[], float] = field(default=time.monotonic, repr=False, compare=False)
    """Seconds, on any monotonic scale; game time is its reading minus :attr:`origin`."""
    origin: float = 0.0
    autosave_name: str | None = field(default=None, compare=False)
    """This game's autosave slot, once it has one (a game resumed from an autosave goes on in it)."""
    _replay_t: float | None = field(default=None, repr=False, compare=False)
    """While a save replays: the moment of the input being replayed."""

    @classmethod
    def start(cls, preset: str, convention: str, seed: int, seating: Seating = Seating()) -> "GameSession":
        """A 4-player game with the default vigilance and truthful signs (see :meth:`begin`)."""
        return cls.begin(TableSettings(preset=preset, convention=convention, partner=seating.partner,
                                       opponents=seating.opponents), seed)

    @classmethod
    def begin(cls, settings: TableSettings, seed: int, *, timed: bool = False,
              clock: Callable[[], float] | None = None) -> "GameSession":
        """A new game at a table of any size with these settings (``timed``: the opponents' eyes
        catch signs by their moments, and the person catches by eye)."""
        clock = clock if clock is not None else time.monotonic
        table = settings.table(seed, timed=True, sign_window_s=PAGE_SIGN_WINDOW_S) if timed else settings.table(seed)
        session = cls(settings, seed, table, timed=timed, clock=clock, origin=clock())
        session._run_bots()
        return session

    # -- game time (timed games) ------------------------------------------------------------------

    def game_time(self) -> float:
        """Seconds since the game began on this page (never before the table's own clock)."""
        return max(self.table.now_s, self.clock() - self.origin)

    def _tick(self, t: float | None = None) -> dict:
        """Set the table's clock for the next input (now, or a saved moment); the input's "t"."""
        if not self.timed:
            return {}
        t = self.game_time() if t is None else float(t)
        self.table.set_time(t)
        return {"t": round(t, 3)}

    @property
    def preset(self) -> str:
        return self.settings.preset

    @property
    def convention(self) -> str:
        return self.settings.convention

    @property
    def seating(self) -> Seating:
        return Seating(self.settings.partner, self.settings.opponents)

    @property
    def players(self) -> int:
        return self.settings.players

    @property
    def partner_seat(self) -> int | None:
        """The person's partner (None at three)."""
        return self.settings.partner_seat

    # -- the person acts --------------------------------------------------------------------------

    def act(self, action: Action) -> None:
        """Submit the person's action (the engine checks it) and let the bots play on."""
        if self.reviewing:
            raise SessionError("the deal is over and shown for review: click Next deal first")
        if self.paused:
            raise SessionError("the table waits for you to look at the closed trick: click next first")
        told = len(self.table.events)
        moment = self._tick(self._replay_t)
        self.table.submit(HUMAN_SEAT, action)
        self.inputs.append({"act": format_action(action), **moment})
        new = self.table.events[told:]
        self._run_bots(pause=closes(new), review=ends_deal(new))

    def next(self) -> None:
        """The person has seen the closed trick: the bots play on."""
        if not self.paused:
            return
        self.inputs.append({"next": True, **self._tick(self._replay_t)})
        self._run_bots(pause=False)

    def _run_bots(self, pause: bool = False, review: bool = False) -> None:
        """Step the bots one action at a time until the person must act or the game ends; with
        ``pause`` (or when a bot closes a trick), stop where a bot would play next; with ``review``
        (or when a bot ends a deal), stop at once: the deal's review, before anything of the next."""
        table = self.table
        game = table.game
        self.paused = self.reviewing = False
        while not game.is_over:
            if review:
                self.paused = self.reviewing = True
                break
            table.step(max_actions=0)  # sign points and the new-deal bookkeeping, no action
            self._note_hand()
            seat = game.to_move
            if seat is None or table.is_human(seat):
                break
            if pause:
                self.paused = True
                break
            deal, tricks = game.deal_number, len(game.tricks)
            done, told = len(game.history), len(table.events)
            belief, readings = (_belief_of_partner(game.view(seat), table.seats[seat])
                                if seat == self.partner_seat else (None, ()))
            table.step(max_actions=1)
            # history[done] is the bot's action (a deal dealt by chance right after it comes later).
            self.moves.append(BotMove(deal, tricks, seat, game.history[done], table.last_rule(seat), belief,
                                      readings))
            new = table.events[told:]
            pause, review = closes(new), ends_deal(new)

    def _note_hand(self) -> None:
        game = self.table.game
        if game.phase in (Phase.DECLARE, Phase.ANSWER) or (game.phase is Phase.PLAY and not game.tricks
                                                           and not game.current_trick):
            self.deal_hands.setdefault(game.deal_number, game.hand(HUMAN_SEAT))

    def sign(self, sign: Signal | MadeSign, *, at: float | None = None) -> Any:
        """The person makes a sign (a button: a Signal; the camera: a MadeSign, from
        ``convention.read(event)``). Returns the SignEvent. A camera sign is saved with what the
        camera saw, so a resumed game gives the partner the same reading. In a timed game the sign
        began at ``at`` seconds of game time (a camera sign's own onset; default: now). A camera
        sign held less than :data:`~trainer.signals.table.CAMERA_MIN_HOLD_S` is refused (a
        SignalError saying so), so a brief false read that matches the hand is not sent as a card
        the person never chose to tell; a saved game replays what was sent."""
        self._not_reviewing("sign")
        if isinstance(sign, MadeSign) and self._replay_t is None:
            check_camera_hold(sign)
        moment = self._tick(self._replay_t)
        if at is not None and self.timed:
            moment = {"t": moment["t"], "at": round(float(at), 3)}
        event = self.table.submit_sign(HUMAN_SEAT, sign, at=moment.get("at"))
        self.inputs.append({**sign_input(event.made), **moment})
        return event

    def seen(self, seat: int) -> Any:
        """The person says "seen!" on ``seat`` now: the SignEvent of that seat showing now, caught;
        None for a miss (nothing of that seat was showing). Only in a timed game."""
        if not self.timed:
            raise SessionError("catching by eye needs a timed game: start a new game on the Play page")
        self._not_reviewing("catch a sign")
        moment = self._tick(self._replay_t)
        self.inputs.append({"seen": seat, **moment})
        return self.table.catch_by_eye(HUMAN_SEAT, seat, moment["t"])

    def announce(self, announcements: tuple[Announcement, ...] | str) -> Any:
        """The person tells more cards aloud after their last sign (``"au-dessous"``, or parsed
        announcements). Returns the sign's event with all its words so far."""
        self._not_reviewing("tell cards aloud")
        words = parse(announcements) if isinstance(announcements, str) else tuple(announcements)
        # Words told aloud have no moment to judge: the eyes catch signs, not words.
        event = self.table.announce(HUMAN_SEAT, words)
        self.inputs.append({"announce": format_message(words)})
        return event

    def _not_reviewing(self, what: str) -> None:
        if self.reviewing:
            raise SessionError(f"the deal is over and shown for review: click Next deal to {what} in the next one")

    # -- save and resume --------------------------------------------------------------------------

    def to_json(self) -> dict:
        from trainer.rules.saves import game_to_json

        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            **self.settings.to_json(),
            "seed": self.seed,
            "inputs": list(self.inputs),
            "timed": self.timed,
            "game": game_to_json(self.table.game),
        }

    @classmethod
    def from_json(cls, data: dict) -> "GameSession":
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise SessionError("this is not a saved game of the app: start a new game instead")
        if data.get("version") not in READABLE_VERSIONS:
            raise SessionError(f"saved game version {data.get('version')!r} is not one of "
                               f"{', '.join(map(str, READABLE_VERSIONS))}: start a new game")
        # Saves from before the table settings hold none of players, vigilance, lies: the defaults.
        session = cls.begin(TableSettings.from_json(data), int(data["seed"]), timed=data.get("timed") is True)
        for n, item in enumerate(data["inputs"]):
            try:
                # A timed game's inputs replay at their saved moments (older saves: the table's clock).
                session._replay_t = session.table.now_s if "t" not in item else _moment(item["t"])
                if session.reviewing and "next" not in item and data["version"] < 3:
                    session.next()  # before version 3 a deal's end paused only when a bot played next
                if "act" in item:
                    session.act(parse_action(item["act"]))
                    if data["version"] == 1:  # version 1 had no pauses: the bots played on at once
                        session.next()
                elif "next" in item:
                    session.next()
                elif "announce" in item:
                    session.announce(item["announce"])
                elif "seen" in item:
                    if not isinstance(item["seen"], int) or isinstance(item["seen"], bool):
                        raise ValueError(f"'seen' names a seat number, not {item['seen']!r}")
                    session.seen(item["seen"])
                else:
                    at = item.get("at")
                    session.sign(made_from_input(item), at=None if at is None else _moment(at))
            except ValueError as error:
                raise SessionError(f"input {n + 1} of the saved game ({item}) cannot be replayed: {error}") from None
            finally:
                session._replay_t = None
        # The page's clock goes on from where the saved game stopped.
        session.origin = session.clock() - session.table.now_s
        return session


def _moment(value: Any) -> float:
    """A saved moment: seconds of game time."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < float("inf"):
        raise ValueError(f"a moment is a number of seconds from 0, not {value!r}")
    return float(value)


CAMERA_KEYS = ("gesture", "confidence", "side", "start", "end")
"""What a camera sign's input adds to ``sign`` and ``count`` (absent for a button's sign)."""


def sign_input(made: MadeSign) -> dict:
    """A sign as a saved input: the sign and count, and for a camera sign what the camera saw."""
    item: dict = {"sign": made.sign.value, "count": made.count}
    if made.read_by_camera:
        item.update(gesture=made.gesture.value if made.gesture else None, confidence=made.confidence,
                    side=made.side.value if made.side else None, start=made.start, end=made.end)
        item = {k: v for k, v in item.items() if v is not None}
    return item


def made_from_input(item: dict) -> Signal | MadeSign:
    """Read back :func:`sign_input` (a saved sign without camera keys is a button's)."""
    signal = Signal(Sign(item["sign"]), int(item.get("count", 1)))
    if "confidence" not in item:
        return signal
    gesture = item.get("gesture")
    side = item.get("side")
    return MadeSign(signal, Gesture(gesture) if gesture else None, float(item["confidence"]),
                    Side(side) if side else None, item.get("start"), item.get("end"))


def _belief_of_partner(view, bot: Any) -> tuple[Any, tuple]:
    """What the partner's view says of the person's cards, read as the partner bot reads it (its
    trust at this table, its camera figures): the certain holding (or None) and each sign's reading."""
    from trainer.bots.knowledge import sign_readings, knowledge_of

    trust = float(getattr(bot, "trust", 1.0))
    reliability = getattr(bot, "reliability", None)
    readings = tuple(r for r in sign_readings(view, trust=trust, reliability=reliability) if r.sign.seat == HUMAN_SEAT)
    holding = next((h for seat, h in knowledge_of(view, trust=trust, reliability=reliability).holdings
                    if seat == HUMAN_SEAT), None)
    return holding, readings
