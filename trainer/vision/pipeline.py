"""The vision pipeline: frame -> landmarks -> features -> per-frame scores -> gesture events.

``Pipeline.process(frame)`` runs one frame through the tracker (MediaPipe Tasks: the FaceLandmarker
with its blendshapes, the HandLandmarker, the PoseLandmarker for the shrug; models in models/), the
face reading (``types.FaceReading``: blendshapes, ``face_features`` geometry, mouth appearance, and
the backend that read them) and its scores (``face_signs.score_face_signs`` with the parameters of
models/face_signs.json, relative to the user's ``Profile`` or the stream's running baseline; those
parameters and the face-shape basis are ``face_models.FaceModels``, loaded once per pipeline), the
hand signs (``hand_features`` / ``hand_gestures``), the shrug (``body``, only with pose on) and the
temporal ``Recognizer``, and returns a ``FrameResult`` with everything a UI or a command needs.
``Pipeline.score(landmarks)`` is the same without the tracker, for recorded landmarks.

A Pipeline owns native MediaPipe graphs and per-stream state; ``process`` is serialised by a lock, so
the Streamlit/WebRTC frame callback thread and the page may share one instance (one per session, never
one shared between users). ``analyse_image`` and ``analyse_video`` are what ``aluette recognize`` uses.

Must not import the rules engine, bots, quiz or UI.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from trainer.signals.gestures import Gesture, GestureEvent, Side
from trainer.vision.body import BodyConfig, BodyScorer
from trainer.vision.calibration import Profile, RunningBaseline
from trainer.vision.face_features import face_features, mouth_appearance
from trainer.vision.face_models import FaceModels
from trainer.vision.face_signs import (
    APPEARANCE_KEYS,
    FACE_SIGNS,
    FaceReading,
    FaceSignParams,
    Neutral,
    hidden_signs,
    score_face_signs,
)
from trainer.vision.hand_features import hand_features
from trainer.vision.hand_gestures import HandScorer, StillnessConfig, WritingConfig
from trainer.vision.landmarks import Tracker, TrackerOptions
from trainer.vision.mirroring import unmirrored_face
from trainer.vision.personal import PersonalSigns
from trainer.vision.plausibility import credible_hands, face_is_a_hand
from trainer.vision.recognizer import LiveState, Recognizer, RecognizerConfig, RecognizerUpdate, with_taught
from trainer.vision.sensitivity import Sensitivity, retuned
from trainer.vision.sources import FrameSource, open_source
from trainer.vision.types import FaceBackend, Frame, FrameScores, HandLandmarks, Landmarks, VisionError

# Face mesh points for the mouth centre (inner lips) and the face width (cheek to cheek).
_MOUTH_POINTS = (13, 14)
FACE_SIGN_SET = frozenset(FACE_SIGNS)
_CHEEKS = (234, 454)
_EYE_CORNERS = ((33, 133), (362, 263))
"""Each eye's outer and inner corner in the face mesh."""


_SignScores = tuple[dict[Gesture, float], dict[Gesture, Side], Mapping[str, float]]
"""The face signs' scores and sides, and the population's neutral geometry."""


@dataclass(frozen=True, slots=True)
class FaceSeen:
    """One face as the static stage receives it: the reading, and where the mouth and eyes are."""

    reading: FaceReading
    mouth: tuple[float, float] | None
    """The mouth's centre (pixels), to tell when a hand hides it."""
    width: float | None
    """Cheek-to-cheek face width (pixels): the unit of a hand's distance to the mouth and eyes."""
    eyes: tuple[tuple[float, float], tuple[float, float]] | None


@dataclass(frozen=True, slots=True)
class _FaceRead:
    """What the face part of one frame found."""

    scores: dict[Gesture, float]
    sides: dict[Gesture, Side]
    mouth_hidden: bool
    eyes_hidden: bool
    mouth_activity: float
    neutral_known: bool


@dataclass(frozen=True, slots=True)
class _Parts:
    """The tables the hand and shrug steps add to (named features, scores, sides)."""

    features: dict[str, float]
    scores: dict[Gesture, float]
    sides: dict[Gesture, Side]


