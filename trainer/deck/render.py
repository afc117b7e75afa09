"""Draw a card, the card back and the signs as standalone SVG documents.

Imports the rules layer (cards) and the signals layer (signs, gestures, conventions) only. Output
is deterministic text (same arguments, same bytes) and cached, so the app can redraw a table of
48 cards on every Streamlit rerun for free. Documents carry no ids and no ``<?xml?>`` prologue,
so they can be inlined in HTML or nested in another SVG as they are.
"""

from __future__ import annotations

from functools import lru_cache
from html import escape

from trainer.deck.figures import court_figure, emblem, has_figure
from trainer.deck.pictograms import LOOKS, gesture_glyph, person_glyph
from trainer.deck.suits import COLOURS, HEIGHT, WIDTH, suit_symbol
from trainer.rules.cards import Card, Group, Rank, Suit
from trainer.signals.conventions import CLASSIC, Convention
from trainer.signals.gestures import Gesture
from trainer.signals.signs import Sign, Signal

LANGUAGES = ("fr", "en", "it")
CARD_W, CARD_H = 200, 300
SERIF = "Georgia, 'DejaVu Serif', 'Times New Roman', serif"


class DeckError(ValueError):
    """Bad arguments to the deck renderer (unknown language, size, or something that is not a card)."""


# The value printed in the corners: French V C R, English J N K, Italian F C R (fante, cavallo, re).
_INDEX_LETTER = {
    "fr": {Rank.AS: "A", Rank.VALET: "V", Rank.CAVALIER: "C", Rank.ROI: "R"},
    "en": {Rank.AS: "A", Rank.VALET: "J", Rank.CAVALIER: "N", Rank.ROI: "K"},
    "it": {Rank.AS: "A", Rank.VALET: "F", Rank.CAVALIER: "C", Rank.ROI: "R"},
}
# Breaks in the frame line (the Spanish "pinta"): none for coins, one cups, two swords, three clubs,
# so a fanned hand shows the suit from the edge alone.
_PINTA = {Suit.DENIERS: 0, Suit.COUPES: 1, Suit.EPEES: 2, Suit.BATONS: 3}
# Pip positions in a -1..1 box, as printed on Spanish-suited decks.
_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    2: ((0, -0.6), (0, 0.6)),
    3: ((0, -0.7), (0, 0), (0, 0.7)),
    4: ((-0.5, -0.6), (0.5, -0.6), (-0.5, 0.6), (0.5, 0.6)),
    5: ((-0.5, -0.62), (0.5, -0.62), (0, 0), (-0.5, 0.62), (0.5, 0.62)),
    6: ((-0.5, -0.7), (0.5, -0.7), (-0.5, 0), (0.5, 0), (-0.5, 0.7), (0.5, 0.7)),
    7: ((-0.56, -0.72), (0.56, -0.72), (0, -0.36), (-0.56, 0), (0.56, 0), (-0.56, 0.72), (0.56, 0.72)),
    8: ((-0.56, -0.72), (0.56, -0.72), (0, -0.36), (-0.56, 0), (0.56, 0), (0, 0.36), (-0.56, 0.72),
        (0.56, 0.72)),
    9: ((-0.58, -0.72), (0, -0.72), (0.58, -0.72), (-0.58, 0), (0, 0), (0.58, 0), (-0.58, 0.72),
        (0, 0.72), (0.58, 0.72)),
}
_STRONG_GROUPS = (Group.LUETTES, Group.DOUBLES)


def is_strong(card: Card) -> bool:
    """Luettes, doubles and aces: the cards with a nickname, an emblem and a sign."""
    return card.group in _STRONG_GROUPS or card.rank is Rank.AS


def _check_language(language: str) -> None:
    if language not in LANGUAGES:
        raise DeckError(f"unknown language {language!r}: use 'fr', 'en' or 'it'")


def _size(width: float | None, aspect: float) -> tuple[str, str]:
    if width is None:
        return f"{CARD_W}", f"{CARD_W * aspect:g}"
    if not isinstance(width, (int, float)) or not 8 <= width <= 4000:
        raise DeckError(f"width {width!r} is not a size in pixels between 8 and 4000")
    return f"{width:g}", f"{width * aspect:.1f}"


def _root(view_w: float, view_h: float, width: float | None, label: str, body: str, extra: str = "") -> str:
    w, h = _size(width, view_h / view_w)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {view_w:g} {view_h:g}" width="{w}" '
        f'height="{h}" role="img" aria-label="{escape(label)}"{extra}>'
        f"<title>{escape(label)}</title>{body}</svg>"
    )


