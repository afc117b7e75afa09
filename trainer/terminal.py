"""``aluette play``: a whole game of Aluette in the terminal, at a table of 3, 4 or 6 — you (seat 0,
South) and the bots: at four a partner (North) against two opponents (West, East); at six a partner
(North) and two pairs of opponents; at three each plays alone (West and East).

The table settings are flags, shown when the game starts: ``--players``, ``--preset``,
``--vigilance`` (how watchful the opponents are), ``--lies`` (signs may lie), ``--convention``,
``--partner`` and ``--opponents`` (the bots; ``--bot`` sets both). ``--language fr|en|it`` tells the
game (its events and the signs seen) in that language (:mod:`trainer.narration`); prompts stay English.

Moves are read from stdin: a card code (``3d``) or its number in the list, ``y``/``n`` for votes and
answers, ``p``/``m``/``g`` for pass / announce mordienne / give up, ``s NAME [count]`` to sign to the
partner (``s borgne``, ``s as 2``), ``a WORDS`` to tell more cards aloud after your last sign
(``a en dessous``, ``a après au-dessus``), ``?`` for help, ``q`` to quit.
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
from trainer.rules.game import Game
from trainer.rules.ruleset import PRESETS, Ruleset
from trainer.signals.conventions import CONVENTIONS
from trainer.signals.signs import Sign, Signal
from trainer.signals.table import VIGILANCE_LEVELS, is_truthful

if TYPE_CHECKING:  # the bots are imported when a game starts, so `aluette --help` stays quick
    from trainer.bots.table import Table

# The table settings are light (names and a frozen value); the Table itself comes when a game starts.
from trainer.bots.table_setup import (
    DEFAULT_CALLS,
    TABLE_SIZES,
    TableSettings,
    TableSetupError,
    partner_seat,
    playable_bots,
    seat_names,
    team_names,
)
from trainer.narration import (  # noqa: F401  (the narration moved there; its names stay importable here)
    LANGUAGES,
    SEAT_NAMES,
    USER,
    TerminalPhrases,
    card_label,
    deal_summary,
    hand_words,
    outcome_verdict,
    phrases_for,
    score_text,
    seat_name,
)
from trainer.narration import levels_text as _levels_text
from trainer.narration import sign_text as _sign_text
from trainer.rules.events import narrate


def add_commands(subparsers) -> None:
    play = subparsers.add_parser(
        "play", help="play a game in the terminal at a table of 3, 4 or 6: you, a bot partner and bot opponents"
    )
    play.add_argument("--players", type=int, default=4, choices=TABLE_SIZES,
                      help="table size: 3 (each alone), 4 (two pairs, default) or 6 (three pairs)")
    play.add_argument("--preset", default="vendee", choices=sorted(PRESETS), help="rule variant (default vendee)")
    play.add_argument("--seed", type=int, default=None, help="game seed (default: random)")
    play.add_argument("--vigilance", default="normal", choices=tuple(VIGILANCE_LEVELS),
                      help="how watchful the opponents are: how often they catch a sign (default normal)")
    play.add_argument("--lies", action="store_true",
                      help="signs may lie: you may bluff, and the bots trust signs less")
    play.add_argument("--calls", type=int, default=DEFAULT_CALLS, metavar="N",
                      help="signs each player may call seen a deal, a wrong call included; the bots' catches "
                           f"count the same way (default {DEFAULT_CALLS})")
    play.add_argument("--convention", default="classic", choices=tuple(CONVENTIONS),
                      help="which sign convention the table uses (default classic)")
    play.add_argument("--partner", default=None, choices=playable_bots(), help="your partner's bot (default heuristic)")
    play.add_argument("--opponents", default=None, choices=playable_bots(),
                      help="the opponents' bot (default heuristic)")
    play.add_argument("--bot", default=None, help="bot for every other seat (partner and opponents)")
    play.add_argument("--save", metavar="FILE", default=None,
                      help="save the game as JSON when it ends or you leave (resume it with --resume FILE)")
    play.add_argument("--resume", metavar="FILE", default=None,
                      help="go on with a game saved by --save (or an app save), with the table settings it "
                           "was played with; it is saved back there when you leave, unless --save names another file")
    play.add_argument("--language", default="en", choices=LANGUAGES,
                      help="the language the game is told in: fr, en (default) or it; the prompts stay English")
    play.set_defaults(run=_run_play)


def settings_from_args(args) -> TableSettings:
    """The table settings the flags ask for; ``--bot`` sets partner and opponents unless they are named."""
    bot = args.bot.strip().lower() if args.bot else None
    try:
        return TableSettings(
            players=args.players, preset=args.preset, vigilance=args.vigilance, lies=args.lies,
            convention=args.convention, partner=args.partner or bot or "heuristic",
            opponents=args.opponents or bot or "heuristic", calls=getattr(args, "calls", DEFAULT_CALLS),
        )
    except TableSetupError as error:
        raise RulesError(f"cannot set the table: {error}") from None


class ResumeError(ValueError):
    """A saved game that cannot be resumed: says which file, what is wrong, and that it is untouched."""


def load_for_resume(path: str) -> tuple[Game, TableSettings]:
    """The game saved in ``path`` (a terminal save, or an app save holding one under ``"game"``) and
    the table settings it was played with (a save from before the settings existed: the defaults,
    at the game's own table size and preset). Raises :class:`ResumeError`; never writes to the file."""
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
    table = data.get("table", {}) if isinstance(data, dict) else {}
    if isinstance(data, dict) and data.get("format") == "aluette-app-game":
        table = data  # the app keeps its table settings at the top of its save
        data = data.get("game")
    try:
        game = game_from_json(data)
    except ValueError as error:
        raise ResumeError(f"cannot resume: {path} is not a game this version can replay ({error}); "
                          f"{untouched}") from None
    try:
        settings = TableSettings.from_json(table if isinstance(table, dict) else {})
        preset = game.ruleset.name if game.ruleset.name in PRESETS else settings.preset
        settings = settings.with_(players=game.ruleset.player_count, preset=preset)
    except TableSetupError as error:
        raise ResumeError(f"cannot resume: {path} holds table settings this version does not know ({error}); "
                          f"{untouched}") from None
    return game, settings


def _run_play(args) -> int:
    if args.resume:
        game, settings = load_for_resume(args.resume)
        return play(game.ruleset, game.seed, None, sys.stdin, sys.stdout,
                    save=args.save or args.resume, resume=game, settings=settings, language=args.language)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    settings = settings_from_args(args)
    return play(settings.ruleset, seed, None, sys.stdin, sys.stdout, save=args.save, settings=settings,
                language=args.language)


class _Quit(Exception):
    pass


def _sign_names() -> list[str]:
    return [sign.value for sign in Sign]


def _make_sign(table: Table, text: str, out: TextIO) -> None:
    """``s borgne`` / ``s as 2``: make a sign to the partner (the opponents may catch it)."""
    words = text.split()[1:]
    names = _sign_names()
    if partner_seat(table.players) is None:
        print("At three everybody plays alone: there is no partner to sign to.", file=out)
        return
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
              "table tell the truth. Sign a card you hold (or start the game with --lies to bluff).", file=out)
        return
    try:
        event = table.submit_sign(USER, table.made(signal))
    except ValueError as error:
        print(f"Cannot make that sign: {error}.", file=out)
        return
    caught = [seat_name(s, table.players) for s in event.caught_by]
    print(f"You sign {_sign_text(signal)} to your partner."
          + (f" Caught by {' and '.join(caught)}: they know it too!" if caught else " No opponent caught it."),
          file=out)


