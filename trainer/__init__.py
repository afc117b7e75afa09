"""Aluette Signal Trainer: learn and play Aluette (la vache) with real face and hand signs.

Layers import one way only: ``rules`` (standard library) <- ``signals`` <- ``vision`` / ``bots``
<- ``quiz`` / ``ui``. ``tests/test_layers.py`` fails if a module imports upward.
"""

__version__ = "0.1.0"
