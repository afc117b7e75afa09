"""The drawn deck: every card, back and sign is valid SVG that names what it shows."""

from __future__ import annotations

import time
import xml.etree.ElementTree as ET

import pytest

from trainer.deck import DeckError, card_back_svg, card_svg, is_strong, sign_svg
from trainer.rules.cards import CARDS, Card
from trainer.signals.conventions import CLASSIC, CONVENTIONS
from trainer.signals.gestures import Gesture
from trainer.signals.signs import Sign, Signal

SVG = "{http://www.w3.org/2000/svg}"


def _texts(root: ET.Element) -> str:
    return " ".join(t.text or "" for t in root.iter(f"{SVG}text"))


@pytest.mark.parametrize("language", ["fr", "en", "it"])
def test_every_card_parses_and_names_itself(language):
    for card in CARDS:
        root = ET.fromstring(card_svg(card, language=language))
        assert root.get("data-card") == card.code
        title = root.find(f"{SVG}title").text
        assert title.startswith(card.code)
        assert str(card.level) in _texts(root)
        if card.nickname and language != "en":
            assert card.nickname in _texts(root)
        if card.nickname and language == "en":
            assert card.nickname_english in _texts(root)


def test_strong_cards_show_their_sign_under_the_convention():
    for card in CARDS:
        root = ET.fromstring(card_svg(card))
        sign = Sign.for_card(card)
        # the corner glyph of a sign is the face or hand of its gesture: a circle badge at (170, 34)
        corner = [c for c in root.iter(f"{SVG}circle") if c.get("cx") == "170"]
        assert bool(corner) == (sign is not None), card
        assert is_strong(card) == (card.level <= 9), card


def test_hints_off_hides_names_levels_and_signs():
    for card in CARDS:
        text = card_svg(card, hints=False)
        root = ET.fromstring(text)
        body = _texts(root)
        assert card.french not in body and (card.nickname or "@@") not in body
        assert not [c for c in root.iter(f"{SVG}circle") if c.get("cx") == "170"]


def test_rendering_is_deterministic_and_sized():
    a = card_svg(Card.VACHE, width=120)
    assert a == card_svg("2c", width=120)
    root = ET.fromstring(a)
    assert root.get("width") == "120" and root.get("height") == "180.0"
    assert card_svg(Card.VACHE) != card_svg(Card.BORGNE)


def test_all_cards_render_fast():
    start = time.perf_counter()
    for width in (100, 101):
        for card in CARDS:
            card_svg(card, width=width, language="it")
    assert time.perf_counter() - start < 2.0


def test_back_and_signs_parse():
    ET.fromstring(card_back_svg(width=90))
    for convention in CONVENTIONS.values():
        for sign in Sign:
            for gesture in convention.gestures_for(sign):
                root = ET.fromstring(sign_svg(sign, convention=convention, label=True))
                assert root.get("data-gesture") == gesture.value
                assert sign.french in _texts(root)
                break
    for gesture in Gesture:
        assert ET.fromstring(sign_svg(gesture)).get("data-gesture") == gesture.value
    two_aces = ET.fromstring(sign_svg(Signal(Sign.AS, 3)))
    assert "×3" in _texts(two_aces)


def test_bad_arguments_are_clear_errors():
    with pytest.raises(DeckError, match="language"):
        card_svg("3D", language="de")
    with pytest.raises(ValueError, match="unknown card code"):
        card_svg("ZZ")
    with pytest.raises(DeckError, match="width"):
        card_svg("3D", width=-3)
    with pytest.raises(DeckError, match="neither"):
        sign_svg("wink")
    assert CLASSIC.gesture_for(Sign.BORGNE) is Gesture.WINK


def test_avatars_tell_players_apart():
    from trainer.deck import avatar_svg

    neutral = [avatar_svg(None, variant=seat) for seat in range(4)]
    assert len(set(neutral)) == 4, "four seats, four looks"
    for gesture in Gesture:
        root = ET.fromstring(avatar_svg(gesture, variant=1, label="Bot Ouest"))
        assert root.get("data-gesture") == gesture.value
        assert "Bot Ouest" in _texts(root)
    assert avatar_svg(Gesture.WINK, variant=0) != avatar_svg(Gesture.WINK, variant=1)
    with pytest.raises(DeckError):
        avatar_svg("wink")