# -- names ---------------------------------------------------------------------------------------


def card_title(card: Card, language: str = "fr") -> str:
    """One line naming the card for a tooltip: ``"3D · Monsieur (trois de deniers) · niveau 1"``."""
    _check_language(language)
    plain = {"fr": card.french, "en": card.english, "it": card.italian}[language]
    nick = card.nickname_english if language == "en" else card.nickname
    level = {"fr": "niveau", "en": "level", "it": "livello"}[language]
    name = f"{nick} ({plain})" if nick else plain
    return f"{card.code} · {name} · {level} {card.level}"


def _names(card: Card, language: str) -> tuple[str, str]:
    """(main, translation) printed on the card: French names first, the other language beside."""
    if card.nickname:
        if language == "en":
            return card.nickname_english or "", card.nickname
        if language == "it":
            return card.nickname, card.italian
        return card.nickname, card.nickname_english or ""
    if language == "en":
        return card.english, card.french
    if language == "it":
        return card.italian, card.french
    return card.french, card.english


# -- pieces --------------------------------------------------------------------------------------


def _frame(suit: Suit) -> str:
    c = COLOURS[suit]
    out = [
        '<rect x="1.5" y="1.5" width="197" height="297" rx="13" fill="#fffdf6" stroke="#3a3026" stroke-width="3"/>',
        f'<rect x="10" y="10" width="180" height="280" rx="7" fill="none" stroke="{c.main}" stroke-width="2.4"/>',
    ]
    breaks = _PINTA[suit]
    for i in range(breaks):
        x = 100 + (i - (breaks - 1) / 2) * 16 - 4
        out.append(f'<rect x="{x:.1f}" y="7" width="8" height="6" fill="#fffdf6"/>')
        out.append(f'<rect x="{x:.1f}" y="287" width="8" height="6" fill="#fffdf6"/>')
    return "".join(out)


def _corner_index(card: Card, language: str) -> str:
    c = COLOURS[card.suit]
    letter = _INDEX_LETTER[language].get(card.rank, card.rank.value)
    pip_y = 58 if card.suit in (Suit.DENIERS, Suit.COUPES) else 62
    return (
        f'<g><text x="27" y="43" font-family="{SERIF}" font-size="28" font-weight="bold" '
        f'text-anchor="middle" fill="{c.dark}">{escape(letter)}</text>'
        + suit_symbol(card.suit, 27, pip_y, 0.3)
        + "</g>"
    )


def _sign_corner(card: Card, convention: Convention) -> str:
    sign = Sign.for_card(card)
    if sign is None:
        return ""
    gestures = convention.gestures_for(sign)
    if not gestures:
        return ""
    return (
        f'<circle cx="170" cy="34" r="21" fill="#ffffff" stroke="#3a3026" stroke-width="1.6"/>'
        f'<g transform="translate(151,15) scale(0.38)">{gesture_glyph(gestures[0])}</g>'
    )


def _level_badge(card: Card) -> str:
    strong = is_strong(card)
    fill = "#e3b23c" if strong else "#ffffff"
    colour = "#3a2414" if strong else "#6a5a4a"
    return (
        f'<circle cx="100" cy="30" r="13" fill="{fill}" stroke="#3a3026" stroke-width="1.4"/>'
        f'<text x="100" y="35.5" font-family="{SERIF}" font-size="15" font-weight="bold" '
        f'text-anchor="middle" fill="{colour}">{card.level}</text>'
    )


def _pips(card: Card, top: float, bottom: float) -> str:
    suit = card.suit
    cx, cy = 100.0, (top + bottom) / 2
    hw, hh = 52.0, (bottom - top) / 2
    if card.rank is Rank.AS:
        scale = min(2.0, 0.92 * (bottom - top) / HEIGHT[suit])
        return suit_symbol(suit, cx, cy, scale)
    count = int(card.rank.value)
    positions = _PIPS[count]
    w, h = WIDTH[suit], HEIGHT[suit]
    # The largest scale at which no two pips overlap and every pip stays inside the box.
    scale = 1.25
    for i, (x1, y1) in enumerate(positions):
        scale = min(scale, (hw * (1 - abs(x1)) * 2 + 8) / w, (hh * (1 - abs(y1)) * 2 + 6) / h)
        for x2, y2 in positions[i + 1:]:
            scale = min(scale, 0.86 * max(abs(x1 - x2) * hw / w, abs(y1 - y2) * hh / h))
    return "".join(suit_symbol(suit, cx + x * hw, cy + y * hh, scale) for x, y in positions)


