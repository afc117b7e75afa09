"""The eyes at the table, drawn: opponents looking at you or away, signs shown while a face holds them.

The Play page draws once per click, but the eyes move every second. So the page sends, with each
avatar, the next minutes of that opponent's look schedule and the signs still to be shown: the
browser turns the faces and shows each sign for its hold without asking the server again.

Each layer carries its moments on the wall clock (``data-from``/``data-until``, ``data-looks``, in
epoch milliseconds), and a small script (:data:`CLOCK_JS`, in a same-origin component frame) shows
and hides the layers by ``Date.now()``. So a sign shows exactly while the server would count a
"seen!" click as a catch, however late a busy browser draws the page (a page drawn 8 s late would
otherwise show a sign 8 s after its moment). Without the script, CSS animations timed from the
moment of drawing do the same, less exactly. A sign's layer carries ``data-sign``, ``data-index`` and
``data-at`` (its game time), so a browser test can wait on it.

Pure functions of typed values returning HTML; no Streamlit. Imports trainer.signals, trainer.deck.
"""

from __future__ import annotations

import hashlib
import html
import json
from dataclasses import dataclass

from trainer.signals.table import SignEvent
from trainer.signals.watching import Spell

LOOK_AHEAD_S = 600.0
"""How far ahead an avatar's eyes are sent: ten minutes without a click is a long pause."""
SHOW_CSS = (
    "<style>"
    "@keyframes aluette-show{from{visibility:visible}to{visibility:visible}}"
    ".aluette-seat{position:relative;display:inline-block;line-height:0}"
    ".aluette-layer{position:absolute;left:0;top:0}"
    ".aluette-sign{visibility:hidden;animation-name:aluette-show;animation-timing-function:linear;"
    "animation-iteration-count:1;animation-fill-mode:none}"
    "</style>"
)


@dataclass(frozen=True, slots=True)
class Showing:
    """A gesture to show on an avatar: which (``index`` and ``at``, its game time; ``name``: the
    sign's value, or the gesture's for a decoy), its drawing, and when (seconds from the moment of
    drawing)."""

    index: int
    at: float
    name: str
    description: str
    svg: str
    starts_in: float
    hold: float

    @classmethod
    def of(cls, event: SignEvent, svg: str, starts_in: float, hold: float) -> Showing:
        """A timed sign of the table."""
        if event.at is None:
            raise ValueError(f"sign {event.index} has no moment: only a timed table's signs are shown on the avatars")
        what = event.gesture.description if event.gesture is not None else event.sign.value
        return cls(event.index, event.at, event.sign.value, what, svg, starts_in, hold)


def look_keyframes(name: str, spells: tuple[Spell, ...], now: float, ahead: float = LOOK_AHEAD_S) -> str:
    """A CSS ``@keyframes`` that makes a layer opaque while the opponent looks (``spells`` in game
    time; the animation starts at game time ``now`` and lasts ``ahead`` seconds)."""
    stops = ["0%{opacity:" + ("1" if any(a <= now < b for a, b in spells) else "0") + "}"]
    for a, b in spells:
        for edge, value in ((a, "1"), (b, "0")):
            if now < edge < now + ahead:
                stops.append(f"{100 * (edge - now) / ahead:.4f}%{{opacity:{value}}}")
    stops.append("100%{opacity:0}")
    return f"@keyframes {name}{{{''.join(stops)}}}"


def seat_html(
    seat: int,
    *,
    base_svg: str,
    looking_svg: str | None,
    spells: tuple[Spell, ...],
    now: float,
    showing: tuple[Showing, ...],
    width: int,
    title: str,
    epoch: float | None = None,
) -> str:
    """An avatar with its moving layers: ``base_svg`` (looking away, or the partner's face), over it
    ``looking_svg`` while the opponent looks at you (None: the partner, who always may look), and
    each sign of ``showing`` for its hold. ``epoch``: the wall-clock time (seconds since 1970) of
    game time 0, for :data:`CLOCK_JS`."""
    from trainer.ui.render import svg_html

    parts = [f"<div class='aluette-seat' data-seat='{seat}'>", svg_html(base_svg, width=width, title=title)]
    css = []
    if looking_svg is not None:
        digest = hashlib.sha1(repr((seat, round(now, 2), spells[:3])).encode()).hexdigest()[:10]
        name = f"aluette-look-{seat}-{digest}"
        css.append(look_keyframes(name, spells, now))
        looks = "" if epoch is None else " data-looks='" + json.dumps(
            [[_ms(epoch + a), _ms(epoch + b)] for a, b in spells if b > now and a < now + LOOK_AHEAD_S]) + "'"
        parts.append(
            f"<div class='aluette-layer aluette-look'{looks} style='opacity:0;animation:{name} {LOOK_AHEAD_S:g}s "
            f"step-end 0s 1 forwards'>{svg_html(looking_svg, width=width, title=title + ': looking at you')}</div>"
        )
    for s in showing:
        parts.append(
            f"<div class='aluette-layer aluette-sign' data-sign='{html.escape(s.name)}' "
            f"data-index='{s.index}' data-at='{s.at:.3f}' "
            + ("" if epoch is None else f"data-from='{_ms(epoch + s.at)}' data-until='{_ms(epoch + s.at + s.hold)}' ")
            + f"style='animation-duration:{s.hold:.3f}s;animation-delay:{s.starts_in:.3f}s'>"
            f"{svg_html(s.svg, width=width, title=title + ': ' + s.description)}</div>"
        )
    parts.append("</div>")
    style = f"<style>{''.join(css)}</style>" if css else ""
    return style + "".join(parts)


def to_show(events, *, now: float, hold: float, ahead: float = LOOK_AHEAD_S) -> tuple[SignEvent, ...]:
    """The timed signs not yet over at game time ``now`` and starting within ``ahead``."""
    return tuple(e for e in events if e.at is not None and e.at + hold > now and e.at < now + ahead)


def _ms(seconds: float) -> int:
    return int(round(seconds * 1000))


CLOCK_JS = """<script>
// Shows the Play page's timed layers by the wall clock (see trainer/ui/watch_view.py).
const doc = window.parent.document;
function tick() {
  const now = Date.now();
  doc.querySelectorAll('.aluette-sign[data-from]').forEach(el => {
    el.style.animation = 'none';
    el.style.visibility = (+el.dataset.from <= now && now < +el.dataset.until) ? 'visible' : 'hidden';
  });
  doc.querySelectorAll('.aluette-look[data-looks]').forEach(el => {
    el.style.animation = 'none';
    const looks = JSON.parse(el.dataset.looks);
    el.style.opacity = looks.some(([a, b]) => a <= now && now < b) ? '1' : '0';
  });
}
tick();
setInterval(tick, 40);
</script>"""
"""Runs in a component frame of the page's own origin (Streamlit's frames allow same-origin scripts)."""
