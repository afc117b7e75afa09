"""What the Play page and its coach say, built from the typed values the engine and the table give
(seats, cards, TrickRecord, DealResult, Outcome, SignEvent) — never by rewriting the engine's prose.

Seats are named as a card player names them ("you", "West", "North", "East") with the verb agreeing
("you lead", "West leads"); cards by their name in the chosen language (the code only as a tooltip).
The sentences are English; card and sign names follow the language setting (French names first,
as the game is French), and so does the deal's result, which the narration words
(:mod:`trainer.narration.words`, the one text of it in French, English and Italian).

Holds no game logic and no Streamlit: pure functions, tested on their own.
"""

from __future__ import annotations

from dataclasses import dataclass

from trainer.narration.words import words_for
from trainer.rules.actions import Declaration, Phase
from trainer.rules.cards import Card
from trainer.rules.game import DealEnd, DealResult, Outcome, TrickRecord
from trainer.signals.signs import Sign, Signal
from trainer.ui.settings import Language

HUMAN_SEAT = 0
PARTNER_SEAT = 2


def seat_name(seat: int, *, capital: bool = False, players: int = 4) -> str:
    """``you``, ``West``, ``North``…: the compass names of the table's size (``South-West`` at six)."""
    name = words_for("en", players).who(seat) if 0 <= seat < players else f"player {seat + 1}"
    return name[0].upper() + name[1:] if capital else name


def says(seat: int, you: str, other: str, *, capital: bool = True, players: int = 4) -> str:
    """``"You lead"`` / ``"West leads"``: the seat with the verb form that agrees with it."""
    return f"{seat_name(seat, capital=capital, players=players)} {you if seat == HUMAN_SEAT else other}"


def team_of(seat: int, players: int = 4) -> int:
    return words_for("en", players).rules.team_of(seat)


def team_name(team: int, *, capital: bool = False, players: int = 4) -> str:
    """``your team`` / ``the opponents`` at four; ``you`` / ``West`` at three; the pairs at six."""
    name = words_for("en", players).team(team)
    return name[0].upper() + name[1:] if capital else name


def card_name(card: Card, language: Language) -> str:
    """The card's name in a card player's words: its nickname when it has one."""
    if language is Language.ENGLISH:
        return card.nickname_english or card.english
    if language is Language.ITALIAN:
        return card.nickname or card.italian
    return card.nickname or card.french


def sign_name(signal: Signal | Sign, language: Language) -> str:
    sign = signal.sign if isinstance(signal, Signal) else signal
    count = signal.count if isinstance(signal, Signal) else 1
    if sign is Sign.AS:
        word = {Language.ENGLISH: ("an ace", "aces"), Language.ITALIAN: ("un asso", "assi")}.get(
            language, ("un as", "as"))
        return word[0] if count == 1 else f"{count} {word[1]}"
    return sign.english if language is Language.ENGLISH else sign.french


