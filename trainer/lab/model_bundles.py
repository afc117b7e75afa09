"""Build ``pose_landmarker.task``, the MediaPipe Tasks pose bundle, from the Apache-2.0 model files
inside the ``mediapipe==0.10.21`` wheel (mediapipe 1.x ships no models and no ``mediapipe.solutions``).

A Tasks bundle is a zip of named .tflite files. The pose one holds ``pose_detector.tflite`` (the wheel's
``modules/pose_detection/pose_detection.tflite``) and ``pose_landmarks_detector.tflite`` (its
``modules/pose_landmark/pose_landmark_full.tflite``, the ``model_complexity=1`` model the solutions Pose
ran). Tasks reads each model's input normalisation from its TFLite metadata:

* the detector already carries it (mean 127.5, std 127.5: uint8 to [-1, 1]), and it agrees with the
  0.10.21 graph (``PoseDetectionCpu``'s ImageToTensorCalculator, ``output_tensor_float_range`` -1..1):
  it goes in byte for byte;
* the landmark model has no metadata at all, which is what Tasks refuses ("Input tensor has type
  float32: it requires specifying NormalizationOptions metadata"). We add it with mediapipe's own
  metadata writer: an RGB image input with mean 0, std 255 (uint8 to [0, 1], the
  ``output_tensor_float_range`` 0..1 of ``PoseLandmarkByRoiCpu``'s ImageToTensorCalculator), and names
  for the five outputs in the order the graph splits them.

mediapipe 1.2.3's metadata writers import two modules its wheel does not ship
(``mediapipe.tasks.metadata.schema_py_generated``, the TFLite schema, and
``mediapipe.tasks.cc.metadata.python._pywrap_metadata_version``); the 0.10.21 package given as the
source has both, so they are loaded from there. Under 0.10.21 itself the writers import as they are.

    python -m trainer.lab.model_bundles OUT_DIR [--source PATH]

``PATH``: the 0.10.21 wheel file, the wheel unzipped, or an installed 0.10.21 ``mediapipe`` package
(default: the installed mediapipe, if it is 0.10.x). ``pip download --no-deps mediapipe==0.10.21 -d DIR``
fetches the wheel (cp311 on Linux x86-64: the metadata-version module is a compiled extension).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import importlib.util
import sys
import tempfile
import types
import zipfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

BUNDLE_NAME = "pose_landmarker.task"
BUNDLE_SHA256 = "1c7112887e08d948b0d4d79b5b237aff84240d57cf28c6852df02923a272cf8b"
"""The committed ``models/pose_landmarker.task``; the builder reproduces it (a test checks)."""

DETECTOR = "pose_detector.tflite"
LANDMARKS = "pose_landmarks_detector.tflite"
SOURCES: dict[str, tuple[str, str]] = {
    DETECTOR: (
        "modules/pose_detection/pose_detection.tflite",
        "9ba9dd3d42efaaba86b4ff0122b06f29c4122e756b329d89dca1e297fd8f866c",
    ),
    LANDMARKS: (
        "modules/pose_landmark/pose_landmark_full.tflite",
        "e9a5c5cb17f736fafd4c2ec1da3b3d331d6edbe8a0d32395855aeb2cdfd64b9f",
    ),
}
"""Bundle member -> (path inside the 0.10.21 ``mediapipe`` package, sha256 of that file)."""

SCHEMA_MODULE = "tasks/metadata/schema_py_generated.py"
VERSION_MODULE_DIR = "tasks/cc/metadata/python"

LANDMARK_NORMALIZATION = (0.0, 255.0)
"""(mean, std) of the landmark model's input: uint8 to [0, 1], see the module docstring."""
DETECTOR_NORMALIZATION = (127.5, 127.5)
"""(mean, std) the detector carries already: uint8 to [-1, 1]; checked, not written."""
LANDMARK_OUTPUTS = ("landmarks", "pose flag", "segmentation", "heatmap", "world landmarks")
"""The landmark model's outputs (1x195, 1x1, 1x256x256x1, 1x64x64x39, 1x117), in the order of the
0.10.21 graph's SplitTensorVectorCalculator."""

_FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # zip entries without the build time, so the bytes reproduce


class BundleError(ValueError):
    """The source is not the 0.10.21 mediapipe package, or the bundle cannot be made."""


@dataclass(frozen=True, slots=True)
class Normalization:
    mean: tuple[float, ...]
    std: tuple[float, ...]


def find_package(source: Path) -> Path:
    """The ``mediapipe`` package folder in ``source`` (the package itself, or a folder holding it)."""
    for candidate in (source, source / "mediapipe"):
        if (candidate / SOURCES[DETECTOR][0]).is_file():
            return candidate
    raise BundleError(
        f"{source} holds no mediapipe 0.10.21 package ({SOURCES[DETECTOR][0]} not found): give the wheel "
        "from `pip download --no-deps mediapipe==0.10.21 -d DIR`, that wheel unzipped, or the installed package"
    )


@contextmanager
def open_source(source: Path) -> Iterator[Path]:
    """The ``mediapipe`` package of ``source``; a .whl file is unzipped (only what we need) for the duration."""
    if source.is_file() and source.suffix == ".whl":
        with tempfile.TemporaryDirectory() as tmp, zipfile.ZipFile(source) as wheel:
            wanted = [p for p, _ in SOURCES.values()] + [SCHEMA_MODULE]
            names = [n for n in wheel.namelist() if n.removeprefix("mediapipe/") in wanted
                     or n.startswith(f"mediapipe/{VERSION_MODULE_DIR}/_pywrap_metadata_version")]
            wheel.extractall(tmp, names)
            yield find_package(Path(tmp))
        return
    if not source.exists():
        raise BundleError(f"{source} does not exist: give the mediapipe 0.10.21 wheel, unzipped wheel or package")
    yield find_package(source)


def source_models(package: Path) -> dict[str, bytes]:
    """The two model files, checked against their known sha256 (another version gives another bundle)."""
    out = {}
    for member, (relative, sha256) in SOURCES.items():
        data = (package / relative).read_bytes()
        if hashlib.sha256(data).hexdigest() != sha256:
            raise BundleError(
                f"{package / relative} is not the file of mediapipe 0.10.21 (sha256 differs): use that wheel"
            )
        out[member] = data
    return out