@dataclass(frozen=True, slots=True)
class PipelineOptions:
    face: bool = True
    hands: bool = True
    shrug: bool = False
    """Runs MediaPipe Pose (complexity 1) too; costs about as much as the face mesh."""
    static_image_mode: bool = False
    mirrored: bool = False
    hands_every: int = 2
    """Video mode: run the hand graph on every 2nd frame and reuse its result in between, while no hand
    moves fast (``hands_steady_speed``). Its palm detector runs on every frame without a tracked hand,
    so this buys ~25 % more frames per second with a still hand in view (docs/vision-runtime.md) for
    at most one frame (33 ms) of extra delay on hand signs."""
    hands_steady_speed: float = TrackerOptions().hands_steady_speed
    """A hand moving faster (hand sizes a second), or just found, has the hand graph run on every frame
    (``TrackerOptions.hands_steady_speed``)."""
    auto_baseline: bool = True
    """Video mode without a calibrated profile: the neutral face is the running median of this
    stream's face features (last ``baseline_window`` s, once ``baseline_min_span`` s are seen) instead
    of the population's. People talk or sit still most of the time, so the median is their neutral;
    it removes triggers caused by a face that simply differs from the population (measured on the
    recorded talking clips: 2.35 -> 1.41 false triggers per minute)."""
    baseline_rules: str = "population"
    """Rule set used with the running baseline: "population" or "calibrated"."""
    baseline_window: float = 20.0
    baseline_sign_level: float | None = 0.5
    """A frame whose face-sign score reaches this level (the decision threshold) is not added to the
    running baseline (None: every frame is). Replays of the annotated clips: false events 7.6 -> 6.6
    a minute, talking clips 1.27 -> 0 (docs/vision-personal.md)."""
    baseline_quantiles: tuple[tuple[str, float], ...] = ()
    """Features of the running baseline whose neutral is a quantile of the window rather than its
    median (``calibration.RunningBaseline.quantiles``): () keeps the median for all."""
    baseline_patience: float = 3.0
    """Seconds of a stream without a baseline after which every frame feeds it (see ``_signing``)."""
    baseline_min_span: float = 1.0
    """Seconds of a stream before its running baseline exists; face signs wait for it (the
    recognizer's ``FrameScores.neutral_known``), so this is also the delay of a face sign made from the very first
    frame of a session without a calibrated profile."""
    face_model: str | None = None
    """A face_landmarker.task to use instead of the bundled one (None: models/ or $ALUETTE_FACE_MODEL)."""
    face_signs: str | None = None
    """Population parameters of the Tasks face signs (None: models/face_signs.json)."""
    mouth_image: bool = True
    """Add the mouth-appearance cues (teeth, tongue, dark cavity; about 0.4 ms) to the face features;
    score_face then uses the '+image' rule set."""
    appearance_every: int = 2
    """Video mode: measure the mouth appearance on every 2nd frame of a tracked face and reuse it in
    between (the geometry is still measured on every frame). Mouth signs are held for 120 ms or more,
    so this costs at most one frame (33 ms) of delay on the image cues and saves about 2 % of a frame's
    time (docs/vision-runtime.md). Stills always measure it."""
    recognizer: RecognizerConfig = field(default_factory=RecognizerConfig)
    writing: WritingConfig = field(default_factory=WritingConfig)
    hand_stillness: StillnessConfig = field(default_factory=StillnessConfig)
    body: BodyConfig = field(default_factory=BodyConfig)

    def __post_init__(self) -> None:
        if self.appearance_every < 1:
            raise VisionError(f"appearance_every={self.appearance_every} must be >= 1 (1 measures every frame)")

    def tracker_options(self) -> TrackerOptions:
        return TrackerOptions(
            face=self.face,
            hands=self.hands,
            pose=self.shrug,
            static_image_mode=self.static_image_mode,
            mirrored=self.mirrored,
            hands_every=self.hands_every,
            hands_steady_speed=self.hands_steady_speed,
            face_model=self.face_model,
        )


