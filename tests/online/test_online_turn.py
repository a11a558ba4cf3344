"""TURN shown working (issue 31): a hand played with every candidate forced through a real TURN relay.

Debian's coturn (``turnserver``, .ci/run installs it) is started by the test on 127.0.0.1 with a
long-term credential, inside the network namespace. Both pages get only that server, as a site owner
would give it: the ``cribbage-ice-servers`` meta of the page (set as the page loads, as a deploy
writes it in index.html) and ``cribbage-ice-policy`` = ``relay`` (iceTransportPolicy "relay": no host
candidate is ever offered). They open a room, play the first hand, and both pages' selected candidate
pair (``cribbageNet.route()``, from getStats) is a relay one; coturn's log shows the allocations."""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_harness import READY_TIMEOUT_MS, wait_ready, watch_console
from net_harness import Player, Stall
from test_online_play import STEP, check_private, state, wait_live

USER, PASSWORD, REALM = "cribbage", "a-long-random-password", "cribbage.test"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Coturn:
    def __init__(self, port: int, process: subprocess.Popen[bytes], log: Path) -> None:
        self.port = port
        self.process = process
        self.log = log

    @property
    def url(self) -> str:
        return f"turn:127.0.0.1:{self.port}?transport=udp"


@pytest.fixture(scope="module")
def coturn() -> Iterator[Coturn]:
    binary = shutil.which("turnserver")
    if binary is None:
        pytest.skip("coturn is not installed (apt-get install coturn; .ci/run does)")
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="coturn-"))
    log = folder / "turn.log"
    process = subprocess.Popen(
        [binary, "-n", "--listening-ip", "127.0.0.1", "--relay-ip", "127.0.0.1", "--listening-port", str(port),
         "--min-port", "49160", "--max-port", "49400", "--lt-cred-mech", "--user", f"{USER}:{PASSWORD}",
         "--realm", REALM, "--fingerprint", "--no-tls", "--no-dtls", "--no-cli", "--allow-loopback-peers",
         "--pidfile", str(folder / "turn.pid"), "--log-file", str(log), "--simple-log", "--no-stdout-log", "--verbose"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"turnserver exited: {log.read_text() if log.exists() else ''}")
        if log.exists() and "listener opened on" in log.read_text():
            break
        time.sleep(0.1)
    yield Coturn(port, process, log)
    process.terminate()
    try:
        process.wait(5)
    except subprocess.TimeoutExpired:
        process.kill()


def relay_only(coturn: Coturn) -> str:
    """An init script: the page's metas as the site owner configures them (only that TURN server,
    relay only), set before net.js reads them (it reads them when online play opens)."""
    servers = json.dumps([{"urls": [coturn.url], "username": USER, "credential": PASSWORD}])
    return f"""document.addEventListener("DOMContentLoaded", () => {{
      const set = (name, value) => {{
        const meta = document.querySelector('meta[name="' + name + '"]');
        if (!meta || meta.getAttribute("content") !== "") throw new Error("no empty " + name + " meta");
        meta.setAttribute("content", value);
      }};
      set("cribbage-ice-servers", {json.dumps(servers)});
      set("cribbage-ice-policy", "relay");
    }});"""


def open_relayed(players: Any, coturn: Coturn, name: str, url: str) -> Player:
    context = players.browser.new_context(permissions=["camera", "microphone"])
    context.add_init_script(relay_only(coturn))
    page = context.new_page()
    watch = watch_console(page, players.request)
    page.goto(url)
    wait_ready(page, timeout=READY_TIMEOUT_MS)
    player = Player(name, context, page, watch)
    players.all.append(player)
    return player


def test_a_hand_played_with_every_candidate_through_a_local_coturn(players: Any, online_url: str,
                                                                   coturn: Coturn) -> None:
    stall = Stall()
    ann = open_relayed(players, coturn, "ann", online_url + "&group=test&delay=0")
    ann.page.click("#tool-menu")
    ann.page.click("#new-mode-online")
    ann.page.click("#btn-start")
    ann.page.wait_for_selector("#room-link")
    link = ann.page.input_value("#room-link")
    bob = open_relayed(players, coturn, "bob", link)
    started = time.monotonic()
    wait_live(ann, bob, timeout_ms=40_000)
    print(f"\nlive over TURN {time.monotonic() - started:.1f} s after Bob's page was ready")
    routes = [json.loads(p.page.evaluate("() => window.cribbageNet.route()") or "{}") for p in (ann, bob)]
    print("selected pairs:", routes)
    for route in routes:
        assert route.get("local") == "relay" and route.get("remote") == "relay", routes
    while int(state(ann)["hand"] or 0) < 2 or state(ann)["phase"] != "discard":  # the first hand, counted
        sa, sb = state(ann), state(bob)
        stall.check((sa, sb))
        check_private(ann, bob)
        if not any([ann.page.evaluate(STEP), bob.page.evaluate(STEP)]):
            time.sleep(0.02)
    routes = [json.loads(p.page.evaluate("() => window.cribbageNet.route()") or "{}") for p in (ann, bob)]
    assert all(r.get("local") == "relay" and r.get("remote") == "relay" for r in routes), routes
    assert "has stopped" not in ann.page.locator("body").inner_text()
    log = coturn.log.read_text()
    assert re.search(r"user <cribbage>: incoming packet ALLOCATE processed, success", log), log[
        -2000:
    ]  # the relay was used, with our credential