def _load_module(name: str, path: Path) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise BundleError(f"cannot load {path} as {name}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules[name] = module
    return module


def metadata_modules(package: Path) -> tuple[types.ModuleType, types.ModuleType]:
    """mediapipe's ``metadata`` and ``metadata_writer`` modules, with what 1.2.x lacks taken from ``package``."""
    try:
        importlib.import_module("mediapipe.tasks.metadata.schema_py_generated")
    except ModuleNotFoundError:
        _load_module("mediapipe.tasks.metadata.schema_py_generated", package / SCHEMA_MODULE)
    try:
        importlib.import_module("mediapipe.tasks.cc.metadata.python._pywrap_metadata_version")
    except ModuleNotFoundError:
        extensions = sorted((package / VERSION_MODULE_DIR).glob("_pywrap_metadata_version*.so"))
        if not extensions:
            raise BundleError(
                f"{package / VERSION_MODULE_DIR} has no _pywrap_metadata_version extension: use the "
                "mediapipe 0.10.21 wheel for this Python (cp311 on Linux x86-64)"
            ) from None
        # Empty parent packages: the 1.2.x wheel has no mediapipe.tasks.cc at all.
        parent = "mediapipe.tasks"
        for part in ("cc", "metadata", "python"):
            parent = f"{parent}.{part}"
            if parent not in sys.modules:
                module = types.ModuleType(parent)
                module.__path__ = []
                sys.modules[parent] = module
        try:
            version = _load_module(f"{parent}._pywrap_metadata_version", extensions[0])
        except ImportError as error:  # a wheel for another Python or platform
            raise BundleError(
                f"{extensions[0].name} does not load here ({error}): use the mediapipe 0.10.21 wheel for this "
                "Python and platform"
            ) from error
        sys.modules[parent]._pywrap_metadata_version = version  # type: ignore[attr-defined]
    metadata = importlib.import_module("mediapipe.tasks.python.metadata.metadata")
    writer = importlib.import_module("mediapipe.tasks.python.metadata.metadata_writers.metadata_writer")
    return metadata, writer


def landmark_model_with_metadata(model: bytes, writer_module: types.ModuleType) -> bytes:
    """The landmark model with the metadata Tasks needs (see the module docstring)."""
    mean, std = LANDMARK_NORMALIZATION
    writer = writer_module.MetadataWriter.create(bytearray(model))
    writer.add_general_info(
        "Pose landmarks (full)",
        "33 pose landmarks, 6 auxiliary points, presence, segmentation, heatmap and world landmarks; "
        "the pose_landmark_full.tflite of the mediapipe 0.10.21 wheel.",
    )
    writer.add_image_input(norm_mean=[mean], norm_std=[std])
    for name in LANDMARK_OUTPUTS:
        writer.add_feature_output(name=name)
    populated, _ = writer.populate()
    return bytes(populated)


def input_normalization(model: bytes, metadata_module: types.ModuleType) -> Normalization | None:
    """The NormalizationOptions of a model's first input, or None when it has none."""
    from mediapipe.tasks.metadata import metadata_schema_py_generated as schema

    try:
        displayer = metadata_module.MetadataDisplayer.with_model_buffer(model)
    except ValueError:  # "The model does not have metadata."
        return None
    meta = schema.ModelMetadataT.InitFromObj(
        schema.ModelMetadata.GetRootAsModelMetadata(displayer.get_metadata_buffer(), 0)
    )
    for unit in meta.subgraphMetadata[0].inputTensorMetadata[0].processUnits or []:
        if unit.optionsType == schema.ProcessUnitOptions.NormalizationOptions:
            return Normalization(tuple(float(v) for v in unit.options.mean), tuple(float(v) for v in unit.options.std))
    return None


def bundle_bytes(members: dict[str, bytes]) -> bytes:
    """A zip of the members in a fixed order and time, stored (Tasks maps the models as they are)."""
    with tempfile.SpooledTemporaryFile() as buffer:
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as bundle:
            for name in (DETECTOR, LANDMARKS):
                info = zipfile.ZipInfo(name, date_time=_FIXED_TIME)
                info.external_attr = 0o644 << 16
                bundle.writestr(info, members[name])
        buffer.seek(0)
        return buffer.read()


def build_pose_bundle(source: Path) -> bytes:
    """The bytes of ``pose_landmarker.task`` built from the 0.10.21 wheel, unzipped wheel or package."""
    with open_source(Path(source)) as package:
        models = source_models(package)
        metadata, writer = metadata_modules(package)
        found = input_normalization(models[DETECTOR], metadata)
        mean, std = DETECTOR_NORMALIZATION
        if found != Normalization((mean,), (std,)):
            raise BundleError(f"the pose detector's input normalisation is {found}, not mean {mean}, std {std}")
        models[LANDMARKS] = landmark_model_with_metadata(models[LANDMARKS], writer)
    return bundle_bytes(models)


def default_source() -> Path | None:
    """The installed mediapipe package when it is 0.10.x (the one with the models inside), else None."""
    try:
        import mediapipe
    except ImportError:
        return None
    if not str(getattr(mediapipe, "__version__", "")).startswith("0.10."):
        return None
    return Path(mediapipe.__file__).parent


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m trainer.lab.model_bundles", description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir", type=Path, help="folder to write pose_landmarker.task into")
    parser.add_argument("--source", type=Path, help="mediapipe 0.10.21 wheel, unzipped wheel or installed package")
    args = parser.parse_args(argv)
    source = args.source or default_source()
    if source is None:
        parser.error(
            "no mediapipe 0.10.x is installed: pass --source, e.g. the wheel from "
            "`pip download --no-deps mediapipe==0.10.21 -d DIR`"
        )
    if not args.out_dir.is_dir():
        parser.error(f"{args.out_dir} is not a folder")
    try:
        data = build_pose_bundle(source)
    except BundleError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    out = args.out_dir / BUNDLE_NAME
    out.write_bytes(data)
    print(f"{out}  {len(data):,} bytes  sha256 {hashlib.sha256(data).hexdigest()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
