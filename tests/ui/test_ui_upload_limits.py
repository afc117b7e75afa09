"""Uploads: typed by their bytes, capped in size, saved under a safe name, and every failure of the
analysis is an UploadError (a message on the page), never another exception."""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

import pytest

from trainer.ui import recognition, uploads


@dataclass
class Upload:
    """What Streamlit's UploadedFile offers the page."""

    name: str
    data: bytes

    @property
    def size(self) -> int:
        return len(self.data)

    def getvalue(self) -> bytes:
        return self.data


def _bomb_png(side: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 4096)) + chunk(b"IEND",
                                                                                                             b"")


def test_a_text_file_named_jpg_is_refused_by_its_content(tmp_path: Path):
    with pytest.raises(uploads.UploadError, match="its content is not a photo"):
        uploads.save_upload(Upload("me.jpg", b"hello, I am text"), tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_a_photo_named_mp4_is_accepted_by_its_content(tmp_path: Path, gestures_dir: Path):
    photo = (gestures_dir / "neutral" / "ckplus_S014_neutral.jpg").read_bytes()
    path = uploads.save_upload(Upload("clip.mp4", photo), tmp_path)
    assert path.read_bytes() == photo


def test_size_cap_and_safe_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(uploads, "MAX_UPLOAD_BYTES", 1000)
    with pytest.raises(uploads.UploadError, match="over the"):
        uploads.save_upload(Upload("big.png", b"\x89PNG\r\n\x1a\n" + b"\0" * 2000), tmp_path)
    with pytest.raises(uploads.UploadError, match="empty"):
        uploads.save_upload(Upload("none.png", b""), tmp_path)
    assert uploads.safe_name("../../etc/passwd") == "passwd"
    assert uploads.safe_name("..") == "upload"
    assert uploads.safe_name("a b;c.png") == "a_b_c.png"


@pytest.mark.vision
def test_a_pixel_bomb_upload_is_a_message(tmp_path: Path):
    with pytest.raises(uploads.UploadError, match="megapixel limit") as error:
        uploads.analyse_upload(Upload("bomb.png", _bomb_png(40000)))
    assert "bomb.png" in str(error.value) and "/tmp" not in str(error.value)


def test_an_unexpected_failure_is_a_message_with_details_in_the_terminal(
        gestures_dir: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture):
    def broken(path, profile=None):
        raise RuntimeError("decoder exploded")

    monkeypatch.setattr(recognition, "analyse_file", broken)
    photo = (gestures_dir / "neutral" / "ckplus_S014_neutral.jpg").read_bytes()
    with pytest.raises(uploads.UploadError, match=r"could not be analysed \(RuntimeError; details in the terminal\)"):
        uploads.analyse_upload(Upload("me.jpg", photo))
    assert "decoder exploded" in caplog.text
