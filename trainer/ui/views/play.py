"""The Play page: the person and bots at a table of 3, 4 or 6, at any preset, drawn as a card table.

The table settings (size, the opponents' vigilance, whether signs may lie, the bots) are chosen
before a game and change for the next one (:class:`~trainer.bots.table_setup.TableSettings`, the
same value ``aluette play`` builds from its flags); preset and convention come from the sidebar.

Card faces and avatars are the deck's drawings; the game, the legal actions and the scoring are the
engine's; the bots and the signs between seats (who saw, who caught) are the Table's. The sentences
are built from those typed values (:mod:`trainer.ui.table_talk`), the coach's notes from what the
bots actually did (:mod:`trainer.ui.coach`). This page draws them, turns clicks and camera signs into
the person's inputs, and saves, resumes and replays games through the Store.

A message belongs to its moment: a refusal to the trick it was made in, the signs sent and the
catches to their deal, a deal's result to its review (from its end to the person's "Next deal"). One
deal is on screen at a time: during a review the hand, the signs, the catches, the tricks and the
coach are the closed deal's; after "Next deal" the screen belongs to the new deal alone.
"""

from __future__ import annotations

import html
import random
import time
from collections.abc import Callable

import streamlit as st

from trainer.bots.table_setup import TABLE_SIZES, TableSettings
from trainer.narration.words import words_for
from trainer.rules.actions import Answer, Declaration, Declare, Discard, Phase, Vote
from trainer.rules.cards import Card
from trainer.rules.game import DealResult, TrickRecord
from trainer.signals.conventions import Convention
from trainer.signals.relative import Announcement, Step, unheld_levels
from trainer.signals.signs import MadeSign, Sign, Signal
from trainer.signals.table import VIGILANCE_LEVELS, SignEvent, is_truthful
from trainer.ui import coach, persistence, render, run_log, state, watch_view
from trainer.ui import table_talk as talk
from trainer.ui.game_session import BOT_NAMES, HUMAN_SEAT, PARTNER_SEAT, GameSession, SessionError
from trainer.ui.page_state import CatchNote, PlayPage, Refusal, SentSign
from trainer.ui.settings import Settings
from trainer.ui.views import play_camera

SEAT_NAMES = {0: "You (South)", 1: "West", 2: "North — your partner", 3: "East"}
SHORT_NAMES = {0: "you", 1: "West", 2: "North", 3: "East"}
WIN_COLOUR = "#2e7d32"
_VIGILANCE_HELP = {
    "blind": "never catch a sign", "casual": "catch one sign in ten", "normal": "catch one sign in four",
    "sharp": "catch one sign in two", "hawk": "catch nine signs in ten",
}


def short_name(seat: int, players: int = 4) -> str:
    """``you``, ``West``, ``North-East``: a seat at a table of ``players``."""
    return SHORT_NAMES[seat] if players == 4 else talk.seat_name(seat, players=players)


def seat_label(seat: int, players: int = 4) -> str:
    """The seat's name under its avatar: the partner marked (``North — your partner``)."""
    if players == 4:
        return SEAT_NAMES[seat]
    words = words_for("en", players)
    name = words.compass(seat)
    if seat == HUMAN_SEAT:
        return f"You ({name})"
    return f"{name} — your partner" if words.is_partner(seat) else name
TURN_COLOUR = "#f9a825"


def _team_names(players: int) -> tuple[str, ...]:
    """The teams as the score line names them: ``your team`` / ``opponents`` at four."""
    if players == 4:
        return ("your team", "opponents")
    words = words_for("en", players)
    return tuple(words.team(t) for t in range(words.rules.team_count))


def _session() -> GameSession | None:
    return st.session_state["game"]


def _game() -> GameSession:
    """The game on the page, for the callbacks of buttons drawn only while there is one."""
    session = _session()
    if session is None:
        raise SessionError("there is no game on the Play page: start a new game first")
    return session


def _autosave(session: GameSession) -> None:
    """Save the game in its own autosave slot (one per game, kept until the person deletes it)."""
    session.autosave_name = persistence.autosave(session.to_json(), session.autosave_name) or session.autosave_name


# -- moments: what a message speaks of ---------------------------------------------------------------

def _page() -> PlayPage:
    """The Play page's own state (:class:`~trainer.ui.page_state.PlayPage`)."""
    page: PlayPage = st.session_state["play_page"]
    return page


def _deal_moment(session: GameSession) -> tuple:
    return (id(session), shown_deal(session))


def shown_deal(session: GameSession) -> int:
    """The deal the screen belongs to: the closed one during its review (and at the game's end),
    else the one being played."""
    closed = _closed_trick(session)
    if closed is not None and closed[1] is not None:
        return closed[1].deal
    return session.table.game.deal_number


def _trick_moment(session: GameSession) -> tuple:
    game = session.table.game
    return (id(session), game.deal_number, len(game.tricks), game.is_over)


def _say_error(session: GameSession, text: str) -> None:
    """A refusal speaks of the trick it was made in: gone once that trick is over."""
    _page().refusal = Refusal(_trick_moment(session), text)


def _current_error(session: GameSession) -> str | None:
    return _page().refusal_at(_trick_moment(session))


def _closed_trick(session: GameSession) -> tuple[TrickRecord | None, DealResult | None] | None:
    """The trick that stays on the table: the last closed one, until the next lead. After a deal's
    last trick, that trick with the deal's result, until the next deal's first card (read from the
    table's events by :func:`trainer.ui.table_events.closed_trick`)."""
    from trainer.ui.table_events import closed_trick

    closed = closed_trick(session.table.events)
    if closed is not None and closed[1] is not None and not (session.reviewing or session.table.is_over):
        return None  # after "Next deal" the screen belongs to the new deal
    return closed


# -- setup, saved games, replay -----------------------------------------------------------------

