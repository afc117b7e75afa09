"""The temporal recognizer: latency, hysteresis, repeats, refractory period, talking suppression, on
constructed score streams and on recorded landmark streams of real clips (samples/streams_*.npz)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from trainer.signals.gestures import BodyPart, Gesture, Side
from trainer.vision.recognizer import (
    GestureTiming,
    Recognizer,
    RecognizerConfig,
    recognize,
    with_timing,
)
from trainer.vision.types import FaceReading, FrameScores

REPO = Path(__file__).resolve().parents[2]
STATIC = [g for g in Gesture if g is not Gesture.WRITING]


def frame(t: float, scores: dict[Gesture, float] | None = None, activity: float = 0.0,
          side: Side | None = None) -> FrameScores:
    scores = scores or {}
    sides = {g: side for g in scores} if side else {}
    return FrameScores(t, scores, sides, face=FaceReading({}, {}), mouth_activity=activity)


def quiet(fps: float, seconds: float, start: float = 0.0) -> list[FrameScores]:
    """A still, silent face: warms the talking detector up."""
    return [frame(start + i / fps) for i in range(int(seconds * fps))]


# -- latency ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("fps", [30.0, 25.0, 15.0])
@pytest.mark.parametrize("gesture", STATIC, ids=lambda g: g.value)
def test_static_gesture_reported_within_250_ms_of_onset(gesture, fps):
    """Issue 3: a static gesture is reported within 250 ms of its onset, hold time included. The onset
    is the first frame whose score reaches the decision threshold (0.5); the score then holds."""
    recognizer = Recognizer()
    for f in quiet(fps, 2.0):
        recognizer.update(f)
    onset = None
    reported = None
    for i in range(int(2.0 * fps), int(4.0 * fps)):
        t = i / fps
        # A realistic onset: the score ramps up over 60 ms instead of jumping.
        since = t - 2.0
        score = min(0.95, 0.3 + 0.65 * since / 0.06)
        if onset is None and score >= 0.5:
            onset = t
        update = recognizer.update(frame(t, {gesture: score}))
        if any(e.gesture is gesture for e in update.started):
            reported = t
            break
    assert onset is not None and reported is not None
    assert reported - onset <= 0.25 + 1e-9, f"{gesture.value} reported {1000 * (reported - onset):.0f} ms after onset"


def test_latency_on_a_real_thumb_clip():
    """Recorded landmarks of the MediaPipe gesture clip (a woman raises a thumb): the thumb is
    reported within 250 ms of the first frame whose thumb score reaches 0.5."""
    from trainer.vision.pipeline import Pipeline, PipelineOptions
    from trainer.vision.streams import load_stream, replay

    stream = load_stream(REPO / "samples" / "streams_mps_gesture_test_video_thumb.npz")
    pipe = Pipeline(PipelineOptions())
    onset = reported = None
    for scores, started, _finished in replay(stream, pipe):
        if onset is None and scores.scores[Gesture.THUMB] >= 0.5:
            onset = scores.timestamp
        if any(e.gesture is Gesture.THUMB for e in started):
            reported = scores.timestamp
            assert started[0].side is Side.RIGHT
            break
    assert onset is not None and reported is not None
    assert reported - onset <= 0.25


# -- hysteresis, hold, repeats, refractory --------------------------------------------------------

def _events(stream, config=None):
    return recognize(stream, config)


def _timeline(gesture, pattern, fps=30.0, lead=2.0):
    """``pattern``: list of (seconds, score) segments after a quiet lead-in."""
    stream = quiet(fps, lead)
    t = lead
    for seconds, score in pattern:
        for _ in range(int(round(seconds * fps))):
            stream.append(frame(t, {gesture: score}))
            t += 1 / fps
    stream += quiet(fps, 2.0, start=t)
    return stream


def test_a_blip_shorter_than_the_hold_is_ignored():
    stream = _timeline(Gesture.BROWS_UP, [(0.067, 0.9)])  # two frames
    assert _events(stream) == []


def test_hysteresis_keeps_one_event_while_the_score_wobbles():
    wobble = [(0.1, 0.9)] + [(0.1, 0.45), (0.1, 0.6)] * 10
    events = _events(_timeline(Gesture.BROWS_UP, wobble))
    assert len(events) == 1
    assert events[0].count == 1
    assert events[0].duration == pytest.approx(2.1, abs=0.1)
    assert events[0].confidence == pytest.approx(0.9)


def test_repeats_inside_one_event_are_counted():
    """Three mouth openings separated by short closures: one event, count 3 (three aces)."""
    openings = [(0.35, 0.9), (0.25, 0.1), (0.35, 0.9), (0.25, 0.1), (0.35, 0.9)]
    events = _events(_timeline(Gesture.MOUTH_OPEN, openings))
    assert [(e.gesture, e.count) for e in events] == [(Gesture.MOUTH_OPEN, 3)]
    assert events[0].start == pytest.approx(2.0, abs=0.04)


def test_flicker_is_not_a_repeat():
    openings = [(0.4, 0.9), (0.033, 0.1), (0.4, 0.9)]  # one dropped frame
    events = _events(_timeline(Gesture.TONGUE_OUT, openings))
    assert [(e.gesture, e.count) for e in events] == [(Gesture.TONGUE_OUT, 1)]


def test_long_pause_makes_two_events():
    events = _events(_timeline(Gesture.MOUTH_OPEN, [(0.4, 0.9), (1.5, 0.0), (0.4, 0.9)]))
    assert [e.count for e in events] == [1, 1]
    assert events[1].start - events[0].end >= 1.4


def test_refractory_period_blocks_an_immediate_restart():
    config = with_timing(RecognizerConfig(), Gesture.BROWS_UP, release_ms=100.0, refractory_ms=1000.0)
    events = _events(_timeline(Gesture.BROWS_UP, [(0.4, 0.9), (0.3, 0.0), (0.4, 0.9)]), config)
    assert len(events) == 1
    relaxed = with_timing(config, Gesture.BROWS_UP, refractory_ms=0.0)
    assert len(_events(_timeline(Gesture.BROWS_UP, [(0.4, 0.9), (0.3, 0.0), (0.4, 0.9)]), relaxed)) == 2


def test_side_and_live_state():
    recognizer = Recognizer()
    for f in quiet(30.0, 1.0):
        recognizer.update(f)
    for i in range(10):
        update = recognizer.update(frame(1.0 + i / 30, {Gesture.WINK: 0.8}, side=Side.LEFT))
    live = update.live
    assert live.scores[Gesture.WINK] == 0.8
    assert Gesture.WINK in live.active and live.active[Gesture.WINK].side is Side.LEFT
    assert live.thresholds[Gesture.WINK] == (0.55, 0.4)
    event = recognizer.flush()[0]
    assert event.gesture is Gesture.WINK and event.side is Side.LEFT


def test_time_must_not_go_back():
    recognizer = Recognizer()
    recognizer.update(frame(1.0))
    with pytest.raises(ValueError, match="back in time"):
        recognizer.update(frame(0.5))


def test_timing_validation():
    with pytest.raises(ValueError):
        GestureTiming(enter=0.3, exit=0.5)
    with pytest.raises(ValueError):
        GestureTiming(hold_ms=-1)


# -- talking ---------------------------------------------------------------------------------------

def _talking(fps: float, seconds: float, start: float, extra: dict[Gesture, float] | None = None,
             rng: np.random.Generator | None = None):
    """Speech: the lips open and close at 2.5-5 Hz with irregular amplitude; mouth-gesture scores
    pop up for single syllables."""
    rng = rng or np.random.default_rng(7)
    frames = []
    phase = 0.0
    for i in range(int(seconds * fps)):
        t = start + i / fps
        phase += 2 * np.pi * rng.uniform(2.5, 5.0) / fps
        activity = max(0.0, 0.12 + 0.1 * np.sin(phase) * rng.uniform(0.6, 1.4))
        scores = {Gesture.MOUTH_OPEN: 0.7 if activity > 0.13 else 0.2,
                  Gesture.LIP_BITE: 0.65 if activity < 0.05 else 0.1}
        scores.update(extra or {})
        frames.append(frame(t, scores, activity))
    return frames


def test_talking_suppresses_mouth_gestures():
    stream = quiet(30.0, 1.0) + _talking(30.0, 20.0, 1.0) + quiet(30.0, 1.0, 21.0)
    recognizer = Recognizer()
    events = []
    talking = []
    for f in stream:
        update = recognizer.update(f)
        events += update.finished
        talking.append(recognizer.talking)
    events += recognizer.flush()
    assert [e for e in events if e.gesture.uses_mouth] == []
    assert np.mean(np.array(talking[60:600]) >= 0.5) > 0.8
    # The same stream without the talking detector reads the syllables as a run of mouth openings
    # (dozens of aces).
    deaf = RecognizerConfig(talk_reversals=(1e6, 2e6), talking_hold_ms=0.0)
    fired = [e for e in recognize(stream, deaf) if e.gesture.uses_mouth]
    assert fired and max(e.count for e in fired) >= 10


def test_a_deliberate_mouth_sign_while_talking_still_counts_but_later():
    stream = quiet(30.0, 1.0) + _talking(30.0, 4.0, 1.0)
    t = 5.0
    for i in range(45):  # mouth held wide open for 1.5 s, lips still
        stream.append(frame(t + i / 30, {Gesture.MOUTH_OPEN: 0.95}, activity=0.6))
    stream += quiet(30.0, 1.0, 6.5)
    recognizer = Recognizer()
    reported = None
    for f in stream:
        update = recognizer.update(f)
        if reported is None and any(e.gesture is Gesture.MOUTH_OPEN for e in update.started):
            reported = f.timestamp
    assert reported is not None
    assert 0.6 <= reported - 5.0 <= 1.0  # about talking_hold_ms, not the usual 120 ms


def _first_report(stream, gesture):
    recognizer = Recognizer()
    for f in stream:
        if any(e.gesture is gesture for e in recognizer.update(f).started):
            return f.timestamp
    return None


def test_non_mouth_gestures_are_not_delayed_by_talking():
    # The wink left this list on 2026-12-02 (clips2): speech closes the eyes unevenly as it closes
    # them evenly, so a wink is held like eyes_closed while the person talks (below).
    for gesture in (Gesture.LOOK_UP, Gesture.THUMB):
        stream = quiet(30.0, 1.0) + _talking(30.0, 3.0, 1.0)
        stream += _talking(30.0, 1.0, 4.0, extra={gesture: 0.9})
        reported = _first_report(stream, gesture)
        assert reported is not None and reported - 4.0 <= 0.25, gesture


def _held_while_talking(gesture: Gesture, side: Side | None = None) -> None:
    """While talking, ``gesture`` needs talking_hold_ms (a 0.4 s flash is ignored, a 1.2 s one is
    reported 0.75-0.9 s after its start); when silent it is reported within 250 ms."""
    assert gesture in RecognizerConfig().talking_also
    flash = quiet(30.0, 1.0) + _talking(30.0, 3.0, 1.0) + _talking(30.0, 0.4, 4.0, extra={gesture: 0.9})
    flash += _talking(30.0, 2.0, 4.4)
    assert _first_report(flash, gesture) is None
    held = quiet(30.0, 1.0) + _talking(30.0, 3.0, 1.0) + _talking(30.0, 1.2, 4.0, extra={gesture: 0.9})
    reported = _first_report(held, gesture)
    assert reported is not None and 0.75 <= reported - 4.0 <= 0.9
    silent = [frame(4.0 + i / 30.0, {gesture: 0.9}, side=side) for i in range(30)]
    reported = _first_report(quiet(30.0, 4.0) + silent, gesture)
    assert reported is not None and reported - 4.0 <= 0.25


def test_brows_raised_while_talking_must_be_held_like_a_mouth_sign():
    """Speakers flash their brows on stressed words."""
    _held_while_talking(Gesture.BROWS_UP)


def test_a_wink_while_talking_must_be_held_like_eyes_closed():
    """Speech and laughter close the eyes unevenly: a short uneven closure is not a wink."""
    _held_while_talking(Gesture.WINK, Side.LEFT)


# -- recorded streams of real clips ------------------------------------------------------------------

def _streams(pattern: str):
    from face_samples import talking_stream_files

    from trainer.vision.streams import load_stream

    # Every talking clip (their files are not all named *talking*), else the streams named by pattern.
    files = talking_stream_files() if pattern == TALKING else sorted((REPO / "samples").glob(pattern))
    assert files, f"no recorded streams {pattern}: run python -m trainer.lab.record_streams"
    return [load_stream(f) for f in files]


TALKING = "every talking clip"


def _replay(stream, config=None):
    from trainer.vision.pipeline import Pipeline, PipelineOptions
    from trainer.vision.streams import replay

    pipe = Pipeline(PipelineOptions(recognizer=config or RecognizerConfig()))
    events, talking = [], []
    for _scores, _started, finished in replay(stream, pipe):
        events += finished
        talking.append(pipe.recognizer.talking)
    events += pipe.finish()
    return events, np.array(talking)


TALKING_UNTIL = {"lp_d13_talking_then_faces.mp4": 185 / 30.0}
"""Clips whose speech ends before the clip does (MANIFEST notes: lp_d13 talks f0-185, then smiles and
pouts)."""


def _talking_span(stream) -> float:
    return TALKING_UNTIL.get(Path(stream.source).name, stream.duration)


def test_talking_detector_on_real_talking_clips():
    """Talking clips long enough for the detector's window (1.5 s) are recognised as talking for a
    good part of their speech: at least 9 in 10 of them (of 37 people's clips, 3 were missed when the
    set grew in December: a driving clip of few syllables and two laughing speakers; the misses are
    named when this fails)."""
    checked, missed = 0, []
    for stream in _streams(TALKING):
        if stream.duration < 2.0:
            continue
        _events, talking = _replay(stream)
        times = np.array([f.timestamp for f in stream.frames])
        share = float(np.mean(talking[times < _talking_span(stream)] >= 0.5))
        if share < 0.25:
            missed.append((stream.source, round(share, 2)))
        checked += 1
    assert checked >= 37
    assert len(missed) <= 0.1 * checked, missed


def test_deliberate_mouth_opening_is_not_talking_and_is_seen():
    """sequence/lp_d18.mp4: a man opens his mouth wide twice (f64-92 round, f116-152 wide), silent."""
    (stream,) = _streams("streams_lp_d18.npz")
    events, talking = _replay(stream)
    assert np.mean(talking >= 0.5) < 0.05
    opens = [e for e in events if e.gesture is Gesture.MOUTH_OPEN]
    assert len(opens) >= 1
    assert any(2.0 <= e.start <= 3.2 for e in opens) or any(3.8 <= e.start <= 5.1 for e in opens)


def test_suppression_removes_most_mouth_triggers_on_real_talking():
    """On the recorded talking clips, the talking suppression removes at least 60 % of the mouth
    gesture triggers that the same recognizer without it fires (measured: 25 -> 4 over 2.1 min with
    the face rules of 2026-11-29; 4 -> 0 with those of 2026-12-01, whose tongue rule no longer fires
    on speech by itself). The overall false triggers per minute are reported by eval-vision."""
    deaf = RecognizerConfig(talk_reversals=(1e6, 2e6), talking_hold_ms=0.0)
    with_suppression = without = 0
    for stream in _streams(TALKING):
        with_suppression += sum(e.gesture.uses_mouth for e in _replay(stream)[0])
        without += sum(e.gesture.uses_mouth for e in _replay(stream, deaf)[0])
    assert without >= 3  # speech still makes bitten-lip and grimace shapes for a moment
    assert with_suppression <= 0.4 * without


def test_speakers_glancing_up_are_not_look_up_signs_and_a_deliberate_one_is():
    """Speakers glance up between words; the look-up's own bar (0.75, ``RecognizerConfig.overrides``)
    lets at most one through on the recorded talking streams, where the default bar (0.55) let six or
    more. lp_d3's look-up (annotated 11.4-11.8 s, peak 1.0) is still reported."""
    low = replace(with_timing(RecognizerConfig(), Gesture.LOOK_UP, enter=RecognizerConfig().default.enter),
                  talking_enters=())

    def look_ups(stream, config=None):
        return [e for e in _replay(stream, config)[0] if e.gesture is Gesture.LOOK_UP]

    talking = _streams(TALKING)
    assert sum(len(look_ups(s, low)) for s in talking) >= 6
    assert sum(len(look_ups(s)) for s in talking) <= 1
    (signing,) = _streams("streams_lp_d3.npz")
    assert any(e.start <= 11.8 and e.end >= 11.4 for e in look_ups(signing))


