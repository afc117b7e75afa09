"""Frame sources: source-clock timestamps, the y4m writer/reader round trip, and every bad input."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from trainer.vision.sources import (
    FolderSource,
    ImageSource,
    VideoSource,
    Y4MSource,
    open_source,
    read_image,
    write_y4m,
)
from trainer.vision.types import VisionError


def _frames(n: int = 6, size: tuple[int, int] = (64, 48)) -> list[np.ndarray]:
    rng = np.random.default_rng(3)
    w, h = size
    frames = []
    for i in range(n):
        # Smooth content (4:2:0 keeps it almost exactly) with a moving bright square.
        base = np.full((h, w, 3), 40 + 20 * i, np.uint8)
        base[:, :, 1] = np.linspace(0, 255, w, dtype=np.uint8)[None, :]
        base[h // 4 : h // 2, i * 4 : i * 4 + 12] = (250, 250, 250)
        frames.append(cv2.GaussianBlur(base, (5, 5), 0) + rng.integers(0, 2, base.shape, dtype=np.uint8))
    return frames


def test_y4m_round_trip(tmp_path: Path):
    frames = _frames()
    path = tmp_path / "clip.y4m"
    assert write_y4m(frames, path, fps=25.0) == len(frames)
    assert path.read_bytes().startswith(b"YUV4MPEG2 W64 H48 F25:1 Ip A1:1 C420jpeg\n")
    with open_source(path) as source:
        assert isinstance(source, Y4MSource)
        assert source.info.fps == 25.0 and source.info.frame_count == 6 and source.info.size == (64, 48)
        back = list(source)
    assert [f.timestamp for f in back] == pytest.approx([i / 25.0 for i in range(6)])
    assert [f.index for f in back] == list(range(6))
    for original, decoded in zip(frames, back, strict=False):
        assert decoded.image.shape == original.shape
        assert np.abs(decoded.image.astype(int) - original).mean() < 3.0


def test_y4m_is_readable_by_opencv_too(tmp_path: Path):
    """The written clip is standard YUV4MPEG2 (what Chromium's fake camera plays): FFmpeg reads it."""
    path = tmp_path / "clip.y4m"
    write_y4m(_frames(), path, fps=30.0)
    capture = cv2.VideoCapture(str(path))
    ok, image = capture.read()
    capture.release()
    assert ok and image.shape == (48, 64, 3)


def test_y4m_odd_size_is_padded(tmp_path: Path):
    path = tmp_path / "odd.y4m"
    write_y4m(_frames(2, (35, 33)), path, fps=30000 / 1001)
    assert b"W36 H34 F30000:1001" in path.read_bytes()[:60]
    with open_source(path) as source:
        frames = list(source)
    assert frames[0].image.shape == (34, 36, 3)
    assert frames[1].timestamp == pytest.approx(1001 / 30000)


def test_y4m_mono_input(tmp_path: Path):
    path = tmp_path / "mono.y4m"
    w, h = 32, 24
    with open(path, "wb") as f:
        f.write(f"YUV4MPEG2 W{w} H{h} F10:1 Cmono\n".encode())
        for value in (10, 200):
            f.write(b"FRAME\n" + bytes([value]) * (w * h))
    with open_source(path) as source:
        frames = list(source)
    assert len(frames) == 2 and frames[1].timestamp == pytest.approx(0.1)
    assert abs(int(frames[1].image[0, 0, 0]) - 200) <= 2


def test_write_y4m_rejects_mixed_sizes_and_nothing(tmp_path: Path):
    with pytest.raises(VisionError, match="resize"):
        write_y4m([_frames(1, (64, 48))[0], _frames(1, (32, 24))[0]], tmp_path / "x.y4m")
    with pytest.raises(VisionError, match="no frames"):
        write_y4m([], tmp_path / "y.y4m")
    assert not (tmp_path / "y.y4m").exists()


def test_video_timestamps_come_from_the_clip(gestures_dir: Path):
    """GRID clip: 75 frames at 25 fps -> timestamps i / 25 (never the wall clock)."""
    with open_source(gestures_dir / "talking" / "grid_bbaf2n_talking.mpg") as source:
        assert isinstance(source, VideoSource)
        frames = list(source)
    assert len(frames) == 75
    assert frames[0].timestamp == 0.0
    assert frames[-1].timestamp == pytest.approx(74 / 25)
    assert all(b.timestamp > a.timestamp for a, b in zip(frames, frames[1:], strict=False))


def test_folder_source(tmp_path: Path):
    for i, image in enumerate(_frames(3)):
        cv2.imwrite(str(tmp_path / f"f{i:02d}.png"), image)
    (tmp_path / "notes.txt").write_text("not an image")
    with FolderSource(tmp_path, fps=10.0) as source:
        frames = list(source)
    assert [f.timestamp for f in frames] == pytest.approx([0.0, 0.1, 0.2])
    (tmp_path / "zz.jpg").write_text("a text file named .jpg")
    with pytest.raises(VisionError, match="zz.jpg"):
        list(FolderSource(tmp_path))
    skipping = FolderSource(tmp_path, skip_bad=True)
    assert len(list(skipping)) == 3 and skipping.skipped[0][0].name == "zz.jpg"


def test_still_image_and_grey_png(tmp_path: Path, gestures_dir: Path):
    with open_source(gestures_dir / "wink" / "yale_s01_wink_left.jpg") as source:
        assert isinstance(source, ImageSource) and source.info.is_still
        (frame,) = list(source)
    assert frame.image.ndim == 3 and frame.image.shape[2] == 3 and frame.timestamp == 0.0
    grey = tmp_path / "grey.png"
    cv2.imwrite(str(grey), np.full((40, 50), 128, np.uint8))
    assert read_image(grey).shape == (40, 50, 3)


def test_image_without_a_known_suffix_is_sniffed(tmp_path: Path, gestures_dir: Path):
    target = tmp_path / "photo.data"
    target.write_bytes((gestures_dir / "neutral" / "yale_s01_normal.jpg").read_bytes())
    with open_source(target) as source:
        assert isinstance(source, ImageSource)


@pytest.mark.parametrize(
    "name, content, message",
    [
        ("missing.jpg", None, "no such file"),
        ("empty.jpg", b"", "empty"),
        ("text.jpg", b"hello, I am a text file", "not an image this trainer reads"),
        ("broken.mp4", b"\x00\x00\x00\x18ftypmp42 not a real movie", "cannot be read as a video"),
        ("noise.avi", bytes(range(256)) * 10, "cannot be read as a video"),
        ("bad.y4m", b"JUNK89a not a y4m\n", "not a YUV4MPEG2"),
        ("noframes.y4m", b"YUV4MPEG2 W64 H48 F25:1\n", "no complete frame"),
        ("nosize.y4m", b"YUV4MPEG2 F25:1\nFRAME\n", "no frame size"),
        ("odd.y4m", b"YUV4MPEG2 W64 H48 C422\nFRAME\n", "not supported"),
    ],
)
def test_bad_inputs_name_the_path_and_the_way_out(tmp_path: Path, name, content, message):
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(VisionError, match=message) as error:
        open_source(path)
    assert str(path) in str(error.value)


def test_tiny_image_is_refused(tmp_path: Path):
    path = tmp_path / "one.png"
    cv2.imwrite(str(path), np.zeros((1, 1, 3), np.uint8))
    with pytest.raises(VisionError, match="1x1 pixels"):
        open_source(path)


def test_folder_and_webcam_errors(tmp_path: Path):
    with pytest.raises(VisionError, match="no images"):
        open_source(tmp_path)
    with pytest.raises(VisionError, match="webcam 7"):
        open_source("7")  # no camera on this machine or in CI


def test_png_with_a_broken_colour_profile_decodes_silently(gestures_dir: Path, tmp_path: Path):
    """A real PNG whose iCCP chunk made the libpng of OpenCV 4 print a warning on the process's stderr
    (through cv2.imread; OpenCV 5's does not): read_image gives the very same pixels and prints
    nothing, whichever OpenCV is installed; a truncated copy is still reported as undecodable."""
    import subprocess
    import sys

    photo = gestures_dir / "thumb" / "mps_thumbs_up.png"
    assert b"iCCP" in photo.read_bytes()[:4096]
    code = ("import sys, cv2, numpy as np; from trainer.vision.sources import read_image; "
            "a = read_image(sys.argv[1]); sys.stdout.write(str(a.shape)); sys.stdout.flush(); "
            "sys.stderr.write('|control|'); sys.stderr.flush(); "
            "b = cv2.imread(sys.argv[1]); sys.stdout.write(' ' + str(np.array_equal(a, b)))")
    repo = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", code, str(photo)], cwd=repo, capture_output=True, text=True,
                          check=False, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "(1280, 1920, 3) True"
    quiet, control = done.stderr.split("|control|")
    assert quiet == ""  # read_image printed nothing; cv2.imread (the control) may warn, OpenCV 4 did
    assert control.count("iCCP") <= 1
    truncated = tmp_path / "truncated.png"
    truncated.write_bytes(photo.read_bytes()[:3000])
    with pytest.raises(VisionError, match="cannot be decoded"):
        read_image(truncated)
