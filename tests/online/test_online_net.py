"""The transport of online play in real browsers: static/net.js over PeerJS, a local PeerServer
and WebRTC data channels on loopback, inside a network namespace holding only ``lo``.

The figures (connect time, round trip) are printed (``-s`` shows them), never asserted against
a speed target; the assertions are about what arrives, in which order, and what never does.
"""

from __future__ import annotations

import json
import re

from net_harness import median, sleep_ms

ROOM_FULL = "room full"
TRICKY = [
    "hello",
    "",
    "ünïcödé ♠♥♦♣ 🂡 \u0000 \u2028 tab\tnewline\n",
    "<img src=x onerror=\"document.body.dataset.pwned='1'\"><script>document.body.dataset.pwned='2'</script>",
    '{"type": "play", "card": "5H"}',
    "x" * 100_000,
]


def test_two_pages_connect_and_strings_round_trip_both_ways(players, signal_url):
    host = players.new("host", ready=True)  # measured with the game running in both pages
    guest = players.new("guest", ready=True)
    t_open = host.open("cribbage-host", busy=ROOM_FULL)
    opened = host.wait_event("open")
    assert opened["peer"] == "cribbage-host" and opened["detail"] == signal_url
    guest.open("cribbage-guest", busy=ROOM_FULL)
    guest.wait_event("open")
    register_ms = opened["t"] - t_open

    t_connect = guest.connect("cribbage-host")
    out = guest.wait_event("connect")
    inbound = host.wait_event("connect")
    out_detail, in_detail = json.loads(out["detail"]), json.loads(inbound["detail"])
    assert (out["peer"], out_detail["dir"]) == ("cribbage-host", "out")
    assert (inbound["peer"], in_detail["dir"]) == ("cribbage-guest", "in")
    # The channel's binding: each end reads its own and the other's DTLS fingerprint, and they agree.
    fp = re.compile(r"sha-256 [0-9A-F]{2}(:[0-9A-F]{2}){31}")
    assert fp.fullmatch(out_detail["local"]) and fp.fullmatch(out_detail["remote"])
    assert (out_detail["local"], out_detail["remote"]) == (in_detail["remote"], in_detail["local"])
    assert out_detail["local"] != out_detail["remote"]
    connect_ms = out["t"] - t_connect
    status = guest.status()
    assert status["channel"] == "open" and status["remote"] == "cribbage-host"
    assert status["signal"] == signal_url

    # Strings arrive exactly as sent, in order, both ways, and are never run or inserted.
    for sender, receiver in ((guest, host), (host, guest)):
        before = len(receiver.events())
        for text in TRICKY:
            assert sender.send(text)[0]
        for index in range(len(TRICKY)):
            receiver.wait_event("message", after=before + index)
        got = [e["detail"] for e in receiver.events("message")][-len(TRICKY):]
        assert got == TRICKY
    for player in (host, guest):
        assert player.page.evaluate("() => document.body.dataset.pwned") is None
        assert player.page.locator("img[src=x]").count() == 0
        assert {e["types"] for e in player.events()} == {"string,string,string"}

    # Round trip: the host echoes every message back (as a Python handler would).
    host.page.evaluate("""() => {
      const record = window.__netEvents;
      const push = record.push.bind(record);
      record.push = (e) => { if (e.kind === 'message') window.cribbageNet.send('echo:' + e.detail); return push(e); };
    }""")
    trips = []
    for i in range(30):
        before = len(guest.events())
        _, sent_at = guest.send(f"ping {i}")
        echo = guest.wait_event("message", after=before)
        assert echo["detail"] == f"echo:ping {i}"
        trips.append(echo["t"] - sent_at)
    print(f"\nnet.js on loopback: register {register_ms:.0f} ms, connect {connect_ms:.0f} ms, "
          f"round trip median {median(trips):.2f} ms (max {max(trips):.2f} ms, {len(trips)} trips)")


def test_a_third_peer_is_told_the_room_is_full_and_the_game_goes_on(players):
    host, guest, third = players.new("host"), players.new("guest"), players.new("third")
    for player, name in ((host, "full-host"), (guest, "full-guest"), (third, "full-third")):
        player.open(name, busy=ROOM_FULL)
        player.wait_event("open")
    guest.connect("full-host")
    host.wait_event("connect")
    guest.wait_event("connect")

    third.connect("full-host")
    third.wait_event("connect", peer="full-host")
    told = third.wait_event("message", peer="full-host")
    assert told["detail"] == ROOM_FULL
    closed = third.wait_event("close", peer="full-host")
    assert closed["detail"] == "closed"
    print(f"\nthird peer: told {told['detail']!r}, closed {closed['t'] - told['t']:.0f} ms later")
    refused = host.wait_event("full")
    assert refused["peer"] == "full-third"

    # The host still talks to its guest only; nothing of the third reached the host's game.
    assert [e["peer"] for e in host.events("connect")] == ["full-guest"]
    assert not host.events("close") and not host.events("message")
    assert guest.send("still here")[0]
    assert host.wait_event("message")["detail"] == "still here"
    assert host.status()["remote"] == "full-guest"