def test_the_other_side_is_a_new_event():
    """A left wink then a right wink (no gap): two events with their sides; a one-frame side flip
    (tracker noise) does not split."""
    stream = quiet(30.0, 1.0)
    t = 1.0
    for i in range(60):
        side = Side.LEFT if i < 30 else Side.RIGHT
        if i == 10:
            side = Side.RIGHT  # one noisy frame
        stream.append(frame(t, {Gesture.WINK: 0.9}, side=side))
        t += 1 / 30
    stream += quiet(30.0, 1.0, t)
    events = recognize(stream)
    assert [(e.gesture, e.side) for e in events] == [(Gesture.WINK, Side.LEFT), (Gesture.WINK, Side.RIGHT)]
    assert events[0].end == pytest.approx(2.0, abs=0.04)
    assert events[1].start == pytest.approx(2.0, abs=0.04)


def test_face_signs_wait_for_the_neutral_face():
    """First second of a video with no calibrated profile (the pipeline sets neutral_known False): a face
    sign measured against the population's neutral is not reported; its hold starts once the neutral
    is known. Hand signs do not wait. (The look-up begins on the second frame: one already on at the
    first waits for its absence, ``test_a_face_sign_showing_from_the_first_frame_waits_for_its_absence``.)"""
    recognizer = Recognizer()
    reported: dict[Gesture, float] = {}
    for i in range(90):
        t = i / 30
        f = FrameScores(t, {Gesture.LOOK_UP: 0.9 if i else 0.0, Gesture.THUMB: 0.9}, {}, FaceReading({}, {}), 1,
                        mouth_activity=0.0, neutral_known=t >= 1.0)
        for event in recognizer.update(f).started:
            reported.setdefault(event.gesture, t)
    assert reported[Gesture.THUMB] <= RecognizerConfig().timing(Gesture.THUMB).hold_ms / 1000.0 + 0.04  # its hold only
    assert 1.1 <= reported[Gesture.LOOK_UP] <= 1.0 + 0.25  # its usual hold, counted from 1.0 s


