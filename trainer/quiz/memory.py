"""What each user remembers: one FSRS card per quiz item, persisted in the Store, and sessions
that mix the items due now with a few new ones.

Imports the rules and signals layers (through the questions), ``fsrs`` and ``trainer.storage``.
Time is always passed in (``now``, an aware datetime); nothing here reads the clock, and the
scheduler's random "fuzz" is off so the same answers at the same times give the same schedule.

Stored documents: kind ``quiz.item``, key ``"<profile>/<item>"``, value ``{"card": fsrs card
dict, "reviews": n, "lapses": n}``. Each answer also appends a ``quiz.review`` log record; the
card and its log record are written in one transaction.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

import fsrs

from trainer.quiz.questions import ALL_ITEMS, Kind, Question, curriculum, make_question, split_item
from trainer.quiz.texts import QuizError
from trainer.signals.conventions import CLASSIC, Convention
from trainer.signals.gestures import Gesture
from trainer.storage import DamagedEntryError, Store

DOC_KIND = "quiz.item"
LOG_KIND = "quiz.review"


def _utc(now: datetime) -> datetime:
    if not isinstance(now, datetime) or now.tzinfo is None:
        raise QuizError(f"time {now!r} must be an aware datetime, e.g. datetime.now(timezone.utc)")
    return now.astimezone(timezone.utc)


@dataclass(frozen=True, slots=True)
class RatingPolicy:
    """How an answer becomes an FSRS rating: wrong → Again; right within ``easy_seconds`` → Easy;
    within ``hard_seconds`` → Good; slower → Hard.

    The limits are for a question with one card and four choices; each further thing to read
    (card or choice) adds ``seconds_per_extra``, and ordering questions add
    ``order_seconds_per_card`` per card to type.
    """

    easy_seconds: float = 4.0
    hard_seconds: float = 12.0
    seconds_per_extra: float = 1.5
    order_seconds_per_card: float = 2.5

    def allowance(self, question: Question | None) -> float:
        if question is None:
            return 0.0
        extra = self.seconds_per_extra * max(0, len(question.cards) + len(question.choices) - 5)
        if question.is_order:
            extra += self.order_seconds_per_card * len(question.cards)
        return extra

    def rate(self, correct: bool, seconds: float, question: Question | None = None) -> fsrs.Rating:
        if not correct:
            return fsrs.Rating.Again
        extra = self.allowance(question)
        if seconds <= self.easy_seconds + extra:
            return fsrs.Rating.Easy
        if seconds <= self.hard_seconds + extra:
            return fsrs.Rating.Good
        return fsrs.Rating.Hard


@dataclass(frozen=True, slots=True)
class ItemStatus:
    """One item's memory: FSRS state, next due time and the forecast chance of recalling it now."""

    item: str
    kind: Kind
    state: str
    due: datetime | None
    retrievability: float
    stability: float | None
    reviews: int
    lapses: int

    @property
    def is_new(self) -> bool:
        return self.state == "new"


@dataclass(frozen=True, slots=True)
class Review:
    """What recording one answer did to an item's memory."""

    item: str
    correct: bool
    rating: fsrs.Rating
    due: datetime
    seconds: float
    ahead: bool
    """Answered before it was due (a right answer then leaves the schedule alone)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of one answer in a session, for feedback: the right answer and why, in words."""

    item: str
    correct: bool
    rating: fsrs.Rating
    answer: str
    explanation: str
    due: datetime
    seconds: float


@dataclass(frozen=True, slots=True)
class Summary:
    """Counts for a stats screen."""

    total: int
    new: int
    learning: int
    review: int
    due_now: int
    due_today: int
    next_due: datetime | None
    mean_retrievability: float | None


