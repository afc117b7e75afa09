"""Recorded landmark streams (``samples/streams_<clip>.npz``, written by python -m trainer.lab.record_streams):
load them and replay them through the static scorers and the temporal recognizer without MediaPipe.

Must not import the rules engine, bots, quiz or UI.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from trainer.signals.gestures import GestureEvent, Side
from trainer.vision.types import FrameScores, HandLandmarks, VisionError

if TYPE_CHECKING:  # the pipeline imports the vision layer's leaves; this module is one of them
    from trainer.vision.pipeline import Pipeline

_SIDES = {1: Side.LEFT, 2: Side.RIGHT}


@dataclass(frozen=True, slots=True)
class StreamFrame:
    timestamp: float
    face: dict[str, float] | None
    mouth: tuple[float, float] | None
    face_width: float | None
    hands: tuple[HandLandmarks, ...]
    blendshapes: dict[str, float] | None = None
    """MediaPipe's blendshapes by name (streams recorded with the Tasks backend), else None."""
    eyes: tuple[tuple[float, float], tuple[float, float]] | None = None
    """Both eyes' centres (pixels; streams recorded since 2026-12-04), else None."""


@dataclass(frozen=True, slots=True)
class Stream:
    source: str
    size: tuple[int, int]
    frames: tuple[StreamFrame, ...]

    @property
    def duration(self) -> float:
        if len(self.frames) < 2:
            return 0.0
        step = (self.frames[-1].timestamp - self.frames[0].timestamp) / (len(self.frames) - 1)
        return self.frames[-1].timestamp - self.frames[0].timestamp + step


def load_stream(path: str | Path) -> Stream:
    path = Path(path)
    if not path.is_file():
        raise VisionError(f"{path}: no such recorded stream: run python -m trainer.lab.record_streams")
    with np.load(path, allow_pickle=False) as data:
        keys = [str(k) for k in data["face_keys"]]
        face, mouth, hands, sides, times = data["face"], data["mouth"], data["hands"], data["hand_sides"], data["t"]
        width, height = (int(v) for v in data["size"])
        source, size = str(data["source"]), (width, height)
        shape_keys = [str(k) for k in data["blendshape_keys"]] if "blendshape_keys" in data else []
        shapes = data["blendshapes"] if shape_keys else None
        eyes = data["eyes"] if "eyes" in data else None
    frames = []
    for i, t in enumerate(times):
        row = face[i]
        has_face = len(keys) > 0 and not np.isnan(row).all()
        feats = {k: float(v) for k, v in zip(keys, row, strict=False) if not np.isnan(v)} if has_face else None
        m = mouth[i]
        hand_list = tuple(
            HandLandmarks(points=hands[i, j].astype(np.float64), side=_SIDES[int(sides[i, j])])
            for j in range(hands.shape[1])
            if int(sides[i, j]) in _SIDES
        )
        frames.append(
            StreamFrame(
                timestamp=float(t),
                face=feats,
                mouth=(float(m[0]), float(m[1])) if has_face and not np.isnan(m[0]) else None,
                face_width=float(m[2]) if has_face and not np.isnan(m[2]) else None,
                hands=hand_list,
                blendshapes=({k: float(v) for k, v in zip(shape_keys, shapes[i], strict=False)
                              if not np.isnan(v)} or None)
                if has_face and shapes is not None else None,
                eyes=((float(eyes[i, 0]), float(eyes[i, 1])), (float(eyes[i, 2]), float(eyes[i, 3])))
                if has_face and eyes is not None and not np.isnan(eyes[i]).any() else None,
            )
        )
    return Stream(source=source, size=size, frames=tuple(frames))


Replayed = tuple[FrameScores, tuple[GestureEvent, ...], tuple[GestureEvent, ...]]


def replay(stream: Stream, pipeline: Pipeline) -> Iterator[Replayed]:
    """Yield (scores, started, finished) per frame; call ``pipeline.finish()`` afterwards."""
    for frame in stream.frames:
        scores = pipeline.score_parts(frame.timestamp, frame.face, frame.mouth, frame.face_width, frame.hands,
                                      blendshapes=frame.blendshapes, eyes=frame.eyes)
        update = pipeline.step(scores)
        yield scores, update.started, update.finished


def replay_events(stream: Stream, pipeline: Pipeline) -> list[GestureEvent]:
    events: list[GestureEvent] = []
    for _scores, _started, finished in replay(stream, pipeline):
        events.extend(finished)
    events.extend(pipeline.finish())
    return sorted(events, key=lambda e: (e.start, e.gesture.value))
