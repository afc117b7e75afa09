"""Court figures (valet, cavalier, roi) and the small emblems of the strong cards, as SVG fragments.

Imports only the rules layer. Figures are drawn in a 120 x 150 box (top-left at the origin) and hold
their suit's symbol; emblems in a 40 x 40 box. No ids, so any number can share one page.
"""

from __future__ import annotations

import math

from trainer.deck.suits import COLOURS, suit_symbol
from trainer.rules.cards import Card, Rank, Suit

SKIN = "#f4cfa8"
INK = "#3a2414"
GOLD = "#e3b23c"


def _head(cx: float, cy: float, r: float = 11.0, beard: bool = False) -> str:
    out = [
        f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="{SKIN}" stroke="{INK}" stroke-width="1.8"/>',
        f'<circle cx="{cx - r * 0.36:.1f}" cy="{cy - 1}" r="1.4" fill="{INK}"/>',
        f'<circle cx="{cx + r * 0.36:.1f}" cy="{cy - 1}" r="1.4" fill="{INK}"/>',
    ]
    if beard:
        out.append(
            f'<path d="M{cx - r + 1},{cy + 1} Q{cx},{cy + r * 2.1:.1f} {cx + r - 1},{cy + 1} '
            f'Q{cx},{cy + r * 0.9:.1f} {cx - r + 1},{cy + 1} Z" fill="#8a6a4a" stroke="{INK}" stroke-width="1.2"/>'
        )
    else:
        out.append(f'<path d="M{cx - 4},{cy + 5} Q{cx},{cy + 7} {cx + 4},{cy + 5}" fill="none" stroke="{INK}" '
                   'stroke-width="1.3"/>')
    return "".join(out)


def _roi(suit: Suit) -> str:
    c = COLOURS[suit]
    return (
        # robe and cloak
        f'<path d="M38,52 L82,52 L96,146 L24,146 Z" fill="{c.main}" stroke="{INK}" stroke-width="2"/>'
        f'<path d="M52,52 L68,52 L72,146 L48,146 Z" fill="{c.light}" stroke="{INK}" stroke-width="1.4"/>'
        f'<path d="M36,56 Q60,70 84,56 L86,64 Q60,78 34,64 Z" fill="#f5f0e6" stroke="{INK}" stroke-width="1.4"/>'
        + _head(60, 36, 13, beard=True)
        # crown
        + f'<path d="M46,26 L46,12 L52,19 L60,8 L68,19 L74,12 L74,26 Z" fill="{GOLD}" stroke="{INK}" '
        'stroke-width="1.6"/>'
        f'<circle cx="60" cy="8" r="2" fill="#c8372d"/>'
        # the arm holding the suit symbol up
        f'<path d="M82,60 Q98,70 96,86" fill="none" stroke="{c.dark}" stroke-width="7" stroke-linecap="round"/>'
        + suit_symbol(suit, 98, 82 if suit in (Suit.DENIERS, Suit.COUPES) else 78, 0.62)
    )


def _cavalier(suit: Suit) -> str:
    c = COLOURS[suit]
    return (
        # horse: body, legs, neck and head
        f'<path d="M22,100 Q20,80 40,78 L86,78 Q100,80 98,100 Q96,112 84,112 L36,112 Q24,112 22,100 Z" '
        f'fill="#c9a27a" stroke="{INK}" stroke-width="2"/>'
        f'<path d="M32,108 L28,146 M44,110 L46,146 M78,110 L76,146 M90,106 L96,144" stroke="{INK}" '
        f'stroke-width="5" stroke-linecap="round"/>'
        f'<path d="M86,82 L100,52 Q104,44 112,48 L118,60 Q116,64 110,62 L104,60 L98,92 Z" fill="#c9a27a" '
        f'stroke="{INK}" stroke-width="2"/>'
        f'<circle cx="107" cy="53" r="1.5" fill="{INK}"/>'
        f'<path d="M100,52 Q94,60 92,74" fill="none" stroke="#6b4a2a" stroke-width="4"/>'
        f'<path d="M24,92 Q10,100 14,120" fill="none" stroke="#6b4a2a" stroke-width="4" stroke-linecap="round"/>'
        # saddle cloth in the suit colour
        f'<path d="M44,78 L74,78 L72,104 L46,104 Z" fill="{c.main}" stroke="{INK}" stroke-width="1.6"/>'
        # rider
        f'<path d="M48,44 L70,44 L72,84 L46,84 Z" fill="{c.main}" stroke="{INK}" stroke-width="1.8"/>'
        f'<path d="M54,84 L50,104" stroke="{c.dark}" stroke-width="6" stroke-linecap="round"/>'
        + _head(59, 30, 11)
        + f'<path d="M47,26 Q59,10 71,26 Z" fill="{c.dark}" stroke="{INK}" stroke-width="1.4"/>'
        f'<path d="M48,50 Q34,44 30,30" fill="none" stroke="{c.dark}" stroke-width="6" stroke-linecap="round"/>'
        + suit_symbol(suit, 28, 22 if suit in (Suit.DENIERS, Suit.COUPES) else 18, 0.55)
    )


