"""Show the session-state race behind "dictionary changed size during iteration" in the server log,
and that ``trainer.ui.session_lock`` removes it.

With Streamlit's fast reruns (its default), a rerun asked while a script run is finishing starts a
second script thread at once. Each script thread wraps the session state in a lock of its own, so
the finishing run's clean-up (``_remove_stale_widgets``) and the new run's start (``_compact_state``,
``_call_callbacks``) can edit the same dicts together. The browser tests met it about once in ten
runs; the window is a few hundred microseconds.

This script makes the window wide enough to see in a minute: the server runs a probe app (300
widgets whose keys alternate, so each run leaves stale ones) with Streamlit's own stale-widget loop
slowed down (a sleep per entry, same iteration), and a headless Chromium presses its button every
37 ms. It runs the probe twice under the project's ``.streamlit/config.toml``, as Streamlit is and
with ``trainer.ui.session_lock`` installed by the probe as the app does, and prints the exceptions
each server logged.

    python scripts/rerun_race.py [--seconds 60]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from trainer.ui.launch import REPO_ROOT, chromium_page, free_port, stop_server, wait_healthy

PROBE_APP = '''
import os
import streamlit as st
if os.environ.get("PROBE_SHARED_LOCK"):
    from trainer.ui import session_lock
    session_lock.install()
n = st.session_state.get("n", 0)
columns = st.columns(4)
for i in range(300):
    columns[i % 4].checkbox(f"c{i}", key=f"c{i}_{n % 2}")
def bump():
    st.session_state["n"] = st.session_state.get("n", 0) + 1
st.button("go", on_click=bump)
st.write("run", n)
'''

WIDEN = '''
import time
from streamlit.runtime.state import session_state as _ss
_remove = _ss.SessionState._remove_stale_widgets
def _slowed(self, active):
    for _ in self._old_state:  # Streamlit's own loop over the same dict, slowed
        time.sleep(0.0005)
    return _remove(self, active)
_ss.SessionState._remove_stale_widgets = _slowed
'''

CLICKER = """() => { window.presses = 0; setInterval(() => {
  const go = [...document.querySelectorAll('button')].find(b => b.innerText.trim() == 'go');
  if (go && !go.disabled) { go.click(); window.presses++; } }, 37); }"""


def run_probe(folder: Path, shared_lock: bool, seconds: float) -> tuple[int, int, int]:
    """Serve the probe (``shared_lock``: with trainer.ui.session_lock installed), press its button
    for ``seconds``; return (presses, exceptions logged, "dictionary changed size" among them)."""
    port = free_port()
    log = folder / f"server-{shared_lock}.log"
    command = [sys.executable, "-m", "streamlit", "run", str(folder / "probe.py"), "--server.port", str(port),
               "--server.headless", "true", "--server.fileWatcherType", "none"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder / "widen"), str(REPO_ROOT)])}
    if shared_lock:
        env["PROBE_SHARED_LOCK"] = "1"
    with open(log, "wb") as out:
        process = subprocess.Popen(command, cwd=folder, env=env, stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    try:
        wait_healthy(port, timeout=60, process=process)
        with chromium_page(f"http://127.0.0.1:{port}/") as page:
            page.get_by_role("button", name="go").wait_for(timeout=60_000)
            page.evaluate(CLICKER)
            time.sleep(seconds)
            presses = page.evaluate("() => window.presses")
    finally:
        stop_server(process)
    text = log.read_text(errors="replace")
    return presses, text.count("Traceback"), text.count("dictionary changed size during iteration")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to press the button in each run")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        (folder / "probe.py").write_text(PROBE_APP)
        (folder / "widen").mkdir()
        (folder / "widen" / "sitecustomize.py").write_text(WIDEN)
        (folder / ".streamlit").mkdir()
        shutil.copy(REPO_ROOT / ".streamlit" / "config.toml", folder / ".streamlit" / "config.toml")
        print(f"{'configuration':<44} {'presses':>8} {'exceptions':>11} {'dict changed':>13}")
        for label, shared in (("Streamlit 1.60 as it is", False),
                              ("with trainer.ui.session_lock installed", True)):
            presses, exceptions, races = run_probe(folder, shared, args.seconds)
            print(f"{label:<44} {presses:>8} {exceptions:>11} {races:>13}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
