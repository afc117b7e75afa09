"""Limits on media input, checked before anything is decoded: bytes, pixels, and what a file really is.

A 1.5 MB PNG can declare 40000 x 40000 pixels (OpenCV then fails with ``cv2.error``, or at
20000 x 20000 decodes 1.2 GB of pixels and costs 4 GB of memory). So a still's width and height are
read from its header (PNG, JPEG, GIF, BMP, WebP, TIFF, PPM/PGM: a few bytes each, parsed here with
the standard library; Pillow would add a dependency for the same few bytes) and refused over
:data:`MAX_PIXELS` before OpenCV sees the file. Videos are checked on their frame size the same way
(y4m from its header, other formats from the demuxer before the first frame is decoded).

Also here: the byte limits, the "regular file" rule (``/dev/zero`` is not a photo) and content
sniffing (what the bytes say, not the name). Standard library only; errors are ``VisionError``.
"""

from __future__ import annotations

import os
import stat
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from trainer.vision.types import VisionError

MAX_PIXELS = 50_000_000
"""50 megapixels: more than any phone photo (a 48 MP sensor gives 8064 x 6048 = 48.8 MP)."""
MAX_IMAGE_BYTES = 100 * 1024 * 1024
"""A still is read whole into memory; a 50 MP JPEG is about 20 MB, an uncompressed one 150 MB."""
MAX_VIDEO_BYTES = 4 * 1024 ** 3
"""Clips are read a frame at a time (memory stays one frame), so the limit is about time: 4 GiB is
hours of phone video."""

IMAGE_KINDS = ("png", "jpeg", "gif", "bmp", "webp", "tiff", "pnm")


@dataclass(frozen=True, slots=True)
class ImageHeader:
    """What a still's first bytes say: its format and its size in pixels."""

    kind: str
    width: int
    height: int

    @property
    def pixels(self) -> int:
        return self.width * self.height


def check_regular_file(path: Path, what: str, limit: int) -> int:
    """The file's size in bytes, after refusing a missing, special (device, FIFO) or too large file."""
    try:
        info = path.stat()
    except FileNotFoundError:
        raise VisionError(f"{path}: no such file: check the path (expected {what})") from None
    except OSError as error:
        raise VisionError(f"{path}: cannot be read ({error.strerror}): check its permissions") from None
    if stat.S_ISDIR(info.st_mode):
        raise VisionError(f"{path}: is a folder, not {what}")
    if not stat.S_ISREG(info.st_mode):
        raise VisionError(f"{path}: is not a regular file (a device, pipe or socket): give {what} saved on disk")
    if info.st_size == 0:
        raise VisionError(f"{path}: the file is empty (0 bytes): give {what}")
    if info.st_size > limit:
        raise VisionError(
            f"{path}: {info.st_size / 1e6:.0f} MB is over the {limit / 1e6:.0f} MB limit for {what}: "
            "give a smaller file (a shorter clip, or a photo saved as JPEG)"
        )
    return info.st_size


def check_pixels(width: int, height: int, path: Path | str, what: str = "the image") -> None:
    """Refuse a frame over :data:`MAX_PIXELS` (or without a size) before it is decoded."""
    if width <= 0 or height <= 0:
        raise VisionError(f"{path}: {what} declares {width}x{height} pixels: the file is damaged")
    if width * height > MAX_PIXELS:
        raise VisionError(
            f"{path}: {what} is {width}x{height} pixels ({width * height / 1e6:.0f} megapixels), over the "
            f"{MAX_PIXELS / 1e6:.0f} megapixel limit: scale it down (a webcam frame is 640x480) and retry"
        )


def sniff(head: bytes) -> str | None:
    """The image format the first bytes announce, or None (then it is not a still we read)."""
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if head.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return "gif"
    if head.startswith(b"BM") and len(head) >= 26:
        return "bmp"
    if head.startswith(b"RIFF") and head[8:12] == b"WEBP":
        return "webp"
    if head[:4] in (b"II*\x00", b"MM\x00*"):
        return "tiff"
    if len(head) >= 3 and head[0:1] == b"P" and head[1:2] in b"123456" and head[2:3] in b" \t\r\n#":
        return "pnm"
    return None


