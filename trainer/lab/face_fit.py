"""Fit the face signs' parameters (``trainer.vision.face_signs``) on labelled faces, and judge them on
people left out: leave-one-person-out (LOPO) by the MANIFEST ``person`` column.

A labelled face is a ``LabelledFace`` (its reading, its person, its truth per sign: True, False or
None = don't care). Per sign, ``fit_sign`` fits a logistic regression over the sign's few cues
(``SIGN_CUES``), with an L2 penalty on the standardised weights, so that a handful of odd photos cannot
push a weight far; the signs of a ``COMPETING`` group (wink and eyes_closed) are fitted together by
``fit_group``, a softmax over "none" and each member's logit on its own cues. ``lopo`` refits
without each person in turn and scores that person with the product's own ``score_face_signs``: the
figures it returns are figures for faces never fitted.

Each person weighs the same in the fit whatever their number of photos (one person's video frames must
not decide a sign for everyone), and the positives of a sign weigh as much in total as its negatives
times ``POSITIVE_SHARE`` (chosen leave-one-person-out among a few values by ``choose_share``).

Pure numpy; imports trainer.vision only. As a tool, from the readings of samples/face_signs.json
(``python -m trainer.lab.record_face_signs``; never the images):

    nice .venv/bin/python -m trainer.lab.face_fit signs [--samples samples/face_signs.json]
    nice .venv/bin/python -m trainer.lab.face_fit compare [--variants NAME ...]

``signs`` picks each sign's positive share leave-one-person-out (``choose_shares``), fits every sign
on all people with it (hand-sign photos left out: a hand over the mouth is muted by the pipeline),
writes models/face_signs.json with the held-out figures beside the parameters and prints them.
``compare`` prints held-out tables, with macro precision and recall, of decision variants
(``VARIANTS``: independent signs or competing groups), hand-sign photos scored but not fitted, as
``aluette eval-vision`` does.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from trainer.signals.gestures import Gesture
from trainer.vision.face_signs import (
    FACE_SIGNS,
    MOUTH_SIGNS,
    FaceReading,
    FaceSignParams,
    Neutral,
    SignModel,
    cue_values,
    score_face_signs,
)
from trainer.vision.types import Rates

SIGN_CUES: dict[Gesture, tuple[str, ...]] = {
    Gesture.WINK: ("blink_asym", "eye_ratio"),
    Gesture.EYES_CLOSED: ("blink_low", "eye_max"),
    Gesture.BROWS_UP: ("brow_inner", "brow_outer", "brow_raise", "eye_wide"),
    Gesture.LOOK_UP: ("look", "gaze_up"),
    Gesture.LIP_CORNER: ("smile_asym", "shift"),
    Gesture.HEAD_TILT: ("roll",),
    Gesture.POUT: ("pucker",),
    Gesture.MOUTH_OPEN: ("jaw", "mouth_open", "upper_up"),
    Gesture.TONGUE_OUT: ("tongue", "pink", "jaw"),
    Gesture.LIP_BITE: ("roll_lower", "teeth_low", "upper_up", "jaw"),
    Gesture.GRIMACE: ("stretch", "upper_up", "lower_down", "smile"),
}
"""The cues each sign reads: chosen for what the sign is (RULES.md), not searched over the photos."""

EYE_CLOSURES: tuple[Gesture, ...] = (Gesture.WINK, Gesture.EYES_CLOSED)
MOUTH_SHAPES: tuple[Gesture, ...] = (Gesture.POUT, Gesture.MOUTH_OPEN, Gesture.TONGUE_OUT, Gesture.LIP_BITE,
                                     Gesture.GRIMACE, Gesture.LIP_CORNER)
"""Two groups of signs no labelled photo shows together (a test checks it on samples/face_signs.json)."""
COMPETING: tuple[tuple[Gesture, ...], ...] = (EYE_CLOSURES,)
"""The groups the product fits jointly as a softmax with "none" (``fit_group``) and scores so
(``FaceSignParams.compete``). The mouth group is not among them: held out it traded recall for
precision (docs/vision-face.md, "Signs that compete"; ``python -m trainer.lab.face_fit compare``)."""

PENALTY = 1.0
"""L2 penalty on the standardised weights (the bias is free)."""
SHARES = (0.1, 0.25, 0.5)
"""Total weight of a sign's positives relative to its negatives, tried by ``choose_share``."""


