"""``aluette bench vision``: frames per second of the full pipeline and of the bare MediaPipe graphs
on the same frames (a clip resized to 640x480, face + hands), and the pipeline's own overhead.

The bare calls are the Tasks FaceLandmarker with blendshapes and the HandLandmarker (the bundled
models/*.task), in video mode, exactly as the pipeline's tracker makes them.

The pipeline as shipped runs the face and hand graphs on two threads; the bare calls run one after
the other, so the pipeline's own work is measured like for like on a third run (the pipeline with its
graphs one after the other). The runs are interleaved in blocks of frames so that a busy machine
(other processes on the two cores) slows them alike. Must not import the rules engine, bots, quiz or UI.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from trainer.vision.landmarks import Tracker
from trainer.vision.pipeline import Pipeline, PipelineOptions
from trainer.vision.sources import open_source
from trainer.vision.types import Frame, VisionError

BLOCK = 25
WARMUP = 3


@dataclass(frozen=True, slots=True)
class BenchResult:
    clip: str
    frames: int
    size: tuple[int, int]
    pipeline_fps: float
    mediapipe_fps: float
    pipeline_ms: float
    mediapipe_ms: float
    hands_every: int
    sequential_ms: float
    """The pipeline with its face and hand graphs run one after the other, like the bare calls."""
    scoring_ms: float
    """Mean time per frame in features, scores and the recognizer (after the tracker)."""
    hand_frames: int = 0
    """Timed frames the pipeline ran its hand graph on (``hands_every`` skips a steady hand's frames)."""

    @property
    def sequential_fps(self) -> float:
        return 1000.0 / self.sequential_ms if self.sequential_ms > 0 else 0.0

    @property
    def overhead(self) -> float:
        """The pipeline's own work (conversions, features, scores, recognizer) as a fraction of the
        bare MediaPipe time, measured like for like (graphs run one after the other in both)."""
        return self.sequential_ms / self.mediapipe_ms - 1.0 if self.mediapipe_ms > 0 else 0.0

    def to_json(self) -> dict:
        return {
            "frames": self.frames,
            "size": list(self.size),
            "pipeline_fps": round(self.pipeline_fps, 1),
            "mediapipe_fps": round(self.mediapipe_fps, 1),
        }

    def format(self, wall: float) -> str:
        return "\n".join(
            [
                f"bench vision: {self.clip}",
                f"  {self.frames} frames at {self.size[0]}x{self.size[1]}, "
                + "Tasks FaceLandmarker (blendshapes) + HandLandmarker (2 hands)"
                + (f", hands every {self.hands_every} frames while steady (the hand graph ran on "
                   f"{self.hand_frames} of them)" if self.hands_every > 1 else ""),
                f"  full pipeline : {self.pipeline_fps:6.1f} fps  ({self.pipeline_ms:.2f} ms/frame; face and "
                "hand graphs on two threads)",
                f"  bare MediaPipe: {self.mediapipe_fps:6.1f} fps  ({self.mediapipe_ms:.2f} ms/frame; the same "
                "graph calls one after the other)",
                f"  pipeline with the graphs one after the other: {self.sequential_fps:6.1f} fps "
                f"({self.sequential_ms:.2f} ms/frame)",
                f"  pipeline's own work on top of MediaPipe (like for like): {100 * self.overhead:+.1f} %",
                f"  of which features + scores + recognizer: {self.scoring_ms:.2f} ms/frame "
                f"({100 * self.scoring_ms / self.mediapipe_ms:.1f} % of the bare MediaPipe time)",
                f"  (wall time {wall:.1f} s)",
            ]
        )


class _BareTasks:
    """The bare Tasks calls (video mode) the tracker makes: the face with blendshapes and the hands."""

    def __init__(self) -> None:
        from trainer.vision.quiet import quiet_native_logs  # noqa: PLC0415
        from trainer.vision.tasks_backend import import_tasks  # noqa: PLC0415
        from trainer.vision.tasks_models import TasksModel, model_bytes  # noqa: PLC0415

        self._mp, vision, base_options = import_tasks()
        video = vision.RunningMode.VIDEO
        with quiet_native_logs():
            self.face = vision.FaceLandmarker.create_from_options(vision.FaceLandmarkerOptions(
                base_options=base_options(model_asset_buffer=model_bytes(TasksModel.FACE)[1]),
                running_mode=video, num_faces=1, output_face_blendshapes=True))
            self.hands = vision.HandLandmarker.create_from_options(vision.HandLandmarkerOptions(
                base_options=base_options(model_asset_buffer=model_bytes(TasksModel.HANDS)[1]),
                running_mode=video, num_hands=2))

    def image(self, rgb: np.ndarray):
        return self._mp.Image(image_format=self._mp.ImageFormat.SRGB, data=rgb)

    def detect(self, rgb: np.ndarray, stamp: int, hands: bool) -> None:
        """The bare face graph on one frame, and the hand graph when ``hands``."""
        image = self.image(rgb)
        self.face.detect_for_video(image, stamp)
        if hands:
            self.hands.detect_for_video(image, stamp)

    def close(self) -> None:
        self.face.close()
        self.hands.close()


def load_frames(clip: Path, frames: int, size: tuple[int, int]) -> list[np.ndarray]:
    images: list[np.ndarray] = []
    with open_source(clip) as source:
        for frame in source:
            images.append(cv2.resize(frame.image, size, interpolation=cv2.INTER_AREA))
            if len(images) >= frames:
                break
    if not images:
        raise VisionError(f"{clip}: no frames to benchmark")
    while len(images) < frames:  # loop a short clip
        images.extend(images[: frames - len(images)])
    return images


def _warm_up(pipelines, bare: _BareTasks, images, rgb, fps: float, hands_every: int) -> int:
    """Run the pipelines and the bare graphs (graph start-up, first detection) on the first frames,
    outside the timing; the bare graphs' last timestamp."""
    # Timestamps from 0: the Tasks graph's landmark smoothing, once fed a negative one, warned "New
    # timestamp is equal or less than the last one" for every point of every later frame (40 000 lines a run).
    stamp = 0
    for i in range(WARMUP):
        for pipeline in pipelines:
            pipeline.process(Frame(images[i], i / fps, i))
        stamp += 33
        bare.detect(rgb[i], stamp, i % hands_every == 0)
    for pipeline in pipelines:
        pipeline.reset()
    return stamp


def bench_vision(
    clip: Path | str,
    frames: int = 300,
    size: tuple[int, int] = (640, 480),
    hands_every: int = 1,
    progress: Callable[[str], None] | None = None,
) -> BenchResult:
    if frames < BLOCK:
        raise VisionError(f"--frames {frames}: time at least {BLOCK} frames")
    clip = Path(clip)
    images = load_frames(clip, frames, size)
    rgb = [cv2.cvtColor(image, cv2.COLOR_BGR2RGB) for image in images]
    fps = 30.0
    options = PipelineOptions(face=True, hands=True, hands_every=hands_every)
    pipeline = Pipeline(options)
    sequential_tracker = Tracker(replace(options.tracker_options(), parallel=False))
    sequential = Pipeline(options, tracker=sequential_tracker)
    bare = _BareTasks()
    try:
        stamp = _warm_up((pipeline, sequential), bare, images, rgb, fps, hands_every)
        pipe_time = mp_time = seq_time = scoring_ms = 0.0
        hand_frames = 0
        for start in range(0, frames, BLOCK):
            stop = min(frames, start + BLOCK)
            hands_on = []
            t0 = time.perf_counter()
            for i in range(start, stop):
                runs = pipeline.tracker.hand_runs
                scoring_ms += pipeline.process(Frame(images[i], i / fps, i)).scoring_ms
                hands_on.append(pipeline.tracker.hand_runs > runs)
            t1 = time.perf_counter()
            for i, hands in zip(range(start, stop), hands_on, strict=True):
                stamp += 33
                # Hands on the very frames the pipeline's tracker ran its hand graph (every frame of a
                # fast hand, else every n-th): the palm detector's cost depends on the frame.
                bare.detect(rgb[i], stamp, hands)
            t2 = time.perf_counter()
            hand_frames += sum(hands_on)
            for i in range(start, stop):
                sequential.process(Frame(images[i], i / fps, i))
            t3 = time.perf_counter()
            pipe_time += t1 - t0
            mp_time += t2 - t1
            seq_time += t3 - t2
            if progress is not None and stop % (4 * BLOCK) == 0:
                progress(f"  {stop}/{frames} frames")
    finally:
        pipeline.close()
        sequential.close()
        sequential_tracker.close()
        bare.close()
    return BenchResult(
        clip=str(clip), frames=frames, size=size, pipeline_fps=frames / pipe_time, mediapipe_fps=frames / mp_time,
        pipeline_ms=1000 * pipe_time / frames, mediapipe_ms=1000 * mp_time / frames, hands_every=hands_every,
        sequential_ms=1000 * seq_time / frames, scoring_ms=scoring_ms / frames, hand_frames=hand_frames,
    )


if __name__ == "__main__":
    from trainer.lab.tool import library_main

    raise SystemExit(library_main("bench", __doc__))