class Progress:
    """The FSRS cards of one profile, read from and written through to the Store."""

    def __init__(
        self,
        store: Store,
        profile: str = "default",
        *,
        scheduler: fsrs.Scheduler | None = None,
        policy: RatingPolicy = RatingPolicy(),
    ) -> None:
        if not profile or "/" in profile:
            raise QuizError(f"profile name {profile!r} must be non-empty and without '/'")
        self.store = store
        self.profile = profile
        self.scheduler = scheduler or fsrs.Scheduler(enable_fuzzing=False)
        self.policy = policy
        self._docs: dict[str, dict] = {}
        self.reload()

    def reload(self) -> None:
        """Read this profile's items again from the Store (another tab or process may have answered).

        A row that is not valid JSON is kept as damaged: asking for its card raises a QuizError that
        says how to reset that one item, and the other items stay usable.
        """
        damaged: list[tuple[str, str]] = []
        prefix = self.profile + "/"
        docs: dict[str, dict] = {}
        for key, value in self.store.items(DOC_KIND, damaged=damaged):
            if key.startswith(prefix) and key[len(prefix):] in ALL_ITEMS:
                docs[key[len(prefix):]] = value
        for key, reason in damaged:
            if key.startswith(prefix) and key[len(prefix):] in ALL_ITEMS:
                docs[key[len(prefix):]] = {"damaged": reason}
        self._docs = docs

    # -- reading -----------------------------------------------------------------------------

    def card(self, item: str) -> fsrs.Card | None:
        doc = self._docs.get(item)
        if doc is None:
            return None
        try:
            if not isinstance(doc, dict) or "damaged" in doc:
                raise ValueError(doc.get("damaged", "not an object") if isinstance(doc, dict) else "not an object")
            return fsrs.Card.from_dict(doc["card"])
        except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as error:
            raise QuizError(
                f"the saved memory of {item!r} in {self.store.path} is damaged ({error}); forget that item "
                f"with 'aluette quiz --profile {self.profile} --reset-item {item}' (the other items are kept)"
            ) from None

    def seen_card(self, item: str) -> fsrs.Card:
        """The memory of an item seen before (:meth:`has_seen`)."""
        card = self.card(item)
        if card is None:
            raise QuizError(f"{item!r} has not been asked yet: it has no memory to read")
        return card

    def has_seen(self, item: str) -> bool:
        return item in self._docs

    def seen(self) -> tuple[str, ...]:
        return tuple(item for item in ALL_ITEMS if item in self._docs)

    def retrievability(self, item: str, now: datetime) -> float:
        """Forecast chance (0..1) of recalling ``item`` at ``now``; 0 for an item never seen."""
        card = self.card(item)
        if card is None or card.last_review is None or not card.stability:
            return 0.0
        # FSRS's forgetting curve R(t) = (1 + F t / S) ** -w20 with F = 0.9 ** (1 / -w20) - 1. fsrs 6.3's
        # get_card_retrievability floors t to whole days (an item failed a minute ago reads 100 %);
        # the same curve at fractional days forecasts the next hours honestly.
        decay = -self.scheduler.parameters[20]
        factor = 0.9 ** (1 / decay) - 1
        days = max(0.0, (_utc(now) - card.last_review).total_seconds() / 86400)
        return float((1 + factor * days / card.stability) ** decay)

    def status(self, item: str, now: datetime) -> ItemStatus:
        kind, _ = split_item(item)
        card = self.card(item)
        if card is None:
            return ItemStatus(item, kind, "new", None, 0.0, None, 0, 0)
        doc = self._docs[item]
        return ItemStatus(
            item, kind, card.state.name.lower(), card.due, self.retrievability(item, now), card.stability,
            _count(doc, "reviews"), _count(doc, "lapses"),
        )

    def statuses(self, now: datetime, kinds: Sequence[Kind] | None = None) -> list[ItemStatus]:
        """Every item (of ``kinds``), those seen first by due time, then the new ones in teaching order."""
        items = curriculum(kinds)
        seen = [self.status(item, now) for item in items if item in self._docs]
        seen.sort(key=lambda s: (s.due, s.item))
        return seen + [self.status(item, now) for item in items if item not in self._docs]

    def due(self, now: datetime, kinds: Sequence[Kind] | None = None) -> list[str]:
        """Items seen before and due at ``now``, most overdue first."""
        now = _utc(now)
        items = [item for item in curriculum(kinds) if item in self._docs]
        due = [(self.seen_card(item).due, item) for item in items]
        return [item for when, item in sorted(due) if when <= now]

    def summary(self, now: datetime, kinds: Sequence[Kind] | None = None) -> Summary:
        now = _utc(now)
        statuses = self.statuses(now, kinds)
        seen = [s for s in statuses if not s.is_new]
        dues = [s.due for s in seen if s.due is not None]  # every seen item has a due time
        return Summary(
            total=len(statuses),
            new=len(statuses) - len(seen),
            learning=sum(s.state in ("learning", "relearning") for s in seen),
            review=sum(s.state == "review" for s in seen),
            due_now=sum(due <= now for due in dues),
            due_today=sum(due <= now + timedelta(days=1) for due in dues),
            next_due=min(dues, default=None),
            mean_retrievability=(sum(s.retrievability for s in seen) / len(seen)) if seen else None,
        )

    def history(self, limit: int | None = None) -> list[dict]:
        """This profile's answers, newest first (records of the ``quiz.review`` log)."""
        entries = self.store.records(LOG_KIND, newest_first=True)
        out = [e.record | {"time": e.time} for e in entries if e.record.get("profile") == self.profile]
        return out[:limit] if limit is not None else out

    # -- writing -----------------------------------------------------------------------------

    def review(
        self,
        question: Question,
        correct: bool,
        *,
        seconds: float,
        now: datetime,
        response: object = None,
    ) -> Review:
        """Record an answer: rate it, move the item's FSRS card, save card and log together.

        A right answer to an item that is not due yet (practice ahead) is logged but leaves the
        card where it is: answering again minutes later says little about memory in days, and
        letting it count would push the item months away. A wrong one is a real lapse.
        """
        now = _utc(now)
        if not isinstance(seconds, (int, float)) or seconds < 0:
            raise QuizError(f"response time {seconds!r} must be a non-negative number of seconds")
        rating = self.policy.rate(correct, float(seconds), question)
        key = f"{self.profile}/{question.item}"
        # Read the item's current row inside the write transaction (BEGIN IMMEDIATE holds the write
        # lock), not the copy loaded when this Progress was made: another tab or process may have
        # answered it since, and writing back an old copy would erase their answers.
        with self.store.transaction():
            try:
                old = self.store.get(DOC_KIND, key)
            except DamagedEntryError as error:
                old = {"damaged": str(error)}  # card() below says how to reset this one item
            if old is None:
                self._docs.pop(question.item, None)
            else:
                self._docs[question.item] = old
            card = self.card(question.item)
            old = self._docs.get(question.item, {})
            ahead = card is not None and card.due > now
            if card is None:
                card = fsrs.Card(card_id=_card_id(question.item), due=now)
            if not (ahead and correct):
                card, _log = self.scheduler.review_card(card, rating, now, int(seconds * 1000))
            doc = {
                "card": card.to_dict(),
                "reviews": _count(old, "reviews") + 1,
                "lapses": _count(old, "lapses") + (0 if correct else 1),
            }
            record = {
                "profile": self.profile,
                "item": question.item,
                "kind": question.kind.value,
                "correct": bool(correct),
                "rating": rating.name,
                "seconds": round(float(seconds), 3),
                "response": response if isinstance(response, (str, list, tuple, type(None))) else str(response),
                "answer": list(question.answer),
                "due": card.due.isoformat(),
                "ahead": ahead,
            }
            self.store.put(DOC_KIND, key, doc, now=now)
            self.store.append(LOG_KIND, record, time=now)
        self._docs[question.item] = doc
        return Review(question.item, bool(correct), rating, card.due, float(seconds), ahead)

    def reset(self, items: Iterable[str] | None = None) -> int:
        """Forget ``items`` (default: all of this profile's); returns how many were forgotten."""
        prefix = self.profile + "/"
        with self.store.transaction():
            # the Store's keys, not this copy's: items answered in another tab are forgotten too
            stored = {key[len(prefix):] for key in self.store.keys(DOC_KIND) if key.startswith(prefix)}
            chosen = sorted(stored) if items is None else [i for i in dict.fromkeys(items) if i in stored]
            for item in chosen:
                self.store.delete(DOC_KIND, f"{prefix}{item}")
        for item in chosen:
            self._docs.pop(item, None)
        return len(chosen)