@dataclass(frozen=True, slots=True)
class LabelledFace:
    file: str
    person: str
    reading: FaceReading
    truth: dict[Gesture, bool | None]
    label: str = ""
    mouth_hidden: bool = False
    """The pipeline saw a hand in front of the mouth (it mutes the mouth signs there)."""


def population_neutral(
    faces: Iterable[LabelledFace], neutral_labels: frozenset[str] = frozenset({"neutral"})
) -> Neutral:
    """Median of each value over the neutral faces (the uncalibrated default)."""
    chosen = [f.reading for f in faces if f.label in neutral_labels]
    if not chosen:
        raise ValueError("no neutral face to take the population's neutral from: label some 'neutral' photos")

    def median(tables: list) -> dict[str, float]:
        names = sorted(set().union(*(t.keys() for t in tables)))
        return {k: float(np.median([t[k] for t in tables if k in t])) for k in names}

    return Neutral(median([r.blendshapes for r in chosen]), median([r.geometry for r in chosen]),
                   median([r.appearance for r in chosen if r.appearance]) if any(r.appearance for r in chosen) else {})


def _logistic(x: np.ndarray, y: np.ndarray, w: np.ndarray, penalty: float) -> tuple[np.ndarray, float]:
    """Weighted L2-penalised logistic regression by Newton's method (a few dozen rows, a few inputs)."""
    n, k = x.shape
    design = np.hstack([x, np.ones((n, 1))])
    beta = np.zeros(k + 1)
    reg = np.full(k + 1, penalty)
    reg[-1] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(design @ beta, -30, 30)))
        grad = design.T @ (w * (p - y)) + reg * beta
        hess = (design * (w * p * (1 - p))[:, None]).T @ design + np.diag(reg) + 1e-9 * np.eye(k + 1)
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.abs(step).max() < 1e-7:
            break
    return beta[:k], float(beta[k])


def fit_sign(gesture: Gesture, faces: Sequence[LabelledFace], neutral: Neutral,
             share: float = 0.5, penalty: float = PENALTY) -> SignModel | None:
    """The sign's model fitted on ``faces`` (don't-cares left out); None without a positive."""
    cues = SIGN_CUES[gesture]
    rows = [(f, f.truth.get(gesture)) for f in faces]
    rows = [(f, t) for f, t in rows if t is not None]
    if not any(t for _, t in rows) or all(t for _, t in rows):
        return None
    x = np.array([cue_values(f.reading, neutral, cues) for f, _ in rows], dtype=float)
    y = np.array([1.0 if t else 0.0 for _, t in rows])
    # Every person weighs the same; then positives and negatives are balanced to `share`.
    per_person: dict[str, int] = defaultdict(int)
    for f, _ in rows:
        per_person[f.person] += 1
    w = np.array([1.0 / per_person[f.person] for f, _ in rows])
    pos, neg = w[y == 1].sum(), w[y == 0].sum()
    w = np.where(y == 1, w * share * neg / pos, w)
    w = w * len(rows) / w.sum()
    center = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-6] = 1e-6
    weights, bias = _logistic((x - center) / scale, y, w, penalty)
    return SignModel(gesture, cues, tuple(center.tolist()), tuple(scale.tolist()), tuple(weights.tolist()), bias)


def _person_weights(rows: Sequence[LabelledFace]) -> np.ndarray:
    per_person: dict[str, int] = defaultdict(int)
    for f in rows:
        per_person[f.person] += 1
    return np.array([1.0 / per_person[f.person] for f in rows])


def group_class(face: LabelledFace, group: Sequence[Gesture]) -> int | None:
    """The face's class in a competing group: 1 + the index of its one positive member, 0 for none of
    them, None when it cannot be told (a don't-care and no positive, or two positives)."""
    truths = [face.truth.get(g) for g in group]
    positives = [i for i, t in enumerate(truths) if t is True]
    if len(positives) == 1:
        return positives[0] + 1
    if positives or any(t is None for t in truths):
        return None
    return 0


