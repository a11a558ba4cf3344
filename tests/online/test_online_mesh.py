"""static/net.js's mesh mode (a table of three or four): one registration a page, one data channel per
other page, all at once, over the local PeerServer and WebRTC on loopback.

The pages here are the built site's index.html with every script but net.js, PeerJS and Trystero answered
empty (the same origin, the same Content-Security-Policy, the same signalling metas): the channels are what is
tested, and four pages each starting Pyodide would only load the machine. The pages dial as the
engine does (:meth:`cribbage.online.table_room.TableRoom.to_dial`: every seat calls the lower seats).
Today's two-player mode refuses a second caller ("full"), so every test here fails on it.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlparse

import pytest
from browser_harness import watch_console
from net_harness import Player
from test_online_nostr import dead_signal, relay, relays_meta, site  # noqa: F401 - fixtures of the relay

FP = re.compile(r"sha-256 [0-9A-F]{2}(:[0-9A-F]{2}){31}")
TRICKY = ["hello", "", "ünïcödé ♠♥♦♣ \u0000 \u2028\n",
          '<img src=x onerror="document.body.dataset.pwned=1">', "x" * 70_000]
APP_FILE = re.compile(r"\.(js|mjs|wasm|zip|json|py)$")
KEEP = re.compile(r"^/(static/net\.js|vendor/(peerjs|trystero)-[^/]+/.*)$")


def is_app_file(url: str) -> bool:
    """A script or data file of the app (not net.js, PeerJS or Trystero): answered empty, so the page runs no app."""
    path = urlparse(url).path
    return bool(APP_FILE.search(path)) and not KEEP.match(path)


def answer_empty(route: Any) -> None:
    route.fulfill(status=200, content_type="text/javascript", body="")


class MeshPage(Player):
    """A :class:`net_harness.Player` with the mesh mode's calls (each naming the peer)."""

    def open_mesh(self, peer_id: str, **options: Any) -> float:
        return self.open(peer_id, mesh=True, **options)

    def send_to(self, remote_id: str, text: str) -> bool:
        return bool(self.page.evaluate("([text, id]) => window.cribbageNet.send(text, id)", [text, remote_id]))

    def drop_peer(self, remote_id: str) -> None:
        self.page.evaluate("(id) => window.cribbageNet.drop(id)", remote_id)

    def from_peer(self, kind: str, peer: str) -> list[dict[str, Any]]:
        return [e for e in self.events(kind) if e["peer"] == peer]


class Pages:
    """Light pages in fresh contexts of the module's browser (``new``); closed at the end of the test."""

    def __init__(self, browser: Any, url: str, request: pytest.FixtureRequest) -> None:
        self.browser, self.url, self.request = browser, url, request
        self.all: list[MeshPage] = []

    def new(self, name: str, url: str | None = None, init: str | None = None) -> MeshPage:
        """A light page at ``url`` (default the site with the local PeerServer), ``init`` run as it loads."""
        context = self.browser.new_context(permissions=["camera", "microphone"])  # else no ICE on loopback
        if init:
            context.add_init_script(init)

        context.route(is_app_file, answer_empty)  # (the page itself must come from the server: a
        # fulfilled document has no address space, and Chromium then blocks its calls to 127.0.0.1)
        page = context.new_page()
        watch = watch_console(page, self.request)
        page.goto(url or self.url)
        page.wait_for_function("() => !!window.cribbageNet")
        assert page.evaluate("() => !!window.pyscript") is False
        player = MeshPage(name, context, page, watch)
        self.all.append(player)
        return player

    def close(self) -> list[str]:
        problems: list[str] = []
        for player in self.all:
            problems += [f"{player.name}: {p}" for p in player.watch.problems if not re.search("crash", p)]
            try:
                player.context.close()
            except Exception:  # noqa: BLE001 - a crashed page's context may be gone already
                pass
        return problems


@pytest.fixture
def pages(online_browser: Any, online_url: str, request: pytest.FixtureRequest) -> Iterator[Pages]:
    group = Pages(online_browser, online_url, request)
    yield group
    problems = group.close()
    if problems:
        pytest.fail("errors in the browser console:\n  " + "\n  ".join(problems))


def seat_ids(prefix: str, n: int) -> list[str]:
    return [f"{prefix}-seat{i}" for i in range(n)]


