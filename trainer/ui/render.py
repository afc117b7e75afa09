"""Small rendering helpers shared by the pages: SVG pictures, card and sign labels, and the notice a
page shows when a piece of the product is not available in this build.

Holds no game logic: card names come from ``trainer.rules.cards``, pictures from ``trainer.deck``.
"""

from __future__ import annotations

import base64
import html

import streamlit as st

from trainer.rules.cards import Card
from trainer.signals.signs import Sign
from trainer.ui.modes import Piece, piece_with
from trainer.ui.settings import Language


def svg_html(svg: str, *, width: int | None = None, title: str = "") -> str:
    """An ``<img>`` carrying the SVG as a data URI (keeps the SVG's own styles out of the page's)."""
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    size = f' width="{width}"' if width else ""
    return f'<img src="data:image/svg+xml;base64,{data}"{size} title="{html.escape(title)}" alt="{html.escape(title)}"/>'


def show_svg(svg: str, *, width: int | None = None, title: str = "") -> None:
    st.markdown(svg_html(svg, width=width, title=title), unsafe_allow_html=True)


def card_label(card: Card, language: Language) -> str:
    """French first (nickname, then the plain name), the chosen translation after."""
    name = f"{card.nickname} ({card.french})" if card.nickname else card.french
    if language is Language.ENGLISH:
        name += f" — {card.nickname_english or card.english}"
    elif language is Language.ITALIAN:
        name += f" — {card.italian}"
    return name


def sign_label(sign: Sign, language: Language) -> str:
    if language is Language.FRENCH:
        return sign.french
    return f"{sign.french} ({sign.english})"


def deck() -> Piece:
    """The deck is there when ``trainer.deck`` exports ``card_svg`` (a half-landed package is not)."""
    return piece_with("the card deck", "trainer.deck", "card_svg", "card_back_svg")


def unavailable(what: Piece) -> None:
    """Say plainly that a part of the product is missing; never show a stand-in."""
    st.warning(f"Unavailable: {what.reason}.", icon=":material/block:")


def card_svg(card: Card) -> str | None:
    """The project's SVG for ``card``, or None when the deck is not in this build."""
    if not deck().available:
        return None
    from trainer.deck import card_svg as render

    return render(card)


def sign_svg(sign: Sign, convention: str) -> str | None:
    """The drawn demonstration of ``sign`` under ``convention`` (the deck's drawings), or None."""
    if not deck().available:
        return None
    import trainer.deck as deck_module

    render = getattr(deck_module, "sign_svg", None)
    if render is None:
        return None
    from trainer.signals.conventions import Convention

    gesture = Convention.named(convention).gesture_for(sign)
    return render(gesture)
