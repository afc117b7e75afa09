"""The Rules page: a short summary of Aluette, the presets, the sign table of the chosen convention,
and the 48 cards in strength order with the project's card pictures.

Card strength and names come from ``trainer.rules.cards``; pictures from ``trainer.deck``.
"""

from __future__ import annotations

import streamlit as st

from trainer.rules.cards import NUMBER_OF_LEVELS, cards_at_level
from trainer.signals.conventions import Convention
from trainer.signals.signs import Sign
from trainer.ui import render, state

SUMMARY = """
**Aluette** (*la vache*) is a trick-taking game from the west of France, played with 48 Spanish-suited
cards by four players in two teams, partners facing each other.

- Each player gets **9 cards** (dealt in batches of three); 12 cards stay aside (the talon).
- **No trumps, no suit to follow**: any card may be played, and the strongest card wins the trick. The
  strength order is fixed (below): Monsieur (3 of coins) beats everything.
- If the two highest cards of a trick are equal, the trick is **pourri** (spoiled): nobody takes it.
- Tricks count **per player**. The player with the most tricks scores 1 point for the team; a tie goes
  to whoever **reached that number first**.
- **Mordienne**: a player who took no trick before and then takes the last tricks in a row (at least
  three, up to the ninth) scores 2 points.
- Partners tell each other their strong cards with **signs** — grimaces and finger signs — and try to
  catch the opponents' signs. Learn them on the Practice page.
"""

PRESET_TABLE = "\n" + "\n".join((
    "| preset | chant receivers | lead after pourri | game end | giving up | announced mordienne |",
    "|---|---|---|---|---|---|",
    "| `vendee` (default) | left opponent + dealer's partner | leader of the spoiled trick | first to 5 points "
    "| opponents +1 | accept/decline |",
    "| `pagat` | left opponent + dealer | leader of the spoiled trick | exactly 5 deals "
    "| accept +1 / refuse → mordienne or +2 | extends to 10 points |",
    "| `english` | left opponent + dealer | the spoiler | exactly 5 deals | opponents +1 | off |",
)) + "\n"


def show() -> None:
    settings = state.settings()
    st.title("Rules of Aluette")
    st.markdown(SUMMARY)
    st.subheader("Presets")
    st.caption(f"Your preset: **{settings.preset}** (change it in the sidebar).")
    st.markdown(PRESET_TABLE)

    st.subheader(f"Signs — convention “{settings.convention}”")
    convention = Convention.named(settings.convention)
    rows = ["| sign | meaning | gesture | drawn |", "|---|---|---|---|"]
    for sign in Sign:
        gestures = convention.gestures_for(sign)
        if not gestures:
            continue
        meaning = render.cards_label(sign.cards, settings.language) or sign.english
        picture = render.sign_svg(sign, settings.convention, width=44)
        drawn = render.svg_html(picture, width=44, title=render.gesture_label(gestures[0], settings.language))
        rows.append(
            f"| {render.sign_label(sign, settings.language)} | {meaning} | "
            f"{' or '.join(g.description for g in gestures)} | {drawn} |"
        )
    st.markdown("\n".join(rows), unsafe_allow_html=True)

    st.subheader("Card strength, strongest first")
    for level in range(1, NUMBER_OF_LEVELS + 1):
        cards = cards_at_level(level)
        cols = st.columns([1, 8])
        cols[0].markdown(f"**{level}**")
        with cols[1]:
            names = " · ".join(render.card_label(c, settings.language) for c in cards)  # codes: the pictures' tooltips
            st.markdown(f"{cards[0].group.value} — {names}")
            st.markdown(
                " ".join(render.svg_html(render.card_svg(c, language=settings.language, convention=settings.convention),
                                         width=90, title=c.code) for c in cards),
                unsafe_allow_html=True,
            )

