"""The redial squatter of issue 31, in real browsers: a stranger who knows the room id (it is in the
link's query) reaches nobody, since the host's signalling id is derived from the room secret; and
one that has the host's signalling id anyway (a hostile signalling server sees it) and calls every
8 s, never proving a seat, cannot keep the friend out for more than 20 s."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from browser_harness import READY_TIMEOUT_MS, wait_ready
from test_online_play import new_room, open_link, wait_live

REDIAL = """([host, hello]) => {
  window.__squat = {connects: 0, heard: [], errors: []};
  const net = window.cribbageNet;
  net.open("squatter-" + Math.random().toString(36).slice(2), (kind, peer, detail) => {
    if (kind === "open") { net.connect(host); setInterval(() => net.connect(host), 8000); }
    if (kind === "connect") { window.__squat.connects += 1; net.send(hello); }
    if (kind === "message") window.__squat.heard.push(detail);
    if (kind === "error") window.__squat.errors.push(detail);
  }, "{}");
}"""


STATUS = """() => { const o = document.getElementById('online');
  return o ? o.dataset.link + ' ' + ((document.getElementById('online-status') || {}).textContent || '') : ''; }"""


def hello(room: str) -> str:
    return json.dumps({"v": 3, "k": "hello", "room": room, "seat": 1, "nonce": "ab" * 32, "recv": 0, "sent": 0,
                       "join": True})


def test_a_stranger_with_the_room_id_reaches_nobody_and_a_redialling_squatter_cannot_hold_the_room(
        players: Any, online_url: str) -> None:
    ann, link = new_room(players, online_url)
    found = re.search(r"[?&]room=([A-Za-z0-9_-]+)", link)
    assert found
    room = found.group(1)
    bob = open_link(players, "bob", link)
    started = time.monotonic()
    wait_live(ann, bob)
    print(f"\nthe friend's first join took {time.monotonic() - started:.1f} s from its page being ready")
    host_id = json.loads(ann.page.evaluate("() => window.cribbageNet.status()"))["id"]
    assert host_id and room not in host_id  # the host's id tells nothing of the room id, nor follows from it

    # With only the room id: the old rendezvous answers nobody.
    guess = players.new("guess")
    guess.open("guess-" + room)
    guess.wait_event("open")
    guess.connect(f"cribbage-{room}-0")
    assert guess.wait_event("error", timeout_ms=20_000)["detail"] == "peer-unavailable"

    bob.page.goto("about:blank")  # Bob's page goes away for a moment...
    ann.page.wait_for_selector('#online:not([data-link="live"])', timeout=20_000)
    squat = players.new("squat")  # ...and a stranger holding the host's id calls every 8 s
    squat.page.evaluate(REDIAL, [host_id, hello(room)])
    squat.page.wait_for_function("() => window.__squat.connects >= 1", timeout=15_000)
    squat.page.wait_for_timeout(4_000)  # it has held the channel a while, and called again
    bob.page.goto(link)
    wait_ready(bob.page, timeout=READY_TIMEOUT_MS)
    started = time.monotonic()
    print("squatter's events so far:", squat.page.evaluate("() => window.__squat"))
    seen: list[tuple[float, list[str]]] = []
    while time.monotonic() - started < 20:
        now = [p.page.evaluate(STATUS) for p in (ann, bob)]
        if not seen or seen[-1][1] != now:
            seen.append((round(time.monotonic() - started, 2), now))
        if all(n.startswith("live") for n in now):
            break
        time.sleep(0.1)
    print(*seen, sep="\n")
    wait_live(ann, bob, timeout_ms=1_000)
    took = time.monotonic() - started
    print("ann's notes:", ann.page.inner_text("#online"))
    print(f"\nthe friend got past a squatter calling every 8 s in {took:.1f} s")
    squat.page.wait_for_timeout(17_000)  # two more calls of the squatter: the friend stays
    assert ann.page.get_attribute("#online", "data-link") == "live"
    assert bob.page.get_attribute("#online", "data-link") == "live"
    state = squat.page.evaluate("() => window.__squat")
    told = [json.loads(t) for t in state["heard"]]
    assert state["connects"] >= 2, state
    assert {m["k"] for m in told} <= {"hello", "ping", "refuse"}, told  # never a proof nor data
    assert {m["reason"] for m in told if m["k"] == "refuse"} <= {"full"}, told
