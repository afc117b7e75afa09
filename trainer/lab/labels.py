"""Ground truth of a labelled gesture folder: which gestures each still shows, which ones it may show.

The folder name is a file's label (``wink/…jpg`` shows a wink); ``MANIFEST.tsv`` notes add what else a
still carries. An explicit ``also X`` or ``+ X`` in the notes makes X a second true gesture (a Yale
"surprised" face is brows_up AND mouth_open); a mere mention (``mouth slightly open``, ``smirk``,
``blink``) makes X *don't care*: firing it is neither right nor wrong. Left/right in the notes are the
subject's own. Shared by the evaluation and the threshold tuner. Standard library and
``trainer.signals.gestures`` only.

A **review file** (``samples/gestures_review.tsv``, rows ``file, gesture, verdict, reason``) adds what
the MANIFEST does not say but the photo visibly shows: ``dont_care`` (e.g. the raised brows in every
face of the lp_d6 funny-face video) or ``present``/``absent``. Each row was checked by eye and says why;
``read_labels(folder, review=None)`` ignores it (``aluette eval-vision --no-review``).
"""

from __future__ import annotations

import csv
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from trainer.signals.gestures import Gesture, Side
from trainer.vision.types import VisionError

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".webp"})
VIDEO_SUFFIXES = frozenset({".mp4", ".mpg", ".mpeg", ".avi", ".mov", ".mkv", ".webm", ".y4m"})

# Folder labels that are not gestures: the look-alikes and the baselines (true negatives).
NEGATIVE_LABELS = frozenset(
    {"neutral", "smile", "talking", "open_palm", "fist", "other", "shrug_baseline"}
)

CLIP_LABELS = ("talking", "neutral")
"""Folder labels of the clips that show no sign (every event on them is false)."""

# "also X" / "+ X" phrases that make X a second true gesture of the still.
_ALSO = (
    (re.compile(r"mouth[_ ]open|open mouth"), Gesture.MOUTH_OPEN),
    (re.compile(r"brows (up|raised)"), Gesture.BROWS_UP),
    (re.compile(r"eyes closed"), Gesture.EYES_CLOSED),
    (re.compile(r"grimace"), Gesture.GRIMACE),
    (re.compile(r"wink"), Gesture.WINK),
    (re.compile(r"tongue out"), Gesture.TONGUE_OUT),
    (re.compile(r"lips pursed|pursed lips"), Gesture.POUT),
    (re.compile(r"smirk|mouth twist"), Gesture.LIP_CORNER),
)
_ALSO_CLAUSE = re.compile(r"(?:\balso (?:counts as )?|\+ ?)([a-z_ -]+)")
# Mentions anywhere in the notes that make a gesture "don't care" for that still.
_MENTION = (
    (re.compile(r"mouth (slightly )?open|open mouth|lips slightly parted|oh-mouth"), Gesture.MOUTH_OPEN),
    (re.compile(r"smirk|one-sided|mouth twist|mouth pull|one corner"), Gesture.LIP_CORNER),
    (re.compile(r"tilt|rolled"), Gesture.HEAD_TILT),
    (re.compile(r"blink|eyes closed|squint|eyes squeezed"), Gesture.EYES_CLOSED),
    (re.compile(r"eyes? (closed|squeezed)|slit"), Gesture.WINK),
    (re.compile(r"pursed|pucker"), Gesture.POUT),
    (re.compile(r"brows (up|raised)|surprise"), Gesture.BROWS_UP),
    (re.compile(r"looking up|eyes up"), Gesture.LOOK_UP),
)
# A tongue stuck out opens the mouth, so mouth_open may fire on those stills.
_IMPLIED_DONT_CARE = {Gesture.TONGUE_OUT: frozenset({Gesture.MOUTH_OPEN})}
_SIDE = re.compile(r"subject (LEFT|RIGHT)")


@dataclass(frozen=True, slots=True)
class LabelledFile:
    """One labelled file: its path relative to the folder, folder label and what it shows."""

    file: str
    label: str
    positives: frozenset[Gesture]
    dont_care: frozenset[Gesture]
    side: Side | None = None
    notes: str = ""

    @property
    def is_video(self) -> bool:
        return Path(self.file).suffix.lower() in VIDEO_SUFFIXES

    def truth(self, gesture: Gesture) -> bool | None:
        """True if the file shows the gesture, False if it does not, None if either is fine."""
        if gesture in self.positives:
            return True
        if gesture in self.dont_care:
            return None
        return False


def label_file(file: str, label: str, notes: str = "") -> LabelledFile:
    """Ground truth of one file from its folder label and its MANIFEST notes (see module doc)."""
    positives: set[Gesture] = set()
    try:
        positives.add(Gesture(label))
    except ValueError:
        pass  # a negative folder (neutral, smile, talking...)
    text = notes.lower()
    for clause in _ALSO_CLAUSE.findall(text):
        for pattern, gesture in _ALSO:
            if pattern.search(clause):
                positives.add(gesture)
    dont_care: set[Gesture] = set()
    for pattern, gesture in _MENTION:
        if pattern.search(text):
            dont_care.add(gesture)
    for gesture in list(positives):
        dont_care |= _IMPLIED_DONT_CARE.get(gesture, frozenset())
    match = _SIDE.search(notes)
    side = Side(match.group(1).lower()) if match and Gesture.WINK in positives else None
    return LabelledFile(
        file=file,
        label=label,
        positives=frozenset(positives),
        dont_care=frozenset(dont_care - positives),
        side=side,
        notes=notes,
    )


