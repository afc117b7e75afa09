"""Time from ``streamlit run streamlit_app.py`` to a usable page.

Starts the app on a free localhost port (headless, no telemetry) and measures, from the moment the
process is launched: the HTTP health check answering, and the Practice page's title rendered in a
real headless Chromium (Debian /usr/bin/chromium via Playwright, no download). Repeats and prints
each run and the median. Target: usable in <= 5 s.

    python -m trainer.lab.bench_app_startup [--runs 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from trainer.ui.launch import CHROMIUM, chromium_args, free_port, start_server, stop_server, wait_healthy


def one_run(playwright, home: Path) -> tuple[float, float]:
    port = free_port()
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=chromium_args())
    try:
        page = browser.new_page()
        start = time.monotonic()
        process = start_server(port, env={"ALUETTE_HOME": str(home)})
        try:
            wait_healthy(port, timeout=60, process=process)
            healthy = time.monotonic() - start
            page.goto(f"http://127.0.0.1:{port}", wait_until="domcontentloaded")
            page.get_by_text("Practice the signs").wait_for(timeout=60_000)
            page.get_by_text("Mode:").first.wait_for(timeout=60_000)
            usable = time.monotonic() - start
        finally:
            stop_server(process)
    finally:
        browser.close()
    return healthy, usable


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m trainer.lab.bench_app_startup", description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    healthy_times, usable_times = [], []
    with tempfile.TemporaryDirectory() as home, sync_playwright() as playwright:
        for run in range(args.runs):
            healthy, usable = one_run(playwright, Path(home))
            healthy_times.append(healthy)
            usable_times.append(usable)
            print(f"run {run + 1}: health ok after {healthy:.2f} s, Practice page usable after {usable:.2f} s")
    print(f"median: health {statistics.median(healthy_times):.2f} s, usable {statistics.median(usable_times):.2f} s "
          f"(target <= 5 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
