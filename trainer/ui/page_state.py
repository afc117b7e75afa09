"""What a page keeps across reruns, as typed values (one per page), instead of loose tuples in
``st.session_state``: Play's refusal, sent signs and "seen!" note; Practice's list of gestures seen.

Each value remembers the moment of the game it belongs to (``moment``: the page's own key of a
trick or a deal), so a page shows it only while that moment lasts. Holds no Streamlit: the page
keeps one instance in session state (:mod:`trainer.ui.state`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from trainer.signals.gestures import GestureEvent
from trainer.signals.signs import MadeSign, Sign
from trainer.signals.table import SignEvent

Moment = tuple[object, ...]
"""A page's key of a moment of one game (the game's identity, the deal, and for a trick its number)."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why the table refused the person's last input, in the trick it was made in."""

    moment: Moment
    text: str


@dataclass(frozen=True, slots=True)
class SentSign:
    """A sign the person sent to the partner: how (``"button"``, ``"camera"``), the table's event, the deal."""

    source: str
    event: SignEvent
    moment: Moment


@dataclass(frozen=True, slots=True)
class CatchNote:
    """The outcome of the person's latest "seen!" call in a deal."""

    moment: Moment
    caught: bool
    text: str


@dataclass(slots=True)
class PlayPage:
    """The Play page's own state for the game on screen."""

    sent: list[SentSign] = field(default_factory=list)
    refusal: Refusal | None = None
    catch: CatchNote | None = None

    def refusal_at(self, moment: Moment) -> str | None:
        """The refusal made in ``moment`` (None once that trick is over, or after a success)."""
        return self.refusal.text if self.refusal is not None and self.refusal.moment == moment else None

    def catch_at(self, moment: Moment) -> CatchNote | None:
        return self.catch if self.catch is not None and self.catch.moment == moment else None

    def sent_at(self, moment: Moment) -> list[SentSign]:
        return [s for s in self.sent if s.moment == moment]


@dataclass(frozen=True, slots=True)
class SeenGesture:
    """A gesture Practice's camera recognised, with the sign the convention reads in it
    (``Convention.read``: None for a gesture without a sign, or not held as long as it asks)."""

    event: GestureEvent
    made: MadeSign | None
    reported_at: float

    @property
    def sign(self) -> Sign | None:
        return None if self.made is None else self.made.sign