FIRST_TALKING_CLIPS = (
    "grid_bbaf2n_talking", "grid_brbk7n_talking", "grid_lbax4n_talking", "grid_lbbc2a_talking",
    "grid_lrwp9a_talking", "grid_lwbsza_talking", "grid_sbia1a_talking", "sadtalker_wda_aoc_talking",
    "edtalk_mouth_source_talking", "edtalk_pose_source1_talking", "edtalk_pose_source2_talking",
    "lp_d20_talking", "lp_d13_talking_then_faces", "spectre_mead_W023_talk", "skyreels_a1_driving2",
    "skyreels_a1_driving3", "skyreels_a1_driving5", "spectre_lrs3_OzA6jRYjVQs_00004",
    "spectre_lrs3_PbgB2TaYhio_00007", "spectre_lrs3_BImnT7lcLDE_00003",
)
"""The talking clips the recognizer was tuned on until December (20 speakers)."""


def _false_events(streams):
    minutes = sum(_talking_span(s) for s in streams) / 60.0
    events = [(Path(s.source).stem, e) for s in streams for e in _replay(s)[0] if e.start < _talking_span(s)]
    return events, minutes


def test_false_triggers_per_minute_over_all_talking_clips():
    """False events over each talking clip's speech (people speaking, nobody signing), through the
    whole static stage and recognizer as shipped (blendshape face signs, running baseline, talking
    suppression), replayed from the recorded streams.

    The first 20 speakers: 1 event in 2.47 min = 0.40 / min (an index sign from a hand; the same on
    mediapipe 0.10 and 1.2), under the target of 1 / min. All 52 talking clips of the grown set (the
    new speakers laugh, gesture, make faces): 40 events in 8.6 min = 4.6 / min with the shipped face
    signs on 2026-12-04, 19 events = 2.21 / min on 2026-12-07 (smaller lip strokes count as speech, a
    look-up needs 0.85 while talking, the raised bars linger 2 s after speech, hand signs held still and
    200 ms); this bounds it from above until
    the recognizer meets 1 / min there too (``python -m trainer.lab.clip_replay`` gives the held-out
    figure)."""
    streams = _streams(TALKING)
    assert all(any(f.blendshapes for f in s.frames) for s in streams), "re-record: python -m trainer.lab.record_streams"
    first = [s for s in streams if Path(s.source).stem in FIRST_TALKING_CLIPS]
    events, minutes = _false_events(first)
    assert len(first) == 20 and minutes > 2.4
    assert len(events) / minutes <= 1.0, [(c, e.gesture.value, round(e.start, 2)) for c, e in events]
    events, minutes = _false_events(streams)
    assert len(streams) >= 52 and minutes > 8.0
    assert len(events) / minutes <= 2.5, [(c, e.gesture.value, round(e.start, 2)) for c, e in events]


