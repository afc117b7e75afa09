"""Browser helpers for the real-browser tests: Debian Chromium through Playwright with
``executable_path`` (never a browser download), skipped only when Chromium is absent and CI does not
require it; the app server (``trainer.ui.launch.serve_app``); what a failure leaves behind (a
screenshot, the browser console, the server log); and the camera steps the tests share (START, asking
for un as on Practice until it is seen).

The waits follow the page's own state, never fixed sleeps."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from trainer.ui.launch import CHROMIUM, AppServer, chromium_page, serve_app

SERVER_ERROR = re.compile(r"Traceback|Exception in|^\w*Error:")
"""A line of the server log that shows an exception (MediaPipe's W0000/I0000 chatter aside): a
thread's traceback, Starlette's "Exception in ASGI application", Streamlit's logged script error."""


def require_chromium() -> None:
    if CHROMIUM.is_file():
        return
    message = f"Debian chromium not found at {CHROMIUM}: apt-get install chromium"
    if os.environ.get("ALUETTE_REQUIRE_BROWSER"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture()
def server(tmp_path: Path, data_home: Path) -> Iterator[AppServer]:
    """A Streamlit server of the app on a free local port with its own data folder and a log file
    (the browser tests read exceptions from it)."""
    with serve_app(home=data_home, log=tmp_path / "streamlit.log") as app:
        yield app


SERVER_WARNING = re.compile(r"deprecat|Please replace|will be removed", re.I)
"""A line of the server log that warns of an API on its way out (a library's or ours)."""


def server_warnings(log: Path) -> list[str]:
    """Lines of the server log that warn of deprecated use."""
    return [line for line in log.read_text(errors="replace").splitlines() if SERVER_WARNING.search(line)]


def server_errors(log: Path) -> list[str]:
    """Lines of the server log that show an exception."""
    return [line for line in log.read_text(errors="replace").splitlines() if SERVER_ERROR.search(line)]


def server_error_report(log: Path, after: int = 40) -> str:
    """Each exception of the server log with the lines that follow it (the traceback): a failed
    check must say which exception it was, not only that there was one."""
    lines = log.read_text(errors="replace").splitlines()
    starts = [i for i, line in enumerate(lines) if SERVER_ERROR.search(line)]
    blocks, shown_to = [], -1
    for i in starts:
        if i <= shown_to:
            continue
        shown_to = i + after
        blocks.append("\n".join(lines[i:shown_to]))
    return "\n---\n".join(blocks)


@contextmanager
def browser_page(app: AppServer, folder: Path, *, fake_video: Path | None = None,
                 viewport: tuple[int, int] = (1400, 1100)) -> Iterator:
    """A page of the app in headless Chromium. If the body fails, ``folder`` (or $ALUETTE_FAILURE_DIR)
    receives what explains it: ``failure.png`` (the whole page), ``console.txt`` (the browser's
    console, the camera widget's connection states included) and ``server.log``; their tails are
    printed with the failure.

    A body that passes must also leave clean logs: no uncaught error in the page's scripts and no
    deprecation warning in the server log (either is a failure, with the lines)."""
    require_chromium()
    console: list[str] = []
    page_errors: list[str] = []
    with chromium_page(app.url, fake_video=fake_video, viewport=viewport, on_console=console.append,
                       on_page_error=page_errors.append) as page:
        try:
            yield page
            assert page_errors == [], f"uncaught errors in the page: {page_errors[:5]}"
            if app.log is not None and app.log.is_file():
                warnings = server_warnings(app.log)
                assert warnings == [], f"deprecation warnings in the server log: {warnings[:5]}"
        except BaseException:
            _keep_evidence(page, console, app.log, Path(os.environ.get("ALUETTE_FAILURE_DIR", folder)))
            raise


def _keep_evidence(page, console: list[str], log: Path | None, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    try:
        page.screenshot(path=str(folder / "failure.png"), full_page=True)
    except Exception as error:  # the page may be gone; the console and the log still tell
        print(f"no screenshot of the failure: {error}")
    (folder / "console.txt").write_text("\n".join(console))
    # The console is long (ICE candidates): its connection states and errors tell a dropped stream.
    wanted = [line for line in console if re.search(r"connectionstate|error|fail", line, re.I)]
    print(f"failure kept in {folder}: failure.png, console.txt, server.log")
    print("browser console (connection states, errors; last 20):\n" + "\n".join(wanted[-20:]))
    if log is not None and log.is_file():
        shutil.copy(log, folder / "server.log")
        lines = [line for line in log.read_text(errors="replace").splitlines()
                 if not re.match(r"[WI]0000 ", line)]
        print("server log (last 30 lines, MediaPipe's chatter aside):\n" + "\n".join(lines[-30:]))


# -- the camera on Practice -------------------------------------------------------------------------

LIVE = r"\d+ frames/s analysed · face found"
"""Practice's line for an analysed frame."""


def camera_button(page, name: str):
    """The camera widget's own START or STOP button (inside its frame in the sidebar)."""
    widget = page.frame_locator('[data-testid="stSidebar"] iframe[title*="webrtc"]')
    return widget.get_by_role("button", name=re.compile(f"^{name}$", re.I))


def camera_restarts(page) -> int:
    """How many times the app started the camera again by itself after its stream ended without STOP
    (``trainer.ui.camera_keeper`` counts them on the page)."""
    return int(page.evaluate("window.aluetteKeeper ? window.aluetteKeeper.restarts : 0"))


def start_camera(page) -> None:
    """Switch the camera on, press START once, and wait for Practice to show an analysed frame."""
    from playwright.sync_api import expect

    expect(page.get_by_role("heading", name="Practice the signs")).to_be_visible(timeout=60_000)
    page.get_by_text("Camera on", exact=True).click()
    expect(page.get_by_text("Mode: live camera.")).to_be_visible(timeout=60_000)
    camera_button(page, "start").click(timeout=120_000)
    expect(page.get_by_text(re.compile(LIVE)).first).to_be_visible(timeout=120_000)


def _choose_un_as(page, attempts: int = 3) -> None:
    """Choose "un as" in the Practice drop-down until the page shows it as the asked sign: the camera
    fragment redraws a few times a second, and on a busy machine the option click can land on a
    list being redrawn and be lost (seen once in six runs with both cores busy)."""
    from playwright.sync_api import expect

    asked = page.get_by_role("heading", name="Make: un as")
    for _ in range(attempts):
        page.get_by_label("or choose").first.click()
        page.get_by_role("option", name="un as").click()
        try:
            expect(asked).to_be_visible(timeout=15_000)
            return
        except AssertionError:
            page.keyboard.press("Escape")  # close the list if it is still open, and choose again
    raise AssertionError(f"choosing un as in Practice did not ask it in {attempts} attempts")


def _try_again(page, seen, missed, attempts: int = 3) -> None:
    """Press "Try again" until the verdict leaves the page (the new try has begun). With both cores
    busy a click can land while the page is being redrawn and be lost (it showed the button's tooltip
    and the old verdict stayed for a minute): the page's own state says whether to press again."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import expect

    for _ in range(attempts):
        page.get_by_role("button", name="Try again", exact=True).click()
        try:
            expect(seen.or_(missed)).to_have_count(0, timeout=20_000)
            return
        except (AssertionError, PlaywrightTimeout):
            continue
    raise AssertionError(f"'Try again' did not start a new try in {attempts} clicks")


def ask_until_seen(page, *, first: bool = False, asks: int = 3) -> int:
    """Ask for un as on Practice until the verdict says it was seen, with both times; returns how
    many asks it took. On a busy machine the recognizer (a few frames a second) can miss the clip's
    opening for the whole try, which then ends "Not seen" after its timeout: that is a verdict too,
    so the test asks again (at most ``asks`` times) rather than failing on recognition recall."""
    from playwright.sync_api import expect

    seen = page.get_by_text(re.compile(r"Seen: un as — recognised [\d.]+ s after it was asked, held [\d.]+ s"))
    missed = page.get_by_text(re.compile(r"^Not seen: un as"))
    for ask in range(asks):
        if ask or not first:  # after a verdict: the same sign again
            _try_again(page, seen, missed)
        else:
            _choose_un_as(page)
        # No wait here for the old verdict to leave: _try_again already did, and the first ask has
        # none. A fast recognizer can give the new verdict before such a check runs, which then
        # waited a minute on a verdict that was the right one (seen once, load 8).
        expect(seen.or_(missed).first).to_be_visible(timeout=60_000)
        if seen.count():
            return ask + 1
    raise AssertionError(f"un as was not seen in {asks} tries of the clip that makes it every few seconds")
