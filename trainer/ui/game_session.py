"""One game on the Play page: the bots' Table, the person at seat 0, and what the person did.

Holds no rules and no bot logic: the Table (``trainer.bots.table``) runs the game and the bots, the
engine (``trainer.rules``) says what is legal and scores. This module only records the person's
inputs in order (actions, signs, words told after a sign, and "next" clicks), so a game saves as
``settings + inputs`` — the table settings (:class:`~trainer.bots.table_setup.TableSettings`: size,
preset, vigilance, lies, convention, bots) — and resumes by replaying them on a new Table built from
the same seed (bots and catching are seeded by the table, and the search bots are given a fixed
number of worlds instead of a time budget, so a replay makes the same decisions). The engine's own
save (``game_to_json``) is stored alongside for trick-by-trick replay.

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
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from trainer.bots.table import Table
from trainer.bots.table_setup import BOT_OPTIONS as TABLE_BOT_OPTIONS
from trainer.bots.table_setup import TableSettings
from trainer.rules.actions import Action, Phase
from trainer.rules.views import PlayerView
from trainer.signals.relative import Announcement, parse
from trainer.signals.signs import MadeSign
from trainer.signals.table import SignEvent, check_camera_hold

# Re-exported: the save format's names, as the page and older callers know them.
from trainer.ui.saved_game import BOT_NAMES as BOT_NAMES
from trainer.ui.saved_game import CAMERA_KEYS as CAMERA_KEYS
from trainer.ui.saved_game import READABLE_VERSIONS as READABLE_VERSIONS
from trainer.ui.saved_game import SAVE_FORMAT, SAVE_VERSION, Act, Announce, Input, MadeSignInput, Next, SavedGame, Seen
from trainer.ui.saved_game import input_to_json as input_to_json
from trainer.ui.saved_game import made_from_input as made_from_input
from trainer.ui.saved_game import sign_input as sign_input
from trainer.ui.table_events import closes, ends_deal

HUMAN_SEAT = 0
PAGE_SIGN_WINDOW_S = 20.0
"""On the page, bots sign at any moment of the 20 s after a click: a person watching needs the page
drawn and their eyes back on the table (the bots' own tables use 4 s)."""
PARTNER_SEAT = 2
"""The partner's seat at the 4-player table (``GameSession.partner_seat`` at any size)."""
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
    table: Table
    log: list[Input] = field(default_factory=list)
    """The person's inputs, in order (saved as :attr:`inputs`)."""
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
    def start(cls, preset: str, convention: str, seed: int, seating: Seating = Seating()) -> GameSession:
        """A 4-player game with the default vigilance and truthful signs (see :meth:`begin`)."""
        return cls.begin(TableSettings(preset=preset, convention=convention, partner=seating.partner,
                                       opponents=seating.opponents), seed)

    @classmethod
    def begin(cls, settings: TableSettings, seed: int, *, timed: bool = False,
              clock: Callable[[], float] | None = None) -> GameSession:
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

    def _tick(self, t: float | None = None) -> float | None:
        """Set the table's clock for the next input (now, or a saved moment); the input's moment
        (None in an untimed game)."""
        if not self.timed:
            return None
        t = self.game_time() if t is None else float(t)
        self.table.set_time(t)
        return round(t, 3)

    @property
    def inputs(self) -> list[dict[str, Any]]:
        """The person's inputs in their saved form (:func:`~trainer.ui.saved_game.input_to_json`)."""
        return [input_to_json(item) for item in self.log]

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
        self.log.append(Act(action, moment))
        new = self.table.events[told:]
        self._run_bots(pause=closes(new), review=ends_deal(new))

    def next(self) -> None:
        """The person has seen the closed trick: the bots play on."""
        if not self.paused:
            return
        self.log.append(Next(self._tick(self._replay_t)))
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

    def sign(self, made: MadeSign, *, at: float | None = None) -> SignEvent:
        """The person makes a sign (a button: ``table.made(signal)``; the camera:
        ``convention.read(event)``). Returns the SignEvent. A camera sign is saved with what the
        camera saw, so a resumed game gives the partner the same reading. In a timed game the sign
        began at ``at`` seconds of game time (a camera sign's own onset; default: now). A camera
        sign held less than :data:`~trainer.signals.table.CAMERA_MIN_HOLD_S` is refused (a
        SignalError saying so), so a brief false read that matches the hand is not sent as a card
        the person never chose to tell; a saved game replays what was sent."""
        self._not_reviewing("sign")
        if not isinstance(made, MadeSign):
            raise SessionError(f"a sign is a MadeSign, not a {type(made).__name__}: give a button's signal "
                               "as session.table.made(signal), a camera's gesture as convention.read(event)")
        if self._replay_t is None:
            check_camera_hold(made)
        moment = self._tick(self._replay_t)
        onset = round(float(at), 3) if at is not None and self.timed else None
        event = self.table.submit_sign(HUMAN_SEAT, made, at=onset)
        self.log.append(MadeSignInput(event.made, moment, onset))
        return event

    def seen(self, seat: int) -> SignEvent | None:
        """The person says "seen!" on ``seat`` now: the SignEvent of that seat showing now, caught;
        None for a miss (nothing of that seat was showing). Only in a timed game."""
        if not self.timed:
            raise SessionError("catching by eye needs a timed game: start a new game on the Play page")
        self._not_reviewing("catch a sign")
        moment = self._tick(self._replay_t)
        self.log.append(Seen(seat, moment))
        return self.table.catch_by_eye(HUMAN_SEAT, seat, self.table.now_s if moment is None else moment)

    def announce(self, announcements: tuple[Announcement, ...] | str) -> SignEvent:
        """The person tells more cards aloud after their last sign (``"au-dessous"``, or parsed
        announcements). Returns the sign's event with all its words so far."""
        self._not_reviewing("tell cards aloud")
        words = parse(announcements) if isinstance(announcements, str) else tuple(announcements)
        # Words told aloud have no moment to judge: the eyes catch signs, not words.
        event = self.table.announce(HUMAN_SEAT, words)
        self.log.append(Announce(words))
        return event

    def _not_reviewing(self, what: str) -> None:
        if self.reviewing:
            raise SessionError(f"the deal is over and shown for review: click Next deal to {what} in the next one")

    # -- save and resume --------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        from trainer.rules.saves import game_to_json

        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            **self.settings.to_json(),
            "seed": self.seed,
            "inputs": self.inputs,
            "timed": self.timed,
            "game": game_to_json(self.table.game),
        }

    @classmethod
    def from_json(cls, data: Any) -> GameSession:
        """Resume a stored game (checked by :meth:`SavedGame.from_json`, then replayed)."""
        try:
            saved = SavedGame.from_json(data)
        except ValueError as error:
            raise SessionError(f"this saved game cannot be resumed ({error}): start a new game instead") from None
        return cls.replay(saved)

    @classmethod
    def replay(cls, saved: SavedGame) -> GameSession:
        """Replay a saved game's inputs on a new table built from its settings and seed."""
        session = cls.begin(saved.settings, saved.seed, timed=saved.timed)
        for n, item in enumerate(saved.inputs):
            try:
                # A timed game's inputs replay at their saved moments (older saves: the table's clock).
                t = getattr(item, "t", None)
                session._replay_t = session.table.now_s if t is None else t
                session._replay_one(item, saved.version)
            except ValueError as error:
                raise SessionError(f"input {n + 1} of the saved game ({input_to_json(item)}) cannot be replayed: "
                                   f"{error}") from None
            finally:
                session._replay_t = None
        # The page's clock goes on from where the saved game stopped.
        session.origin = session.clock() - session.table.now_s
        return session

    def _replay_one(self, item: Input, version: int) -> None:
        if self.reviewing and not isinstance(item, Next) and version < 3:
            self.next()  # before version 3 a deal's end paused only when a bot played next
        if isinstance(item, Act):
            self.act(item.action)
            if version == 1:  # version 1 had no pauses: the bots played on at once
                self.next()
        elif isinstance(item, Next):
            self.next()
        elif isinstance(item, Announce):
            self.announce(item.words)
        elif isinstance(item, Seen):
            self.seen(item.seat)
        else:
            self.sign(item.made, at=item.at)


def _belief_of_partner(view: PlayerView, bot: Any) -> tuple[Any, tuple[Any, ...]]:
    """What the partner's view says of the person's cards, read as the partner bot reads it (its
    trust at this table, its camera figures): the certain holding (or None) and each sign's reading."""
    from trainer.bots.knowledge import knowledge_of, sign_readings

    trust = float(getattr(bot, "trust", 1.0))
    reliability = getattr(bot, "reliability", None)
    readings = tuple(r for r in sign_readings(view, trust=trust, reliability=reliability) if r.sign.seat == HUMAN_SEAT)
    holding = next((h for seat, h in knowledge_of(view, trust=trust, reliability=reliability).holdings
                    if seat == HUMAN_SEAT), None)
    return holding, readings
