"""The Practice drill's judging and statistics (pure functions, no Streamlit, no camera)."""

from __future__ import annotations

import random

from trainer.signals.conventions import CLASSIC, REGIONAL
from trainer.signals.gestures import Gesture, GestureEvent, Side
from trainer.signals.signs import Sign
from trainer.ui import drill


def _event(gesture: Gesture, start: float = 10.0, end: float = 10.4, side: Side | None = None) -> GestureEvent:
    return GestureEvent(gesture=gesture, start=start, end=end, side=side)


def test_the_target_gesture_is_a_success_timed_on_the_camera_clock():
    attempt = drill.judge(Sign.MONSIEUR, _event(Gesture.BROWS_UP), reported_at=10.2, asked_at=9.0,
                          convention=CLASSIC, signing_hand=Side.RIGHT)
    assert attempt.success and attempt.seen_sign is Sign.MONSIEUR
    assert abs(attempt.detect_s - 1.2) < 1e-9
    assert abs(attempt.hold_s - 0.4) < 1e-9


def test_the_same_gesture_means_another_sign_under_another_convention():
    # Looking up is Monsieur in the regional convention and no sign in the classic one.
    assert drill.judge(Sign.MONSIEUR, _event(Gesture.LOOK_UP), reported_at=1, asked_at=0,
                       convention=REGIONAL, signing_hand=Side.RIGHT).success
    classic = drill.judge(Sign.MONSIEUR, _event(Gesture.LOOK_UP), reported_at=1, asked_at=0,
                          convention=CLASSIC, signing_hand=Side.RIGHT)
    assert not classic.success and classic.seen_sign is None


def test_a_hand_sign_with_the_other_hand_counts_but_is_noted():
    attempt = drill.judge(Sign.GRAND_NEUF, _event(Gesture.THUMB, side=Side.LEFT), reported_at=1, asked_at=0,
                          convention=CLASSIC, signing_hand=Side.RIGHT)
    assert attempt.success and "left hand" in attempt.note


def test_stats_count_streaks_and_best_times_and_weak_signs_come_first():
    signs = drill.practicable_signs(CLASSIC)
    history = [
        drill.Attempt(Sign.MONSIEUR, True, detect_s=1.5),
        drill.Attempt(Sign.MONSIEUR, False),
        drill.Attempt(Sign.MONSIEUR, True, detect_s=0.8),
        drill.Attempt(Sign.MONSIEUR, True, detect_s=1.1),
        drill.Attempt(Sign.BORGNE, False),
    ]
    table = drill.stats(history, signs)
    assert (table[Sign.MONSIEUR].tries, table[Sign.MONSIEUR].successes, table[Sign.MONSIEUR].streak) == (4, 3, 2)
    assert table[Sign.MONSIEUR].best_detect_s == 0.8
    weak = drill.weak_signs(table, limit=len(signs))
    # Never-tried signs first, then the failed Borgne, the well-known Monsieur last.
    assert weak[-1] is Sign.MONSIEUR and weak[-2] is Sign.BORGNE
    assert drill.next_target(random.Random(1), table, avoid=Sign.MADAME) not in (Sign.MADAME, Sign.MONSIEUR)


def test_every_classic_sign_can_be_practised():
    assert set(drill.practicable_signs(CLASSIC)) == set(Sign)
