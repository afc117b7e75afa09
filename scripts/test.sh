#!/usr/bin/env bash
# Install everything the tests need on a fresh Debian/Ubuntu machine, then run the whole suite.
#   bash scripts/test.sh [pytest args...]     (-n 0 runs the tests one after another in one process)
set -euo pipefail
cd "$(dirname "$0")/.."

# System packages: Chromium and its driver for the real-browser test (apt needs root or sudo).
if ! command -v chromium >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
fi

PYTHON="${PYTHON:-python3}"
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".[all]"
# One test process a core (pytest-xdist): the suite is mostly single-threaded Python.
exec .venv/bin/python -m pytest -n auto "$@"