def _valet(suit: Suit) -> str:
    c = COLOURS[suit]
    return (
        # legs and tunic
        f'<path d="M50,112 L48,146 M70,112 L72,146" stroke="{c.dark}" stroke-width="8" stroke-linecap="round"/>'
        f'<path d="M42,50 L78,50 L86,118 L34,118 Z" fill="{c.main}" stroke="{INK}" stroke-width="2"/>'
        f'<path d="M38,84 L82,84" stroke="{GOLD}" stroke-width="4"/>'
        + _head(60, 36, 12)
        # a feathered cap
        + f'<path d="M46,30 Q60,14 76,28 Z" fill="{c.dark}" stroke="{INK}" stroke-width="1.4"/>'
        f'<path d="M72,24 Q84,10 90,16" fill="none" stroke="#c8372d" stroke-width="3" stroke-linecap="round"/>'
        # arm down to the symbol resting on the ground
        f'<path d="M40,58 Q24,76 26,98" fill="none" stroke="{c.dark}" stroke-width="7" stroke-linecap="round"/>'
        + suit_symbol(suit, 22, 118 if suit in (Suit.DENIERS, Suit.COUPES) else 112, 0.62)
    )


_COURT = {Rank.ROI: _roi, Rank.CAVALIER: _cavalier, Rank.VALET: _valet}


def court_figure(card: Card) -> str:
    """The figure of a valet, cavalier or roi in its 120 x 150 box."""
    return _COURT[card.rank](card.suit)


def has_figure(card: Card) -> bool:
    return card.rank in _COURT


# -- emblems of the strong cards (a 40 x 40 box) ----------------------------------------------------


def _monsieur() -> str:
    return (
        f'<circle cx="20" cy="25" r="10" fill="{SKIN}" stroke="{INK}" stroke-width="1.4"/>'
        f'<rect x="11" y="3" width="18" height="13" fill="#222" stroke="{INK}" stroke-width="1"/>'
        f'<rect x="6" y="15" width="28" height="3.5" rx="1.5" fill="#222"/>'
        f'<path d="M13,29 Q20,24 27,29 Q20,27 13,29 Z" fill="#3a2414" stroke="#3a2414" stroke-width="1.4"/>'
        f'<circle cx="16.5" cy="23" r="1.1" fill="{INK}"/><circle cx="23.5" cy="23" r="1.1" fill="{INK}"/>'
    )


def _madame() -> str:
    return (
        f'<circle cx="20" cy="9" r="6" fill="#7a4a22"/>'
        f'<circle cx="20" cy="23" r="10" fill="{SKIN}" stroke="{INK}" stroke-width="1.4"/>'
        f'<path d="M10,22 Q12,11 20,12 Q28,11 30,22 Q26,15 20,16 Q14,15 10,22 Z" fill="#7a4a22"/>'
        f'<circle cx="16.5" cy="23" r="1.1" fill="{INK}"/><circle cx="23.5" cy="23" r="1.1" fill="{INK}"/>'
        f'<path d="M17,28 Q20,30 23,28" fill="none" stroke="#c2514a" stroke-width="1.6"/>'
        f'<circle cx="9.5" cy="27" r="1.6" fill="{GOLD}"/><circle cx="30.5" cy="27" r="1.6" fill="{GOLD}"/>'
    )


def _borgne() -> str:
    return (
        f'<circle cx="20" cy="21" r="12" fill="{SKIN}" stroke="{INK}" stroke-width="1.4"/>'
        f'<path d="M8,14 L32,24" stroke="#222" stroke-width="1.6"/>'
        f'<ellipse cx="25" cy="19" rx="4.5" ry="3.6" fill="#222"/>'
        f'<circle cx="15" cy="19" r="1.3" fill="{INK}"/>'
        f'<path d="M15,27 L25,27" stroke="{INK}" stroke-width="1.4"/>'
    )


