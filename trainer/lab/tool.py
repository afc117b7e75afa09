"""The two shapes of ``python -m trainer.lab.NAME`` for lab modules that are not a tool of their own.

Every module of ``trainer/lab`` answers ``python -m trainer.lab.NAME --help`` (docs/architecture.md,
"Where code goes"). A tool parses its own options; a module that registers ``aluette`` commands runs
them through :func:`commands_main` (the same parser the ``aluette`` command builds for it); a library
of the tools prints what it is for with :func:`library_main`. Imports only the standard library.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Sequence


def library_main(name: str, doc: str | None, argv: Sequence[str] | None = None) -> int:
    """Help for a library module: its docstring, and that it runs nothing on its own."""
    parser = argparse.ArgumentParser(
        prog=f"python -m trainer.lab.{name}", description=doc, formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Shared code of the lab's tools (docs/architecture.md lists them): nothing to run on its own.")
    parser.parse_args(argv)
    parser.print_help()
    return 0


def commands_main(name: str, argv: Sequence[str] | None = None) -> int:
    """Run one of the ``aluette`` commands ``trainer.lab.NAME`` registers, as ``aluette`` would."""
    module = importlib.import_module(f"trainer.lab.{name}")
    parser = argparse.ArgumentParser(prog=f"python -m trainer.lab.{name}", description=module.__doc__)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    if hasattr(module, "add_commands"):
        module.add_commands(commands)
    if hasattr(module, "add_bench_commands"):
        bench = commands.add_parser("bench", help="measure speed")
        module.add_bench_commands(bench.add_subparsers(dest="bench_target", metavar="TARGET", required=True))
    args = parser.parse_args(argv)
    return int(args.run(args) or 0)


if __name__ == "__main__":
    raise SystemExit(library_main("tool", __doc__))
