"""The terminal's narration of a game, in English, French or Italian: one :class:`~trainer.rules.events.Phrases`
class per language, telling the engine's typed events (:mod:`trainer.rules.events`) to the person at
seat 0 ("you"), with only the cards that seat may see.

Card names come from the cards themselves (:meth:`Card.name_in`, French first as everywhere in the
app); seats, teams, the verbs that agree with them and the deal's result from
:mod:`trainer.narration.words`, which has each language's own words. :func:`narrate_in` is what the
terminal and the Play page call.

Imports the rules and signals layers only (no Streamlit), so the terminal and the UI share it.
"""

from __future__ import annotations

from typing import Any

from trainer.narration.words import TableWords, capital, words_for
from trainer.rules import events as ev
from trainer.rules.actions import Declaration
from trainer.rules.cards import Card
from trainer.rules.errors import RulesError
from trainer.rules.game import DealEnd

LANGUAGES = ("fr", "en", "it")
"""The languages the narration speaks (the app's and the quiz's languages)."""


class NarrationError(RulesError):
    """A language the narration does not speak: names it and the choices."""


SEAT_NAMES = {0: "You (South)", 1: "West", 2: "North (partner)", 3: "East"}
USER = 0


def card_label(card: Card) -> str:
    """``"2C  la Vache / the Cow"``."""
    return f"{card.value:<3} {card.name_in('fr')} / {card.name_in('en')}"


def hand_words(cards, language: str = "en") -> str:
    """A hand in words, French names first (``"Madame (Mistress), roi de bâton (king of batons)"``),
    never in codes: what a player reads at the table."""
    def one(card: Card) -> str:
        french, other = card.name_in("fr"), card.name_in(language)
        return french if language == "fr" or other == french else f"{french} ({other})"

    return ", ".join(one(card) for card in cards)


def _english(players: int) -> TableWords:
    return words_for("en", players, partner_tag=True)


def seat_name(seat: int, players: int = 4) -> str:
    """``"You (South)"``, ``"North (partner)"``, ``"West"``: the seat as seen from the person's chair."""
    return _english(players).seat(seat)


class TerminalPhrases:
    """How the terminal tells each event (:func:`trainer.rules.events.narrate`) to the person at
    seat 0: "you" for that seat, only the cards that seat may see (its own hand, its own chant).
    Seats and teams are named for the table's size (``players``)."""

    def __init__(self, players: int = 4) -> None:
        self.players = players

    def sign_seen(self, seat: int, caught: bool, event) -> list[str]:
        """A sign the person saw: caught from an opponent, or made to them by their partner (signs
        are not the engine's events: the table reports them, the narrator only words them)."""
        sign = sign_text(event.signal) + words_text(event)
        if caught:
            return [f"  [sign] You caught {seat_name(seat, self.players)}'s sign: {sign}"]
        return [f"  [sign] {seat_name(seat, self.players)} signs to you: {sign}"]

    def dealer_chosen(self, e: ev.DealerChosen) -> list[str]:
        how = f" (Madame turned up for {'you' if e.dealer == USER else 'them'})" if e.face_up else ""
        return [f"{seat_name(e.dealer, self.players)} deal{'' if e.dealer == USER else 's'} first{how}."]

    def cards_dealt(self, e: ev.CardsDealt) -> list[str]:
        verb = "deal" if e.dealer == USER else "deals"
        return [
            "",
            f"=== Deal {e.deal}: {seat_name(e.dealer, self.players)} {verb}"
            + (", three cards at a time ===" if self.players == 4 else " ==="),
            "Your hand: " + hand_words(sorted(e.hands[USER], key=lambda c: c.index), "en"),
        ]

    def chant_voted(self, e: ev.ChantVoted) -> list[str]:
        vote = "vote" if e.seat == USER else "votes"
        return [f"{seat_name(e.seat, self.players)} {vote} {'for' if e.agree else 'against'} the chant."]

    def chant_decided(self, e: ev.ChantDecided) -> list[str]:
        return [] if e.played else ["No chant: the talon stays unseen."]

    def chant_dealt(self, e: ev.ChantDealt) -> list[str]:
        return [
            "Chant: you receive " + " ".join(c.value for c in cards) + "; discard 6." if s == USER
            else f"Chant: {seat_name(s, self.players)} receives 6 talon cards."
            for s, cards in zip(e.receivers, e.received, strict=False)
        ]

    def card_discarded(self, e: ev.CardDiscarded) -> list[str]:
        if e.seat == USER:
            return [f"You discard {e.card.value}."]
        # Another seat's discards are face down: say once that they were made.
        return [f"{seat_name(e.seat, self.players)} discards six cards face down."] if e.number == 1 else []

    def declared(self, e: ev.Declared) -> list[str]:
        words = {
            Declaration.PASS: "pass", Declaration.MORDIENNE: "announce mordienne",
            Declaration.GIVE_UP: "offer to give the deal up",
        }[e.declaration]
        return [f"{seat_name(e.seat, self.players)}: {words}."]

    def answered(self, e: ev.Answered) -> list[str]:
        return [f"{seat_name(e.seat, self.players)}: {'accept' if e.accept else 'refuse'}."]

    def card_played(self, e: ev.CardPlayed) -> list[str]:
        return [f"  {seat_name(e.seat, self.players):<16} plays {card_label(e.card)}"]

    def trick_ended(self, e: ev.TrickEnded) -> list[str]:
        if e.winner is None:  # spoiled
            return [f"  Trick {e.trick.number} is spoiled (pourri): equal highest cards; nobody wins it."]
        return [f"  Trick {e.trick.number} goes to {seat_name(e.winner, self.players)}."]

    def deal_scored(self, e: ev.DealScored) -> list[str]:
        result = e.result
        lines = [""]
        if result.end is DealEnd.PLAYED:
            won = ", ".join(f"{seat_name(s, self.players)} {n}" for s, n in enumerate(result.tricks_won))
            lines.append(f"--- Deal {result.deal} over. Tricks: {won}.")
        lines.append(f"--- {deal_summary(result, self.players)}")
        lines.append(f"--- Score: {score_text(e.scores, self.players)}"
                     + (f" (game to {e.target})" if e.target else f" (after {e.deals_played} of {e.deals} deals)"))
        return lines

    def game_over(self, e: ev.GameOver) -> list[str]:
        outcome = e.outcome
        return [f"=== Game over: {outcome_verdict(outcome, self.players)} "
                f"Final score {' - '.join(map(str, outcome.scores))} ==="]


