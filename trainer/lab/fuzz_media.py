"""Fuzz the media input: corrupt images and clips must give a VisionError, never a traceback, a crash
or a memory blow-up.

    nice .venv/bin/python -m trainer.lab.fuzz_media --count 2000 --seed 1

Seeds are real photos of ``../shared/gestures`` (read at run time, never copied) re-encoded by
OpenCV as PNG, JPEG, BMP, WebP, TIFF and PPM, plus small clips written here (y4m, MJPEG AVI, MP4).
Each case mutates one seed: flipped bytes, truncation, overwritten or repeated ranges, a header
rewritten to declare a huge or zero size (PNG with a valid CRC, JPEG SOF, BMP, GIF, y4m), random
bytes behind a real magic number; the file name has the right suffix, a wrong one or none.

Every file goes through ``open_source`` and up to 5 frames are read, in a worker process (a crash
in a decoder kills the worker, is counted, and a new worker goes on with the next file). Prints
one JSON summary: counts of refused (VisionError) / read / traceback / crash, the exception types
seen, and the workers' peak resident memory. ``tests/vision/test_media_fuzz.py`` runs a seeded
sample of this.
"""

from __future__ import annotations

import argparse
import json
import random
import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

SUFFIXES = (".png", ".jpg", ".bmp", ".webp", ".tiff", ".ppm", ".gif", ".y4m", ".avi", ".mp4", ".mov", "", ".bin")


def seeds(shared: Path, folder: Path) -> list[Path]:
    """Small real files to mutate (written under ``folder``)."""
    import cv2
    import numpy as np

    from trainer.vision.sources import write_y4m

    folder.mkdir(parents=True, exist_ok=True)
    photos = sorted((shared / "gestures").glob("*/*.jpg"))[:3]
    if not photos:
        raise SystemExit(f"no photos under {shared}/gestures: set --shared")
    out: list[Path] = []
    for n, photo in enumerate(photos):
        read = cv2.imread(str(photo))
        if read is None:
            raise SystemExit(f"cannot read {photo}: a photo of the shared data is damaged")
        image = cv2.resize(read, (160, 120))
        for suffix in (".png", ".jpg", ".bmp", ".webp", ".tiff", ".ppm"):
            path = folder / f"seed{n}{suffix}"
            cv2.imwrite(str(path), image)
            out.append(path)
        frames = [np.roll(image, 4 * k, axis=1) for k in range(6)]
        clip = folder / f"seed{n}.y4m"
        write_y4m(frames, clip, fps=10)
        out.append(clip)
        for suffix, fourcc in ((".avi", "MJPG"), (".mp4", "mp4v")):
            path = folder / f"seed{n}{suffix}"
            writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*fourcc), 10, (160, 120))
            for frame in frames:
                writer.write(frame)
            writer.release()
            if path.exists() and path.stat().st_size:
                out.append(path)
    gif = folder / "seed.gif"
    gif.write_bytes(
        b"GIF89a" + struct.pack("<HH", 16, 16) + b"\x00\x00\x00" + b"\x2c" + b"\0" * 9 + b"\x02\x02\x44\x01\x00\x3b"
    )
    out.append(gif)
    return out


def _png_with_size(data: bytes, width: int, height: int) -> bytes:
    if not data.startswith(b"\x89PNG") or data[12:16] != b"IHDR":
        return data
    body = struct.pack(">II", width, height) + data[24:29]
    return data[:16] + body + struct.pack(">I", zlib.crc32(b"IHDR" + body)) + data[33:]


def _jpeg_with_size(data: bytes, width: int, height: int) -> bytes:
    at = 2
    for _ in range(64):
        if at + 9 > len(data) or data[at] != 0xFF:
            return data
        code = data[at + 1]
        length = struct.unpack(">H", data[at + 2:at + 4])[0]
        if code in (0xC0, 0xC1, 0xC2):
            return data[:at + 5] + struct.pack(">HH", height, width) + data[at + 9:]
        at += 2 + length
    return data


def _resized(data: bytes, rng: random.Random) -> bytes:
    width = rng.choice([0, 1, 65535, 40000, 20000, 8000, rng.randrange(1, 1 << 16), (1 << 31) - 1])
    height = rng.choice([0, 1, 65535, 40000, 20000, 6000, rng.randrange(1, 1 << 16)])
    if data.startswith(b"\x89PNG"):
        return _png_with_size(data, width, height)
    if data.startswith(b"\xff\xd8"):
        return _jpeg_with_size(data, width & 0xFFFF, height & 0xFFFF)
    if data.startswith(b"BM"):
        return data[:18] + struct.pack("<ii", width, -height if rng.random() < 0.5 else height) + data[26:]
    if data.startswith(b"GIF"):
        return data[:6] + struct.pack("<HH", width & 0xFFFF, height & 0xFFFF) + data[10:]
    if data.startswith(b"YUV4MPEG2"):
        line, _, rest = data.partition(b"\n")
        tokens = [t for t in line.split() if not t.startswith((b"W", b"H"))]
        return b" ".join(tokens[:1] + [b"W%d" % width, b"H%d" % height] + tokens[1:]) + b"\n" + rest
    return data


