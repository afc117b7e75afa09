"""Bots for Aluette: the interface and registry (``base``), the random, heuristic and search bots,
the table that seats people and bots and carries their signs (``table``), and the arena.

Imports trainer.rules and trainer.signals only: bots see player views, never the game, and never
import vision or UI code. See docs/bots.md.
"""