def test_the_jaw_counts_as_speech_when_the_lips_gap_moves_little():
    """lp_d13 talks for 6 s (f0-185) with small movements of the lips' gap: counted on the gap alone,
    the detector missed part of that speech and a 0.4 s pout at 1.6 s became an event (the talking
    clips' last face event). The jaw's blendshape is the detector's second channel: no face event
    during the speech; without it the pout comes back."""
    (stream,) = _streams("streams_lp_d13_talking_then_faces.npz")

    def during_speech(config):
        events = _replay(stream, config)[0]
        return [(e.gesture.value, round(e.start, 2)) for e in events
                if e.gesture.body_part is BodyPart.FACE and e.start < _talking_span(stream)]

    assert during_speech(RecognizerConfig()) == []
    assert ("pout", 1.6) in during_speech(RecognizerConfig(talk_jaw_min_move=None))


def test_a_jaw_that_does_not_move_adds_no_talking():
    """The jaw channel counts reversals of jawOpen like the lips' gap: a jaw held open (a sign) or
    still is not speech, a jaw opening and closing three times a second is."""
    still = Recognizer()
    moving = Recognizer()
    for i in range(60):
        t = i / 30
        still.update(FrameScores(t, face=FaceReading({"jawOpen": 0.6}, {}), mouth_activity=0.0))
        wave = 0.3 + 0.2 * np.sin(2 * np.pi * 3.0 * t)
        moving.update(FrameScores(t, face=FaceReading({"jawOpen": float(wave)}, {}), mouth_activity=0.0))
    assert still.talking == 0.0
    assert moving.talking >= 0.5