def _softmax_fit(blocks: list[np.ndarray], y: np.ndarray, w: np.ndarray, penalty: float
                 ) -> list[tuple[np.ndarray, float]]:
    """Weighted L2-penalised softmax with a fixed "none" class (logit 0), where class k's logit reads
    only its own standardised inputs ``blocks[k]``: Newton's method on the stacked parameters."""
    n = len(y)
    designs = [np.hstack([b, np.ones((n, 1))]) for b in blocks]
    sizes = [d.shape[1] for d in designs]
    starts = np.cumsum([0] + sizes)
    beta = np.zeros(starts[-1])
    reg = np.concatenate([np.r_[np.full(s - 1, penalty), 0.0] for s in sizes])
    onehot = np.stack([(y == k + 1).astype(float) for k in range(len(blocks))], axis=1)
    for _ in range(100):
        z = np.stack([d @ beta[a:b] for d, a, b in zip(designs, starts[:-1], starts[1:], strict=False)], axis=1)
        z = np.clip(z, -30, 30)
        top = np.maximum(0.0, z.max(axis=1, keepdims=True))
        e = np.exp(z - top)
        p = e / (np.exp(-top) + e.sum(axis=1, keepdims=True))
        grad = np.concatenate([d.T @ (w * (p[:, k] - onehot[:, k])) for k, d in enumerate(designs)]) + reg * beta
        hess = np.diag(reg) + 1e-9 * np.eye(len(beta))
        for k, dk in enumerate(designs):
            for j, dj in enumerate(designs):
                c = w * p[:, k] * ((k == j) - p[:, j])
                hess[starts[k]:starts[k + 1], starts[j]:starts[j + 1]] += (dk * c[:, None]).T @ dj
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.abs(step).max() < 1e-7:
            break
    return [(beta[a:b - 1], float(beta[b - 1])) for a, b in zip(starts[:-1], starts[1:], strict=False)]


def fit_group(group: Sequence[Gesture], faces: Sequence[LabelledFace], neutral: Neutral,
              shares: dict[Gesture, float] | None = None, penalty: float = PENALTY) -> tuple[SignModel, ...]:
    """The models of signs that exclude each other, fitted jointly: a softmax over "none" and each
    member, each member's logit over its own cues (``SIGN_CUES``: as many parameters as fitting them
    one by one). Members without a positive among ``faces`` are left out (no model)."""
    classes = [(f, group_class(f, group)) for f in faces]
    rows = [(f, k) for f, k in classes if k is not None]
    present = [g for i, g in enumerate(group) if any(k == i + 1 for _, k in rows)]
    if not present or not any(k == 0 for _, k in rows):
        return ()
    remap = {0: 0, **{group.index(g) + 1: i + 1 for i, g in enumerate(present)}}
    y = np.array([remap[k] for _, k in rows])
    # Every person weighs the same; then each member's positives weigh `share` x the "none" faces.
    w = _person_weights([f for f, _ in rows])
    none_total = w[y == 0].sum()
    for i, g in enumerate(present):
        chosen = y == i + 1
        w[chosen] *= (shares or {}).get(g, 0.5) * none_total / w[chosen].sum()
    w = w * len(rows) / w.sum()
    blocks, stats = [], []
    for g in present:
        x = np.array([cue_values(f.reading, neutral, SIGN_CUES[g]) for f, _ in rows], dtype=float)
        center, scale = x.mean(axis=0), x.std(axis=0)
        scale[scale < 1e-6] = 1e-6
        blocks.append((x - center) / scale)
        stats.append((center, scale))
    fitted = _softmax_fit(blocks, y, w, penalty)
    return tuple(SignModel(g, SIGN_CUES[g], tuple(c.tolist()), tuple(s.tolist()), tuple(wt.tolist()), b)
                 for g, (c, s), (wt, b) in zip(present, stats, fitted, strict=False))


def fit_params(faces: Sequence[LabelledFace], shares: dict[Gesture, float] | None = None,
               signs: Iterable[Gesture] = FACE_SIGNS,
               compete: tuple[tuple[Gesture, ...], ...] = COMPETING) -> FaceSignParams:
    """Every sign's model: the competing groups jointly (``fit_group``), the others alone."""
    neutral = population_neutral(faces)
    signs = tuple(signs)
    groups = tuple(tuple(g for g in group if g in signs) for group in compete)
    groups = tuple(group for group in groups if len(group) > 1)
    grouped = {g for group in groups for g in group}
    models: list[SignModel] = []
    fitted_groups = []
    for group in groups:
        members = fit_group(group, faces, neutral, shares)
        models.extend(members)
        if len(members) > 1:
            fitted_groups.append(tuple(m.gesture for m in members))
    for g in signs:
        if g in grouped:
            continue
        model = fit_sign(g, faces, neutral, (shares or {}).get(g, 0.5))
        if model is not None:
            models.append(model)
    order = {g: i for i, g in enumerate(FACE_SIGNS)}
    models.sort(key=lambda m: order[m.gesture])
    return FaceSignParams(tuple(models), neutral, compete=tuple(fitted_groups))


