"""The contact sheet of the whole deck (docs/deck.svg): 48 cards strongest first, the back, and
every gesture pictogram. ``python -m trainer.deck.sheet [--png]`` rewrites it.

Imports the deck, rules and signals only; the optional PNG is rendered by a headless Chromium
found on the PATH (or at /usr/bin/chromium), run as a subprocess.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import tempfile
from html import escape
from pathlib import Path

from trainer.deck.render import SERIF, DeckError, card_back_svg, card_svg, sign_svg
from trainer.rules.cards import CARDS
from trainer.signals.conventions import CLASSIC
from trainer.signals.gestures import Gesture

_ROOT_ATTRS = re.compile(r"^<svg ([^>]*)>")
COLUMNS = 8
CARD_W, CARD_H, GAP = 150, 225, 14


def _place(svg: str, x: float, y: float) -> str:
    """Nest a standalone document at (x, y): keep its viewBox/size, drop the namespace attribute."""
    attrs = _ROOT_ATTRS.match(svg)
    if attrs is None:  # our own renderer always writes this shape
        raise ValueError("not an svg document from trainer.deck")
    inner = svg[attrs.end():]
    kept = attrs.group(1).replace('xmlns="http://www.w3.org/2000/svg" ', "")
    return f'<svg x="{x:g}" y="{y:g}" {kept}>{inner}'


def contact_sheet_svg(language: str = "fr") -> str:
    """One SVG document showing the whole deck in strength order, the back and the signs."""
    parts: list[str] = []
    margin = 24
    y = 60
    title = "Aluette — les 48 cartes, de la plus forte à la plus faible (niveau 1 à 19)"
    parts.append(
        f'<text x="{margin}" y="38" font-family="{SERIF}" font-size="24" font-weight="bold" '
        f'fill="#3a3026">{escape(title)}</text>'
    )
    group_of_row: list[str] = []
    for i, card in enumerate(CARDS):
        row, col = divmod(i, COLUMNS)
        if col == 0:
            group_of_row.append(card.group.value)
        x = margin + col * (CARD_W + GAP)
        parts.append(_place(card_svg(card, language=language, width=CARD_W), x, y + row * (CARD_H + GAP)))
    rows = (len(CARDS) + COLUMNS - 1) // COLUMNS
    y += rows * (CARD_H + GAP) + 10
    parts.append(
        f'<text x="{margin}" y="{y + 20}" font-family="{SERIF}" font-size="20" font-weight="bold" '
        f'fill="#3a3026">Dos · Signes (convention « classic ») · Gestes</text>'
    )
    y += 34
    parts.append(_place(card_back_svg(width=CARD_W), margin, y))
    x0 = margin + CARD_W + GAP * 2
    size = 96
    per_row = (COLUMNS * (CARD_W + GAP) - (x0 - margin)) // (size + 12)
    for j, gesture in enumerate(Gesture):
        row, col = divmod(j, per_row)
        parts.append(_place(sign_svg(gesture, convention=CLASSIC, width=size, label=True), x0 + col * (size + 12),
                            y + row * (size * 1.22 + 10)))
    width = margin * 2 + COLUMNS * (CARD_W + GAP) - GAP
    height = y + CARD_H + margin
    body = "".join(parts)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}"><rect width="{width}" height="{height}" fill="#efe7d6"/>{body}</svg>'
    )


def svg_size(svg: str) -> tuple[int, int]:
    """The width and height an SVG document declares (the first ``width=".." height=".."``)."""
    size = re.search(r'width="(\d+)" height="(\d+)"', svg)
    if size is None:
        raise DeckError("the SVG declares no width and height: it cannot be drawn as a PNG")
    return int(size.group(1)), int(size.group(2))


def render_png(svg_path: Path, png_path: Path, width: int, height: int) -> None:
    """Screenshot the SVG with headless Chromium (no Python package needed)."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or "/usr/bin/chromium"
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "sheet.html"
        page.write_text(
            f'<html><body style="margin:0">{svg_path.read_text(encoding="utf-8")}</body></html>',
            encoding="utf-8",
        )
        subprocess.run(
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             f"--user-data-dir={tmp}/profile", f"--screenshot={png_path}", f"--window-size={width},{height}",
             page.as_uri()],
            check=True, capture_output=True, timeout=120,
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/deck.svg"))
    parser.add_argument("--language", default="fr", choices=("fr", "en", "it"))
    parser.add_argument("--png", action="store_true", help="also write a PNG beside it (headless Chromium)")
    args = parser.parse_args(argv)
    svg = contact_sheet_svg(args.language)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(svg + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({len(svg) // 1024} KiB)")
    if args.png:
        png = args.out.with_suffix(".png")
        render_png(args.out, png, *svg_size(svg))
        print(f"wrote {png}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
