"""A user's neutral face: per-feature baseline that the face gesture thresholds are relative to.

``Calibrator`` collects a few seconds of frames of a relaxed face (feature dicts from
``trainer.vision.face_features``) and turns them into a ``Profile`` with robust statistics (median and
MAD, so a blink or a word during calibration does not shift the baseline). Without a calibration the
population neutral (of the neutral photos, in models/face_signs.json) is used, so a single
photo or a first run still works. Profiles save to and load from JSON; bad data raises VisionError naming
the problem and the way out.

Imports numpy and trainer.vision only.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from trainer.vision.types import VisionError

PROFILE_SCHEMA = 1
# MAD of a normal distribution times this is its standard deviation.
_MAD_TO_SD = 1.4826


def data_folder() -> Path:
    """The user's data folder: ``$ALUETTE_HOME`` or the platform's data folder for "aluette"."""
    home = os.environ.get("ALUETTE_HOME")
    if home:
        return Path(home)
    try:
        import platformdirs  # noqa: PLC0415 - a core dependency, only needed here

        return Path(platformdirs.user_data_dir("aluette"))
    except ImportError:  # pragma: no cover - platformdirs is a core dependency
        return Path.home() / ".local" / "share" / "aluette"


def profile_path(user: str) -> Path:
    """Where a user's face profile is saved: ``<data folder>/profiles/<user>.json``."""
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "_", user.strip()).strip("._")
    if not slug:
        raise VisionError(f"user name {user!r} has no letters or digits: choose a name for the profile")
    return data_folder() / "profiles" / f"{slug}.json"


def load_user_profile(user: str) -> Profile | None:
    """The saved profile of ``user``, or None if they never calibrated (population defaults then)."""
    path = profile_path(user)
    return Profile.load(path) if path.is_file() else None


@dataclass(frozen=True, slots=True)
class FeatureStat:
    """Neutral value of one feature and how much it wanders while the face is at rest."""

    mean: float
    spread: float