def _announce(table, text: str, out: TextIO) -> None:
    """``a en dessous`` / ``a après au-dessus, au-dessus de là-dessus``: tell more cards aloud,
    relative to your last sign this deal (checked against your hand like a sign)."""
    from trainer.signals.relative import parse, unheld_levels

    words = text.split(None, 1)[1] if len(text.split(None, 1)) > 1 else ""
    if partner_seat(table.players) is None:
        print("At three everybody plays alone: there is no partner to tell your cards to.", file=out)
        return
    try:
        announcements = parse(words)
    except ValueError as error:
        print(f"Cannot announce that: {error}.", file=out)
        return
    mine = [t.event for t in table.visible_signs(USER) if t.event.seat == USER]
    if not mine:
        print("Cannot announce that: make a sign first (s NAME); announcements tell cards relative to it.", file=out)
        return
    last = mine[-1]
    try:
        unheld = unheld_levels(last.sign, last.announcements + announcements, table.game.hand(USER),
                               last.signal.count, new=len(announcements))
    except ValueError as error:
        print(f"Cannot announce that: {error}.", file=out)
        return
    if unheld and not table.lying_allowed:
        print(f"Cannot announce that: after {_sign_text(last.signal)} it names {_levels_text(unheld)}, which you "
              "do not hold, and announcements tell the truth at this table like signs (start the game with "
              "--lies to bluff).", file=out)
        return
    try:
        event = table.announce(USER, announcements)
    except ValueError as error:
        print(f"Cannot announce that: {error}.", file=out)
        return
    print(f"You tell your partner aloud: {', '.join(a.french for a in announcements)} "
          f"(after {_sign_text(event.signal)}: {_levels_text(event.levels[-len(announcements):])}).", file=out)


