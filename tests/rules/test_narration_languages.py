"""The narration in French, English and Italian (trainer/narration.py): every event kind has a phrase
in every language, a whole seeded game is told with no English left in French or Italian, and
``aluette play --language fr`` tells the game in French."""

from __future__ import annotations

import dataclasses
import io
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from trainer.narration import LANGUAGES, PHRASES, NarrationError, narrate_in, phrases_for
from trainer.rules.actions import Answer, Declaration, Declare
from trainer.rules.cards import Card
from trainer.rules.events import _METHOD, CardPlayed, narrate
from trainer.rules.game import Game
from trainer.rules.ruleset import PRESETS, AnnouncedMordienne, GivingUp, Players

REPO = Path(__file__).resolve().parents[2]

# Words of the English narration that neither the French nor the Italian one (card names included)
# may contain; matched as whole words, case ignored ("score" and "refuse" are French words too).
ENGLISH = ("the", "and", "you", "your", "team", "wins", "win", "trick", "tricks", "deal", "deals", "plays",
           "goes", "spoiled", "nobody", "partner", "opponents", "game", "over", "west",
           "north", "east", "south", "took", "first", "against", "with", "of", "votes", "receives",
           "discards", "accept", "pass", "caught", "signs", "then", "aloud")
_ENGLISH_WORD = re.compile(r"\b(" + "|".join(ENGLISH) + r")\b", re.IGNORECASE)

TABLES = [("vendee", 4), ("pagat", 4), ("english", 3), ("vendee", 6)]


def _seeded_game(preset: str, players: int, seed: int, choose=None) -> tuple[Game, list]:
    """A whole game of random legal actions (``choose`` may pick instead) and the events it gave."""
    ruleset = dataclasses.replace(PRESETS[preset], players=Players(players))
    game = Game.new(ruleset, seed, auto_chance=False)
    rng = random.Random(seed)
    events: list = []
    while not game.is_over:
        legal = game.legal_actions()
        action = (choose(legal) if choose else None) or legal[rng.randrange(len(legal))]
        events.extend(game.apply(action))
    return game, events


def _every_kind_of_event() -> dict[type, list[tuple[int, object]]]:
    """Events of every kind, from seeded games at every table size, with the declarations forced on
    at four so that give-ups, mordiennes and their answers happen."""
    declarations = dataclasses.replace(PRESETS["vendee"], giving_up=GivingUp.ACCEPT_OR_REFUSE,
                                       announced_mordienne=AnnouncedMordienne.ACCEPT_OR_DECLINE)

    def declare(legal):
        for wanted in (Declare(Declaration.MORDIENNE), Declare(Declaration.GIVE_UP), Answer(False)):
            if wanted in legal and random.random() < 0.5:
                return wanted
        return None

    random.seed(5)
    found: dict[type, list] = {}
    games = [(n, _seeded_game(p, n, seed)[1]) for p, n in TABLES for seed in (1, 2)]
    game = Game.new(declarations, 9, auto_chance=False)
    events: list = []
    rng = random.Random(9)
    while not game.is_over:
        legal = game.legal_actions()
        events.extend(game.apply(declare(legal) or legal[rng.randrange(len(legal))]))
    for players, evs in games + [(4, events)]:
        for event in evs:
            found.setdefault(type(event), []).append((players, event))
    return found


EVENTS = _every_kind_of_event()


def test_the_seeded_games_give_every_kind_of_event():
    assert set(EVENTS) == set(_METHOD), set(_METHOD) - set(EVENTS)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_event_kind_has_a_phrase_in_every_language(language):
    """Each language words every kind (nothing inherited from another language's class), and
    says something for some event of each kind; French and Italian never say the English words."""
    phrases = {n: phrases_for(language, n) for n in (3, 4, 6)}
    english = {n: phrases_for("en", n) for n in (3, 4, 6)}
    for kind, method in _METHOD.items():
        # The French and Italian narrators share their methods (each with its own table of sentences);
        # none takes a method from another language's class.
        others = set(PHRASES.values()) - {PHRASES[language]}
        assert any(method in vars(c) for c in PHRASES[language].__mro__ if c not in others), (
            f"{language} has no phrase of its own for {kind.__name__}")
        said = [line for n, event in EVENTS[kind] for line in getattr(phrases[n], method)(event)]
        assert any(line.strip() for line in said), f"{language} says nothing for {kind.__name__}"
        if language != "en":
            assert said != [line for n, event in EVENTS[kind] for line in getattr(english[n], method)(event)]
            leftovers = [line for line in said if _ENGLISH_WORD.search(line)]
            assert not leftovers, f"English in the {language} {kind.__name__}: {leftovers[:3]}"


