"""The squatter of issue 31: a stranger with the room id (or even the host's signalling id) who calls
the host again and again and never proves a seat cannot keep the friend out.

Played in memory: two :class:`Link` ends (host and friend), a stranger that sends a join hello and then
only heartbeats, and a model of the host page (static/net.js with ``screen: true`` plus
py/web/page/net.py): the first caller takes the channel, the same caller calling again replaces its
own channel, any other caller "knocks" with its first string, which the host's link screens
(:meth:`Link.screen`) before the page admits it (it replaces the channel) or refuses it. The friend's
page redials every 3 s, 5 s after being told "full" (web.sessions.online.peer)."""

from __future__ import annotations

import json
import random
from typing import Protocol

from cribbage.online.link import (
    PROTOCOL,
    SCREEN_GRACE,
    UNPROVEN_FORGET,
    UNPROVEN_TIMEOUT,
    Binding,
    HangUp,
    Link,
    new_room_id,
    new_room_secret,
    new_seat_key,
    rendezvous,
)

T0 = 1_800_000_000.0
STEP = 0.25
_FP = random.Random(31)


def fingerprint() -> str:
    return "sha-256 " + ":".join(f"{_FP.randrange(256):02X}" for _ in range(32))


class End(Protocol):
    def connected(self, now: float, binding: Binding | None = None) -> None: ...
    def disconnected(self, now: float) -> None: ...
    def receive(self, text: object, now: float) -> None: ...
    def tick(self, now: float) -> None: ...
    def pop_outgoing(self) -> list[str]: ...


class Stranger:
    """Knows the room id; says a join hello on every channel, then only heartbeats; proves nothing."""

    def __init__(self, room: str) -> None:
        self.room = room
        self.out: list[str] = []
        self.heard: list[str] = []
        self.last_ping = 0.0
        self.on = False

    def connected(self, now: float, binding: Binding | None = None) -> None:
        self.on = True
        self.out = []
        self.out.append(json.dumps({"v": PROTOCOL, "k": "hello", "room": self.room, "seat": 1,
                                    "nonce": "ab" * 32, "recv": 0, "sent": 0, "join": True}))
        self.last_ping = now

    def disconnected(self, now: float) -> None:
        self.on = False

    def receive(self, text: object, now: float) -> None:
        self.heard.append(str(text))

    def tick(self, now: float) -> None:
        if self.on and now - self.last_ping >= 2.0:
            self.last_ping = now
            self.out.append(json.dumps({"v": PROTOCOL, "k": "ping", "ack": 0, "sent": 0, "live": False}))

    def pop_outgoing(self) -> list[str]:
        out, self.out = self.out, []
        return out


class Caller:
    def __init__(self, name: str, end: End) -> None:
        self.name = name
        self.end = end
        self.on = False  # its channel to the host is open

    def hang_ups(self) -> list[str]:
        if not isinstance(self.end, Link):
            return []
        return [e.reason for e in self.end.pop_events() if isinstance(e, HangUp)]


class HostPage:
    """The host's page: one channel; another caller knocks with its first string (net.js ``screen``)."""

    def __init__(self, link: Link) -> None:
        self.link = link
        self.current: Caller | None = None
        self.refused: list[str] = []
        self.admitted: list[str] = []

    def _open(self, caller: Caller, now: float) -> list[str]:
        a, b = fingerprint(), fingerprint()
        self.current = caller
        caller.on = True
        self.link.connected(now, Binding(a, b, caller.name))
        caller.end.connected(now, Binding(b, a))
        return caller.end.pop_outgoing()

    def drop(self, now: float) -> None:
        if self.current is not None:
            self.current.on = False
            self.current.end.disconnected(now)
            self.current = None
            self.link.disconnected(now)
            self.link.pop_outgoing()

    def call(self, caller: Caller, now: float) -> None:
        if self.current is None or self.current is caller:
            self.drop(now)  # (the same caller again: its new channel replaces its old one)
            for text in self._open(caller, now):
                self.link.receive(text, now)
            return
        # another caller: its channel opens, its first string knocks
        a, b = fingerprint(), fingerprint()
        caller.end.connected(now, Binding(b, a))
        first, *rest = caller.end.pop_outgoing()
        refusal = self.link.screen(first, now, caller.name)
        if refusal is not None:
            self.refused.append(caller.name)
            caller.end.receive(refusal, now)  # then the page closes that channel
            caller.end.disconnected(now)
            return
        self.admitted.append(caller.name)
        self.drop(now)
        self.current = caller
        caller.on = True
        self.link.connected(now, Binding(a, b, caller.name))
        for text in [first, *rest]:
            self.link.receive(text, now)

    def carry(self, now: float) -> None:
        for _ in range(100):
            caller = self.current
            if caller is None:
                return
            to_caller, to_host = self.link.pop_outgoing(), caller.end.pop_outgoing()
            if not to_caller and not to_host:
                return
            for text in to_caller:
                caller.end.receive(text, now)
            for text in to_host:
                self.link.receive(text, now)
        raise AssertionError("the link never falls quiet")


def a_room(now: float = T0) -> tuple[HostPage, Caller]:
    """A room whose friend joined once (both seats bound), then went away."""
    room, secret = new_room_id(), new_room_secret()
    host = HostPage(Link.host(room, new_seat_key(), now, secret))
    friend = Caller("cribbage-x-1-friend", Link.join(room, new_seat_key(), now, secret))
    host.call(friend, now)
    host.carry(now)
    assert host.link.state == "live"
    host.drop(now + 1)
    return host, friend


