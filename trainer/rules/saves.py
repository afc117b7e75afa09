"""Saving and loading games (JSON), and the readable playthrough text.

Standard library only. A game is its ruleset, seed, action list and signal records, so a save file
holds exactly those and loading replays them: the loaded game equals the saved one
(``load_game(...) == game``). Writes are atomic (temporary file, then ``os.replace``), so a crash
never leaves half a save. Bad files raise :class:`SaveFormatError` naming the problem.

``format_playthrough(game)`` prints every step in words (like open_spiel's playthrough files);
``parse_playthrough(text)`` reads back the ruleset, seed, actions and signals from it, so golden
playthrough files in ``samples/playthroughs/`` are replayed by the tests and must print identically.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from trainer.rules import events as ev
from trainer.rules import jsonlimits
from trainer.rules.actions import Declaration, Phase, format_action, parse_action
from trainer.rules.cards import Card
from trainer.rules.errors import RulesError, SaveFormatError
from trainer.rules.game import Contract, DealEnd, DealResult, Game, SignalRecord
from trainer.rules.ruleset import GivingUp, Ruleset

FORMAT = "aluette-game"
VERSION = 1


# -- JSON -------------------------------------------------------------------------------------------

def _signal_json(record: SignalRecord) -> dict[str, Any]:
    return {
        "seat": record.seat, "message": record.message, "reached": sorted(record.reached),
        "deal": record.deal, "trick": record.trick, "phase": record.phase.value, "index": record.index,
    }


def game_to_json(game: Game) -> dict[str, Any]:
    """The save-file object: format tag, ruleset, seed, actions (text notation), signals."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "ruleset": game.ruleset.to_json(),
        "seed": game.seed,
        "auto_chance": game.auto_chance,
        "actions": [format_action(a) for a in game.history],
        "signals": [_signal_json(s) for s in game.signals],
    }