def mutate(data: bytes, rng: random.Random) -> bytes:
    choice = rng.randrange(7)
    buf = bytearray(data)
    if choice == 0 and buf:  # flipped bytes
        for _ in range(rng.randint(1, 30)):
            buf[rng.randrange(len(buf))] = rng.randrange(256)
    elif choice == 1:  # truncated
        del buf[rng.randrange(len(buf) + 1):]
    elif choice == 2 and buf:  # overwritten range
        start = rng.randrange(len(buf))
        end = min(len(buf), start + rng.randint(1, 4096))
        buf[start:end] = bytes(rng.randrange(256) for _ in range(end - start))
    elif choice == 3:  # a header declaring another size
        return _resized(data, rng)
    elif choice == 4:  # random bytes behind the real magic number
        return data[:16] + bytes(rng.randrange(256) for _ in range(rng.randint(0, 20000)))
    elif choice == 5 and buf:  # a repeated range
        start = rng.randrange(len(buf))
        piece = buf[start:start + rng.randint(1, 2048)]
        at = rng.randrange(len(buf))
        buf[at:at] = piece * rng.randint(1, 8)
    else:  # two mutations
        return mutate(mutate(data, rng), rng)
    return bytes(buf)


def make_cases(count: int, seed: int, shared: Path, folder: Path) -> list[Path]:
    rng = random.Random(seed)
    sources = seeds(shared, folder / "seeds")
    cases = folder / "cases"
    cases.mkdir()
    paths = []
    for n in range(count):
        base = rng.choice(sources)
        data = mutate(base.read_bytes(), rng)
        suffix = base.suffix if rng.random() < 0.6 else rng.choice(SUFFIXES)
        path = cases / f"case{n:05d}{suffix}"
        path.write_bytes(data)
        paths.append(path)
    return paths


_WORKER = r"""
import json, resource, sys, traceback
from trainer.vision.sources import open_source
from trainer.vision.types import VisionError
for line in open(sys.argv[2]).read().splitlines()[int(sys.argv[3]):]:
    path = line.strip()
    print(json.dumps({"start": path}), flush=True)
    try:
        with open_source(path) as source:
            for i, frame in enumerate(source):
                if i >= 4:
                    break
        outcome, detail = "read", ""
    except VisionError as error:
        outcome, detail = "refused", str(error)[:300]
    except BaseException as error:
        outcome, detail = "traceback", type(error).__name__ + ": " + str(error)[:300]
    # VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the parent across exec
    rss = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:"))
    print(json.dumps({"path": path, "outcome": outcome, "detail": detail, "rss_kib": rss}), flush=True)
"""


def run(paths: list[Path]) -> dict:
    """Feed ``paths`` to worker processes; restart a worker that dies, counting the crash."""
    counts = {"refused": 0, "read": 0, "traceback": 0, "crash": 0}
    details: list[dict] = []
    peak = 0
    todo = [str(p) for p in paths]
    listing = Path(tempfile.mkstemp(prefix="aluette-fuzz-", suffix=".txt")[1])
    listing.write_text("\n".join(todo) + "\n")
    offset = 0
    while offset < len(todo):
        worker = subprocess.Popen([sys.executable, "-c", _WORKER, str(REPO), str(listing), str(offset)],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=REPO)
        assert worker.stdout is not None
        current = None
        done = 0
        for line in worker.stdout:
            record = json.loads(line)
            if "start" in record:
                current = record["start"]
                continue
            current = None
            done += 1
            counts[record["outcome"]] += 1
            peak = max(peak, record["rss_kib"])
            if record["outcome"] == "traceback":
                details.append(record)
        worker.wait()
        offset += done
        if current is not None:  # the worker died on this file
            counts["crash"] += 1
            details.append({"path": current, "outcome": "crash", "detail": f"exit code {worker.returncode}"})
            offset += 1
        elif worker.returncode:
            raise SystemExit(f"the fuzz worker failed (exit code {worker.returncode}) before any file")
    listing.unlink()
    return {"files": len(paths), **counts, "peak_rss_mb": round(peak / 1024, 1), "problems": details[:20]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m trainer.lab.fuzz_media", description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="aluette-fuzz-") as folder:
        paths = make_cases(args.count, args.seed, args.shared, Path(folder))
        summary = run(paths)
    print(json.dumps(summary, indent=1))
    return 0 if summary["traceback"] == 0 and summary["crash"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
