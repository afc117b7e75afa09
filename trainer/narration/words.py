"""The words of the table in French, English and Italian: seats, teams, verbs that agree with them,
and the one text of a deal's result (the terminal's narration and the Play page both say it).

Everything is built from typed values — seat numbers, the table's size, a
:class:`~trainer.rules.game.DealResult` — and each language has its own words: compass names, team
names and verb forms are chosen by what a seat or team *is* (the person, one player, several), never
by translating English text or guessing from a name. (The golden playthrough files keep their own
pinned English, ``trainer.rules.saves.PlaythroughPhrases``, told from the same values.)

Imports the rules layer only (no Streamlit, no bots): the terminal and the app both speak through it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from trainer.rules.errors import RulesError
from trainer.rules.game import Contract, DealEnd, DealResult
from trainer.rules.ruleset import Players, Ruleset

PERSON = 0
"""The person's seat: South, "you"."""


class WordsError(RulesError):
    """A language the table's words do not speak: names it and the choices."""


class Person(enum.Enum):
    """What a verb agrees with: the person (you), one player or team, several players."""

    YOU = 0
    ONE = 1
    MANY = 2


_SEATING: dict[int, tuple[str, ...]] = {
    3: ("S", "W", "E"),
    4: ("S", "W", "N", "E"),
    6: ("S", "SW", "NW", "N", "NE", "SE"),
}
"""The compass point of each seat, clockwise from the person's (South), by table size."""


@dataclass(frozen=True, slots=True)
class Lexicon:
    """The words of one language. Verb forms are ``(you, one)`` pairs or ``(you, one, many)``
    triples; sentences are templates filled by :class:`TableWords`."""

    compass: dict[str, str]
    you_label: str
    you_subject: str
    you_object: str
    partner: str
    your_team: str
    opponents: str
    and_: str
    verbs: dict[str, tuple[str, ...]]
    given_up: str
    declined: str
    not_asked: str
    spoiled: str
    took: str
    tied: str
    mordienne: str
    announced: str
    committed: str
    nobody: str
    scores: str


_COMPASS_EN = {"S": "South", "W": "West", "N": "North", "E": "East", "SW": "South-West", "NW": "North-West",
               "NE": "North-East", "SE": "South-East"}
_COMPASS_FR = {"S": "Sud", "W": "Ouest", "N": "Nord", "E": "Est", "SW": "Sud-Ouest", "NW": "Nord-Ouest",
               "NE": "Nord-Est", "SE": "Sud-Est"}
_COMPASS_IT = {"S": "Sud", "W": "Ovest", "N": "Nord", "E": "Est", "SW": "Sud-Ovest", "NW": "Nord-Ovest",
               "NE": "Nord-Est", "SE": "Sud-Est"}