@pytest.mark.parametrize("preset,players", TABLES)
def test_a_seeded_whole_game_is_told_in_each_language(preset, players):
    game, events = _seeded_game(preset, players, 11)
    told = {language: narrate_in(events, language, players) for language in LANGUAGES}
    # The same events, the same silences: one line in each language for each English line.
    assert len(told["fr"]) == len(told["it"]) == len(told["en"]) > 50
    # The English narration does use the words looked for, so their absence below means something.
    assert sum(bool(_ENGLISH_WORD.search(line)) for line in told["en"]) > 40
    assert any(" wins the game" in line or " win the game" in line or "draw" in line for line in told["en"])
    for language in ("fr", "it"):
        leftovers = [line for line in told[language] if _ENGLISH_WORD.search(line)]
        assert not leftovers, f"English left in {language}: {leftovers[:5]}"
    assert told["fr"][-1].startswith("=== Partie terminée : ")
    assert told["it"][-1].startswith("=== Partita finita: ")
    # Cards by their name in the language (French first in Italian, as everywhere in the app).
    played = [e for e in events if isinstance(e, CardPlayed)]
    lines = {language: [line for line in told[language] if re.match(r"  \S.* (joue|jouez|gioca|giochi) ", line)]
             for language in ("fr", "it")}
    assert len(lines["fr"]) == len(lines["it"]) == len(played)
    for event, fr, it in zip(played, lines["fr"], lines["it"], strict=False):
        assert fr.endswith(f"{event.card.value:<3} {event.card.name_in('fr')}")
        assert it.endswith(f"{event.card.name_in('fr')} / {event.card.name_in('it')}")


def test_the_person_is_addressed_with_the_verb_agreeing():
    """``Vous (Sud) jouez`` / ``Tu (Sud) giochi`` for the person, ``Ouest joue`` / ``Ovest gioca`` else."""
    mine = CardPlayed(0, Card.parse("2C"), 1)
    west = CardPlayed(1, Card.parse("3D"), 1)
    assert narrate([mine, west], phrases_for("fr")) == [
        "  Vous (Sud)         jouez 2C  la Vache", "  Ouest              joue 3D  Monsieur"]
    assert narrate([mine, west], phrases_for("it")) == [
        "  Tu (Sud)           giochi 2C  la Vache / due di coppe",
        "  Ovest              gioca 3D  Monsieur / tre di denari"]


def test_an_unknown_language_is_refused_by_name():
    with pytest.raises(NarrationError, match="'de'.*fr, en, it"):
        narrate_in([], "de")


def test_the_play_page_tells_events_in_the_sessions_language():
    from trainer.ui.settings import Language
    from trainer.ui.table_events import told

    _, events = _seeded_game("vendee", 4, 3)
    for language in Language:
        assert told(events, language) == narrate_in(events, language.value, 4)
    assert told(events, Language.FRENCH) != told(events, Language.ENGLISH)


def test_aluette_play_language_fr_over_stdin():
    """The command tells the game in French (the prompts stay English); without the flag, English."""
    def run(*flags: str) -> str:
        proc = subprocess.run(
            [sys.executable, "-m", "trainer.cli", "play", "--seed", "4", "--bot", "random", *flags],
            input="1\n" * 3000, capture_output=True, text=True, cwd=REPO, timeout=120,
        )
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    french, english = run("--language", "fr"), run()
    assert "=== Partie terminée : " in french and "Game over" not in french
    assert re.search(r"  Vous \(Sud\) +jouez ", french)  # the line may follow the '> ' prompt
    assert re.search(r"^--- Score : votre équipe \d+, adversaires \d+", french, re.MULTILINE)
    for english_only in (" plays ", " goes to ", "=== Deal ", "--- Score:", "Game over", "signs to you"):
        assert english_only not in french
    assert "Game over" in english and " plays " in english
    # The same game (same seed, same input): the same tricks told.
    tricks = len(re.findall(r"Trick \d+ (?:goes to|is spoiled)", english))
    assert len(re.findall(r"Le pli \d+ (?:va à|est pour vous|est pourri)", french)) == tricks > 0


def test_the_terminal_refuses_an_unknown_language():
    from trainer.rules.ruleset import Ruleset
    from trainer.terminal import play

    with pytest.raises(NarrationError):
        play(Ruleset(), 1, "simple", io.StringIO(""), io.StringIO(), language="de")


def test_the_signs_seen_are_told_in_each_language():
    """The partner's signs and the opponents' caught ones (the table's, not the engine's events) are
    worded by the same classes: as many in each language, the sign by its name there."""
    from trainer.rules.ruleset import Ruleset
    from trainer.terminal import play

    told = {}
    for language in LANGUAGES:
        out = io.StringIO()
        play(Ruleset(), 5, None, io.StringIO("1\n" * 600), out, language=language)
        told[language] = out.getvalue()
    english = re.findall(r"\[sign\] (.*)", told["en"])
    assert english and any("signs to you" in line for line in english) and any("You caught" in line for line in english)
    for language, tag in (("fr", "[signe] "), ("it", "[segno] ")):
        lines = [line.split(tag, 1)[1] for line in told[language].splitlines() if tag in line]
        assert len(lines) == len(english)
        assert not [line for line in lines if _ENGLISH_WORD.search(line)], lines[:3]
    assert "  [signe] Nord (partenaire) vous fait signe : " in told["fr"]
    assert "  [segno] Nord (compagno) ti fa segno: " in told["it"]
    italian = [line.split("[segno] ", 1)[1] for line in told["it"].splitlines() if "[segno] " in line]
    aces = [("un as / an ace" in en, "un asso" in it) for en, it in zip(english, italian, strict=False)]
    assert any(a for a, _ in aces) and all(a == b for a, b in aces)  # Sign.italian, not the French name