@dataclass(frozen=True, slots=True)
class FrameResult:
    """Everything about one processed frame."""

    index: int
    timestamp: float
    landmarks: Landmarks
    scores: FrameScores
    started: tuple[GestureEvent, ...]
    """Events confirmed on this frame (reported within the hold time of their onset)."""
    finished: tuple[GestureEvent, ...]
    """Events that ended (final count and end time)."""
    live: LiveState
    tracker_ms: float = 0.0
    scoring_ms: float = 0.0


class Pipeline:
    """One stream's recognizer: tracker + scorers + temporal state. One per camera session."""

    def __init__(
        self,
        options: PipelineOptions | None = None,
        profile: Profile | None = None,
        tracker: Tracker | None = None,
        personal: PersonalSigns | None = None,
        sensitivity: Sensitivity | None = None,
        models: FaceModels | None = None,
    ) -> None:
        options = options or PipelineOptions()
        self.options = options
        self.profile = profile
        self.personal = personal
        """Signs this person taught (trainer.vision.personal): their scores replace the population's
        for the gestures taught; the other gestures keep the population scores."""
        self._lock = threading.Lock()
        self._tracker = tracker
        self._owns_tracker = tracker is None
        self.hands = HandScorer(self.options.writing, self.options.hand_stillness)
        self.body = BodyScorer(self.options.body, _profile_shoulders(profile))
        self.recognizer = Recognizer(self._recognizer_config(sensitivity, personal))
        self.sensitivity = sensitivity
        """The person's own threshold per sign (trainer.vision.sensitivity), on top of the options'."""
        self._baseline = RunningBaseline(self.options.baseline_window, self.options.baseline_min_span,
                                         quantiles=dict(self.options.baseline_quantiles))
        self._appearance: dict[str, float] | None = None
        self._appearance_age = 0
        self._auto_profile: Profile | None = None
        self._baseline_since: float | None = None
        # The face signs' parameters and the face-shape basis, loaded once here and passed in explicitly.
        self.models = models or FaceModels.load(self.options.face_signs, with_signs=self.options.face)
        self._neutral: Neutral | None = None
        self._neutral_of: Profile | None = None
        """The profile ``_neutral`` was built from (held, and compared by identity)."""
        self._closed = False

    # -- lifecycle -------------------------------------------------------------------------------
    @property
    def signs(self) -> FaceSignParams | None:
        """The face signs' parameters (None: the face is off)."""
        return self.models.signs

    @property
    def tracker(self) -> Tracker:
        """The MediaPipe tracker, built on first use (replays of recorded landmarks never need it)."""
        if self._tracker is None:
            if self._closed:
                raise VisionError("this Pipeline was closed: build a new one")
            self._tracker = Tracker(self.options.tracker_options())
        return self._tracker

    def close(self) -> None:
        with self._lock:
            if self._tracker is not None and self._owns_tracker:
                self._tracker.close()
            self._tracker = None
            self._closed = True

    def __enter__(self) -> Pipeline:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def set_profile(self, profile: Profile | None) -> None:
        """Use a (new) calibrated profile from the next frame on (it replaces the running baseline)."""
        with self._lock:
            self.profile = profile
            self.body = BodyScorer(self.options.body, _profile_shoulders(profile))

    def set_personal(self, personal: PersonalSigns | None) -> None:
        """Use a (new) personal sign model from the next frame on (None: population scores only)."""
        with self._lock:
            self.personal = personal
            self.recognizer.retune(self._recognizer_config(self.sensitivity, personal))

    def _recognizer_config(self, sensitivity: Sensitivity | None, personal: PersonalSigns | None) -> RecognizerConfig:
        """The options' recognizer with the person's thresholds; their taught signs keep the usual bar
        while talking (their own margin was learnt from their talking) and the default levels where the
        population's sign has a raised one (a taught score is on the person's own scale)."""
        config = self.options.recognizer
        if personal is not None:
            config = with_taught(config, personal.gestures)
        return retuned(config, sensitivity)

    def set_sensitivity(self, sensitivity: Sensitivity | None) -> None:
        """Use the person's (new) thresholds from the next frame on; the signs being made stay on."""
        with self._lock:
            self.sensitivity = sensitivity
            self.recognizer.retune(self._recognizer_config(sensitivity, self.personal))

    def reset(self) -> None:
        """Forget the stream's history (new clip or camera restart)."""
        with self._lock:
            self.hands.reset()
            self.body.reset()
            self.recognizer.reset()
            self._baseline.reset()
            self._appearance = None
            self._auto_profile = None
            self._baseline_since = None
            restart = getattr(self._tracker, "restart", None)  # a recorded stand-in has none
            if restart is not None:
                restart()

    @property
    def baseline_profile(self) -> Profile | None:
        """The profile the face scores use now: the calibrated one, else the running baseline."""
        return self.profile if self.profile is not None else self._auto_profile

    def _learning_neutral(self) -> bool:
        """Video without a calibrated profile, before the running baseline exists."""
        opts = self.options
        return (self.profile is None and opts.auto_baseline and not opts.static_image_mode
                and self._auto_profile is None)

    def _update_baseline(self, timestamp: float, face: dict[str, float] | None) -> None:
        """Feed the running neutral this frame's face, or only its time (``face`` None: a frame that
        shows a sign stays out of it)."""
        opts = self.options
        if self.profile is not None or not opts.auto_baseline or opts.static_image_mode:
            return
        rebuilt = self._baseline.add(timestamp, face) if face is not None else self._baseline.passes(timestamp)
        if rebuilt is not None:
            self._auto_profile = rebuilt

    def _face_scores(self, reading: FaceReading, profile: Profile | None) -> _SignScores:
        """The face signs' scores and sides against ``profile``'s neutral (None: the population's;
        the current one is ``self.baseline_profile``), and the population's geometry (the talking
        detector's reference). Only the FaceLandmarker's backend is scored."""
        signs = self.models.signs
        if signs is None or reading.backend is not FaceBackend.TASKS:
            return {}, {}, {}
        signed = score_face_signs(reading, self.neutral(profile), signs)
        return signed.scores, signed.sides, signs.population.geometry

    def _signing(self, timestamp: float, face_scores: dict[Gesture, float], reading: FaceReading) -> bool:
        """Whether this frame shows a face sign, which then stays out of the running baseline: the
        baseline is the person's face at rest, not the median of their signs. A clip that opens with a
        head tilt held 2.6 s made the tilt the 'neutral', and the head coming upright read as a tilt
        for 4 s; a wide mouth opening early in a clip made a closed mouth read as a lip bite.

        Before the baseline exists the frame is judged against the population's neutral. A face so
        unlike the population's that no frame passes for ``baseline_patience`` seconds gets every
        frame again (the median of their own face beats never knowing it).

        Once it exists, a sign read against the baseline keeps the frame out only if the population's
        neutral reads the same sign: a baseline learnt from a few frames of a held sign (a busy
        machine analysed 3 frames of a wide 'O' in the stream's first second) otherwise reads every
        face at rest as the opposite sign (a closed mouth as a lip bite), keeps those frames out, and
        never corrects itself; the browser test then saw only lip bites for a whole run."""
        level = self.options.baseline_sign_level
        if level is None:
            return False
        if self._auto_profile is None:
            if self._baseline_since is None or timestamp < self._baseline_since:
                self._baseline_since = timestamp
            if timestamp - self._baseline_since > self.options.baseline_patience:
                return False
            return any(v >= level for g, v in face_scores.items() if g in FACE_SIGN_SET)
        against_baseline = [g for g, v in face_scores.items() if g in FACE_SIGN_SET and v >= level]
        if not against_baseline:
            return False
        population = self._face_scores(reading, None)[0]
        return any(population.get(g, 0.0) >= level for g in against_baseline)

    # -- work ------------------------------------------------------------------------------------
    def process(self, frame: Frame) -> FrameResult:
        with self._lock:
            t0 = time.perf_counter()
            landmarks = self._track(frame)
            t1 = time.perf_counter()
            scores = self._score(landmarks, frame.image)
            update = self.recognizer.update(scores)
            t2 = time.perf_counter()
        return FrameResult(
            index=frame.index,
            timestamp=frame.timestamp,
            landmarks=landmarks,
            scores=scores,
            started=update.started,
            finished=update.finished,
            live=update.live,
            tracker_ms=(t1 - t0) * 1000.0,
            scoring_ms=(t2 - t1) * 1000.0,
        )

    def _track(self, frame: Frame) -> Landmarks:
        return self.tracker.process(frame)

    def score(self, landmarks: Landmarks) -> FrameScores:
        """The static stage alone (features and per-frame scores), e.g. on recorded landmarks."""
        with self._lock:
            return self._score(landmarks)

    def finish(self) -> list[GestureEvent]:
        """End of stream: close open events."""
        with self._lock:
            return self.recognizer.flush()

    def _score(self, marks: Landmarks, image: np.ndarray | None = None) -> FrameScores:
        seen = self._see_face(marks, image)
        if seen is None:
            self._appearance = None  # the face is lost: measure the next one afresh
        return self._score_frame(marks.timestamp, seen, marks.hands, marks.pose)

    def _see_face(self, marks: Landmarks, image: np.ndarray | None) -> FaceSeen | None:
        """The tracked face read into features (None: no face, or a hand the face model took for one)."""
        if marks.face is None or face_is_a_hand(marks.face, marks.hands):
            return None
        # Both trackers re-index a mirrored face; the features also want its unmirrored geometry.
        points = unmirrored_face(marks.face, marks.width) if self.options.mirrored else marks.face
        try:
            face = face_features(points, self.models.shape)
        except VisionError:
            return None
        if image is not None and self.options.mouth_image:
            face.update(self._mouth_appearance(image, marks.face))
        mouth, face_width = mouth_and_width(marks.face)
        return FaceSeen(self.face_reading(face, marks.blendshapes), mouth, face_width, eye_centres(marks.face))

    def _mouth_appearance(self, image: np.ndarray, points: np.ndarray) -> dict[str, float]:
        every = 1 if self.options.static_image_mode else self.options.appearance_every
        self._appearance_age += 1
        if self._appearance is None or self._appearance_age >= every:
            self._appearance = mouth_appearance(image, points)
            self._appearance_age = 0
        return self._appearance

    def neutral(self, profile: Profile | None) -> Neutral | None:
        """The person's neutral face for the Tasks scores: the profile's values, the population's for
        any the profile lacks; None without a profile (then the population's). Rebuilt when the
        profile object changes (the running baseline makes a new one about once a second)."""
        signs = self.models.signs
        if profile is None or signs is None:
            return None
        if self._neutral is None or profile is not self._neutral_of:
            table = {name: stat.mean for name, stat in profile.stats.items()}
            self._neutral = Neutral.from_table(table, fallback=signs.population)
            self._neutral_of = profile
        return self._neutral

    @staticmethod
    def face_reading(face: dict[str, float], blendshapes: dict[str, float] | None) -> FaceReading:
        """The typed reading of one face: geometry and appearance split, blendshapes by their names,
        and the backend said once here: the FaceLandmarker's when blendshapes came with the face, the
        geometry alone for a recording made without them."""
        geometry = {k: v for k, v in face.items() if k not in APPEARANCE_KEYS}
        appearance = {k: v for k, v in face.items() if k in APPEARANCE_KEYS}
        backend = FaceBackend.TASKS if blendshapes else FaceBackend.GEOMETRY
        return FaceReading(dict(blendshapes or {}), geometry, appearance, backend)

    def score_parts(
        self,
        timestamp: float,
        face: dict[str, float] | None,
        mouth: tuple[float, float] | None,
        face_width: float | None,
        hands: tuple[HandLandmarks, ...] = (),
        pose: np.ndarray | None = None,
        blendshapes: dict[str, float] | None = None,
        eyes: tuple[tuple[float, float], tuple[float, float]] | None = None,
    ) -> FrameScores:
        """The static stage from precomputed face features and blendshapes (recorded streams replay
        through this). ``eyes``: both eyes' centres (pixels), to tell when a hand hides one."""
        seen = FaceSeen(self.face_reading(face, blendshapes), mouth, face_width, eyes) if face else None
        with self._lock:
            return self._score_frame(timestamp, seen, hands, pose)

    def _score_frame(self, timestamp: float, seen: FaceSeen | None, hands: tuple[HandLandmarks, ...],
                     pose: np.ndarray | None) -> FrameScores:
        """The static stage: the face's signs, then the hands', then the shrug's, in one frame's scores."""
        scores: dict[Gesture, float] = {g: 0.0 for g in Gesture}
        sides: dict[Gesture, Side] = {}
        body: dict[str, float] = {}
        if seen is not None and seen.width:
            # A "hand" too small beside the face is none: it neither mutes the face nor makes a sign.
            hands = credible_hands(hands, seen.width)
        read = self._face_part(timestamp, seen, hands) if seen is not None else None
        if read is not None:
            scores.update(read.scores)
            sides.update(read.sides)
        mouth, face_width = (seen.mouth, seen.width) if seen is not None else (None, None)
        if self.options.hands:
            self._hands_part(timestamp, hands, mouth, face_width, _Parts(body, scores, sides))
        if self.options.shrug:
            self._shrug_part(timestamp, pose, _Parts(body, scores, sides))
        return FrameScores(
            timestamp=timestamp,
            scores=scores,
            sides=sides,
            face=seen.reading if seen is not None else None,
            hands_found=len(hands),
            body_features=body,
            mouth_hidden=read.mouth_hidden if read is not None else False,
            eyes_hidden=read.eyes_hidden if read is not None else False,
            mouth_activity=read.mouth_activity if read is not None else None,
            neutral_known=read.neutral_known if read is not None else True,
        )

    def _face_part(self, timestamp: float, seen: FaceSeen, hands: tuple[HandLandmarks, ...]) -> _FaceRead:
        """The face signs (population, then the taught ones), muted where a hand hides them."""
        reading = seen.reading
        face_scores, face_sides, population = self._scores_with_baseline(timestamp, reading)
        mouth_hidden = bool(hands) and seen.mouth is not None and _hand_over(
            hands, (seen.mouth,), seen.width, HAND_OVER_MOUTH)
        eyes_hidden = bool(hands) and seen.eyes is not None and _hand_over(hands, seen.eyes, seen.width, HAND_OVER_EYE)
        muted = hidden_signs(mouth_hidden, eyes_hidden)
        if muted:
            face_scores = {g: (0.0 if g in muted else v) for g, v in face_scores.items()}
        scores, sides = dict(face_scores), dict(face_sides)
        if self.personal is not None:
            for gesture, (score, side) in self.personal.score_face(reading).items():
                # A hand hides the taught signs as it does the population's.
                scores[gesture] = 0.0 if gesture in muted else score
                if side is not None:
                    sides[gesture] = side
        return _FaceRead(scores, sides, mouth_hidden, eyes_hidden, self._mouth_activity(reading, population),
                         not self._learning_neutral())

    def _scores_with_baseline(self, timestamp: float, reading: FaceReading) -> _SignScores:
        """The face signs against the current neutral, feeding the running baseline this frame's face
        unless it shows a sign (``_signing``)."""
        flat = reading.flat()
        if self.options.baseline_sign_level is None:
            self._update_baseline(timestamp, flat)
            return self._face_scores(reading, self.baseline_profile)
        signed = self._face_scores(reading, self.baseline_profile)
        if not self._signing(timestamp, signed[0], reading):
            self._update_baseline(timestamp, flat)
            return signed
        had_baseline = self._auto_profile is not None
        self._update_baseline(timestamp, None)
        if not had_baseline and self._auto_profile is not None:
            # The sign that let the baseline exist is judged against it, not against the population's
            # face (which read this person's brows as raised).
            signed = self._face_scores(reading, self.baseline_profile)
        return signed

    def _mouth_activity(self, reading: FaceReading, population: Mapping[str, float]) -> float:
        """The talking detector counts lip strokes; measured against a fixed neutral (the user's, or
        the population's), since a running baseline taken during speech would clip them."""
        fixed = self.profile.mean("mouth_open", population.get("mouth_open", 0.0)) if self.profile \
            else population.get("mouth_open", 0.0)
        return max(0.0, reading.geometry.get("mouth_open", fixed) - fixed)

    def _hands_part(self, timestamp: float, hands: tuple[HandLandmarks, ...], mouth: tuple[float, float] | None,
                    face_width: float | None, out: _Parts) -> None:
        hand_feats = []
        for hand in hands:
            try:
                hand_feats.append(hand_features(hand))
            except ValueError:
                continue  # a degenerate detection: ignore this hand
        hand_scores = self.hands.score(timestamp, hand_feats, mouth, face_width)
        out.features.update(hand_scores.features)
        out.scores.update(hand_scores.scores)
        out.sides.update(hand_scores.sides)

    def _shrug_part(self, timestamp: float, pose: np.ndarray | None, out: _Parts) -> None:
        shrug = self.body.update(timestamp, pose)
        out.features.update(shrug.features)
        out.scores[Gesture.SHRUG] = shrug.score
        if shrug.side is not None:
            out.sides[Gesture.SHRUG] = shrug.side

    def step(self, scores: FrameScores) -> RecognizerUpdate:
        """Feed already computed scores to the recognizer (replays)."""
        with self._lock:
            return self.recognizer.update(scores)

    def run(self, source: FrameSource) -> Iterator[FrameResult]:
        """Process every frame of a source. Events still open at the end of the stream come from
        ``finish()``, which the caller calls after the loop."""
        for frame in source:
            yield self.process(frame)


