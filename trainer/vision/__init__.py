"""Vision: camera frames -> landmarks -> named features -> per-frame gesture scores -> gesture events.

Depends on numpy, OpenCV and MediaPipe, and on ``trainer.signals.gestures`` for gesture names.
Must not import the rules engine, bots, quiz or UI. Importing this package is cheap: MediaPipe is
loaded only when a tracker is built.
"""