def table_settings(settings: Settings) -> TableSettings:
    """The table the settings panel describes now (the sidebar's preset and convention). The panel's
    values are in session state whether it is drawn or not, with their defaults (trainer.ui.state)."""
    state = st.session_state
    return TableSettings(
        players=int(state["play_players"]), preset=settings.preset, vigilance=state["play_vigilance"],
        lies=bool(state["play_lies"]), convention=settings.convention,
        partner=state["play_partner"], opponents=state["play_opponents"], calls=int(state["play_calls"]),
    )


def _new_game(settings: Settings) -> None:
    seed = st.session_state["play_seed"]
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)  # a fresh deal each game; saved with the game
    st.session_state["play_seed"] = None
    # A timed table: the opponents look at you or away, and you catch their signs by eye.
    st.session_state["game"] = GameSession.begin(table_settings(settings), seed, timed=True)
    st.session_state["play_page"] = PlayPage()
    st.session_state["replay"] = None
    st.session_state[SETUP_KEY] = False  # the panel closes on the new table


def _settings_panel(settings: Settings) -> None:
    """The table settings: size, watchfulness, lies, bots. They apply to the next new game."""
    st.markdown("**Table settings** (for the next new game)")
    cols = st.columns(3)
    # The defaults are in session state (trainer.ui.state): the panel is not drawn while closed.
    cols[0].radio("Players", TABLE_SIZES, key="play_players", horizontal=True,
                  format_func=lambda n: {3: "3 (each alone)", 4: "4 (two pairs)", 6: "6 (three pairs)"}[n])
    levels = tuple(VIGILANCE_LEVELS)
    cols[1].select_slider("Opponents' vigilance", levels, key="play_vigilance",
                          help="How often the opponents catch a sign: " +
                          "; ".join(f"{name}: {_VIGILANCE_HELP[name]}" for name in levels) + ".")
    cols[2].checkbox(talk.LIES_SETTING, key="play_lies",
                     help="Signs (and the words after them) may bluff: your lies are sent, and the bots "
                          "trust every sign less.")
    alone = st.session_state["play_players"] == 3
    bots = st.columns(4)
    bots[0].selectbox("Your partner", BOT_NAMES, key="play_partner", disabled=alone,
                      help="At three everybody plays alone." if alone else None)
    bots[1].selectbox("Opponents", BOT_NAMES, key="play_opponents")
    bots[2].number_input("'seen!' calls a deal", 1, 20, key="play_calls", disabled=alone,
                         help="How many signs each player may call seen a deal. A wrong call spends one "
                              "too, so clicking blindly leaves none for a real sign; the bots' catches "
                              "count the same way.")
    bots[3].button("New game", key="play_new", type="primary", on_click=_new_game, args=(settings,))
    st.caption(f"Preset **{settings.preset}**, convention **{settings.convention}** (sidebar). "
               f"Next game: {table_settings(settings).summary()}.")


SETUP_KEY = "play_setup"
"""Session-state key of whether the setup panel is open (open until a game is on the table)."""
SETUP_WIDGETS = ("play_players", "play_vigilance", "play_lies", "play_partner", "play_opponents", "play_calls",
                 "play_save_name")


def _setup_panel(settings: Settings) -> None:
    """The setup panel, drawn only while it is open: its dozen widgets, redrawn at every click even
    when collapsed, were a quarter of a card click's time in the browser (docs/app.md)."""
    if SETUP_KEY not in st.session_state:
        st.session_state[SETUP_KEY] = _session() is None
    panel = st.expander("New game, table settings, saved games", key=SETUP_KEY, on_change="rerun")
    if not panel.open:
        # Streamlit forgets a widget that is not drawn: keep the choices for when the panel opens.
        for key in SETUP_WIDGETS:
            if key in st.session_state:
                st.session_state[key] = st.session_state[key]
        return
    with panel:
        _settings_panel(settings)
        if render.missing(persistence.store_piece()):
            return
        session = _session()
        if session is not None:
            save_cols = st.columns([3, 1])
            if st.session_state.get("_save_name_for") != id(session):
                # A new or resumed game: the name offered is this game's, not the previous one's.
                st.session_state["_save_name_for"] = id(session)
                st.session_state["play_save_name"] = f"game-{session.seed}"
            name = save_cols[0].text_input("Save as", key="play_save_name")
            if save_cols[1].button("Save", key="play_save"):
                problem = persistence.save_named_game(name, session.to_json())
                st.error(problem) if problem else st.toast(f"Saved as {name.strip()}")
        saved = persistence.saved_games()
        if saved:
            load_cols = st.columns([3, 1, 1, 1])
            chosen = load_cols[0].selectbox("Saved games", saved, key="play_saved") or saved[0]
            if load_cols[3].button("Delete", key="play_delete", help="Delete this saved game for good"):
                problem = persistence.delete_game(chosen)
                st.error(problem) if problem else st.toast(f"Deleted {chosen}")
                if problem is None:
                    st.rerun()
            if load_cols[1].button("Resume", key="play_resume"):
                try:
                    resumed = persistence.resume_game(chosen)
                    if chosen.startswith(persistence.AUTOSAVE_PREFIX):
                        resumed.autosave_name = chosen  # the game goes on in its own autosave
                    st.session_state["game"] = resumed
                    st.session_state["replay"] = None
                    st.session_state["play_page"] = PlayPage()
                except ValueError as error:  # persistence.SaveError: the reason and what to do
                    st.error(str(error))
            if load_cols[2].button("Replay", key="play_replay"):
                st.session_state["replay"] = {"name": chosen}


