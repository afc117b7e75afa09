"""What the Play page reads from the table's events (:attr:`trainer.bots.table.Table.events`): when a
trick closed or a deal ended, and which trick and deal result stay on the table.

Pure functions over the engine's typed events (:mod:`trainer.rules.events`); no Streamlit, no counts
of tricks or results compared before and after an action.
"""

from __future__ import annotations

from collections.abc import Sequence

from trainer.narration import narrate_in
from trainer.rules.events import CardPlayed, CardsDealt, DealScored, Event, TrickEnded
from trainer.rules.game import DealResult, TrickRecord
from trainer.ui.settings import Language


def told(events: Sequence[Event], language: Language, players: int = 4) -> list[str]:
    """The lines telling ``events`` (e.g. the new ones of ``Table.events``) to the person at seat 0
    in the session's language (``settings.language``): the terminal's narration, one phrases class
    per language (:mod:`trainer.narration`), so the page words nothing from the engine's prose."""
    return narrate_in(events, language.value, players)


def closes(events: Sequence[Event]) -> bool:
    """Whether these events close a trick or end a deal (the person then looks before play goes on)."""
    return any(isinstance(event, (TrickEnded, DealScored)) for event in events)


def ends_deal(events: Sequence[Event]) -> bool:
    """Whether these events end a deal (its result then stays on screen until "Next deal")."""
    return any(isinstance(event, DealScored) for event in events)


def closed_trick(events: Sequence[Event]) -> tuple[TrickRecord | None, DealResult | None] | None:
    """What stays on the table: the last closed trick until the next card is played; after a deal's
    end, its last trick (None when it was not played) with its result, until the next deal's first
    card. None when nothing closed is left to show."""
    result: DealResult | None = None
    for event in reversed(events):
        if isinstance(event, CardPlayed):
            return None  # a trick in progress: the closed one has been gathered
        if isinstance(event, TrickEnded):
            return event.trick, result
        if isinstance(event, DealScored):
            result = event.result
        elif isinstance(event, CardsDealt) and result is not None:
            return None, result  # the deal ended before any trick (given up, mordienne declined)
    return None if result is None else (None, result)
