"""Face-shape features: how the brows/eyes and the lips are deformed, as a few principal components.

The named features of ``face_features`` measure what we thought of (a brow's height, a corner's lift);
an expression also moves many mesh points together in ways no single distance captures (a pucker
rounds the whole lip contour, raised brows arch). Here the 478 refined-mesh points are aligned on a
set of points that expressions barely move (eye corners, nose bridge, forehead, temples) by a 3-D
similarity transform (Umeyama), onto the mean neutral face; the displacement of each region's points
from that mean face, in units of the inter-ocular distance, is projected on the region's principal
components: ``shape_up_1..k`` (brows, eyes, irises) and ``shape_mouth_1..k`` (lips). Scale-free and
roll-free by construction, so they sit beside the other named features (relative to the user's
neutral like the others) and the tuner's logistic models can use them.

The basis (reference shape, point indices, components) is plain numbers in ``models/face_shape.json``,
fitted without labels by ``python -m trainer.lab.fit_face_shapes`` on the recorded landmarks of the stills and
talking frames (``samples/face_landmarks.npz``). About 0.07 ms a face.

Imports numpy and the standard library only (no MediaPipe).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from trainer.vision.types import VisionError

SHAPE_SCHEMA = 1
DEFAULT_SHAPE_FILE = Path(__file__).resolve().parents[2] / "models" / "face_shape.json"
STABLE_POINTS: tuple[int, ...] = (33, 133, 362, 263, 168, 6, 197, 195, 5, 4, 10, 151, 9, 8, 234, 454, 127, 356)
"""Mesh points that expressions barely move: eye corners, nose bridge and tip, forehead midline, temples."""
_STABLE_INDEX = np.array(STABLE_POINTS, dtype=np.intp)


@dataclass(frozen=True)
class ShapeRegion:
    """One region's principal components: ``name`` prefixes the features (``shape_<name>_<i>``)."""

    name: str
    points: tuple[int, ...]
    mean: np.ndarray
    """(3 * len(points),) mean displacement from the reference face."""
    components: np.ndarray
    """(k, 3 * len(points)) unit directions, divided by their standard deviation (unit-variance scores)."""

    def feature_names(self) -> tuple[str, ...]:
        return tuple(f"shape_{self.name}_{i + 1}" for i in range(len(self.components)))


