"""The table's words (trainer.narration.words): seats from the table's size, verbs agreeing with what
a seat or team is, and one text of a deal's result shared by the terminal and the Play page."""

from __future__ import annotations

import re

import pytest

from trainer.bots.table_setup import seat_names, team_names
from trainer.narration import FrenchPhrases, ItalianPhrases, deal_summary
from trainer.narration.words import TableWords, WordsError, answerer_of, words_for
from trainer.rules.game import Contract, DealEnd, DealResult
from trainer.ui import table_talk
from trainer.ui.settings import Language


def _result(end: DealEnd, *, winner: int | None = 1, won=(2, 4, 1, 2), points=(0, 1), contract=Contract.NORMAL,
            declared_by: int | None = None, mordienne: bool = False) -> DealResult:
    return DealResult(3, 0, False, end, (), tuple(won), winner, mordienne, tuple(points), contract, declared_by)


@pytest.mark.parametrize("players", [3, 4, 6])
def test_the_english_compass_is_the_table_setups_and_every_seat_has_a_name_in_every_language(players):
    english = words_for("en", players)
    assert tuple(english.compass(s) for s in range(players)) == seat_names(players)
    assert tuple(english.team(t) for t in range(english.rules.team_count)) == team_names(players)
    for language in ("fr", "it"):
        names = [words_for(language, players).compass(s) for s in range(players)]
        assert len(set(names)) == players and names[1] != seat_names(players)[1]  # Ouest, Ovest: not "West"


def test_the_answerer_sits_on_the_announcers_left_at_any_size():
    assert [answerer_of(s, 4) for s in range(4)] == [1, 2, 3, 0]
    assert [answerer_of(s, 6) for s in range(6)] == [1, 2, 3, 4, 5, 0]


@pytest.mark.parametrize("language, pair, alone, you", [
    ("en", "North-West and South-East score 1.", "West scores 1.", "You score 1."),
    ("fr", "Nord-Ouest et Sud-Est marquent 1.", "Ouest marque 1.", "Vous marquez 1."),
    ("it", "Nord-Ovest e Sud-Est segnano 1.", "Ovest segna 1.", "Tu segni 1."),
])
def test_verbs_agree_with_what_the_team_is_not_with_its_name(language, pair, alone, you):
    # At six the team of seats 2 and 5 is a pair (plural); at three each seat is a team of one.
    six = words_for(language, 6)
    team = six.rules.team_of(2)
    points = tuple(1 if t == team else 0 for t in range(3))
    assert six.points(_result(DealEnd.PLAYED, winner=2, won=(1, 1, 4, 1, 1, 1), points=points)) == pair
    three = words_for(language, 3)
    assert three.points(_result(DealEnd.PLAYED, winner=1, won=(1, 4, 1), points=(0, 1, 0))) == alone
    assert three.points(_result(DealEnd.PLAYED, winner=0, won=(4, 1, 1), points=(1, 0, 0))) == you


def test_a_declined_mordienne_names_who_answered_for_which_team_in_each_language():
    declined = _result(DealEnd.MORDIENNE_DECLINED, winner=None, won=(0, 0, 0, 0), points=(0, 1), declared_by=1)
    assert words_for("en", 4, partner_tag=True).deal_result(declined) == (
        "West announced mordienne; North (partner) declined for your team (you were not asked: the player on the "
        "announcer’s left answers). The deal is not played. The opponents score 1.")
    assert words_for("fr", 4).deal_result(declined).startswith(
        "Ouest a annoncé la mordienne ; Nord a refusé pour votre équipe (on ne vous a pas demandé")
    assert words_for("it", 4).deal_result(declined).startswith(
        "Ovest ha annunciato la mordienne; Nord ha rifiutato per la tua squadra (non ti è stato chiesto")
    mine = _result(DealEnd.GIVEN_UP, winner=None, won=(0, 0, 0, 0), points=(0, 1), declared_by=0)
    assert words_for("fr", 4).deal_result(mine).startswith(
        "Vous avez abandonné la donne ; Ouest a accepté pour les adversaires.")


_ENGLISH = re.compile(r"\b(the|and|you|your|team|trick|tricks|deal|took|first|scores?|nobody|opponents|"
                      r"west|north|east|south|partner|announced|declined|accepted|spoiled)\b", re.IGNORECASE)

RESULTS = [
    _result(DealEnd.PLAYED),
    _result(DealEnd.PLAYED, winner=0, won=(4, 4, 1, 0), points=(2, 0), mordienne=True, contract=Contract.ANNOUNCED),
    _result(DealEnd.PLAYED, winner=3, won=(2, 2, 1, 3), contract=Contract.COMMITTED, points=(0, 2)),
    _result(DealEnd.PLAYED, winner=None, won=(0, 0, 0, 0), points=(0, 0)),
    _result(DealEnd.GIVEN_UP, winner=None, won=(0, 0, 0, 0), points=(1, 0), declared_by=3),
    _result(DealEnd.MORDIENNE_DECLINED, winner=None, won=(0, 0, 0, 0), points=(1, 0), declared_by=2),
]


@pytest.mark.parametrize("result", RESULTS, ids=lambda r: f"{r.end.value}-{r.contract.value}-{r.deal_winner}")
def test_every_result_is_told_in_each_language_without_english(result):
    english = words_for("en", 4).deal_result(result)
    assert "seat" not in english
    for language in ("fr", "it"):
        text = words_for(language, 4).deal_result(result)
        assert text != english
        assert not _ENGLISH.findall(text), (language, text)


def test_the_terminal_and_the_play_page_say_one_result():
    tied = _result(DealEnd.PLAYED, winner=1, won=(1, 4, 0, 4), points=(0, 1))
    assert deal_summary(tied) == words_for("en", 4, partner_tag=True).deal_result(tied)
    assert "West took the most tricks (4); East also took 4, but West got there first" in deal_summary(tied)
    # The Play page names the partner without its role (the seats are drawn), else the same words.
    for language, phrases in ((Language.FRENCH, FrenchPhrases), (Language.ITALIAN, ItalianPhrases)):
        assert table_talk.deal_result_text(tied, 4, language) == phrases(4).summary(tied)
    assert table_talk.deal_result_text(tied, 4) == deal_summary(tied)


def test_an_unknown_language_or_table_size_is_refused_by_name():
    with pytest.raises(WordsError, match="'de'.*fr, en, it|'de'.*en, fr, it"):
        TableWords("de")
    with pytest.raises(WordsError, match="not 5"):
        words_for("en", 5)
