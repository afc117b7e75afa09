"""The Quiz page: the quiz of ``trainer.quiz`` (questions, FSRS scheduling, progress in the Store),
drawn with the deck's cards and signs, answered with clicks (or, for card → sign questions, by
making the sign in front of the camera when it is on).

Holds no question logic: questions, checking and scheduling are the quiz's. The wall clock is read
here (the quiz takes ``now`` and answer times as arguments).
"""

from __future__ import annotations

import random
import time
from datetime import datetime, timedelta, timezone

import streamlit as st

from trainer.rules.cards import Card
from trainer.signals.conventions import Convention
from trainer.signals.signs import Sign
from trainer.ui import camera, camera_answer, modes, persistence, render, state
from trainer.ui.settings import Settings
from trainer.ui.table_talk import card_name
from trainer.ui.watcher import FrameReport, GestureReport


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _session(settings: Settings):
    """This browser session's quiz sitting (rebuilt when the convention or language changes)."""
    from trainer.quiz import Progress, Session

    quiz = st.session_state["quiz"]
    wanted = (settings.convention, settings.language.value)
    if quiz is None or quiz[0] != wanted:
        store = persistence.store()
        session = Session(Progress(store), rng=random.Random(), convention=Convention.named(settings.convention),
                          language=settings.language.value)
        quiz = (wanted, session)
        st.session_state["quiz"] = quiz
        st.session_state["quiz_question"] = None
        st.session_state["quiz_feedback"] = None
    return quiz[1]


def _next_question(session) -> None:
    question = session.next_question(_now())
    st.session_state["quiz_question"] = question
    st.session_state["quiz_asked_at"] = time.monotonic()
    st.session_state["quiz_feedback"] = None
    st.session_state["quiz_seen"] = None
    st.session_state["quiz_order"] = []
    # The camera answers only with what it sees after this moment (its queue may still hold signs
    # made while the last feedback was read): the last frame analysed now, on the camera's clock.
    watcher = st.session_state.get("watcher")
    st.session_state["quiz_camera"] = camera_answer.ask(None if watcher is None else watcher.latest_timestamp)


def _show_me() -> None:
    st.session_state["quiz_camera"] = camera_answer.show_me(st.session_state["quiz_camera"] or camera_answer.ask(None))


def _answer(session, response, *, gesture=None) -> None:
    question = st.session_state["quiz_question"]
    if question is None or st.session_state["quiz_feedback"] is not None:
        return  # answered already: the first act (a click or a sign) is the answer, never replaced
    seconds = time.monotonic() - st.session_state["quiz_asked_at"]
    try:
        if gesture is not None:
            outcome = session.answer_gesture(question, gesture, seconds=seconds, now=_now())
        else:
            outcome = session.answer(question, response, seconds=seconds, now=_now())
    except ValueError as error:  # StorageError / QuizError: the file, the cause, the way out
        st.error(f"This answer was not saved: {error}")
        return
    st.session_state["quiz_feedback"] = outcome


_BANDS = {"luettes": "the luettes", "doubles": "the doubles", "strong": "the strong cards",
          "figures": "the figures", "twos": "the twos", "nines": "the nines", "threes": "the threes",
          "mixed": "mixed cards"}
_STATES = {"new": "new", "learning": "learning", "review": "learnt", "relearning": "relearning"}


def item_text(item: str, settings: Settings) -> str:
    """A quiz item in words ("Monsieur", "la Vache's sign", "a level-5 trick"), never its id."""
    from trainer.quiz.questions import Kind, split_item

    kind, argument = split_item(item)
    if kind in (Kind.SIGN, Kind.SIGN_CARD):
        return render.sign_label(Sign(argument), settings.language)
    if kind is Kind.TRICK:
        return f"a trick at level {argument.lstrip('L')}"
    if kind is Kind.ORDER:
        return _BANDS.get(argument, argument.replace("_", " "))
    return card_name(Card.parse(argument), settings.language)


def when_text(moment: datetime, now: datetime) -> str:
    """A due time as a person says it: "in 5 minutes", "in 3 hours", "tomorrow at 09:12", "on 3 Dec"."""
    delta = moment - now
    local = moment.astimezone()
    if delta <= timedelta(0):
        return "now"
    if delta < timedelta(hours=1):
        minutes = max(1, round(delta.total_seconds() / 60))
        return f"in {minutes} minute{'s' if minutes > 1 else ''}"
    if delta < timedelta(hours=12):
        hours = round(delta.total_seconds() / 3600)
        return f"in {hours} hour{'s' if hours > 1 else ''}"
    days = (local.date() - now.astimezone().date()).days
    if days == 0:
        return f"today at {local:%H:%M}"
    if days == 1:
        return f"tomorrow at {local:%H:%M}"
    return f"on {local.day} {local:%b %Y}"