def read_header(path: Path) -> ImageHeader:
    """Width and height from the file's header, without decoding it. VisionError when the bytes are
    not a still image this trainer reads, or its header is damaged."""
    with open(path, "rb") as handle:
        head = handle.read(64)
        kind = sniff(head)
        if kind is None:
            raise VisionError(
                f"{path}: not an image this trainer reads (its bytes are not {', '.join(IMAGE_KINDS)}): "
                "convert it to PNG or JPEG"
            )
        try:
            width, height = _READERS[kind](handle, head)
        except (struct.error, ValueError, IndexError, OSError):
            width = height = 0
        if width <= 0 or height <= 0:
            raise VisionError(f"{path}: the {kind.upper()} header is damaged (no image size): check the file "
                              "or save it again as PNG or JPEG")
    return ImageHeader(kind, width, height)


def _png(handle: BinaryIO, head: bytes) -> tuple[int, int]:
    if head[12:16] != b"IHDR":
        raise ValueError("no IHDR")
    return struct.unpack(">II", head[16:24])


_SOF = frozenset({0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF})


def _jpeg(handle: BinaryIO, head: bytes) -> tuple[int, int]:
    """Walk the marker segments (each says its length) to the first frame header (SOFn)."""
    handle.seek(2)
    for _ in range(4096):  # real files have a few dozen segments before the frame header
        byte = handle.read(1)
        if byte != b"\xff":
            raise ValueError("lost marker sync")
        marker = handle.read(1)
        while marker == b"\xff":  # fill bytes
            marker = handle.read(1)
        if not marker:
            raise ValueError("truncated")
        code = marker[0]
        if code == 0x01 or 0xD0 <= code <= 0xD8:
            continue  # markers without a length
        if code in (0xD9, 0xDA):
            raise ValueError("image data before any frame header")
        (length,) = struct.unpack(">H", handle.read(2))
        if length < 2:
            raise ValueError("bad segment length")
        if code in _SOF:
            data = handle.read(5)
            height, width = struct.unpack(">HH", data[1:5])
            return width, height
        handle.seek(length - 2, os.SEEK_CUR)
    raise ValueError("too many segments")


def _gif(handle: BinaryIO, head: bytes) -> tuple[int, int]:
    return struct.unpack("<HH", head[6:10])


def _bmp(handle: BinaryIO, head: bytes) -> tuple[int, int]:
    (dib,) = struct.unpack("<I", head[14:18])
    if dib == 12:  # OS/2 core header: 16-bit sizes
        return struct.unpack("<HH", head[18:22])
    width, height = struct.unpack("<ii", head[18:26])
    return width, abs(height)  # a negative height means rows stored top-down


def _webp(handle: BinaryIO, head: bytes) -> tuple[int, int]:
    chunk = head[12:16]
    if chunk == b"VP8 ":
        width, height = struct.unpack("<HH", head[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L":
        bits = int.from_bytes(head[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X":
        return int.from_bytes(head[24:27], "little") + 1, int.from_bytes(head[27:30], "little") + 1
    raise ValueError("unknown WebP chunk")


def _tiff(handle: BinaryIO, head: bytes) -> tuple[int, int]:
    order = "<" if head[:2] == b"II" else ">"
    (offset,) = struct.unpack(order + "I", head[4:8])
    handle.seek(offset)
    (count,) = struct.unpack(order + "H", handle.read(2))
    found: dict[int, int] = {}
    for _ in range(min(count, 512)):
        tag, kind, _n, raw = struct.unpack(order + "HHI4s", handle.read(12))
        if tag in (256, 257):
            found[tag] = struct.unpack(order + ("H" if kind == 3 else "I"), raw[: 2 if kind == 3 else 4])[0]
    return found.get(256, 0), found.get(257, 0)


def _pnm(handle: BinaryIO, head: bytes) -> tuple[int, int]:
    handle.seek(2)
    text = handle.read(1024)
    tokens: list[bytes] = []
    for line in text.splitlines():
        tokens += line.split(b"#", 1)[0].split()
        if len(tokens) >= 2:
            break
    return int(tokens[0]), int(tokens[1])


_READERS = {"png": _png, "jpeg": _jpeg, "gif": _gif, "bmp": _bmp, "webp": _webp, "tiff": _tiff, "pnm": _pnm}


def check_image(path: Path) -> ImageHeader:
    """Everything a still must pass before decoding: a regular file under the byte limit, bytes
    of an image format, and a declared size within the pixel budget."""
    check_regular_file(path, "an image (jpg, png, ...)", MAX_IMAGE_BYTES)
    header = read_header(path)
    check_pixels(header.width, header.height, path)
    return header