def _replay_panel(settings: Settings) -> bool:
    replay = st.session_state["replay"]
    if replay is None:
        return False
    try:
        game = persistence.replay_game(replay["name"])
    except ValueError as error:  # persistence.SaveError
        st.error(str(error))
        return False
    tricks = [(r.deal, t) for r in game.results for t in r.tricks] + [(game.deal_number, t) for t in game.tricks]
    st.subheader(f"Replay of {replay['name']}: {len(tricks)} trick(s)")
    if st.button("Close the replay", key="replay_close"):
        st.session_state["replay"] = None
        st.rerun()
    if not tricks:
        st.info("No trick was played in this game yet.")
        return True
    number = st.slider("Trick", 1, len(tricks), value=len(tricks), key="replay_trick") if len(tricks) > 1 else 1
    deal, trick = tricks[number - 1]
    n = game.ruleset.player_count
    won = [0] * n
    for d, t in tricks[:number]:
        if d == deal and t.winner is not None:
            won[t.winner] += 1
    st.markdown(f"**Deal {deal}, trick {trick.number}** — led by {short_name(trick.leader, n)}")
    cols = st.columns(n)
    for col, (seat, card) in zip(cols, trick.plays(n), strict=False):
        with col:
            _card_picture(card, settings, width=90)
            st.caption(f"{short_name(seat, n)}: {talk.card_name(card, settings.language)}")
    outcome = talk.trick_outcome(trick, n)
    st.markdown(f"Result: **{outcome}**. Tricks so far this deal: " +
                ", ".join(f"{short_name(s, n)} {won[s]}" for s in range(n)))
    for result in game.results:
        if result.deal == deal and number == len([1 for d, _ in tricks if d <= deal]):
            st.info(talk.deal_result_text(result, n, settings.language))
    return True


# -- drawing ---------------------------------------------------------------------------------------

def _card_html(card: Card, settings: Settings, width: int, *, mark: str | None = None, colour: str = WIN_COLOUR,
               seat: int | None = None, players: int = 4) -> str:
    """A card picture (the code only in its tooltip), framed and labelled when ``mark`` is given; a
    card on the table names the seat that played it (``North-East: roi de coupe``)."""
    name = talk.card_name(card, settings.language)
    if seat is not None:
        name = f"{'you' if seat == HUMAN_SEAT else short_name(seat, players)}: {name}"
    title = f"{render.card_label(card, settings.language)} [{card.code}]"
    picture = render.card_svg(card, language=settings.language, width=width, convention=settings.convention)
    svg = render.svg_html(picture, width=width, title=title)
    where = "" if seat is None else f" class='aluette-card' data-seat='{seat}'"
    if seat is not None:  # a card on the table: as wide as its drawing, placed by its seat's side
        where += " style='display:inline-block;text-align:center'"
    where = where or " style='text-align:center'"
    if mark is None:
        return f"<div{where}>{svg}<div style='font-size:0.85em'>{html.escape(name)}</div></div>"
    return (f"<div{where}><div style='display:inline-block;border:4px solid {colour};"
            f"border-radius:10px;padding:2px'>{svg}</div><div style='font-size:0.85em'>{html.escape(name)}"
            f"<br/><b style='color:{colour}'>{html.escape(mark)}</b></div></div>")


def _card_picture(card: Card, settings: Settings, width: int = 96) -> None:
    st.markdown(_card_html(card, settings, width), unsafe_allow_html=True)


def _in_time_order(events) -> list:
    """Sign events in the order they were made: by their moment on a timed table (a bot chooses
    its moment ahead, a camera sign began before it was sent), else as recorded."""
    return sorted(events, key=lambda e: (e.at if e.at is not None else -1.0, e.index))


def _seat_signs(session: GameSession, seat: int) -> list:
    """The signs of ``seat`` in the deal on screen that the person saw (an opponent's only when
    caught), in time order; on a timed table only those already begun."""
    deal = shown_deal(session)
    now = session.game_time() if session.timed else None
    return _in_time_order(
        t.event for t in session.table.visible_signs(HUMAN_SEAT, all_deals=True)
        if t.deal == deal and t.event.seat == seat and (now is None or t.event.at is None or t.event.at <= now)
    )


def _words(event, settings: Settings) -> str:
    """`` — then aloud: au-dessous (a king)``: the words told after a sign, and what they name."""
    words = getattr(event, "announcements", ())
    if not words:
        return ""
    named = talk.join([talk.level_name(level, settings.language) for level in event.levels])
    return f" — then aloud: {', '.join(a.french for a in words)} ({named})"


def _signal_text(signal: Signal, settings: Settings) -> str:
    text = render.sign_label(signal.sign, settings.language)
    return f"{text} ×{signal.count}" if signal.count > 1 else text


def _tricks_taken(session: GameSession, view) -> tuple[str, tuple[int, ...]]:
    """Tricks per seat as the table shows them: the finished deal's while its result is on the table."""
    closed = _closed_trick(session)
    if closed is not None and closed[1] is not None:
        return f"tricks in deal {closed[1].deal}", closed[1].tricks_won
    return "tricks", view.tricks_won


def _seat_box(session: GameSession, seat: int, settings: Settings, view, turn: int | None) -> None:
    """A bot's seat: its avatar making its latest sign seen, its name, whose turn, its signs."""
    signs = _seat_signs(session, seat)
    latest = signs[-1] if signs else None
    n = view.players
    if session.timed and session.partner_seat is not None:
        _watched_avatar(session, seat, latest)
    else:
        from trainer.deck import avatar_svg

        render.show_svg(avatar_svg(latest.gesture if latest else None, variant=seat, width=84,
                                   label=short_name(seat, n)), width=84, title=seat_label(seat, n))
    dealer = " · dealer" if view.dealer == seat else ""
    label, won = _tricks_taken(session, view)
    cards = "" if session.reviewing else f" · cards: {view.hand_sizes[seat]}"
    st.markdown(f"**{seat_label(seat, n)}**{dealer}  \n{label}: **{won[seat]}**{cards}")
    if turn == seat:
        st.markdown(f"<span style='background:{TURN_COLOUR};padding:2px 8px;border-radius:8px'>"
                    f"▶ {short_name(seat, n)} to play</span>", unsafe_allow_html=True)
    if signs:
        pictures = " ".join(
            render.svg_html(render.sign_svg(e.signal, settings.convention, width=34), width=34,
                            title=render.sign_label(e.sign, settings.language))
            for e in signs
        )
        st.markdown(pictures, unsafe_allow_html=True)
        st.caption("Signs seen: " + ", ".join(_signal_text(e.signal, settings) + _words(e, settings) for e in signs))