def recall_tomorrow(progress, statuses, now: datetime) -> float | None:
    """The mean forecast chance of recalling the items seen so far one day from now. (Right after
    an answer, right or wrong, the chance *now* reads 100 %: it says nothing a learner can use.)"""
    seen = [s for s in statuses if not s.is_new]
    if not seen:
        return None
    later = now + timedelta(days=1)
    return sum(progress.retrievability(s.item, later) for s in seen) / len(seen)


def _choice_label(choice, language: str) -> str:
    return choice.text.show(language)


def _show_question(session, question, settings: Settings) -> bool | None:
    language = settings.language.value
    st.caption(question.kind.title.show(language))
    st.subheader(question.prompt.show(language))
    if question.cards:
        cols = st.columns(max(4, len(question.cards)))
        for col, card in zip(cols, question.cards, strict=False):
            with col:
                svg = render.card_svg(card, language=settings.language, width=110, hints=False)
                render.show_svg(svg, width=110, title=card.code)
                if question.is_order:
                    st.caption(card_name(card, settings.language))
    if question.gesture is not None:
        svg = render.sign_svg(question.gesture, settings.convention, width=150)
        render.show_svg(svg, width=150, title=render.gesture_label(question.gesture, settings.language))
    answered = st.session_state["quiz_feedback"] is not None
    if question.is_order:
        names = {c.code: card_name(c, settings.language) for c in question.cards}
        order = st.multiselect(
            "Click the cards strongest first", [c.code for c in question.cards], key="quiz_order",
            disabled=answered, format_func=names.__getitem__,
        )
        st.button("Answer", key="quiz_submit_order", disabled=answered or len(order) != len(question.cards),
                  on_click=_answer, args=(session, tuple(order)), type="primary")
    else:
        cols = st.columns(min(4, len(question.choices)) or 1)
        for i, choice in enumerate(question.choices):
            with cols[i % len(cols)]:
                # A choice's card is drawn only when the question shows none: drawing "Monsieur"
                # beside a question that shows the 3D would give the answer away.
                if choice.card is not None and not question.cards:
                    svg = render.card_svg(choice.card, language=settings.language, width=90, hints=False)
                    render.show_svg(svg, width=90, title=choice.card.code)
                elif choice.gesture is not None or choice.sign is not None:
                    svg = render.sign_svg(choice.gesture or choice.sign, settings.convention, width=70)
                    render.show_svg(svg, width=70, title=_choice_label(choice, language))
                st.button(_choice_label(choice, language), key=f"quiz_choice_{i}", disabled=answered,
                          on_click=_answer, args=(session, choice.key), width="stretch")
    if question.expected_gestures and not answered:
        return _camera_answer(session, settings)
    return None


def _camera_answer(session, settings: Settings):
    """Card → sign questions: True when the session's camera (sidebar) can answer them; the answer
    is taken by :func:`_camera_fragment`, drawn right under the question."""
    mode = modes.input_mode(settings.camera, upload=False)  # the Quiz answers by buttons, no upload
    if mode.mode is not modes.InputMode.LIVE_CAMERA:
        st.caption(f"Answer by making the sign: needs the live camera — {mode.why}")
        return None
    cols = st.columns([4, 1])
    cols[0].caption("…or answer by making the sign to the camera (sidebar): relax your face (or press "
                    "**Show me**), then make the sign. The first sign you begin after that is your answer.")
    # Outside the camera fragment, which redraws a few times a second and could swallow a click.
    cols[1].button("Show me", key="quiz_show_me", on_click=_show_me,
                   help="I am ready: take the first sign I begin from now.")
    return True