def score_text(scores, players: int = 4) -> str:
    """``your team 2, opponents 3`` (four), ``you 1, West 3, East 0`` (three), the pairs at six."""
    if players == 4:
        return f"your team {scores[0]}, opponents {scores[1]}"
    words = _english(players)
    return ", ".join(f"{words.team(team)} {score}" for team, score in enumerate(scores))


def outcome_verdict(outcome, players: int = 4) -> str:
    if outcome.winner is None:
        return "It's a draw."
    if outcome.winner == 0:
        return "You win the game!" if players == 3 else "Your team wins the game!"
    return _won(_english(players), outcome.winner, "the game")


def _won(words: TableWords, team: int, game: str) -> str:
    """``The opponents win the game.``: another team's win, the verb agreeing with it."""
    return f"{capital(words.team(team))} {words.verb('win', words.team_person(team))} {game}."


def deal_summary(result, players: int = 4) -> str:
    """How the deal ended and who scored, in English (:meth:`TableWords.deal_result`)."""
    return _english(players).deal_result(result)


def sign_text(signal, language: str = "en") -> str:
    """``"le Borgne / the One-eyed"``, ``"un as / an ace x2"`` in English; the sign's own name in
    French (``le Borgne``) and Italian (``un asso``)."""
    sign = signal.sign
    french = getattr(sign, "french", None) or str(getattr(sign, "value", sign))
    if language == "en":
        english = getattr(sign, "english", None)
        text = f"{french} / {english}" if english else french
    else:
        text = getattr(sign, "italian", french) if language == "it" else french
    return text + (f" x{signal.count}" if getattr(signal, "count", 1) > 1 else "")


_LEVEL_GROUPS = {
    "en": {9: "an ace", 10: "a king", 11: "a cavalier", 12: "a valet"},
    "fr": {9: "un as", 10: "un roi", 11: "un cavalier", 12: "un valet"},
    "it": {9: "un asso", 10: "un re", 11: "un cavallo", 12: "un fante"},
}
_LEVEL_OF = {"en": "a card of level {}", "fr": "une carte de niveau {}", "it": "una carta di livello {}"}


