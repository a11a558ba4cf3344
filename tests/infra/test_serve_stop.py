"""Stopping `make play` (py/tools/serve.py with its local PeerServer): Ctrl+C or SIGTERM, while the
PeerServer is still starting, while serving, or twice in a row, exits quietly (no traceback) and
leaves no PeerServer behind (issue 17)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SERVE = ROOT / "py" / "tools" / "serve.py"
PEER = ROOT / "node_modules" / "peer"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1):
            return True
    except OSError:
        return False


@pytest.mark.skipif(not PEER.exists(), reason="node_modules/peer is missing: run `npm ci`")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("when", ["starting", "serving", "twice"])
def test_serve_py_stops_quietly(tmp_path: Path, sig: signal.Signals, when: str) -> None:
    (tmp_path / "index.html").write_text("<!doctype html><title>t</title>")
    port, peer_port = free_port(), free_port()
    # Its own session, as a terminal's foreground job: SIGINT gets Python's default handler
    # (a background job of a shell would inherit SIGINT ignored).
    process = subprocess.Popen(
        [sys.executable, str(SERVE), "--port", str(port), "--dir", str(tmp_path), "--peerserver", str(peer_port)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        if when == "starting":
            # The PeerServer's node process exists (serve.py's handlers are set before it starts)
            # but does not answer yet.
            children = Path(f"/proc/{process.pid}/task/{process.pid}/children")
            deadline = time.monotonic() + 20
            while not children.read_text().strip():
                assert time.monotonic() < deadline, "serve.py never started the PeerServer"
                time.sleep(0.01)
        else:
            deadline = time.monotonic() + 30
            while not answers(f"http://127.0.0.1:{port}/"):
                assert time.monotonic() < deadline, "serve.py never answered"
                assert process.poll() is None, process.communicate()
                time.sleep(0.1)
        process.send_signal(sig)
        if when == "twice":
            time.sleep(0.02)  # the second one lands while the PeerServer is being stopped
            process.send_signal(sig)
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    text = err.decode()
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text
    assert process.returncode == 0, (process.returncode, text)
    time.sleep(0.2)
    assert not answers(f"http://127.0.0.1:{peer_port}/"), "the PeerServer was left running"
