"""Media limits: sizes read from headers match what OpenCV decodes, hostile files are refused before
decoding with a clear error, special files and byte limits, and a digit name is a file when it is one."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from trainer.vision import media_limits
from trainer.vision.media_limits import MAX_PIXELS, read_header, sniff
from trainer.vision.sources import ImageSource, media_kind, open_source, read_image
from trainer.vision.types import VisionError

REPO = Path(__file__).resolve().parents[2]


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def huge_png(width: int, height: int) -> bytes:
    """A valid PNG header declaring ``width`` x ``height`` grey pixels, with a tiny compressed body
    (zeros compress 1000:1), as a hostile upload would be."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    rows = zlib.compress(b"\0" * (1 + width) * 64, 9)  # the first 64 rows; the rest missing
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", rows) + _chunk(b"IEND", b"")


def with_jpeg_size(data: bytes, width: int, height: int) -> bytes:
    """A real JPEG whose frame header (SOF) is rewritten to declare another size."""
    at = 2
    while True:
        assert data[at] == 0xFF
        code = data[at + 1]
        length = struct.unpack(">H", data[at + 2:at + 4])[0]
        if code in (0xC0, 0xC1, 0xC2):
            return data[:at + 5] + struct.pack(">HH", height, width) + data[at + 9:]
        at += 2 + length


@pytest.mark.parametrize("suffix", [".png", ".jpg", ".bmp", ".webp", ".tiff", ".ppm", ".pgm"])
def test_header_sizes_match_what_opencv_decodes(tmp_path: Path, suffix: str):
    image = np.random.default_rng(1).integers(0, 255, (77, 123, 3), dtype=np.uint8)
    path = tmp_path / f"a{suffix}"
    if suffix == ".pgm":
        image = image[:, :, 0]
    assert cv2.imwrite(str(path), image)
    header = read_header(path)
    decoded = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    assert (header.width, header.height) == (decoded.shape[1], decoded.shape[0]) == (123, 77)


def test_gif_and_os2_bmp_headers():
    gif = b"GIF89a" + struct.pack("<HH", 640, 480) + b"\0" * 10
    assert sniff(gif) == "gif"
    assert media_limits._gif(None, gif) == (640, 480)
    os2 = b"BM" + b"\0" * 12 + struct.pack("<I", 12) + struct.pack("<HH", 300, 200) + b"\0" * 10
    assert media_limits._bmp(None, os2) == (300, 200)


def test_real_photos_headers_match_their_decoded_size(gestures_dir: Path):
    photos = sorted(gestures_dir.glob("*/*.jpg"))[:40] + sorted(gestures_dir.glob("*/*.png"))[:10]
    assert len(photos) >= 20
    for photo in photos:
        header = read_header(photo)
        decoded = cv2.imread(str(photo), cv2.IMREAD_COLOR)
        assert (header.width, header.height) == (decoded.shape[1], decoded.shape[0]), photo


def test_a_40000_pixel_square_png_is_refused_before_decoding(tmp_path: Path):
    path = tmp_path / "bomb.png"
    path.write_bytes(huge_png(40000, 40000))
    assert path.stat().st_size < 100_000
    with pytest.raises(VisionError, match="over the 50 megapixel limit") as error:
        open_source(path)
    assert str(path) in str(error.value) and "40000x40000" in str(error.value)


