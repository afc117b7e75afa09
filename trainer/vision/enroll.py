"""Teaching personal signs from clips: ``aluette enroll --out PROFILE.json SPEC...``.

Each SPEC is ``CLIP:GESTURE:START-END``: seconds ``START`` to ``END`` of ``CLIP`` show ``GESTURE`` (a
face sign such as ``pout``, ``neutral`` for the resting face, ``talking`` for speech, which sets the
rejection margins). Several SPECs per gesture are several takes. Every clip is run once through the
pipeline (Tasks face backend: the personal model lives in blendshape space), the frames inside each
span are gathered, each sign span is checked as a take (``takes.check_take``: a span that shows no
clear sign, or only what the person's talking shows, is refused with the spec and the reason, and
nothing is written), and ``personal.teach`` builds the model.

``enroll_from_clips`` does it all for the command and returns, with the model, how reliably each sign
will be seen (``takes.reliability``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from trainer.signals.gestures import Gesture
from trainer.vision.personal import PersonalSigns, RestSpace, parse_teachable, teach
from trainer.vision.takes import SignReliability, TakeRefused, check_take, reliability
from trainer.vision.types import VisionError

NEUTRAL = "neutral"
TALKING = "talking"
SPEC_FORMAT = "CLIP:GESTURE:START-END (e.g. me.mp4:pout:2.5-4 or me.mp4:neutral:0-3; seconds of that clip)"


@dataclass(frozen=True, slots=True)
class TeachSpec:
    """One span of one clip: the neutral face, talking, or one take of a sign."""

    clip: str
    role: str
    """"neutral", "talking" or "sign"."""
    gesture: Gesture | None
    start: float
    end: float
    text: str = ""

    def holds(self, timestamp: float) -> bool:
        return self.start <= timestamp <= self.end

    @property
    def sign(self) -> Gesture:
        """The sign a "sign" span shows; VisionError for a neutral or talking span."""
        if self.gesture is None:
            raise VisionError(f"spec {self.text!r}: a {self.role} span shows no sign")
        return self.gesture


def parse_spec(text: str) -> TeachSpec:
    """``CLIP:GESTURE:START-END`` -> TeachSpec; VisionError naming the spec and what to write."""
    parts = text.rsplit(":", 2)
    if len(parts) != 3 or not parts[0]:
        raise VisionError(f"spec {text!r}: write {SPEC_FORMAT}")
    clip, name, span = parts
    name = name.strip().lower()
    if name in (NEUTRAL, TALKING):
        role, gesture = name, None
    else:
        try:
            gesture = parse_teachable(name)
        except VisionError as error:
            raise VisionError(f"spec {text!r}: {error}") from None
        role = "sign"
    start_text, dash, end_text = span.partition("-")
    try:
        if not dash:
            raise ValueError
        start, end = float(start_text), float(end_text)
    except ValueError:
        raise VisionError(f"spec {text!r}: the span {span!r} must be START-END in seconds, e.g. 2.5-4") from None
    if not 0 <= start < end:
        raise VisionError(f"spec {text!r}: need 0 <= START < END, got {start:g}-{end:g}")
    return TeachSpec(clip, role, gesture, start, end, text)


def enroll_from_clips(
    specs: Sequence[TeachSpec],
    face_model: str | None = None,
    name: str = "",
    created: str = "",
    progress: Callable[[str], None] | None = None,
    runs: dict | None = None,
) -> tuple[PersonalSigns, dict[Gesture, SignReliability]]:
    """Run each clip once, gather the frames of every span, check the sign spans and teach the
    model from them (TakeRefused when a sign span shows no clear sign); with it, per sign how reliably
    it will be seen (``takes.reliability``).

    ``runs`` (clip path -> ``clip_run.ClipRun`` with features) may hold runs already made, e.g. by
    the evaluation; missing ones are made and added."""
    from trainer.vision.clip_run import run_clip  # noqa: PLC0415 - MediaPipe is heavy
    from trainer.vision.pipeline import PipelineOptions  # noqa: PLC0415

    if not any(s.role == NEUTRAL for s in specs):
        raise VisionError(f"no neutral span: add one, e.g. CLIP:{NEUTRAL}:0-3 (a few seconds of resting face)")
    if not any(s.role == "sign" for s in specs):
        raise VisionError("no sign span: add at least one, e.g. CLIP:pout:4-6")
    runs = {} if runs is None else runs
    options = PipelineOptions(face_model=face_model, hands=False)
    for clip in dict.fromkeys(s.clip for s in specs):
        if clip in runs:
            continue
        if not Path(clip).exists():
            raise VisionError(f"clip {clip} not found (named in {next(s.text for s in specs if s.clip == clip)!r}): "
                              "check the path")
        if progress is not None:
            progress(f"reading {clip}")
        runs[clip] = run_clip(clip, options, keep_features=True)
    neutral: list = []
    rest: list = []
    takes: dict[Gesture, list] = {}
    sign_specs: dict[Gesture, list[TeachSpec]] = {}
    for spec in specs:
        run = runs[spec.clip]
        frames = [f.features for f in run.features if f.face and spec.holds(f.timestamp)]
        if spec.start >= run.duration:
            raise VisionError(f"spec {spec.text!r}: the clip is only {run.duration:.2f} s long")
        if not frames:
            raise VisionError(f"spec {spec.text!r}: no frame with a face in {spec.start:g}-{spec.end:g} s: "
                              "check the span and that the face is in view")
        if spec.role == NEUTRAL:
            neutral.extend(frames)
        elif spec.role == TALKING:
            rest.extend(frames)
        else:
            takes.setdefault(spec.sign, []).append(frames)
            sign_specs.setdefault(spec.sign, []).append(spec)
    check_spans(neutral, takes, rest, sign_specs)
    model = teach(neutral, takes, rest, name=name, created=created)
    return model, reliability(neutral, takes, rest)


def check_spans(neutral, takes, rest, specs: dict[Gesture, list[TeachSpec]]) -> None:
    """Each sign span checked as a take, in the order given (each against the earlier takes of its
    sign); TakeRefused naming the first span refused and why."""
    space = RestSpace.of(neutral)
    for gesture, gesture_takes in takes.items():
        kept: list = []
        for frames, spec in zip(gesture_takes, specs[gesture], strict=False):
            check = check_take(gesture, frames, space, rest, kept)
            if not check.accepted:
                raise TakeRefused(f"spec {spec.text!r}: {check.reason.replace('that take', 'that span')} "
                                  f"(it reached {100 * min(1.0, check.meter):.0f} % of a clear sign): "
                                  "give a span where the sign is made and held; nothing was written")
            kept.append(frames)


def describe(model: PersonalSigns) -> str:
    lines = [f"personal signs: {len(model.signs)} taught from {model.neutral_frames} neutral frames"
             + (f" and {model.rest_frames} talking frames" if model.rest_frames else "")]
    for sign in model.signs:
        lines.append(f"  {sign.gesture.value:<12} {sign.takes} take{'s' if sign.takes != 1 else ''}, "
                     f"{sign.frames} frames, counts from {sign.strength_min:.2f} of the taught strength")
    return "\n".join(lines)