def open_all(group: list[MeshPage], ids: list[str], **options: Any) -> None:
    for page, pid in zip(group, ids):
        page.open_mesh(pid, **options)
    for page, pid in zip(group, ids):
        opened = page.wait_event("open")
        assert opened["peer"] == pid


def dial_as_the_engine(group: list[MeshPage], ids: list[str], seats: range | list[int] | None = None) -> None:
    """Every seat (of ``seats``, default all) calls every lower seat."""
    for i in seats if seats is not None else range(len(group)):
        for j in range(i):
            group[i].connect(ids[j])


def connects(page: MeshPage, peer: str, after: int = 0) -> dict[str, Any]:
    event = page.wait_event("connect", peer=peer, after=after, timeout_ms=20_000)
    return dict(json.loads(event["detail"]))


def check_mesh(group: list[MeshPage], ids: list[str], after: list[int] | None = None, seat: int | None = None) -> None:
    """Every pair (of ``seat``'s, if given) has a channel opened (since the events ``after``), its
    binding each end's own and the other's fingerprint, the call's direction the engine's (the higher
    seat called), and every page's status lists every channel open."""
    n = len(group)
    marks = after or [0] * n
    for i, j in itertools.combinations(range(n), 2):  # i < j: j called i
        if seat is not None and seat not in (i, j):
            continue
        at_i, at_j = connects(group[i], ids[j], marks[i]), connects(group[j], ids[i], marks[j])
        assert (at_i["dir"], at_j["dir"]) == ("in", "out")
        for detail in (at_i, at_j):
            assert FP.fullmatch(detail["local"]) and FP.fullmatch(detail["remote"]), detail
            assert detail["local"] != detail["remote"]
        assert (at_i["local"], at_i["remote"]) == (at_j["remote"], at_j["local"]), (ids[i], ids[j])
    for page, pid in zip(group, ids):
        status = page.status()
        assert status["mesh"] is True and status["registered"] is True and status["id"] == pid
        assert {k: v["channel"] for k, v in status["channels"].items()} == {o: "open" for o in ids if o != pid}


def exchange(group: list[MeshPage], ids: list[str], tag: str) -> None:
    """Every page sends every other its own strings; each arrives from its sender only, exactly, in order."""
    n = len(group)
    before = [len(page.events("message")) for page in group]
    for i, j in itertools.permutations(range(n), 2):
        for text in TRICKY:
            assert group[i].send_to(ids[j], f"{tag} {ids[i]}>{ids[j]} {text}")
    for j in range(n):
        group[j].page.wait_for_function(
            "([from, count]) => window.__netEvents.filter(e => e.kind === 'message').length >= from + count",
            arg=[before[j], (n - 1) * len(TRICKY)], timeout=20_000)
        got = group[j].events("message")[before[j]:]
        for i in range(n):
            if i != j:
                texts = [e["detail"] for e in got if e["peer"] == ids[i]]
                assert texts == [f"{tag} {ids[i]}>{ids[j]} {text}" for text in TRICKY], (ids[i], ids[j])
        assert len(got) == (n - 1) * len(TRICKY)
    for page in group:
        assert page.page.evaluate("() => document.body.dataset.pwned") is None
        assert {e["types"] for e in page.events()} == {"string,string,string"}


def test_every_pair_of_three_pages_has_its_own_channel(pages: Pages) -> None:
    """Three pages (four: the next test, which goes on to a closed and a killed page)."""
    n = 3
    group = [pages.new(f"seat{i}") for i in range(n)]
    ids = seat_ids(f"mesh{n}", n)
    open_all(group, ids)
    first_mesh(group, ids)


