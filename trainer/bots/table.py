"""A table: the engine game, four (or three, or six) seats — people or bots — and the signs between them.

This is what the app's Play page and the terminal drive; it holds the game flow, the UI none::

    table = Table.create(["human", "heuristic", "search", "heuristic"], seed=7)
    table.step()                           # bots act (and sign) until a person must act
    seat = table.human_to_act              # None when the game is over
    view = table.view(seat)                # what to draw: hand, trick, scores, signals
    table.submit_sign(seat, table.made(Signal(Sign.BORGNE)))  # a button; the camera: convention.read(event)
    table.submit(seat, view.legal_actions[0]); table.step()
    table.visible_signs(seat)              # signs that seat saw, in order (for the avatars)
    table.catches()                        # which opponent caught which sign (for the banner)

Signs (RULES.md, Signs): a seat may sign at any moment; the table records each sign in its
:class:`~trainer.signals.table.SignLog` (partner always sees; each opponent catches it with the
table's :class:`~trainer.signals.table.Vigilance`, less for discreet signs) and in the game
(``Game.record_signal``), so it reaches the views of those who saw it and the save file. Bots are
offered *sign points* — before the declarations and before each trick — where they say what to
sign; a bot's discreet sign waits for the next sign point (it waits for the opponents to look away).

A *timed* table (``timed=True``) replaces the catch draws by the opponents' eyes over time
(:class:`~trainer.signals.watching.Watch`): each sign has a moment in seconds of game time — a
person's from the caller (the camera event's own time, or the page's clock for a button), set
with :meth:`Table.set_time`; a bot's chosen at the sign point: an open bot signs at a moment of the
sign window taken without looking, a discreet ("timed") bot at the first moment no opponent looks
(waiting for the next sign point when they keep looking). Those who look during the hold catch the
sign. A person at a timed table catches opponents' signs only by saying so while the sign shows
(:meth:`Table.catch_by_eye`). With ``calls_per_deal`` each seat may call "seen!" that many times a
deal, a wrong call included, and a bot's catch is a call too (:attr:`SignLog.calls`). A table of
bots only moves its clock on by :data:`POINT_GAP_S` per sign point.

Randomness: the game's chance steps come from ``seed``; catching and each bot have their own
generators derived from it, so a table replays exactly. Time is read only to measure bot decisions.

Imports trainer.rules, trainer.signals and the bots' modules (never vision or UI).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from trainer.bots.base import Bot, BotError, SignIntent, make_bot
from trainer.bots.channel import EVAL_VISION_HELD_OUT, NoisyChannel, SignReliability
from trainer.bots.signing import SignPolicy
from trainer.rules.actions import Action, Phase
from trainer.rules.events import Event
from trainer.rules.game import Game
from trainer.rules.ruleset import Ruleset
from trainer.rules.views import PlayerView
from trainer.signals.conventions import CLASSIC, Convention
from trainer.signals.gestures import GestureEvent
from trainer.signals.relative import Announcement
from trainer.signals.signs import MadeSign, Signal
from trainer.signals.table import SignalError, SignEvent, SignLog, Vigilance, is_truthful, record_text
from trainer.signals.watching import Watch

HUMAN = "human"
POINT_GAP_S = 8.0
"""Game time between two sign points at a table of bots (about one trick's play)."""
SIGN_WINDOW_S = 4.0
"""How long after a sign point a bot may choose its moment to sign (before the cards move on)."""


@dataclass(frozen=True, slots=True)
class Catch:
    """An opponent caught a sign: ``by`` saw ``event`` made by ``event.seat``."""

    deal: int
    by: int
    event: SignEvent


@dataclass(frozen=True, slots=True)
class TableSign:
    """A sign event with the deal it belongs to (events of all deals, for the UI and replays)."""

    deal: int
    event: SignEvent


SignPoint = tuple[int, str, int]
"""A moment bots are offered to sign: (deal, "declare" or "trick", tricks finished)."""


@dataclass(frozen=True, slots=True)
class _Delivery:
    """A sign the simulated camera read, on its way to the partner: due at sign point ``due``."""

    due: int
    seat: int
    reading: MadeSign
    announcements: tuple[Announcement, ...]


@dataclass(slots=True)
class DecisionTimes:
    """Seconds each bot decision took, per seat (the arena's timing figures)."""

    by_seat: dict[int, list[float]] = field(default_factory=dict)

    def add(self, seat: int, seconds: float) -> None:
        self.by_seat.setdefault(seat, []).append(seconds)


class Table:
    """One game at one table. Seats hold a :class:`~trainer.bots.base.Bot` or ``None`` (a person)."""

    def __init__(
        self,
        seats: Sequence[Bot | None],
        *,
        ruleset: Ruleset | None = None,
        seed: int | str = 0,
        vigilance: Vigilance | None = None,
        lying_allowed: bool = False,
        convention: Convention = CLASSIC,
        clock: Callable[[], float] = time.perf_counter,
        channel: NoisyChannel | None = None,
        channel_team: int = 0,
        reliability: SignReliability = EVAL_VISION_HELD_OUT,
        timed: bool = False,
        sign_window_s: float = SIGN_WINDOW_S,
        calls_per_deal: int | None = None,
    ) -> None:
        self.ruleset = ruleset if ruleset is not None else Ruleset()
        self.seats: tuple[Bot | None, ...] = self._checked_seats(seats)
        self.seed = seed
        self.vigilance = vigilance if vigilance is not None else Vigilance()
        self.lying_allowed = lying_allowed
        self.convention = convention
        self.clock = clock
        self.sign_window_s = _sign_window(sign_window_s)
        """How long after a sign point a bot may choose its moment (a page gives people longer)."""
        self.game = Game.new(self.ruleset, seed)
        self.events: list[Event] = list(self.game.events())
        """What happened at this table, in order: the events of every action applied through it
        (:mod:`trainer.rules.events`), from the first dealer on. Narrators read the new ones."""
        self.history: list[TableSign] = []
        self.times = DecisionTimes()
        self._bot_rngs = {s: random.Random(f"{seed}/bot/{s}") for s in range(self.players)}
        self._deal = self.game.deal_number
        self._start_signs(timed, calls_per_deal)
        self._start_channel(channel, channel_team)
        self._seat_bots(reliability)

    def _checked_seats(self, seats: Sequence[Bot | None]) -> tuple[Bot | None, ...]:
        n = self.ruleset.player_count
        if len(seats) != n:
            raise BotError(f"a {self.ruleset.name} table of {n} needs {n} seats, got {len(seats)}")
        if any(getattr(b, "sees_all", False) for b in seats) and any(b is None for b in seats):
            raise BotError("the oracle sees every hand: it plays only bots, in the arena, never with a person")
        return tuple(seats)

    def _start_signs(self, timed: bool, calls_per_deal: int | None) -> None:
        """The sign log, the opponents' eyes on a timed table, and the signs' own generators."""
        n = self.players
        self.watch = Watch(str(self.seed), self.vigilance, n) if timed else None
        self.now_s = 0.0
        """Game time in seconds on a timed table (see :meth:`set_time`)."""
        by_eye = frozenset(s for s, b in enumerate(self.seats) if b is None) if timed else frozenset()
        self.signs = SignLog(
            players=n, vigilance=self.vigilance, lying_allowed=self.lying_allowed, convention=self.convention,
            watch=self.watch, by_eye=by_eye, calls=calls_per_deal,
        )
        self._moment_rng = random.Random(f"{self.seed}/moments")
        self._sign_rng = random.Random(f"{self.seed}/signs")
        self._busy_until: dict[int, float] = {}
        self._sign_point: SignPoint | None = None
        self._queued: list[tuple[int, SignIntent]] = []
        self._points = 0

    def _start_channel(self, channel: NoisyChannel | None, channel_team: int) -> None:
        """The camera between the partners of ``channel_team`` (the arena's noisy-channel option):
        its draws come from their own generator, so the rest of the game replays as without it."""
        self.channel = channel if channel is not None and not channel.perfect else None
        self.channel_team = channel_team
        self._channel_rng = random.Random(f"{self.seed}/channel")
        self._pending: list[_Delivery] = []
        """Read signs on their way to the partner, due at a later sign point."""

    def _seat_bots(self, reliability: SignReliability) -> None:
        # Bots that adapt their signing to the table hear its vigilance before partners read policies.
        for bot in self.seats:
            hook = getattr(bot, "at_table", None)
            if bot is not None and hook is not None:
                hook(self.vigilance)
        for seat, bot in enumerate(self.seats):
            if bot is not None:
                self._seat_bot(seat, bot, reliability)

    def _seat_bot(self, seat: int, bot: Bot, reliability: SignReliability) -> None:
        """Tell ``bot`` its seat, its partner's signing policy, and how it reads its partner."""
        partners = self.ruleset.partners(seat)
        partner_bot = self.seats[partners[0]] if partners else None
        bot.seated(seat, _policy_of(partner_bot), self.lying_allowed)
        # A bot reading its partner through a camera weighs the signs by the reader's figures:
        # the recognizer's for a person, the simulated channel's for a bot partner behind it.
        hears = getattr(bot, "hears_through", None)
        if hears is not None and partners:
            if self.channel is not None and self.ruleset.team_of(seat) == self.channel_team:
                hears(self.channel.reliability())
            elif partner_bot is None:
                hears(reliability)

    def resume(self, game: Game) -> None:
        """Go on with a saved ``game`` at this table (its seats and settings): the bots read it,
        and the signs recorded in it, through their views; :attr:`events` become that game's, and
        the sign bookkeeping starts afresh at its deal."""
        self.game = game
        self.events = list(game.events())

    @classmethod
    def create(
        cls,
        seats: Sequence[str | Bot | None],
        *,
        bot_options: dict[str, dict[str, Any]] | None = None,
        **kwargs: Any,
    ) -> Table:
        """Seats by name: ``"human"`` (or None) for a person, a bot name for a bot (options per
        bot name in ``bot_options``)."""
        built: list[Bot | None] = []
        for s in seats:
            if s is None or s == HUMAN:
                built.append(None)
            elif isinstance(s, str):
                built.append(make_bot(s, **(bot_options or {}).get(s, {})))
            else:
                built.append(s)
        return cls(built, **kwargs)

    # -- what to show -------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.ruleset.player_count

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    @property
    def to_move(self) -> int | None:
        return self.game.to_move

    @property
    def human_to_act(self) -> int | None:
        """The person's seat when a person must act now, else None."""
        seat = self.game.to_move
        if seat is not None and self.seats[seat] is None:
            return seat
        return None

    def is_human(self, seat: int) -> bool:
        return self.seats[seat] is None

    def view(self, seat: int) -> PlayerView:
        view: PlayerView = self.game.view(seat)
        return view

    def visible_signs(self, seat: int, *, all_deals: bool = False) -> tuple[TableSign, ...]:
        """The signs ``seat`` saw (its own, its partner's, the opponents' it caught), in order,
        of the current deal (or of every deal)."""
        return tuple(
            t for t in self.history
            if seat in t.event.seen_by and (all_deals or t.deal == self.game.deal_number)
        )

    def catches(self, *, all_deals: bool = False) -> tuple[Catch, ...]:
        """Every catch: which opponent saw which sign (the table announces them)."""
        return tuple(
            Catch(t.deal, by, t.event)
            for t in self.history
            if all_deals or t.deal == self.game.deal_number
            for by in t.event.caught_by
        )

    def last_rule(self, seat: int) -> str:
        """Why the bot at ``seat`` made its latest decision (empty for a person)."""
        bot = self.seats[seat]
        return getattr(bot, "last_rule", "") if bot is not None else ""

    # -- acting ---------------------------------------------------------------------------------

    def submit(self, seat: int, action: Action) -> None:
        """A person's action. Raises :class:`BotError` if it is not that person's turn, or the
        engine's ``IllegalActionError`` (state untouched) if the action is illegal."""
        if self.seats[seat] is not None:
            raise BotError(f"seat {seat} is a bot: only a person's seat takes submitted actions")
        if self.game.to_move != seat:
            raise BotError(f"it is not seat {seat}'s turn (to move: {self.game.to_move})")
        self._new_deal_check()
        self.events.extend(self.game.apply(action))
        self._new_deal_check()

    def submit_sign(
        self,
        seat: int,
        made: MadeSign,
        *,
        discreet: bool = False,
        announcements: Sequence[Announcement] = (),
        at: float | None = None,
    ) -> SignEvent:
        """A sign made by a person, at once: from the camera the table's ``convention.read(event)``
        (the gesture made, the count, the recognizer's confidence), from a button the table's
        ``convention.made(signal)`` (see :meth:`made`). Raises SignalError for a gesture the convention does not use for
        that sign, or a lie at a table without lies. A bot partner weighs a sign read with a
        confidence by the reader's figures (:class:`~trainer.bots.channel.SignReliability`). On a
        timed table the sign began at ``at`` seconds of game time (default: the table's clock), and
        ``discreet`` follows from the eyes."""
        if self.game.is_over:
            raise SignalError("the game is over: no more signs")
        self._new_deal_check()
        if self.watch is not None:
            at = self.now_s if at is None else _game_time(at)
        else:
            at = None
        return self._make(seat, made, discreet, tuple(announcements), at=at)

    def made(self, signal: Signal) -> MadeSign:
        """A button's (or a script's) sign at this table: the convention's gesture, certain."""
        return self.convention.made(signal)

    # -- time and eyes (timed tables) -------------------------------------------------------------

    def set_time(self, seconds: float) -> None:
        """The game clock of a timed table, in seconds since the game began (a page sets it before
        each input from its own clock; saved games store it so a replay catches the same signs)."""
        self.now_s = _game_time(seconds)

    def catch_by_eye(self, seat: int, signer: int, at: float) -> SignEvent | None:
        """A person at ``seat`` says they saw ``signer`` sign at game time ``at``: the sign of this
        deal that was showing then (begun at most one hold earlier) is caught, and returned; None
        when nothing of ``signer``'s showed then (too early, too late, or already caught), or when
        ``seat`` has no "seen!" call left this deal (:meth:`calls_left`; a miss spends a call too)."""
        if self.watch is None:
            raise BotError("only a timed table lets a person catch signs by eye (Table(..., timed=True))")
        if self.seats[seat] is not None:
            raise BotError(f"seat {seat} is a bot: bots catch signs by the table's eyes, not by saying so")
        if seat not in self.watch.watchers(signer):
            raise BotError(f"seat {signer} is seat {seat}'s partner (or itself): its signs are seen anyway")
        at = _game_time(at)
        self._new_deal_check()
        if not self.signs.call(seat):
            return None  # no call left this deal: the table no longer listens (see SignLog.calls)
        hold = self.watch.gaze.hold_s
        for i, t in enumerate(self.history):
            e = t.event
            if (t.deal == self.game.deal_number and e.seat == signer and e.at is not None
                    and e.at <= at <= e.at + hold and seat not in e.caught_by):
                caught = e.caught_also_by(seat)
                self.history[i] = TableSign(t.deal, caught)
                self.signs.events[:] = [caught if x.index == e.index else x for x in self.signs.events]
                return caught
        return None

    def calls_left(self, seat: int) -> int | None:
        """The "seen!" calls ``seat`` has left this deal (None: no limit)."""
        self._new_deal_check()
        return self.signs.calls_left(seat)

    def _moment(self, watch: Watch, seat: int, intent: SignIntent) -> float | None:
        """When a bot at a timed table signs, from the sign point on: an open sign at a moment
        taken without looking, a discreet one at the first moment nobody looks (None: not yet)."""
        # One sign at a time: a bot's next sign begins once its last one is no longer held.
        start = max(self.now_s, self._busy_until.get(seat, 0.0))
        if intent.discreet:
            at = watch.next_clear(seat, start, max(0.0, self.now_s + self.sign_window_s - start))
        else:
            # The first sign at a moment of the window; the next ones soon after each other.
            at = start + self._moment_rng.uniform(0.0, self.sign_window_s if start == self.now_s else SIGN_WINDOW_S / 4)
        if at is not None:
            self._busy_until[seat] = at + watch.gaze.hold_s
        return at

    def announce(self, seat: int, announcements: Sequence[Announcement]) -> SignEvent:
        """Words told aloud after ``seat``'s last sign of this deal (RULES.md, relative
        announcements: *au-dessus*, *après au-dessous*, …). They join that sign: a new record of
        the sign with all its words so far reaches those who saw it (the others hear the words but
        cannot place them), so the partner's knowledge reads them as it reads a bot's own. Checked
        against the hand like a sign: each level told must be held, unless lies are allowed.
        Raises :class:`SignalError` (no sign yet this deal, a lie, the game over) or the relative
        module's ``AnnouncementError`` (words off the scale, a sign that names no card)."""
        from dataclasses import replace

        from trainer.signals.relative import unheld_levels

        if self.game.is_over:
            raise SignalError("the game is over: no more announcements")
        words = tuple(announcements)
        if not words:
            raise SignalError("announce what? Say au-dessus, au-dessous, au-dessus de là-dessus or "
                              "en dessous de là-dessous, optionally after 'après'")
        self._new_deal_check()
        deal = self.game.deal_number
        at = next((i for i in range(len(self.history) - 1, -1, -1)
                   if self.history[i].deal == deal and self.history[i].event.seat == seat), None)
        if at is None:
            raise SignalError("make a sign first: announcements tell cards relative to your last sign this deal")
        event = self.history[at].event
        told = event.announcements + words
        unheld = unheld_levels(event.sign, told, self.game.hand(seat), event.signal.count, new=len(words))
        if unheld and not self.lying_allowed:
            raise SignalError(
                f"the hand holds no card of level {', '.join(map(str, unheld))}: announcements are checked "
                "like signs, and signs at this table tell the truth"
            )
        event = replace(event, announcements=told)
        self.history[at] = TableSign(deal, event)
        self.signs.events = [event if e.index == event.index else e for e in self.signs.events]
        partners = self.ruleset.partners(seat)
        if partners and event.made.read_by_camera:
            # The words are heard, but the sign they count from was read by a camera: the partner's
            # record keeps that reading's confidence, as for the sign itself (see _make).
            partner = partners[0]
            self.game.record_signal(seat, record_text(event.made, told), frozenset(event.seen_by) - {partner})
            self.game.record_signal(seat, record_text(event.made, told, as_read=True), frozenset({partner}))
        else:
            self.game.record_signal(seat, record_text(event.made, told), event.seen_by)
        return event

    def step(self, max_actions: int | None = None) -> int:
        """Let the bots act (and sign at the sign points) until a person must act or the game ends.
        Returns the number of actions applied."""
        done = 0
        game = self.game
        while not game.is_over and (max_actions is None or done < max_actions):
            self._new_deal_check()
            self._offer_sign_point()
            seat = game.to_move
            bot = None if seat is None else self.seats[seat]
            if seat is None or bot is None:
                break
            view = game.view(seat)
            reveal = getattr(bot, "reveal", None)
            if reveal is not None:
                # Only the arena's all-seeing bound (the oracle) is shown the true hands.
                reveal(tuple(tuple(c.index for c in game.hand(s)) for s in range(self.players)))
            start = self.clock()
            action = bot.choose(view, self._bot_rngs[seat])
            self.times.add(seat, self.clock() - start)
            self.events.extend(game.apply(action))
            done += 1
        self._new_deal_check()
        if not game.is_over:
            self._offer_sign_point()
        return done

    def play_out(self) -> None:
        """Play the whole game (bots only)."""
        if any(s is None for s in self.seats):
            raise BotError("a table with a person cannot play itself out: use step() and submit()")
        self.step()

    # -- signs ------------------------------------------------------------------------------------

    def _new_deal_check(self) -> None:
        if self.game.deal_number != self._deal:
            self._deal = self.game.deal_number
            self.signs.clear()
            self._queued.clear()
            self._pending.clear()
            self._sign_point = None

    def _current_sign_point(self) -> SignPoint | None:
        game = self.game
        if game.phase in (Phase.DECLARE, Phase.ANSWER):
            return (game.deal_number, "declare", 0)
        if game.phase is Phase.PLAY and not game.current_trick:
            return (game.deal_number, "trick", len(game.tricks))
        return None

    def _offer_sign_point(self) -> None:
        point = self._current_sign_point()
        if point is None or point == self._sign_point:
            return
        self._sign_point = point
        self._points += 1
        if self.watch is not None and all(b is not None for b in self.seats):
            self.now_s = self._points * POINT_GAP_S
        if self.channel is not None:
            self._channel_point(self.channel)
        # Discreet signs waited for this moment: the opponents looked away.
        queued, self._queued = self._queued, []
        for seat, intent in queued:
            # A card played meanwhile is no longer held: the sign would now be a lie, so it is dropped.
            if is_truthful(intent.signal, self.game.hand(seat)) or self.lying_allowed:
                self._bot_sign(seat, intent, waited=True)
        for seat, bot in enumerate(self.seats):
            # At three everybody plays alone (RULES.md): a sign would only tell the opponents.
            if bot is None or not self.ruleset.partners(seat) or any(s == seat for s, _ in self._queued):
                continue
            view = self.game.view(seat)
            for intent in bot.signals(view, self._bot_rngs[seat]):
                self._bot_sign(seat, intent, waited=False)

    def _bot_sign(self, seat: int, intent: SignIntent, *, waited: bool) -> None:
        """Make a bot's sign now, or queue it for the next sign point."""
        if self.watch is None:
            if intent.discreet and not waited:
                self._queued.append((seat, intent))
            else:
                self._make(seat, self.made(intent.signal), intent.discreet, intent.announcements)
            return
        at = self._moment(self.watch, seat, intent)
        if at is None:
            self._queued.append((seat, intent))
        else:
            self._make(seat, self.made(intent.signal), intent.discreet, intent.announcements, at=at)

    def _make(self, seat: int, made: MadeSign, discreet: bool = False,
              announcements: tuple[Announcement, ...] = (), at: float | None = None) -> SignEvent:
        game = self.game
        fast = game.fast_deal
        moment = len(fast.played()) if fast is not None else 0
        event = self.signs.make(
            seat, made, game.hand(seat), self._sign_rng,
            moment=moment, discreet=discreet, announcements=announcements, at=at,
        )
        message = record_text(event.made, announcements)
        partners = self.ruleset.partners(seat)
        channel = self.channel if self.ruleset.team_of(seat) == self.channel_team else None
        if partners and (event.made.read_by_camera or channel is not None):
            # The partner reads this sign through a camera: its record carries the gesture and the
            # confidence, and the eyes of the opponents who caught it get the plain sign.
            partner = partners[0]
            game.record_signal(seat, message, frozenset(event.seen_by) - {partner})
            if channel is not None:
                self._through_channel(channel, seat, partner, event)
            else:
                game.record_signal(seat, record_text(event.made, announcements, as_read=True),
                                   frozenset({partner}))
        else:
            game.record_signal(seat, message, event.seen_by)
        self.history.append(TableSign(game.deal_number, event))
        return event

    # -- the noisy channel (arena) -------------------------------------------------------------

    def _through_channel(self, channel: NoisyChannel, seat: int, partner: int, event: SignEvent) -> None:
        rng = self._channel_rng
        if rng.random() < channel.miss_for(event.made.gesture):
            return
        reading = replace(event.made, confidence=channel.true_confidence(rng))
        marked = record_text(reading, event.announcements, as_read=True)
        if channel.delay_points == 0:
            self.game.record_signal(seat, marked, frozenset({partner}))
        else:
            self._pending.append(_Delivery(self._points + channel.delay_points, seat, reading, event.announcements))

    def _channel_point(self, channel: NoisyChannel) -> None:
        """At each sign point: deliver the late signs now due, and show each partner the false
        signs the camera reads from its partner (signs never made)."""
        rng, game = self._channel_rng, self.game
        due = [p for p in self._pending if p.due <= self._points]
        self._pending = [p for p in self._pending if p.due > self._points]
        for p in due:
            marked = record_text(p.reading, p.announcements, as_read=True)
            game.record_signal(p.seat, marked, frozenset(self.ruleset.partners(p.seat)))
        gestures = self.convention.gestures
        for seat in range(self.players):
            partners = self.ruleset.partners(seat)
            if not partners or self.ruleset.team_of(seat) != self.channel_team:
                continue
            for gesture in channel.false_gestures(rng, gestures):
                # A sign never made, read as the convention reads that gesture.
                seen = GestureEvent(gesture, 0.0, 0.0, confidence=channel.false_confidence(rng))
                made = self.convention.read(seen)
                if made is None:
                    continue
                if channel.app_rule and not self.lying_allowed and not is_truthful(made.signal, game.hand(seat)):
                    # The app's truth check: at a table without lies a camera sign the hand does
                    # not back is refused, never sent (Play's _send_sign, SignLog.make).
                    continue
                game.record_signal(seat, record_text(made, as_read=True), frozenset({partners[0]}))


def _policy_of(partner_bot: Bot | None) -> SignPolicy | None:
    """The signing policy a bot's partner bot follows (None: a person, or a partner that never signs)."""
    if partner_bot is None or not getattr(partner_bot, "signs_enabled", True):
        return None
    policy = getattr(partner_bot, "policy", None)
    return policy if isinstance(policy, SignPolicy) else None


def _sign_window(seconds: float) -> float:
    if not 0.0 < seconds < float("inf"):
        raise BotError(f"the sign window is a number of seconds above 0, got {seconds!r}")
    return float(seconds)


def _game_time(seconds: float) -> float:
    """Seconds of game time, checked: a number from 0 on."""
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0.0 <= seconds < float("inf"):
        raise SignalError(f"game time is a number of seconds from 0 (the game's start), got {seconds!r}")
    return float(seconds)
