"""The camera's pieces that need no browser: the module probe under a concurrent first import of
OpenCV, a Practice try (ask -> verdict or timeout), and Play's hand-over of finished camera signs."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from trainer.signals.conventions import Convention
from trainer.signals.gestures import Gesture, GestureEvent, Side
from trainer.signals.signs import MadeSign, Sign, Signal
from trainer.ui import tries
from trainer.ui.settings import Settings
from trainer.ui.views import play_camera
from trainer.ui.watcher import FrameReport, GestureReport

CLASSIC = Convention.named("classic")


@pytest.mark.vision
def test_the_recognizer_is_found_while_another_thread_imports_opencv():
    """The intermittent 'model missing': find_spec('cv2') raises ValueError('cv2.__spec__ is None')
    while OpenCV's loader is half way through its first import on another thread. Probed in a fresh
    interpreter (cv2 not imported yet) as fast as possible during that import, it must never say no."""
    code = textwrap.dedent("""
        import threading
        from trainer.ui import modes
        answers = []
        thread = threading.Thread(target=lambda: __import__("cv2"))
        thread.start()
        while thread.is_alive():
            answers.append(modes.has_module("cv2") and modes.recognizer().available)
        print(answers.count(False), len(answers))
    """)
    for _ in range(3):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True)
        missing, probes = map(int, out.stdout.split())
        assert probes > 0
        assert missing == 0, f"{missing} of {probes} probes said OpenCV was missing"


def _event(gesture: Gesture, start: float, end: float) -> GestureEvent:
    return GestureEvent(gesture=gesture, start=start, end=end, confidence=0.9)


def _feed(current: tries.Try, *items) -> tuple[tries.Try | None, list]:
    """Run reports through a try: ('frame', t) or ('event', GestureEvent, reported_at, final)."""
    attempts = []
    for item in items:
        if item[0] == "frame":
            step = tries.on_frame(current, item[1], convention=CLASSIC, signing_hand=Side.RIGHT)
        else:
            _, event, at, final = item
            step = tries.on_event(current, event, at, final=final, convention=CLASSIC, signing_hand=Side.RIGHT)
        if step.attempt is not None:
            attempts.append(step.attempt)
        if step.current is None:
            return None, attempts
        current = step.current
    return current, attempts


def test_other_gestures_do_not_end_a_try_and_the_verdict_has_both_times():
    """La Vache asked (a pout); a blink and raised brows meanwhile are not tries. The verdict comes
    with the time from the ask to the confirmation and the hold, recorded once when the pout ends."""
    asked = tries.ask(Sign.VACHE, now=10.0)
    blink = _event(Gesture.EYES_CLOSED, 10.5, 10.8)
    brows = _event(Gesture.BROWS_UP, 11.0, 11.6)
    pout = _event(Gesture.POUT, 12.0, 13.4)
    current, attempts = _feed(
        asked,
        ("event", blink, 10.7, False), ("event", blink, 11.4, True),
        ("event", brows, 11.2, False), ("event", brows, 12.2, True),
        ("frame", 12.1),
        ("event", pout, 12.25, False),
    )
    assert attempts == [] and current is not None and current.took_s == pytest.approx(2.25)
    current, attempts = _feed(current, ("frame", 13.0), ("event", pout, 14.0, True))
    assert current is None and len(attempts) == 1
    (attempt,) = attempts
    assert attempt.success and attempt.target is Sign.VACHE
    assert attempt.detect_s == pytest.approx(2.25) and attempt.hold_s == pytest.approx(1.4)


def test_a_try_without_the_sign_times_out_once():
    asked = tries.ask(Sign.AS, now=None)
    frames = [("frame", 5.0 + i / 2) for i in range(2 * int(tries.TIMEOUT_S) + 4)]
    current, attempts = _feed(asked, ("event", _event(Gesture.WINK, 5.2, 5.6), 5.4, False), *frames)
    assert current is None and len(attempts) == 1
    assert not attempts[0].success and attempts[0].seen is None
    assert f"{tries.TIMEOUT_S:g} s" in attempts[0].note


def test_a_sign_confirmed_and_ended_between_two_reads_is_one_success():
    asked = tries.ask(Sign.AS, now=1.0)
    mouth = _event(Gesture.MOUTH_OPEN, 2.0, 2.9)
    current, attempts = _feed(asked, ("event", mouth, 3.5, True))
    assert current is None and len(attempts) == 1 and attempts[0].success
    assert attempts[0].hold_s == pytest.approx(0.9)


def test_a_sign_begun_before_the_ask_and_let_go_at_once_is_not_an_answer():
    """Asked while the mouth was already open, and it closed right after the ask: a leftover, not
    an answer; the next opening is."""
    asked = tries.ask(Sign.AS, now=5.0)
    early = _event(Gesture.MOUTH_OPEN, 4.2, 5.0 + tries.HOLD_AFTER_S - 0.2)
    later = _event(Gesture.MOUTH_OPEN, 7.0, 7.8)
    current, attempts = _feed(asked, ("event", early, 6.1, True), ("frame", 6.5), ("event", later, 7.2, False),
                              ("event", later, 8.4, True))
    assert current is None and len(attempts) == 1
    assert attempts[0].detect_s == pytest.approx(2.2) and attempts[0].hold_s == pytest.approx(0.8)


def test_a_sign_held_at_the_ask_counts_once_held_long_enough_after_it():
    """The person is already making the sign when it is asked (the camera confirmed it before the
    ask and has not seen it end): it is seen HOLD_AFTER_S after the ask, and recorded when it ends,
    with its whole hold and a note that it was begun before the ask."""
    held = _event(Gesture.MOUTH_OPEN, 4.6, 6.4)
    asked = tries.ask(Sign.AS, now=5.0, held=held)
    current, attempts = _feed(asked, ("frame", 5.2))
    assert current.seen is None, "seen before it was held long enough after the ask"
    current, attempts = _feed(current, ("frame", 5.0 + tries.HOLD_AFTER_S + 0.05))
    assert attempts == [] and current.seen == held
    assert current.took_s == pytest.approx(tries.HOLD_AFTER_S + 0.05)
    current, attempts = _feed(current, ("frame", 6.2), ("event", held, 7.0, True))
    assert current is None and len(attempts) == 1 and attempts[0].success
    assert attempts[0].hold_s == pytest.approx(1.8) and attempts[0].note == "begun 0.4 s before the ask"


def test_a_sign_held_at_the_ask_but_let_go_before_the_hold_after_it_does_not_count():
    """The camera reports a gesture's end only after its release time: a frame HOLD_AFTER_S after
    the ask without the gesture over its threshold does not see it, and its end, once reported,
    shows it was let go too soon; the next opening answers."""
    held = _event(Gesture.MOUTH_OPEN, 3.0, 5.1)
    asked = tries.ask(Sign.AS, now=5.0, held=held)
    step = tries.on_frame(asked, 5.6, convention=CLASSIC, signing_hand=Side.RIGHT, active=frozenset())
    assert step.current.seen is None
    # Without the frame's scores, the frame sees it; its end (reported late) takes it back.
    seen = tries.on_frame(asked, 5.6, convention=CLASSIC, signing_hand=Side.RIGHT).current
    assert seen.seen == held
    current, attempts = _feed(seen, ("event", held, 5.8, True))
    assert attempts == [] and current.seen is None
    later = _event(Gesture.MOUTH_OPEN, 8.0, 9.0)
    current, attempts = _feed(current, ("event", later, 8.2, False), ("event", later, 9.6, True))
    assert attempts[0].success and attempts[0].detect_s == pytest.approx(3.2) and attempts[0].note == ""


def test_a_gesture_begun_long_before_the_ask_never_counts_even_if_its_end_never_came():
    """An opening whose end never reached the page (its final report drained on another page) must
    not answer a later ask when the same gesture shows again: it began BEFORE_MAX_S or more before."""
    stale = _event(Gesture.MOUTH_OPEN, 10.0, 11.0)
    asked = tries.ask(Sign.AS, now=10.0 + tries.BEFORE_MAX_S + 60, held=stale)
    assert asked.pending is None
    current, attempts = _feed(asked, ("frame", asked.asked_at + 1.0),
                              ("event", stale, asked.asked_at + 1.2, False))
    assert attempts == [] and current.seen is None and current.pending is None


def test_a_sign_begun_a_moment_before_the_ask_and_confirmed_after_it_counts():
    """Begun just before the click (the camera confirms it a few frames later, after the ask) and
    held: it counts."""
    asked = tries.ask(Sign.VACHE, now=10.0)
    pout = _event(Gesture.POUT, 9.8, 11.5)
    current, attempts = _feed(asked, ("frame", 10.05), ("event", pout, 10.1, False), ("frame", 10.3),
                              ("frame", 10.0 + tries.HOLD_AFTER_S))
    assert attempts == [] and current.seen == pout
    current, attempts = _feed(current, ("event", pout, 12.1, True))
    assert current is None and attempts[0].success and attempts[0].detect_s == pytest.approx(tries.HOLD_AFTER_S)


def test_play_sends_finished_camera_signs_and_says_what_became_of_them():
    """Only final events become signs (their repeat count is the number of aces); a gesture the
    convention does not use is skipped; a refusal is kept with its reason; the time from the sign's
    onset to the partner receiving it is on the camera's clock."""
    sent: list[tuple[MadeSign, str]] = []
    onsets: list[float | None] = []

    def send(made: MadeSign, source: str, ago: float | None = None) -> str | None:
        sent.append((made, source))
        onsets.append(ago)
        return "your hand does not hold it" if made.sign is Sign.MORDIENNE else None

    mouth = GestureEvent(Gesture.MOUTH_OPEN, start=4.0, end=5.0, confidence=0.9, count=2)
    reports = [
        FrameReport(4.5, (), (), True, 0, 10, 30.0),
        GestureReport(mouth, reported_at=4.2, final=False),
        GestureReport(_event(Gesture.TONGUE_OUT, 6.0, 6.5), reported_at=6.5, final=True),
        GestureReport(mouth, reported_at=5.6, final=True),
        GestureReport(_event(Gesture.LIP_BITE, 6.0, 6.4), reported_at=7.0, final=True),
    ]
    made = play_camera.handle(reports, deal=3, convention=CLASSIC, settings=Settings(), send=send, now=6.1)
    assert [(m.signal, source) for m, source in sent] == [
        (Signal(Sign.AS, 2), "camera"), (Signal(Sign.MORDIENNE), "camera")]
    # The sign keeps what the camera saw: the gesture made, its confidence and its own time.
    assert (sent[0][0].gesture, sent[0][0].confidence, sent[0][0].start) == (Gesture.MOUTH_OPEN, 0.9, 4.0)
    # Each sign is sent with its own moment: how long before the newest frame it began (issue 17).
    assert onsets == [pytest.approx(2.1), pytest.approx(0.1)]
    assert [(m.deal, m.received) for m in made] == [(3, True), (3, False)]
    assert made[0].latency_s == pytest.approx(2.1) and made[0].label.endswith("×2")
    assert made[1].latency_s is None and made[1].why == "your hand does not hold it"


