"""Small rendering helpers shared by the pages: SVG pictures, card and sign labels, and the notice a
page shows when an optional part (the recognizer, the camera, the progress database) is unavailable.

Holds no game logic: card names come from ``trainer.rules.cards``, pictures from ``trainer.deck``.
"""

from __future__ import annotations

import base64
import html

import streamlit as st

from trainer.rules.cards import Card
from trainer.signals.gestures import Gesture, Side
from trainer.signals.signs import Sign
from trainer.ui.modes import Piece
from trainer.ui.settings import Language


def svg_html(svg: str, *, width: int | None = None, title: str = "") -> str:
    """An ``<img>`` carrying the SVG as a data URI (keeps the SVG's own styles out of the page's)."""
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    size = f' width="{width}"' if width else ""
    alt = html.escape(title)
    return f'<img src="data:image/svg+xml;base64,{data}"{size} title="{alt}" alt="{alt}"/>'


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


def gesture_label(gesture: Gesture, language: Language) -> str:
    """A gesture in words ("ouvrir la bouche — open the mouth"), never its id (``mouth_open``): the
    quiz's own words for it, in the chosen language with French beside."""
    from trainer.quiz.texts import GESTURE_TEXT

    return GESTURE_TEXT[gesture].show(language.value)


def side_label(side: Side | None) -> str:
    """", left side" / ", right side" (the subject's own side), or nothing."""
    return "" if side is None else f", {side.value} side"


def cards_label(cards, language: Language) -> str:
    """The cards a sign speaks of, by name ("Monsieur (trois de deniers) — Mister"), never by code."""
    return ", ".join(card_label(card, language) for card in cards)


def human_date(iso: str) -> str:
    """'1 December 2026 at 19:36' (the server's local time) from an ISO timestamp; the text as
    given when it is not one."""
    from datetime import datetime

    try:
        when = datetime.fromisoformat(iso)
    except (TypeError, ValueError):
        return iso
    if when.tzinfo is not None:
        when = when.astimezone()
    return f"{when.day} {when:%B %Y} at {when:%H:%M}"


def unavailable(what: Piece) -> None:
    """Say plainly that a part of the product is missing; never show a stand-in."""
    st.warning(f"Unavailable: {what.reason}.", icon=":material/block:")


def missing(what: Piece) -> bool:
    """Whether ``what`` is missing; if it is, say so plainly (``unavailable``)."""
    if not what.available:
        unavailable(what)
    return not what.available


def card_svg(card: Card, *, language: Language = Language.FRENCH, width: int | None = None,
             hints: bool = True, convention: str = "classic") -> str:
    """The project's SVG for ``card`` (name, nickname, strength index, sign hint)."""
    from trainer.deck import card_svg as render
    from trainer.signals.conventions import Convention

    return render(card, language=language.value, width=width, hints=hints, convention=Convention.named(convention))


def sign_svg(sign, convention: str, *, width: int | None = 96, label: bool = False) -> str:
    """The drawn demonstration of a Sign, Signal or Gesture under ``convention``."""
    from trainer.deck import sign_svg as render
    from trainer.signals.conventions import Convention

    return render(sign, convention=Convention.named(convention), width=width, label=label)