def levels_text(levels, language: str = "en") -> str:
    """What each announced level names: the card itself (``le Borgne / the One-eyed``) or its
    group (``a king``)."""
    parts = []
    for level in levels:
        cards = [c for c in Card if c.level == level]
        if len(cards) == 1:
            card = cards[0]
            parts.append(card.name_in("fr") if language == "fr" else f"{card.name_in('fr')} / {card.name_in(language)}")
        else:
            parts.append(_LEVEL_GROUPS[language].get(level, _LEVEL_OF[language].format(level)))
    return ", ".join(parts)


_ALOUD = {"en": ", then aloud: ", "fr": ", puis à voix haute : ", "it": ", poi a voce: "}


def words_text(event, language: str = "en") -> str:
    """``, then aloud: en dessous (a king)``: the words told after a sign, with the cards they name."""
    words = getattr(event, "announcements", ())
    if not words:
        return ""
    from trainer.signals.relative import format_message

    return f"{_ALOUD[language]}{format_message(words)} ({levels_text(event.levels, language)})"


EnglishPhrases = TerminalPhrases
"""The English narration (the terminal's first, pinned byte for byte by its tests)."""

class _Localized:
    """The French and Italian narrations: one set of methods, each language's sentences in its own
    table (:data:`_FRENCH`, :data:`_ITALIAN`). Verbs are ``(you, other)`` pairs: the person is
    addressed (*vous*, *tu*), every other seat is spoken of; names come from
    :mod:`trainer.narration.words`."""

    language = ""
    say: dict[str, Any] = {}

    def __init__(self, players: int = 4) -> None:
        self.players = players
        self.words = words_for(self.language, players, partner_tag=True)

    def seat(self, seat: int) -> str:
        """``Vous (Sud)``, ``Nord (partenaire)``, ``Ouest``."""
        return self.words.seat(seat)

    def team(self, team: int) -> str:
        return self.words.team(team)

    def summary(self, result) -> str:
        """How the deal ended and who scored (:meth:`TableWords.deal_result`)."""
        return self.words.deal_result(result)

    def card(self, card: Card) -> str:
        """``2C  la Vache``; in Italian the French name first, then the Italian one."""
        if self.language == "fr":
            return f"{card.value:<3} {card.name_in('fr')}"
        return f"{card.value:<3} {card.name_in('fr')} / {card.name_in(self.language)}"

    @staticmethod
    def codes(cards) -> str:
        return " ".join(c.value for c in cards)

    def who(self, seat: int) -> str:
        """The seat as a subject inside a sentence: ``vous`` / ``tu`` for the person."""
        return self.words.who(seat)

    def _verb(self, seat: int, verb: tuple[str, str]) -> str:
        """The seat and its verb: ``Vous (Sud) donnez``, ``Ouest donne``."""
        return f"{self.seat(seat)} {verb[0] if seat == USER else verb[1]}"

    def of(self, name: str) -> str:
        """``de Nord``, ``d'Ouest``: a seat's name after "of"."""
        return self.say["of"].format(name=name)

    def sign_seen(self, seat: int, caught: bool, event) -> list[str]:
        """A sign the person saw: caught from an opponent, or made to them by their partner."""
        sign = sign_text(event.signal, self.language) + words_text(event, self.language)
        name = self.seat(seat)
        return [self.say["caught" if caught else "signs_to_you"].format(of=self.of(name), seat=name, sign=sign)]

    def dealer_chosen(self, e: ev.DealerChosen) -> list[str]:
        how = self.say["madame"].format(whom=self.say["madame_for"][e.dealer != USER]) if e.face_up else ""
        return [self.say["dealer"].format(sv=self._verb(e.dealer, self.say["deals"]), how=how)]

    def cards_dealt(self, e: ev.CardsDealt) -> list[str]:
        head = self.say["deal_head"].format(deal=e.deal, sv=self._verb(e.dealer, self.say["deals"]))
        return [
            "",
            head + (self.say["three_at_a_time"] if self.players == 4 else " ==="),
            self.say["hand"] + hand_words(sorted(e.hands[USER], key=lambda c: c.index), self.language),
        ]

    def chant_voted(self, e: ev.ChantVoted) -> list[str]:
        side = self.say["for_against"][0 if e.agree else 1]
        return [self.say["vote"].format(sv=self._verb(e.seat, self.say["votes"]), side=side)]

    def chant_decided(self, e: ev.ChantDecided) -> list[str]:
        return [] if e.played else [self.say["no_chant"]]

    def chant_dealt(self, e: ev.ChantDealt) -> list[str]:
        return [
            self.say["chant_you"].format(codes=self.codes(cards)) if s == USER
            else self.say["chant_other"].format(seat=self.seat(s))
            for s, cards in zip(e.receivers, e.received, strict=False)
        ]

    def card_discarded(self, e: ev.CardDiscarded) -> list[str]:
        if e.seat == USER:
            return [self.say["discard_you"].format(card=e.card.value)]
        # Another seat's discards are face down: say once that they were made.
        return [self.say["discard_other"].format(seat=self.seat(e.seat))] if e.number == 1 else []

    def declared(self, e: ev.Declared) -> list[str]:
        return [f"{self._verb(e.seat, self.say['declarations'][e.declaration])}."]

    def answered(self, e: ev.Answered) -> list[str]:
        return [f"{self._verb(e.seat, self.say['answers'][e.accept])}."]

    def card_played(self, e: ev.CardPlayed) -> list[str]:
        verb = self.say["plays"][0 if e.seat == USER else 1]
        return [f"  {self.seat(e.seat):<18} {verb} {self.card(e.card)}"]

    def trick_ended(self, e: ev.TrickEnded) -> list[str]:
        if e.winner is None:  # spoiled
            return [self.say["spoiled"].format(n=e.trick.number)]
        if e.winner == USER:
            return [self.say["trick_yours"].format(n=e.trick.number)]
        return [self.say["trick_to"].format(n=e.trick.number, seat=self.seat(e.winner))]

    def score(self, scores) -> str:
        if self.players == 4:
            return self.say["score4"].format(*scores)
        return ", ".join(f"{self.team(t)} {s}" for t, s in enumerate(scores))

    def deal_scored(self, e: ev.DealScored) -> list[str]:
        result = e.result
        lines = [""]
        if result.end is DealEnd.PLAYED:
            won = ", ".join(f"{self.seat(s)} {n}" for s, n in enumerate(result.tricks_won))
            lines.append(self.say["deal_over"].format(deal=result.deal, won=won))
        lines.append(f"--- {self.summary(result)}")
        until = (self.say["target"].format(target=e.target) if e.target
                 else self.say["deals_played"].format(played=e.deals_played, deals=e.deals))
        lines.append(self.say["score_line"].format(score=self.score(e.scores)) + until)
        return lines

    def verdict(self, outcome) -> str:
        if outcome.winner is None:
            return self.say["draw"]
        if outcome.winner == 0:
            return self.say["you_win"] if self.players == 3 else self.say["your_team_wins"]
        return _won(self.words, outcome.winner, self.say["the_game"])

    def game_over(self, e: ev.GameOver) -> list[str]:
        return [self.say["game_over"].format(verdict=self.verdict(e.outcome),
                                             scores=" - ".join(map(str, e.outcome.scores)))]


