"""The coach: after each trick and each deal, what the partner made of the person's signs.

Everything comes from what the table and the bots actually did: the sign events of the deal (who
saw, who caught), the partner's recorded moves (:class:`~trainer.ui.game_session.BotMove`: the card,
the rule the bot named, and what it knew of the person's hand when it chose — the bots' own
``knowledge_of`` over the signs it saw), and the tricks. Nothing is guessed by another model.

After a deal the coach points at the tricks where a sign mattered, by the tactics' own rules
(``trainer.bots.tactics``): the partner plays low before the person only when it knows the person
can beat the trick (``partner_may_beat``), so

- a trick where the partner, playing before the person, played low because it knew the person's
  card: *that sign helped*;
- a trick the person won where the partner, playing before, spent a winning card (taking over or
  spoiling) and the person's winning card had not been signed: *that sign would have helped*;
- a sign of the person's caught by an opponent: *it cost a catch* (that opponent knew the card);
- a bluff (a sign the person's hand did not bear out, at a table with lies): what the partner
  believed, what was true, and what the trick it played low in came to.

What the partner made of each sign is the partner's own reading (:class:`~trainer.bots.knowledge.Reading`,
recorded with each of its moves, read with its trust at the table and its camera figures): a sign
believed, kept as a hint, or dropped and why. The coach never says more than that reading.

Pure functions over typed values; no Streamlit.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from trainer.bots import tactics
from trainer.bots.knowledge import Reading, Use
from trainer.rules.cards import ACES, Card
from trainer.rules.game import DealEnd, DealResult, TrickRecord
from trainer.signals.signs import Sign, Signal
from trainer.signals.table import SignEvent, honest_signals
from trainer.ui.settings import Language
from trainer.ui.table_talk import HUMAN_SEAT, PARTNER_SEAT, card_name, join, seat_name, sign_name

# The tactics' rules in a card player's words (the rule's own name is shown beside it).
RULE_WORDS = {
    tactics.PARTNER_WINNING_PLAY_LOW: (
        "its partner (you) was winning the trick or known to beat it, so it kept its good cards"),
    tactics.WIN_CHEAPLY_LAST: "it played last and took the trick with the cheapest card that beats it",
    tactics.WIN_WITH_MASTER: "it took the trick with a card nobody still to play can beat",
    tactics.SPOIL_RATHER_THAN_GIVE: (
        "it could not win but could tie: a spoiled trick (pourri) is better than one given to the opponents"),
    tactics.LEAD_MASTER: "it led a card nobody can beat",
    tactics.METTRE_A_LA_FORCE: "it led a middle card to draw out the opponents' big cards (mettre à la force)",
    tactics.DISCARD_LOWEST: "it could not win the trick, so it threw its lowest card",
    tactics.MORDIENNE_LOSE_EARLY: "going for mordienne: it loses the early tricks on purpose",
    tactics.MORDIENNE_TAKE_LAST: "going for mordienne: it takes the last tricks",
    tactics.SUPPORT_MORDIENNE_SPOIL: "supporting your mordienne: it spoiled an early trick",
    tactics.SUPPORT_MORDIENNE_SPREAD: "supporting your mordienne: it kept the opponents' tricks spread",
}
# Rules that spend a winning card: wasted when the person was going to win the trick anyway.
_SPENDS_A_WINNER = (tactics.WIN_WITH_MASTER, tactics.SPOIL_RATHER_THAN_GIVE)


@dataclass(frozen=True, slots=True)
class SignNote:
    """One of the person's signs in a deal: seen by the partner or not, caught by whom."""

    signal: Signal
    moment: int
    seen_by_partner: bool
    caught_by: tuple[int, ...]
    truthful: bool = True
    """False for a bluff (the person's hand did not hold what the sign said)."""
    announcements: tuple = ()
    """The words told aloud after the sign (``trainer.signals.relative.Announcement``)."""
    levels: tuple[int, ...] = ()
    """The card levels those words name."""


@dataclass(frozen=True, slots=True)
class TrickCoach:
    """What the coach says after one trick."""

    deal: int
    trick: TrickRecord
    partner_card: Card | None
    partner_rule: str
    why: str
    belief: tuple[str, ...]
    """What the partner knew of your hand when it played (empty: nothing)."""
    signs: tuple[SignNote, ...]
    """Your signs of this deal made before the partner's card."""
    readings: tuple[Reading, ...] = ()
    """What the partner made of each of your signs it had received when it played (its own reading)."""


@dataclass(frozen=True, slots=True)
class DealCoach:
    """What the coach says after a deal."""

    deal: int
    played: bool
    signs: tuple[SignNote, ...]
    helped: tuple[str, ...]
    would_help: tuple[str, ...]
    caught: tuple[str, ...]
    unsigned: tuple[str, ...]
    """Signs your hand allowed that you did not make."""
    bluffs: tuple[str, ...] = ()
    """Your bluffs the partner believed: what it played on them and what the trick came to."""
    unpaid: tuple[str, ...] = ()
    """True signs the partner played low on, in tricks the opponents took anyway."""


