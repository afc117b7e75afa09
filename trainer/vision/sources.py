"""Frame sources: webcam, video file, still image, folder of images and YUV4MPEG2 (``.y4m``) clips.

Every source yields ``Frame`` objects whose timestamps come from the source's own clock (the frame
index and the stream's frame rate, or the decoder's position), never from the wall clock, so a clip
gives the same events however fast it is processed. ``open_source(spec)`` picks the right source for a
webcam index, a path to a file or a folder.

``.y4m`` is what Chromium's fake camera plays (``--use-file-for-fake-video-capture``). OpenCV 4.11's
FFmpeg backend can neither write I420 y4m nor be relied on to read it everywhere, so this module
parses and writes YUV4MPEG2 itself with numpy (4:2:0 and mono inputs; 4:2:0 output).

Bad input (missing or empty file, a text file named .jpg, a 1x1 image, an unreadable video) raises
``VisionError`` naming the path and what to do. Must not import the rules engine, bots, quiz or UI.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import cv2
import numpy as np

from trainer.vision.media_limits import (
    MAX_PIXELS,
    MAX_VIDEO_BYTES,
    check_image,
    check_pixels,
    check_regular_file,
    sniff,
)
from trainer.vision.types import Frame, VisionError

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff", ".ppm", ".pgm"})
VIDEO_SUFFIXES = frozenset({".mp4", ".mpg", ".mpeg", ".avi", ".mov", ".mkv", ".webm", ".m4v", ".wmv"})
Y4M_SUFFIX = ".y4m"
MIN_SIDE = 16
"""Smaller images cannot hold a face or a hand MediaPipe would find."""
DEFAULT_FOLDER_FPS = 30.0


@dataclass(frozen=True, slots=True)
class SourceInfo:
    """What a source is: ``kind`` is one of image, folder, video, y4m, webcam."""

    name: str
    kind: str
    fps: float | None
    frame_count: int | None
    size: tuple[int, int] | None

    @property
    def is_still(self) -> bool:
        return self.kind == "image"


class FrameSource:
    """Base class: iterate to get frames; use as a context manager or call ``close()``."""

    info: SourceInfo

    def __iter__(self) -> Iterator[Frame]:  # pragma: no cover - abstract
        raise NotImplementedError

    def close(self) -> None:
        """Release the device or file; safe to call twice."""

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


# -- stills ----------------------------------------------------------------------------------------

def _check_file(path: Path, what: str, limit: int = MAX_VIDEO_BYTES) -> None:
    """A regular, non-empty file under ``limit`` bytes (see :mod:`trainer.vision.media_limits`)."""
    check_regular_file(path, what, limit)


def _check_size(image: np.ndarray, path: Path | str) -> None:
    height, width = image.shape[:2]
    if width < MIN_SIDE or height < MIN_SIDE:
        raise VisionError(
            f"{path}: image is {width}x{height} pixels, too small to hold a face or hand: "
            f"use an image at least {MIN_SIDE}x{MIN_SIDE} (a webcam frame is 640x480)"
        )


def read_image(path: str | Path) -> np.ndarray:
    """Decode a still into an H x W x 3 BGR uint8 array (grey and RGBA are converted)."""
    path = Path(path)
    # Bytes, real format and declared pixels are checked on the header, before decoding: a small
    # file can declare a frame of gigabytes.
    check_image(path)
    # imdecode from bytes also works with non-ASCII paths, which cv2.imread does not on every OS.
    data = _without_colour_profile(np.fromfile(str(path), dtype=np.uint8))
    try:
        image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    except cv2.error:
        image = None  # OpenCV's own limits and decoder failures: reported as a damaged file below
    if image is None:
        raise VisionError(
            f"{path}: cannot be decoded as an image (not a jpg/png/bmp/webp/tiff, or corrupt): "
            "check the file or convert it to PNG or JPEG"
        )
    _check_size(image, path)
    return image


_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _without_colour_profile(data: np.ndarray) -> np.ndarray:
    """A PNG's bytes without its iCCP chunks (other files unchanged). OpenCV ignores colour profiles
    anyway, but libpng prints "libpng warning: iCCP: known incorrect sRGB profile" straight to the
    process's stderr for the common broken one, in the middle of a command's output."""
    raw = data.tobytes()
    if not raw.startswith(_PNG_SIGNATURE) or b"iCCP" not in raw:
        return data
    kept, at = [raw[:8]], 8
    while at + 8 <= len(raw):
        length = int.from_bytes(raw[at:at + 4], "big")
        end = at + 12 + length  # length, type, data, CRC
        if end > len(raw):
            return data  # truncated: let the decoder report it as it would
        if raw[at + 4:at + 8] != b"iCCP":
            kept.append(raw[at:end])
        at = end
    kept.append(raw[at:])
    return np.frombuffer(b"".join(kept), dtype=np.uint8)


class ImageSource(FrameSource):
    """A single still; one frame at t=0."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._image = read_image(self.path)
        h, w = self._image.shape[:2]
        self.info = SourceInfo(str(self.path), "image", None, 1, (w, h))

    def __iter__(self) -> Iterator[Frame]:
        yield Frame(image=self._image, timestamp=0.0, index=0)