def test_a_killed_page_is_reported_by_nothing_and_its_return_replaces_it(players):
    """PeerJS reports no close and no error for a peer whose browser dies (ICE only goes
    "disconnected"): the game's own heartbeat must notice. The same id coming back replaces
    the dead channel."""
    host, guest = players.new("host"), players.new("guest")
    host.open("kill-host", busy=ROOM_FULL)
    guest.open("kill-guest", busy=ROOM_FULL)
    host.wait_event("open")
    guest.wait_event("open")
    guest.connect("kill-host")
    host.wait_event("connect")
    guest.wait_event("connect")

    seen = len(host.events())
    guest.crash()
    states = []
    for _ in range(16):  # 8 s: ICE leaves "connected" after ~5 s, never reaching "failed"
        sleep_ms(500)
        states.append(host.status()["ice"])
    assert host.events()[seen:] == [], "PeerJS reported the killed page after all"
    assert host.status()["channel"] == "open"
    assert states[0] == "connected" and states[-1] == "disconnected", states
    print(f"\nkilled page: host ICE states every 0.5 s: {states}; no event from PeerJS")
    assert host.send("anyone there?")[0]  # and sending still 'works'

    back = players.new("guest again")
    back.open("kill-guest", busy=ROOM_FULL)
    back.wait_event("open", timeout_ms=20_000)  # the dead socket's id is freed by the server
    back.connect("kill-host")
    back.wait_event("connect")
    replaced = host.wait_event("close", after=seen)
    assert (replaced["peer"], replaced["detail"]) == ("kill-guest", "replaced")
    host.wait_event("connect", after=seen)
    assert back.send("I am back")[0]
    assert host.wait_event("message", after=seen)["detail"] == "I am back"


def test_a_closed_page_is_reported_and_drop_frees_the_seat(players):
    host, guest = players.new("host"), players.new("guest")
    host.open("close-host", busy=ROOM_FULL)
    guest.open("close-guest", busy=ROOM_FULL)
    host.wait_event("open")
    guest.wait_event("open")
    guest.connect("close-host")
    host.wait_event("connect")
    seen = len(host.events())
    guest.page.evaluate("() => window.cribbageNet.close()")  # also what a reload/closed tab does
    closed = host.wait_event("close", after=seen)
    assert (closed["peer"], closed["detail"]) == ("close-guest", "closed")
    assert host.status()["channel"] == "none"
    assert not host.send("nobody")[0]

    # drop(): the side that gives up (its heartbeat expired) frees the seat for someone else.
    other = players.new("other")
    other.open("close-other", busy=ROOM_FULL)
    other.wait_event("open")
    other.connect("close-host")
    other.wait_event("connect")
    host.drop()
    assert host.events()[-1]["kind"] == "close" and host.events()[-1]["detail"] == "dropped"
    assert other.wait_event("close")["detail"] == "closed"


def test_errors_arrive_as_codes(players):
    lone = players.new("lone")
    quick = players.new("quick")
    lone.open("errors-lone", busy=ROOM_FULL, connectTimeoutMs=12_000)
    quick.open("errors-quick", busy=ROOM_FULL, connectTimeoutMs=1_500)
    lone.wait_event("open")
    quick.wait_event("open")
    called = lone.connect("nobody-has-this-id")
    quick.connect("nobody-has-this-id")
    # The server says so after its expire_timeout (~5 s)...
    error = lone.wait_event("error")
    assert (error["peer"], error["detail"]) == ("nobody-has-this-id", "peer-unavailable")
    assert lone.status()["channel"] == "none"
    print(f"\npeer-unavailable after {error['t'] - called:.0f} ms (the PeerServer's expire_timeout)")
    # ...unless our own timeout comes first (PeerJS has none for a channel that never opens);
    # then the server's late answer is not reported a second time.
    assert quick.wait_event("error")["detail"] == "connect-timeout"
    sleep_ms(1500)
    assert [(e["peer"], e["detail"]) for e in quick.events("error")] == [("nobody-has-this-id", "connect-timeout")]
    assert quick.status()["channel"] == "none"

    taken = players.new("taken")
    taken.open("errors-lone")  # held by the lone page
    assert taken.wait_event("error")["detail"] == "unavailable-id"

    for bad_signal in ("javascript:alert(1)", "http://user:pw@127.0.0.1:1/", "not a url"):
        taken.open("x", signal=bad_signal)
        assert taken.wait_event("error")["detail"] == "bad-signal"
        assert json.loads(taken.page.evaluate("() => window.cribbageNet.status()"))["registered"] is False


def test_without_media_permission_only_our_timeout_reports_the_failure(players):
    """Chromium gathers no ICE candidate on loopback unless the page has media permission; PeerJS
    then waits forever. net.js's connect timeout is what reports it, on both sides."""
    host, guest = players.new("host", media=False), players.new("guest", media=False)
    host.open("nomedia-host", busy=ROOM_FULL, connectTimeoutMs=3000)
    guest.open("nomedia-guest", busy=ROOM_FULL, connectTimeoutMs=3000)
    host.wait_event("open")
    guest.wait_event("open")
    guest.connect("nomedia-host")
    error = guest.wait_event("error")
    assert (error["peer"], error["detail"]) == ("nomedia-host", "connect-timeout")
    assert not guest.events("connect")
    # the host heard the offer, never got a channel, and gave the seat back after its timeout
    assert host.wait_event("error")["detail"] == "connect-timeout"
    assert not host.events("connect") and host.status()["channel"] == "none"
