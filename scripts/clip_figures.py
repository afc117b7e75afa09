#!/usr/bin/env python
"""Held-out clip figures from recorded runs: event recall on the annotated sign spans, false events per
minute on the annotated clips and on the talking clips, before and after the temporal changes.

    nice -n 10 .venv/bin/python scripts/record_clip_runs.py ../shared/gestures /tmp/vision_runs
    nice -n 10 .venv/bin/python scripts/clip_figures.py ../shared/gestures /tmp/vision_runs [--mistakes]

Held out: each clip is replayed with the face signs refitted on the photos of everyone but the clip's
person (samples/face_signs.json, MANIFEST / spans ``person``): every signing person of the clips also
has photos in the fit, so the shipped parameters would give in-sample figures.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from trainer.lab.clip_eval import SpanKind  # noqa: E402
from trainer.lab.clip_replay import held_out_clips  # noqa: E402
from trainer.vision.pipeline import PipelineOptions  # noqa: E402
from trainer.vision.recognizer import RecognizerConfig  # noqa: E402

# The temporal side before the second session of 2026-12-02: speech assumed in a stream's first
# second, the lips' gap alone for the talking detector, winks free to start during eye closures.
_MORNING = dict(talk_warmup_reversals=None, talk_jaw_min_move=None, yields_to=())
VARIANTS = {
    "2026-12-01": PipelineOptions(baseline_sign_level=None,
                                  recognizer=RecognizerConfig(unsure_enter=None, **_MORNING)),
    "2026-12-02a": PipelineOptions(recognizer=RecognizerConfig(**_MORNING)),
    "now": PipelineOptions(),
}


def main(argv: list[str]) -> int:
    with held_out_clips(Path(argv[0]), Path(argv[1])) as clips:
        people = len({s.person for s in clips.spans if s.kind is SpanKind.SIGN})
        for name, options in VARIANTS.items():
            fig = clips.figures(options)
            print(f"{name:10s} held out: {fig.line()}; {people} signing people")
            if "--mistakes" in argv:
                print(fig.mistakes())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
