"""The four Spanish suit symbols as SVG fragments: deniers (coins), coupes (cups), bâtons (clubs)
and épées (swords), plus the colours each suit uses on the card.

Imports only the rules layer (for :class:`Suit`). Every function returns a ``<g>`` fragment drawn
around the origin with no ids, so any number of cards can sit inline on one HTML page without
clashing definitions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from trainer.rules.cards import Suit


@dataclass(frozen=True, slots=True)
class SuitColours:
    """Ink of a suit: ``main`` fills the symbol, ``dark`` outlines it, ``light`` tints panels."""

    main: str
    dark: str
    light: str


COLOURS: dict[Suit, SuitColours] = {
    Suit.DENIERS: SuitColours("#e3b23c", "#7a5a0c", "#fbf1d3"),
    Suit.COUPES: SuitColours("#c8372d", "#6e1410", "#f9dedb"),
    Suit.BATONS: SuitColours("#5f8f2f", "#2f4a12", "#e4efd6"),
    Suit.EPEES: SuitColours("#2f62a8", "#142e57", "#dce6f4"),
}

# Symbols are drawn in a box at most 40 wide; coins and cups about 40 tall, swords and clubs about
# 64 tall (the long Spanish shapes). ``WIDTH`` and ``HEIGHT`` let the pip layout scale them to fit.
WIDTH: dict[Suit, float] = {Suit.DENIERS: 40.0, Suit.COUPES: 32.0, Suit.BATONS: 19.0, Suit.EPEES: 28.0}
HEIGHT: dict[Suit, float] = {Suit.DENIERS: 40.0, Suit.COUPES: 40.0, Suit.BATONS: 64.0, Suit.EPEES: 66.0}


def _coin() -> str:
    c = COLOURS[Suit.DENIERS]
    # An eight-pointed rosette, as on the old Spanish-suited French "oros".
    points = []
    for i in range(16):
        radius = 10.5 if i % 2 == 0 else 4.5
        angle = math.pi * i / 8
        points.append(f"{radius * math.sin(angle):.2f},{-radius * math.cos(angle):.2f}")
    return (
        f'<circle r="19" fill="{c.main}" stroke="{c.dark}" stroke-width="2"/>'
        f'<circle r="14.5" fill="none" stroke="{c.dark}" stroke-width="1.2"/>'
        f'<polygon points="{" ".join(points)}" fill="#c8372d" stroke="{c.dark}" stroke-width="0.8"/>'
        f'<circle r="2.6" fill="{c.main}" stroke="{c.dark}" stroke-width="0.8"/>'
    )


def _cup() -> str:
    c = COLOURS[Suit.COUPES]
    gold = COLOURS[Suit.DENIERS]
    return (
        # bowl
        f'<path d="M-15,-15 C-15,-2 -9,5 0,6 C9,5 15,-2 15,-15 Z" fill="{c.main}" stroke="{c.dark}" '
        f'stroke-width="1.6"/>'
        # rim and a gold band
        f'<ellipse cx="0" cy="-15" rx="15" ry="3.6" fill="{gold.main}" stroke="{c.dark}" stroke-width="1.4"/>'
        f'<path d="M-13.6,-7 Q0,-3 13.6,-7" fill="none" stroke="{gold.main}" stroke-width="2.2"/>'
        # stem, knot and foot
        f'<rect x="-2.4" y="5" width="4.8" height="9" fill="{gold.main}" stroke="{c.dark}" stroke-width="1"/>'
        f'<ellipse cx="0" cy="10" rx="4.6" ry="2.2" fill="{gold.main}" stroke="{c.dark}" stroke-width="1"/>'
        f'<path d="M-11,19 Q0,11 11,19 Z" fill="{c.main}" stroke="{c.dark}" stroke-width="1.4"/>'
    )


def _club() -> str:
    c = COLOURS[Suit.BATONS]
    return (
        # a knotty cudgel, thick end up, as Spanish "bastos"
        f'<path d="M-3.6,31 L-8,-22 C-8.5,-31 8.5,-31 8,-22 L3.6,31 C2.5,33 -2.5,33 -3.6,31 Z" '
        f'fill="{c.main}" stroke="{c.dark}" stroke-width="1.6"/>'
        f'<ellipse cx="-7.6" cy="-12" rx="3" ry="2" fill="{c.main}" stroke="{c.dark}" stroke-width="1.1"/>'
        f'<ellipse cx="7.2" cy="-1" rx="3" ry="2" fill="{c.main}" stroke="{c.dark}" stroke-width="1.1"/>'
        f'<ellipse cx="-6.2" cy="10" rx="2.6" ry="1.8" fill="{c.main}" stroke="{c.dark}" stroke-width="1.1"/>'
        f'<ellipse cx="5.4" cy="20" rx="2.4" ry="1.6" fill="{c.main}" stroke="{c.dark}" stroke-width="1.1"/>'
        f'<path d="M-2,-24 L-1,24" stroke="#d8e8c2" stroke-width="1.4" fill="none" stroke-linecap="round"/>'
    )


def _sword() -> str:
    c = COLOURS[Suit.EPEES]
    gold = COLOURS[Suit.DENIERS]
    return (
        # blade pointing down, guard and pommel up, as Spanish "espadas"
        f'<path d="M-3.4,-17 L3.4,-17 L3.4,23 L0,33 L-3.4,23 Z" fill="#dfe6ee" stroke="{c.dark}" '
        f'stroke-width="1.3"/>'
        f'<path d="M0,-15 L0,26" stroke="{c.main}" stroke-width="1" fill="none"/>'
        f'<path d="M-13,-20 Q0,-15 13,-20 L13,-16 Q0,-11 -13,-16 Z" fill="{c.main}" stroke="{c.dark}" '
        f'stroke-width="1.1"/>'
        f'<rect x="-2.6" y="-30" width="5.2" height="11" rx="1.5" fill="{gold.main}" stroke="{c.dark}" '
        f'stroke-width="1"/>'
        f'<circle cy="-32" r="3.6" fill="{c.main}" stroke="{c.dark}" stroke-width="1"/>'
    )


_DRAW = {Suit.DENIERS: _coin, Suit.COUPES: _cup, Suit.BATONS: _club, Suit.EPEES: _sword}
_CACHE: dict[Suit, str] = {}


def suit_symbol(suit: Suit, x: float = 0.0, y: float = 0.0, scale: float = 1.0, rotate: float = 0.0) -> str:
    """The suit symbol centred at (x, y), scaled and rotated (degrees), as one ``<g>`` element."""
    body = _CACHE.get(suit)
    if body is None:
        body = _CACHE[suit] = _DRAW[suit]()
    transform = f"translate({x:.2f},{y:.2f})"
    if rotate:
        transform += f" rotate({rotate:.1f})"
    if scale != 1.0:
        transform += f" scale({scale:.3f})"
    return f'<g transform="{transform}">{body}</g>'