class FolderSource(FrameSource):
    """The images of a folder in name order, as frames at ``fps`` (their index / fps is the time).

    With ``skip_bad`` unreadable files are skipped and listed in ``skipped``; otherwise the first one
    raises VisionError.
    """

    def __init__(self, path: str | Path, fps: float = DEFAULT_FOLDER_FPS, skip_bad: bool = False) -> None:
        self.path = Path(path)
        if not self.path.is_dir():
            raise VisionError(f"{self.path}: not a folder: give a folder of images")
        if not fps > 0:
            raise VisionError(f"fps={fps} for folder {self.path}: must be > 0")
        self.files = sorted(
            p for p in self.path.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES
        )
        if not self.files:
            raise VisionError(
                f"{self.path}: no images in this folder (looked for {', '.join(sorted(IMAGE_SUFFIXES))})"
            )
        self.fps = float(fps)
        self.skip_bad = skip_bad
        self.skipped: list[tuple[Path, str]] = []
        self.info = SourceInfo(str(self.path), "folder", self.fps, len(self.files), None)

    def __iter__(self) -> Iterator[Frame]:
        index = 0
        for file in self.files:
            try:
                image = read_image(file)
            except VisionError as error:
                if not self.skip_bad:
                    raise
                self.skipped.append((file, str(error)))
                continue
            yield Frame(image=image, timestamp=index / self.fps, index=index)
            index += 1


# -- video through OpenCV ----------------------------------------------------------------------------

class _CaptureSource(FrameSource):
    """Shared reading loop of files and webcams through ``cv2.VideoCapture``."""

    _capture: cv2.VideoCapture | None
    _fps: float | None

    def __iter__(self) -> Iterator[Frame]:
        index = 0
        last_time = -math.inf
        while self._capture is not None:
            ok, image = self._capture.read()
            if not ok or image is None:
                break
            # Source clock: frame index / the stream's rate (deterministic; MPEG decoders report
            # positions with a start offset). Without a usable rate, the decoder's position.
            if self._fps:
                stamp = index / self._fps
            else:
                stamp = self._capture.get(cv2.CAP_PROP_POS_MSEC) / 1000.0
                if stamp <= last_time:
                    stamp = last_time + 1 / 30.0
            last_time = stamp
            if image.ndim == 2:
                image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
            yield Frame(image=image, timestamp=float(stamp), index=index)
            index += 1

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


