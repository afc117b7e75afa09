"""Personal signs taught from ONE take of each sign, tested on the same person's later takes.

Runs every clip of a spans file (default samples/clip_spans.tsv over ../shared/gestures) once through
the pipeline (Tasks face backend, face only, features kept), then for each person teaches a model
from their neutral spans, the first half of their talking spans and the first take of each sign made
alone, and scores their later takes and their footage's false events, beside the population scores
of the same frames (``trainer.lab.personal_eval``). Prints the table, and the JSON with --json.

    ALUETTE_FACE_MODEL=../shared/models/face_landmarker.task python scripts/eval_personal.py [--cache DIR]

``--cache DIR`` keeps each clip's run (pickle) so a second call only re-scores.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from trainer.lab.clip_eval import clip_files, load_spans  # noqa: E402
from trainer.vision.clip_run import run_clip  # noqa: E402
from trainer.lab.personal_eval import one_take_eval  # noqa: E402
from trainer.vision.pipeline import PipelineOptions  # noqa: E402

REPO = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", default=str(REPO.parent / "shared" / "gestures"))
    parser.add_argument("--spans", default=str(REPO / "samples" / "clip_spans.tsv"))
    parser.add_argument("--face-model", default=None)
    parser.add_argument("--cache", metavar="DIR", help="keep the clips' runs here")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    spans = load_spans(args.spans)
    options = PipelineOptions(face_model=args.face_model, hands=False)
    runs = {}
    for file in clip_files(spans):
        cached = Path(args.cache) / (file.replace("/", "__") + ".pkl") if args.cache else None
        if cached is not None and cached.is_file():
            runs[file] = pickle.loads(cached.read_bytes())
            continue
        print(f"running {file}", file=sys.stderr, flush=True)
        runs[file] = run_clip(Path(args.folder) / file, options, keep_features=True)
        if cached is not None:
            cached.parent.mkdir(parents=True, exist_ok=True)
            cached.write_bytes(pickle.dumps(runs[file]))
    report = one_take_eval(spans, runs, progress=lambda m: print(m, file=sys.stderr))
    print(json.dumps(report.to_json()) if args.json else report.format_table())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