LEXICONS: dict[str, Lexicon] = {
    "en": Lexicon(
        _COMPASS_EN, "You", "you", "you", "partner", "your team", "the opponents", "and",
        {"gave": ("gave", "gave"), "accepted": ("accepted", "accepted"), "announced": ("announced", "announced"),
         "declined": ("declined", "declined"), "took": ("took", "took"), "score": ("score", "scores", "score"),
         "win": ("win", "wins", "win")},
        "{who} {gave} the deal up; {answerer} {accepted} for {team}{asked}. No cards were played.",
        "{who} {announced} mordienne; {answerer} {declined} for {team}{asked}. The deal is not played.",
        " (you were not asked: the player on the announcer’s left answers)",
        "Every trick was spoiled: nobody took a trick.",
        "{who} {took} the most tricks ({best})",
        "; {tied} also took {best}, but {winner} got there first",
        "; mordienne: no trick before, then the last tricks in a row",
        "; mordienne was announced and accepted, so the deal is worth 2",
        "; the give-up was refused, so the refusing team had to make mordienne",
        "Nobody scores.",
        "{team} {score} {points}.",
    ),
    "fr": Lexicon(
        _COMPASS_FR, "Vous", "vous", "vous", "partenaire", "votre équipe", "les adversaires", "et",
        {"gave": ("avez abandonné", "a abandonné"), "accepted": ("avez accepté", "a accepté"),
         "announced": ("avez annoncé", "a annoncé"), "declined": ("avez refusé", "a refusé"),
         "took": ("avez fait", "a fait"), "score": ("marquez", "marque", "marquent"),
         "win": ("gagnez", "gagne", "gagnent")},
        "{who} {gave} la donne ; {answerer} {accepted} pour {team}{asked}. Aucune carte n'a été jouée.",
        "{who} {announced} la mordienne ; {answerer} {declined} pour {team}{asked}. La donne n'est pas jouée.",
        " (on ne vous a pas demandé : le joueur à gauche de l'annonceur répond)",
        "Tous les plis ont été pourris : personne n'a fait de pli.",
        "{who} {took} le plus de plis ({best})",
        " ; autant pour {tied}, mais {winner} d'abord",
        " ; mordienne : aucun pli avant, puis les derniers plis d'affilée",
        " ; la mordienne a été annoncée et acceptée : la donne vaut 2",
        " ; l'abandon a été refusé : l'équipe qui a refusé devait faire la mordienne",
        "Personne ne marque.",
        "{team} {score} {points}.",
    ),
    "it": Lexicon(
        _COMPASS_IT, "Tu", "tu", "te", "compagno", "la tua squadra", "gli avversari", "e",
        {"gave": ("hai abbandonato", "ha abbandonato"), "accepted": ("hai accettato", "ha accettato"),
         "announced": ("hai annunciato", "ha annunciato"), "declined": ("hai rifiutato", "ha rifiutato"),
         "took": ("hai fatto", "ha fatto"), "score": ("segni", "segna", "segnano"),
         "win": ("vinci", "vince", "vincono")},
        "{who} {gave} la smazzata; {answerer} {accepted} per {team}{asked}. Nessuna carta è stata giocata.",
        "{who} {announced} la mordienne; {answerer} {declined} per {team}{asked}. La smazzata non si gioca.",
        " (non ti è stato chiesto: risponde il giocatore alla sinistra di chi ha annunciato)",
        "Tutte le prese sono marce: nessuno ha fatto una presa.",
        "{who} {took} più prese ({best})",
        "; altrettante per {tied}, ma {winner} per primo",
        "; mordienne: nessuna presa prima, poi le ultime prese di fila",
        "; la mordienne è stata annunciata e accettata: la smazzata vale 2",
        "; l'abbandono è stato rifiutato: la squadra che ha rifiutato doveva fare la mordienne",
        "Nessuno segna.",
        "{team} {score} {points}.",
    ),
}


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def answerer_of(seat: int, players: int) -> int:
    """Who answers a declaration made by ``seat``: the player on its left, for the other team
    (RULES.md, Declarations; the engine's ``Game._ask_answer``)."""
    return (seat + 1) % players


