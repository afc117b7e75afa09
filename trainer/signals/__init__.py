"""Signals: the gestures the recognizer names, the signs they mean at the table, and conventions.

Imports the rules layer only (for cards). ``trainer.signals.gestures`` imports nothing of the
project at all, so the vision layer can depend on it without touching the rules engine.
"""