def read_persons(folder: Path | str) -> dict[str, str]:
    """``file -> person`` from the MANIFEST's ``person`` column (a file without one is its own person:
    held out alone). Empty without a MANIFEST."""
    manifest = Path(folder) / "MANIFEST.tsv"
    if not manifest.is_file():
        return {}
    with manifest.open(newline="", encoding="utf-8") as handle:
        return {row.get("file", ""): (row.get("person") or row.get("file", ""))
                for row in csv.DictReader(handle, delimiter="\t")}


DEFAULT_REVIEW = Path(__file__).resolve().parents[2] / "samples" / "gestures_review.tsv"
REVIEW_VERDICTS = ("dont_care", "present", "absent")


@dataclass(frozen=True, slots=True)
class Review:
    """One reviewed label: ``verdict`` on ``gesture`` for ``file`` (relative to the labelled folder)."""

    file: str
    gesture: Gesture
    verdict: str
    reason: str


def read_review(path: Path | str) -> list[Review]:
    """The rows of a review file (``#`` lines are comments). Raises VisionError naming a bad row."""
    source = Path(path)
    try:
        lines = source.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise VisionError(f"label review {source} unreadable ({error}): fix the path or pass review=None") from None
    rows = [line for line in lines if line.strip() and not line.startswith("#")]
    out = []
    for number, row in enumerate(csv.DictReader(rows, delimiter="\t"), start=2):
        try:
            gesture = Gesture(row.get("gesture") or "")
        except ValueError:
            raise VisionError(f"label review {source}, row {number}: unknown gesture {row.get('gesture')!r}") from None
        verdict = row.get("verdict") or ""
        if verdict not in REVIEW_VERDICTS or not row.get("file") or not (row.get("reason") or "").strip():
            raise VisionError(
                f"label review {source}, row {number}: needs a file, a verdict in {REVIEW_VERDICTS} and a reason"
            )
        out.append(Review(row["file"], gesture, verdict, row["reason"].strip()))
    return out


def apply_review(item: LabelledFile, reviews: list[Review]) -> LabelledFile:
    """``item`` with the reviewed verdicts on its gestures applied (the review wins over the notes)."""
    positives, dont_care = set(item.positives), set(item.dont_care)
    for review in reviews:
        positives.discard(review.gesture)
        dont_care.discard(review.gesture)
        if review.verdict == "present":
            positives.add(review.gesture)
        elif review.verdict == "dont_care":
            dont_care.add(review.gesture)
    return LabelledFile(item.file, item.label, frozenset(positives), frozenset(dont_care), item.side, item.notes)


def review_in_use(review: Path | str | None) -> Path | None:
    """The review file that will be applied: None for none, or for the default when it is absent."""
    if review is None or (Path(review) == DEFAULT_REVIEW and not DEFAULT_REVIEW.is_file()):
        return None
    return Path(review)


def read_labels(folder: Path | str, review: Path | str | None = DEFAULT_REVIEW) -> list[LabelledFile]:
    """Every image or clip under ``folder``, labelled by its sub-folder and MANIFEST.tsv notes.

    Without a MANIFEST the folder names alone are the labels. ``review`` (the repository's reviewed
    labels by default; None for the MANIFEST alone) applies to the files it names; a missing default
    review file is skipped. Raises VisionError if the folder is missing or holds no labelled file.
    """
    root = Path(folder)
    if not root.is_dir():
        raise VisionError(f"labelled folder {root} does not exist: give a folder whose sub-folders are labels")
    notes: dict[str, str] = {}
    manifest = root / "MANIFEST.tsv"
    if manifest.is_file():
        with manifest.open(newline="", encoding="utf-8") as handle:
            for row in csv.DictReader(handle, delimiter="\t"):
                notes[row.get("file", "")] = row.get("notes", "") or ""
    out = []
    for path in sorted(root.rglob("*")):
        suffix = path.suffix.lower()
        if not path.is_file() or suffix not in IMAGE_SUFFIXES | VIDEO_SUFFIXES:
            continue
        rel = path.relative_to(root).as_posix()
        if "/" not in rel:
            continue  # files at the top have no label
        label = rel.split("/", 1)[0]
        out.append(label_file(rel, label, notes.get(rel, "")))
    if not out:
        raise VisionError(
            f"no labelled image or clip under {root}: put files in sub-folders named after the gesture"
        )
    review = review_in_use(review)
    if review is None:
        return out
    by_file: dict[str, list[Review]] = {}
    for reviewed in read_review(review):
        by_file.setdefault(reviewed.file, []).append(reviewed)
    return [apply_review(item, by_file[item.file]) if item.file in by_file else item for item in out]


def talking_clips(folder: Path | str) -> list[str]:
    """The clips of ``folder`` labelled talking or neutral (``CLIP_LABELS``), reviewed labels applied."""
    return [item.file for item in read_labels(folder) if item.is_video and item.label in CLIP_LABELS]


def labelled_stills(gestures: Path):
    """(labelled file, BGR image) for every readable still of the folder; unreadable ones are named
    on stderr. Read as the product reads them (``read_image``: the same pixels as cv2.imread, and no
    libpng warning on stderr)."""
    from trainer.vision.sources import read_image  # noqa: PLC0415 - OpenCV only when stills are read

    for item in read_labels(gestures):
        if Path(item.file).suffix.lower() not in IMAGE_SUFFIXES:
            continue
        try:
            image = read_image(gestures / item.file)
        except VisionError as error:
            print(f"  skipped unreadable {item.file}: {error}", file=sys.stderr)
            continue
        yield item, image


if __name__ == "__main__":
    from trainer.lab.tool import library_main

    raise SystemExit(library_main("labels", __doc__))
