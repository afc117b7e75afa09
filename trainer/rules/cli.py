"""Command-line sub-commands of trainer.rules: ``aluette replay FILE``. (``aluette bench engine``
is the lab's: :mod:`trainer.lab.engine_cli`.)

Keep imports here light: the engine modules are imported inside the handlers.
"""

from __future__ import annotations

import argparse
import sys


def add_commands(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``replay``."""
    replay = subparsers.add_parser(
        "replay",
        help="replay one deal from given hands and plays; prints the tricks and result as JSON",
        description=(
            'FILE is JSON: {"preset": "vendee", "dealer": 0, "hands": [[9 codes] x 4], "plays": '
            '["AD", ...]}. Prints one JSON object with "tricks", "tricks_won" and, for a finished '
            'deal, "deal_winner", "team", "points", "mordienne" (else "next_leader").'
        ),
    )
    replay.add_argument("file", metavar="FILE", help="the replay JSON file")
    replay.set_defaults(run=_run_replay)


def _run_replay(args: argparse.Namespace) -> int:
    import json

    from trainer.rules.replay import ReplayError, replay_file

    try:
        result = replay_file(args.file)
    except ReplayError as error:
        print(f"aluette replay: error: {error}", file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0
