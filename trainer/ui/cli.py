"""Command-line sub-commands of trainer.ui: ``aluette app [--port N]`` starts the browser app.

Keep imports here light: Streamlit is started in a child process by the handler.
"""

from __future__ import annotations


def add_commands(subparsers) -> None:
    app = subparsers.add_parser("app", help="start the browser app (Streamlit) on localhost")
    app.add_argument("--port", type=int, default=8501, help="port to serve on (default 8501)")
    app.add_argument("--no-browser", action="store_true", help="do not open a browser window")
    app.add_argument("--analysis-slots", type=int, default=None, metavar="N",
                     help="camera frames the server analyses at once, shared fairly by all browser "
                          "sessions (default: one fewer than the cores, at least 1)")
    app.set_defaults(run=_run_app)


def _run_app(args) -> int:
    import os
    import subprocess

    from trainer.ui.analysis_slots import SLOTS_ENV, default_slots
    from trainer.ui.launch import LaunchError, streamlit_command

    if not 1 <= args.port <= 65535:
        raise LaunchError(f"--port {args.port} is not a port number: use 1..65535")
    env = dict(os.environ)
    if args.analysis_slots is not None:
        if args.analysis_slots < 1:
            raise LaunchError(f"--analysis-slots {args.analysis_slots}: give 1 or more frames analysed at once")
        env[SLOTS_ENV] = str(args.analysis_slots)
    slots = default_slots(env=env)  # a bad ALUETTE_ANALYSIS_SLOTS is refused here, before the server starts
    command = streamlit_command(args.port, headless=args.no_browser)
    print(f"Aluette Signal Trainer on http://localhost:{args.port}  (Ctrl+C to stop; "
          f"{slots} camera frame{'s' if slots > 1 else ''} analysed at once)")
    return subprocess.call(command, env=env)