def _watched_avatar(session: GameSession, seat: int, latest) -> None:
    """A seat at a timed table: an opponent looks at you or away, every seat shows its signs for
    as long as a face holds them (CSS, timed from now), and an opponent's sign is caught by
    clicking "seen!" on it while it shows."""
    from trainer.deck import avatar_svg

    table = session.table
    watch = table.watch
    if watch is None:
        raise SessionError("the watched avatars need a timed table (GameSession.begin(..., timed=True))")
    now = session.game_time()
    hold = watch.gaze.hold_s
    n = session.players
    label = short_name(seat, n)
    opponent = seat in watch.watchers(HUMAN_SEAT)
    deal = shown_deal(session)
    events = [t.event for t in table.history if t.deal == deal and t.event.seat == seat]
    showing = tuple(
        watch_view.Showing.of(e, avatar_svg(e.gesture, variant=seat, width=84, label=label),
                              (now if e.at is None else e.at) - now, hold)
        for e in watch_view.to_show(events, now=now, hold=hold)
    )
    if opponent:
        base = avatar_svg(None, variant=seat, width=84, label=label, away=True)
        looking = avatar_svg(None, variant=seat, width=84, label=label)
        spells = watch.looks(seat, HUMAN_SEAT, now + watch_view.LOOK_AHEAD_S)
    else:
        base = avatar_svg(latest.gesture if latest else None, variant=seat, width=84, label=label)
        looking, spells = None, ()
    # Game time 0 on the wall clock, so the browser shows each layer at its moment (watch_view.CLOCK_JS).
    epoch = time.time() - now
    st.markdown(watch_view.SHOW_CSS + watch_view.seat_html(
        seat, base_svg=base, looking_svg=looking, spells=spells, now=now, showing=showing, width=84,
        title=seat_label(seat, n), epoch=epoch), unsafe_allow_html=True)
    if opponent and not session.reviewing:
        left = table.calls_left(HUMAN_SEAT)
        st.button("seen!", key=f"seen_{seat}", on_click=_seen, args=(seat,), disabled=left == 0,
                  help=f"Click while {label} shows a sign to catch it" + (
                      "" if left is None else f" ({left} call{'s' if left != 1 else ''} left this deal)"))


def _seen(seat: int) -> None:
    """The person says they saw ``seat`` sign just now: caught if a sign of that seat showed."""
    session = _game()
    if session.table.is_over:
        return
    try:
        event = session.seen(seat)
    except ValueError as error:
        _say_error(session, f"Not counted: {error}.")
        return
    settings = state.settings()
    left = session.table.calls_left(HUMAN_SEAT)
    spent = "" if left is None else (
        f" That call is spent: {left} left this deal." if left else
        " That was your last call this deal: the table no longer hears your 'seen!' until the next.")
    if event is None:
        text = f"Missed: nothing of {short_name(seat, session.players)}'s was showing when you clicked.{spent}"
    else:
        text = f"Caught! {short_name(seat, session.players)} signed **{_signal_text(event.signal, settings)}**."
    _page().catch = CatchNote(_deal_moment(session), event is not None, text)
    _autosave(session)


def _catch_note(session: GameSession) -> None:
    """The outcome of the latest "seen!" click of this deal, and the calls left."""
    calls = session.settings.calls
    if session.timed and session.partner_seat is not None and not session.reviewing and calls is not None:
        left = session.table.calls_left(HUMAN_SEAT)
        st.caption(f"'seen!' calls left this deal: **{left} of {calls}** — a wrong call spends one too.")
    note = _page().catch_at(_deal_moment(session))
    if note is None:
        return
    with st.container(key="catch_result"):
        (st.success if note.caught else st.warning)(note.text, icon=":material/visibility:")


def _table_cards(session: GameSession, view, settings: Settings) -> dict[int, str]:
    """The card in front of each seat: the trick in progress, or the closed trick with its winner."""
    players = view.players
    if view.current_trick:
        plays = [((view.trick_leader + i) % players, c) for i, c in enumerate(view.current_trick)]
        return {seat: _card_html(card, settings, 78, seat=seat, players=players) for seat, card in plays}
    closed = _closed_trick(session)
    if closed is None or closed[0] is None:
        return {}
    trick = closed[0]
    out = {}
    for seat, card in trick.plays(players):
        where = {"seat": seat, "players": players}
        if trick.spoiled:
            out[seat] = _card_html(card, settings, 78, mark="pourri", colour="#9e9e9e", **where)
        elif seat == trick.winner:
            out[seat] = _card_html(card, settings, 78, mark=f"{'you win' if seat == HUMAN_SEAT else 'wins'} the trick",
                                   **where)
        else:
            out[seat] = _card_html(card, settings, 78, **where)
    return out


def _centre(session: GameSession, view, settings: Settings) -> None:
    """The middle of the table: which trick, who led, or the closed trick's result."""
    number = len(view.tricks) + 1
    if view.current_trick:
        led = talk.says(view.trick_leader, 'led', 'led', players=view.players)
        st.markdown(f"**Trick in progress** (trick {number}) — {led}")
        return
    closed = _closed_trick(session)
    if closed is not None:
        trick, result = closed
        if trick is not None:
            last = ", the deal's last" if result is not None else ""
            st.markdown(f"**Last trick** (trick {trick.number}{last}): **{talk.trick_outcome(trick, view.players)}**")
        if result is not None:
            st.markdown(f"**Deal {result.deal} is over.**")
        return
    if view.phase is Phase.PLAY and view.trick_leader is not None:
        st.markdown(f"**Trick {number}** — {talk.says(view.trick_leader, 'lead', 'leads', players=view.players)}")
    else:
        st.markdown(f"**Deal {view.deal_number}** — before the first trick")


def _middle_row(session, settings, view, turn, cards, *, right: int) -> None:
    """The table's middle row: seat 1 on the left, the trick in the centre, seat ``right`` on the
    right, each side's card between its seat and the centre."""
    middle = st.columns([1, 1, 1, 1, 1])
    with middle[0]:
        _seat_box(session, 1, settings, view, turn)
    with middle[1]:
        _place(cards, 1, "left")
    with middle[2]:
        _centre(session, view, settings)
    with middle[3]:
        _place(cards, right, "right")
    with middle[4]:
        _seat_box(session, right, settings, view, turn)