def your_signs(history, deal: int, partner: int = PARTNER_SEAT) -> tuple[SignNote, ...]:
    """The person's signs of ``deal`` from the table's history (TableSign: deal, SignEvent)."""
    return tuple(_note(t.event, partner) for t in history if t.deal == deal and t.event.seat == HUMAN_SEAT)


def _note(event: SignEvent, partner: int = PARTNER_SEAT) -> SignNote:
    return SignNote(event.signal, event.moment, partner in event.seen_by, event.caught_by, event.truthful,
                    event.announcements, event.levels)


def reading_text(reading: Reading, language: Language, players: int = 4) -> str:
    """What the partner made of one of your signs, in words: the sign, then the card(s) it
    concluded, or why it used nothing (``la Vache → you hold la Vache``)."""
    sign = sign_name(reading.sign.signal, language)
    if reading.use is Use.CERTAIN:
        return f"{sign} → {join(list(belief_phrases(reading.holding, language)))}"
    if reading.use is Use.HINT:
        why = (f"read by the camera at {reading.sign.confidence:.0%} confidence" if reading.sign.read_by_camera
               else "signs may lie at this table")
        return (f"{sign} → probably {join(list(belief_phrases(reading.holding, language)))} "
                f"({why}: it trusts the sign {reading.chance:.0%})")
    if reading.use is Use.CONTRADICTED:
        return (f"{sign} → dropped: you let the opponents take a trick that card would have won, so it "
                "no longer believes the sign (signs may lie at this table)")
    if reading.held_by_reader:
        return f"{sign} → dropped: it holds that card itself, so it knew the sign was false"
    if reading.played_by:
        who = join([seat_name(s, players=players) for s in reading.played_by])
        return f"{sign} → nothing left to use: {who} had already played the card it names"
    return f"{sign} → nothing it could place among the cards still unseen"


def belief_phrases(holding, language: Language) -> tuple[str, ...]:
    """A bots' Holding about the person's hand, in words (card indices → names)."""
    if holding is None:
        return ()
    out = []
    if holding.required:
        out.append("you hold " + join([card_name(Card.from_index(i), language) for i in sorted(holding.required)]))
    if holding.aces is not None:
        out.append("you hold no ace still out" if holding.aces == 0 else
                   f"you hold {holding.aces} of the aces still out")
    if holding.forbidden:
        strong = [Card.from_index(i) for i in sorted(holding.forbidden)]
        if len(strong) > 3:
            out.append("you hold nothing stronger than an ace (misère)")
        else:
            out.append("you hold neither " + join([card_name(c, language) for c in strong]).replace(" and ", " nor "))
    for group in holding.some:
        out.append("you hold one of " + join([card_name(Card.from_index(i), language) for i in sorted(group)]))
    return tuple(out)


def rule_words(rule: str) -> str:
    return RULE_WORDS.get(rule, rule or "no reason recorded")


def why_played(rule: str, trick: TrickRecord, tricks_per_deal: int = 9) -> str:
    """The rule in words; a deal's last card is forced (the tactics name it "throw the lowest")."""
    if trick.number == tricks_per_deal and rule == tactics.DISCARD_LOWEST:
        return "it was its last card"
    return rule_words(rule)


def trick_coach(moves, history, deal: int, trick: TrickRecord, language: Language, players: int = 4,
                tricks_per_deal: int = 9, partner: int = PARTNER_SEAT) -> TrickCoach:
    """The coach after ``trick`` of ``deal``: the partner's card in it, why, and what it knew
    (``partner``: the partner's seat, 3 at the 6-player table)."""
    partner_move = next(
        (m for m in moves if m.deal == deal and m.seat == partner and m.trick == trick.number - 1
         and isinstance(m.action, Card)),
        None,
    )
    position = next((i for i, (s, _) in enumerate(trick.plays(players)) if s == partner), None)
    moment = (trick.number - 1) * players + (position or 0)  # cards played before the partner card
    signs = tuple(n for n in your_signs(history, deal, partner) if n.moment <= moment)
    if partner_move is None:
        return TrickCoach(deal, trick, None, "", "", (), signs)
    return TrickCoach(
        deal, trick, partner_move.action, partner_move.rule, why_played(partner_move.rule, trick, tricks_per_deal),
        belief_phrases(partner_move.belief, language), signs, tuple(getattr(partner_move, "readings", ())),
    )


def _sign_for(card: Card) -> Sign | None:
    if card in ACES:
        return Sign.AS
    try:
        return Sign.for_card(card)
    except (KeyError, ValueError):
        return None


