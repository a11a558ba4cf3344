"""The second signalling path (issue 31): Nostr relays, through the vendored Trystero strategy.

A local relay (py/tools/nostr_relay.py) runs inside the network namespace; both pages are told of it
as a site owner would (the ``cribbage-nostr-relays`` meta, set as the page loads) and the page
server's CSP allows it (connect-src). Then:

- PeerServer down (a PeerServer started, then stopped before the pages open: its URL refuses
  connections): the friends still connect, over the relay, and play the first hand; the time from
  Bob's page being ready to both pages live is printed.
- both up: they connect (PeerJS first, so usually by it) and the page says which path
  (``body[data-net-path]``, from net.js's "connect").
- what the relay saw: neither the room id nor the room secret, nor the rendezvous id, appears in
  any message either page sent it (Trystero hashes the topic and encrypts the offers).
"""

from __future__ import annotations

import sys
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_harness import READY_TIMEOUT_MS, ROOT, serve, wait_ready, watch_console
from net_harness import Player, Stall
from test_online_play import STEP, check_private, state, wait_live

sys.path.insert(0, str(ROOT / "py" / "tools"))
sys.path.insert(0, str(ROOT / "py"))
import nostr_relay
import peerserver

from cribbage.online.link import rendezvous


@pytest.fixture(scope="module")
def relay() -> Iterator[nostr_relay.Running]:
    running = nostr_relay.start("127.0.0.1")
    yield running
    running.stop()


@pytest.fixture(scope="module")
def dead_signal() -> str:
    """The URL of a PeerServer that was started and is stopped again: nothing listens there."""
    server = peerserver.start("127.0.0.1")
    url = server.url
    server.stop()
    return url


@pytest.fixture(scope="module")
def site(online_site: Path, signal_url: str, dead_signal: str, relay: nostr_relay.Running) -> Iterator[str]:
    server = serve.start(online_site, signals=[signal_url, dead_signal, relay.url])
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def relays_meta(relay: nostr_relay.Running) -> str:
    return f"""document.addEventListener("DOMContentLoaded", () => {{
      const meta = document.querySelector('meta[name="cribbage-nostr-relays"]');
      if (!meta || meta.getAttribute("content") !== "") throw new Error("no empty cribbage-nostr-relays meta");
      meta.setAttribute("content", {relay.url!r});
    }});"""


def open_page(players: Any, relay: nostr_relay.Running, name: str, url: str) -> Player:
    context = players.browser.new_context(permissions=["camera", "microphone"])
    context.add_init_script(relays_meta(relay))
    page = context.new_page()
    watch = watch_console(page, players.request)
    page.goto(url)
    wait_ready(page, timeout=READY_TIMEOUT_MS)
    player = Player(name, context, page, watch)
    players.all.append(player)
    return player


def start_room(players: Any, relay: nostr_relay.Running, url: str) -> tuple[Player, Player, float]:
    ann = open_page(players, relay, "ann", url + "&group=test&delay=0")
    ann.page.click("#tool-menu")
    ann.page.click("#new-mode-online")
    ann.page.click("#btn-start")
    ann.page.wait_for_selector("#room-link")
    link = ann.page.input_value("#room-link")
    bob = open_page(players, relay, "bob", link)
    started = time.monotonic()
    wait_live(ann, bob, timeout_ms=40_000)
    return ann, bob, time.monotonic() - started


def path_of(p: Player) -> str:
    return str(p.page.evaluate("() => document.body.getAttribute('data-net-path') || ''"))


def play_first_hand(ann: Player, bob: Player) -> None:
    stall = Stall()
    while int(state(ann)["hand"] or 0) < 2 or state(ann)["phase"] != "discard":
        sa, sb = state(ann), state(bob)
        stall.check((sa, sb))
        check_private(ann, bob)
        if not any([ann.page.evaluate(STEP), bob.page.evaluate(STEP)]):
            time.sleep(0.02)


@pytest.mark.allow_console(r"WebSocket connection to 'ws://127\.0\.0\.1:\d+/cribbage/peerjs.*ERR_CONNECTION_REFUSED")
def test_friends_connect_over_nostr_when_the_peerserver_is_down(players: Any, site: str, dead_signal: str,
                                                                 relay: nostr_relay.Running) -> None:
    before = relay.relay.events
    ann, bob, seconds = start_room(players, relay, site + "?signal=" + dead_signal)
    print(f"\nlive over Nostr {seconds:.1f} s after Bob's page was ready (PeerServer down)")
    assert path_of(ann) == "nostr" and path_of(bob) == "nostr"
    assert relay.relay.events > before  # the relay carried the offers
    assert seconds < 20, seconds
    play_first_hand(ann, bob)
    assert "has stopped" not in ann.page.locator("body").inner_text()

    link = urllib.parse.urlsplit(bob.page.url)
    room = urllib.parse.parse_qs(link.query)["room"][0]
    secret = dict(part.split("=", 1) for part in link.fragment.split("&") if "=" in part)["k"]
    seen = "\n".join(relay.relay.seen)
    assert seen, "the relay saw nothing"
    for what in (room, secret, rendezvous(room, secret)):
        assert what not in seen, what


def test_both_paths_up_the_page_says_which(players: Any, site: str, signal_url: str,
                                           relay: nostr_relay.Running) -> None:
    ann, bob, seconds = start_room(players, relay, site + "?signal=" + signal_url)
    paths = (path_of(ann), path_of(bob))
    print(f"\nlive {seconds:.1f} s after Bob's page was ready, both paths up; path {paths}")
    assert paths[0] == paths[1] and paths[0] in ("peerjs", "nostr"), paths
    status = [p.page.evaluate("() => JSON.parse(window.cribbageNet.status())") for p in (ann, bob)]
    assert all(s["path"] == paths[0] and s["nostr"] == "ready" for s in status), (paths, status)