def _banner(card: Card, language: str) -> str:
    c = COLOURS[card.suit]
    main, translation = _names(card, language)
    art = emblem(card)
    size = 17 if len(main) <= 12 else 14.5
    out = [
        f'<rect x="18" y="200" width="164" height="50" rx="8" fill="{c.light}" stroke="{c.main}" stroke-width="1.8"/>'
    ]
    text_x = 100.0
    if art is not None:
        out.append(f'<g transform="translate(22,205)">{art}</g>')
        text_x = 120.0
    out.append(
        f'<text x="{text_x:g}" y="224" font-family="{SERIF}" font-size="{size}" font-weight="bold" '
        f'font-style="italic" text-anchor="middle" fill="{c.dark}">{escape(main)}</text>'
    )
    if translation:
        out.append(
            f'<text x="{text_x:g}" y="241" font-family="{SERIF}" font-size="10.5" text-anchor="middle" '
            f'fill="#4a4036">{escape(translation)}</text>'
        )
    return "".join(out)


def _plain_name(card: Card, language: str) -> str:
    main, translation = _names(card, language)
    return (
        f'<text x="100" y="256" font-family="{SERIF}" font-size="13" font-style="italic" '
        f'text-anchor="middle" fill="#3a3026">{escape(main)}</text>'
        f'<text x="100" y="270" font-family="{SERIF}" font-size="9.5" text-anchor="middle" '
        f'fill="#6a5a4a">{escape(translation)}</text>'
    )


# -- public --------------------------------------------------------------------------------------


@lru_cache(maxsize=1024)
def _card_svg(card: Card, language: str, width: float | None, hints: bool, convention: Convention) -> str:
    strong = is_strong(card)
    parts = [_frame(card.suit), _corner_index(card, language)]
    # the same index upside down in the opposite corner, as on every real deck
    parts.append(f'<g transform="rotate(180 100 150)">{_corner_index(card, language)}</g>')
    show_banner = hints and strong
    bottom = 194.0 if show_banner else (236.0 if hints else 240.0)
    if has_figure(card):
        scale = (bottom - 62) / 150
        x = 100 - 60 * scale
        parts.append(f'<g transform="translate({x:.1f},62) scale({scale:.3f})">{court_figure(card)}</g>')
    else:
        parts.append(_pips(card, 64.0, bottom))
    if hints:
        parts.append(_level_badge(card))
        parts.append(_sign_corner(card, convention))
        parts.append(_banner(card, language) if strong else _plain_name(card, language))
    label = card_title(card, language) if hints else f"{card.code}"
    return _root(CARD_W, CARD_H, width, label, "".join(parts), f' data-card="{card.code}"')


def card_svg(
    card: Card | str,
    *,
    language: str = "fr",
    width: float | None = None,
    hints: bool = True,
    convention: Convention = CLASSIC,
) -> str:
    """The SVG document of one card.

    ``card`` is a :class:`Card` or a code (``"3D"``). ``width`` in pixels (height is 1.5 x);
    ``None`` gives 200 x 300. With ``hints`` the card shows its strength level, name, nickname
    and emblem, and its sign in the top-right corner under ``convention``; without, only the
    index and the pips or figure, for quiz questions that must not give the answer away.
    """
    if isinstance(card, str):
        card = Card.parse(card)
    if not isinstance(card, Card):
        raise DeckError(f"{card!r} is not a card: pass a Card or a code like '3D'")
    _check_language(language)
    return _card_svg(card, language, width, bool(hints), convention)


@lru_cache(maxsize=16)
def card_back_svg(*, width: float | None = None) -> str:
    """The back of every card: a red lattice with the cow in a medallion."""
    parts = [
        '<rect x="1.5" y="1.5" width="197" height="297" rx="13" fill="#fffdf6" stroke="#3a3026" stroke-width="3"/>',
        '<rect x="10" y="10" width="180" height="280" rx="7" fill="#8e1f1a"/>',
    ]
    for row in range(14):
        for col in range(9):
            x, y = 20 + col * 20, 20 + row * 20
            if 72 < y < 228 and 44 < x < 156:
                continue
            parts.append(f'<path d="M{x},{y - 8} L{x + 8},{y} L{x},{y + 8} L{x - 8},{y} Z" fill="#c8372d"/>')
    parts.append('<ellipse cx="100" cy="150" rx="52" ry="74" fill="#fbf1d3" stroke="#e3b23c" stroke-width="4"/>')
    parts.append(f'<g transform="translate(66,100) scale(1.7)">{emblem(Card.VACHE)}</g>')
    parts.append(
        f'<text x="100" y="194" font-family="{SERIF}" font-size="13.5" font-weight="bold" '
        f'letter-spacing="1" text-anchor="middle" fill="#8e1f1a">ALUETTE</text>'
    )
    return _root(CARD_W, CARD_H, width, "dos de carte (card back)", "".join(parts))


