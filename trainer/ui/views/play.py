"""The Play page: the person and a bot partner against two bots, at any preset.

Card faces and avatars are the deck's drawings; the game, the legal actions, the scoring and its
explanation are the engine's; the bots and the signs between seats (who saw, who caught) are the
Table's. This page draws them, turns clicks and camera signs into the person's inputs, and saves,
resumes and replays games through the Store.
"""

from __future__ import annotations

import random
import re

import streamlit as st

from trainer.rules.actions import Answer, Declaration, Declare, Discard, Phase, Vote
from trainer.rules.cards import Card
from trainer.signals.conventions import Convention
from trainer.signals.signs import Sign, Signal
from trainer.ui import modes, persistence, render, state
from trainer.ui.game_session import BOT_NAMES, HUMAN_SEAT, PARTNER_SEAT, GameSession, Seating, SessionError
from trainer.ui.settings import Settings
from trainer.ui.views import play_camera

SEAT_NAMES = {0: "You (South)", 1: "West", 2: "North — your partner", 3: "East"}
SHORT_NAMES = {0: "you", 1: "West", 2: "North", 3: "East"}


def table_piece() -> modes.Piece:
    return modes.piece_with("the game table (bots)", "trainer.bots.table", "Table")


def _words(text: str) -> str:
    """The engine speaks of seats and teams by number; say who they are."""
    text = re.sub(r"\bseat (\d)\b", lambda m: SHORT_NAMES.get(int(m.group(1)), m.group(0)), text)
    text = re.sub(r"\bteam 0\b", "your team", text)
    return re.sub(r"\bteam 1\b", "the opponents' team", text)


def _session() -> GameSession | None:
    return st.session_state["game"]


def _autosave(session: GameSession) -> None:
    persistence.save_game("autosave", session.to_json())


# -- setup, saved games, replay -----------------------------------------------------------------

def _new_game(settings: Settings) -> None:
    partner = st.session_state.get("play_partner", "heuristic")
    opponents = st.session_state.get("play_opponents", "heuristic")
    seed = st.session_state["play_seed"]
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)  # a fresh deal each game; saved with the game
    st.session_state["play_seed"] = None
    st.session_state["game"] = GameSession.start(settings.preset, settings.convention, seed, Seating(partner, opponents))
    st.session_state["sent_signs"] = []
    st.session_state["replay"] = None


def _setup_panel(settings: Settings) -> None:
    with st.expander("New game, saved games", expanded=_session() is None):
        cols = st.columns(3)
        cols[0].selectbox("Your partner", BOT_NAMES, key="play_partner")
        cols[1].selectbox("Opponents", BOT_NAMES, key="play_opponents")
        cols[2].button("New game", key="play_new", type="primary", on_click=_new_game, args=(settings,))
        st.caption(f"Preset **{settings.preset}**, convention **{settings.convention}** (sidebar).")
        store = persistence.store_piece()
        if not store.available:
            render.unavailable(store)
            return
        session = _session()
        if session is not None:
            save_cols = st.columns([3, 1])
            name = save_cols[0].text_input("Save as", value=f"game-{session.seed}", key="play_save_name")
            if save_cols[1].button("Save", key="play_save"):
                persistence.save_game(name, session.to_json())
                st.toast(f"Saved as {name}")
        saved = persistence.saved_games()
        if saved:
            load_cols = st.columns([3, 1, 1])
            chosen = load_cols[0].selectbox("Saved games", saved, key="play_saved")
            if load_cols[1].button("Resume", key="play_resume"):
                try:
                    st.session_state["game"] = GameSession.from_json(persistence.load_game(chosen))
                    st.session_state["replay"] = None
                except (SessionError, KeyError, TypeError) as error:
                    st.error(f"Cannot resume {chosen}: {error}")
            if load_cols[2].button("Replay", key="play_replay"):
                st.session_state["replay"] = {"name": chosen}


