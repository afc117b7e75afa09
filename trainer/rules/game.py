"""A whole game of Aluette as explicit states and actions: the rules of RULES.md, step by step.

Standard library only (never signals, bots, vision, UI). A :class:`Game` is mutable; every decision is
``game.to_move`` choosing one of ``game.legal_actions()`` and calling ``game.apply(action)``, which
returns what happened as typed events (:mod:`trainer.rules.events`: card played, trick ended, deal
scored, …) for narrators. An illegal action raises :class:`IllegalActionError` naming what was wrong
and the state is untouched.

Chance steps (the first dealer, each deal in batches of 3, the chant deal) are actions too. Their
outcome follows from the seed (``game.chance_action()``), and ``Game.new`` applies them by itself
(``auto_chance=True``), so a game is exactly ``seed + history``; tests may apply their own ``Deal``.

Flow of a deal (RULES.md "A deal", "Mordienne", "Giving up", "A game")::

    DEAL (chance) -> CHANT_VOTE (each seat from the dealer's left; any "no" ends it)
      -> CHANT_DEAL (chance) -> DISCARD (each receiver discards 6, one card at a time)
      -> DECLARE (4 players: each seat from the dealer's left passes, announces mordienne or offers
         to give up; the first non-pass ends the round) -> ANSWER (the announcer's left-hand opponent)
      -> PLAY (the tricks, through FastDeal) -> scoring -> next dealer (left) or GAME_OVER

Bots see the game through :meth:`Game.view` (:mod:`trainer.rules.views`), never through its fields.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable

from trainer.rules.actions import (
    Action,
    Answer,
    ChantDeal,
    ChooseDealer,
    Deal,
    Declaration,
    Declare,
    Discard,
    Phase,
    Vote,
    format_action,
)
from trainer.rules.cards import CARDS, Card
from trainer.rules.errors import IllegalActionError, RulesError
from trainer.rules.events import (
    Answered,
    CardDiscarded,
    CardPlayed,
    CardsDealt,
    ChantDealt,
    ChantDecided,
    ChantVoted,
    DealerChosen,
    DealScored,
    Declared,
    Event,
    GameOver,
    TrickEnded,
)
from trainer.rules.fastdeal import NO_WINNER, FastDeal, deal_positions
from trainer.rules.records import (
    Contract,
    DealEnd,
    DealResult,
    Outcome,
    SignalRecord,
    Termination,
    TrickRecord,
)
from trainer.rules.ruleset import (
    AnnouncedMordienne,
    GameEnd,
    GivingUp,
    Ruleset,
)
from trainer.rules.views import PlayerView

# The value types live in trainer.rules.records (a leaf module); they stay importable from here.
__all__ = [
    "Contract", "DealEnd", "DealResult", "Game", "Outcome", "SignalRecord", "Termination", "TrickRecord",
]


# Chance outcomes are derived from the seed by name, so copying or replaying a game never shifts a
# shared generator: each chance step gets its own generator.
def _chance_rng(seed: int | str, *parts: object) -> random.Random:
    key = "/".join(str(p) for p in (seed, *parts)).encode()
    # A 64-bit integer from the name: seeding with it is much cheaper than with a long string.
    return random.Random(int.from_bytes(hashlib.sha256(key).digest()[:8], "big"))


# The action type each phase takes (keyed by the phase's value: hashing a str is cheaper).
_EXPECTED = {
    Phase.CHOOSE_DEALER.value: ChooseDealer, Phase.DEAL.value: Deal, Phase.CHANT_DEAL.value: ChantDeal,
    Phase.CHANT_VOTE.value: Vote, Phase.DISCARD.value: Discard, Phase.DECLARE.value: Declare,
    Phase.ANSWER.value: Answer, Phase.PLAY.value: Card,
}


class Game:
    """A game of Aluette: states, legal actions, apply, outcome. Create with :meth:`new`."""

    def __init__(self, ruleset: Ruleset, seed: int | str, *, auto_chance: bool = True) -> None:
        if not isinstance(ruleset, Ruleset):
            raise RulesError(f"a game needs a Ruleset, got {ruleset!r}: use Ruleset.preset('vendee')")
        if isinstance(seed, bool) or not isinstance(seed, (int, str)):
            raise RulesError(f"a game seed must be an int or a string, got {seed!r}")
        self.ruleset = ruleset
        self.seed = seed
        self.auto_chance = auto_chance
        n = ruleset.player_count
        self.history: list[Action] = []
        self.signals: list[SignalRecord] = []
        self.phase = Phase.CHOOSE_DEALER
        self.dealer: int | None = None
        self.first_dealer: int | None = None
        self.deal_number = 0
        self.deals_played = 0
        self.scores = [0] * ruleset.team_count
        self.extended = False
        self.results: list[DealResult] = []
        self.outcome: Outcome | None = None
        # Per-deal state.
        self._hands: list[list[int]] = [[] for _ in range(n)]
        self._talon: list[int] = []
        self._received: list[list[int]] = [[] for _ in range(n)]
        self._discards: list[list[int]] = [[] for _ in range(n)]
        self._votes: list[bool] = []
        self.chant: bool | None = None
        self._receivers: tuple[int, ...] = ()
        self._declarations: list[tuple[int, Declaration]] = []
        self._pending: tuple[int, Declaration] | None = None
        self._answers: list[tuple[int, bool]] = []
        self.contract = Contract.NORMAL
        self._committed_team: int | None = None
        self._fast: FastDeal | None = None
        self._turn: int | None = None

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def new(cls, ruleset: Ruleset | None = None, seed: int | str = 0, *, auto_chance: bool = True) -> Game:
        """A new game; with ``auto_chance`` the chance steps resolve from the seed as they come,
        so the game starts at the first decision (usually the chant vote)."""
        game = cls(ruleset if ruleset is not None else Ruleset(), seed, auto_chance=auto_chance)
        game._resolve_chance()
        return game

    @classmethod
    def from_deal(
        cls,
        ruleset: Ruleset,
        dealer: int,
        hands: Iterable[Iterable[Card]],
        talon: Iterable[Card] | None = None,
        *,
        seed: int | str = 0,
        auto_chance: bool = True,
    ) -> Game:
        """A game whose first deal is given: ``dealer`` deals ``hands`` (per seat); the talon is the
        rest of the deck (strongest first) unless given. Used by ``aluette replay`` and tests."""
        game = cls(ruleset, seed, auto_chance=False)
        game.apply(ChooseDealer(dealer))
        hands_t = tuple(tuple(h) for h in hands)
        if talon is None:
            used = {c for h in hands_t for c in h}
            talon = tuple(c for c in CARDS if c not in used)
        game.apply(Deal(hands_t, tuple(talon)))
        game.auto_chance = auto_chance
        game._resolve_chance()
        return game

    def copy(self) -> Game:
        """An independent copy (bots search on copies)."""
        new = Game.__new__(Game)
        for name, value in self.__dict__.items():
            if isinstance(value, list):
                value = [v[:] if isinstance(v, list) else v for v in value]
            elif isinstance(value, FastDeal):
                value = value.copy()
            new.__dict__[name] = value
        return new

    # -- what is the state -------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.ruleset.player_count

    @property
    def to_move(self) -> int | None:
        """The seat that must act now; None at a chance step or when the game is over."""
        if self.phase is Phase.PLAY:
            fast = self._play_state()
            return fast.to_move if fast.to_move >= 0 else None
        if self.phase.is_chance or self.phase is Phase.GAME_OVER:
            return None
        return self._turn

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    @property
    def is_chance(self) -> bool:
        return self.phase.is_chance

    @property
    def leader(self) -> int | None:
        """The seat that leads (or led) the current trick, during play."""
        return self._fast.leader if self._fast is not None else None

    def hand(self, seat: int) -> tuple[Card, ...]:
        """A seat's current hand, strongest first (full information: bots use ``view``)."""
        self._check_seat(seat)
        cards = self._fast.hands[seat] if self._fast is not None else self._hands[seat]
        return tuple(CARDS[i] for i in sorted(cards))

    def discards(self, seat: int) -> tuple[Card, ...]:
        self._check_seat(seat)
        return tuple(CARDS[i] for i in self._discards[seat])

    def received(self, seat: int) -> tuple[Card, ...]:
        """The talon cards ``seat`` received in this deal's chant (empty without chant)."""
        self._check_seat(seat)
        return tuple(CARDS[i] for i in self._received[seat])

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        hands = self._fast.hands if self._fast is not None else self._hands
        return tuple(len(h) for h in hands)

    @property
    def discard_counts(self) -> tuple[int, ...]:
        return tuple(len(d) for d in self._discards)

    @property
    def talon(self) -> tuple[Card, ...]:
        """The undealt talon of this deal (empty after a chant: it went to the receivers)."""
        return tuple(CARDS[i] for i in self._talon)

    @property
    def chant_receivers(self) -> tuple[int, ...]:
        return self._receivers

    @property
    def tricks(self) -> tuple[TrickRecord, ...]:
        """The finished tricks of the current deal."""
        if self._fast is None:
            return ()
        return tuple(
            TrickRecord(i + 1, leader, tuple(CARDS[c] for c in cards), None if w < 0 else w)
            for i, (leader, cards, w) in enumerate(self._fast.tricks)
        )

    @property
    def current_trick(self) -> tuple[Card, ...]:
        return tuple(CARDS[c] for c in self._fast.trick) if self._fast is not None else ()

    @property
    def tricks_won(self) -> tuple[int, ...]:
        return tuple(self._fast.won) if self._fast is not None else (0,) * self.players

    @property
    def fast_deal(self) -> FastDeal | None:
        """The trick-play state on card indices during PLAY (read only; copy it to play out)."""
        return self._fast

    @property
    def declarations(self) -> tuple[tuple[int, Declaration], ...]:
        """The declarations made so far in this deal, public, as ``(seat, declaration)``."""
        return tuple(self._declarations)

    @property
    def answers(self) -> tuple[tuple[int, bool], ...]:
        return tuple(self._answers)

    @property
    def pending_declaration(self) -> tuple[int, Declaration] | None:
        """During ANSWER: who announced or offered what."""
        return self._pending

    @property
    def votes(self) -> tuple[bool, ...]:
        return tuple(self._votes)

    @property
    def target(self) -> int | None:
        """Points that end the game now (None for a fixed number of deals not yet extended)."""
        if self.extended:
            return self.ruleset.extended_points
        if self.ruleset.game_end is GameEnd.FIRST_TO_POINTS:
            return self.ruleset.target_points
        return None

    def state_key(self) -> tuple[object, ...]:
        """Everything that makes the state, as a hashable value: two games with equal keys are in
        the same state (used to check that save/load and ``copy`` are exact)."""
        fast = self._fast
        return (
            self.ruleset, self.seed, tuple(self.history), tuple(self.signals), self.phase,
            self.dealer, self.first_dealer, self.deal_number, self.deals_played, tuple(self.scores),
            self.extended, tuple(map(tuple, self._received)), self._receivers, tuple(self._answers),
            self._committed_team,
            tuple(self.results), self.outcome, tuple(map(tuple, self._hands)), tuple(self._talon),
            tuple(map(tuple, self._discards)), tuple(self._votes), self.chant,
            tuple(self._declarations), self._pending, self.contract, self._turn,
            None if fast is None else (
                tuple(map(tuple, fast.hands)), fast.leader, fast.to_move, tuple(fast.trick),
                tuple(fast.winners), tuple(fast.won),
            ),
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.state_key() == other.state_key()

    __hash__ = None  # type: ignore[assignment]  # mutable: equal games may differ later

    def __repr__(self) -> str:
        return (
            f"<Game {self.ruleset.name} seed={self.seed!r} deal={self.deal_number} "
            f"phase={self.phase.value} to_move={self.to_move} scores={tuple(self.scores)}>"
        )

    # -- actions ----------------------------------------------------------------------------------

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action legal now. Plays are :class:`Card` values, strongest first. At a chance step
        the single seeded outcome; empty when the game is over."""
        phase = self.phase
        if phase is Phase.GAME_OVER:
            return ()
        if phase.is_chance:
            return (self.chance_action(),)
        if phase is Phase.PLAY:
            fast = self._play_state()
            return tuple(CARDS[i] for i in sorted(fast.hands[fast.to_move]))
        if phase is Phase.CHANT_VOTE:
            return (Vote(True), Vote(False))
        if phase is Phase.DISCARD:
            return tuple(Discard(CARDS[i]) for i in sorted(self._hands[self._seat_to_act()]))
        if phase is Phase.DECLARE:
            options = [Declare(Declaration.PASS)]
            if self._may_announce():
                options.append(Declare(Declaration.MORDIENNE))
            options.append(Declare(Declaration.GIVE_UP))
            return tuple(options)
        if phase is Phase.ANSWER:
            return (Answer(True), Answer(False))
        raise RulesError(f"unknown phase {phase}")  # unreachable

    def _may_announce(self) -> bool:
        option = self.ruleset.announced_mordienne
        if option is AnnouncedMordienne.OFF:
            return False
        # Under "extends to 10" a second announcement would change nothing.
        return not (option is AnnouncedMordienne.EXTENDS_TO_TEN and self.extended)

    def is_legal(self, action: Action) -> bool:
        try:
            self._check(action)
        except IllegalActionError:
            return False
        return True

    def apply(self, action: Action) -> tuple[Event, ...]:
        """Play ``action`` for ``to_move`` (or resolve a chance step) and return what happened
        (:mod:`trainer.rules.events`), including the chance steps resolved after it. Raises
        :class:`IllegalActionError` saying what was wrong; then nothing has changed."""
        self._check(action)
        out: list[Event] = []
        self._do(action, out)
        self.history.append(action)
        self._resolve_chance(out)
        return tuple(out)

    def apply_text(self, text: str) -> tuple[Event, ...]:
        """Apply an action written in the notation of :mod:`trainer.rules.actions`."""
        from trainer.rules.actions import parse_action

        return self.apply(parse_action(text))

    def chance_action(self) -> Action:
        """The chance outcome the seed gives at this chance step."""
        phase = self.phase
        n = self.players
        if phase is Phase.CHOOSE_DEALER:
            rng = _chance_rng(self.seed, "dealer")
            deck = list(CARDS)
            rng.shuffle(deck)
            stop = deck.index(Card.MADAME)
            return ChooseDealer(stop % n, tuple(deck[: stop + 1]))
        if phase is Phase.DEAL:
            rng = _chance_rng(self.seed, "deal", self.deal_number)
            order = list(range(48))
            rng.shuffle(order)
            positions = deal_positions(n, self._dealer_seat())
            hands = tuple(tuple(CARDS[order[p]] for p in pos) for pos in positions)
            dealt = n * self.ruleset.hand_size
            return Deal(hands, tuple(CARDS[i] for i in order[dealt:]))
        if phase is Phase.CHANT_DEAL:
            talon = [CARDS[i] for i in self._talon]
            return ChantDeal((tuple(talon[0::2]), tuple(talon[1::2])))
        raise IllegalActionError(f"no chance step now: the game is in phase {phase.value}")

    def _resolve_chance(self, out: list[Event] | None = None) -> None:
        if not self.auto_chance:
            return
        events = [] if out is None else out
        while self.phase.is_chance:
            action = self.chance_action()
            self._do(action, events)
            self.history.append(action)

    def record_signal(self, seat: int, message: str, reached: Iterable[int]) -> SignalRecord:
        """Store a sign made by ``seat`` and seen by ``reached`` (opaque text from the signals
        layer). It appears in the views of the seats reached and of the sender, and in save files."""
        self._check_seat(seat)
        if not isinstance(message, str) or not message:
            raise RulesError(f"a signal message must be a non-empty string, got {message!r}")
        seen = frozenset(reached)
        for s in seen:
            self._check_seat(s)
        record = SignalRecord(
            seat, message, seen, self.deal_number,
            len(self._fast.tricks) if self._fast is not None else 0, self.phase, len(self.history),
        )
        self.signals.append(record)
        return record

    # -- checking -------------------------------------------------------------------------------

    def _check_seat(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise RulesError(f"seat {seat!r} is not at this table: seats are 0..{self.players - 1}")

    def _wrong(self, action: Action, why: str) -> IllegalActionError:
        try:
            text = format_action(action)
        except (IllegalActionError, AttributeError, TypeError):
            # A malformed action (e.g. Discard("3D")): show it as Python wrote it.
            text = repr(action)
        legal = ", ".join(format_action(a) for a in self.legal_actions()[:16])
        return IllegalActionError(f"illegal action '{text}': {why}; legal now: {legal or 'none'}")

    def _check(self, action: Action) -> None:
        phase = self.phase
        if phase is Phase.GAME_OVER:
            raise IllegalActionError(f"the game is over ({self.outcome}): no action is legal")
        expected = _EXPECTED[phase._value_]
        if not isinstance(action, expected):
            raise self._wrong(action, f"the game is in phase {phase.value}, which takes a {expected.__name__}")
        # Each phase takes one action type (_EXPECTED), so from here the type tells the phase.
        if isinstance(action, Card):
            fast = self._play_state()
            seat = fast.to_move
            if action.index not in fast.hands[seat]:
                where = self._where_is(action)
                raise self._wrong(action, f"{action.value} is not in the hand of seat {seat} ({where})")
        elif isinstance(action, Discard):
            if not isinstance(action.card, Card):
                raise self._wrong(action, f"Discard needs a Card, got {action.card!r}")
            seat = self._seat_to_act()
            if action.card.index not in self._hands[seat]:
                raise self._wrong(action, f"{action.card.value} is not in the hand of seat {seat}")
        elif isinstance(action, Declare):
            if not isinstance(action.declaration, Declaration):
                raise self._wrong(action, f"Declare needs a Declaration, got {action.declaration!r}")
            if action.declaration is Declaration.MORDIENNE and not self._may_announce():
                raise self._wrong(action, "this ruleset does not allow announcing mordienne now")
        elif isinstance(action, Vote):
            if not isinstance(action.agree, bool):
                raise self._wrong(action, f"Vote needs True or False, got {action.agree!r}")
        elif isinstance(action, Answer):
            if not isinstance(action.accept, bool):
                raise self._wrong(action, f"Answer needs True or False, got {action.accept!r}")
        elif isinstance(action, ChooseDealer):
            self._check_choose_dealer(action)
        elif isinstance(action, Deal):
            self._check_deal(action)
        elif action != self.chance_action():  # ChantDeal
            raise self._wrong(action, "the talon is dealt one card at a time, alternately, from the top")

    def _where_is(self, card: Card) -> str:
        i = card.index
        if self._fast is not None and i in self._fast.played():
            return "it was already played"
        for seat, hand in enumerate(self._fast.hands if self._fast else self._hands):
            if i in hand:
                return f"seat {seat} holds it"
        return "it is not in play (talon or discards)"

    def _check_choose_dealer(self, action: ChooseDealer) -> None:
        n = self.players
        if isinstance(action.dealer, bool) or not isinstance(action.dealer, int) or not 0 <= action.dealer < n:
            raise self._wrong(action, f"dealer {action.dealer!r} must be a seat 0..{n - 1}")
        face = action.face_up
        if face:
            if len(set(face)) != len(face) or any(not isinstance(c, Card) for c in face):
                raise self._wrong(action, "the face-up cards must be distinct cards")
            if face[-1] is not Card.MADAME or Card.MADAME in face[:-1]:
                raise self._wrong(action, "the face-up deal stops at the first Madame (3C)")
            if (len(face) - 1) % n != action.dealer:
                raise self._wrong(action, f"Madame went to seat {(len(face) - 1) % n}, who must deal")

    def _check_deal(self, action: Deal) -> None:
        n, size = self.players, self.ruleset.hand_size
        if len(action.hands) != n:
            raise self._wrong(action, f"a {n}-player deal has {n} hands, got {len(action.hands)}")
        for seat, hand in enumerate(action.hands):
            if len(hand) != size:
                raise self._wrong(action, f"seat {seat} must get {size} cards, got {len(hand)}")
        if len(action.talon) != self.ruleset.talon_size:
            raise self._wrong(action, f"the talon has {self.ruleset.talon_size} cards, got {len(action.talon)}")
        every = [c for h in action.hands for c in h] + list(action.talon)
        if any(not isinstance(c, Card) for c in every):
            raise self._wrong(action, "hands and talon must hold Card values")
        if len(set(every)) != 48:
            seen: set[Card] = set()
            for card in every:
                if card in seen:
                    raise self._wrong(action, f"card {card.value} is dealt twice")
                seen.add(card)

    # -- transitions ------------------------------------------------------------------------------

    def _do(self, action: Action, out: list[Event]) -> None:
        """Make the change ``action`` brings, appending to ``out`` what happened. The action's type
        matches the phase (checked by :meth:`_check`, or given by the seed at a chance step)."""
        if isinstance(action, Card):
            self._do_play(action, out)
        elif isinstance(action, ChooseDealer):
            self.dealer = self.first_dealer = action.dealer
            out.append(DealerChosen(action.dealer, action.face_up))
            self._start_deal()
        elif isinstance(action, Deal):
            self._do_deal(action, out)
        elif isinstance(action, Vote):
            self._do_vote(action, out)
        elif isinstance(action, ChantDeal):
            self._do_chant_deal(action, out)
        elif isinstance(action, Discard):
            self._do_discard(action, out)
        elif isinstance(action, Declare):
            out.append(Declared(self._seat_to_act(), action.declaration))
            self._declare(action.declaration, out)
        else:  # Answer
            seat, declaration = self._asked()
            out.append(Answered(self._seat_to_act(), action.accept, seat, declaration))
            self._answer(action.accept, out)

    def _do_play(self, card: Card, out: list[Event]) -> None:
        fast = self._play_state()
        seat = fast.to_move
        number = len(fast.tricks) + 1
        fast.apply(card.index)
        out.append(CardPlayed(seat, card, number))
        if len(fast.tricks) == number:
            leader, cards, winner = fast.tricks[-1]
            out.append(TrickEnded(TrickRecord(
                number, leader, tuple(CARDS[c] for c in cards), None if winner < 0 else winner,
            )))
        if fast.finished:
            self._score_played_deal(out)

    def _do_deal(self, action: Deal, out: list[Event]) -> None:
        dealer = self._dealer_seat()
        out.append(CardsDealt(self.deal_number, dealer, action.hands))
        self._hands = [[c.index for c in h] for h in action.hands]
        self._talon = [c.index for c in action.talon]
        if self.ruleset.chant_possible:
            self.phase = Phase.CHANT_VOTE
            self._turn = (dealer + 1) % self.players
        else:
            self._begin_declarations()

    def _do_vote(self, action: Vote, out: list[Event]) -> None:
        seat = self._seat_to_act()
        self._votes.append(action.agree)
        out.append(ChantVoted(seat, action.agree))
        if not action.agree:
            # Chant needs every player's agreement: one "no" ends the vote.
            self.chant = False
            out.append(ChantDecided(False, ()))
            self._begin_declarations()
        elif len(self._votes) == self.players:
            self.chant = True
            self._receivers = self.ruleset.chant_receivers_for(self._dealer_seat())
            out.append(ChantDecided(True, self._receivers))
            self.phase = Phase.CHANT_DEAL
        else:
            self._turn = (seat + 1) % self.players

    def _do_chant_deal(self, action: ChantDeal, out: list[Event]) -> None:
        out.append(ChantDealt(self._receivers, action.received))
        for seat, cards in zip(self._receivers, action.received, strict=False):
            idx = [c.index for c in cards]
            self._hands[seat].extend(idx)
            self._received[seat].extend(idx)
        self._talon = []
        self.phase = Phase.DISCARD
        self._turn = self._receivers[0]

    def _do_discard(self, action: Discard, out: list[Event]) -> None:
        seat = self._seat_to_act()
        self._hands[seat].remove(action.card.index)
        self._discards[seat].append(action.card.index)
        out.append(CardDiscarded(seat, action.card, len(self._discards[seat])))
        if len(self._hands[seat]) == self.ruleset.hand_size:
            if seat == self._receivers[0]:
                self._turn = self._receivers[1]
            else:
                self._begin_declarations()

    # The parts of the state that exist only in some phases, for the steps that need them (a None
    # here is a bug in the engine's own flow, never a player's mistake).

    def _play_state(self) -> FastDeal:
        if self._fast is None:
            raise RulesError(f"no trick play in phase {self.phase.value}")
        return self._fast

    def _seat_to_act(self) -> int:
        if self._turn is None:
            raise RulesError(f"no seat is to act in phase {self.phase.value}")
        return self._turn

    def _dealer_seat(self) -> int:
        if self.dealer is None:
            raise RulesError(f"no dealer yet in phase {self.phase.value}")
        return self.dealer

    def _asked(self) -> tuple[int, Declaration]:
        if self._pending is None:
            raise RulesError(f"no declaration awaits an answer in phase {self.phase.value}")
        return self._pending

    def _start_deal(self) -> None:
        n = self.players
        self.deal_number += 1
        self.phase = Phase.DEAL
        self._hands = [[] for _ in range(n)]
        self._talon = []
        self._received = [[] for _ in range(n)]
        self._discards = [[] for _ in range(n)]
        self._votes = []
        self.chant = None
        self._receivers = ()
        self._declarations = []
        self._pending = None
        self._answers = []
        self.contract = Contract.NORMAL
        self._committed_team = None
        self._fast = None
        self._turn = None

    def _begin_declarations(self) -> None:
        if self.ruleset.declarations_possible:
            self.phase = Phase.DECLARE
            self._turn = (self._dealer_seat() + 1) % self.players
        else:
            self._begin_play()

    def _declare(self, declaration: Declaration, out: list[Event]) -> None:
        seat = self._seat_to_act()
        n = self.players
        rules = self.ruleset
        self._declarations.append((seat, declaration))
        team = rules.team_of(seat)
        if declaration is Declaration.PASS:
            if len(self._declarations) == n:
                self._begin_play()
            else:
                self._turn = (seat + 1) % n
            return
        if declaration is Declaration.MORDIENNE:
            if rules.announced_mordienne is AnnouncedMordienne.EXTENDS_TO_TEN:
                self.extended = True
                self._begin_play()
                return
            self._ask_answer(seat, declaration)
            return
        # Giving up.
        if rules.giving_up is GivingUp.OPPONENTS_SCORE:
            self._score_unplayed(DealEnd.GIVEN_UP, self._opponent_team(team), 1, seat, out)
            return
        self._ask_answer(seat, declaration)

    def _opponent_team(self, team: int) -> int:
        # Declarations exist only at the 4-player table: two teams.
        return 1 - team

    def _ask_answer(self, seat: int, declaration: Declaration) -> None:
        self._pending = (seat, declaration)
        self.phase = Phase.ANSWER
        # The left-hand opponent answers for the opponents.
        self._turn = (seat + 1) % self.players

    def _answer(self, accept: bool, out: list[Event]) -> None:
        seat, declaration = self._asked()
        self._answers.append((self._seat_to_act(), accept))
        team = self.ruleset.team_of(seat)
        if declaration is Declaration.MORDIENNE:
            if accept:
                self.extended = True
                self.contract = Contract.ANNOUNCED
                self._begin_play()
            else:
                self._score_unplayed(DealEnd.MORDIENNE_DECLINED, team, 1, seat, out)
            return
        if accept:
            self._score_unplayed(DealEnd.GIVEN_UP, self._opponent_team(team), 1, seat, out)
        else:
            self.contract = Contract.COMMITTED
            self._committed_team = self._opponent_team(team)
            self._begin_play()

    def _begin_play(self) -> None:
        rules = self.ruleset
        self.phase = Phase.PLAY
        self._turn = None
        self._fast = FastDeal(self._hands, (self._dealer_seat() + 1) % self.players, **rules.playout_flags().options)

    # -- scoring ----------------------------------------------------------------------------------

    def _declared_by(self) -> int | None:
        for seat, declaration in self._declarations:
            if declaration is not Declaration.PASS:
                return seat
        return None

    def _score_unplayed(self, end: DealEnd, team: int, points: int, seat: int, out: list[Event]) -> None:
        gained = [0] * self.ruleset.team_count
        gained[team] = points
        result = DealResult(
            self.deal_number, self._dealer_seat(), bool(self.chant), end, (), (0,) * self.players, None,
            False, tuple(gained), self.contract, seat,
        )
        self._finish_deal(result, out)

    def _score_played_deal(self, out: list[Event]) -> None:
        rules = self.ruleset
        fast = self._play_state()
        winner = fast.deal_winner()
        mordienne = fast.mordienne()
        gained = [0] * rules.team_count
        committed = self._committed_team
        if self.contract is Contract.COMMITTED and committed is not None:
            if winner != NO_WINNER and mordienne and rules.team_of(winner) == committed:
                gained[committed] = 2
            else:
                gained[1 - committed] = 2
        elif winner != NO_WINNER:
            team = rules.team_of(winner)
            gained[team] = 2 if mordienne or self.contract is Contract.ANNOUNCED else 1
        result = DealResult(
            self.deal_number, self._dealer_seat(), bool(self.chant), DealEnd.PLAYED, self.tricks, tuple(fast.won),
            None if winner == NO_WINNER else winner, mordienne, tuple(gained), self.contract,
            self._declared_by(),
        )
        self._finish_deal(result, out)

    def _finish_deal(self, result: DealResult, out: list[Event]) -> None:
        for team, points in enumerate(result.points):
            self.scores[team] += points
        self.results.append(result)
        self.deals_played += 1
        out.append(DealScored(result, tuple(self.scores), self.target, self.deals_played, self.ruleset.deals))
        outcome = self._game_end()
        if outcome is not None:
            self.outcome = outcome
            out.append(GameOver(outcome))
            self.phase = Phase.GAME_OVER
            self._turn = None
            return
        # The player left of the dealer deals next.
        self.dealer = (self._dealer_seat() + 1) % self.players
        self._start_deal()

    def _game_end(self) -> Outcome | None:
        scores = tuple(self.scores)
        target = self.target
        if target is not None:
            best = max(scores)
            if best >= target:
                # One team scores per deal, so only one can cross the target at once.
                return Outcome(Termination.TARGET_REACHED, scores.index(best), scores)
            return None
        if self.deals_played >= self.ruleset.deals:
            best = max(scores)
            leaders = [t for t, s in enumerate(scores) if s == best]
            return Outcome(Termination.DEALS_PLAYED, leaders[0] if len(leaders) == 1 else None, scores)
        return None

    def events(self) -> tuple[Event, ...]:
        """Every event of this game from its start, in order: its actions replayed on a fresh game
        (the events :meth:`apply` returned, with those of the chance steps ``new`` resolved)."""
        replay = Game(self.ruleset, self.seed, auto_chance=False)
        return tuple(event for action in self.history for event in replay.apply(action))

    # -- views ----------------------------------------------------------------------------------

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know now, as a frozen :class:`trainer.rules.views.PlayerView`."""
        hand = self.hand(seat)  # checks the seat
        to_move = self.to_move
        return PlayerView(
            seat=seat,
            ruleset=self.ruleset,
            phase=self.phase,
            to_move=to_move,
            legal_actions=self.legal_actions() if to_move == seat else (),
            dealer=self.dealer,
            deal_number=self.deal_number,
            hand=hand,
            discards=self.discards(seat),
            received=self.received(seat),
            chant=self.chant,
            chant_receivers=self.chant_receivers,
            hand_sizes=self.hand_sizes,
            discard_counts=self.discard_counts,
            tricks=self.tricks,
            trick_leader=self.leader,
            current_trick=self.current_trick,
            tricks_won=self.tricks_won,
            scores=tuple(self.scores),
            target=self.target,
            deals_played=self.deals_played,
            declarations=self.declarations,
            answers=self.answers,
            signals=tuple(r for r in self.signals if r.seat == seat or seat in r.reached),
            results=tuple(self.results),
        )
