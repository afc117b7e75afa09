"""Command-line sub-commands of trainer.vision. Keep imports here light: heavy ones go in handlers."""

from __future__ import annotations


def add_commands(subparsers) -> None:
    """Register this area's sub-commands (none yet)."""