def play(host: HostPage, friend: Caller, strangers: list[Caller], every: float, start: float, until: float,
         friend_from: float) -> float | None:
    """Strangers call in turn every ``every`` seconds from ``start``; the friend dials from ``friend_from``
    as its page does. When the friend is first live (or None)."""
    assert isinstance(friend.end, Link)
    live_at: float | None = None
    next_stranger, turn = start, 0
    friend_next = friend_from
    now = start
    while now <= until:
        if now >= next_stranger:
            host.call(strangers[turn % len(strangers)], now)
            turn += 1
            next_stranger += every
        if not friend.on and now >= friend_next:
            host.call(friend, now)
        host.carry(now)
        for hung in [e for e in host.link.pop_events() if isinstance(e, HangUp)]:
            del hung
            host.carry(now)
            host.drop(now)  # the page closes the channel (~200 ms later)
        if friend.hang_ups() or (not friend.on and friend_next <= now):
            if friend.on:
                host.drop(now)
            friend_next = now + (5.0 if friend.end.full else 3.0)
        if live_at is None and host.link.state == "live" and friend.end.state == "live":
            live_at = now
        host.link.tick(now)
        for caller in [friend, *strangers]:
            caller.end.tick(now)
        host.carry(now)
        now += STEP
    return live_at


def test_a_stranger_calling_every_8_s_under_one_id_cannot_keep_the_friend_out() -> None:
    host, friend = a_room()
    squatter = Caller("cribbage-x-1-squat", Stranger(host.link.room))
    live_at = play(host, friend, [squatter], every=8.0, start=T0 + 2, until=T0 + 120, friend_from=T0 + 3)
    assert live_at is not None and live_at - (T0 + 3) <= 20.0, live_at
    assert host.link.state == "live" and host.current is friend  # and it stays so, though the calls go on
    assert isinstance(squatter.end, Stranger)
    heard = [json.loads(t) for t in squatter.end.heard]
    assert {m["k"] for m in heard} <= {"hello", "ping", "refuse"}  # never a proof, never data
    assert {m["reason"] for m in heard if m["k"] == "refuse"} <= {"full"}


def test_strangers_calling_under_fresh_ids_cannot_keep_the_friend_out() -> None:
    host, friend = a_room()
    crowd = [Caller(f"cribbage-x-1-s{i}", Stranger(host.link.room)) for i in range(40)]
    live_at = play(host, friend, crowd, every=1.0, start=T0 + 2, until=T0 + 60, friend_from=T0 + 3)
    assert live_at is not None and live_at - (T0 + 3) <= 20.0, live_at
    assert host.link.state == "live" and host.current is friend


def test_calling_again_does_not_restart_a_callers_unproven_clock() -> None:
    host, _ = a_room()
    squatter = Caller("cribbage-x-1-squat", Stranger(host.link.room))
    hung: list[float] = []
    now = T0 + 2
    while now < T0 + 2 + 30:
        if (now - (T0 + 2)) % 8 == 0:
            host.call(squatter, now)  # it calls again before its 10 s are up, every time
        host.carry(now)
        host.link.tick(now)
        host.carry(now)
        if any(isinstance(e, HangUp) for e in host.link.pop_events()):
            hung.append(now)
            host.drop(now)
        now += STEP
    assert hung and hung[0] <= T0 + 2 + UNPROVEN_TIMEOUT, hung  # 10 s from its first call, not its last
    assert all(h - c <= STEP for h in hung[1:] for c in [T0 + 2 + 8 * ((h - T0 - 2) // 8)]), hung  # at once later


def test_a_caller_away_a_minute_starts_a_fresh_clock_and_a_proven_one_is_forgiven() -> None:
    host, friend = a_room()
    slow = Caller("cribbage-x-1-slow", Stranger(host.link.room))
    host.call(slow, T0 + 2)
    host.link.tick(T0 + 2 + UNPROVEN_TIMEOUT)
    assert any(isinstance(e, HangUp) for e in host.link.pop_events())
    host.drop(T0 + 12.5)
    back = T0 + 12.5 + UNPROVEN_FORGET + 1
    host.call(slow, back)
    host.link.tick(back + UNPROVEN_TIMEOUT - 1)
    assert not any(isinstance(e, HangUp) for e in host.link.pop_events())  # a fresh 10 s
    host.drop(back + 9.5)
    host.call(friend, back + 10)
    host.carry(back + 10)
    assert host.link.state == "live"


def test_screen_refuses_while_the_friend_is_live_or_a_caller_may_still_prove_its_seat() -> None:
    host, friend = a_room()
    hello = json.dumps({"v": PROTOCOL, "k": "hello", "room": host.link.room, "seat": 1, "nonce": "cd" * 32,
                        "recv": 0, "sent": 0, "join": True})
    full = json.dumps({"v": PROTOCOL, "k": "refuse", "reason": "full"}, separators=(",", ":"))
    assert host.link.screen(hello, T0 + 2, "a") is None  # nobody on the channel
    host.call(Caller("b", Stranger(host.link.room)), T0 + 2)
    assert host.link.screen(hello, T0 + 2 + SCREEN_GRACE - 0.1, "a") == full  # b may still prove it
    assert host.link.screen(hello, T0 + 2 + SCREEN_GRACE, "a") is None
    host.drop(T0 + 6)
    host.call(friend, T0 + 6)
    host.carry(T0 + 6)
    assert host.link.state == "live"
    assert host.link.screen(hello, T0 + 60, "a") == full  # the friend is here


def test_the_rendezvous_needs_the_secret() -> None:
    room, secret = new_room_id(), new_room_secret()
    name = rendezvous(room, secret)
    assert name == rendezvous(room, secret) and len(name) == 32 and room not in name
    assert name != rendezvous(room, new_room_secret()) and name != rendezvous(new_room_id(), secret)
    assert rendezvous(room, None) == room  # a room made before secrets existed keeps its old name
