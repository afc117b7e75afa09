"""The 48 cards, their notation, names, groups and the 19 strength levels (RULES.md "Cards")."""

from __future__ import annotations

import pytest

from trainer.rules.cards import CARDS, LEVEL, STRENGTH, Card, Group, cards_at_level, format_cards
from trainer.rules.errors import CardError

# RULES.md "Cards", strength table: level -> cards, strongest first.
LEVELS = {
    1: "3D", 2: "3C", 3: "2D", 4: "2C", 5: "9C", 6: "9D", 7: "2B", 8: "2E",
    9: "AD AC AB AE", 10: "RD RC RB RE", 11: "CD CC CB CE", 12: "VD VC VB VE",
    13: "9E 9B", 14: "8D 8C 8B 8E", 15: "7D 7C 7B 7E", 16: "6D 6C 6B 6E",
    17: "5D 5C 5B 5E", 18: "4D 4C 4B 4E", 19: "3E 3B",
}


def test_48_cards_in_19_levels_as_the_rules_table():
    assert len(CARDS) == 48 and len(set(CARDS)) == 48
    for level, codes in LEVELS.items():
        assert set(cards_at_level(level)) == set(Card.parse_many(codes.split())), level
    assert sum(len(c.split()) for c in LEVELS.values()) == 48
    # Indices run strongest first; strength = 20 - level.
    assert list(LEVEL) == sorted(LEVEL)
    assert all(STRENGTH[i] == 20 - LEVEL[i] for i in range(48))


def test_single_cards_never_tie_and_equal_levels_do():
    """RULES.md "Cards": levels 1-8 are single cards; equal cards from level 9 down tie."""
    for level in range(1, 9):
        assert len(cards_at_level(level)) == 1
    assert Card.parse("AD").ties(Card.parse("AE")) and not Card.parse("AD").beats(Card.parse("AE"))
    assert Card.parse("3D").beats(Card.parse("3C")) and Card.parse("3B").ties(Card.parse("3E"))


def test_groups_and_names():
    assert Card.MONSIEUR.group is Group.LUETTES and Card.VACHE.group is Group.LUETTES
    assert Card.GRAND_NEUF.group is Group.DOUBLES and Card.DEUX_D_ECRIT.group is Group.DOUBLES
    assert Card.parse("VB").group is Group.FIGURES and Card.parse("9E").group is Group.BIGAILLES
    assert Card.VACHE.name_in("fr") == "la Vache" and Card.VACHE.name_in("en") == "the Cow"
    assert Card.parse("RB").name_in("fr") == "roi de bâton"
    assert Card.parse("5D").nickname == "bise-dur"


@pytest.mark.parametrize("code", ["", "3X", "1D", "10C", "ZZ", "3DD"])
def test_bad_codes_are_rejected_naming_the_code(code):
    with pytest.raises(CardError) as error:
        Card.parse(code)
    assert repr(code) in str(error.value)


def test_format_and_parse_round_trip():
    assert Card.parse_many(format_cards(CARDS).lower().split()) == CARDS


def test_names_default_to_french_and_bad_arguments_are_named():
    assert Card.VACHE.name_in() == Card.VACHE.name_in("fr") == "la Vache"
    with pytest.raises(CardError) as raised:
        Card.VACHE.name_in("de")
    assert str(raised.value) == "unknown language 'de': use 'fr', 'en' or 'it'"
    with pytest.raises(CardError) as raised:
        Card.parse(32)
    assert str(raised.value) == "card code must be a string like '3D', got 32"
    for level in (0, 20):
        with pytest.raises(CardError) as raised:
            cards_at_level(level)
        assert str(raised.value) == f"strength level {level} does not exist: levels run from 1 to 19"