def test_the_overlay_draws_no_hand_over_the_face():
    """A 'hand' the tracker finds inside the face's box is not drawn (a skeleton on a face); a hand
    beside the face is, unless too small beside it to be the player's (a background phantom, which the
    scorers drop too)."""
    import numpy as np

    from trainer.ui.recognition import hands_off_the_face
    from trainer.vision.types import HandLandmarks, Landmarks

    rng = np.random.default_rng(0)
    face = np.column_stack([rng.uniform(200, 400, 478), rng.uniform(100, 350, 478), np.zeros(478)])
    face[234, :2], face[454, :2] = (200.0, 220.0), (400.0, 220.0)  # the cheeks: 200 px wide
    on_face = HandLandmarks(np.column_stack([rng.uniform(260, 340, 21), rng.uniform(180, 260, 21), np.zeros(21)]),
                            Side.LEFT)
    beside = HandLandmarks(np.column_stack([rng.uniform(450, 560, 21), rng.uniform(250, 400, 21), np.zeros(21)]),
                           Side.RIGHT)
    phantom = HandLandmarks(np.column_stack([rng.uniform(500, 540, 21), rng.uniform(40, 80, 21), np.zeros(21)]),
                            Side.LEFT)  # a third of the face's width
    marks = Landmarks(timestamp=0.0, width=640, height=480, face=face, hands=(on_face, beside, phantom))
    assert hands_off_the_face(marks).hands == (beside,)
    assert hands_off_the_face(Landmarks(0.0, 640, 480, face=None, hands=(on_face,))).hands == (on_face,)
