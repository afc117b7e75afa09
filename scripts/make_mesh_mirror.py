"""Derive the left<->right permutation of MediaPipe's 478-point face mesh and write it to
trainer/vision/mesh_mirror.py.

Why: on a frame flipped like a selfie view, the face mesh puts its "subject's right eye" indices
(33, 133, ...) on the subject's LEFT eye, so every left/right face feature comes out swapped.
The mediapipe 0.10.21 wheel carries no canonical face model (no ``canonical_face_model.obj``) or
symmetry table, so the permutation is measured: each frontal neutral photo of
``../shared/gestures/neutral`` is tracked as it is (mesh P) and flipped (mesh Q, x mapped back with
``x -> width - x``); index j of Q then lies on the subject's point perm[j] of P. The cost matrices
(distances / inter-ocular distance) are summed over the photos and solved as an assignment problem.

Checks before writing (the script refuses to write otherwise): the permutation is an involution; it
maps MediaPipe's own FACEMESH_LEFT_EYE / LEFT_EYEBROW / LEFT_IRIS edge sets onto the RIGHT ones and
FACEMESH_LIPS, FACE_OVAL, NOSE onto themselves; it maps the whole tesselation onto itself except
for quads whose diagonal MediaPipe drew asymmetrically (12 edges = 6 mirrored quad pairs); every
photo's own assignment agrees with it (except at most ``MAX_DISAGREE`` points of one photo).

Rerun: ``/work/venv/bin/python scripts/make_mesh_mirror.py [GESTURES_DIR]`` (about 10 s).
"""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from trainer.vision.quiet import quiet_native_logs  # noqa: E402

OUT = REPO / "trainer" / "vision" / "mesh_mirror.py"
POINTS = 478
MAX_DISAGREE = 8
"""One photo (a slightly turned face) may place a few crowded lip-corner points differently."""
MAX_ASYMMETRIC_EDGES = 12


def _mesh(face_mesh, image: np.ndarray) -> np.ndarray | None:
    result = face_mesh.process(cv2.cvtColor(image, cv2.COLOR_BGR2RGB))
    if not result.multi_face_landmarks:
        return None
    height, width = image.shape[:2]
    return np.array([(p.x * width, p.y * height, p.z * width) for p in result.multi_face_landmarks[0].landmark])


def _edges(connections) -> set[tuple[int, int]]:
    return {tuple(sorted(edge)) for edge in connections}


def _mapped(perm: np.ndarray, connections) -> set[tuple[int, int]]:
    return {tuple(sorted((int(perm[a]), int(perm[b])))) for a, b in connections}


def derive(gestures: Path) -> tuple[np.ndarray, list[str]]:
    from scipy.optimize import linear_sum_assignment  # noqa: PLC0415 - dev-only dependency

    import mediapipe as mp  # noqa: PLC0415

    cost = np.zeros((POINTS, POINTS))
    used, per_photo = [], []
    with quiet_native_logs(), mp.solutions.face_mesh.FaceMesh(
        static_image_mode=True, refine_landmarks=True, max_num_faces=1
    ) as face_mesh:
        for path in sorted((gestures / "neutral").iterdir()):
            image = cv2.imread(str(path))
            if image is None:
                continue
            plain, flipped = _mesh(face_mesh, image), _mesh(face_mesh, cv2.flip(image, 1))
            if plain is None or flipped is None:
                continue
            flipped[:, 0] = image.shape[1] - flipped[:, 0]
            iod = float(np.linalg.norm(plain[33] - plain[263]))
            one = np.linalg.norm(flipped[:, None, :] - plain[None, :, :], axis=2) / iod
            per_photo.append(linear_sum_assignment(one)[1])
            cost += one
            used.append(f"neutral/{path.name}")
    if len(used) < 5:
        raise SystemExit(f"only {len(used)} neutral photos with a face under {gestures}: need at least 5")
    perm = linear_sum_assignment(cost)[1]
    _check(perm, per_photo, used)
    return perm, used


def _check(perm: np.ndarray, per_photo: list[np.ndarray], used: list[str]) -> None:
    from mediapipe.python.solutions import face_mesh_connections as fmc  # noqa: PLC0415

    problems = []
    if not np.array_equal(perm[perm], np.arange(POINTS)):
        problems.append("not an involution")
    for left, right in (("LEFT_EYE", "RIGHT_EYE"), ("LEFT_EYEBROW", "RIGHT_EYEBROW"), ("LEFT_IRIS", "RIGHT_IRIS"),
                        ("LIPS", "LIPS"), ("FACE_OVAL", "FACE_OVAL"), ("NOSE", "NOSE")):
        if _mapped(perm, getattr(fmc, f"FACEMESH_{left}")) != _edges(getattr(fmc, f"FACEMESH_{right}")):
            problems.append(f"FACEMESH_{left} does not map onto FACEMESH_{right}")
    tess = _edges(fmc.FACEMESH_TESSELATION)
    odd = _mapped(perm, tess) ^ tess
    if len(odd) > MAX_ASYMMETRIC_EDGES:
        problems.append(f"{len(odd)} tesselation edges do not map onto edges")
    for name, own in zip(used, per_photo):
        if (own != perm).sum() > MAX_DISAGREE:
            problems.append(f"{name} disagrees on {(own != perm).sum()} points")
    if problems:
        raise SystemExit("refusing to write the permutation: " + "; ".join(problems))
    print(f"involution, eye/brow/iris/lips/oval/nose edge sets map, {len(odd)} asymmetric tesselation edges,",
          f"{(perm == np.arange(POINTS)).sum()} points on the midline")


def write(perm: np.ndarray, used: list[str]) -> None:
    rows = [", ".join(str(int(v)) for v in perm[i:i + 20]) for i in range(0, POINTS, 20)]
    body = "\n".join(f"    {row}," for row in rows)
    OUT.write_text(
        f'''"""Left<->right permutation of MediaPipe's 478-point refined face mesh. GENERATED by
scripts/make_mesh_mirror.py: do not edit by hand, rerun the script.

``FACE_MIRROR[i]`` is the mesh index of point i's mirror image on the other half of the face (33, the
subject's right eye outer corner, <-> 263, the left one; midline points map to themselves). It is an
involution. Measured by tracking {len(used)} frontal neutral photos of ../shared/gestures/neutral as they are
and flipped, and checked against MediaPipe's own eye, brow, iris, lip, oval and nose connection sets.

Pure data: imports nothing.
"""

FACE_MIRROR: tuple[int, ...] = (
{body}
)
''',
        encoding="utf-8",
    )


def main() -> int:
    gestures = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO.parent / "shared" / "gestures"
    perm, used = derive(gestures)
    write(perm, used)
    print(f"wrote {OUT.relative_to(REPO)} from {len(used)} photos")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