def _replay_panel(settings: Settings) -> bool:
    replay = st.session_state["replay"]
    if replay is None:
        return False
    from trainer.rules.saves import game_from_json

    data = persistence.load_game(replay["name"])
    try:
        game = game_from_json(data["game"])
    except (ValueError, KeyError, TypeError) as error:
        st.error(f"Cannot replay {replay['name']}: {error}")
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
    won = [0, 0, 0, 0]
    for d, t in tricks[:number]:
        if d == deal and t.winner is not None:
            won[t.winner] += 1
    st.markdown(f"**Deal {deal}, trick {trick.number}** — led by {SHORT_NAMES[trick.leader]}")
    cols = st.columns(4)
    for col, (seat, card) in zip(cols, trick.plays(4)):
        with col:
            _card_picture(card, settings, width=90)
            st.caption(SHORT_NAMES[seat])
    outcome = "pourri (spoiled: nobody takes it)" if trick.spoiled else f"won by {SHORT_NAMES[trick.winner]}"
    st.markdown(f"Result: **{outcome}**. Tricks so far this deal: " +
                ", ".join(f"{SHORT_NAMES[s]} {won[s]}" for s in range(4)))
    for result in game.results:
        if result.deal == deal and number == len([1 for d, _ in tricks if d <= deal]):
            st.info(_words(result.explanation))
    return True


# -- drawing ---------------------------------------------------------------------------------------

def _card_picture(card: Card, settings: Settings, width: int = 96) -> None:
    svg = render.card_svg(card, language=settings.language, width=width, convention=settings.convention)
    if svg is None:
        st.markdown(f"`{card.code}` {render.card_label(card, settings.language)}")
    else:
        render.show_svg(svg, width=width, title=render.card_label(card, settings.language))


def _seat_signs(session: GameSession, seat: int) -> list:
    """The signs of ``seat`` this deal that the person saw."""
    return [t.event for t in session.table.visible_signs(HUMAN_SEAT) if t.event.seat == seat]


def _avatar(session: GameSession, seat: int, settings: Settings, view) -> None:
    """A bot's avatar making its latest sign (drawn face or hand), its signs, its tricks."""
    signs = _seat_signs(session, seat)
    latest = signs[-1] if signs else None
    from trainer.deck import avatar_svg

    dealer = " · dealer" if view.dealer == seat else ""
    turn = " · to play" if view.to_move == seat else ""
    render.show_svg(avatar_svg(latest.gesture if latest else None, variant=seat, width=110,
                               label=SHORT_NAMES[seat]), width=110, title=SEAT_NAMES[seat])
    st.markdown(f"**{SEAT_NAMES[seat]}**{dealer}{turn}  \ntricks: **{view.tricks_won[seat]}** · cards: {view.hand_sizes[seat]}")
    if signs:
        pictures = " ".join(
            render.svg_html(render.sign_svg(e.signal, settings.convention, width=34), width=34,
                            title=render.sign_label(e.sign, settings.language))
            for e in signs
        )
        st.markdown(pictures, unsafe_allow_html=True)
        st.caption("Signs seen: " + ", ".join(_signal_text(e.signal, settings) for e in signs))


def _signal_text(signal: Signal, settings: Settings) -> str:
    text = render.sign_label(signal.sign, settings.language)
    return f"{text} ×{signal.count}" if signal.count > 1 else text


def _trick_area(view, settings: Settings) -> None:
    st.markdown("**Trick in progress**")
    if view.current_trick:
        cols = st.columns(4)
        for i, card in enumerate(view.current_trick):
            seat = (view.trick_leader + i) % view.players
            with cols[i]:
                _card_picture(card, settings, width=80)
                st.caption(SHORT_NAMES[seat])
    else:
        st.caption("No card on the table yet" + (f"; {SHORT_NAMES[view.trick_leader]} leads." if view.trick_leader is not None else "."))
    if view.tricks:
        last = view.tricks[-1]
        outcome = "**pourri** (spoiled)" if last.spoiled else f"won by **{SHORT_NAMES[last.winner]}**"
        plays = ", ".join(f"{SHORT_NAMES[s]} {c.code}" for s, c in last.plays(view.players))
        st.caption(f"Last trick ({last.number}): {plays} — {outcome}")


