"""The models the face path reads on every frame, loaded once (by the ``Pipeline``) and passed in.

``FaceModels.load`` reads the face signs' parameters (``face_signs.load_face_signs``:
models/face_signs.json) and the face-shape basis (``face_shape.load_shape_basis``:
models/face_shape.json or ``$ALUETTE_FACE_SHAPE``) when a pipeline is built; nothing on the per-frame
path opens a file or consults a cache.

Imports trainer.vision only.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from trainer.vision.face_shape import ShapeBasis, load_shape_basis
from trainer.vision.face_signs import FaceSignParams, load_face_signs


@dataclass(frozen=True, slots=True)
class FaceModels:
    """The face signs' parameters (None: the face signs are off) and the face-shape basis."""

    signs: FaceSignParams | None
    shape: ShapeBasis

    @classmethod
    def load(cls, signs: Path | str | None = None, shape: Path | str | None = None,
             with_signs: bool = True) -> FaceModels:
        """Both models from their files (None: the defaults); ``with_signs`` False leaves the signs
        unloaded (a pipeline without the face)."""
        return cls(load_face_signs(signs) if with_signs else None, load_shape_basis(shape))