def mouth_and_width(face: np.ndarray) -> tuple[tuple[float, float], float]:
    """Mouth centre (pixels) and cheek-to-cheek face width (pixels) from the face mesh."""
    (ax, ay), (bx, by) = face[_MOUTH_POINTS[0], :2].tolist(), face[_MOUTH_POINTS[1], :2].tolist()
    (cx, cy), (dx, dy) = face[_CHEEKS[0], :2].tolist(), face[_CHEEKS[1], :2].tolist()
    return (0.5 * (ax + bx), 0.5 * (ay + by)), math.hypot(cx - dx, cy - dy)


def eye_centres(face: np.ndarray) -> tuple[tuple[float, float], tuple[float, float]]:
    """Both eyes' centres (pixels, midpoint of each eye's corners) from the face mesh."""
    out = []
    for outer, inner in _EYE_CORNERS:
        (ax, ay), (bx, by) = face[outer, :2].tolist(), face[inner, :2].tolist()
        out.append((0.5 * (ax + bx), 0.5 * (ay + by)))
    return out[0], out[1]


HAND_OVER_MOUTH = 0.35
"""A hand point closer to the mouth centre than this fraction of the face width hides the mouth."""
HAND_OVER_EYE = 0.12
"""A hand point closer to an eye's centre than this fraction of the face width (about half an eye's
width) lies on the eye: it hides it. The raised thumb in front of her eye (thumb clip, 2.6-3.1 s) lay
0.01-0.07 face widths from it, 0.41-0.48 from the other eye."""


