"""The drawn deck: every card, the card back and each sign as SVG made by our own code.

Imports the rules layer (cards) and the signals layer (signs, gestures, conventions) only; no
third-party packages. ``card_svg(card)`` is what the app, the quiz and the play table use.
"""

from trainer.deck.render import (
    DeckError,
    avatar_svg,
    card_back_svg,
    card_svg,
    card_title,
    is_strong,
    sign_svg,
)

__all__ = ["DeckError", "avatar_svg", "card_back_svg", "card_svg", "card_title", "is_strong", "sign_svg"]
