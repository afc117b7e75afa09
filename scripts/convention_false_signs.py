#!/usr/bin/env python
"""Each convention's false signs per minute on the talking clips of ../shared/gestures, held out by
person, with and without the holds it asks for speech-made gestures; and the real grimace and head
tilt signs of the annotated clips that a hold would lose.

    nice -n 10 .venv/bin/python scripts/record_clip_runs.py ../shared/gestures RUNS   # MediaPipe, once
    nice -n 10 .venv/bin/python scripts/convention_false_signs.py ../shared/gestures RUNS [--json OUT] [--options EXPR]

``--options`` replays with another ``PipelineOptions`` expression (``RecognizerConfig`` and ``Gesture``
in scope), e.g. an earlier recognizer to compare.

Held out: every clip is replayed with the face signs refitted without its person
(``trainer.lab.clip_replay.held_out_clips``).
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from trainer.lab.clip_replay import figures, held_out_clips, replay  # noqa: E402
from trainer.lab.convention_eval import false_signs, held_signs_lost  # noqa: E402
from trainer.signals.conventions import CONVENTIONS  # noqa: E402
from trainer.signals.gestures import Gesture  # noqa: E402
from trainer.vision.pipeline import PipelineOptions  # noqa: E402
from trainer.vision.recognizer import RecognizerConfig  # noqa: E402


def main(argv: list[str]) -> int:
    out = argv[argv.index("--json") + 1] if "--json" in argv else None
    scope = {"PipelineOptions": PipelineOptions, "RecognizerConfig": RecognizerConfig, "Gesture": Gesture}
    base = eval(argv[argv.index("--options") + 1], scope) if "--options" in argv else PipelineOptions()  # noqa: S307
    events: dict = {}

    with held_out_clips(Path(argv[0]), Path(argv[1])) as clips:
        def events_of(file, run):
            options = replace(base, face_signs=str(clips.signs_of[clips.persons[file]]))
            events[file] = replay(run, options)
            return events[file]

        fig = figures(clips.runs, clips.spans, clips.talking, events_of=events_of)
    rows = {}
    for convention in CONVENTIONS.values():
        held = false_signs(convention, fig.talking, clips.persons)
        bare = false_signs(replace(convention, holds=()), fig.talking, clips.persons)
        lost = held_signs_lost(convention, [(c.file, events[c.file]) for c in fig.clips], clips.spans)
        print(held.line())
        if convention.holds:
            print(f"  without its holds: {bare.per_minute:.2f} false signs/min ({bare.signs}); the holds lose "
                  f"{len(lost)} real sign(s) of the annotated clips"
                  + "".join(f"\n    {f} {s.gesture.value} {s.start:.2f}-{s.end:.2f}: event {d:.2f} s" for f, s, d in lost))
        rows[convention.name] = {"per_minute": round(held.per_minute, 3), "signs": held.signs,
                                 "minutes": round(held.minutes, 3), "clips": held.clips, "people": held.people,
                                 "by_sign": dict(held.by_sign), "without_holds_per_minute": round(bare.per_minute, 3),
                                 "signs_lost_to_holds": len(lost)}
    if out:
        Path(out).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