def _tricks_list(view) -> None:
    if not view.tricks:
        return
    rows = []
    for t in view.tricks:
        rows.append({
            "trick": t.number,
            "led by": SHORT_NAMES[t.leader],
            "cards": " ".join(f"{SHORT_NAMES[s]}:{c.code}" for s, c in t.plays(view.players)),
            "result": "pourri" if t.spoiled else SHORT_NAMES[t.winner],
        })
    with st.expander(f"Tricks of this deal ({len(view.tricks)})"):
        st.dataframe(rows, hide_index=True, width="stretch")


def _catch_banner(session: GameSession, settings: Settings) -> None:
    """The table says when a sign was caught: the opponents catching ours is a warning."""
    theirs, ours = [], []
    for catch in session.table.catches():
        maker, by = catch.event.seat, catch.by
        what = _signal_text(catch.event.signal, settings)
        if maker in (HUMAN_SEAT, PARTNER_SEAT) and by not in (HUMAN_SEAT, PARTNER_SEAT):
            who = "your" if maker == HUMAN_SEAT else "your partner's"
            theirs.append(f"{SHORT_NAMES[by]} caught {who} sign: **{what}**")
        elif by == HUMAN_SEAT:
            ours.append(f"you caught {SHORT_NAMES[maker]}'s sign: **{what}**")
    if theirs:
        st.warning("Caught by the opponents this deal: " + "; ".join(theirs) + ".", icon=":material/visibility:")
    if ours:
        st.info("Caught by you: " + "; ".join(ours) + ".", icon=":material/visibility:")


# -- the person's decisions ----------------------------------------------------------------------

def _act(action) -> None:
    session = _session()
    try:
        session.act(action)
    except ValueError as error:
        st.session_state["play_error"] = f"Not allowed: {_words(str(error))}."
        return
    st.session_state["play_error"] = None
    _autosave(session)


def _send_sign(signal: Signal, source: str) -> None:
    session = _session()
    try:
        event = session.sign(signal)
    except ValueError as error:
        label = _signal_text(signal, state.settings())
        st.session_state["play_error"] = f"Your sign {label} ({source}) was not sent: {_words(str(error))}."
        return
    st.session_state["play_error"] = None
    st.session_state["sent_signs"].append((source, event))
    _autosave(session)


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
        st.markdown(f"**{SHORT_NAMES[seat]} {'announces mordienne' if declaration is Declaration.MORDIENNE else 'offers to give up the deal'}.** Your answer:")
    elif view.phase is Phase.CHANT_VOTE:
        st.markdown("**Chant?** The talon is dealt to two players who then discard (only if everyone agrees).")
    elif view.phase is Phase.DECLARE:
        st.markdown("**Before the first trick** you may announce mordienne or give the deal up:")
    cols = st.columns(len(options))
    for col, action in zip(cols, options):
        if isinstance(action, Vote):
            label = "Play the chant" if action.agree else "No chant"
        elif isinstance(action, Declare):
            label = _DECLARE_LABELS[action.declaration]
        elif isinstance(action, Answer):
            label = "Accept" if action.accept else "Refuse"
        else:
            label = str(action)
        col.button(label, key=f"decide_{label}", on_click=_act, args=(action,))