@dataclass(frozen=True)
class ShapeBasis:
    """The reference (mean neutral) face, in units of its inter-ocular distance, and the regions."""

    reference: np.ndarray
    """(478, 3) mean neutral face after alignment."""
    regions: tuple[ShapeRegion, ...]
    version: str = ""
    # Precomputed in __post_init__ for the per-frame path (not constructor arguments).
    _index: np.ndarray = field(init=False, repr=False, compare=False)
    _stable_centre: np.ndarray = field(init=False, repr=False, compare=False)
    _stable_centred: np.ndarray = field(init=False, repr=False, compare=False)
    _projection: np.ndarray = field(init=False, repr=False, compare=False)
    _offset: np.ndarray = field(init=False, repr=False, compare=False)
    _names: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Precomputed for the per-frame path: every region's points in one gather, the stable points'
        # centred reference, and the regions' projections stacked into one matrix.
        index = np.concatenate([np.asarray(r.points, dtype=np.intp) for r in self.regions]) if self.regions \
            else np.zeros(0, np.intp)
        stable = self.reference[list(STABLE_POINTS)]
        blocks = [np.asarray(r.components) for r in self.regions]
        projection = np.zeros((sum(len(b) for b in blocks), 3 * len(index)))
        offset_row = offset_col = 0
        for block in blocks:
            projection[offset_row:offset_row + len(block), offset_col:offset_col + block.shape[1]] = block
            offset_row += len(block)
            offset_col += block.shape[1]
        mean = np.concatenate([r.mean for r in self.regions]) if self.regions else np.zeros(0)
        target = self.reference[index].reshape(-1) + mean  # the mean displacement folded into the target
        object.__setattr__(self, "_index", index)
        object.__setattr__(self, "_stable_centre", stable.mean(0))
        object.__setattr__(self, "_stable_centred", stable - stable.mean(0))
        object.__setattr__(self, "_projection", projection)
        object.__setattr__(self, "_offset", projection @ target)
        object.__setattr__(self, "_names", self.feature_names())

    def feature_names(self) -> tuple[str, ...]:
        return tuple(name for region in self.regions for name in region.feature_names())

    def to_json(self) -> dict:
        return {
            "schema": SHAPE_SCHEMA,
            "version": self.version,
            "stable_points": list(STABLE_POINTS),
            "reference": np.round(self.reference, 5).tolist(),
            "regions": [
                {"name": r.name, "points": list(r.points), "mean": np.round(r.mean, 6).tolist(),
                 "components": np.round(r.components, 6).tolist()}
                for r in self.regions
            ],
        }

    @classmethod
    def from_json(cls, data: dict, source: str = "face shape file") -> ShapeBasis:
        if not isinstance(data, dict) or data.get("schema") != SHAPE_SCHEMA:
            raise VisionError(f"{source} is not a schema-{SHAPE_SCHEMA} face shape basis: "
                              "rerun python -m trainer.lab.fit_face_shapes")
        try:
            if tuple(data["stable_points"]) != STABLE_POINTS:
                raise VisionError(f"{source} was fitted on other stable points: "
                                  "rerun python -m trainer.lab.fit_face_shapes")
            reference = np.asarray(data["reference"], dtype=np.float64)
            regions = []
            for r in data["regions"]:
                points = tuple(int(i) for i in r["points"])
                mean = np.asarray(r["mean"], dtype=np.float64)
                components = np.asarray(r["components"], dtype=np.float64)
                if mean.shape != (3 * len(points),) or components.ndim != 2 or components.shape[1] != mean.size:
                    raise VisionError(f"{source}: region {r.get('name')!r} has inconsistent sizes: "
                                      "rerun python -m trainer.lab.fit_face_shapes")
                regions.append(ShapeRegion(str(r["name"]), points, mean, components))
        except VisionError:
            raise
        except (KeyError, TypeError, ValueError):  # VisionError is a ValueError: named above first
            raise VisionError(f"{source} is damaged (missing or bad fields): "
                              "rerun python -m trainer.lab.fit_face_shapes") from None
        if reference.shape != (478, 3):
            raise VisionError(f"{source}: reference face has shape {reference.shape}, expected (478, 3)")
        return cls(reference, tuple(regions), str(data.get("version", "")))


def load_shape_basis(path: Path | str | None = None) -> ShapeBasis:
    """The basis from ``path``, ``$ALUETTE_FACE_SHAPE`` or the repository's models/face_shape.json."""
    chosen = Path(path or os.environ.get("ALUETTE_FACE_SHAPE") or DEFAULT_SHAPE_FILE)
    return _load_cached(str(chosen.resolve()))


@lru_cache(maxsize=4)
def _load_cached(path: str) -> ShapeBasis:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise VisionError(f"no face shape basis at {path}: run python -m trainer.lab.fit_face_shapes "
                          "or set ALUETTE_FACE_SHAPE") from None
    except (OSError, json.JSONDecodeError) as error:
        raise VisionError(f"face shape basis {path} unreadable ({error}): "
                          "rerun python -m trainer.lab.fit_face_shapes") from None
    return ShapeBasis.from_json(data, source=path)


def _umeyama(source: np.ndarray, target: np.ndarray) -> tuple[float, np.ndarray] | None:
    """Scale and rotation best mapping centred ``source`` points onto centred ``target`` points
    (Umeyama 1991); None when the source points all coincide. Runs on every video frame: the 3x3
    determinant and sums are plain Python (numpy's per-call overhead is most of the cost at this size)."""
    n = len(source)
    variance = float(np.vdot(source, source)) / n
    if not variance > 0:
        return None
    u, sigma, vt = np.linalg.svd(target.T @ source / n)
    rotation = u @ vt
    s1, s2, s3 = sigma.tolist()
    if _det3(rotation) < 0:  # a reflection is never a valid head pose: flip the weakest axis
        u = u * _FLIP_LAST
        rotation = u @ vt
        s3 = -s3
    return (s1 + s2 + s3) / variance, rotation