def test_uneven_closed_eyes_are_not_a_wink_while_the_eyes_close():
    """sequence/lp_d3.mp4 (samples/streams_lp_d3.npz) winks left at 0.2 s and right at 1.13 s, then
    looks down with low lids (1.6-9.0 s, clip_spans.tsv): its eyes_closed events there are excused,
    but the lids close unevenly and read as winks during and right after them. A wink yields to the
    eyes_closed event of the same movement: the two winks stay, the lids make no wink."""
    (stream,) = _streams("streams_lp_d3.npz")

    def winks(config):
        return [round(e.start, 2) for e in _replay(stream, config)[0] if e.gesture is Gesture.WINK]

    shipped = winks(RecognizerConfig())
    assert len(shipped) == 2 and shipped[0] < 0.72 and 1.03 <= shipped[1] < 1.58, shipped
    assert len(winks(RecognizerConfig(yields_to=()))) > 2  # without it the low lids wink


def test_a_wink_after_the_eyes_reopen_is_a_new_sign():
    """Yielding lasts until the wink's score falls: eyes closed, opened, then a wink is reported."""
    stream = quiet(30.0, 1.5)
    stream += [frame(1.5 + i / 30, {Gesture.EYES_CLOSED: 0.95}) for i in range(15)]
    stream += quiet(30.0, 1.0, 2.0)
    stream += [frame(3.0 + i / 30, {Gesture.WINK: 0.95}, side=Side.LEFT) for i in range(15)]
    stream += quiet(30.0, 1.0, 3.5)
    events = recognize(stream)
    assert [e.gesture for e in events] == [Gesture.EYES_CLOSED, Gesture.WINK]


