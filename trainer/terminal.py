"""``aluette play``: a whole game of Aluette in the terminal — you (seat 0, South) and a bot partner
(seat 2, North) against two bots (seats 1 West and 3 East).

Moves are read from stdin: a card code (``3d``) or its number in the list, ``y``/``n`` for votes and
answers, ``p``/``m``/``g`` for pass / announce mordienne / give up, ``s NAME [count]`` to sign to the
partner (``s borgne``, ``s as 2``), ``?`` for help, ``q`` to quit.
Bad input is answered and asked again; end of input ends the game cleanly.

Signs: you see your partner's signs, and an opponent's only when you caught it (as on the app's
Play page); you are told when an opponent caught yours. ``--save FILE`` keeps the game;
``--resume FILE`` goes on with a saved one (and saves it back there when you leave). A missing or
damaged file is refused with the reason, and the file is left untouched.

Imports the rules and the bots (through their registry and table); input and output streams are
passed in, so the tests drive it with strings.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from trainer.rules.actions import Answer, Declaration, Declare, Discard, Vote
from trainer.rules.cards import Card
from trainer.rules.errors import RulesError
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
    GameOver,
    TrickEnded,
    narrate,
)
from trainer.rules.game import DealEnd, Game
from trainer.rules.ruleset import PRESETS, Ruleset
from trainer.signals.signs import Sign, Signal
from trainer.signals.table import is_truthful

if TYPE_CHECKING:  # the bots are imported when a game starts, so `aluette --help` stays quick
    from trainer.bots.table import Table

SEAT_NAMES = {0: "You (South)", 1: "West", 2: "North (partner)", 3: "East"}
USER = 0


def add_commands(subparsers) -> None:
    play = subparsers.add_parser(
        "play", help="play a game in the terminal: you and a bot partner against two bots"
    )
    play.add_argument("--preset", default="vendee", choices=sorted(PRESETS), help="rule variant (default vendee)")
    play.add_argument("--seed", type=int, default=None, help="game seed (default: random)")
    play.add_argument("--bot", default=None, help="bot for the three other seats (default heuristic, else simple)")
    play.add_argument("--save", metavar="FILE", default=None,
                      help="save the game as JSON when it ends or you leave (resume it with --resume FILE)")
    play.add_argument("--resume", metavar="FILE", default=None,
                      help="go on with a game saved by --save (or an app save); it is saved back there "
                           "when you leave, unless --save names another file")
    play.set_defaults(run=_run_play)


class ResumeError(ValueError):
    """A saved game that cannot be resumed: says which file, what is wrong, and that it is untouched."""


def load_for_resume(path: str) -> Game:
    """The game saved in ``path`` (a terminal save, or an app save holding one under ``"game"``).
    Raises :class:`ResumeError`; never writes to the file."""
    import json

    from trainer.rules.saves import game_from_json

    untouched = "the file was left as it is"
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ResumeError(f"cannot resume: {path} does not exist. Check the name, or start a new game "
                          "with 'aluette play --save FILE'") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ResumeError(f"cannot resume: {path} cannot be read ({error}); {untouched}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ResumeError(f"cannot resume: {path} is damaged, it is not JSON (line {error.lineno}, column "
                          f"{error.colno}: {error.msg}); {untouched}") from None
    if isinstance(data, dict) and data.get("format") == "aluette-app-game":
        data = data.get("game")
    try:
        game = game_from_json(data)
    except ValueError as error:
        raise ResumeError(f"cannot resume: {path} is not a game this version can replay ({error}); {untouched}") from None
    if game.ruleset.player_count != 4:
        raise ResumeError(f"cannot resume: {path} is a {game.ruleset.player_count}-player game; "
                          "the terminal game is for the 4-player table")
    return game


def _run_play(args) -> int:
    if args.resume:
        game = load_for_resume(args.resume)
        return play(game.ruleset, game.seed, args.bot, sys.stdin, sys.stdout,
                    save=args.save or args.resume, resume=game)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    return play(Ruleset.preset(args.preset), seed, args.bot, sys.stdin, sys.stdout, save=args.save)


def card_label(card: Card) -> str:
    """``"2C  la Vache / the Cow"``."""
    return f"{card.value:<3} {card.name_in('fr')} / {card.name_in('en')}"


def seat_name(seat: int) -> str:
    return SEAT_NAMES.get(seat, f"seat {seat}")


class _Quit(Exception):
    pass


def _sign_text(signal) -> str:
    """``"le Borgne / the One-eyed"``, ``"un as / an ace x2"``."""
    sign = signal.sign
    french = getattr(sign, "french", None) or str(getattr(sign, "value", sign))
    english = getattr(sign, "english", None)
    text = f"{french} / {english}" if english else french
    return text + (f" x{signal.count}" if getattr(signal, "count", 1) > 1 else "")


def _sign_names() -> list[str]:
    return [sign.value for sign in Sign]


def _make_sign(table: Table, text: str, out: TextIO) -> None:
    """``s borgne`` / ``s as 2``: make a sign to the partner (the opponents may catch it)."""
    words = text.split()[1:]
    names = _sign_names()
    if not words:
        print("Sign what? s NAME [count]; names: " + ", ".join(names), file=out)
        return
    key = words[0].lower().replace("-", "_")
    try:
        sign = Sign(key)
        count = int(words[1]) if len(words) > 1 else 1
        signal = Signal(sign, count)
    except ValueError:
        print(f"Cannot make that sign: {' '.join(words)!r} is not a sign. Names: {', '.join(names)}", file=out)
        return
    if not table.lying_allowed and not is_truthful(signal, table.game.hand(USER)):
        print(f"Cannot make that sign: your hand does not back {_sign_text(signal)}, and signs at this "
              "table tell the truth. Sign a card you hold.", file=out)
        return
    try:
        event = table.submit_sign(USER, signal)
    except ValueError as error:
        print(f"Cannot make that sign: {error}.", file=out)
        return
    caught = [seat_name(s) for s in event.caught_by]
    print(f"You sign {_sign_text(signal)} to your partner."
          + (f" Caught by {' and '.join(caught)}: they know it too!" if caught else " No opponent caught it."), file=out)


def _make_table(ruleset: Ruleset, seed: int, bot_name: str | None):
    """The bots' Table with the person at seat 0 and the named bot (default heuristic) at the
    three other seats, signs included."""
    from trainer.bots.base import bot_names, register
    from trainer.bots.simple import SimpleBot
    from trainer.bots.table import Table

    name = bot_name or "heuristic"
    if name == "simple":
        # The small fallback bot is not in the registry by default: the terminal offers it.
        if "simple" not in bot_names():
            register("simple", SimpleBot)
    return Table.create(["human", name, name, name], ruleset=ruleset, seed=seed), name


class TerminalPhrases:
    """How the terminal tells each event (:func:`trainer.rules.events.narrate`) to the person at
    seat 0: "you" for that seat, only the cards that seat may see (its own hand, its own chant)."""

    def dealer_chosen(self, e: DealerChosen) -> list[str]:
        how = f" (Madame turned up for {'you' if e.dealer == USER else 'them'})" if e.face_up else ""
        return [f"{seat_name(e.dealer)} deal{'' if e.dealer == USER else 's'} first{how}."]

    def cards_dealt(self, e: CardsDealt) -> list[str]:
        verb = "deal" if e.dealer == USER else "deals"
        return [
            "",
            f"=== Deal {e.deal}: {seat_name(e.dealer)} {verb}, three cards at a time ===",
            "Your hand: " + " ".join(c.value for c in sorted(e.hands[USER], key=lambda c: c.index)),
        ]

    def chant_voted(self, e: ChantVoted) -> list[str]:
        return [f"{seat_name(e.seat)} vote{'' if e.seat == USER else 's'} {'for' if e.agree else 'against'} the chant."]

    def chant_decided(self, e: ChantDecided) -> list[str]:
        return [] if e.played else ["No chant: the talon stays unseen."]

    def chant_dealt(self, e: ChantDealt) -> list[str]:
        return [
            "Chant: you receive " + " ".join(c.value for c in cards) + "; discard 6." if s == USER
            else f"Chant: {seat_name(s)} receives 6 talon cards."
            for s, cards in zip(e.receivers, e.received)
        ]

    def card_discarded(self, e: CardDiscarded) -> list[str]:
        if e.seat == USER:
            return [f"You discard {e.card.value}."]
        # Another seat's discards are face down: say once that they were made.
        return [f"{seat_name(e.seat)} discards six cards face down."] if e.number == 1 else []

    def declared(self, e: Declared) -> list[str]:
        words = {
            Declaration.PASS: "pass", Declaration.MORDIENNE: "announce mordienne",
            Declaration.GIVE_UP: "offer to give the deal up",
        }[e.declaration]
        return [f"{seat_name(e.seat)}: {words}."]

    def answered(self, e: Answered) -> list[str]:
        return [f"{seat_name(e.seat)}: {'accept' if e.accept else 'refuse'}."]

    def card_played(self, e: CardPlayed) -> list[str]:
        return [f"  {seat_name(e.seat):<16} plays {card_label(e.card)}"]

    def trick_ended(self, e: TrickEnded) -> list[str]:
        if e.spoiled:
            return [f"  Trick {e.trick.number} is spoiled (pourri): equal highest cards; nobody wins it."]
        return [f"  Trick {e.trick.number} goes to {seat_name(e.winner)}."]

    def deal_scored(self, e: DealScored) -> list[str]:
        result = e.result
        lines = [""]
        if result.end is DealEnd.PLAYED:
            won = ", ".join(f"{seat_name(s)} {n}" for s, n in enumerate(result.tricks_won))
            lines.append(f"--- Deal {result.deal} over. Tricks: {won}.")
        lines.append(f"--- {deal_summary(result)}")
        lines.append(f"--- Score: your team {e.scores[0]}, opponents {e.scores[1]}"
                     + (f" (game to {e.target})" if e.target else f" (after {e.deals_played} of {e.deals} deals)"))
        return lines

    def game_over(self, e: GameOver) -> list[str]:
        outcome = e.outcome
        verdict = "It's a draw." if outcome.winner is None else (
            "Your team wins the game!" if outcome.winner == 0 else "The opponents win the game."
        )
        return [f"=== Game over: {verdict} Final score {outcome.scores[0]} - {outcome.scores[1]} ==="]


class _Narrator:
    """Tells the user what happened since the last look, showing only what seat 0 may see.

    It follows the table's game on a shadow game of its own, applying each new action there and
    telling the events that returns (the table's game may be several actions ahead)."""

    def __init__(self, table, out: TextIO, *, resumed: bool = False) -> None:
        self.table = table
        self.out = out
        self.phrases = TerminalPhrases()
        if resumed:  # tell only what happens from now on
            self.shadow = table.game.copy()
            self.shadow.auto_chance = False
        else:
            self.shadow = Game(table.game.ruleset, table.game.seed, auto_chance=False)
        self.seen_signs = 0

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def catch_up(self) -> None:
        game = self.table.game
        for action in game.history[len(self.shadow.history):]:
            for line in narrate(self.shadow.apply(action), self.phrases):
                self.say(line)
        signs = self.table.visible_signs(USER, all_deals=True)
        for t in signs[self.seen_signs:]:
            event = t.event
            if event.seat == USER:
                continue
            # visible_signs holds the partner's signs and the opponents' this seat caught, no others.
            if USER in event.caught_by:
                self.say(f"  [sign] You caught {seat_name(event.seat)}'s sign: {_sign_text(event.signal)}")
            else:
                self.say(f"  [sign] {seat_name(event.seat)} signs to you: {_sign_text(event.signal)}")
        self.seen_signs = len(signs)


def _who(seat: int) -> str:
    return "you" if seat == USER else seat_name(seat)


def deal_summary(result) -> str:
    """How the deal ended and who scored, from the DealResult's fields (never the engine's prose,
    which numbers seats and calls a team "the opponents" from the announcer's side)."""
    team = {0: "your team", 1: "the opponents"}
    scored = "; ".join(f"{team[t]} score{'s' if t == 0 else ''} {n}" for t, n in enumerate(result.points) if n) or "nobody scores"
    if result.end is DealEnd.GIVEN_UP or result.end is DealEnd.MORDIENNE_DECLINED:
        seat = result.declared_by
        answerer = (seat + 1) % 4  # the player on the left answers for the other team
        what = "gave the deal up" if result.end is DealEnd.GIVEN_UP else "announced mordienne"
        reply = "accepted" if result.end is DealEnd.GIVEN_UP else "declined"
        asked = "" if answerer == USER or answerer % 2 else " (you were not asked: the player on the announcer's left answers)"
        return (f"{_who(seat).capitalize()} {what}; {_who(answerer)} {reply} for {team[answerer % 2]}{asked}. "
                f"Not played: {scored}.")
    if result.deal_winner is None:
        return f"Every trick was spoiled: {scored}."
    best = result.tricks_won[result.deal_winner]
    text = f"{_who(result.deal_winner).capitalize()} took the most tricks ({best})"
    tied = [_who(s) for s, n in enumerate(result.tricks_won) if n == best and s != result.deal_winner]
    if tied:
        text += f" ({', '.join(tied)} also took {best}, but {_who(result.deal_winner)} got there first)"
    if result.mordienne:
        text += ", with mordienne"
    return f"{text}: {scored}."


def _prompt(view, out: TextIO) -> list[tuple[str, object]]:
    """Show the user's situation and return the numbered options."""
    legal = view.legal_actions
    print("", file=out)
    hand = list(view.hand)
    options: list[tuple[str, object]] = []
    first = legal[0]
    if isinstance(first, Card):
        if view.current_trick:
            plays = ", ".join(
                f"{seat_name((view.trick_leader + i) % view.players)} {c.value}"
                for i, c in enumerate(view.current_trick)
            )
            print(f"Trick {len(view.tricks) + 1} so far: {plays}", file=out)
        else:
            print(f"Trick {len(view.tricks) + 1}: you lead.", file=out)
        print(
            "Tricks won: " + ", ".join(f"{seat_name(s)} {n}" for s, n in enumerate(view.tricks_won))
            + f" | score {view.scores[0]}-{view.scores[1]}",
            file=out,
        )
        options = [(card_label(c), c) for c in legal]
        title = "Your hand (strongest first) — play a card:"
    elif isinstance(first, Discard):
        options = [(card_label(a.card), a) for a in legal]
        title = f"Discard a card face down ({len(hand) - view.ruleset.hand_size} more):"
    elif isinstance(first, Vote):
        print("Your hand: " + " ".join(c.value for c in hand), file=out)
        options = [("yes, play the chant (y)", Vote(True)), ("no chant (n)", Vote(False))]
        title = "Chant? (the talon is dealt to two players, who discard back to 9; everyone must agree)"
    elif isinstance(first, Declare):
        print("Your hand: " + " ".join(c.value for c in hand), file=out)
        labels = {
            Declaration.PASS: "pass (p)", Declaration.MORDIENNE: "announce mordienne (m)",
            Declaration.GIVE_UP: "give the deal up for your team (g)",
        }
        options = [(labels[a.declaration], a) for a in legal]
        title = "Before the first trick:"
    else:
        seat, what = view.declarations[-1] if view.declarations else (None, None)
        asked = "announces mordienne" if what is Declaration.MORDIENNE else "offers to give the deal up"
        print("Your hand: " + " ".join(c.value for c in hand), file=out)
        options = [("accept (y)", Answer(True)), ("refuse (n)", Answer(False))]
        title = f"{seat_name(seat)} {asked}. Your answer:"
    print(title, file=out)
    for number, (label, _) in enumerate(options, start=1):
        print(f"  {number:>2}. {label}", file=out)
    return options


_KEYS = {
    "y": Vote(True), "yes": Vote(True), "n": Vote(False), "no": Vote(False),
    "p": Declare(Declaration.PASS), "pass": Declare(Declaration.PASS),
    "m": Declare(Declaration.MORDIENNE), "mordienne": Declare(Declaration.MORDIENNE),
    "g": Declare(Declaration.GIVE_UP), "give-up": Declare(Declaration.GIVE_UP),
}


def _read_choice(text: str, options: list[tuple[str, object]]):
    """The option the user meant, or None."""
    text = text.strip().lower()
    actions = [a for _, a in options]
    if text.isdigit():
        number = int(text)
        return actions[number - 1] if 1 <= number <= len(actions) else None
    key = _KEYS.get(text)
    if key is not None:
        if isinstance(actions[0], Answer) and isinstance(key, Vote):
            key = Answer(key.agree)
        return key if key in actions else None
    try:
        card = Card.parse(text)
    except RulesError:
        return None
    for action in actions:
        if action == card or (isinstance(action, Discard) and action.card == card):
            return action
    return None


def play(
    ruleset: Ruleset, seed: int, bot_name: str | None, stdin: TextIO, out: TextIO, *, save: str | None = None,
    resume: Game | None = None,
) -> int:
    """Run a game (or go on with ``resume``, a loaded game); returns the exit code (0, also when the
    user quits or input ends). With ``save`` the game (seed, actions, signs) is written there as JSON
    when it ends or the user leaves."""
    table, code = _play(ruleset, seed, bot_name, stdin, out, resume)
    if save:
        from trainer.rules.saves import save_game

        path = save_game(table.game, save)
        print(f"Game saved to {path}.", file=out)
    return code


def _play(ruleset: Ruleset, seed: int, bot_name: str | None, stdin: TextIO, out: TextIO, resume: Game | None = None):
    if ruleset.player_count != 4:
        raise RulesError("the terminal game is for the 4-player table")
    table, name = _make_table(ruleset, seed, bot_name)
    if resume is not None:
        # The bots read the game (and the signs recorded in it) through their views; the table
        # starts its sign bookkeeping afresh at the resumed deal.
        table.game = resume
    narrator = _Narrator(table, out, resumed=resume is not None)
    print(f"Aluette — preset {ruleset.name}, seed {seed}, bots: {name}.", file=out)
    if resume is not None:
        game = resume
        print(f"Resumed: deal {game.deal_number}, {len(game.tricks)} trick(s) played in it, score your team "
              f"{game.scores[0]} - opponents {game.scores[1]}, {len(game.history)} moves so far.", file=out)
        if game.is_over:
            outcome = game.outcome
            print(f"This game is already over: final score {outcome.scores[0]} - {outcome.scores[1]}.", file=out)
    print("You are South (seat 0); your partner North (seat 2) faces you; West (1) and East (3) "
          "are the opponents. Type ? for help, s NAME to sign to your partner, q to quit.", file=out)
    game = table.game
    try:
        while True:
            table.step()
            narrator.catch_up()
            if game.is_over:
                return table, 0
            seat = table.human_to_act
            if seat is None:  # a bot table with nobody to act would loop: guard it
                return table, 0
            view = game.view(seat)
            options = _prompt(view, out)
            while True:
                print("> ", end="", file=out, flush=True)
                line = stdin.readline()
                if not line:
                    print("\nEnd of input: leaving the game.", file=out)
                    return table, 0
                text = line.strip()
                if text.lower() in ("q", "quit", "exit"):
                    raise _Quit
                if text in ("?", "h", "help"):
                    print("Type the number of your choice, or a card code like 3D / rb (value "
                          "A 2-9 V C R, suit D C B E), y/n, p/m/g, q to quit. "
                          "Sign to your partner with s NAME [count], e.g. 's borgne' or 's as 2' "
                          f"({', '.join(_sign_names())}).", file=out)
                    continue
                if text.lower() == "s" or text.lower().startswith("s "):
                    _make_sign(table, text, out)
                    narrator.seen_signs = len(table.visible_signs(USER, all_deals=True))
                    continue
                action = _read_choice(text, options) if text else None
                if action is None:
                    print(f"'{text}' is not one of the choices: type 1-{len(options)} or a code shown.", file=out)
                    continue
                try:
                    table.submit(seat, action)
                except RulesError as error:
                    print(f"Not allowed: {error}", file=out)
                    continue
                break
            narrator.catch_up()
    except _Quit:
        print("You leave the table.", file=out)
        return table, 0
