#!/usr/bin/env python
"""Choose a temporal option by leave-one-person-out on the recorded clip runs.

    nice -n 10 .venv/bin/python scripts/clip_lopo.py ../shared/gestures /work/cliprun NAME=EXPR ...

Each NAME=EXPR is a ``PipelineOptions`` expression (``RecognizerConfig``, ``Gesture`` and
``PipelineOptions`` in scope), the shipped one first; e.g.
``now=PipelineOptions()`` ``wink_talk=PipelineOptions(recognizer=RecognizerConfig(talking_also=...))``.
Every clip is replayed held out (face signs refitted without its person, as ``clip_figures.py``);
each person's fold picks the variant with the most reported signs minus false events on everyone
else's clips (annotated and talking clips), then is scored on its own clips with that pick.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from trainer.lab.clip_replay import choose_by_person, held_out_clips  # noqa: E402
from trainer.signals.gestures import Gesture  # noqa: E402
from trainer.vision.pipeline import PipelineOptions  # noqa: E402
from trainer.vision.recognizer import RecognizerConfig  # noqa: E402


def main(argv: list[str]) -> int:
    folder, runs_dir, specs = Path(argv[0]), Path(argv[1]), argv[2:]
    scope = {"PipelineOptions": PipelineOptions, "RecognizerConfig": RecognizerConfig, "Gesture": Gesture}
    variants = {}
    for spec in specs:
        name, _, expr = spec.partition("=")
        variants[name] = eval(expr, scope)  # noqa: S307 - a lab tool's own command line
    with held_out_clips(folder, runs_dir) as clips:
        figs = {}
        for name, options in variants.items():
            figs[name] = clips.figures(options)
            print(f"{name:12s} all clips: {figs[name].line()}", flush=True)
    folds = choose_by_person(figs, clips.persons)
    picks = Counter(f.chosen for f in folds)
    reported, signs = sum(f.reported for f in folds), sum(f.signs for f in folds)
    false, minutes = sum(f.false_events for f in folds), sum(f.minutes for f in folds)
    print(f"folds: {len(folds)} people; picks {dict(picks)}; held out through the choice: signs "
          f"{reported}/{signs}, {false} false events in {minutes:.2f} min ({false / minutes:.2f} / min, "
          "annotated and talking clips together)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