@dataclass(frozen=True, slots=True)
class Profile:
    """Neutral baseline of one face (or of the population), keyed by feature name.

    ``created`` is an ISO date-time string given by the caller (the vision layer never reads the
    clock); ``frames`` is how many frames built it (0 for the population profile).
    """

    name: str
    stats: Mapping[str, FeatureStat]
    created: str = ""
    frames: int = 0
    kind: str = "user"

    def mean(self, feature: str, default: float = 0.0) -> float:
        stat = self.stats.get(feature)
        return stat.mean if stat is not None else default

    def spread(self, feature: str, default: float = 0.0) -> float:
        stat = self.stats.get(feature)
        return stat.spread if stat is not None else default

    def to_json(self) -> dict:
        return {
            "schema": PROFILE_SCHEMA,
            "name": self.name,
            "kind": self.kind,
            "created": self.created,
            "frames": self.frames,
            "features": {
                key: {"mean": round(stat.mean, 6), "spread": round(stat.spread, 6)}
                for key, stat in sorted(self.stats.items())
            },
        }

    @classmethod
    def from_json(cls, data: object) -> Profile:
        """Rebuild a profile from ``to_json`` output; VisionError on anything malformed."""
        if not isinstance(data, dict):
            raise VisionError(f"a face profile must be a JSON object, got {type(data).__name__}: recalibrate")
        schema = data.get("schema")
        if schema != PROFILE_SCHEMA:
            raise VisionError(
                f"face profile schema {schema!r} is not {PROFILE_SCHEMA}: recalibrate to make a new profile"
            )
        features = data.get("features")
        if not isinstance(features, dict) or not features:
            raise VisionError("face profile has no 'features' table: recalibrate to make a new profile")
        stats: dict[str, FeatureStat] = {}
        for key, value in features.items():
            try:
                mean = float(value["mean"])
                spread = float(value["spread"])
            except (TypeError, KeyError, ValueError):
                raise VisionError(
                    f"face profile feature {key!r} needs numeric 'mean' and 'spread', got {value!r}: "
                    "recalibrate"
                ) from None
            if not (math.isfinite(mean) and math.isfinite(spread)) or spread < 0:
                raise VisionError(
                    f"face profile feature {key!r} has mean={mean}, spread={spread}: values must be "
                    "finite and the spread >= 0; recalibrate"
                )
            stats[str(key)] = FeatureStat(mean, spread)
        frames = data.get("frames", 0)
        if not isinstance(frames, int) or frames < 0:
            raise VisionError(f"face profile 'frames' must be a non-negative integer, got {frames!r}")
        return cls(
            name=str(data.get("name", "")),
            stats=stats,
            created=str(data.get("created", "")),
            frames=frames,
            kind=str(data.get("kind", "user")),
        )

    def save(self, path: Path | str) -> None:
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path | str) -> Profile:
        source = Path(path)
        try:
            data = json.loads(source.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise VisionError(f"no face profile at {source}: calibrate first") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise VisionError(f"face profile {source} is not readable JSON ({error}): recalibrate") from None
        return cls.from_json(data)


def profile_from_samples(
    name: str, samples: Iterable[Mapping[str, float]], created: str = "", kind: str = "user"
) -> Profile:
    """Median and scaled MAD of every feature over the samples (feature dicts of a neutral face)."""
    rows = [dict(s) for s in samples]
    if not rows:
        raise VisionError(f"no neutral face frames to build profile {name!r}: look at the camera and retry")
    keys = sorted(set().union(*rows))
    return profile_from_table(name, keys, _table(rows, keys), created, kind)


def _table(rows: Iterable[Mapping[str, float]], keys: list[str]) -> np.ndarray:
    nan = math.nan
    return np.array([[r.get(key, nan) for key in keys] for r in rows], dtype=float).reshape(-1, len(keys))


def profile_from_table(
    name: str, keys: list[str], table: np.ndarray, created: str = "", kind: str = "user"
) -> Profile:
    """``profile_from_samples`` on a (frames x features) matrix whose columns are ``keys`` (NaN: not
    measured on that frame; a column with no number is left out)."""
    if len(table) == 0:
        raise VisionError(f"no neutral face frames to build profile {name!r}: look at the camera and retry")
    finite = np.isfinite(table)
    stats = {}
    if finite.all():
        # The common case (every frame has every feature): plain medians are ~5x faster than
        # nanmedian's masked path, and give the same numbers.
        medians = np.median(table, axis=0)
        spreads = _MAD_TO_SD * np.median(np.abs(table - medians), axis=0)
        kept = keys
    else:
        table = np.where(finite, table, math.nan)
        present = finite.any(axis=0)
        kept = [k for k, keep in zip(keys, present, strict=False) if keep]
        medians = spreads = np.zeros(0)
        if kept:
            with np.errstate(all="ignore"):
                medians = np.nanmedian(table[:, present], axis=0)
                spreads = _MAD_TO_SD * np.nanmedian(np.abs(table[:, present] - medians), axis=0)
    for key, median, spread in zip(kept, medians.tolist(), spreads.tolist(), strict=False):
        stats[key] = FeatureStat(median, spread)
    return Profile(name=name, stats=stats, created=created, frames=len(table), kind=kind)


class RunningBaseline:
    """The neutral face of a stream that has no calibration: per-feature medians over the last
    ``window`` seconds of face features, rebuilt every ``rebuild_every`` seconds once ``min_span``
    seconds are seen (people talk or sit still most of the time, so the median is their neutral).

    It runs on every video frame, so each kept sample becomes a row of numbers once, when it arrives,
    and a rebuild is two column-wise medians of that matrix (~0.8 ms for 20 s of samples, where
    building it from the feature dicts each time cost ~7 ms, i.e. ~0.25 ms a frame at 30 fps).
    Timestamps going back mean a new stream: the samples are dropped.
    """

    def __init__(self, window: float = 20.0, min_span: float = 3.0, keep_every: int = 3,
                 rebuild_every: float = 1.0, quantiles: Mapping[str, float] | None = None) -> None:
        self.window = window
        self.min_span = min_span
        self.quantiles = dict(quantiles or {})
        """Features whose rest is one end of their range, not its middle: the quantile (0..1) that
        stands for their neutral value (e.g. the eyes' openness: at rest they are open, and every
        blink, squint or sign only closes them, so a face that squints half the time would otherwise
        take a half-closed eye for its neutral)."""
        self.keep_every = keep_every  # every third frame is plenty for a median over seconds
        self.rebuild_every = rebuild_every
        self.reset()

    def reset(self) -> None:
        self._samples: deque[tuple[float, Mapping[str, float], np.ndarray]] = deque()
        self._keys: list[str] = []
        self._key_set: frozenset[str] = frozenset()
        self._frames = 0
        self._built_at = -math.inf
        self._start: float | None = None

    def add(self, timestamp: float, features: Mapping[str, float]) -> Profile | None:
        """Feed one frame's face features; returns a freshly rebuilt profile, or None (no change)."""
        samples = self._samples
        if samples and timestamp < samples[-1][0]:
            self.reset()  # a new stream
            samples = self._samples
        if self._start is None:
            self._start = timestamp
        self._frames += 1
        if self._frames % self.keep_every == 0:
            if not features.keys() <= self._key_set:
                samples = self._rekey(features)
            nan = math.nan
            samples.append((timestamp, features,
                            np.array([features.get(k, nan) for k in self._keys], dtype=float)))
        while samples and timestamp - samples[0][0] > self.window:
            samples.popleft()
        return self._build(timestamp)

    def passes(self, timestamp: float) -> Profile | None:
        """A frame kept out of the baseline (it shows a sign): no sample, but the stream's time goes
        on. A sign made right after ``min_span`` seconds would otherwise keep the baseline from ever
        existing (its frames are not at rest) and wait for it in vain."""
        if self._samples and timestamp < self._samples[-1][0]:
            self.reset()
        if self._start is None or timestamp < self._start:
            self._start = timestamp
        return self._build(timestamp)

    def _build(self, timestamp: float) -> Profile | None:
        """A rebuilt profile once ``min_span`` seconds of rest are seen, or once the stream has lasted
        ``min_span`` with at least half of it at rest (the rest before a sign is the person's neutral)."""
        samples = self._samples
        if not samples or timestamp - self._built_at < self.rebuild_every:
            return None
        rest = samples[-1][0] - samples[0][0]
        lasted = timestamp - (self._start if self._start is not None else samples[0][0])
        if rest >= self.min_span or (lasted >= self.min_span and rest >= self.min_span / 2):
            self._built_at = timestamp
            table = np.stack([row for _, _, row in samples])
            profile = profile_from_table("running baseline", self._keys, table, kind="auto")
            if not self.quantiles:
                return profile
            stats = dict(profile.stats)
            for key, q in self.quantiles.items():
                if key in stats:
                    column = table[:, self._keys.index(key)]
                    with np.errstate(all="ignore"):
                        stats[key] = FeatureStat(float(np.nanquantile(column, q)), stats[key].spread)
            return Profile(profile.name, stats, profile.created, profile.frames, profile.kind)
        return None

    def _rekey(self, features: Mapping[str, float]) -> deque:
        """A new feature: one column per feature seen since the stream began (a frame without one
        has NaN there; a column with no number in the window is left out of the profile)."""
        self._keys = sorted(self._key_set.union(features))
        self._key_set = frozenset(self._keys)
        table = _table((f for _, f, _ in self._samples), self._keys)
        self._samples = deque((t, f, row) for (t, f, _), row in zip(self._samples, table, strict=False))
        return self._samples


@dataclass(slots=True)
class Calibrator:
    """Accumulates neutral frames for ``duration`` seconds of source time, then builds a Profile.

    Frames are timestamped by the source (never the wall clock). Frames where the face is missing are
    simply not added; ``min_frames`` guards against a profile built from a handful of frames.
    """

    name: str
    duration: float = 3.0
    min_frames: int = 15
    _samples: list[dict[str, float]] = field(default_factory=list)
    _start: float | None = None
    _last: float | None = None

    def add(self, features: Mapping[str, float], timestamp: float) -> None:
        if self._last is not None and timestamp < self._last:
            raise VisionError(
                f"calibration frame at {timestamp:.3f} s comes before the previous one ({self._last:.3f} s): "
                "timestamps must not go backwards"
            )
        if self._start is None:
            self._start = timestamp
        self._last = timestamp
        self._samples.append(dict(features))

    @property
    def frames(self) -> int:
        return len(self._samples)

    @property
    def progress(self) -> float:
        """0..1: how much of the calibration time has been seen."""
        if self._start is None or self._last is None or self.duration <= 0:
            return 0.0
        return min(1.0, (self._last - self._start) / self.duration)

    @property
    def done(self) -> bool:
        return self.progress >= 1.0 and self.frames >= self.min_frames

    def profile(self, created: str = "") -> Profile:
        if self.frames < self.min_frames:
            raise VisionError(
                f"calibration of {self.name!r} saw {self.frames} face frames, needs at least "
                f"{self.min_frames}: keep the face in view, relaxed, for {self.duration:g} s"
            )
        return profile_from_samples(self.name, self._samples, created=created)
