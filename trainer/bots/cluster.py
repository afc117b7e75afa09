"""Arena games on a Ray cluster (the optional ``[cluster]`` extra): ``aluette arena … --backend ray``.

The same :class:`~trainer.bots.arena.GameTask` objects the local process pool plays, each run as one
Ray task by the function the arena passes in (:func:`~trainer.bots.arena.run_game`), the records taken
back in task order. Every game
draws only from generators seeded by its own seed, so the figures are the serial run's, game for
game, wherever the games ran. Without ``RAY_ADDRESS`` a local Ray instance with ``workers`` CPUs is
started for the run and stopped after it; with it, the games go to that cluster.

Imports :mod:`trainer.bots.base` only (never the arena, which imports this module), and ray inside
:func:`run_tasks_ray` only.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from trainer.bots.base import BotError

Task = TypeVar("Task")
Record = TypeVar("Record")

BACKENDS = ("local", "ray")


def ray_available() -> bool:
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def run_tasks_ray(run: Callable[[Task], Record], tasks: list[Task], workers: int = 1) -> Iterator[Record]:
    """Each task's record ``run(task)``, in task order, played as Ray tasks (on ``workers`` local CPUs
    unless ``RAY_ADDRESS`` names a running cluster). ``run`` is a module-level function (Ray ships it
    to the workers by name)."""
    try:
        import ray
    except ImportError:
        raise BotError(
            "the ray backend needs Ray, which is not installed: pip install -e '.[cluster]' "
            "(or play with --backend local, the default)"
        ) from None
    started = False
    if not ray.is_initialized():
        _start(ray, workers)
        started = True
    try:
        remote = ray.remote(num_cpus=1, max_retries=0)(run)
        refs = [remote.remote(task) for task in tasks]
        for ref in refs:
            yield ray.get(ref)
    finally:
        if started:
            ray.shutdown()


def _start(ray: Any, workers: int, attempts: int = 2) -> None:
    """Connect to ``RAY_ADDRESS`` or start a local instance. Ray gives its local node 30 s to start,
    which a machine busy with other work can miss: try once more before giving up."""
    address = os.environ.get("RAY_ADDRESS")
    options = {"include_dashboard": False, "log_to_driver": False, "configure_logging": False}
    for attempt in range(1, attempts + 1):
        try:
            if address:
                ray.init(address=address, **options)
            else:
                ray.init(num_cpus=max(1, workers), **options)
            return
        except Exception as error:  # Ray raises a bare Exception when its node does not start
            ray.shutdown()
            if attempt == attempts:
                where = f"the Ray cluster at RAY_ADDRESS={address}" if address else "a local Ray instance"
                raise BotError(
                    f"could not start {where} ({error}); on a busy machine try again, "
                    "or play with --backend local"
                ) from error