def _seat_with_card(session: GameSession, seat: int, settings: Settings, view, turn: int | None,
                    cards: dict[int, str], side: str = "left") -> None:
    _seat_box(session, seat, settings, view, turn)
    _place(cards, seat, side)


def _place(cards: dict[int, str], seat: int, side: str) -> None:
    """A seat's card on the table, against the ``side`` of its column that faces its seat."""
    st.markdown(f"<div style='text-align:{side}'>{cards.get(seat, _EMPTY)}</div>", unsafe_allow_html=True)


_EMPTY = "<div style='height:40px'></div>"


def _table(session: GameSession, view, settings: Settings, turn: int | None) -> None:
    """The seats around the table, clockwise from yours at the bottom, each with its card of the
    trick: at four North faces you, West and East at the sides; at three West and East across; at
    six North (your partner) across, the two pairs of opponents around."""
    cards = _table_cards(session, view, settings)
    players = view.players
    # The seat across (the partner) stands in the middle of its column, away from the side seats' cards.
    st.markdown("<style>.st-key-seat_across {text-align: center}</style>", unsafe_allow_html=True)
    if players == 3:
        top = st.columns([1, 1, 1])
        with top[0]:
            _seat_with_card(session, 1, settings, view, turn, cards)
        with top[1]:
            _centre(session, view, settings)
        with top[2]:
            _seat_with_card(session, 2, settings, view, turn, cards)
    elif players == 6:
        # Each side seat's card lies beside it, toward the middle, in its own column: North-East's
        # card is never above South-East's face (the rows share their five columns).
        top = st.columns([1, 1, 1, 1, 1])
        with top[0]:
            _seat_box(session, 2, settings, view, turn)
        with top[1]:
            _place(cards, 2, "left")
        with top[2], st.container(key="seat_across"):
            _seat_with_card(session, 3, settings, view, turn, cards, side="center")
        with top[3]:
            _place(cards, 4, "right")
        with top[4]:
            _seat_box(session, 4, settings, view, turn)
        _middle_row(session, settings, view, turn, cards, right=5)
    else:
        top = st.columns([1, 1, 1])
        with top[1], st.container(key="seat_across"):
            _seat_with_card(session, PARTNER_SEAT, settings, view, turn, cards, side="center")
        _middle_row(session, settings, view, turn, cards, right=3)
    bottom = st.columns([1, 1, 1])
    with bottom[1]:
        _place(cards, HUMAN_SEAT, "left")
        dealer = " · dealer" if view.dealer == HUMAN_SEAT else ""
        label, won = _tricks_taken(session, view)
        st.markdown(f"**{seat_label(HUMAN_SEAT, players)}**{dealer} · {label}: **{won[HUMAN_SEAT]}**")
        if turn == HUMAN_SEAT:
            st.markdown(f"<span style='background:{TURN_COLOUR};padding:2px 8px;border-radius:8px'>"
                        "▶ your turn</span>", unsafe_allow_html=True)


def _turn_banner(session: GameSession, view) -> None:
    if session.table.is_over:
        return
    closed = _closed_trick(session)
    deal_over = closed is not None and closed[1] is not None
    text = talk.turn_text(view.phase, view.to_move, over=False, paused=session.paused, deal_over=deal_over,
                          players=view.players)
    if session.reviewing and view.to_move == HUMAN_SEAT:
        text = "You play first in the next deal: click Next deal when you have seen the result"
    if view.to_move == HUMAN_SEAT and not session.paused:
        st.success(text, icon=":material/front_hand:")
    else:
        st.info(text, icon=":material/hourglass_top:")
    if session.paused:
        st.button("Next deal" if deal_over else "Next trick", key="play_next", type="primary", on_click=_next)


def _tricks_list(tricks, settings: Settings, players: int, deal: int) -> None:
    """The tricks of the deal on screen (the closed deal's during its review)."""
    if not tricks:
        return
    rows = []
    n = players
    for t in tricks:
        rows.append({
            "trick": t.number,
            "led by": short_name(t.leader, n),
            "cards": ", ".join(f"{short_name(s, n)}: {talk.card_name(c, settings.language)}" for s, c in t.plays(n)),
            "result": "pourri" if t.spoiled else short_name(t.winner, n),
        })
    with st.expander(f"Tricks of deal {deal} ({len(tricks)})"):
        st.dataframe(rows, hide_index=True, width="stretch")


def _score_sheet(view, *, expanded: bool = False) -> None:
    """One row per deal, a points column per team (``your team``/``opponents`` at four, ``you``,
    ``West``, ``East`` at three, the pairs at six)."""
    n = view.players
    rows = talk.score_sheet(view.results, n)
    if not rows:
        return
    teams = _team_names(n)
    # A static table: its cells wrap, so six seats' tricks and three teams fit the page's width
    # (a data grid keeps each cell on one line and scrolls sideways).
    with st.expander(f"Score sheet ({len(rows)} deal{'s' if len(rows) > 1 else ''})", expanded=expanded):
        with st.container(key="score_sheet"):
            st.table([
                {"deal": r.deal, "dealer": r.dealer, "how it ended": r.how, "tricks": r.tricks,
                 **dict(zip(teams, r.points, strict=False)), "total": "–".join(map(str, r.totals))}
                for r in rows
            ])