@dataclass(frozen=True, slots=True)
class Counts(Rates):
    tp: int = 0
    fp: int = 0
    fn: int = 0
    people: int = 0
    """People with at least one positive of the sign (what the recall rests on)."""

    def to_json(self) -> dict:
        return {"tp": self.tp, "fp": self.fp, "fn": self.fn, "people": self.people,
                "precision": round(self.precision, 3), "recall": round(self.recall, 3)}


Scorer = Callable[[LabelledFace, FaceSignParams], dict[Gesture, float]]


def product_scores(face: LabelledFace, params: FaceSignParams) -> dict[Gesture, float]:
    """What the product scores on a single photo: population neutral, ``score_face_signs``, the mouth
    signs muted where a hand hid the mouth."""
    scores = score_face_signs(face.reading, None, params).scores
    if face.mouth_hidden:
        scores = {g: (0.0 if g in MOUTH_SIGNS else v) for g, v in scores.items()}
    return scores


def lopo_scores(faces: Sequence[LabelledFace], shares: dict[Gesture, float] | None = None,
                scorer: Scorer = product_scores, signs: Iterable[Gesture] = FACE_SIGNS,
                fit_on: Callable[[LabelledFace], bool] = lambda face: True,
                compete: tuple[tuple[Gesture, ...], ...] = COMPETING,
                ) -> list[tuple[LabelledFace, dict[Gesture, float]]]:
    """Every face scored by parameters fitted without its person (on the other people's faces that
    ``fit_on`` accepts)."""
    signs = tuple(signs)
    out: list[tuple[LabelledFace, dict[Gesture, float]]] = []
    by_person: dict[str, list[LabelledFace]] = defaultdict(list)
    for f in faces:
        by_person[f.person].append(f)
    for person, held in by_person.items():
        rest = [f for f in faces if f.person != person and fit_on(f)]
        params = fit_params(rest, shares, signs, compete)
        out.extend((f, scorer(f, params)) for f in held)
    return out


def count(scored: Iterable[tuple[LabelledFace, dict[Gesture, float]]], gesture: Gesture,
          threshold: float = 0.5) -> Counts:
    tp = fp = fn = 0
    people = set()
    for face, scores in scored:
        truth = face.truth.get(gesture)
        fired = scores.get(gesture, 0.0) >= threshold
        if truth is True:
            people.add(face.person)
            tp += fired
            fn += not fired
        elif truth is False:
            fp += fired
    return Counts(tp, fp, fn, len(people))


def choose_shares(faces: Sequence[LabelledFace], signs: Iterable[Gesture] = FACE_SIGNS,
                  compete: tuple[tuple[Gesture, ...], ...] = COMPETING,
                  ) -> tuple[dict[Gesture, float], dict[Gesture, Counts]]:
    """Per sign, the positive share whose leave-one-person-out F1 is best (ties: the smaller share,
    fewer false triggers), and that held-out count. Choosing on the held-out figure makes it slightly
    optimistic: three values per sign, one number each."""
    signs = tuple(signs)
    best: dict[Gesture, tuple[float, Counts]] = {}
    for share in SHARES:
        scored = lopo_scores(faces, {g: share for g in signs}, signs=signs, compete=compete)
        for g in signs:
            c = count(scored, g)
            if g not in best or c.f1 > best[g][1].f1 + 1e-9:
                best[g] = (share, c)
    return {g: s for g, (s, _) in best.items()}, {g: c for g, (_, c) in best.items()}


HAND_LABELS = frozenset({"thumb", "pinky", "index", "index_middle", "open_palm", "fist", "other"})
"""Photos of hand signs: the hand often hides the mouth (the pipeline then mutes the mouth signs), so
they are left out of the face fit; they stay in every evaluation."""


def faces_from_samples(path) -> list[LabelledFace]:
    """The labelled faces recorded by python -m trainer.lab.record_face_signs (stills with a face)."""
    import json  # noqa: PLC0415
    from pathlib import Path  # noqa: PLC0415

    rows = json.loads(Path(path).read_text(encoding="utf-8"))["rows"]
    out = []
    for r in rows:
        if "blendshapes" not in r:
            continue
        truth = {Gesture(k): v for k, v in r["truth"].items()}
        out.append(LabelledFace(r["file"], r["person"], FaceReading(r["blendshapes"], r["geometry"],
                                                                    r.get("appearance", {})), truth, r["label"],
                                bool(r.get("mouth_hidden", False))))
    return out