def test_lips_pressing_as_a_wide_mouth_closes_are_not_a_lip_bite():
    """sequence/lp_d18.mp4 (samples/streams_lp_d18.npz) opens its mouth wide at 3.80-5.20 s, then
    pushes its lower lip up with the corners down (a sulky face, not a bite: clip_spans.tsv) as the
    mouth closes. That closing read as a lip bite of 1.8 s. A lip bite yields to the mouth_open event
    it closes: the two openings stay, no lip bite."""
    (stream,) = _streams("streams_lp_d18.npz")

    def events(config):
        return [(e.gesture.value, round(e.start, 1)) for e in _replay(stream, config)[0]]

    shipped = events(RecognizerConfig())
    assert [g for g, _ in shipped].count("mouth_open") == 2 and "lip_bite" not in [g for g, _ in shipped]
    assert ("lip_bite", 5.4) in events(RecognizerConfig(yields_to=((Gesture.WINK, Gesture.EYES_CLOSED),)))


def test_a_tongue_seen_in_a_mouth_already_open_is_not_a_second_ace():
    """sequence/lp_d18.mp4 (samples/streams_lp_d18.npz) opens its mouth wide with teeth at 3.80-5.20 s
    (clip_spans.tsv): its tongue shows inside the opening and read as a tongue out of 0.9 s. RULES.md
    makes both one sign (an ace: open the mouth, or stick out the tongue), so the tongue yields to the
    mouth_open event already on: the two openings stay, no tongue out."""
    (stream,) = _streams("streams_lp_d18.npz")

    def events(config):
        return [(e.gesture.value, round(e.start, 1)) for e in _replay(stream, config)[0]]

    shipped = events(RecognizerConfig())
    assert [g for g, _ in shipped].count("mouth_open") == 2 and "tongue_out" not in [g for g, _ in shipped]
    without = tuple(p for p in RecognizerConfig().yields_to if p != (Gesture.TONGUE_OUT, Gesture.MOUTH_OPEN))
    assert ("tongue_out", 4.1) in events(RecognizerConfig(yields_to=without))


def test_a_tongue_put_out_first_stays_a_tongue_out_when_the_mouth_opens_with_it():
    """The yield works one way: a tongue out that began before the mouth opened is reported, and the
    opening that follows (the tongue pulls the jaw down) does not end it."""
    stream = quiet(30.0, 1.5)
    stream += [frame(1.5 + i / 30, {Gesture.TONGUE_OUT: 0.95}) for i in range(6)]
    stream += [frame(1.7 + i / 30, {Gesture.TONGUE_OUT: 0.95, Gesture.MOUTH_OPEN: 0.9}) for i in range(24)]
    stream += quiet(30.0, 1.0, 2.5)
    events = recognize(stream)
    assert Gesture.TONGUE_OUT in [e.gesture for e in events], events
    tongue = next(e for e in events if e.gesture is Gesture.TONGUE_OUT)
    assert abs(tongue.start - 1.5) < 0.05 and tongue.end >= 2.4


def test_an_uneven_eye_closure_while_talking_and_laughing_is_not_a_wink():
    """sequence/edtalk_expression_source.mp4 (samples/streams_edtalk_expression_source.npz) talks and
    laughs with her eyes shut at 6.0-8.2 s (clip_spans.tsv); at 8.47 s one eye closes more than the
    other for 0.27 s while she still talks. Speech closes the eyes unevenly as it closes them evenly,
    so a wink, like eyes_closed, must be held ``talking_hold_ms`` while the person talks: no wink;
    without the wink in ``talking_also`` it comes back. The head tilt she makes (8.3-9.6 s, excused
    by its span) was held long enough to stay until a head tilt had to be held 2 s while talking
    (``talking_holds``, 2026-12-04): no longer reported."""
    (stream,) = _streams("streams_edtalk_expression_source.npz")

    def events(config):
        return [(e.gesture.value, round(e.start, 1)) for e in _replay(stream, config)[0]]

    shipped = events(RecognizerConfig())
    assert "wink" not in [g for g, _ in shipped] and "head_tilt" not in [g for g, _ in shipped], shipped
    without = tuple(g for g in RecognizerConfig().talking_also if g is not Gesture.WINK)
    assert ("wink", 8.5) in events(RecognizerConfig(talking_also=without))