_FRENCH: dict[str, Any] = {
    "of": "de {name}",
    "caught": "  [signe] Vous avez surpris le signe {of} : {sign}",
    "signs_to_you": "  [signe] {seat} vous fait signe : {sign}",
    "deals": ("donnez", "donne"),
    "dealer": "{sv} en premier{how}.",
    "madame": " (Madame est sortie pour {whom})",
    "madame_for": ("vous", "lui"),
    "deal_head": "=== Donne {deal} : {sv}",
    "three_at_a_time": ", trois cartes à la fois ===",
    "hand": "Votre main : ",
    "votes": ("votez", "vote"),
    "vote": "{sv} {side} le chant.",
    "for_against": ("pour", "contre"),
    "no_chant": "Pas de chant : le talon reste caché.",
    "chant_you": "Chant : vous recevez {codes} ; écartez-en 6.",
    "chant_other": "Chant : {seat} reçoit 6 cartes du talon.",
    "discard_you": "Vous écartez {card}.",
    "discard_other": "{seat} écarte six cartes face cachée.",
    "declarations": {
        Declaration.PASS: ("passez", "passe"),
        Declaration.MORDIENNE: ("annoncez la mordienne", "annonce la mordienne"),
        Declaration.GIVE_UP: ("proposez d'abandonner la donne", "propose d'abandonner la donne"),
    },
    "answers": {True: ("acceptez", "accepte"), False: ("refusez", "refuse")},
    "plays": ("jouez", "joue"),
    "spoiled": "  Le pli {n} est pourri : cartes les plus fortes à égalité ; personne ne le gagne.",
    "trick_yours": "  Le pli {n} est pour vous.",
    "trick_to": "  Le pli {n} va à {seat}.",
    "score4": "votre équipe {}, adversaires {}",
    "deal_over": "--- Donne {deal} terminée. Plis : {won}.",
    "score_line": "--- Score : {score}",
    "target": " (partie en {target})",
    "deals_played": " (après {played} donnes sur {deals})",
    "draw": "Égalité.",
    "you_win": "Vous gagnez la partie !",
    "your_team_wins": "Votre équipe gagne la partie !",
    "the_game": "la partie",
    "game_over": "=== Partie terminée : {verdict} Score final {scores} ===",
}