_FLIP_LAST = np.array([1.0, 1.0, -1.0])


def _det3(m: np.ndarray) -> float:
    (a, b, c), (d, e, f), (g, h, i) = m.tolist()
    return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)


def similarity_align(source: np.ndarray, target: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """Scale, rotation and translation that best map ``source`` points onto ``target`` (Umeyama 1991)."""
    mean_s, mean_t = source.mean(0), target.mean(0)
    fit = _umeyama(source - mean_s, target - mean_t)
    scale, rotation = fit if fit is not None else (1.0, np.eye(3))
    return scale, rotation, mean_t - scale * rotation @ mean_s


def aligned(points: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """``points`` (478 x 3, pixels) moved onto ``reference`` by the similarity of their stable points."""
    p = np.asarray(points, dtype=np.float64)[:, :3]
    stable = list(STABLE_POINTS)
    scale, rotation, shift = similarity_align(p[stable], reference[stable])
    return scale * p @ rotation.T + shift


def shape_features(points: np.ndarray, basis: ShapeBasis | None = None) -> dict[str, float]:
    """``shape_<region>_<i>`` scores of a face (see the module doc); {} for a degenerate mesh.
    ``basis`` None reads ``load_shape_basis()`` (one-off uses); the video path passes the basis its
    pipeline loaded (``face_models.FaceModels``)."""
    basis = basis or load_shape_basis()
    p = np.asarray(points, dtype=np.float64)
    if p.ndim != 2 or p.shape[0] < 478 or p.shape[1] < 3:
        return {}
    stable = p[_STABLE_INDEX, :3]
    if not np.isfinite(stable).all():
        return {}
    # As ``aligned``, with the reference side precomputed, and only the regions' points moved.
    centre = stable.sum(0) / len(stable)  # what .mean(0) computes, without its overhead
    fit = _umeyama(stable - centre, basis._stable_centred)
    if fit is None:
        return {}
    scale, rotation = fit
    moved = scale * (p[basis._index, :3] - centre) @ rotation.T + basis._stable_centre
    scores = basis._projection @ moved.reshape(-1) - basis._offset
    if not np.isfinite(scores).all():
        return {}
    return dict(zip(basis._names, scores.tolist(), strict=False))


def fit_shape_basis(points: np.ndarray, neutral: np.ndarray, regions: dict[str, tuple[int, ...]],
                    components: int, version: str = "") -> ShapeBasis:
    """Fit a basis without labels: the reference is the generalised-Procrustes mean of the ``neutral``
    faces (boolean mask over ``points``, N x 478 x 3), scaled to a unit inter-ocular distance; each
    region's components are the principal directions of every face's displacement from it."""
    faces = np.asarray(points, dtype=np.float64)[:, :478, :3]
    if not neutral.any():
        raise VisionError("fitting a face shape basis needs at least one neutral face")
    reference = faces[np.flatnonzero(neutral)[0]].copy()
    for _ in range(5):  # generalised Procrustes: align all, average, repeat
        reference = np.mean([aligned(f, reference) for f in faces[neutral]], axis=0)
        eyes = reference[[33, 133]].mean(0) - reference[[362, 263]].mean(0)
        reference = (reference - reference[list(STABLE_POINTS)].mean(0)) / np.linalg.norm(eyes)
    every = np.stack([aligned(f, reference) for f in faces])
    built = []
    for name, index in regions.items():
        x = (every[:, list(index)] - reference[list(index)]).reshape(len(every), -1)
        mean = x.mean(0)
        _, sigma, vt = np.linalg.svd(x - mean, full_matrices=False)
        k = min(components, len(sigma))
        spread = sigma[:k] / np.sqrt(len(x))
        built.append(ShapeRegion(name, tuple(int(i) for i in index), mean, vt[:k] / spread[:, None]))
    return ShapeBasis(reference, tuple(built), version)