def _catch_banner(session: GameSession, settings: Settings) -> None:
    """The table says when a sign was caught: the opponents catching ours is a warning."""
    theirs, ours = [], []
    n = session.players
    team = {HUMAN_SEAT, session.partner_seat}
    deal = shown_deal(session)
    now = session.game_time() if session.timed else None
    # A bot chooses its sign's moment ahead: its catches are told once the sign has begun.
    for catch in (c for c in session.table.catches(all_deals=True) if c.deal == deal
                  and (now is None or c.event.at is None or c.event.at <= now)):
        maker, by = catch.event.seat, catch.by
        what = _signal_text(catch.event.signal, settings) + _words(catch.event, settings)
        if maker in team and by not in team:
            who = "your" if maker == HUMAN_SEAT else "your partner's"
            theirs.append(f"{short_name(by, n)} caught {who} sign: **{what}**")
        elif by == HUMAN_SEAT:
            ours.append(f"{short_name(maker, n)}'s sign **{what}**")
    if theirs:
        st.warning("Caught by the opponents this deal: " + "; ".join(theirs) + ".", icon=":material/visibility:")
    if session.timed:
        hints = coach.watched_notes(session.table.history, session.table.watch, deal)
        if hints:
            names = {s: short_name(s, n) for s in range(n)}
            st.caption(" ".join(coach.watched_text(h, names, lambda s: _signal_text(s, settings)) for h in hints))
    if ours:
        st.info("Caught by you this deal: " + "; ".join(ours) + ".", icon=":material/visibility:")


# -- the coach ------------------------------------------------------------------------------------

def _sign_notes_text(notes, settings: Settings, players: int = 4) -> str:
    parts = []
    for n in notes:
        seen = "North saw it" if n.seen_by_partner else "North missed it"
        caught = (f", caught by {talk.join([short_name(s, players) for s in n.caught_by])}" if n.caught_by
                  else ", no opponent caught it")
        bluff = "a bluff: you did not hold it, " if not n.truthful else ""
        parts.append(f"{talk.sign_name(n.signal, settings.language)}{_words(n, settings)} ({bluff}{seen}{caught})")
    return "; ".join(parts)


def _coach_panel(session: GameSession, settings: Settings) -> None:
    """After a trick and after a deal: what North understood from your signs and why it played."""
    closed = _closed_trick(session)
    if closed is None or session.partner_seat is None:
        return  # at three nobody has a partner to read their signs
    trick, result = closed
    table = session.table
    players, partner = session.players, session.partner_seat
    lines = []
    deal = result.deal if result is not None else table.game.deal_number
    if trick is not None:
        note = coach.trick_coach(session.moves, table.history, deal, trick, settings.language, players=players,
                                 tricks_per_deal=table.ruleset.tricks_per_deal, partner=partner)
        if note.signs:
            lines.append(f"**Your signs before North played:** {_sign_notes_text(note.signs, settings, players)}.")
        else:
            lines.append("**You had made no sign** before North played: it knew nothing of your hand from you.")
        if note.partner_card is not None:
            # North's own reading of each sign it had received: the one story its card came from.
            if note.readings:
                readings = "; ".join(coach.reading_text(r, settings.language, players) for r in note.readings)
                lines.append(f"**What North made of them:** {readings}.")
            elif note.signs:
                lines.append("**North believed:** nothing from you — it had missed your signs.")
            lines.append(f"**North played {talk.card_name(note.partner_card, settings.language)}** in trick "
                         f"{trick.number}: {note.why}.")
    if result is not None:
        review = coach.deal_coach(session.moves, table.history, result, settings.language,
                                  hand=session.deal_hands.get(result.deal, ()), players=players, partner=partner)
        lines.append(f"**Deal {result.deal} review**")
        if review.helped:
            lines.append("Your signs helped — " + "; ".join(review.helped) + ".")
        if review.bluffs:
            lines.append("Your bluffs — " + "; ".join(review.bluffs) + ".")
        if review.unpaid:
            lines.append("Signs that did not pay — " + "; ".join(review.unpaid) + ".")
        if review.would_help:
            lines.append("A sign would have helped — " + "; ".join(review.would_help) + ".")
        if review.caught:
            lines.append("A sign that cost you a catch — " + "; ".join(review.caught) + ".")
        if review.unsigned:
            lines.append("Signs your hand allowed that you did not make: " + talk.join(list(review.unsigned)) + ".")
        if not (review.helped or review.would_help or review.caught or review.unsigned or review.bluffs
                or review.unpaid):
            lines.append("No sign changed North's play this deal, and none was caught.")
    with st.container(border=True, key="coach"):
        st.markdown("**Coach**  \n" + "  \n".join(lines))


# -- the person's decisions ----------------------------------------------------------------------

def _give(session: GameSession, give: Callable[[], object], refused: str) -> None:
    """Give the table an input: once taken the page's last refusal goes and the game is saved; a
    refusal is said (``refused``, and the table's reason)."""
    try:
        give()
    except ValueError as error:
        _say_error(session, f"{refused}: {error}.")
        return
    _page().refusal = None
    _autosave(session)


def _act(action) -> None:
    session = _game()
    if isinstance(action, (Card, Discard)) and run_log.enabled():  # the soak times a card's click
        card = action.card if isinstance(action, Discard) else action
        run_log.note("card", card=card.code, session=run_log.session_tag(st.session_state))
    _give(session, lambda: session.act(action), "Not allowed now")


def _next() -> None:
    session = _game()
    session.next()
    _page().refusal = None
    _autosave(session)


def _send_sign(made: MadeSign, source: str, ago: float | None = None) -> None:
    """A sign to the table: a button's (the convention's gesture) or the camera's (with its gesture
    and confidence); a camera sign began ``ago`` seconds before now."""
    session = _game()
    settings = state.settings()
    signal = made.signal
    if session.table.is_over:
        _say_error(session, "The game is over: start a new game to sign again.")
        return
    if not session.table.lying_allowed and not is_truthful(signal, session.table.game.hand(HUMAN_SEAT)):
        _say_error(session, talk.refusal_text(signal, settings.language))
        return
    try:
        # A camera sign began ``ago`` seconds before now: the opponents' eyes judge that moment.
        at = None if ago is None or not session.timed else max(0.0, session.game_time() - ago)
        event = session.sign(made, at=at)
    except ValueError as error:
        _say_error(session, f"Your sign {talk.sign_name(signal, settings.language)} was not sent: {error}.")
        return
    _page().refusal = None
    _page().sent.append(SentSign(source, event, _deal_moment(session)))
    _autosave(session)