def join(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


# -- the trick --------------------------------------------------------------------------------------

def trick_outcome(trick: TrickRecord, players: int = 4) -> str:
    if trick.winner is None:  # spoiled
        return "spoiled (pourri): equal top cards, nobody takes it"
    return f"won by {seat_name(trick.winner, players=players)}"


def turn_text(phase: Phase, to_move: int | None, *, over: bool, paused: bool, deal_over: bool = False,
              players: int = 4) -> str:
    """Whose turn, said at the table: "Your turn: play a card", "West to play"."""
    if over or to_move is None:
        return "Game over"
    if paused:
        who = seat_name(to_move, capital=True, players=players)
        if deal_over:
            return f"{who} plays next: click Next deal when you have seen the result"
        return f"{who} plays next: click Next trick when you have seen the trick"
    what = {
        Phase.PLAY: "play a card", Phase.CHANT_VOTE: "vote on the chant", Phase.DISCARD: "discard",
        Phase.DECLARE: "declare", Phase.ANSWER: "answer",
    }.get(phase, "act")
    if to_move == HUMAN_SEAT:
        return f"Your turn: {what}"
    return f"{seat_name(to_move, capital=True, players=players)} to {what}"


# -- the deal ---------------------------------------------------------------------------------------

def deal_result_text(result: DealResult, players: int = 4, language: Language = Language.ENGLISH) -> str:
    """Why the deal scored what it did, in ``language``: the narration's one text of a deal's
    result (:meth:`trainer.narration.words.TableWords.deal_result`)."""
    return words_for(language.value, players).deal_result(result)


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One deal on the score sheet (``us``/``them`` at four; ``points``/``totals`` per team at any size)."""

    deal: int
    dealer: str
    how: str
    tricks: str
    us: int
    them: int
    total_us: int
    total_them: int
    points: tuple[int, ...] = ()
    totals: tuple[int, ...] = ()


def score_sheet(results: tuple[DealResult, ...] | list[DealResult], players: int = 4) -> list[SheetRow]:
    rows = []
    total = [0] * ({3: 3, 4: 2, 6: 3}.get(players, 2))
    for r in results:
        for team, n in enumerate(r.points):
            total[team] += n
        if r.end is DealEnd.PLAYED:
            how = "all spoiled" if r.deal_winner is None else f"{seat_name(r.deal_winner, players=players)} took it" + (
                " (mordienne)" if r.mordienne else "")
        elif r.end is DealEnd.GIVEN_UP:
            how = f"given up by {seat_name(_declarer(r), players=players)}"
        else:
            how = f"mordienne of {seat_name(_declarer(r), players=players)} declined"
        tricks = (" · ".join(f"{seat_name(s, players=players)} {n}" for s, n in enumerate(r.tricks_won))
                  if r.tricks else "not played")
        rows.append(SheetRow(r.deal, seat_name(r.dealer, players=players), how, tricks, r.points[0], r.points[1],
                             total[0], total[1], tuple(r.points), tuple(total)))
    return rows


def _declarer(result: DealResult) -> int:
    """Who gave the deal up or announced mordienne (every unplayed deal has one)."""
    if result.declared_by is None:
        raise ValueError(f"deal {result.deal} ended {result.end.value} without a declaration")
    return result.declared_by


def outcome_text(outcome: Outcome, players: int = 4) -> str:
    scores = " to ".join(map(str, outcome.scores))
    if players != 4:
        if outcome.winner is None:
            return f"A draw, {scores}"
        if outcome.winner == 0:
            return f"{'You win' if players == 3 else 'Your team wins'}, {scores}"
        return f"{team_name(outcome.winner, capital=True, players=players)} win{'s' if players == 3 else ''}, {scores}"
    if outcome.winner is None:
        return f"A draw, {outcome.scores[0]} to {outcome.scores[1]}"
    if outcome.winner == 0:
        return f"Your team wins, {outcome.scores[0]} to {outcome.scores[1]}"
    return f"The opponents win, {outcome.scores[1]} to {outcome.scores[0]}"


def declaration_text(seat: int, declaration: Declaration) -> str:
    if declaration is Declaration.MORDIENNE:
        return f"{says(seat, 'announce', 'announces')} mordienne (to take the last tricks in a row, for 2 points)"
    return f"{says(seat, 'offer', 'offers')} to give the deal up (the other team would take 1 point)"


def chant_help(players: int = 4) -> str:
    """The chant explained for the table's size (3 or 4 players: a 6-player table has no talon)."""
    count = {3: "three", 4: "four"}.get(players, str(players))
    hand = {3: "twelve", 4: "nine"}.get(players, "their hand")
    return (f"**The chant (chanter):** if all {count} agree, the twelve talon cards go to two players, six "
            f"each, who discard back to {hand}. Agree with a weak hand (a fresh chance), refuse with a good "
            "one. One refusal and the deal is played as dealt.")


CHANT_HELP = chant_help(4)


LIES_SETTING = "Allow lies"
"""The table setting that lets signs lie (Play's table settings; ``--lies`` in the terminal)."""
_BLUFF = f" To bluff, tick “{LIES_SETTING}” in the table settings of a new game."


def refusal_text(signal: Signal, language: Language) -> str:
    """A sign the table refused because the person's hand does not back it (signs are truthful),
    naming the setting that would let it through."""
    name = sign_name(signal, language)
    if signal.sign is Sign.AS:
        return (f"Not sent: you signed {name}, but that is not how many aces you hold. "
                "Signs at this table tell the truth: make the sign that matches your hand." + _BLUFF)
    if signal.sign is Sign.MISERE:
        return ("Not sent: misère means a weak hand (nothing above an ace, at most one ace), and yours is not. "
                "Signs at this table tell the truth." + _BLUFF)
    return (f"Not sent: you do not hold {name}. Signs at this table tell the truth: "
            "sign a card you hold (the highlighted buttons)." + _BLUFF)


def announcement_refusal_text(signal: Signal, unheld: tuple[int, ...], language: Language) -> str:
    """Words after a sign that name a level the person's hand lacks, at a table without lies."""
    levels = join([level_name(level, language) for level in unheld])
    return (f"Not said: after {sign_name(signal, language)} those words name {levels}, which you do not hold. "
            "Announcements tell the truth like signs at this table." + _BLUFF)


def level_name(level: int, language: Language) -> str:
    """A strength level in a card player's words: the card itself for a single card, else its group
    (``la Vache``, ``a king``)."""
    cards = [c for c in Card if c.level == level]
    if len(cards) == 1:
        return card_name(cards[0], language)
    group = {9: "an ace", 10: "a king", 11: "a cavalier", 12: "a valet"}.get(level)
    return group or f"a card of level {level} ({join([card_name(c, language) for c in cards])})"
