"""The spaced-repetition quiz: questions about the cards and signs, scheduled with FSRS.

Imports the rules and signals layers, ``fsrs`` and ``trainer.storage``; never the vision layer
or the deck (the app draws ``Question.cards`` with ``trainer.deck.card_svg(card, hints=False)``).
"""

import importlib

# Names resolve on first use (PEP 562), so ``aluette`` (which imports ``trainer.quiz.cli``) does not
# pay for fsrs and the question tables on every command.
_EXPORTS = {
    "ItemStatus": "memory", "Outcome": "memory", "Progress": "memory", "RatingPolicy": "memory",
    "Review": "memory", "Session": "memory", "Summary": "memory",
    "ALL_ITEMS": "questions", "POURRI": "questions", "Choice": "questions", "Kind": "questions",
    "Question": "questions", "curriculum": "questions", "make_question": "questions",
    "LANGUAGES": "texts", "QuizError": "texts", "Text": "texts",
}


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'trainer.quiz' has no attribute {name!r}")
    return getattr(importlib.import_module(f"trainer.quiz.{module}"), name)


__all__ = [
    "ALL_ITEMS", "Choice", "ItemStatus", "Kind", "LANGUAGES", "Outcome", "POURRI", "Progress", "Question",
    "QuizError", "RatingPolicy", "Review", "Session", "Summary", "Text", "curriculum", "make_question",
]
