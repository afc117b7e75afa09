#!/usr/bin/env python
"""Print the rule-set tables of docs/vision-face.md from models/thresholds.json (Markdown).

    python scripts/thresholds_tables.py [--thresholds models/thresholds.json] [--variants mesh+image,mesh]

One table per population rule set: the rule or model chosen per gesture, its fit and
leave-one-source-out precision / recall, the rivals' held-out figures when a model was chosen, the
share of talking frames on which it fires, and the calibrated rule set's figures. Reads numbers only.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _pr(stats: dict | None) -> str:
    if not stats or stats.get("tp", 0) + stats.get("fn", 0) == 0:
        return "no examples"
    return f"{stats['precision']:.2f} / {stats['recall']:.2f}"


def _rule_text(rule: dict) -> str:
    if "model" in rule:
        inputs = rule["model"]["inputs"]
        shape = sum(1 for i in inputs if i.removeprefix("abs:").startswith("shape_"))
        return f"logistic model over {len(inputs)} features" + (f" ({shape} face-shape)" if shape else "")
    return " & ".join(
        f"`{c['feature']}` {c['mode']} {'≥' if c['direction'] > 0 else '≤'} {c['threshold']:.3f}"
        for c in rule.get("conditions", ()))


def table(data: dict, variant: str) -> str:
    section = data["backends"][variant]
    calibrated = data["backends"].get(variant + ":calibrated", {})
    ev, cal = section["evaluation"], calibrated.get("evaluation", {})
    compared = ev.get("leave_one_source_out_rule_vs_model", {})
    lines = [
        f"**{variant}** ({ev['stills_with_face']} stills with a face"
        + (f"; calibrated: {cal['stills_with_face']} stills of people with a neutral photo)" if cal else ")"),
        "",
        "| gesture | population rule or model | fit P / R | leave-one-source-out P / R | rivals' LOSO P / R | "
        "talking frames firing | calibrated fit P / R (LOSO) |",
        "|---|---|---|---|---|---|---|",
    ]
    for gesture, rule in section["gestures"].items():
        c = compared.get(gesture, {})
        rivals = ""
        if c.get("chosen", "rule") != "rule":
            rivals = "; ".join(f"{name.replace('_', ' ')} {_pr(c[name])}" for name in ("rule", "model", "shape_model")
                               if name in c and name != c["chosen"])
        talking = ev.get("talking_frames_firing", {}).get(gesture)
        calibrated_text = (f"{_pr(cal['fit'].get(gesture))} ({_pr(cal['leave_one_source_out'].get(gesture))})"
                           if cal and gesture in cal.get("fit", {}) else "")
        lines.append(
            f"| {gesture} | {_rule_text(rule)} | {_pr(ev['fit'].get(gesture))} | "
            f"{_pr(ev['leave_one_source_out'].get(gesture))} | {rivals} | "
            f"{'' if talking is None else f'{100 * talking:.1f} %'} | {calibrated_text} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--thresholds", default=str(REPO / "models" / "thresholds.json"))
    parser.add_argument("--variants", default="mesh+image,mesh,tasks+image,tasks")
    args = parser.parse_args(argv)
    data = json.loads(Path(args.thresholds).read_text(encoding="utf-8"))
    for variant in [v.strip() for v in args.variants.split(",") if v.strip()]:
        if variant in data["backends"]:
            print(table(data, variant) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