def _make_table(settings: TableSettings, ruleset: Ruleset, seed: int | str):
    """The bots' Table for these settings (its ruleset: the preset's, or a resumed game's own)."""
    return settings.table(seed, ruleset=ruleset), settings


def _settings_for(ruleset: Ruleset, bot_name: str | None) -> TableSettings:
    """Default table settings for a ruleset, with ``bot_name`` at every other seat."""
    bot = (bot_name or "heuristic").strip().lower()
    preset = ruleset.name if ruleset.name in PRESETS else "vendee"
    try:
        return TableSettings(players=ruleset.player_count, preset=preset, partner=bot, opponents=bot)
    except TableSetupError as error:
        raise RulesError(f"cannot set the table: {error}") from None


class _Narrator:
    """Tells the user what happened since the last look, showing only what seat 0 may see: the
    table's new events (``Table.events``, several actions' worth when the bots played on) and the
    signs that seat saw."""

    def __init__(self, table: Table, out: TextIO, *, resumed: bool = False, language: str = "en") -> None:
        self.table = table
        self.out = out
        self.phrases = phrases_for(language, table.players)
        self.told = len(table.events) if resumed else 0  # resumed: tell only what happens from now on
        self.seen_signs = 0

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def catch_up(self) -> None:
        events = self.table.events
        for line in narrate(events[self.told:], self.phrases):
            self.say(line)
        self.told = len(events)
        signs = self.table.visible_signs(USER, all_deals=True)
        for t in signs[self.seen_signs:]:
            event = t.event
            if event.seat == USER:
                continue
            # visible_signs holds the partner's signs and the opponents' this seat caught, no others.
            for line in self.phrases.sign_seen(event.seat, USER in event.caught_by, event):
                self.say(line)
        self.seen_signs = len(signs)


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
                f"{seat_name((view.trick_leader + i) % view.players, view.players)} {hand_words([c], 'en')}"
                for i, c in enumerate(view.current_trick)
            )
            print(f"Trick {len(view.tricks) + 1} so far: {plays}", file=out)
        else:
            print(f"Trick {len(view.tricks) + 1}: you lead.", file=out)
        print(
            "Tricks won: " + ", ".join(f"{seat_name(s, view.players)} {n}" for s, n in enumerate(view.tricks_won))
            + f" | score {'-'.join(map(str, view.scores))}",
            file=out,
        )
        options = [(card_label(c), c) for c in legal]
        title = "Your hand (strongest first) — play a card:"
    elif isinstance(first, Discard):
        options = [(card_label(a.card), a) for a in legal]
        title = f"Discard a card face down ({len(hand) - view.ruleset.hand_size} more):"
    elif isinstance(first, Vote):
        print("Your hand: " + hand_words(hand, "en"), file=out)
        options = [("yes, play the chant (y)", Vote(True)), ("no chant (n)", Vote(False))]
        title = (f"Chant? (the talon is dealt to two players, who discard back to {view.ruleset.hand_size}; "
                 "everyone must agree)")
    elif isinstance(first, Declare):
        print("Your hand: " + hand_words(hand, "en"), file=out)
        labels = {
            Declaration.PASS: "pass (p)", Declaration.MORDIENNE: "announce mordienne (m)",
            Declaration.GIVE_UP: "give the deal up for your team (g)",
        }
        options = [(labels[a.declaration], a) for a in legal]
        title = "Before the first trick:"
    else:
        seat, what = view.declarations[-1] if view.declarations else (None, None)
        asked = "announces mordienne" if what is Declaration.MORDIENNE else "offers to give the deal up"
        print("Your hand: " + hand_words(hand, "en"), file=out)
        options = [("accept (y)", Answer(True)), ("refuse (n)", Answer(False))]
        title = f"{'Somebody' if seat is None else seat_name(seat, view.players)} {asked}. Your answer:"
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
    ruleset: Ruleset, seed: int | str, bot_name: str | None, stdin: TextIO, out: TextIO, *, save: str | None = None,
    resume: Game | None = None, settings: TableSettings | None = None, language: str = "en",
) -> int:
    """Run a game (or go on with ``resume``, a loaded game); returns the exit code (0, also when the
    user quits or input ends). ``settings``: the table (size, vigilance, lies, convention, bots);
    without them, the defaults for ``ruleset`` with ``bot_name`` at every other seat. With ``save``
    the game (seed, actions, signs) and its table settings are written there as JSON when it ends
    or the user leaves. ``language``: what the game's events and signs are told in (``fr``, ``en``,
    ``it``); the prompts and help stay English."""
    phrases_for(language)  # an unknown language is refused before the table is set
    if settings is None:
        settings = _settings_for(ruleset, bot_name)
    if settings.players != ruleset.player_count:
        raise RulesError(f"the table settings seat {settings.players} but the rules are for {ruleset.player_count}")
    table, code = _play(ruleset, seed, settings, stdin, out, resume, language)
    if save:
        from trainer.rules.saves import save_game

        path = save_game(table.game, save, extra={"table": settings.to_json()})
        print(f"Game saved to {path}.", file=out)
    return code