_ITALIAN: dict[str, Any] = {
    "of": "di {name}",
    "caught": "  [segno] Hai colto il segno {of}: {sign}",
    "signs_to_you": "  [segno] {seat} ti fa segno: {sign}",
    "deals": ("dai", "dà"),
    "dealer": "{sv} le carte per primo{how}.",
    "madame": " (Madame è uscita per {whom})",
    "madame_for": ("te", "lui"),
    "deal_head": "=== Smazzata {deal}: {sv} le carte",
    "three_at_a_time": ", tre alla volta ===",
    "hand": "La tua mano: ",
    "votes": ("voti", "vota"),
    "vote": "{sv} {side} chant.",
    "for_against": ("a favore del", "contro il"),
    "no_chant": "Niente chant: il tallone resta coperto.",
    "chant_you": "Chant: ricevi {codes}; scartane 6.",
    "chant_other": "Chant: {seat} riceve 6 carte del tallone.",
    "discard_you": "Scarti {card}.",
    "discard_other": "{seat} scarta sei carte coperte.",
    "declarations": {
        Declaration.PASS: ("passi", "passa"),
        Declaration.MORDIENNE: ("annunci la mordienne", "annuncia la mordienne"),
        Declaration.GIVE_UP: ("proponi di abbandonare la smazzata", "propone di abbandonare la smazzata"),
    },
    "answers": {True: ("accetti", "accetta"), False: ("rifiuti", "rifiuta")},
    "plays": ("giochi", "gioca"),
    "spoiled": "  La presa {n} è marcia (pourri): carte più alte pari; nessuno la vince.",
    "trick_yours": "  La presa {n} è tua.",
    "trick_to": "  La presa {n} va a {seat}.",
    "score4": "la tua squadra {}, avversari {}",
    "deal_over": "--- Smazzata {deal} finita. Prese: {won}.",
    "score_line": "--- Punteggio: {score}",
    "target": " (partita a {target})",
    "deals_played": " (dopo {played} smazzate su {deals})",
    "draw": "Pareggio.",
    "you_win": "Hai vinto la partita!",
    "your_team_wins": "La tua squadra vince la partita!",
    "the_game": "la partita",
    "game_over": "=== Partita finita: {verdict} Punteggio finale {scores} ===",
}


class FrenchPhrases(_Localized):
    """The narration in French: the person is *vous*."""

    language, say = "fr", _FRENCH

    def of(self, name: str) -> str:
        """``d'Ouest``, ``de Nord``: French elides before a vowel."""
        return f"d'{name}" if name[0] in "AEIOUÉ" else f"de {name}"


class ItalianPhrases(_Localized):
    """The narration in Italian: the person is *tu*; card names French first, then Italian."""

    language, say = "it", _ITALIAN


Narrator = TerminalPhrases | FrenchPhrases | ItalianPhrases
"""A narration in one language: the engine's events (:class:`~trainer.rules.events.Phrases`) and the signs seen."""

PHRASES: dict[str, type[Narrator]] = {"en": EnglishPhrases, "fr": FrenchPhrases, "it": ItalianPhrases}
"""The narration class of each language in :data:`LANGUAGES`."""


def phrases_for(language: str, players: int = 4) -> Narrator:
    """The narrator speaking ``language`` at a table of ``players``."""
    try:
        return PHRASES[language](players)
    except KeyError:
        raise NarrationError(f"the narration speaks no {language!r}: use one of {', '.join(LANGUAGES)}") from None


def narrate_in(events, language: str = "en", players: int = 4) -> list[str]:
    """The lines telling ``events`` (what :meth:`Game.apply` or ``Table.events`` gives) to the person
    at seat 0, in ``language`` (``"fr"``, ``"en"``, ``"it"``; the Play page passes its setting's value)."""
    return ev.narrate(events, phrases_for(language, players))
