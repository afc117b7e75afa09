"""The Aluette rules engine: cards, rule variants, the game as states and actions, player views.

Standard library only: nothing here may import vision, signals, bots, quiz or UI code.
"""