def test_a_raised_bar_while_talking_keeps_a_weak_speech_shape_out_and_lets_a_clear_sign_in():
    """``talking_enter``: while the person talks, a speech-prone gesture must score this much to begin
    (a brow flash of 0.7 held 1.2 s is then not a sign; one of 0.95 still is); silent, the usual bar."""
    config = RecognizerConfig(talking_enter=0.8)

    def first(level: float, talking: bool):
        lead = quiet(30.0, 1.0) + (_talking(30.0, 3.0, 1.0) if talking else quiet(30.0, 3.0, 1.0))
        held = (_talking(30.0, 1.2, 4.0, extra={Gesture.BROWS_UP: level}) if talking
                else [frame(4.0 + i / 30.0, {Gesture.BROWS_UP: level}) for i in range(36)])
        recognizer = Recognizer(config)
        for f in lead + held:
            if any(e.gesture is Gesture.BROWS_UP for e in recognizer.update(f).started):
                return f.timestamp
        return None

    assert first(0.7, talking=True) is None
    assert first(0.95, talking=True) is not None
    assert first(0.7, talking=False) is not None  # the usual enter (0.55) when silent
    assert RecognizerConfig().talking_enter == 0.8  # shipped
    # Without the raised bar, the weak flash held 1.2 s while talking is a sign.
    unraised = Recognizer(RecognizerConfig(talking_enter=None))
    stream = quiet(30.0, 1.0) + _talking(30.0, 3.0, 1.0) + _talking(30.0, 1.2, 4.0, extra={Gesture.BROWS_UP: 0.7})
    assert any(e.gesture is Gesture.BROWS_UP for f in stream for e in unraised.update(f).started)


def test_a_gesture_may_be_held_longer_than_the_others_while_talking():
    """``talking_holds``: a talking head sways for a second or two at a time; with a 2 s hold for the
    head tilt while talking, a 1.5 s sway is not a sign, a 2.5 s tilt still is, and silent the usual
    hold applies."""
    config = RecognizerConfig(talking_holds=((Gesture.HEAD_TILT, 2000.0),))

    def first(seconds: float, talking: bool = True):
        lead = quiet(30.0, 1.0) + (_talking(30.0, 3.0, 1.0) if talking else quiet(30.0, 3.0, 1.0))
        held = (_talking(30.0, seconds, 4.0, extra={Gesture.HEAD_TILT: 0.9}) if talking
                else [frame(4.0 + i / 30.0, {Gesture.HEAD_TILT: 0.9}) for i in range(int(seconds * 30))])
        recognizer = Recognizer(config)
        for f in lead + held + quiet(30.0, 1.0, 4.0 + seconds):
            if any(e.gesture is Gesture.HEAD_TILT for e in recognizer.update(f).started):
                return f.timestamp - 4.0
        return None

    assert first(1.5) is None
    assert 1.9 <= first(2.5) <= 2.1
    assert first(0.5, talking=False) <= 0.25
    assert RecognizerConfig().talking_holds == ((Gesture.HEAD_TILT, 2000.0),)


def test_taught_signs_keep_the_usual_bar_while_talking():
    """``talking_enter_exempt``: a sign the person taught has its own margin from their talking, so the
    raised bar leaves it alone (a 0.7 flash held 1.2 s while talking is a sign again)."""
    stream = quiet(30.0, 1.0) + _talking(30.0, 3.0, 1.0) + _talking(30.0, 1.2, 4.0, extra={Gesture.BROWS_UP: 0.7})
    for exempt, expected in (((), False), ((Gesture.BROWS_UP,), True)):
        recognizer = Recognizer(RecognizerConfig(talking_enter=0.8, talking_enter_exempt=exempt))
        seen = any(e.gesture is Gesture.BROWS_UP for f in stream for e in recognizer.update(f).started)
        assert seen is expected, exempt


def test_a_glance_up_while_talking_needs_the_raised_bar_and_keeps_its_hold():
    """``talking_enters``: while the person talks, a look up must reach 0.85 to begin (a glance of 0.8
    is not a sign), and one that does is reported after its usual hold, not a mouth sign's; silent, its
    own bar (0.75) applies; a taught look-up is left alone."""
    def first(level: float, talking: bool, config: RecognizerConfig | None = None):
        lead = quiet(30.0, 1.0) + (_talking(30.0, 3.0, 1.0) if talking else quiet(30.0, 3.0, 1.0))
        held = (_talking(30.0, 1.2, 4.0, extra={Gesture.LOOK_UP: level}) if talking
                else [frame(4.0 + i / 30.0, {Gesture.LOOK_UP: level}) for i in range(36)])
        recognizer = Recognizer(config or RecognizerConfig())
        for f in lead + held:
            if any(e.gesture is Gesture.LOOK_UP for e in recognizer.update(f).started):
                return f.timestamp - 4.0
        return None

    assert first(0.8, talking=True) is None
    assert first(0.95, talking=True) <= 0.25  # its 120 ms hold, not talking_hold_ms
    assert first(0.8, talking=False) is not None
    assert first(0.8, talking=True, config=RecognizerConfig(talking_enters=())) is not None
    assert first(0.8, talking=True, config=RecognizerConfig(talking_enter_exempt=(Gesture.LOOK_UP,))) is not None
    assert dict(RecognizerConfig().talking_enters)[Gesture.LOOK_UP] == 0.85  # shipped


