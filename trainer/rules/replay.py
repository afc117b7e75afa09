"""The ``aluette replay FILE`` contract: replay the tricks of one 4-player deal from given hands.

Standard library only. Outside checks use this contract; keep it exact.

Input (JSON object)::

    {"preset": "vendee", "dealer": 0, "hands": [[9 codes of seat 0], [seat 1], [seat 2], [seat 3]],
     "plays": ["AD", "5D", ...]}

Seats 0-3 clockwise, teams 0+2 and 1+3, the seat after the dealer leads the first trick, ``plays`` in
play order (any prefix of the deal, whole tricks). Output (one JSON object): ``tricks`` (list of
``{"leader", "cards", "winner"}``, winner null for a spoiled trick), ``tricks_won`` (four counts);
for a finished deal ``deal_winner`` (seat or null), ``team`` (0/1/null), ``points``, ``mordienne``;
for an unfinished one ``next_leader``. The preset decides who leads after a spoiled trick and whether
a spoiled trick inside a mordienne run breaks it. Bad input raises :class:`ReplayError` naming it.
"""

from __future__ import annotations

from typing import Any

from trainer.rules import jsonlimits
from trainer.rules.cards import CARDS, Card
from trainer.rules.errors import CardError, RulesError, RulesetError
from trainer.rules.fastdeal import HAND_SIZES, NO_WINNER, FastDeal
from trainer.rules.ruleset import Players, Ruleset


class ReplayError(RulesError):
    """A replay file that does not describe a legal deal (the message names the problem)."""


PLAYERS = 4
HAND_SIZE = HAND_SIZES[PLAYERS]


def _code(value: Any, where: str) -> Card:
    if not isinstance(value, str):
        raise ReplayError(f"{where}: card codes are strings like '3D', got {value!r}")
    try:
        return Card.parse(value)
    except CardError as error:
        raise ReplayError(f"{where}: {error}") from None


def replay(data: Any) -> dict[str, Any]:
    """Replay a deal described by ``data`` (the parsed JSON) and return the output object."""
    if not isinstance(data, dict):
        raise ReplayError(f"the replay file must hold a JSON object, got {type(data).__name__}")
    ruleset = _ruleset(data)
    dealer = _dealer(data)
    hands, owner = _hands(data)
    plays = _plays(data)
    deal = FastDeal(hands, (dealer + 1) % PLAYERS, **ruleset.playout_flags().options)
    _play(deal, plays, owner)
    return _report(deal)


def _ruleset(data: dict[str, Any]) -> Ruleset:
    preset = data.get("preset", "vendee")
    try:
        ruleset = Ruleset.preset(preset) if isinstance(preset, str) else Ruleset.preset(repr(preset))
    except RulesetError as error:
        raise ReplayError(str(error)) from None
    if ruleset.players is not Players.FOUR:  # presets are 4-player tables
        raise ReplayError("replay covers the 4-player table only")
    return ruleset


def _dealer(data: dict[str, Any]) -> int:
    if "dealer" not in data:
        raise ReplayError("missing 'dealer': give the dealer's seat, 0..3")
    dealer = data["dealer"]
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < PLAYERS:
        raise ReplayError(f"'dealer' must be a seat 0..3, got {dealer!r}")
    return dealer


def _hands(data: dict[str, Any]) -> tuple[list[list[int]], dict[Card, int]]:
    """The four hands as card indices, and which seat was dealt each card."""
    hands_in = data.get("hands")
    if not isinstance(hands_in, list) or len(hands_in) != PLAYERS:
        count = len(hands_in) if isinstance(hands_in, list) else type(hands_in).__name__
        raise ReplayError(f"'hands' must be a list of 4 hands (seats 0..3), got {count}")
    hands: list[list[int]] = []
    owner: dict[Card, int] = {}
    for seat, hand in enumerate(hands_in):
        if not isinstance(hand, list) or len(hand) != HAND_SIZE:
            size = len(hand) if isinstance(hand, list) else type(hand).__name__
            raise ReplayError(f"the hand of seat {seat} must hold 9 cards, got {size}")
        cards = []
        for position, value in enumerate(hand):
            card = _code(value, f"hand of seat {seat}, card {position + 1}")
            if card in owner:
                raise ReplayError(
                    f"card {card.value} is dealt twice: in the hands of seat {owner[card]} and seat {seat}"
                )
            owner[card] = seat
            cards.append(card.index)
        hands.append(cards)
    return hands, owner


def _plays(data: dict[str, Any]) -> list[Any]:
    """The plays as given (codes are read while playing), whole tricks of a deal at most."""
    plays = data.get("plays", [])
    if not isinstance(plays, list):
        raise ReplayError(f"'plays' must be a list of card codes, got {type(plays).__name__}")
    if len(plays) > PLAYERS * HAND_SIZE:
        raise ReplayError(f"{len(plays)} plays: a deal has only {PLAYERS * HAND_SIZE} (nine tricks of four)")
    if len(plays) % PLAYERS:
        raise ReplayError(
            f"{len(plays)} plays is not whole tricks: give a multiple of 4 cards (the last trick has "
            f"{len(plays) % PLAYERS})"
        )
    return plays


def _play(deal: FastDeal, plays: list[Any], owner: dict[Card, int]) -> None:
    """Apply the plays in order, naming the first one the seat to play cannot make."""
    played_at: dict[Card, int] = {}
    for number, value in enumerate(plays, start=1):
        card = _code(value, f"play {number}")
        seat = deal.to_move
        if card in played_at:
            raise ReplayError(f"play {number}: card {card.value} was played twice (first at play {played_at[card]})")
        if card.index not in deal.hands[seat]:
            holder = owner.get(card)
            held = "nobody holds it (it is in the talon)" if holder is None else f"it is in the hand of seat {holder}"
            raise ReplayError(
                f"play {number}: card {card.value} is not in the hand of seat {seat}, whose turn it is; {held}"
            )
        deal.apply(card.index)
        played_at[card] = number


def _report(deal: FastDeal) -> dict[str, Any]:
    """The output object: the tricks, and the result of a finished deal or who leads next."""
    out: dict[str, Any] = {
        "tricks": [
            {
                "leader": leader,
                "cards": [CARDS[c].value for c in cards],
                "winner": None if winner == NO_WINNER else winner,
            }
            for leader, cards, winner in deal.tricks
        ],
        "tricks_won": list(deal.won),
    }
    if deal.finished:
        winner = deal.deal_winner()
        out["deal_winner"] = None if winner == NO_WINNER else winner
        out["team"] = None if winner == NO_WINNER else winner % 2
        out["points"] = deal.points()
        out["mordienne"] = deal.mordienne()
    else:
        out["next_leader"] = deal.to_move
    return out


MAX_BYTES = 1_000_000
"""A replay file is about 1 KB (36 hands and plays); a megabyte is already not one."""


def replay_file(path: str) -> dict[str, Any]:
    """Read and replay a replay file; :class:`ReplayError` for a missing, huge, too deeply nested or
    invalid file too."""
    return replay(jsonlimits.read(path, what="replay file", max_bytes=MAX_BYTES, error=ReplayError))