def _hand(view, settings: Settings) -> None:
    discarding = view.phase is Phase.DISCARD and view.to_move == HUMAN_SEAT
    playing = view.phase is Phase.PLAY and view.to_move == HUMAN_SEAT
    legal = {a.card if isinstance(a, Discard) else a for a in view.legal_actions if isinstance(a, (Card, Discard))}
    st.markdown("**Your hand**" + (" — click a card to play it" if playing else " — choose a card to discard" if discarding else ""))
    cols = st.columns(max(len(view.hand), 1))
    for col, card in zip(cols, view.hand):
        with col:
            _card_picture(card, settings, width=92)
            label = "Discard" if discarding else "Play"
            action = Discard(card) if discarding else card
            st.button(label, key=f"card_{card.code}", disabled=card not in legal, on_click=_act, args=(action,),
                      help=render.card_label(card, settings.language), width="stretch")


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
                      on_click=_send_sign, args=(signal, "button"), width="stretch",
                      type="primary" if sign in true_now or sign is Sign.MORDIENNE else "secondary",
                      help=convention.gesture_for(sign).description)
    sent = st.session_state["sent_signs"]
    if sent:
        st.caption("Sent to your partner: " + ", ".join(
            f"{_signal_text(e.signal, settings)} ({source}{', caught by ' + ' and '.join(SHORT_NAMES[c] for c in e.caught_by) if e.caught_by else ''})"
            for source, e in sent[-6:]))


def _camera_send(signal: Signal, source: str) -> str | None:
    """The camera panel's sender (trainer.ui.views.play_camera): None when sent, else why not."""
    _send_sign(signal, source)
    return st.session_state["play_error"]


def _scores(view) -> None:
    target = f" (game to {view.target})" if view.target else ""
    st.markdown(
        f"**Score{target}:** your team **{view.scores[0]}** — opponents **{view.scores[1]}** · "
        f"deal {view.deal_number} · dealer {SHORT_NAMES[view.dealer] if view.dealer is not None else '—'}"
    )


def show() -> None:
    settings = state.settings()
    st.title("Play Aluette")
    piece = table_piece()
    if not piece.available:
        render.unavailable(piece)
        return
    _setup_panel(settings)
    if _replay_panel(settings):
        return
    session = _session()
    if session is None:
        st.info("Start a **New game** above: you and a bot partner (North) against two bots.")
        return
    if session.preset != settings.preset or session.convention != settings.convention:
        st.caption(f"This game uses preset {session.preset} and convention {session.convention}; "
                   "new settings apply to the next game.")
    view = session.table.view(HUMAN_SEAT)
    error = st.session_state["play_error"]
    if error:
        st.error(error)
    _scores(view)
    _catch_banner(session, settings)
    if view.results:
        last = view.results[-1]
        st.success(f"Deal {last.deal}: {_words(last.explanation)} (tricks: " +
                   ", ".join(f"{SHORT_NAMES[s]} {n}" for s, n in enumerate(last.tricks_won)) + ")",
                   icon=":material/emoji_events:")
    outcome = session.table.game.outcome
    if outcome is not None:
        winner = "Your team wins" if outcome.winner == 0 else "The opponents win" if outcome.winner == 1 else "A draw"
        st.subheader(f"Game over: {winner} ({outcome.scores[0]}–{outcome.scores[1]})")
    top = st.columns([1, 2, 1])
    with top[1]:
        _avatar(session, PARTNER_SEAT, settings, view)
    middle = st.columns([1, 2, 1])
    with middle[0]:
        _avatar(session, 1, settings, view)
    with middle[1]:
        _trick_area(view, settings)
    with middle[2]:
        _avatar(session, 3, settings, view)
    if view.chant_receivers and view.chant:
        st.caption("Chant played: " + " and ".join(SHORT_NAMES[s] for s in view.chant_receivers) + " received the talon.")
    if outcome is None:
        _decision_buttons(view)
    _hand(view, settings)
    st.caption(f"Your tricks: **{view.tricks_won[HUMAN_SEAT]}** · tricks per player: " +
               ", ".join(f"{SHORT_NAMES[s]} {n}" for s, n in enumerate(view.tricks_won)))
    _tricks_list(view)
    if outcome is None:
        _sign_buttons(session, settings)
        play_camera.panel(settings, session, _camera_send)