def first_mesh(group: list[MeshPage], ids: list[str]) -> None:
    """The mesh formed from the pages' first calls: every channel checked, strings both ways, a dial
    on an open channel a no-op, nobody told "full"."""
    n = len(group)
    dialled = [page.page.evaluate("() => performance.now()") for page in group]
    dial_as_the_engine(group, ids)
    check_mesh(group, ids)
    formed = max(max(e["t"] for e in page.events("connect")) - t for page, t in zip(group, dialled))
    exchange(group, ids, "first")
    print(f"\nmesh of {n} on loopback: every channel open {formed:.0f} ms after the first call")
    # a dial to a peer whose channel is open leaves it alone: nothing closes, nothing new opens
    seen = [len(page.events()) for page in group]
    group[n - 1].connect(ids[0])
    assert group[n - 1].send_to(ids[0], "still the same channel")
    assert group[0].wait_event("message", peer=ids[n - 1], after=seen[0])["detail"] == "still the same channel"
    for page, mark in zip(group, seen):
        assert not [e for e in page.events()[mark:] if e["kind"] in ("close", "connect", "error")]
    # nothing of the mesh mode's refusals: nobody was told "full"
    assert not any(page.events("full") or page.events("knock") for page in group)


def test_a_mesh_of_four_then_a_closed_page_and_a_killed_page_each_come_back(pages: Pages) -> None:
    """Four pages: every pair its own channel (as the three of the test above); then seat 1's tab is
    closed and comes back; then seat 2's renderer is killed and comes back (docs/testing.md: one test of
    what were three, each forming its own mesh of four)."""
    group = [pages.new(f"seat{i}") for i in range(4)]
    ids = seat_ids("mesh4", 4)
    open_all(group, ids)
    first_mesh(group, ids)
    a_closed_page_is_reported_to_each_and_its_return_reforms_its_channels(pages, group, ids)
    a_killed_page_comes_back_and_replaces_its_dead_channels(pages, group, ids)


def a_closed_page_is_reported_to_each_and_its_return_reforms_its_channels(pages: Pages, group: list[MeshPage],
                                                                         ids: list[str]) -> None:

    # seat 1's tab is closed: each of the others is told, naming it, and keeps its other channels
    marks = [len(page.events()) for page in group]
    group[1].page.close()  # the tab closed (its unload handlers run)
    for k in (0, 2, 3):
        closed = group[k].wait_event("close", peer=ids[1], after=marks[k])
        assert closed["detail"] == "closed"
        assert ids[1] not in group[k].status()["channels"]
        assert not group[k].send_to(ids[1], "nobody")
    exchange([group[0], group[2], group[3]], [ids[0], ids[2], ids[3]], "without 1")

    # it comes back on a new page: it calls seat 0, seats 2 and 3 call it (their redial)
    back = pages.new("seat1 again")
    group[1] = back
    marks = [len(page.events()) for page in group]
    back.open_mesh(ids[1])
    back.wait_event("open", timeout_ms=20_000)
    dial_as_the_engine(group, ids, seats=[1])
    group[2].connect(ids[1])
    group[3].connect(ids[1])
    check_mesh(group, ids, after=marks, seat=1)
    exchange(group, ids, "again")
    for k in (0, 2, 3):  # the other channels were never touched
        assert [e["peer"] for e in group[k].events("connect")[-1:]] == [ids[1]]
        assert [e for e in group[k].events()[marks[k]:] if e["kind"] == "close"] == []


def a_killed_page_comes_back_and_replaces_its_dead_channels(pages: Pages, group: list[MeshPage],
                                                            ids: list[str]) -> None:
    """A killed renderer closes nothing (WebRTC says nothing: the session's heartbeat must notice, as at
    two players). Its return calls the lower seats: each replaces the dead channel ("close"
    "replaced"); a higher seat whose heartbeat gave up drops the dead channel and calls again."""
    marks = [len(page.events()) for page in group]
    group[2].crash()
    back = pages.new("seat2 again")
    back.open_mesh(ids[2])
    back.wait_event("open", timeout_ms=20_000)  # the server frees the dead socket's id
    group[2] = back
    back_mark = 0
    dial_as_the_engine(group, ids, seats=[2])  # it calls seats 0 and 1
    for k in (0, 1):
        replaced = group[k].wait_event("close", peer=ids[2], after=marks[k])
        assert replaced["detail"] == "replaced"
    # seat 3's heartbeat gives up on the dead channel: drop it, call again
    group[3].drop_peer(ids[2])
    dropped = group[3].events()[-1]
    assert (dropped["kind"], dropped["peer"], dropped["detail"]) == ("close", ids[2], "dropped")
    group[3].connect(ids[2])
    check_mesh(group, ids, after=[marks[0], marks[1], back_mark, marks[3]], seat=2)
    exchange(group, ids, "after the kill")
    for k in (0, 1, 3):  # the channels between the seats that stayed were never touched
        others = [e for e in group[k].events()[marks[k]:] if e["peer"] != ids[2] and e["kind"] != "message"]
        assert others == [], others


