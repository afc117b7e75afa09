"""The catch drill on the Practice page: click "seen!" while the face across shows a real sign.

Wiring only: rounds, verdicts and the tally are :mod:`trainer.ui.catch_drill`'s; the face and its
timed layers are :mod:`trainer.ui.watch_view`'s (shown by the wall clock in the browser). The page's
clock is ``st.session_state["catch_clock"]`` (``time.time``; a test sets its own).
"""

from __future__ import annotations

import random
import time

import streamlit as st

from trainer.signals.conventions import Convention
from trainer.ui import catch_drill, render, watch_view
from trainer.ui.settings import Settings

VARIANT = 1
"""The drill's face: the look of the Play page's West."""


def _clock():
    return st.session_state.setdefault("catch_clock", time.time)


def _start(convention: str) -> None:
    rng = random.SystemRandom()
    shows = catch_drill.make_round(random.Random(rng.randrange(2 ** 32)), Convention.named(convention))
    st.session_state["catch_round"] = {"shows": shows, "origin": _clock()(), "clicks": []}


def _seen() -> None:
    game = st.session_state.get("catch_round")
    if game is None:
        return
    t = _clock()() - game["origin"]
    game["clicks"].append(catch_drill.judge(game["shows"], t, game["clicks"]))


_WORDS = {
    catch_drill.Verdict.CAUGHT: "Caught: {sign}.",
    catch_drill.Verdict.FOOLED: "Fooled: {gesture} is no sign of this convention.",
    catch_drill.Verdict.LATE: "Too late: {sign} had just ended.",
    catch_drill.Verdict.NOTHING: "Nothing was showing.",
}


def panel(settings: Settings) -> None:
    """The drill: start a round, watch the face, click "seen!" on the real signs."""
    from trainer.deck import avatar_svg

    st.subheader("Catch drill")
    st.caption("The face across the table makes gestures; some are signs of your convention, some are "
               "decoys. Click **seen!** while a real sign shows (about 1.5 s).")
    st.button("Start a round", key="catch_start", on_click=_start, args=(settings.convention,))
    game = st.session_state.get("catch_round")
    if game is None:
        return
    shows, clicks = game["shows"], game["clicks"]
    now = _clock()() - game["origin"]
    showing = tuple(
        watch_view.Showing(s.index, s.at, s.sign.value if s.sign else s.gesture.value, s.gesture.description,
                           avatar_svg(s.gesture, variant=VARIANT, width=110), s.at - now, s.hold)
        for s in shows if s.at + s.hold > now
    )
    # On the wall clock, the browser shows each gesture at its moment (watch_view.CLOCK_JS).
    wall = _clock() is time.time
    st.markdown(watch_view.SHOW_CSS + watch_view.seat_html(
        VARIANT, base_svg=avatar_svg(None, variant=VARIANT, width=110), looking_svg=None, spells=(), now=now,
        showing=showing, width=110, title="The face across", epoch=game["origin"] if wall else None,
    ), unsafe_allow_html=True)
    if wall:
        from trainer.ui.st_adapter import run_script

        run_script(watch_view.CLOCK_JS)
    st.button("seen!", key="catch_seen", on_click=_seen, type="primary")
    if clicks:
        last = clicks[-1]
        words = _WORDS[last.verdict].format(
            sign=render.sign_label(last.show.sign, settings.language) if last.show and last.show.sign else "",
            gesture=last.show.gesture.description if last.show else "")
        with st.container(key="catch_verdict"):
            (st.success if last.verdict is catch_drill.Verdict.CAUGHT else st.warning)(words)
    tally = catch_drill.score(shows, clicks, now)
    over = now > catch_drill.round_end(shows)
    signs = sum(s.is_sign for s in shows) if over else tally.signs
    st.markdown(f"{'Round over' if over else 'So far'}: caught **{tally.caught}** of {signs} "
                f"signs · missed {tally.missed} · fooled by {tally.fooled} decoy(s) · late {tally.late} · "
                f"on nothing {tally.empty}")