@dataclass(frozen=True, slots=True)
class TableWords:
    """The table's words in ``language`` (``"fr"``, ``"en"``, ``"it"``) at a table of ``players``.
    ``partner_tag``: name the partner's seat with its role (``North (partner)``), as the terminal
    does; the Play page draws the seats and names them plainly."""

    language: str = "en"
    players: int = 4
    partner_tag: bool = False

    def __post_init__(self) -> None:
        if self.language not in LEXICONS:
            raise WordsError(f"the table speaks no {self.language!r}: use one of {', '.join(LEXICONS)}")
        if self.players not in _SEATING:
            raise WordsError(f"a table seats {', '.join(map(str, _SEATING))} players, not {self.players!r}")

    @property
    def lex(self) -> Lexicon:
        return LEXICONS[self.language]

    @property
    def rules(self) -> Ruleset:
        return Ruleset(players=Players(self.players))

    # -- seats ------------------------------------------------------------------------------------

    def compass(self, seat: int) -> str:
        """``South``, ``Nord-Ouest``: the seat's compass name in this language."""
        return self.lex.compass[_SEATING[self.players][seat]]

    def is_partner(self, seat: int) -> bool:
        return seat != PERSON and seat in self.rules.partners(PERSON)

    def seat(self, seat: int) -> str:
        """The seat as a label: ``You (South)``, ``North (partner)`` (with :attr:`partner_tag`), ``West``."""
        if not 0 <= seat < self.players:
            return f"seat {seat}" if self.language == "en" else f"{seat}"
        name = self.compass(seat)
        if seat == PERSON:
            return f"{self.lex.you_label} ({name})"
        return f"{name} ({self.lex.partner})" if self.partner_tag and self.is_partner(seat) else name

    def who(self, seat: int) -> str:
        """The seat as a subject inside a sentence: ``you`` / ``vous`` / ``tu`` for the person."""
        return self.lex.you_subject if seat == PERSON else self.seat(seat)

    def whom(self, seat: int) -> str:
        """The seat as an object: ``you`` / ``vous`` / ``te``."""
        return self.lex.you_object if seat == PERSON else self.seat(seat)

    @staticmethod
    def person_of(seat: int) -> Person:
        return Person.YOU if seat == PERSON else Person.ONE

    def verb(self, verb: str, person: Person) -> str:
        """``verb`` agreeing with ``person`` (a pair gives the plural its third-person form)."""
        forms = self.lex.verbs[verb]
        return forms[min(person.value, len(forms) - 1)]

    def join(self, items: list[str]) -> str:
        """``a``, ``a and b``, ``a, b and c`` in this language."""
        if len(items) <= 1:
            return "".join(items)
        return ", ".join(items[:-1]) + f" {self.lex.and_} " + items[-1]

    # -- teams ------------------------------------------------------------------------------------

    def team_person(self, team: int) -> Person:
        """What a team's verb agrees with: the person alone, one player or one team, several players."""
        seats = self.rules.team_seats(team)
        if PERSON in seats:
            return Person.YOU if len(seats) == 1 else Person.ONE
        return Person.ONE if len(seats) == 1 else Person.MANY

    def team(self, team: int) -> str:
        """``your team`` / ``the opponents`` at four; ``you`` / ``West`` at three; the pairs at six."""
        rules = self.rules
        seats = rules.team_seats(team)
        if PERSON in seats:
            return self.lex.you_subject if len(seats) == 1 else self.lex.your_team
        if len(seats) == 1:
            return self.compass(seats[0])
        if rules.team_count == 2:
            return self.lex.opponents
        return self.join([self.compass(s) for s in seats])

    # -- the deal's result --------------------------------------------------------------------------

    def points(self, result: DealResult) -> str:
        """``Your team scores 1.``, ``The opponents score 2.``, ``Nobody scores.``"""
        scored = [(team, n) for team, n in enumerate(result.points) if n]
        if not scored:
            return self.lex.nobody
        return " ".join(
            self.lex.scores.format(team=capital(self.team(team)), score=self.verb("score", self.team_person(team)),
                                   points=n)
            for team, n in scored)

    def deal_result(self, result: DealResult) -> str:
        """How the deal ended and why it scored what it did: the one text of a deal's result."""
        lex = self.lex
        if result.end is DealEnd.GIVEN_UP or result.end is DealEnd.MORDIENNE_DECLINED:
            return f"{self._declared(result)} {self.points(result)}"
        if result.deal_winner is None:
            return f"{lex.spoiled} {self.points(result)}"
        winner = result.deal_winner
        best = result.tricks_won[winner]
        text = lex.took.format(who=capital(self.who(winner)), took=self.verb("took", self.person_of(winner)),
                               best=best)
        tied = [self.whom(s) for s, n in enumerate(result.tricks_won) if n == best and s != winner]
        if tied:
            text += lex.tied.format(tied=self.join(tied), best=best, winner=self.who(winner))
        if result.mordienne:
            text += lex.mordienne
        if result.contract is Contract.ANNOUNCED:
            text += lex.announced
        elif result.contract is Contract.COMMITTED:
            text += lex.committed
        return f"{text}. {self.points(result)}"

    def _declared(self, result: DealResult) -> str:
        """A deal given up, or its announced mordienne declined: who declared, who answered for whom."""
        seat = result.declared_by if result.declared_by is not None else PERSON
        answerer = answerer_of(seat, self.players)
        team = self.rules.team_of(answerer)
        asked = self.lex.not_asked if answerer != PERSON and team == self.rules.team_of(PERSON) else ""
        given_up = result.end is DealEnd.GIVEN_UP
        template = self.lex.given_up if given_up else self.lex.declined
        return template.format(
            who=capital(self.who(seat)), answerer=self.who(answerer), team=self.team(team), asked=asked,
            gave=self.verb("gave", self.person_of(seat)), announced=self.verb("announced", self.person_of(seat)),
            accepted=self.verb("accepted", self.person_of(answerer)),
            declined=self.verb("declined", self.person_of(answerer)),
        )


def words_for(language: str, players: int = 4, *, partner_tag: bool = False) -> TableWords:
    """The table's words in ``language`` at a table of ``players`` (:class:`WordsError` otherwise)."""
    return TableWords(language, players, partner_tag)
