"""The spaced-repetition quiz: questions about the cards and signs, scheduled with FSRS.

Imports the rules and signals layers, ``fsrs`` and ``trainer.storage``; never the vision layer
or the deck (the app draws ``Question.cards`` with ``trainer.deck.card_svg(card, hints=False)``).
"""

from trainer.quiz.memory import ItemStatus, Outcome, Progress, RatingPolicy, Review, Session, Summary
from trainer.quiz.questions import ALL_ITEMS, POURRI, Choice, Kind, Question, curriculum, make_question
from trainer.quiz.texts import LANGUAGES, QuizError, Text

__all__ = [
    "ALL_ITEMS", "Choice", "ItemStatus", "Kind", "LANGUAGES", "Outcome", "POURRI", "Progress", "Question",
    "QuizError", "RatingPolicy", "Review", "Session", "Summary", "Text", "curriculum", "make_question",
]
