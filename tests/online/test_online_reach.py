"""The page when it must not, or cannot, connect, in real browsers on loopback: a room link naming a
signalling server this page does not trust is refused in a sentence and that server is never
contacted; two browsers whose ICE candidates never reach each other (as between networks that block a
direct connection) both say so within 20 s instead of waiting for the friend forever."""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import urlsplit

from browser_harness import READY_TIMEOUT_MS, wait_ready, watch_console
from net_harness import Player, no_snapshot_script

from cribbage.online.link import new_room_id, new_room_secret

NO_DIRECT = "no direct connection between your two browsers could be made"
BLOCK_CANDIDATES = """(() => {
  // No ICE candidate leaves this page and none is taken in: signalling works, no channel can open.
  const Native = window.RTCPeerConnection;
  if (!Native) return;
  class Blocked extends Native {
    constructor(...args) {
      super(...args);
      let handler = null;
      Object.defineProperty(this, "onicecandidate", {
        get: () => handler, set: (fn) => { handler = fn; }, configurable: true });  // never called
    }
    addEventListener(type, fn, options) {
      if (type !== "icecandidate") super.addEventListener(type, fn, options);
    }
    addIceCandidate() { return Promise.resolve(); }
  }
  window.RTCPeerConnection = Blocked;
  window.__candidatesBlocked = true;
})();"""


def open_page(players: Any, name: str, url: str, init: str = "", log: list[str] | None = None) -> Player:
    context = players.browser.new_context(permissions=["camera", "microphone"])
    context.add_init_script(no_snapshot_script())
    if init:
        context.add_init_script(init)
    if log is not None:
        context.on("request", lambda r: log.append(r.url))
        context.on("websocket", lambda ws: log.append(ws.url))
    page = context.new_page()
    watch = watch_console(page, players.request)
    page.goto(url)
    wait_ready(page, timeout=READY_TIMEOUT_MS)
    player = Player(name, context, page, watch)
    players.all.append(player)
    return player


def online_text(p: Player) -> str:
    return str(p.page.evaluate("() => document.body.textContent || ''"))  # the panel and the prompt


def test_a_link_with_a_foreign_signal_is_refused_and_that_server_never_contacted(players, online_url):
    base = online_url.split("?")[0]
    foreign = "http://127.0.0.1:9/cribbage"  # a loopback port no page of ours names
    requests: list[str] = []
    link = f"{base}?room={new_room_id()}&signal={foreign}&group=test#k={new_room_secret()}"
    guest = open_page(players, "guest", link, log=requests)
    guest.page.wait_for_selector("#online")
    text = online_text(guest)
    assert (f"This link asks to use the signalling server \u201c{foreign}\u201d, which this page does not "
            "trust, so it was not contacted") in text
    assert text.count("This link asks") <= 2  # (the status line and the prompt: the panel's work)
    assert guest.page.locator("#room-link").count() == 0  # no link to share from a refused room
    time.sleep(2)
    assert requests and not [url for url in requests if urlsplit(url).netloc == "127.0.0.1:9"
                             or url.startswith("ws")], requests
    assert guest.page.evaluate("() => typeof window.peerjs") == "undefined"  # PeerJS was never even loaded
    assert guest.status()["registered"] is False


def test_blocked_candidates_are_explained_on_both_pages_within_20_s(players, online_url):
    ann = open_page(players, "ann", online_url + "&group=test&delay=0", init=BLOCK_CANDIDATES)
    ann.page.click("#tool-menu")
    ann.page.click("#new-mode-online")
    ann.page.click("#btn-start")
    ann.page.wait_for_selector("#room-link")
    link = ann.page.input_value("#room-link")
    bob = open_page(players, "bob", link, init=BLOCK_CANDIDATES)
    started = time.monotonic()
    assert bob.page.evaluate("() => window.__candidatesBlocked") is True
    # the signalling works: Bob's call reaches Ann's page, which answers...
    for p in (ann, bob):
        p.page.wait_for_function(
            "() => !!(window.peerjs && window.cribbageNet.status().includes('\"registered\":true'))", timeout=10_000
        )
    for p in (ann, bob):
        p.page.wait_for_function(
            "(text) => document.body.textContent.includes(text)",
            arg=NO_DIRECT, timeout=max(1_000, 20_000 - (time.monotonic() - started) * 1000))
    took = time.monotonic() - started
    print(f"\nblocked candidates: both pages explained after {took:.1f} s")
    assert took < 20
    for p in (ann, bob):
        text = online_text(p)
        assert "same Wi-Fi" in text and "TURN relay" in text
        assert "Waiting for Friend to join" not in text
        assert p.page.evaluate("() => document.getElementById('online').dataset.link") != "live"
