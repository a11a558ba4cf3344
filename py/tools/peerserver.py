#!/usr/bin/env python3
"""Run a local PeerServer (npm ``peer``), the signalling server of online play, for
``make play`` (serve.py --peerserver) and the online browser tests.

    python py/tools/peerserver.py [--host 127.0.0.1] [--port 9000] [--path /cribbage]

It runs ``node node_modules/peer/dist/bin/peerjs.js`` (the package's binary is ``peerjs``)
with ``--alive_timeout 12000``, so an id held by a dead socket frees in ~12 s instead of 60 s,
and waits until it answers. Not 5000: the PeerJS client pings every 5 s and the server drops a
socket whose last ping is ``alive_timeout`` old (checked every 0.3 s), so 5000 races with every
ping; on this busy machine it dropped live pages' sockets ("network" error, then "signal-lost"). Pages reach it with
``?signal=<url>`` (see static/net.js).
"""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BINARY = ROOT / "node_modules" / "peer" / "dist" / "bin" / "peerjs.js"
DEFAULT_PATH = "/cribbage"
ALIVE_TIMEOUT_MS = 12_000


class PeerServerError(RuntimeError):
    """The PeerServer cannot start (no node, no npm install, port taken, ...)."""


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on right now (the OS picks it)."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


@dataclass
class PeerServer:
    """A running PeerServer process; ``url`` is what ``?signal=`` takes."""

    process: subprocess.Popen[bytes]
    host: str
    port: int
    path: str

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}{self.path}"

    def stop(self) -> None:
        """Stop the server (terminate, then kill if it lingers)."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start(
    host: str = "127.0.0.1",
    port: int = 0,
    path: str = DEFAULT_PATH,
    alive_timeout_ms: int = ALIVE_TIMEOUT_MS,
    wait_s: float = 15.0,
    quiet: bool = True,
) -> PeerServer:
    """Start a PeerServer on ``host:port`` (0: a free port) and wait until it answers."""
    node = shutil.which("node")
    if node is None:
        raise PeerServerError("node is not installed: the local PeerServer needs Node.js")
    if not BINARY.exists():
        raise PeerServerError(f"{BINARY.relative_to(ROOT)} is missing: run `npm ci`")
    if not path.startswith("/"):
        raise PeerServerError(f"path must start with '/': {path!r}")
    port = port or free_port("127.0.0.1" if host in ("0.0.0.0", "") else host)
    command = [node, str(BINARY), "--host", host, "--port", str(port), "--path", path,
               "--alive_timeout", str(alive_timeout_ms)]
    output = subprocess.DEVNULL if quiet else None
    process = subprocess.Popen(command, cwd=ROOT, stdout=output, stderr=output)
    server = PeerServer(process, host, port, path)
    try:
        return _wait_until_it_answers(server, wait_s)
    except BaseException:  # interrupted (Ctrl+C) or never answered: leave no server behind
        server.stop()
        raise


def _wait_until_it_answers(server: PeerServer, wait_s: float) -> PeerServer:
    process = server.process
    deadline = time.monotonic() + wait_s
    while True:
        if process.poll() is not None:
            raise PeerServerError(f"PeerServer exited with status {process.returncode} (port {server.port} taken?)")
        try:
            with urllib.request.urlopen(server.url, timeout=1) as response:
                if json.loads(response.read()).get("name") == "PeerJS Server":
                    return server
        except (OSError, ValueError):
            pass
        if time.monotonic() > deadline:
            raise PeerServerError(f"PeerServer did not answer at {server.url} within {wait_s} s")
        time.sleep(0.05)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=9000)
    parser.add_argument("--path", default=DEFAULT_PATH)
    args = parser.parse_args(argv)
    try:
        server = start(args.host, args.port, args.path, quiet=False)
    except PeerServerError as error:
        print(f"peerserver.py: {error}", file=sys.stderr)
        return 1
    print(f"PeerServer at {server.url} (pages: ?signal={server.url}); Ctrl+C to stop", flush=True)
    try:
        server.process.wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
