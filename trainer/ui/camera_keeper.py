"""Start the camera stream again, in the browser, when it ends without the person pressing STOP.

Why: streamlit-webrtc's page ends the stream as soon as its WebRTC connection turns
``disconnected``, a state that in WebRTC is often passing. On a busy machine the server can go a few
seconds without answering the browser's connection checks (a ``pip install`` beside the browser test
did it; stopping the server with SIGSTOP for 10 s does it every time), and the camera then showed START
again: the person had to notice and press it.

The library's ``desired_playing_state`` was tried first: it restarts the stream, but it starts the
browser side again on every redraw of the widget while the restart is under way, so two or three
peer connections race for one answer and the restart fails after a 15-30 s ICE timeout (seen in the
browser console, on most restarts under load).

So a small script, in a frame of no height beside the widget, watches the widget's own buttons
once a second and, when a stream ends by itself, presses its START as a person would (one
connection at a time):

* it acts only if it has seen the widget's STOP (a stream playing or connecting) since the last
  start and the person has not pressed that STOP (a widget shown afresh is "off" until then; a start
  on its way, during which START still shows, is never pressed twice);
* it first reloads the widget's frame, so that the widget holds the server's current arguments: the
  old page still carried the ended connection's SDP answer, and a new connection took that stale
  answer and failed after a 15-30 s ICE timeout (seen on the first restarts after a stall);
* then it presses the reloaded widget's START.

A start that fails before connecting (a camera taken away, a permission withdrawn: the widget shows
the browser's error) never shows STOP, so it is not pressed again; and it gives up after
:data:`MAX_TRIES` restarts in a row that did not play for :data:`SETTLED_S` seconds. START then
waits for the person. Each restart is written to the browser console (``aluette:``) and counted in
the page's ``aluetteKeeper.restarts``, which the browser tests read.

The widget's document is reached from the component's frame: both are served by the app's own
server (same origin). The button labels are those of the pinned streamlit-webrtc 0.79 series.
"""

from __future__ import annotations

TICK_MS = 1000
"""How often the script looks at the widget."""
MAX_TRIES = 5
"""Restarts in a row without a stream that played :data:`SETTLED_S`, before leaving it to the person."""
SETTLED_S = 5.0
"""A stream that has played this long counts as back: the count of tries starts again."""

SCRIPT = """
<script>
(function () {
  const TICK_MS = %(tick)d, MAX_TRIES = %(tries)d, SETTLED_MS = %(settled)d;
  const host = window.parent;
  // On the app's page, not in a frame: it outlives the widget's reload below and this script's own
  // frame being drawn again.
  const keeper = host.aluetteKeeper = host.aluetteKeeper ||
    {armed: false, reloaded: false, replaced: null, tries: 0, restarts: 0, playingSince: null, stoppedAt: 0};
  if (keeper.timer) host.clearInterval(keeper.timer);
  // Streamlit draws this frame afresh on some page changes; the functions of a frame that is gone
  // are never called again, its timer and its click listener included. So each drawing of this
  // script takes over: a new timer, and its own listener on the widget's document.
  const self = {};
  keeper.owner = self;
  function widgetFrame() {
    return host.document.querySelector('[data-testid="stSidebar"] iframe[title*="webrtc"]');
  }
  function button(doc, label) {
    return Array.from(doc.querySelectorAll("button")).find(b => b.textContent.trim().toUpperCase() === label);
  }
  function listen(doc) {
    if (doc.aluetteListener === self) return;
    doc.aluetteListener = self;
    doc.addEventListener("click", function (event) {
      if (keeper.owner !== self) return;  // an older drawing's listener, if its frame still lives
      const pressed = event.target.closest ? event.target.closest("button") : null;
      if (!pressed || !event.isTrusted) return;  // the person's clicks only, not this script's
      const label = pressed.textContent.trim().toUpperCase();
      if (label === "STOP") { keeper.armed = false; keeper.reloaded = false; keeper.stoppedAt = Date.now(); }
      if (label === "START") keeper.reloaded = false;
    }, true);
  }
  keeper.timer = host.setInterval(function () {
    const frame = widgetFrame();
    let doc = null;
    try { doc = frame ? frame.contentDocument : null; } catch (error) { return; }
    if (!doc || !doc.body) return;
    listen(doc);
    if (button(doc, "STOP")) {
      // A stream runs or connects: if it ends without the person's STOP, start it again. (Not in
      // the moment between the person's STOP and the widget's redraw.)
      if (Date.now() - keeper.stoppedAt > 2 * TICK_MS) keeper.armed = true;
      keeper.reloaded = false;
      keeper.playingSince = keeper.playingSince || Date.now();
      if (Date.now() - keeper.playingSince >= SETTLED_MS) keeper.tries = 0;
      return;
    }
    keeper.playingSince = null;
    const start = button(doc, "START");
    if (!start || start.disabled) return;
    if (keeper.reloaded) {
      // The widget, loaded afresh with the server's current arguments, shows START: press it (not
      // the START of the old document, still there until the reload replaces it).
      if (doc === keeper.replaced) return;
      keeper.reloaded = false;
      keeper.replaced = null;
      keeper.restarts += 1;
      console.info("aluette: the camera stream ended without STOP; starting it again (restart " +
                   keeper.restarts + ")");
      start.click();
      return;
    }
    if (!keeper.armed) return;
    keeper.armed = false;
    if (keeper.tries >= MAX_TRIES) {
      console.warn("aluette: the camera did not come back after " + MAX_TRIES + " restarts; press START");
      return;
    }
    keeper.tries += 1;
    keeper.reloaded = true;
    keeper.replaced = doc;
    frame.contentWindow.location.reload();
  }, TICK_MS);
})();
</script>
""" % {"tick": TICK_MS, "tries": MAX_TRIES, "settled": int(SETTLED_S * 1000)}  # noqa: UP031 (braces of JS)


def keep_playing() -> None:
    """Draw the keeper beside the camera widget (one pixel high: a frame sized "content" gets Streamlit's
    resizer script, which observed a body this frame never has and raised "Failed to execute 'observe' on
    'MutationObserver'" in the page). Its content never changes, so a rerun keeps the same frame; a frame
    drawn afresh takes over the timer (one keeper per page)."""
    from trainer.ui.st_adapter import run_script  # noqa: PLC0415

    run_script(SCRIPT)
