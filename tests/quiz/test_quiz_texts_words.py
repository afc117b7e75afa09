"""trainer.quiz.texts: the words a question shows. A plain card's name in each language with its
code; a sign that means one card names that card's code in every language, a sign of several cards
or of none names no code; a text that reads the same in both languages is shown once. Written
against mutants of texts.py that the suite let pass (docs/mutation.md, 2026-12-02, third run)."""

from __future__ import annotations

import pytest

from trainer.quiz.texts import Text, card_text, sign_text
from trainer.rules.cards import CARDS
from trainer.signals.signs import Sign


def test_a_plain_cards_name_in_each_language_carries_its_code():
    ace = next(card for card in CARDS if card.code == "AD")
    assert not ace.nickname
    assert card_text(ace) == Text("as de deniers (AD)", "ace of coins (AD)", "asso di denari (AD)")
    for card in CARDS:
        if not card.nickname:
            assert card_text(card) == Text(f"{card.french} ({card.code})", f"{card.english} ({card.code})",
                                           f"{card.italian} ({card.code})")


def test_a_sign_of_one_card_names_its_code_in_every_language_others_name_none():
    assert sign_text(Sign.VACHE) == Text("la Vache (2C)", "the Cow (2C)", "la Vache (2C)")
    assert sign_text(Sign.MONSIEUR) == Text("Monsieur (3D)", "Mister (3D)", "Monsieur (3D)")
    for sign in Sign:
        text = sign_text(sign)
        if len(sign.cards) == 1:
            code = f" ({sign.cards[0].code})"
            assert text.fr.endswith(code) and text.en == sign.english + code and text.it == sign.italian + code
        else:
            assert text.en == sign.english and text.it == sign.italian
            assert not any(f"({card.code})" in words for card in CARDS for words in text.all())
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