def _gesture_of(item: Sign | Signal | Gesture, convention: Convention) -> tuple[Gesture, int, str]:
    if isinstance(item, Gesture):
        sign = convention.sign_for(item)
        caption = sign.french if sign is not None else item.value.replace("_", " ")
        return item, 1, caption
    count = 1
    if isinstance(item, Signal):
        count = item.count
        item = item.sign
    if not isinstance(item, Sign):
        raise DeckError(f"{item!r} is neither a Sign, a Signal nor a Gesture")
    gestures = convention.gestures_for(item)
    if not gestures:
        raise DeckError(
            f"convention {convention.name!r} has no gesture for {item.value}: pick another convention"
        )
    return gestures[0], count, item.french


@lru_cache(maxsize=256)
def _sign_svg(item: Sign | Signal | Gesture, convention: Convention, width: float | None, label: bool) -> str:
    gesture, count, caption = _gesture_of(item, convention)
    body = '<rect x="0" y="0" width="100" height="100" rx="14" fill="#fbf6ec"/>' + gesture_glyph(gesture)
    if count > 1:
        body += (
            f'<circle cx="84" cy="84" r="13" fill="#c8372d" stroke="#ffffff" stroke-width="2"/>'
            f'<text x="84" y="89.5" font-family="{SERIF}" font-size="15" font-weight="bold" '
            f'text-anchor="middle" fill="#ffffff">×{count}</text>'
        )
    view_h = 100
    if label:
        body, view_h = _captioned(body, caption)
    description = f"{caption}: {gesture.description}"
    return _root(100, view_h, width, description, body, f' data-gesture="{gesture.value}"')


def _captioned(body: str, caption: str) -> tuple[str, int]:
    """A 100-unit square picture with ``caption`` below it (smaller type for a long one), and the
    picture's new height."""
    font = 12.5 if len(caption) <= 12 else max(7.0, 12.5 * 12 / len(caption))
    return body + (
        f'<text x="50" y="116" font-family="{SERIF}" font-size="{font:.1f}" text-anchor="middle" '
        f'fill="#3a3026">{escape(caption)}</text>'
    ), 122


def sign_svg(
    item: Sign | Signal | Gesture,
    *,
    convention: Convention = CLASSIC,
    width: float | None = 96,
    label: bool = False,
) -> str:
    """A pictogram of a sign (drawn as its gesture under ``convention``) or of a gesture itself.

    A :class:`Signal` of several aces gets a ``×n`` badge. ``label`` adds the French name of the
    sign below the picture. The document's ``data-gesture`` attribute names the gesture drawn.
    """
    return _sign_svg(item, convention, width, bool(label))


@lru_cache(maxsize=256)
def avatar_svg(
    gesture: Gesture | None = None,
    *,
    variant: int = 0,
    width: float | None = 96,
    label: str | None = None,
    away: bool = False,
) -> str:
    """A player's avatar: a neutral face, or the person making ``gesture``, in one of a few looks
    (``variant`` picks among them, e.g. the seat number), with an optional name below. ``away``
    turns a neutral face's eyes aside (an opponent looking away from you)."""
    if gesture is not None and not isinstance(gesture, Gesture):
        raise DeckError(f"{gesture!r} is not a Gesture: pass a Gesture or None for a neutral face")
    if not isinstance(variant, int):
        raise DeckError(f"variant {variant!r} must be an integer (e.g. the seat number)")
    look = LOOKS[variant % len(LOOKS)]
    backdrop = '<rect x="0" y="0" width="100" height="100" rx="50" fill="#fbf6ec"/>'
    body = backdrop + person_glyph(gesture, look, away=away)
    view_h = 100
    if label:
        body, view_h = _captioned(body, label)
    what = gesture.description if gesture is not None else "looking away" if away else "neutral face"
    name = f"{label}: {what}" if label else what
    extra = f' data-gesture="{gesture.value}"' if gesture is not None else ""
    return _root(100, view_h, width, name, body, extra)