def _chant_told(session: GameSession, view, settings: Settings) -> None:
    """What was said before the first trick of the deal being played, told as the terminal tells
    it: each chant vote and its outcome (a chant declined before the person was asked included),
    each declaration and answer."""
    from trainer.rules.events import Answered, CardsDealt, ChantDecided, ChantVoted, Declared
    from trainer.ui.table_events import told

    events = session.table.events
    start = max((i for i, e in enumerate(events) if isinstance(e, CardsDealt)), default=0)
    chant = [e for e in events[start:] if isinstance(e, (ChantVoted, ChantDecided, Declared, Answered))]
    if not chant:
        return
    lines = told(chant, settings.language, view.players)
    if view.chant and view.chant_receivers:
        lines.append("Chant played: " + " and ".join(short_name(s, view.players) for s in view.chant_receivers)
                     + " received the talon.")
    with st.container(key="chant_told"):
        st.caption(" ".join(lines))


_DECLARE_LABELS = {
    Declaration.PASS: "Pass",
    Declaration.MORDIENNE: "Announce mordienne",
    Declaration.GIVE_UP: "Give up the deal",
}


def _decision_buttons(view) -> None:
    """The non-card choices the engine allows now: chant vote, declarations, answers."""
    options = [a for a in view.legal_actions if not isinstance(a, (Card, Discard))]
    if not options:
        return
    if view.phase is Phase.ANSWER and view.declarations:
        seat, declaration = view.declarations[-1]
        consequence = (
            "Accept: the deal is played for 2 points. Refuse: it is not played and their team scores 1."
            if declaration is Declaration.MORDIENNE else
            "Accept: your team takes 1 point without play. Refuse: your team must then make mordienne "
            "(2 points for you), or the other team scores 2.")
        st.markdown(f"**{talk.declaration_text(seat, declaration)}.** You answer for your team. {consequence}")
    elif view.phase is Phase.CHANT_VOTE:
        st.markdown(talk.chant_help(view.players))
    elif view.phase is Phase.DECLARE:
        st.markdown("**Before the first trick** you may pass, announce mordienne (to take the last tricks "
                    "in a row, for 2 points) or give the deal up (the opponents take 1 point):")
    cols = st.columns(len(options))
    for col, action in zip(cols, options, strict=False):
        if isinstance(action, Vote):
            label = "Play the chant" if action.agree else "No chant"
        elif isinstance(action, Declare):
            label = _DECLARE_LABELS[action.declaration]
        elif isinstance(action, Answer):
            label = "Accept" if action.accept else "Refuse"
        else:
            label = str(action)
        col.button(label, key=f"decide_{label}", on_click=_act, args=(action,))


def _hand(session: GameSession, view, settings: Settings) -> None:
    discarding = view.phase is Phase.DISCARD and view.to_move == HUMAN_SEAT
    playing = view.phase is Phase.PLAY and view.to_move == HUMAN_SEAT and not session.paused
    legal = {a.card if isinstance(a, Discard) else a for a in view.legal_actions if isinstance(a, (Card, Discard))}
    how = " — click a card to play it" if playing else " — choose a card to discard" if discarding else ""
    st.markdown("**Your hand**" + how)
    cols = st.columns(max(len(view.hand), 1))
    for col, card in zip(cols, view.hand, strict=False):
        with col:
            _card_picture(card, settings, width=88)
            label = "Discard" if discarding else "Play"
            action = Discard(card) if discarding else card
            st.button(label, key=f"card_{card.code}", disabled=card not in legal or session.paused,
                      on_click=_act, args=(action,),
                      help=f"{render.card_label(card, settings.language)} [{card.code}]", width="stretch")


def _sign_buttons(session: GameSession, settings: Settings) -> None:
    from trainer.signals.table import honest_signals

    convention = Convention.named(session.convention)
    st.markdown("**Sign to your partner** (buttons: for everyone, camera or not). "
                "Highlighted: the signs your hand allows.")
    true_now = {s.sign for s in honest_signals(session.table.view(HUMAN_SEAT).hand)}
    signs = [s for s in Sign if convention.gestures_for(s)]
    cols = st.columns(6)
    for i, sign in enumerate(signs):
        with cols[i % 6]:
            if sign is Sign.AS:
                count = st.number_input("aces", 1, 4, 1, key="sign_ace_count", label_visibility="collapsed")
                signal = Signal(Sign.AS, int(count))
            else:
                signal = Signal(sign)
            st.button(render.sign_label(sign, settings.language), key=f"sign_{sign.value}",
                      on_click=_send_sign, args=(convention.made(signal), "button"), width="stretch",
                      type="primary" if sign in true_now or sign is Sign.MORDIENNE else "secondary",
                      help=convention.gesture_for(sign).description)
    moment = _deal_moment(session)
    # The table's own record of each sign (its words told aloud since, its catches by eye since).
    now = {t.event.index: t.event for t in session.table.history if t.deal == moment[1] and t.event.seat == HUMAN_SEAT}
    sent = [(s.source, now.get(s.event.index, s.event)) for s in _page().sent_at(moment)]
    if sent:
        def caught(e: SignEvent) -> str:
            names = talk.join([short_name(c, session.players) for c in e.caught_by])
            return f", caught by {names}" if e.caught_by else ""

        st.caption("Sent to your partner this deal: " + "; ".join(
            f"{_signal_text(e.signal, settings)}{_words(e, settings)} ({source}"
            f"{', a bluff' if not e.truthful else ''}, North saw it{caught(e)})"
            for source, e in sent[-6:]))
    _announce_buttons(session, settings)


_STEPS = (Step.AU_DESSUS, Step.AU_DESSOUS, Step.AU_DESSUS_DE_LA_DESSUS, Step.EN_DESSOUS_DE_LA_DESSOUS)


def _last_sign(session: GameSession):
    """The person's latest sign this deal (with its words so far), or None."""
    mine = [t.event for t in session.table.visible_signs(HUMAN_SEAT) if t.event.seat == HUMAN_SEAT]
    return mine[-1] if mine else None