class VideoSource(_CaptureSource):
    """A video file read by OpenCV (mp4, mpg, avi, ...)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        _check_file(self.path, "a video (mp4, mpg, avi, ...)")
        self._capture = cv2.VideoCapture(str(self.path))
        if self._capture.isOpened():
            # the demuxer knows the frame size before the first frame is decoded
            width = int(self._capture.get(cv2.CAP_PROP_FRAME_WIDTH) or 0)
            height = int(self._capture.get(cv2.CAP_PROP_FRAME_HEIGHT) or 0)
            if width > 0 and height > 0 and width * height > MAX_PIXELS:
                self._capture.release()
                check_pixels(width, height, self.path, "each frame of this video")
        try:
            ok, first = (self._capture.read() if self._capture.isOpened() else (False, None))
        except cv2.error:
            ok, first = False, None
        if not ok or first is None:
            self._capture.release()
            raise VisionError(
                f"{self.path}: cannot be read as a video (unknown format, corrupt or no frames): "
                "convert it to mp4 (H.264) or give a still image"
            )
        _check_size(first, self.path)
        # Reopen rather than seek back: seeking is imprecise on MPEG streams and drops frames.
        self._capture.release()
        self._capture = cv2.VideoCapture(str(self.path))
        fps = self._capture.get(cv2.CAP_PROP_FPS)
        self._fps = float(fps) if fps and math.isfinite(fps) and 1 <= fps <= 1000 else None
        count = int(self._capture.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        h, w = first.shape[:2]
        self.info = SourceInfo(str(self.path), "video", self._fps, count or None, (w, h))


class WebcamSource(_CaptureSource):
    """A camera by OpenCV index. Timestamps are the driver's buffer times when it gives them."""

    def __init__(self, index: int, size: tuple[int, int] | None = (640, 480)) -> None:
        self._capture = cv2.VideoCapture(int(index))
        if not self._capture.isOpened():
            self._capture.release()
            raise VisionError(
                f"webcam {index}: cannot be opened (no camera, or in use by another program): "
                "check the camera or give a video file instead"
            )
        if size is not None:
            self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        fps = self._capture.get(cv2.CAP_PROP_FPS)
        self._fps = float(fps) if fps and math.isfinite(fps) and fps >= 1 else 30.0
        self.info = SourceInfo(f"webcam:{index}", "webcam", self._fps, None, size)


