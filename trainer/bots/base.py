"""The one small interface every bot answers through, and the registry that builds bots by name.

A bot sees a :class:`~trainer.rules.views.PlayerView` (its hand, the public play, the signs that
reached it) and never the game. Two questions:

- ``choose(view, rng) -> action``: one of ``view.legal_actions`` (the seat must be to move);
- ``signals(view, rng) -> list[SignIntent]``: the signs it makes now (at the sign points the table
  offers: before the declarations, before each trick), usually empty.

and one notice, ``seated(seat, partner_policy)``, telling it whether its partner is a bot that signs
by a known policy (:class:`~trainer.bots.signing.SignPolicy`) — then the partner's silence is
information — or a person (``None``). A bot may also define ``at_table(vigilance)``: the table
calls it first, so the bot can choose its signing policy for the table's vigilance.

``make_bot("search", worlds=40)`` builds a bot from its name and options; ``BOT_NAMES`` lists them.
New bots plug in with :func:`register` without touching the engine.

Imports trainer.rules and trainer.signals only (bots never import vision or UI).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from trainer.rules.actions import Action
from trainer.rules.views import PlayerView
from trainer.signals.relative import Announcement
from trainer.signals.signs import Signal

if TYPE_CHECKING:  # an annotation only: signing.py is the policies, not the interface
    from trainer.bots.signing import SignPolicy


class BotError(ValueError):
    """A bot name or option that does not exist, or a bot asked to act when it is not its turn."""


@dataclass(frozen=True, slots=True)
class SignIntent:
    """A sign a seat wants to make: the signal, whether to wait until the opponents look away
    (``discreet``: caught less, made at the next sign point), and words told aloud after it."""

    signal: Signal
    discreet: bool = False
    announcements: tuple[Announcement, ...] = ()


@runtime_checkable
class Bot(Protocol):
    """What the table needs from a bot."""

    name: str

    def seated(self, seat: int, partner_policy: SignPolicy | None, lying_allowed: bool = False) -> None:
        """Called once when the bot takes its seat: ``partner_policy`` is the partner bot's
        SignPolicy (None for a person), ``lying_allowed`` whether signs may lie at this table."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """One of ``view.legal_actions``."""

    def signals(self, view: PlayerView, rng: random.Random) -> list[SignIntent]:
        """The signs to make now (may be empty)."""


def require_turn(view: PlayerView) -> None:
    if view.to_move != view.seat or not view.legal_actions:
        raise BotError(
            f"seat {view.seat} was asked to act but it is not its turn (to move: {view.to_move}, "
            f"phase {view.phase.value})"
        )


# name -> "module:factory"; imported lazily so `aluette --help` stays fast.
_REGISTRY: dict[str, str | Callable[..., Bot]] = {
    "random": "trainer.bots.random_bot:RandomBot",
    "heuristic": "trainer.bots.heuristic:HeuristicBot",
    "search": "trainer.bots.search:SearchBot",
    "simple": "trainer.bots.simple:SimpleBot",  # the engine's stand-in for the terminal game
    "ismcts": "trainer.bots.search:ISMCTSBot",  # information-set MCTS at the search bot's budget
    # The all-seeing bound for the arena only (it is shown every hand): never offered to a player.
    "oracle": "trainer.bots.search:OracleBot",
}


def register(name: str, factory: Callable[..., Bot]) -> None:
    """Make ``make_bot(name, ...)`` build bots with ``factory``."""
    _REGISTRY[name] = factory


def bot_names() -> tuple[str, ...]:
    return tuple(_REGISTRY)


def make_bot(name: str, **options: Any) -> Bot:
    """A new bot by name (``random``, ``heuristic``, ``search``, ``simple``) with its options."""
    key = name.strip().lower()
    target = _REGISTRY.get(key)
    if target is None:
        raise BotError(f"unknown bot {name!r}: choose one of {', '.join(_REGISTRY)}")
    if isinstance(target, str):
        module_name, _, attr = target.partition(":")
        target = getattr(importlib.import_module(module_name), attr)
    try:
        return target(**options)
    except TypeError as error:
        raise BotError(f"bad options for bot {name!r}: {error}") from None