def _caught_lines(signs: tuple[SignNote, ...], language: Language, players: int) -> tuple[str, ...]:
    """One line per sign of yours an opponent caught: what it told them, or that it misled them."""
    def line(n: SignNote) -> str:
        who = join([seat_name(s, capital=True, players=players) for s in n.caught_by])
        many = len(n.caught_by) > 1
        told = (f"from then on {'they' if many else 'it'} knew you held it" if n.truthful else
                f"it was a bluff, so {'they were' if many else 'it was'} misled, not told")
        return f"{who} caught your sign {sign_name(n.signal, language)}: {told}"

    return tuple(line(n) for n in signs if n.caught_by)


@dataclass(slots=True)
class _Review:
    """The coach's lines about one deal's tricks, gathered trick by trick."""

    language: Language
    players: int
    held: frozenset[int]
    signed: frozenset[Sign]
    team: frozenset[int]
    bluffs: list[str] = field(default_factory=list)
    unpaid: list[str] = field(default_factory=list)
    helped_by: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    would: list[str] = field(default_factory=list)

    def played_low(self, trick, move, relied: frozenset[int]) -> None:
        """North played low, knowing (or believing) you held ``relied``: helped, a bluff, or unpaid."""
        language = self.language
        false = sorted(i for i in relied if self.held and i not in self.held)
        if trick.winner is None:
            came = "the trick was spoiled"
        elif trick.winner in self.team:
            came = ("you" if trick.winner == HUMAN_SEAT else "North") + " won the trick"
        else:
            came = f"{seat_name(trick.winner, capital=True, players=self.players)} won the trick"
        low = card_name(move.action, language)
        if false:
            told = join([card_name(Card.from_index(i), language) for i in false])
            cost = ("your team kept it anyway" if trick.winner in self.team else
                    "the bluff cost your team that trick" if trick.winner is not None else "nobody took it")
            self.bluffs.append(f"trick {trick.number}: your bluff made North believe you held {told} — you did "
                               f"not; it played low ({low}) and {came}: {cost}")
            return
        cards = join([card_name(Card.from_index(i), language) for i in sorted(relied)])
        if trick.winner is not None and trick.winner not in self.team:
            self.unpaid.append(f"trick {trick.number}: North knew you held {cards} and played low ({low}), "
                               f"but {came}")
        else:
            self.helped_by.setdefault(cards, []).append((trick.number, low))

    def spent_a_winner(self, trick, move, mine: Card, relied: frozenset[int]) -> None:
        """You won the trick, and North spent a good card on it not knowing you could."""
        sign = _sign_for(mine)
        if sign is None or mine.index in relied or sign in self.signed:
            return
        language = self.language
        spent = card_name(move.action, language)
        how = (f"tied the trick with {spent} to spoil it" if move.rule == tactics.SPOIL_RATHER_THAN_GIVE
               else f"took it over with {spent}")
        self.would.append(f"trick {trick.number}: you won with {card_name(mine, language)}, but North, not "
                          f"knowing you held it, {how}; signing {sign_name(Signal(sign), language)} "
                          "would have let it play low and keep that card")

    def helped(self) -> tuple[str, ...]:
        """One line per thing North knew: "tricks 4 and 5: North knew you held X and played low (a, b)"."""
        return tuple(
            f"trick{'s' if len(plays) > 1 else ''} {join([str(n) for n, _ in plays])}: North knew you held {cards} "
            f"and played low ({join([card for _, card in plays])}), keeping its good cards"
            for cards, plays in self.helped_by.items()
        )


def _relied(move) -> frozenset[int]:
    """The cards North placed in your hand from your signs, certain or as a hint: its own reading
    (else what it knew for certain when it chose)."""
    relied: frozenset[int] = frozenset().union(*(r.holding.required for r in getattr(move, "readings", ())
                                                 if r.use in (Use.CERTAIN, Use.HINT)))
    if not relied and move.belief is not None:
        relied = move.belief.required
    return relied