def _hand_over(hands: tuple[HandLandmarks, ...], points, face_width: float | None, within: float) -> bool:
    """A hand (credible: ``_score_frame`` dropped the rest) has a point within ``within`` face widths
    of one of ``points`` (pixels)."""
    if not face_width:
        return False
    reach = (within * face_width) ** 2
    for hand in hands:
        for point in points:
            d = hand.points[:, :2] - np.asarray(point, dtype=float)
            if float(np.min((d * d).sum(axis=1))) < reach:
                return True
    return False


def _profile_shoulders(profile: Profile | None) -> tuple[float, float] | None:
    if profile is None:
        return None
    stats = getattr(profile, "stats", {}) or {}
    if "shoulder_drop_left" in stats and "shoulder_drop_right" in stats:
        return float(stats["shoulder_drop_left"].mean), float(stats["shoulder_drop_right"].mean)
    return None


# -- whole files ---------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class ImageAnalysis:
    path: str
    face: bool
    hands: int
    scores: dict[Gesture, float]
    sides: dict[Gesture, Side]
    gestures: tuple[Gesture, ...]
    """Gestures whose score reaches the decision threshold (0.5), strongest first."""
    result: FrameResult

    def to_json(self) -> dict:
        return {
            "path": self.path,
            "face": self.face,
            "hands": self.hands,
            "gestures": [g.value for g in self.gestures],
            "scores": {g.value: round(float(self.scores.get(g, 0.0)), 3) for g in Gesture},
        }