def _vache() -> str:
    return (
        f'<path d="M7,9 Q3,4 6,2 Q10,6 12,11 Z M33,9 Q37,4 34,2 Q30,6 28,11 Z" fill="#e8e0cf" stroke="{INK}" '
        'stroke-width="1"/>'
        f'<ellipse cx="20" cy="18" rx="12" ry="11" fill="#fbfaf5" stroke="{INK}" stroke-width="1.4"/>'
        f'<path d="M10,12 Q14,8 17,13 Q13,17 10,12 Z" fill="#3a2414"/>'
        f'<ellipse cx="20" cy="29" rx="9" ry="6.5" fill="#f2b8b0" stroke="{INK}" stroke-width="1.2"/>'
        f'<circle cx="16.5" cy="29" r="1.3" fill="{INK}"/><circle cx="23.5" cy="29" r="1.3" fill="{INK}"/>'
        f'<circle cx="15" cy="18" r="1.3" fill="{INK}"/><circle cx="25" cy="18" r="1.3" fill="{INK}"/>'
    )


def _sun(radius: float) -> str:
    rays = []
    for i in range(12):
        a = math.pi * i / 6
        rays.append(
            f"M{20 + radius * math.cos(a):.1f},{20 + radius * math.sin(a):.1f} "
            f"L{20 + (radius + 6) * math.cos(a):.1f},{20 + (radius + 6) * math.sin(a):.1f}"
        )
    return (
        f'<path d="{" ".join(rays)}" stroke="{GOLD}" stroke-width="2.2" stroke-linecap="round"/>'
        f'<circle cx="20" cy="20" r="{radius}" fill="{GOLD}" stroke="#7a5a0c" stroke-width="1.2"/>'
    )


def _grand_neuf() -> str:
    return _sun(10.0)


def _petit_neuf() -> str:
    return f'<path d="M24,6 A14,14 0 1 0 24,34 A10,12 0 1 1 24,6 Z" fill="{GOLD}" stroke="#7a5a0c" stroke-width="1.2"/>'


def _chene() -> str:
    return (
        '<path d="M20,36 L20,26" stroke="#6b4a2a" stroke-width="2"/>'
        '<path d="M20,28 Q11,27 12,22 Q7,20 10,15 Q6,11 12,9 Q14,3 20,5 Q26,3 28,9 Q34,11 30,15 '
        'Q33,20 28,22 Q29,27 20,28 Z" fill="#5f8f2f" stroke="#2f4a12" stroke-width="1.2"/>'
        '<path d="M20,27 L20,9" stroke="#2f4a12" stroke-width="1"/>'
        '<ellipse cx="30" cy="31" rx="3.4" ry="4" fill="#b07a3a" stroke="#5a3a12" stroke-width="1"/>'
        '<path d="M26.6,29 Q30,25 33.4,29 Z" fill="#6b4a2a"/>'
    )


def _ecrit() -> str:
    return (
        f'<path d="M33,4 Q20,10 12,28 L15,30 Q24,14 33,4 Z" fill="#f5f0e6" stroke="{INK}" stroke-width="1.2"/>'
        f'<path d="M12,28 L10,35 L15,30" fill="#222" stroke="#222" stroke-width="1"/>'
        f'<path d="M6,37 Q14,33 22,37 Q28,40 34,36" fill="none" stroke="#2f62a8" stroke-width="1.6"/>'
    )


def _ace() -> str:
    points = []
    for i in range(10):
        r = 15 if i % 2 == 0 else 6.5
        a = math.pi * i / 5
        points.append(f"{20 + r * math.sin(a):.1f},{21 - r * math.cos(a):.1f}")
    return f'<polygon points="{" ".join(points)}" fill="{GOLD}" stroke="#7a5a0c" stroke-width="1.3"/>'


_EMBLEMS = {
    Card.MONSIEUR: _monsieur,
    Card.MADAME: _madame,
    Card.BORGNE: _borgne,
    Card.VACHE: _vache,
    Card.GRAND_NEUF: _grand_neuf,
    Card.PETIT_NEUF: _petit_neuf,
    Card.DEUX_DE_CHENE: _chene,
    Card.DEUX_D_ECRIT: _ecrit,
}


def emblem(card: Card) -> str | None:
    """The small figure of a strong card (luettes, doubles, aces) in a 40 x 40 box, or None."""
    draw = _EMBLEMS.get(card)
    if draw is not None:
        return draw()
    if card.rank is Rank.AS:
        return _ace()
    return None
