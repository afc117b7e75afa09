"""Signing at the table: who made which sign, who saw it, who caught it (RULES.md, Signs).

A seat may make a sign at any moment of a deal, even while the cards are dealt. Its partner always
sees it (partners sign when the other looks); each opponent catches it with the table's
*vigilance* chance, lower for a *discreet* sign made while the opponents look away. A sign may be
followed by relative announcements told aloud (:mod:`trainer.signals.relative`): everybody hears
the words, but only those who saw the sign can turn them into cards.

Signs are truthful by default; a table may allow lies. :func:`is_truthful` says whether a signal
tells the truth about a hand, :func:`honest_signals` lists what a hand could tell.

This module keeps the sign log of one deal (:class:`SignLog`); the game layer above it
(``trainer.bots.table``) copies each event into the engine's game record so that views and save
files carry them. Randomness is passed in. Imports the rules layer and trainer.signals only.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from trainer.rules.cards import ACES, Card
from trainer.signals.conventions import CLASSIC, Convention
from trainer.signals.gestures import Gesture
from trainer.signals.relative import Announcement, base_level, resolve
from trainer.signals.signs import MadeSign, Sign, Signal

# Re-exported: the table's callers name these values from here.
from trainer.signals.vigilance import VIGILANCE_LEVELS as VIGILANCE_LEVELS
from trainer.signals.vigilance import SignalError as SignalError
from trainer.signals.vigilance import Vigilance as Vigilance
from trainer.signals.vigilance import partner_of as partner_of
from trainer.signals.watching import Watch

if TYPE_CHECKING:
    from trainer.rules.game import SignalRecord


# -- truth ----------------------------------------------------------------------------------------

WEAK_HAND_BEST_LEVEL = 9
"""A hand is weak (*misère*) when it holds nothing stronger than an ace (level 9) and at most one ace."""


def is_weak_hand(hand: Iterable[Card]) -> bool:
    cards = tuple(hand)
    return all(c.level >= WEAK_HAND_BEST_LEVEL for c in cards) and sum(c in ACES for c in cards) <= 1


def is_truthful(signal: Signal, hand: Iterable[Card]) -> bool:
    """Whether ``signal`` tells the truth about ``hand`` (the maker's cards when signing).

    A card sign: the card is in the hand (both, for Monsieur + Madame). Aces: exactly ``count``
    aces. Misère: :func:`is_weak_hand`. Mordienne is an intention, always truthful.
    """
    cards = frozenset(hand)
    sign = signal.sign
    if sign is Sign.AS:
        return sum(a in cards for a in ACES) == signal.count
    if sign is Sign.MISERE:
        return is_weak_hand(cards)
    if sign is Sign.MORDIENNE:
        return True
    return all(c in cards for c in sign.cards)


CAMERA_MIN_HOLD_S = 0.5
"""How long a camera sign must be held before the app sends it to the partner (seconds, the
recognizer's event from onset to release). At a table without lies the app sends a camera sign only
when the hand backs it, so a false read that happens to match the hand would tell the partner a
card the player never chose to tell: most false reads while talking are brief (docs/bots.md, "What
a false read tells"), a sign the player means is held. Checked by :func:`check_camera_hold`."""


def check_camera_hold(made: MadeSign, min_hold_s: float = CAMERA_MIN_HOLD_S) -> None:
    """Refuse a camera sign held less than ``min_hold_s`` (a button's sign, or a reading without
    times, passes): raises :class:`SignalError` saying how long it was held and what to do."""
    if not made.read_by_camera or made.start is None or made.end is None:
        return
    held = made.end - made.start
    if held + 1e-9 < min_hold_s:
        raise SignalError(
            f"the camera saw it for {held:.1f} s only: hold a sign {min_hold_s:g} s for it to be sent "
            "(a shorter reading is taken for your face moving, not a sign you chose)"
        )


def honest_signals(hand: Iterable[Card]) -> tuple[Signal, ...]:
    """Every card sign that tells the truth about ``hand``, strongest first (Monsieur + Madame
    replaces the two single signs; aces as one sign with their count), then misère if weak."""
    cards = frozenset(hand)
    out: list[Signal] = []
    if Card.MONSIEUR in cards and Card.MADAME in cards:
        out.append(Signal(Sign.MONSIEUR_ET_MADAME))
    for sign in (Sign.MONSIEUR, Sign.MADAME, Sign.BORGNE, Sign.VACHE, Sign.GRAND_NEUF, Sign.PETIT_NEUF,
                 Sign.DEUX_DE_CHENE, Sign.DEUX_D_ECRIT):
        if sign.cards[0] in cards:
            if sign in (Sign.MONSIEUR, Sign.MADAME) and out and out[0].sign is Sign.MONSIEUR_ET_MADAME:
                continue
            out.append(Signal(sign))
    aces = sum(a in cards for a in ACES)
    if aces:
        out.append(Signal(Sign.AS, aces))
    if is_weak_hand(cards):
        out.append(Signal(Sign.MISERE))
    return tuple(out)


# -- events ---------------------------------------------------------------------------------------

class _ReadsMade:
    """What a sign says, read through its :class:`MadeSign` (``made``): for the table's events and
    the signs a seat knows of, which both carry one."""

    __slots__ = ()
    made: MadeSign

    @property
    def signal(self) -> Signal:
        return self.made.signal

    @property
    def sign(self) -> Sign:
        return self.made.signal.sign

    @property
    def gesture(self) -> Gesture | None:
        """The gesture actually made (the camera's), or the convention's for a button or a bot."""
        return self.made.gesture


@dataclass(frozen=True, slots=True)
class SignEvent(_ReadsMade):
    """One sign made at the table, as the table knows it.

    ``made`` is the sign as its maker made it (gesture, count, side, confidence, camera times).
    ``moment`` is the number of cards played in the deal when it was made (0: before the first
    trick, also during the deal). ``seen_by`` lists every seat that saw it (maker, partner, and the
    opponents in ``caught_by``). ``truthful`` is the table's knowledge, never shown to other seats.
    ``announcements`` are told aloud after the sign; ``levels`` is what they resolve to.
    ``at`` is the game time in seconds when the sign began, for a table that times its signs
    (:mod:`trainer.signals.watching`); None for an untimed sign.
    """

    index: int
    seat: int
    made: MadeSign
    moment: int
    discreet: bool
    truthful: bool
    seen_by: tuple[int, ...]
    caught_by: tuple[int, ...]
    announcements: tuple[Announcement, ...] = ()
    at: float | None = None

    def caught_also_by(self, seat: int) -> SignEvent:
        """This sign, caught as well by ``seat`` (a person who said "seen!" while it showed)."""
        from dataclasses import replace

        if seat in self.caught_by:
            return self
        return replace(self, caught_by=tuple(sorted((*self.caught_by, seat))),
                       seen_by=tuple(sorted({*self.seen_by, seat})))

    @property
    def levels(self) -> tuple[int, ...]:
        """The card levels the relative announcements name (empty without announcements)."""
        if not self.announcements:
            return ()
        return resolve(base_level(self.signal.sign, self.signal.count), self.announcements)


@dataclass(frozen=True, slots=True)
class SeenSign(_ReadsMade):
    """A sign as one seat knows it: no truth flag, and the opponents' catches only for own signs
    (a player notices an opponent looking at them, not what the opponent made of it).

    What the bots reason with (``trainer.bots.knowledge.signs_this_deal``). ``made`` carries the
    camera's gesture and confidence when the seat read the sign through a camera (a person's sign
    read for its bot partner); otherwise the sign was seen and is certain. ``moment`` counts the
    cards played in the deal when it was made (None when read from a game record, which counts
    only ``trick``, the tricks finished)."""

    seat: int
    made: MadeSign
    moment: int | None = None
    announcements: tuple[Announcement, ...] = ()
    trick: int = 0

    @property
    def confidence(self) -> float | None:
        return self.made.confidence

    @property
    def read_by_camera(self) -> bool:
        return self.made.read_by_camera

    @property
    def levels(self) -> tuple[int, ...]:
        """Card levels from the relative announcements that followed the sign (empty when there are
        none, or when words read back from a record lead off the scale)."""
        if not self.announcements:
            return ()
        try:
            return resolve(base_level(self.signal.sign, self.signal.count), self.announcements)
        except ValueError:  # AnnouncementError: another tool's record
            return ()


@dataclass(slots=True)
class SignLog:
    """The signs of one deal, with delivery to partner and opponents.

    >>> log = SignLog(players=4, vigilance=Vigilance(0.0))
    >>> e = log.make(0, CLASSIC.made(Signal(Sign.MONSIEUR)), hand=(Card.MONSIEUR,), rng=random.Random(1))
    >>> e.seen_by
    (0, 2)
    """

    players: int = 4
    vigilance: Vigilance = field(default_factory=Vigilance)
    lying_allowed: bool = False
    convention: Convention = CLASSIC
    events: list[SignEvent] = field(default_factory=list)
    watch: Watch | None = None
    """The opponents' eyes over time: a sign given a time is caught by who looks during its hold."""
    by_eye: frozenset[int] = frozenset()
    """Seats that catch only what they say they saw (a person watching): never rolled for."""
    calls: int | None = None
    """How many signs each seat may call "seen!" a deal (None: no limit). A call that names nothing
    showing is spent too, so calling blindly costs the calls a real sign would need; a bot's catch
    is a call as well, so the bots watch under the same rule."""
    used: dict[int, int] = field(default_factory=dict)
    """Calls spent this deal, per seat."""

    def __post_init__(self) -> None:
        if self.players not in (3, 4, 6):
            raise SignalError(f"a table seats 3, 4 or 6 players, not {self.players!r}")
        calls = self.calls
        if calls is not None and (isinstance(calls, bool) or not isinstance(calls, int) or calls < 1):
            raise SignalError(f"'seen!' calls a deal are a whole number from 1 (or None for no limit), not {calls!r}")

    def calls_left(self, seat: int) -> int | None:
        """The calls ``seat`` has left this deal (None: no limit)."""
        return None if self.calls is None else max(0, self.calls - self.used.get(seat, 0))

    def call(self, seat: int) -> bool:
        """``seat`` calls "seen!": spends one of its calls; False (nothing spent) when none is left."""
        left = self.calls_left(seat)
        if left is not None and left <= 0:
            return False
        self.used[seat] = self.used.get(seat, 0) + 1
        return True

    def _calling(self, seats: Iterable[int]) -> tuple[int, ...]:
        """Of the seats that would catch a sign, those with a call left; each spends one."""
        return tuple(s for s in seats if self.call(s))

    def make(
        self,
        seat: int,
        made: MadeSign,
        hand: Iterable[Card],
        rng: random.Random,
        *,
        moment: int = 0,
        discreet: bool = False,
        announcements: Sequence[Announcement] = (),
        at: float | None = None,
    ) -> SignEvent:
        """Record a sign made by ``seat`` holding ``hand`` now; draws who catches it from ``rng``.

        ``made`` comes from the camera (``convention.read(event)``) or from a button or a bot
        (``convention.made(signal)``: the convention's gesture, certain).

        With a time ``at`` (seconds of game time) on a table with a :attr:`watch`, nothing is
        drawn: the opponents who look during the sign's hold catch it, and the sign is discreet
        exactly when no opponent looked as it began (``discreet`` is then ignored)."""
        if not 0 <= seat < self.players:
            raise SignalError(f"seat {seat!r} is not at this table of {self.players}: seats are 0..{self.players - 1}")
        made = self._checked(made)
        signal = made.signal
        truthful = is_truthful(signal, hand)
        if not truthful and not self.lying_allowed:
            raise SignalError(
                f"seat {seat} signs {signal.sign.value}"
                f"{' x' + str(signal.count) if signal.count > 1 else ''} but its hand does not hold it: "
                "signs are truthful at this table (allow lies in the table settings to bluff)"
            )
        if announcements:
            # Fails early with a message if the words lead off the scale.
            resolve(base_level(signal.sign, signal.count), tuple(announcements))
        partner = partner_of(seat, self.players)
        if at is not None and self.watch is not None:
            discreet = self.watch.is_clear(seat, at)
            caught = self._calling(s for s in self.watch.catchers(seat, at) if s not in self.by_eye)
        else:
            chance = self.vigilance.chance(discreet)
            # A seat that catches by eye still draws, so the other seats' draws stay as before.
            caught = self._calling(tuple(
                s for s in range(self.players)
                if s != seat and s != partner and rng.random() < chance and s not in self.by_eye
            ))
        seen = tuple(sorted({seat, *(() if partner is None else (partner,)), *caught}))
        event = SignEvent(
            index=len(self.events), seat=seat, made=made,
            moment=moment, discreet=discreet, truthful=truthful, seen_by=seen, caught_by=caught,
            announcements=tuple(announcements), at=at,
        )
        self.events.append(event)
        return event

    def _checked(self, sign: MadeSign) -> MadeSign:
        if not isinstance(sign, MadeSign):
            raise SignalError(f"a sign is a MadeSign, got {type(sign).__name__}: read a camera's gesture "
                              "with convention.read(event), give a button's signal with convention.made(signal)")
        if sign.gesture is not None and self.convention.sign_for(sign.gesture) is not sign.sign:
            means = self.convention.sign_for(sign.gesture)
            raise SignalError(
                f"the {self.convention.name} convention gives "
                + (f"no sign to {sign.gesture.value}" if means is None
                   else f"{sign.gesture.value} the sign {means.value}")
                + f", not {sign.sign.value}: {sign.sign.value} is made with "
                + (", ".join(g.value for g in self.convention.gestures_for(sign.sign)) or "no gesture")
            )
        return sign

    def seen_by(self, seat: int) -> tuple[SeenSign, ...]:
        """The signs ``seat`` knows of, in order: its own, its partner's, the opponents' it caught.
        A camera's reading (its confidence) reaches only the maker's partner, as in the game's
        records: the maker knows what it signed, the opponents caught it by eye."""
        return tuple(
            SeenSign(e.seat, e.made if seat == partner_of(e.seat, self.players) else _by_eye(e.made),
                     e.moment, e.announcements, e.moment // self.players)
            for e in self.events if seat in e.seen_by
        )

    def clear(self) -> None:
        """A new deal: signs are about the cards of one deal (and every seat's calls come back)."""
        self.events.clear()
        self.used.clear()


def _by_eye(made: MadeSign) -> MadeSign:
    return made if made.confidence is None else replace(made, confidence=None)


# -- game records -----------------------------------------------------------------------------------
# The rules layer stores signs as opaque text (``Game.record_signal``); this is that text, written
# and read here only. ``"as x2 | au-dessous, après au-dessus"``: the sign's value, its count, then
# the words told aloud. A record of a sign read by a camera (what the partner of a person gets) ends
# with the gesture read and the recognizer's confidence: ``"borgne @wink 0.830"``.

_MARK = " @"


def encode_message(signal: Signal, announcements: Sequence[Announcement] = ()) -> str:
    from trainer.signals.relative import format_message

    text = signal.sign.value + (f" x{signal.count}" if signal.count > 1 else "")
    if announcements:
        text += " | " + format_message(announcements)
    return text


def record_text(made: MadeSign, announcements: Sequence[Announcement] = (), *, as_read: bool = False) -> str:
    """The record of ``made``: plain for the eyes that saw it, with the camera's reading
    (gesture, confidence) when ``as_read`` and the sign was read by a camera."""
    text = encode_message(made.signal, announcements)
    if as_read and made.confidence is not None and made.gesture is not None:
        text = mark_confidence(text, made.gesture, made.confidence)
    return text


def decode_message(message: str) -> tuple[Signal, tuple[Announcement, ...]]:
    """Read back :func:`encode_message`; raises :class:`SignalError` naming the bad text."""
    from trainer.signals.relative import parse

    head, _, words = message.partition("|")
    parts = head.split()
    try:
        sign = Sign(parts[0].lower())
        count = int(parts[1][1:]) if len(parts) == 2 and parts[1].lower().startswith("x") else 1
        if len(parts) > 2 or (len(parts) == 2 and count == 1 and parts[1].lower() != "x1"):
            raise ValueError(message)
        signal = Signal(sign, count)
    except (IndexError, ValueError):
        known = ", ".join(s.value for s in Sign)
        raise SignalError(
            f"cannot read the sign record {message!r}: write a sign ({known}), 'x2'..'x4' for aces, "
            "then optionally '| au-dessus, ...'"
        ) from None
    return signal, (parse(words) if words.strip() else ())


def mark_confidence(message: str, gesture: Gesture, confidence: float) -> str:
    """The sign record of a sign read by a camera: the message, the gesture and its confidence."""
    if not 0.0 <= confidence <= 1.0:
        raise SignalError(f"a recognizer confidence is between 0 and 1, got {confidence!r}")
    return f"{message}{_MARK}{gesture.value} {confidence:.3f}"


def split_confidence(message: str) -> tuple[str, Gesture | None, float | None]:
    """``(message, gesture, confidence)``; gesture and confidence are None for a sign not read by a
    camera (a bot's, a button's) or an unreadable mark."""
    head, sep, tail = message.rpartition(_MARK)
    if not sep:
        return message, None, None
    parts = tail.split()
    try:
        gesture = Gesture(parts[0])
        confidence = float(parts[1])
    except (IndexError, ValueError):
        return message, None, None
    return head, gesture, confidence


@lru_cache(maxsize=8192)
def read_record(message: str) -> tuple[MadeSign, tuple[Announcement, ...]] | None:
    """A record's text as typed values, decoded once per text (records are immutable and the bots
    read every record of the deal at each decision). None for text the signals layer cannot read
    (another tool's record)."""
    head, gesture, confidence = split_confidence(message)
    try:
        signal, words = decode_message(head)
        return MadeSign(signal, gesture, confidence), words
    except ValueError:  # SignalError, AnnouncementError, a confidence off 0..1
        return None


def seen_from_record(record: SignalRecord) -> SeenSign | None:
    """A game's sign record as the seat it reached knows it (None when unreadable)."""
    read = read_record(record.message)
    if read is None:
        return None
    made, words = read
    return SeenSign(record.seat, made, None, words, record.trick)
