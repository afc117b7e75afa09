"""Run every annotated clip (samples/clip_spans.tsv) and every talking/neutral clip of ../shared/gestures
once through the product pipeline, keeping each frame's features, and pickle the runs.

A lab tool for tuning the temporal side (baseline, hysteresis, holds) without re-running MediaPipe:
``trainer.lab.clip_replay`` replays the pickled features through a fresh Pipeline's static stage and
recognizer. The pickles hold numbers computed from the clips, never their frames.

    nice -n 10 .venv/bin/python -m trainer.lab.record_clip_runs ../shared/gestures /tmp/vision_runs
"""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

from trainer.lab.clip_eval import clip_files, load_spans
from trainer.lab.clip_replay import run_file
from trainer.lab.labels import talking_clips
from trainer.vision.clip_run import run_clip
from trainer.vision.pipeline import PipelineOptions

SPANS = Path(__file__).resolve().parents[2] / "samples" / "clip_spans.tsv"


def main(argv: list[str] | None = None) -> int:
    import argparse  # noqa: PLC0415

    parser = argparse.ArgumentParser(
        prog="python -m trainer.lab.record_clip_runs", description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="the labelled gestures folder (../shared/gestures)")
    parser.add_argument("out", type=Path, help="where to write one pickled run per clip")
    parser.add_argument("--hands-every", type=int, default=PipelineOptions().hands_every,
                        help="run the hand graph every n-th frame (the product's setting by default)")
    parser.add_argument("--reverse", action="store_true", help="start from the last clip (a second recorder)")
    args = parser.parse_args(argv)
    folder, out = args.folder, args.out
    out.mkdir(parents=True, exist_ok=True)
    files = clip_files(load_spans(SPANS))
    files += [file for file in talking_clips(folder) if file not in files]
    # Hands on every clip, as live: the replay reads the hand signs back from the kept features, and a
    # hand resting on a knee or fiddling at the chest of a face-sign clip can fire a hand sign (lp_s29's
    # pinky around a cup, 5 s; runs recorded with hands only on the hand clips missed such events).
    options = PipelineOptions(hands_every=args.hands_every)
    if args.reverse:  # a second recorder can work from the other end
        files.reverse()
    for number, file in enumerate(files, 1):
        target = run_file(out, file)
        if target.is_file():
            continue
        print(f"[{number}/{len(files)}] {file}", file=sys.stderr, flush=True)
        run = run_clip(folder / file, options, keep_features=True)
        if target.is_file():
            continue  # the other recorder got there first
        partial = target.with_suffix(".part")
        partial.write_bytes(pickle.dumps(run))
        partial.replace(target)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