def _introduce(settings: TableSettings, out: TextIO) -> None:
    """Who sits where, said once at the start."""
    n = settings.players
    names = seat_names(n)
    partner = partner_seat(n)
    opponents = [f"{names[s]} ({s})" for s in range(1, n) if s != partner]
    if partner is None:
        print(f"You are South (seat 0); everybody plays alone: {' and '.join(opponents)} play against you.", file=out)
    else:
        print(f"You are South (seat 0); your partner North (seat {partner}) faces you; "
              f"{', '.join(opponents[:-1])} and {opponents[-1]} are the opponents"
              + (f" ({', '.join(team_names(n)[1:])} in pairs)" if n == 6 else "") + ".", file=out)
    if partner is None:
        print("Type ? for help, q to quit.", file=out)
    else:
        print("Type ? for help, s NAME to sign to your partner, a WORDS to tell more cards after your sign, "
              "q to quit.", file=out)


def _play(ruleset: Ruleset, seed: int | str, settings: TableSettings, stdin: TextIO, out: TextIO,
          resume: Game | None = None, language: str = "en"):
    table, _ = _make_table(settings, ruleset, seed)
    if resume is not None:
        # The bots read the game (and the signs recorded in it) through their views; the table
        # starts its sign bookkeeping afresh at the resumed deal.
        table.resume(resume)
    narrator = _Narrator(table, out, resumed=resume is not None, language=language)
    _opening(ruleset, seed, settings, resume, out)
    _introduce(settings, out)
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
            if not _person_acts(table, seat, narrator, stdin, out):
                return table, 0
            narrator.catch_up()
    except _Quit:
        print("You leave the table.", file=out)
        return table, 0


def _opening(ruleset: Ruleset, seed: int | str, settings: TableSettings, resume: Game | None, out: TextIO) -> None:
    """The game's settings, and where a resumed game stands."""
    n = settings.players
    print(f"Aluette — preset {ruleset.name}, seed {seed}, bots: {settings.opponents}"
          + (f" (partner {settings.partner})"
             if settings.partner_seat is not None and settings.partner != settings.opponents else "")
          + ".", file=out)
    print(f"Table: {settings.summary()}.", file=out)
    if resume is not None:
        game = resume
        score = (f"your team {game.scores[0]} - opponents {game.scores[1]}" if n == 4
                 else score_text(game.scores, n))
        print(f"Resumed: deal {game.deal_number}, {len(game.tricks)} trick(s) played in it, score {score}, "
              f"{len(game.history)} moves so far.", file=out)
        outcome = game.outcome
        if outcome is not None:  # the game is over
            print(f"This game is already over: final score {' - '.join(map(str, outcome.scores))}.", file=out)


def _person_acts(table: Table, seat: int, narrator: _Narrator, stdin: TextIO, out: TextIO) -> bool:
    """Read the person's lines until one is a legal action, and submit it (signs and words told
    aloud are made on the way); False at the end of input."""
    view = table.game.view(seat)
    options = _prompt(view, out)
    while True:
        print("> ", end="", file=out, flush=True)
        line = stdin.readline()
        if not line:
            print("\nEnd of input: leaving the game.", file=out)
            return False
        text = line.strip()
        if text.lower() in ("q", "quit", "exit"):
            raise _Quit
        if text in ("?", "h", "help"):
            print("Type the number of your choice, or a card code like 3D / rb (value "
                  "A 2-9 V C R, suit D C B E), y/n, p/m/g, q to quit. "
                  "Sign to your partner with s NAME [count], e.g. 's borgne' or 's as 2' "
                  f"({', '.join(_sign_names())}); then tell more cards aloud with a WORDS, "
                  "e.g. 'a en dessous' or 'a après au-dessus' (au-dessus, au-dessous, "
                  "au-dessus de là-dessus, en dessous de là-dessous).", file=out)
            continue
        if text.lower() == "s" or text.lower().startswith("s "):
            _make_sign(table, text, out)
            narrator.seen_signs = len(table.visible_signs(USER, all_deals=True))
            continue
        if text.lower() == "a" or text.lower().startswith("a "):
            _announce(table, text, out)
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
        return True
