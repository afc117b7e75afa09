"""The server is reachable from this machine only, however it is started, and keeps tracebacks in
the terminal; uploads are capped at what the product needs."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # the same parser, from PyPI (the test extra installs it on 3.10)
    import tomli as tomllib

from trainer.ui.launch import APP_SCRIPT, REPO_ROOT, free_port, stop_server, wait_healthy

CONFIG = REPO_ROOT / ".streamlit" / "config.toml"


def test_the_config_beside_the_app_binds_localhost_and_hides_error_details():
    config = tomllib.loads(CONFIG.read_text(encoding="utf-8"))
    assert config["server"]["address"] == "127.0.0.1"
    assert config["client"]["showErrorDetails"] == "none"
    assert config["browser"]["gatherUsageStats"] is False
    assert 10 <= config["server"]["maxUploadSize"] <= 50  # MB: a photo or a short clip
    assert CONFIG.parent.parent == APP_SCRIPT.parent  # Streamlit reads it beside the script


def _other_addresses() -> list[str]:
    """This machine's non-loopback IPv4 addresses (where another machine would connect)."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    found = {info[4][0] for info in infos} - {"127.0.0.1", "127.0.1.1"}
    if not found:
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing address
            found.add(probe.getsockname()[0])
        except OSError:
            pass
        finally:
            probe.close()
    return sorted(a for a in found if not a.startswith("127."))


@pytest.mark.slow
def test_plain_streamlit_run_from_another_folder_listens_on_localhost_only(tmp_path: Path):
    """The README's way (`streamlit run streamlit_app.py`, no flags), started from another folder
    and with an empty home (no user config): still 127.0.0.1 only."""
    port = free_port()
    log = tmp_path / "server.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", str(APP_SCRIPT), "--server.port", str(port),
             "--server.headless", "true", "--server.fileWatcherType", "none"],
            cwd=tmp_path, env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "ALUETTE_HOME": str(tmp_path / "data")},
            stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )
    try:
        wait_healthy(port, timeout=60, process=process)
        others = _other_addresses()
        if not others:
            pytest.skip("this machine has no non-loopback address to try")
        for address in others:
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
                sock.settimeout(2)
                assert sock.connect_ex((address, port)) != 0, f"the app answers on {address}:{port}"
    finally:
        stop_server(process)
    assert "127.0.0.1" in log.read_text(errors="replace") or "localhost" in log.read_text(errors="replace")