def deal_coach(moves, history, result: DealResult, language: Language, hand=(), players: int = 4,
               partner: int = PARTNER_SEAT) -> DealCoach:
    """The coach after a deal: which sign helped, which would have, which was caught. ``hand`` is
    the person's hand as play began (GameSession.deal_hands): the signs it allowed."""
    signs = your_signs(history, result.deal, partner)
    caught = _caught_lines(signs, language, players)
    if result.end is not DealEnd.PLAYED or not result.tricks:
        return DealCoach(result.deal, False, signs, (), (), caught, ())
    signed = frozenset(n.signal.sign for n in signs)
    review = _Review(language, players, frozenset(c.index for c in hand), signed, frozenset({HUMAN_SEAT, partner}))
    partner_moves = {m.trick: m for m in moves
                     if m.deal == result.deal and m.seat == partner and isinstance(m.action, Card)}
    for trick in result.tricks:
        plays = trick.plays(players)
        order = [s for s, _ in plays]
        if partner not in order or HUMAN_SEAT not in order or order.index(partner) > order.index(HUMAN_SEAT):
            continue  # the sign matters when the partner plays before you
        move = partner_moves.get(trick.number - 1)
        if move is None:
            continue
        relied = _relied(move)
        if move.rule == tactics.PARTNER_WINNING_PLAY_LOW and relied:
            review.played_low(trick, move, relied)
        elif move.rule in _SPENDS_A_WINNER and trick.winner == HUMAN_SEAT:
            review.spent_a_winner(trick, move, dict(plays)[HUMAN_SEAT], relied)
    # (no hand recorded: nothing to say, rather than call an empty hand weak)
    unsigned = tuple(sign_name(s, language) for s in honest_signals(hand) if s.sign not in signed) if hand else ()
    return DealCoach(result.deal, True, signs, review.helped(), tuple(review.would), caught, unsigned,
                     tuple(review.bluffs), tuple(review.unpaid))


# -- being watched (a timed table) -------------------------------------------------------------------

WATCH_WINDOW_S = 15.0
"""How far before and after a caught sign the coach looks for a clear way."""


@dataclass(frozen=True, slots=True)
class WatchedNote:
    """One of the person's signs that an opponent caught, with the eyes around it."""

    signal: Signal
    at: float
    caught_by: tuple[int, ...]
    looking: tuple[int, ...]
    """The opponents already looking as the sign began (the others turned to look during the hold)."""
    clear_before: float | None
    """Seconds before the sign when the way was last clear (None: not within the window)."""
    clear_after: float | None
    """Seconds after the sign when the way was next clear (None: not within the window)."""
    clear_for: float
    """How long that next clear spell lasted."""
    hold: float = 1.5
    """How long a sign is held: only a clear spell at least that long could have hidden it."""


def watched_notes(history, watch, deal: int, seat: int = HUMAN_SEAT,
                  window: float = WATCH_WINDOW_S) -> tuple[WatchedNote, ...]:
    """For each of ``seat``'s timed signs of ``deal`` that an opponent caught: who looked, and when
    the way was clear before and after it (``watch``: the table's :class:`~trainer.signals.watching.Watch`)
    for as long as a sign is held — a shorter gap could not have hidden a sign, so it is no advice."""
    out = []
    hold = watch.gaze.hold_s
    for t in history:
        e = t.event
        if t.deal != deal or e.seat != seat or e.at is None or not e.caught_by:
            continue
        before = [sp for sp in watch.clear_spells(seat, max(0.0, e.at - window), e.at) if sp[1] - sp[0] >= hold]
        # A spell beginning inside the window is measured past its edge (up to one hold more).
        after = [sp for sp in watch.clear_spells(seat, e.at, e.at + window + hold)
                 if sp[1] - sp[0] >= hold and sp[0] <= e.at + window]
        out.append(WatchedNote(
            e.signal, e.at, e.caught_by, watch.looking_at(seat, e.at),
            clear_before=(e.at - before[-1][1]) if before else None,
            clear_after=(after[0][0] - e.at) if after else None,
            clear_for=(after[0][1] - after[0][0]) if after else 0.0,
            hold=hold,
        ))
    return tuple(out)


def watched_text(note: WatchedNote, names: dict[int, str], sign_text) -> str:
    """The coach's sentence about a caught sign: which, by whom, and when the way was clear."""
    who = join([names[s] for s in note.caught_by])
    turned = [s for s in note.caught_by if s not in note.looking]
    how = ("looking at you as you began it" if not turned else
           "turning to look while you held it" if len(turned) == len(note.caught_by) else
           "one looking, one turning to look")
    parts = [f"Your {sign_text(note.signal)} was caught by {who} ({how})."]
    # Advice only about moments long enough to hold a sign (note.hold); else say none came.
    if note.clear_before is not None and note.clear_before > 0:
        parts.append(f"The way had been clear long enough for a sign until {note.clear_before:.1f} s before.")
    if note.clear_after is not None and note.clear_for >= note.hold:
        parts.append(f"It was clear again {note.clear_after:.1f} s later, for {note.clear_for:.1f} s: "
                     "sign when no opponent looks at you.")
    elif note.clear_before is None:
        parts.append(f"No moment clear of their eyes for a whole sign ({note.hold:.1f} s) came within "
                     f"{WATCH_WINDOW_S:.0f} s: at this table a sign is seen whenever you make it.")
    else:
        parts.append(f"No moment clear for a whole sign ({note.hold:.1f} s) came in the {WATCH_WINDOW_S:.0f} s after.")
    return " ".join(parts)