def game_from_json(data: Any) -> Game:
    """Rebuild a game by replaying a save-file object. Raises :class:`SaveFormatError`."""
    if not isinstance(data, dict):
        raise SaveFormatError(f"a saved game is a JSON object, got {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise SaveFormatError(f"not an Aluette save file: 'format' is {data.get('format')!r}, expected {FORMAT!r}")
    if data.get("version") != VERSION:
        raise SaveFormatError(f"save file version {data.get('version')!r} is not supported (this is {VERSION})")
    for key in ("ruleset", "seed", "actions"):
        if key not in data:
            raise SaveFormatError(f"save file has no {key!r}")
    try:
        ruleset = Ruleset.from_json(data["ruleset"])
    except RulesError as error:
        raise SaveFormatError(f"bad ruleset in save file: {error}") from None
    actions = data["actions"]
    signals = data.get("signals", [])
    if not isinstance(actions, list) or not isinstance(signals, list):
        raise SaveFormatError("save file 'actions' and 'signals' must be lists")
    try:
        game = Game(ruleset, data["seed"], auto_chance=False)
    except RulesError as error:
        raise SaveFormatError(f"bad save file: {error}") from None
    return _replay(game, actions, signals, bool(data.get("auto_chance", True)))


def _replay(game: Game, actions: list[Any], signals: list[Any], auto_chance: bool) -> Game:
    pending = sorted(
        (_read_signal(s, n) for n, s in enumerate(signals)), key=lambda s: s["index"]
    )
    position = 0
    for step, text in enumerate(actions + [None]):
        while position < len(pending) and pending[position]["index"] == step:
            s = pending[position]
            record = game.record_signal(s["seat"], s["message"], s["reached"])
            if (record.deal, record.trick, record.phase.value) != (s["deal"], s["trick"], s["phase"]):
                raise SaveFormatError(f"signal {s} does not fit the game at action {step}")
            position += 1
        if text is None:
            break
        if not isinstance(text, str):
            raise SaveFormatError(f"action {step + 1} must be a string, got {text!r}")
        try:
            game.apply(parse_action(text))
        except RulesError as error:
            raise SaveFormatError(f"action {step + 1} {text!r} cannot be replayed: {error}") from None
    if position < len(pending):
        raise SaveFormatError(f"signal at action index {pending[position]['index']} is past the end of the game")
    game.auto_chance = auto_chance
    return game


def _read_signal(s: Any, n: int) -> dict[str, Any]:
    keys = {"seat", "message", "reached", "deal", "trick", "phase", "index"}
    if not isinstance(s, dict) or not keys <= set(s):
        raise SaveFormatError(f"signal {n + 1} must be an object with {sorted(keys)}, got {s!r}")
    if not isinstance(s["index"], int) or not isinstance(s["reached"], list):
        raise SaveFormatError(f"signal {n + 1} has a bad 'index' or 'reached': {s!r}")
    return s


def dumps_game(game: Game, extra: dict[str, Any] | None = None) -> str:
    """The save as text; ``extra`` adds the caller's own keys (the terminal's table settings under
    ``"table"``), which loading ignores."""
    data = game_to_json(game)
    for key, value in (extra or {}).items():
        if key in data:
            raise SaveFormatError(f"{key!r} is a key of the save itself: keep extra data under another name")
        data[key] = value
    return json.dumps(data, ensure_ascii=False, indent=1)


MAX_BYTES = 20_000_000
"""A long game saves to about 50 KB; twenty megabytes is no save of this program."""


def loads_game(text: str) -> Game:
    return game_from_json(jsonlimits.loads(text, what="save file", max_bytes=MAX_BYTES, error=SaveFormatError))


def save_game(game: Game, path: str | os.PathLike[str], extra: dict[str, Any] | None = None) -> Path:
    """Write the game atomically to ``path`` (temporary file in the same folder, then replace);
    ``extra``: more top-level keys (see :func:`dumps_game`)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(dumps_game(game, extra))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, target)
    except BaseException:
        try:
            os.unlink(temp)
        except FileNotFoundError:
            pass
        raise
    return target


def load_game(path: str | os.PathLike[str]) -> Game:
    """Read a saved game; :class:`SaveFormatError` for a missing, unreadable or bad file."""
    return game_from_json(jsonlimits.read(path, what="save file", max_bytes=MAX_BYTES, error=SaveFormatError))


# -- playthrough text -----------------------------------------------------------------------------

def card_name(card: Card) -> str:
    """``"2C la Vache (the Cow)"`` / ``"RB roi de bâton (king of batons)"``."""
    return f"{card.value} {card.name_in('fr')} ({card.name_in('en')})"


class PlaythroughPhrases:
    """How the playthrough text tells each event (:func:`trainer.rules.events.narrate`): seats by
    number, cards by code and name in French and English. Golden files pin these words. The
    ruleset is the game's: a deal's result is told from its values and the rules it was scored by."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset

    def dealer_chosen(self, e: ev.DealerChosen) -> list[str]:
        how = f" (Madame turned up for seat {e.dealer})" if e.face_up else ""
        return [f"Seat {e.dealer} deals first{how}."]

    def cards_dealt(self, e: ev.CardsDealt) -> list[str]:
        return [f"Deal {e.deal}: seat {e.dealer} deals 3 at a time."] + [
            f"  seat {s}: {' '.join(c.value for c in sorted(hand, key=lambda c: c.index))}"
            for s, hand in enumerate(e.hands)
        ]

    def chant_voted(self, e: ev.ChantVoted) -> list[str]:
        return [f"Seat {e.seat} votes {'for' if e.agree else 'against'} the chant."]

    def chant_decided(self, e: ev.ChantDecided) -> list[str]:
        if e.played:
            return [f"Everyone agrees: chant to seats {' and '.join(map(str, e.receivers))}."]
        return ["No chant: the talon stays unseen."]

    def chant_dealt(self, e: ev.ChantDealt) -> list[str]:
        return [f"Chant: seat {s} receives {' '.join(c.value for c in cards)}."
                for s, cards in zip(e.receivers, e.received, strict=False)]

    def card_discarded(self, e: ev.CardDiscarded) -> list[str]:
        return [f"Seat {e.seat} discards {e.card.value} face down."]

    def declared(self, e: ev.Declared) -> list[str]:
        words = {
            Declaration.PASS: "passes",
            Declaration.MORDIENNE: "announces mordienne",
            Declaration.GIVE_UP: "offers to give the deal up",
        }
        return [f"Seat {e.seat} {words[e.declaration]}."]

    def answered(self, e: ev.Answered) -> list[str]:
        return [f"Seat {e.seat} {'accepts' if e.accept else 'refuses'}."]

    def card_played(self, e: ev.CardPlayed) -> list[str]:
        return [f"Seat {e.seat} plays {card_name(e.card)}."]

    def trick_ended(self, e: ev.TrickEnded) -> list[str]:
        trick = e.trick
        if trick.winner is None:
            cards = " ".join(c.value for c in trick.cards)
            return [f"Trick {trick.number} is spoiled (pourri): {cards} go aside face up."]
        return [f"Trick {trick.number} to seat {trick.winner}."]

    def deal_scored(self, e: ev.DealScored) -> list[str]:
        result = e.result
        lines = []
        if result.end is DealEnd.PLAYED:
            lines.append(f"Deal {result.deal} over: tricks won {' '.join(map(str, result.tricks_won))}.")
        lines.append(f"Result: {self.deal_result(result)}.")
        lines.append(f"Scores: {', '.join(f'team {t}: {p}' for t, p in enumerate(e.scores))}.")
        return lines

    def deal_result(self, result: DealResult) -> str:
        """Why the deal scored what it did, in English (``Result:`` lines of the playthrough)."""
        seat = result.declared_by
        if result.end is DealEnd.MORDIENNE_DECLINED:
            return (f"seat {seat} announced mordienne and the opponents declined: "
                    "the deal is not played and the announcer's team scores 1")
        if result.end is DealEnd.GIVEN_UP:
            if self.ruleset.giving_up is GivingUp.OPPONENTS_SCORE:
                return f"seat {seat} gave the deal up: the opponents take 1 point without play"
            return f"seat {seat} offered to give the deal up and the opponents accepted: they take 1 point"
        return _most_tricks(result) + self._points(result)

    def _points(self, result: DealResult) -> str:
        winner, team_of = result.deal_winner, self.ruleset.team_of
        if result.contract is Contract.COMMITTED and result.declared_by is not None:
            # Declarations exist only at the 4-player table: the refusing team is the declarer's
            # opponents, and exactly one team scored the 2 points.
            committed = 1 - team_of(result.declared_by)
            if result.points[committed] == 2:
                return f"; team {committed} refused the give-up and made mordienne: 2 points"
            return f"; team {committed} refused the give-up but missed mordienne: team {1 - committed} scores 2"
        if winner is None:
            return ""
        if result.contract is Contract.ANNOUNCED:
            return "; mordienne was announced and accepted: the deal winner scores 2"
        team = team_of(winner)
        return f"; team {team} scores {result.points[team]}"

    def game_over(self, e: ev.GameOver) -> list[str]:
        outcome = e.outcome
        winner = "a draw" if outcome.winner is None else f"team {outcome.winner} wins"
        return [f"Game over ({outcome.termination.value}): {winner}."]


def _most_tricks(result: DealResult) -> str:
    """Who won a played deal and how: the most tricks, the tie broken by who reached it first."""
    winner, won = result.deal_winner, result.tricks_won
    if winner is None:
        return "every trick was spoiled: nobody took a trick and the deal scores nothing"
    best = won[winner]
    tied = [s for s, n in enumerate(won) if n == best and s != winner]
    why = f"seat {winner} took the most tricks ({best})"
    if tied:
        why += (
            f"; seat{'s' if len(tied) > 1 else ''} {', '.join(map(str, tied))} also took {best}, "
            f"but seat {winner} reached {best} first"
        )
    if result.mordienne:
        why += "; mordienne: no trick before, then the last tricks in a row"
    return why


def format_playthrough(game: Game) -> str:
    """Every step of ``game`` in words, replayable with :func:`parse_playthrough`."""
    out = [
        "aluette playthrough v1",
        f"ruleset {json.dumps(game.ruleset.to_json(), sort_keys=True)}",
        f"seed {json.dumps(game.seed)}",
    ]
    replay = Game(game.ruleset, game.seed, auto_chance=False)
    phrases = PlaythroughPhrases(game.ruleset)
    signals = sorted(game.signals, key=lambda s: s.index)
    position = 0
    for step, action in enumerate(list(game.history) + [None]):
        while position < len(signals) and signals[position].index == step:
            s = signals[position]
            replay.record_signal(s.seat, s.message, s.reached)
            out.append(f"signal {json.dumps(_signal_json(s), sort_keys=True)}")
            position += 1
        if action is None:
            break
        events = replay.apply(action)
        out.append(f"action {format_action(action)}")
        out.extend(f"  {line}" for line in ev.narrate(events, phrases))
    return "\n".join(out) + "\n"


def _line_json(text: str) -> Any:
    return jsonlimits.loads(text, what="playthrough line", max_bytes=MAX_BYTES, error=SaveFormatError)


def parse_playthrough(text: str) -> Game:
    """Rebuild the game from a playthrough text (its ruleset, seed, action and signal lines)."""
    ruleset = seed = None
    actions: list[str] = []
    signals: list[dict[str, Any]] = []
    if len(text) > MAX_BYTES:
        raise SaveFormatError(f"playthrough text is {len(text):,} characters, over the {MAX_BYTES:,} limit")
    lines = text.splitlines()
    if not lines or lines[0] != "aluette playthrough v1":
        raise SaveFormatError("not an Aluette playthrough: the first line must be 'aluette playthrough v1'")
    try:
        for line in lines[1:]:
            if line.startswith("ruleset "):
                ruleset = Ruleset.from_json(_line_json(line[8:]))
            elif line.startswith("seed "):
                seed = _line_json(line[5:])
            elif line.startswith("action "):
                actions.append(line[7:])
            elif line.startswith("signal "):
                record = _line_json(line[7:])
                record["index"] = len(actions)
                signals.append(record)
    except RulesError as error:
        raise SaveFormatError(f"bad playthrough header: {error}") from None
    if ruleset is None or seed is None:
        raise SaveFormatError("a playthrough needs 'ruleset' and 'seed' lines")
    return _replay(Game(ruleset, seed, auto_chance=False), actions, signals, True)


__all__ = [
    "card_name", "dumps_game", "format_playthrough", "game_from_json", "game_to_json", "load_game",
    "loads_game", "parse_playthrough", "save_game", "Phase",
]
