"""trainer.quiz.texts: the words a question shows. A plain card's name in each language with its
code; a sign that means one card names that card's code in every language, a sign of several cards
or of none names no code; a text that reads the same in both languages is shown once. Written
against mutants of texts.py that the suite let pass (docs/mutation.md, 2026-12-02, third run)."""

from __future__ import annotations

import pytest

from trainer.quiz.texts import Text, card_text, sign_text
from trainer.rules.cards import CARDS
from trainer.signals.signs import Sign


def _codes_in(words: str) -> list[str]:
    """Card codes standing as words in a text ("3D", "(2C)"), which a learner should never see."""
    import re

    codes = {card.code for card in CARDS}
    return [w for w in re.findall(r"\b[0-9AVCR][DCBE]\b", words) if w in codes]


def test_a_cards_name_in_each_language_is_its_name_never_its_code():
    ace = next(card for card in CARDS if card.code == "AD")
    assert not ace.nickname
    assert card_text(ace) == Text("as de deniers", "ace of coins", "asso di denari")
    for card in CARDS:
        if not card.nickname:
            assert card_text(card) == Text(card.french, card.english, card.italian)
        assert not [w for words in card_text(card).all() for w in _codes_in(words)], card


def test_a_sign_is_named_by_its_words_never_by_card_codes():
    assert sign_text(Sign.VACHE) == Text("la Vache", "the Cow", "la Vache")
    assert sign_text(Sign.MONSIEUR) == Text("Monsieur", "Mister", "Monsieur")
    for sign in Sign:
        text = sign_text(sign)
        assert text.en == sign.english and text.it == sign.italian
        assert not [w for words in text.all() for w in _codes_in(words)], sign
    assert sign_text(Sign.MONSIEUR_ET_MADAME) == Text("Monsieur et Madame", "Mister and Mistress", "Monsieur e Madame")


@pytest.mark.parametrize(("language", "shown"), [("fr", "Vache"), ("en", "Vache"), ("it", "Vache")])
def test_words_that_read_the_same_in_both_languages_are_shown_once(language, shown):
    assert Text("Vache", "Vache", "Vache").show(language) == shown


def test_words_that_differ_are_shown_with_the_other_language_beside():
    text = Text("la Vache", "the Cow", "la Vacca")
    assert [text.show(language) for language in ("fr", "en", "it")] == [
        "la Vache — the Cow", "the Cow — la Vache", "la Vacca — la Vache"]
    # Italian beside French only when they differ, whatever the English says
    assert Text("Monsieur", "Mister", "Monsieur").show("it") == "Monsieur"
    assert Text("as", "as", "asso").show("en") == "as"