@dataclass(frozen=True, slots=True)
class VideoAnalysis:
    path: str
    frames: int
    fps: float | None
    events: tuple[GestureEvent, ...]
    frames_with_face: int
    frames_with_hands: int
    shown_at_start: tuple[Gesture, ...] = ()
    """Face signs already showing on the clip's first frame (``Recognizer.shown_at_start``): a sign is
    read from its absence, so these are not events unless made again."""

    def to_json(self) -> dict:
        return {"path": self.path, "frames": self.frames, "events": [e.to_json() for e in self.events]}


THRESHOLD = 0.5


def analyse_image(
    path: str | Path,
    profile: Profile | None = None,
    shrug: bool = True,
    pipeline: Pipeline | None = None,
) -> ImageAnalysis:
    """Scores of every gesture on one still (population defaults unless a profile is given)."""
    source = open_source(path)
    with source:
        if not source.info.is_still:
            raise VisionError(f"{path}: is a {source.info.kind}, not a still image: use analyse_video")
        frame = next(iter(source))
    own = pipeline is None
    pipe = pipeline or Pipeline(PipelineOptions(static_image_mode=True, shrug=shrug), profile=profile)
    try:
        result = pipe.process(frame)
    finally:
        if own:
            pipe.close()
    scores = result.scores.scores
    seen = sorted((g for g, v in scores.items() if v >= THRESHOLD), key=lambda g: -scores[g])
    return ImageAnalysis(
        path=str(path),
        face=result.scores.face_found,
        hands=result.scores.hands_found,
        scores=dict(scores),
        sides=dict(result.scores.sides),
        gestures=tuple(seen),
        result=result,
    )


