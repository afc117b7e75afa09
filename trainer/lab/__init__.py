"""Evaluation, tuning and benchmarks: tools run on purpose, never imported by the app."""