def _camera_fragment(session) -> None:
    """The camera's answer, from a fragment that reruns only itself while it waits (never the page,
    so the stream goes on): the first sign begun after the person is ready answers
    (``camera_answer``), then the page runs once in full to draw the feedback, with what the camera
    saw, under the question and above the progress it changed. The feedback's "Next question" is
    drawn by the page, not here: a click on a button inside this fragment, which redraws a few times
    a second, was lost when a full run (STOP, START) replaced the fragment before the click reached
    the server."""
    shown = st.session_state["quiz_question"]

    def answer_with_sign(reports: list) -> None:
        if st.session_state["quiz_question"] is not shown or st.session_state["quiz_feedback"] is not None:
            st.rerun(scope="app")  # answered or moved on by a click: the page draws what follows
        live = camera.current()
        playing = live is not None and live.playing
        state = st.session_state["quiz_camera"] or camera_answer.ask(None)
        if not playing:
            state = camera_answer.stopped(state)  # nothing it sends now is an answer
        else:
            for report in reports:
                if isinstance(report, FrameReport):
                    state = camera_answer.on_frame(state, report.timestamp, neutral=camera_answer.relaxed(
                        report.scores, report.thresholds, report.face_found))
                elif isinstance(report, GestureReport) and not report.final:
                    taken = camera_answer.answer(state, report.event)
                    if taken is not None:
                        _answer(session, None, gesture=taken.gesture)
                        if st.session_state["quiz_feedback"] is not None:
                            st.session_state["quiz_seen"] = taken.gesture
                        break
        st.session_state["quiz_camera"] = state
        if st.session_state["quiz_feedback"] is not None:
            st.rerun(scope="app")
        if not playing:
            st.caption("Camera stopped: answer with a click (press START in the sidebar to answer by signing).")
        elif state.ready:
            st.caption("Camera ready: make the sign now.")
        else:
            st.caption("Camera: waiting for a relaxed face before it takes a sign (or press Show me).")

    camera.pump(answer_with_sign)


def seen_text(gesture, convention: Convention, settings: Settings) -> str:
    """What the camera read, in words: "open the mouth — ouvrir la bouche → un as (an ace)"."""
    sign = convention.sign_for(gesture)
    what = render.sign_label(sign, settings.language) if sign is not None else "no sign in this convention"
    return f"{render.gesture_label(gesture, settings.language)} → {what}"


def _show_feedback(session, settings: Settings) -> None:
    outcome = st.session_state["quiz_feedback"]
    if outcome is None:
        return
    due = when_text(outcome.due, _now())
    seen = st.session_state.get("quiz_seen")
    camera_read = (f"Seen by the camera: {seen_text(seen, Convention.named(settings.convention), settings)}. "
                   if seen is not None else "")
    answer = f"The answer: {outcome.answer}" if camera_read else outcome.answer
    text = (f"{camera_read}{answer}. {outcome.explanation} — you answered in {outcome.seconds:.1f} s; "
            f"next review {due}.")
    if outcome.correct:
        st.success("Right! " + text, icon=":material/check_circle:")
    else:
        st.error("Not quite: " + text, icon=":material/cancel:")
    st.button("Next question", key="quiz_next", type="primary", on_click=_next_question, args=(session,))


def _show_progress(session, settings: Settings) -> None:
    now = _now()
    summary = session.progress.summary(now)
    st.subheader("Your progress")
    cols = st.columns(5)
    cols[0].metric("Seen", summary.total - summary.new)
    cols[1].metric("Due now", summary.due_now)
    cols[2].metric("Due today", summary.due_today)
    statuses = [s for s in session.progress.statuses(now) if not s.is_new]
    tomorrow = recall_tomorrow(session.progress, statuses, now)
    cols[3].metric("Recall tomorrow", "—" if tomorrow is None else f"{100 * tomorrow:.0f}%",
                   help="The forecast chance (FSRS) of recalling the items seen so far one day from now.")
    cols[4].metric("This sitting", f"{session.right}/{session.asked}")
    if summary.next_due is not None:
        st.caption(f"Next item due {when_text(summary.next_due, now)}.")
    if statuses:
        later = now + timedelta(days=1)
        rows = [
            {
                "what": item_text(s.item, settings), "question": s.kind.title.show(settings.language.value),
                "state": _STATES.get(s.state, s.state), "due": when_text(s.due, now) if s.due else "",
                "recall tomorrow %": round(100 * session.progress.retrievability(s.item, later)),
                "reviews": s.reviews, "lapses": s.lapses,
            }
            for s in sorted(statuses, key=lambda s: s.due or now)
        ]
        st.dataframe(rows, hide_index=True, width="stretch")


def show() -> None:
    settings = state.settings()
    st.title("Quiz: cards and signs")
    if render.missing(persistence.store_piece()):
        return
    session = _session(settings)
    question = st.session_state["quiz_question"]
    if question is None:
        st.markdown("Questions about the cards and their signs, scheduled so you review each one just "
                    "before you would forget it (FSRS, as in Anki). Your progress is saved.")
        st.button("Start" if session.asked == 0 else "Next question", key="quiz_start", type="primary",
                  on_click=_next_question, args=(session,))
    else:
        # The feedback goes where the eye is: right under the question (and the camera's status while
        # it may answer), above the progress table.
        if _show_question(session, question, settings) is not None:
            _camera_fragment(session)
        _show_feedback(session, settings)
    _show_progress(session, settings)
