"""Command-line sub-commands of trainer.ui: ``aluette app [--port N]`` starts the browser app.

Keep imports here light: Streamlit is started in a child process by the handler.
"""

from __future__ import annotations


def add_commands(subparsers) -> None:
    app = subparsers.add_parser("app", help="start the browser app (Streamlit) on localhost")
    app.add_argument("--port", type=int, default=8501, help="port to serve on (default 8501)")
    app.add_argument("--no-browser", action="store_true", help="do not open a browser window")
    app.set_defaults(run=_run_app)


def _run_app(args) -> int:
    import subprocess

    from trainer.ui.launch import LaunchError, streamlit_command

    if not 1 <= args.port <= 65535:
        raise LaunchError(f"--port {args.port} is not a port number: use 1..65535")
    command = streamlit_command(args.port, headless=args.no_browser)
    print(f"Aluette Signal Trainer on http://localhost:{args.port}  (Ctrl+C to stop)")
    return subprocess.call(command)