# -- YUV4MPEG2 ---------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Y4MHeader:
    width: int
    height: int
    fps: Fraction
    colorspace: str

    @property
    def frame_bytes(self) -> int:
        if self.colorspace.startswith("420"):
            return self.width * self.height + 2 * (((self.width + 1) // 2) * ((self.height + 1) // 2))
        if self.colorspace == "mono":
            return self.width * self.height
        if self.colorspace == "444":
            return 3 * self.width * self.height
        raise VisionError(f"y4m colorspace C{self.colorspace} is not supported: use 420 (I420) or mono")


def _parse_y4m_header(line: bytes, path: Path) -> Y4MHeader:
    tokens = line.decode("ascii", errors="replace").split()
    if not tokens or tokens[0] != "YUV4MPEG2":
        raise VisionError(f"{path}: not a YUV4MPEG2 file (no 'YUV4MPEG2' header): give a valid .y4m clip")
    width = height = 0
    fps = Fraction(30, 1)
    colorspace = "420"
    for token in tokens[1:]:
        key, value = token[0], token[1:]
        try:
            if key == "W":
                width = int(value)
            elif key == "H":
                height = int(value)
            elif key == "F":
                num, den = value.split(":")
                if int(num) > 0 and int(den) > 0:
                    fps = Fraction(int(num), int(den))
            elif key == "C":
                colorspace = value
        except ValueError:
            raise VisionError(f"{path}: bad y4m header token {token!r}") from None
    if width <= 0 or height <= 0:
        raise VisionError(f"{path}: y4m header has no frame size (W.. H..): the file is damaged")
    if not (colorspace.startswith("420") or colorspace in ("mono", "444")):
        raise VisionError(
            f"{path}: y4m colorspace C{colorspace} is not supported: convert the clip to 4:2:0 (I420)"
        )
    return Y4MHeader(width, height, fps, colorspace)


class Y4MSource(FrameSource):
    """A YUV4MPEG2 clip; frame i is at i / F (the header's rate)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        _check_file(self.path, "a .y4m clip")
        self._file = open(self.path, "rb")  # noqa: SIM115 - closed in close()
        try:
            header_line = self._file.readline(4096)
            if not header_line.endswith(b"\n"):
                raise VisionError(f"{self.path}: not a YUV4MPEG2 file (no header line): give a valid .y4m clip")
            self.header = _parse_y4m_header(header_line, self.path)
        except VisionError:
            self._file.close()
            raise
        self._data_start = self._file.tell()
        if self.header.width * self.header.height > MAX_PIXELS:
            self._file.close()
            check_pixels(self.header.width, self.header.height, self.path, "each frame of this clip")
        if self.header.width < MIN_SIDE or self.header.height < MIN_SIDE:
            self._file.close()
            _check_size(np.zeros((self.header.height, self.header.width, 3), np.uint8), self.path)
        size = self.path.stat().st_size - self._data_start
        per_frame = self.header.frame_bytes + len(b"FRAME\n")
        count = size // per_frame
        if count == 0:
            self._file.close()
            raise VisionError(f"{self.path}: the y4m clip has a header but no complete frame")
        self.info = SourceInfo(
            str(self.path), "y4m", float(self.header.fps), int(count), (self.header.width, self.header.height)
        )

    def __iter__(self) -> Iterator[Frame]:
        if self._file is None or self._file.closed:
            return
        self._file.seek(self._data_start)
        index = 0
        while True:
            marker = self._file.readline(1024)
            if not marker:
                break
            if not marker.startswith(b"FRAME"):
                raise VisionError(f"{self.path}: frame {index} does not start with FRAME: the clip is damaged")
            data = self._file.read(self.header.frame_bytes)
            if len(data) < self.header.frame_bytes:
                break  # a truncated last frame is dropped, like players do
            yield Frame(image=_y4m_to_bgr(data, self.header), timestamp=float(index / self.header.fps), index=index)
            index += 1

    def close(self) -> None:
        if self._file is not None and not self._file.closed:
            self._file.close()


def _y4m_to_bgr(data: bytes, header: Y4MHeader) -> np.ndarray:
    w, h = header.width, header.height
    buf = np.frombuffer(data, dtype=np.uint8)
    if header.colorspace == "mono":
        return cv2.cvtColor(buf.reshape(h, w), cv2.COLOR_GRAY2BGR)
    if header.colorspace == "444":
        planes = buf.reshape(3, h, w).transpose(1, 2, 0)
        return cv2.cvtColor(np.ascontiguousarray(planes), cv2.COLOR_YUV2BGR)
    if w % 2 == 0 and h % 2 == 0:
        return cv2.cvtColor(buf.reshape(h * 3 // 2, w), cv2.COLOR_YUV2BGR_I420)
    # Odd sizes: upsample the chroma planes by hand.
    cw, ch = (w + 1) // 2, (h + 1) // 2
    y = buf[: w * h].reshape(h, w)
    u = buf[w * h : w * h + cw * ch].reshape(ch, cw).repeat(2, 0).repeat(2, 1)[:h, :w]
    v = buf[w * h + cw * ch :].reshape(ch, cw).repeat(2, 0).repeat(2, 1)[:h, :w]
    return cv2.cvtColor(np.dstack([y, u, v]), cv2.COLOR_YUV2BGR)


def write_y4m(frames: Iterable[np.ndarray | Frame], path: str | Path, fps: float = 30.0) -> int:
    """Write BGR frames as an I420 (``C420jpeg``) YUV4MPEG2 clip, the format Chromium's fake camera
    plays. Odd widths or heights are padded by repeating the last column/row (4:2:0 needs even
    sizes). All frames must have the first frame's size. Returns the number of frames written."""
    path = Path(path)
    if not fps > 0:
        raise VisionError(f"fps={fps}: must be > 0")
    rate = Fraction(fps).limit_denominator(1001)
    count = 0
    size: tuple[int, int] | None = None
    with open(path, "wb") as out:
        for item in frames:
            image = item.image if isinstance(item, Frame) else item
            if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim not in (2, 3):
                raise VisionError(f"write_y4m({path}): frame {count} is not a uint8 image")
            if image.ndim == 2:
                image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
            h, w = image.shape[:2]
            if size is None:
                size = (w, h)
                even_w, even_h = w + (w % 2), h + (h % 2)
                out.write(
                    f"YUV4MPEG2 W{even_w} H{even_h} F{rate.numerator}:{rate.denominator} Ip A1:1 C420jpeg\n".encode()
                )
            elif (w, h) != size:
                raise VisionError(
                    f"write_y4m({path}): frame {count} is {w}x{h} but the clip is {size[0]}x{size[1]}: "
                    "resize every frame to one size"
                )
            if w % 2 or h % 2:
                image = cv2.copyMakeBorder(image, 0, h % 2, 0, w % 2, cv2.BORDER_REPLICATE)
            out.write(b"FRAME\n")
            out.write(cv2.cvtColor(image, cv2.COLOR_BGR2YUV_I420).tobytes())
            count += 1
    if count == 0:
        path.unlink(missing_ok=True)
        raise VisionError(f"write_y4m({path}): no frames given")
    return count


# -- dispatch ----------------------------------------------------------------------------------------

def _head(path: Path, size: int = 64) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read(size)
    except OSError as error:
        raise VisionError(f"{path}: cannot be read ({error.strerror}): check its permissions") from None


def _sniff_image(path: Path) -> bool:
    return sniff(_head(path)) is not None


def media_kind(path: str | Path) -> str | None:
    """What the bytes of ``path`` are, whatever its name: ``"image"``, ``"y4m"``, ``"video"`` (a
    container OpenCV's FFmpeg reads: MP4/MOV, Matroska/WebM, AVI, MPEG, ASF/WMV, FLV) or None."""
    head = _head(Path(path), 512)
    if sniff(head) is not None:
        return "image"
    if head.startswith(b"YUV4MPEG2"):
        return "y4m"
    if (head[4:8] == b"ftyp" or head.startswith(b"\x1a\x45\xdf\xa3")
            or (head.startswith(b"RIFF") and head[8:12] == b"AVI ")
            or head.startswith((b"\x00\x00\x01\xba", b"\x00\x00\x01\xb3", b"FLV\x01"))
            or head.startswith(b"\x30\x26\xb2\x75\x8e\x66\xcf\x11")
            or (len(head) > 376 and head[0] == head[188] == head[376] == 0x47)):  # MPEG-TS packets
        return "video"
    return None


def open_source(spec: str | int | Path, *, folder_fps: float = DEFAULT_FOLDER_FPS) -> FrameSource:
    """A source for ``spec``: an int, or a digit string that is not an existing path, is a webcam
    index; a folder is a folder of images; a file is opened as what its bytes say (a still, a
    ``.y4m`` clip), else by its suffix, else tried as a video."""
    if isinstance(spec, int) or (isinstance(spec, str) and spec.strip().isdigit() and not Path(spec).exists()):
        return WebcamSource(int(spec))
    path = Path(spec)
    if path.is_dir():
        return FolderSource(path, fps=folder_fps)
    _check_file(path, "an image or a video")
    kind = media_kind(path)
    if kind == "image":
        return ImageSource(path)
    if kind == "y4m":
        return Y4MSource(path)
    suffix = path.suffix.lower()
    if kind is None and suffix == Y4M_SUFFIX:
        return Y4MSource(path)  # reports the missing header
    if kind is None and suffix in IMAGE_SUFFIXES:
        return ImageSource(path)  # reports what is wrong with the image
    return VideoSource(path)


def is_still(path: str | Path) -> bool:
    """Whether ``path`` opens as one still image (``open_source`` reads it, and names what is wrong)."""
    with open_source(path) as source:
        return source.info.is_still
