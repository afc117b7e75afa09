"""Reading JSON a user hands us, with limits: a size cap (``aluette replay /dev/zero`` used to read
1.9 GB before a MemoryError) and a nesting cap (``[[[[...]]]]`` used to end in RecursionError).

Standard library only. Callers pass the error class of their layer, so a bad replay file is still a
``ReplayError`` and a bad save a ``SaveFormatError``, each naming the file and what to do.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

MAX_DEPTH = 64
"""Replay files nest 3 deep, saved games 5; 64 leaves room and stays far from Python's stack."""

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKET = re.compile(r"[\[\]{}]")


def nesting(text: str) -> int:
    """How deep the arrays and objects of a JSON text nest (brackets inside strings do not count)."""
    deepest = depth = 0
    for bracket in _BRACKET.findall(_STRING.sub("", text)):
        if bracket in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def loads(text: str, *, what: str, max_bytes: int, error: type[ValueError], max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads`` for text from outside: ``error`` for too long, too deep or invalid JSON."""
    if len(text) > max_bytes:
        raise error(f"{what} is {len(text):,} characters, over the {max_bytes:,} limit: it is not a file "
                    "this program wrote; check that you gave the right file")
    depth = nesting(text)
    if depth > max_depth:
        raise error(f"{what} nests {depth} levels deep, over the limit of {max_depth}: it is not a file this "
                    "program wrote; check that you gave the right file")
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError) as problem:
        raise error(f"{what} is not valid JSON: {problem}") from None


def read_text(path: str | os.PathLike[str], *, what: str, max_bytes: int, error: type[ValueError]) -> str:
    """The UTF-8 text of ``path``, read no further than ``max_bytes`` + 1 (so ``/dev/zero`` or a
    huge file is refused after reading the limit, not after filling memory)."""
    target = Path(path)
    try:
        with open(target, "rb") as handle:
            data = handle.read(max_bytes + 1)
    except FileNotFoundError:
        raise error(f"{what} {str(path)!r} does not exist") from None
    except IsADirectoryError:
        raise error(f"{what} {str(path)!r} is a folder: give a file") from None
    except OSError as problem:
        raise error(f"cannot read {what} {str(path)!r}: {problem.strerror}") from None
    if len(data) > max_bytes:
        raise error(f"{what} {str(path)!r} is larger than {max_bytes:,} bytes: it is not a file this program "
                    "wrote; check that you gave the right file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as problem:
        raise error(f"cannot read {what} {str(path)!r}: it is not UTF-8 text ({problem.reason} at byte "
                    f"{problem.start})") from None


def read(path: str | os.PathLike[str], *, what: str, max_bytes: int, error: type[ValueError],
         max_depth: int = MAX_DEPTH) -> Any:
    """:func:`read_text` then :func:`loads`."""
    text = read_text(path, what=what, max_bytes=max_bytes, error=error)
    return loads(text, what=f"{what} {str(path)!r}", max_bytes=max_bytes, error=error, max_depth=max_depth)