def test_speech_with_small_lip_movements_is_talking():
    """Some speakers barely part their lips (``talk_min_move``): counted from 0.025 of the eyes' distance,
    the detector reads more of pcavs_741400163's speech as talking than from 0.04, and megactor_bench8's
    0.5 s eye closure at 1.56 s, made while she talks, is no longer a sign."""
    (quiet_lips,) = _streams("streams_pcavs_741400163_talking.npz")
    small = float(np.mean(_replay(quiet_lips)[1] >= 0.5))
    large = float(np.mean(_replay(quiet_lips, RecognizerConfig(talk_min_move=0.04))[1] >= 0.5))
    assert RecognizerConfig().talk_min_move == 0.025
    assert small >= large + 0.05, (small, large)
    (closing,) = _streams("streams_megactor_bench8_talking.npz")

    def closures(config=None):
        return [round(e.start, 1) for e in _replay(closing, config)[0] if e.gesture is Gesture.EYES_CLOSED]

    assert closures(RecognizerConfig(talk_min_move=0.04)) == [1.6]
    assert closures() == []


def test_the_raised_bar_lingers_a_moment_after_speech():
    """``talk_bar_linger_ms``: a face just done talking keeps speech's expressions for a moment. A brow
    flash of 0.7 for 0.27 s, 1.7 s after the detector last heard speech (past its 1.5 s hangover), is
    not a sign; one of 0.9 is, after its usual hold; 2.5 s after, the usual bar is back."""
    speech = quiet(30.0, 1.0) + _talking(30.0, 3.0, 1.0)
    probe, last = Recognizer(), 0.0
    for f in speech + quiet(30.0, 3.0, 4.0):
        probe.update(f)
        last = f.timestamp if probe.talking >= 0.5 else last
    assert 4.0 <= last <= 5.5

    def first(level: float, after: float, config: RecognizerConfig | None = None):
        start = last + after
        stream = speech + quiet(30.0, start - 4.0, 4.0)
        stream += [frame(start + i / 30.0, {Gesture.BROWS_UP: level}) for i in range(8)]  # a 0.27 s flash
        stream += quiet(30.0, 1.0, start + 8 / 30.0)
        recognizer = Recognizer(config or RecognizerConfig())
        for f in stream:
            if any(e.gesture is Gesture.BROWS_UP for e in recognizer.update(f).started):
                return f.timestamp - start
        return None

    assert RecognizerConfig().talk_bar_linger_ms == 2000.0  # shipped
    assert first(0.7, 1.7) is None
    assert first(0.9, 1.7) <= 0.25  # its usual 120 ms hold, not talking_hold_ms
    assert first(0.7, 1.7, RecognizerConfig(talk_bar_linger_ms=0.0)) is not None
    assert first(0.7, 2.5) is not None


def test_a_face_sign_showing_from_the_first_frame_waits_for_its_absence():
    """A sign is made from a still face: a wink already on when the stream starts is not reported; made
    again once the eye has opened, it is. A hand sign showing from the first frame is reported: it
    entered the picture."""
    stream = [frame(i / 30, {Gesture.WINK: 0.95, Gesture.THUMB: 0.95}) for i in range(30)]
    stream += [frame(1.0 + i / 30, {Gesture.THUMB: 0.95}) for i in range(15)]
    stream += [frame(1.5 + i / 30, {Gesture.WINK: 0.95}) for i in range(30)]
    starts = [(e.gesture, round(e.start, 2)) for e in recognize(stream)]
    assert starts == [(Gesture.THUMB, 0.0), (Gesture.WINK, 1.5)]
    recognizer = Recognizer()
    recognizer.update(stream[0])
    assert recognizer.shown_at_start == {Gesture.WINK}  # said to a clip's maker; the thumb was read
    assert (Gesture.WINK, 0.0) in [(e.gesture, round(e.start, 2))
                                   for e in recognize(stream, RecognizerConfig(onset_parts=()))]


def test_a_speaker_s_narrowed_eye_at_the_first_frame_is_not_a_wink():
    """pcavs_00015 (a man talking on television, recorded stream): his turned head narrows one eye from
    the first frame (wink 0.97) before the talking detector has heard a word. Read from its absence,
    the clip gives no event; read as it comes, a 3 s wink."""
    (stream,) = _streams("streams_pcavs_00015_talking.npz")
    assert _replay(stream)[0] == []
    assert [e.gesture for e in _replay(stream, RecognizerConfig(onset_parts=()))[0]] == [Gesture.WINK]