def analyse_video(
    path: str | Path,
    profile: Profile | None = None,
    options: PipelineOptions | None = None,
    on_frame: Callable[[Frame, FrameResult], None] | None = None,
    max_frames: int | None = None,
    personal: PersonalSigns | None = None,
) -> VideoAnalysis:
    """Events of a whole clip (video file, y4m or folder), on the clip's own clock."""
    source = open_source(path)
    events: list[GestureEvent] = []
    frames = with_face = with_hands = 0
    with source, Pipeline(options or PipelineOptions(), profile=profile, personal=personal) as pipe:
        for frame in source:
            result = pipe.process(frame)
            frames += 1
            with_face += result.scores.face_found
            with_hands += result.scores.hands_found > 0
            events.extend(result.finished)
            if on_frame is not None:
                on_frame(frame, result)
            if max_frames is not None and frames >= max_frames:
                break
        events.extend(pipe.finish())
        fps = source.info.fps
        shown_at_start = tuple(sorted(pipe.recognizer.shown_at_start, key=lambda g: g.value))
    if frames == 0:
        raise VisionError(f"{path}: no frames could be read: check the file")
    events.sort(key=lambda e: (e.start, e.gesture.value))
    return VideoAnalysis(str(path), frames, fps, tuple(events), with_face, with_hands, shown_at_start)