def test_a_20000_pixel_square_png_costs_no_memory(tmp_path: Path):
    """Before: 3.9 GB and 35 s. Peak resident memory of a fresh process reading it must stay small."""
    path = tmp_path / "bomb.png"
    path.write_bytes(huge_png(20000, 20000))
    code = (
        "import resource, sys\n"
        "from trainer.vision.sources import read_image\n"
        "from trainer.vision.types import VisionError\n"
        "try:\n    read_image(sys.argv[1])\nexcept VisionError as e:\n    print('refused', e)\n"
        "print(next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM:')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=120)
    lines = done.stdout.strip().splitlines()
    assert lines[0].startswith("refused") and "megapixel" in lines[0], done.stderr
    assert int(lines[-1]) < 400_000  # KiB: numpy + OpenCV imported, no frame


def test_a_jpeg_declaring_a_huge_frame_is_refused(tmp_path: Path, gestures_dir: Path):
    real = (gestures_dir / "neutral" / "ckplus_S014_neutral.jpg").read_bytes()
    path = tmp_path / "liar.jpg"
    path.write_bytes(with_jpeg_size(real, 30000, 30000))
    with pytest.raises(VisionError, match="30000x30000"):
        read_image(path)


def test_a_y4m_clip_with_huge_frames_is_refused_before_reading_one(tmp_path: Path):
    path = tmp_path / "huge.y4m"
    path.write_bytes(b"YUV4MPEG2 W40000 H40000 F30:1 C420jpeg\nFRAME\n" + b"\0" * 1000)
    with pytest.raises(VisionError, match="each frame of this clip is 40000x40000"):
        open_source(path)


def test_a_video_with_frames_over_the_budget_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """OpenCV's writers stop far below 50 MP, so lower the budget instead: a 320x240 clip against a
    budget of 50,000 pixels, refused from the demuxer's size before a frame is decoded."""
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (320, 240))
    for _ in range(3):
        writer.write(np.full((240, 320, 3), 128, np.uint8))
    writer.release()
    import trainer.vision.sources as sources

    monkeypatch.setattr(sources, "MAX_PIXELS", 50_000)
    monkeypatch.setattr(media_limits, "MAX_PIXELS", 50_000)
    with pytest.raises(VisionError, match="each frame of this video is 320x240"):
        open_source(path)


def test_special_files_are_refused(tmp_path: Path):
    with pytest.raises(VisionError, match="not a regular file"):
        open_source("/dev/zero")
    fifo = tmp_path / "pipe.png"
    os.mkfifo(fifo)
    with pytest.raises(VisionError, match="not a regular file"):
        open_source(fifo)


def test_the_byte_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    path = tmp_path / "photo.png"
    cv2.imwrite(str(path), np.random.default_rng(0).integers(0, 255, (100, 100, 3), dtype=np.uint8))
    read_image(path)
    monkeypatch.setattr(media_limits, "MAX_IMAGE_BYTES", path.stat().st_size - 1)
    with pytest.raises(VisionError, match="MB limit for an image"):
        read_image(path)


def test_types_come_from_the_bytes_not_the_name(tmp_path: Path, gestures_dir: Path):
    photo = tmp_path / "photo.mp4"
    photo.write_bytes((gestures_dir / "neutral" / "ckplus_S014_neutral.jpg").read_bytes())
    assert media_kind(photo) == "image"
    with open_source(photo) as source:
        assert isinstance(source, ImageSource)
    clip = next(gestures_dir.glob("*/*.mp4"))
    assert media_kind(clip) == "video"
    text = tmp_path / "notes.png"
    text.write_text("hello")
    assert media_kind(text) is None


def test_a_file_named_0_is_a_file_not_the_webcam(tmp_path: Path, gestures_dir: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "0").write_bytes((gestures_dir / "neutral" / "ckplus_S014_neutral.jpg").read_bytes())
    with open_source("0") as source:
        assert isinstance(source, ImageSource)


@pytest.mark.vision
def test_recognize_reports_each_bad_path_and_still_runs_the_others(tmp_path: Path, gestures_dir: Path):
    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(huge_png(40000, 40000))
    good = gestures_dir / "neutral" / "ckplus_S014_neutral.jpg"
    command = [sys.executable, "-m", "trainer.cli", "recognize", str(bomb), "/dev/zero", str(good), "--json"]
    done = subprocess.run(command,
                          cwd=REPO, capture_output=True, text=True, timeout=240)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 1
    assert f"{bomb}: " in done.stderr and "megapixel limit" in done.stderr
    assert "/dev/zero: is not a regular file" in done.stderr
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    assert len(lines) == 3 and str(good) in lines[2] and '"error"' not in lines[2]
    assert MAX_PIXELS == 50_000_000
