"""The ``aluette`` command line. Each area registers its own sub-commands; heavy imports (MediaPipe,
Streamlit) happen inside the handlers, so ``aluette --help`` and the engine commands start fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys

# Modules exposing ``add_commands(subparsers)`` and/or ``add_bench_commands(bench_subparsers)``; each
# handler is set with ``set_defaults(run=...)`` and returns the process exit code.
_COMMAND_MODULES = (
    "trainer.lab.engine_cli",  # first, so `aluette bench` lists engine first as it always did
    "trainer.rules.cli",
    "trainer.bots.cli",
    "trainer.quiz.cli",
    "trainer.vision.cli",
    "trainer.lab.vision_cli",
    "trainer.ui.cli",
    "trainer.terminal",
)


# The core install (rules, bots, quiz, terminal game) has none of these; say which extra brings them.
_EXTRA_FOR_MODULE = {
    "numpy": "vision",
    "cv2": "vision",
    "mediapipe": "vision",
    "streamlit": "app",
    "streamlit_webrtc": "app",
    "matplotlib": "vision",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="aluette",
        description="Learn and play Aluette (la vache): signs, bots, quiz.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    bench = subparsers.add_parser("bench", help="measure speed: 'aluette bench engine|vision|...'")
    bench_sub = bench.add_subparsers(dest="bench_target", metavar="TARGET")
    for name in _COMMAND_MODULES:
        module = importlib.import_module(name)
        add = getattr(module, "add_commands", None)
        if add is not None:
            add(subparsers)
        add_bench = getattr(module, "add_bench_commands", None)
        if add_bench is not None:
            add_bench(bench_sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    run = getattr(args, "run", None)
    if run is None:
        parser.print_help()
        return 0 if args.command is None else 2
    try:
        return int(run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except ModuleNotFoundError as error:
        extra = _EXTRA_FOR_MODULE.get((error.name or "").split(".")[0])
        if extra is None:
            raise
        print(
            f"aluette: error: 'aluette {args.command}' needs {error.name}, which this install lacks: "
            f"install the {extra} extra, e.g. pip install -e \".[{extra}]\"",
            file=sys.stderr,
        )
        return 2
    except ValueError as error:
        # Every layer's errors subclass ValueError and say what is wrong and what to do.
        print(f"aluette: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