VARIANTS: dict[str, tuple[tuple[Gesture, ...], ...]] = {
    "independent": (),
    "eyes and mouth": (EYE_CLOSURES, MOUTH_SHAPES),
    "mouth only": (MOUTH_SHAPES,),
    "eyes only (shipped)": (EYE_CLOSURES,),
    "eyes, pout vs open": (EYE_CLOSURES, (Gesture.POUT, Gesture.MOUTH_OPEN)),
    "eyes, pout vs open vs tongue": (EYE_CLOSURES, (Gesture.POUT, Gesture.MOUTH_OPEN, Gesture.TONGUE_OUT)),
    "eyes, grimace vs corner": (EYE_CLOSURES, (Gesture.GRIMACE, Gesture.LIP_CORNER)),
}
"""The decision variants ``compare`` judges held out: which groups of signs compete."""


def _write_signs(args) -> int:
    import datetime as dt  # noqa: PLC0415
    import json  # noqa: PLC0415
    from pathlib import Path  # noqa: PLC0415

    faces = [f for f in faces_from_samples(args.samples) if f.label not in HAND_LABELS]
    shares, held = choose_shares(faces)
    fitted = fit_params(faces, shares)
    params = FaceSignParams(fitted.models, fitted.population, held_out={
        g.value: {**held[g].to_json(), "positive_share": shares[g]} for g in held}, compete=fitted.compete)
    about = {
        "created": dt.date.today().isoformat(),
        "about": "Population parameters of the face signs (trainer.vision.face_signs), fitted by "
                 "python -m trainer.lab.face_fit signs on samples/face_signs.json (hand-sign photos left out). "
                 "held_out: leave-one-person-out counts (people = people with a positive).",
        "faces": len(faces),
        "people": len({f.person for f in faces}),
    }
    Path(args.out).write_text(json.dumps(params.to_json(about), indent=1) + "\n", encoding="utf-8")
    print(f"{len(faces)} faces of {about['people']} people; held out (leave-one-person-out):")
    for g, c in held.items():
        print(f"  {g.value:12s} P {c.precision:4.2f} R {c.recall:4.2f}  tp {c.tp:3d} fp {c.fp:3d} fn {c.fn:3d}  "
              f"{c.people} people  share {shares[g]}")
    print(f"wrote {args.out}")
    return 0


def _compare(args) -> int:
    faces = faces_from_samples(args.samples)
    fitted = [f for f in faces if f.label not in HAND_LABELS]
    for name in args.variants:
        compete = VARIANTS[name]
        shares, _ = choose_shares(fitted, compete=compete)
        scored = lopo_scores(faces, shares, fit_on=lambda f: f.label not in HAND_LABELS, compete=compete)
        print(f"\n{name}: {len(faces)} faces of {len({f.person for f in faces})} people, held out")
        ps, rs = [], []
        for g in FACE_SIGNS:
            c = count(scored, g)
            ps.append(c.precision)
            rs.append(c.recall)
            print(f"  {g.value:12s} P {c.precision:4.2f} R {c.recall:4.2f}  tp {c.tp:3d} fp {c.fp:3d} fn {c.fn:3d}"
                  f"  {c.people:3d} people  share {shares[g]}")
        print(f"  macro P {sum(ps) / len(ps):.3f}  macro R {sum(rs) / len(rs):.3f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    import argparse  # noqa: PLC0415
    from pathlib import Path  # noqa: PLC0415

    from trainer.vision.face_signs import DEFAULT_SIGNS  # noqa: PLC0415

    samples = str(Path(__file__).resolve().parents[2] / "samples" / "face_signs.json")
    parser = argparse.ArgumentParser(prog="python -m trainer.lab.face_fit", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    signs = sub.add_parser("signs", help="fit the face signs and write models/face_signs.json")
    signs.add_argument("--out", default=str(DEFAULT_SIGNS), help="where to write the parameters")
    signs.set_defaults(run=_write_signs)
    compare = sub.add_parser("compare", help="held-out tables of decision variants")
    compare.add_argument("--variants", nargs="*", default=list(VARIANTS), choices=list(VARIANTS))
    compare.set_defaults(run=_compare)
    for cmd in (signs, compare):
        cmd.add_argument("--samples", default=samples, help="the recorded face readings")
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    raise SystemExit(main())