def test_each_channel_has_its_own_clock_and_errors_name_the_peer(pages: Pages) -> None:
    a, b = pages.new("a"), pages.new("b")
    open_all([a, b], ["meshclock-a", "meshclock-b"], connectTimeoutMs=2_000)
    b.connect("meshclock-a")
    b.connect("meshclock-nobody")  # no such id: its own call times out, the other is unharmed
    connects(b, "meshclock-a")
    timed_out = b.wait_event("close", peer="meshclock-nobody")
    assert timed_out["detail"] == "connect-timeout"
    assert b.send_to("meshclock-a", "after the other call failed")
    assert a.wait_event("message", peer="meshclock-b")["detail"] == "after the other call failed"
    assert not b.send_to("meshclock-nobody", "x") and not b.send_to("", "x")
    # the server's late "peer-unavailable" for a call that timed out is not told again
    b.page.wait_for_timeout(4_500)
    assert [e["detail"] for e in b.from_peer("error", "meshclock-nobody")] == []

    # with a longer clock the server's answer comes first, naming the id called
    b.page.evaluate("() => { window.__netEvents.length = 0; }")
    b.open_mesh("meshclock-b2", connectTimeoutMs=12_000)
    b.wait_event("open")
    b.connect("meshclock-a")
    b.connect("meshclock-nobody2")
    error = b.wait_event("error", timeout_ms=15_000)
    assert (error["peer"], error["detail"]) == ("meshclock-nobody2", "peer-unavailable")
    connects(b, "meshclock-a")
    assert b.status()["channels"].keys() == {"meshclock-a"}
    assert not b.from_peer("close", "meshclock-nobody2")
    # a's channel from the old registration of b is gone; the new one from b2 is up
    assert a.send_to("meshclock-b2", "to the new one")
    assert b.wait_event("message", peer="meshclock-a")["detail"] == "to the new one"
    b.connect("meshclock-b2")  # itself: refused by net.js
    assert b.events()[-1]["detail"] == "invalid-id"


@pytest.mark.allow_console(r"WebSocket connection to 'ws://127\.0\.0\.1:\d+/cribbage/peerjs.*ERR_CONNECTION_REFUSED")
def test_with_the_peerserver_down_the_mesh_forms_over_the_nostr_relays(pages: Pages, site: str,
                                                                        dead_signal: str, relay: Any) -> None:
    """Issue 31's second path in the mesh mode: every seat in one Trystero room on the relay (the
    topic and key the table's session gives), each call made there when PeerJS cannot."""
    url = site + "?signal=" + dead_signal
    group = [pages.new(f"seat{i}", url=url, init=relays_meta(relay)) for i in range(3)]
    ids = seat_ids("meshnostr", 3)
    nostr = {"topic": "cribbage-t-meshnostr", "key": "k" * 43}
    for page, pid in zip(group, ids):
        page.open_mesh(pid, nostr=nostr, openTimeoutMs=4_000)
    for page, pid in zip(group, ids):
        assert page.wait_event("open", timeout_ms=20_000)["peer"] == pid
    dial_as_the_engine(group, ids)
    for i, j in itertools.combinations(range(3), 2):
        at_i, at_j = connects(group[i], ids[j]), connects(group[j], ids[i])
        assert (at_i["path"], at_j["path"]) == ("nostr", "nostr")
        assert (at_i["dir"], at_j["dir"]) == ("in", "out")
        assert FP.fullmatch(at_i["local"]) and (at_i["local"], at_i["remote"]) == (at_j["remote"], at_j["local"])
    exchange(group, ids, "over the relay")
    # a page leaving the room is told to each of the others
    marks = [len(page.events()) for page in group]
    group[2].page.evaluate("() => window.cribbageNet.close()")
    for k in (0, 1):
        assert group[k].wait_event("close", peer=ids[2], after=marks[k])["detail"] == "closed"
    assert group[0].send_to(ids[1], "the others go on")
    assert group[1].wait_event("message", peer=ids[0], after=marks[1])["detail"] == "the others go on"
