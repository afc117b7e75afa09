"""The signs and what each says (RULES.md "Signs"): the card a sign names, aces that repeat."""

from __future__ import annotations

import pytest

from trainer.rules.cards import CARDS, Card
from trainer.signals.signs import Sign, Signal

# RULES.md "Signs": the eight cards that have a sign of their own.
OWN_SIGN = {
    "3D": Sign.MONSIEUR,
    "3C": Sign.MADAME,
    "2D": Sign.BORGNE,
    "2C": Sign.VACHE,
    "9C": Sign.GRAND_NEUF,
    "9D": Sign.PETIT_NEUF,
    "2B": Sign.DEUX_DE_CHENE,
    "2E": Sign.DEUX_D_ECRIT,
}


def test_each_card_has_its_sign_aces_share_one_the_rest_none():
    for card in CARDS:
        if card.code in OWN_SIGN:
            assert Sign.for_card(card) is OWN_SIGN[card.code]
            assert OWN_SIGN[card.code].cards == (card,)
        elif card.code[0] == "A":
            assert Sign.for_card(card) is Sign.AS and card in Sign.AS.cards
        else:
            assert Sign.for_card(card) is None, card
    assert Sign.MONSIEUR_ET_MADAME.cards == (Card.parse("3D"), Card.parse("3C"))
    assert Sign.MISERE.cards == () and Sign.MORDIENNE.cards == ()


@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_aces_repeat_one_to_four_times(count):
    assert Signal(Sign.AS, count).count == count


@pytest.mark.parametrize(
    ("sign", "count"), [(Sign.AS, 0), (Sign.AS, 5), (Sign.AS, -1), (Sign.MONSIEUR, 2), (Sign.VACHE, 0)]
)
def test_other_repeats_are_refused_with_the_rule(sign, count):
    with pytest.raises(ValueError) as error:
        Signal(sign, count)
    assert str(error.value) == f"a {sign.value} sign cannot be repeated {count} times: only aces repeat, 1 to 4"


def test_a_single_sign_is_made_once():
    assert Signal(Sign.MADAME).count == 1