def _count(doc: object, field: str) -> int:
    """A stored counter, 0 when absent or not a number (a damaged row is reset, not fatal)."""
    value = doc.get(field, 0) if isinstance(doc, dict) else 0
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _card_id(item: str) -> int:
    """A stable FSRS card id per item (FSRS would otherwise use the wall clock)."""
    return zlib.crc32(item.encode("utf-8"))


class Session:
    """One sitting: asks due items first, mixes in new ones (at most ``new_limit``), then (if
    ``ahead``) the items least likely to be recalled, and never the same item twice in a row
    when another is available.
    """

    NEW_EVERY = 3  # with items due, every third question introduces a new one

    def __init__(
        self,
        progress: Progress,
        *,
        rng: random.Random,
        kinds: Sequence[Kind] | None = None,
        new_limit: int = 10,
        ahead: bool = True,
        convention: Convention = CLASSIC,
        language: str = "fr",
    ) -> None:
        if new_limit < 0:
            raise QuizError(f"new_limit {new_limit!r} must be zero or more")
        self.progress = progress
        self.rng = rng
        self.kinds = tuple(kinds) if kinds else tuple(Kind)
        self.items = curriculum(self.kinds)
        self.new_limit = new_limit
        self.ahead = ahead
        self.convention = convention
        self.language = language
        self.asked = 0
        self.right = 0
        self.new_seen = 0
        self._last: str | None = None
        self._asked_at: dict[str, int] = {}

    def next_item(self, now: datetime) -> str | None:
        due = [item for item in self.progress.due(now, self.kinds) if item != self._last]
        new = ([item for item in self.items if not self.progress.has_seen(item)]
               if self.new_seen < self.new_limit else [])
        if due and new and self.asked % self.NEW_EVERY == self.NEW_EVERY - 1:
            return new[0]
        if due:
            return due[0]
        if new:
            return new[0]
        if self.ahead:
            seen = [item for item in self.items if self.progress.has_seen(item) and item != self._last]
            if seen:
                # the item asked longest ago in this sitting, then the one closest to being due
                return min(seen, key=lambda item: (
                    self._asked_at.get(item, -1), self.progress.seen_card(item).due, item))
        return None

    def next_question(self, now: datetime) -> Question | None:
        """The next question, or None when nothing is left to ask (nothing due, no new, no ahead)."""
        item = self.next_item(now)
        if item is None:
            return None
        return make_question(item, self.rng, self.convention)

    def answer(self, question: Question, response: str | Sequence[str], *, seconds: float, now: datetime) -> Outcome:
        """Check ``response`` (a choice key or the card codes strongest first) and record it."""
        return self._record(question, question.check(response), response, seconds, now)

    def answer_gesture(self, question: Question, gesture: Gesture, *, seconds: float, now: datetime) -> Outcome:
        """Camera mode: the user made ``gesture`` in answer to a card → sign question."""
        return self._record(question, question.accepts_gesture(gesture), gesture.value, seconds, now)

    def _record(self, question: Question, correct: bool, response: object, seconds: float, now: datetime) -> Outcome:
        was_new = not self.progress.has_seen(question.item)
        review = self.progress.review(question, correct, seconds=seconds, now=now, response=_plain(response))
        self.asked += 1
        self.right += int(correct)
        self.new_seen += int(was_new)
        self._last = question.item
        self._asked_at[question.item] = self.asked
        return Outcome(
            review.item, review.correct, review.rating, question.answer_text(self.language),
            question.explanation.show(self.language), review.due, review.seconds,
        )


def _plain(response: object) -> object:
    if isinstance(response, (list, tuple)):
        return [str(r) for r in response]
    return None if response is None else str(response)