def _announce_buttons(session: GameSession, settings: Settings) -> None:
    """After a card sign: tell more cards aloud, relative to it (RULES.md, relative announcements)."""
    last = _last_sign(session)
    if last is None or not last.sign.cards:
        return  # words count from a card's level: misère and mordienne name none
    st.markdown(f"**Tell more cards aloud** after your sign {_signal_text(last.signal, settings)}"
                f"{_words(last, settings)}: each step counts from the sign's card; with *après*, from your "
                "previous words. Your partner hears them; only those who saw the sign can place them.")
    after = st.checkbox("après (count from my previous words)", key="announce_after",
                        disabled=not last.announcements)
    cols = st.columns(len(_STEPS))
    for col, step in zip(cols, _STEPS, strict=False):
        col.button(f"{'après ' if after and last.announcements else ''}{step.french}",
                   key=f"announce_{step.name.lower()}", on_click=_announce, args=(step,), width="stretch",
                   help=f"{step.english} {'your previous words' if after else 'the sign'}")


def _announce(step: Step) -> None:
    session = _game()
    settings = state.settings()
    last = _last_sign(session)
    if session.table.is_over or last is None:
        _say_error(session, "Not said: make a sign first; the words count from it.")
        return
    words = (Announcement(step, bool(st.session_state.get("announce_after")) and bool(last.announcements)),)
    try:
        unheld = unheld_levels(last.sign, last.announcements + words, session.table.game.hand(HUMAN_SEAT),
                               last.signal.count, new=len(words))
    except ValueError as error:  # off the strength scale
        _say_error(session, f"Not said: {error}.")
        return
    if unheld and not session.table.lying_allowed:
        _say_error(session, talk.announcement_refusal_text(last.signal, unheld, settings.language))
        return
    _give(session, lambda: session.announce(words), "Not said")


def _camera_send(made: MadeSign, source: str, ago: float | None = None) -> str | None:
    """The camera panel's sender (trainer.ui.views.play_camera): None when sent, else why not. The
    whole MadeSign goes to the table, so the partner weighs the sign by the recognizer's confidence,
    and the opponents' eyes judge the moment it began (``ago`` seconds before now)."""
    _send_sign(made, source, ago)
    refusal = _page().refusal  # a refusal; None once sent
    return None if refusal is None else refusal.text


def _deal_result(result: DealResult, session: GameSession, settings: Settings) -> None:
    """The deal's result in the player's language (the narration's one text of it)."""
    text = talk.deal_result_text(result, session.players, settings.language)
    st.success(f"Deal {result.deal}: {text}", icon=":material/emoji_events:")


def _scores(view, deal: int) -> None:
    target = (f" (game to {view.target})" if view.target
              else f" ({view.deals_played} of {view.ruleset.deals} deals played)")
    n = view.players
    teams = _team_names(n)
    scores = " — ".join(f"{name} **{score}**" for name, score in zip(teams, view.scores, strict=False))
    dealer = f" · dealer {short_name(view.dealer, n)}" if view.dealer is not None and deal == view.deal_number else ""
    st.markdown(f"**Score{target}:** {scores} · deal {deal}{dealer}")


def _game_over(session: GameSession, view, settings: Settings) -> None:
    """The end: the result, the last trick and deal as cards, the score sheet, a new game."""
    outcome = session.table.game.outcome
    if outcome is None:
        return
    st.subheader(f"Game over — {talk.outcome_text(outcome, session.players)}")
    last = session.table.game.results[-1]
    _deal_result(last, session, settings)
    _table(session, view, settings, None)
    _coach_panel(session, settings)
    _score_sheet(view, expanded=True)
    st.button("New game", key="play_new_after", type="primary", on_click=_new_game, args=(settings,))


def show() -> None:
    settings = state.settings()
    st.title("Play Aluette")
    _setup_panel(settings)
    if _replay_panel(settings):
        return
    session = _session()
    if session is None:
        st.info("Choose the table and start a **New game** above: at four you and a bot partner (North) "
                "against two bots; at six three pairs; at three everybody alone.")
        return
    st.caption(f"This table: {session.settings.summary()}.")
    if session.preset != settings.preset or session.convention != settings.convention:
        st.caption(f"This game uses preset {session.preset} and convention {session.convention}; "
                   "new settings apply to the next game.")
    view = session.table.view(HUMAN_SEAT)
    if session.table.is_over:
        _game_over(session, view, settings)
        return
    error = _current_error(session)
    if error:
        st.error(error)
    deal = shown_deal(session)
    _scores(view, deal)
    closed = _closed_trick(session)
    if closed is not None and closed[1] is not None:
        result = closed[1]
        _deal_result(result, session, settings)
    _turn_banner(session, view)
    _catch_banner(session, settings)
    _catch_note(session)
    if session.timed:
        from trainer.ui.st_adapter import run_script

        run_script(watch_view.CLOCK_JS)
    turn = None if session.paused else view.to_move
    _table(session, view, settings, turn)
    _coach_panel(session, settings)
    if session.reviewing:
        # The screen belongs to the closed deal until "Next deal": its tricks, not the next hand.
        st.markdown(f"**Your hand** — deal {deal} is over: your cards for deal {deal + 1} are dealt when "
                    "you click **Next deal**.")
        _tricks_list(closed[1].tricks if closed and closed[1] else (), settings, view.players, deal)
        _score_sheet(view)
        if session.partner_seat is not None:
            play_camera.panel(settings, session, _camera_send)  # keeps the camera's fragment running
        return
    _chant_told(session, view, settings)
    _decision_buttons(view)
    _hand(session, view, settings)
    _tricks_list(view.tricks, settings, view.players, deal)
    _score_sheet(view)
    if session.partner_seat is None:
        st.caption("At three everybody plays alone: there is no partner to sign to, and nobody signs.")
        return
    _sign_buttons(session, settings)
    play_camera.panel(settings, session, _camera_send)  # the camera's own fragment: never reruns the page
