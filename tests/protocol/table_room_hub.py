"""Browsers of an N-seat room in one process: a fake signalling hub (registered ids -> browsers) and
in-memory data channels, each end with its own made-up DTLS fingerprint, delivering strings in order.
A test may kill a browser (its channels close, its id is free), restore it from its last save, or
put a ``tamper(sender_id, receiver_id, text) -> text | None`` on the wires (modified code)."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any, Callable

from cribbage.online.link import Binding, new_room_id, new_room_secret
from cribbage.online.table_room import CloseChannel, MeshReady, Received, RoomEvent, TableRoom
from cribbage.rules import Rules

_FP = random.Random(11)


def fingerprint() -> str:
    return "sha-256 " + ":".join(f"{_FP.randrange(256):02X}" for _ in range(32))


class Endpoint:
    """Anything registered on the hub: a TableRoom's browser, or a test's hand-made stranger."""

    id: str

    def opened(self, peer: str, binding: Binding, now: float) -> None: ...
    def received(self, peer: str, text: str, now: float) -> None: ...
    def closed(self, peer: str, now: float) -> None: ...
    def outgoing(self) -> list[tuple[str, str]]: return []
    def closing(self) -> list[str]: return []
    def dials(self, now: float) -> list[str]: return []
    def tick(self, now: float) -> None: ...


@dataclass
class Browser(Endpoint):
    room: TableRoom
    id: str = ""
    events: list[RoomEvent] = field(default_factory=list)
    save: dict[str, Any] = field(default_factory=dict)
    _close: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.id = self.id or self.room.my_id

    def opened(self, peer: str, binding: Binding, now: float) -> None:
        self.room.opened(peer, binding, now)

    def received(self, peer: str, text: str, now: float) -> None:
        self.room.received(peer, text, now)

    def closed(self, peer: str, now: float) -> None:
        self.room.closed(peer, now)

    def outgoing(self) -> list[tuple[str, str]]:
        out = self.room.pop_outgoing()
        for event in self.room.pop_events():
            self.events.append(event)
            if isinstance(event, CloseChannel):
                self._close.append(event.peer)
        self.save = json.loads(json.dumps(self.room.to_dict()))
        return out

    def closing(self) -> list[str]:
        out, self._close = self._close, []
        return out

    def dials(self, now: float) -> list[str]:
        return self.room.to_dial(now)

    def tick(self, now: float) -> None:
        self.room.tick(now)

    def received_games(self) -> list[tuple[int, dict[str, Any]]]:
        return [(e.seat, e.payload) for e in self.events if isinstance(e, Received)]

    @property
    def ready(self) -> bool:
        return any(isinstance(e, MeshReady) for e in self.events)


@dataclass
class Channel:
    a: str
    b: str
    queue: list[tuple[str, str, str]] = field(default_factory=list)  # (from, to, text)


class Hub:
    """The signalling server and the network: ids -> endpoints, one channel per pair of ids."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0
        self.endpoints: dict[str, Endpoint] = {}
        self.channels: dict[frozenset[str], Channel] = {}
        self.tamper: Callable[[str, str, str], str | None] | None = None
        self.dialled: list[tuple[str, str, bool]] = []
        """(caller, callee, reached) of every call."""

    def register(self, endpoint: Endpoint) -> bool:
        if endpoint.id in self.endpoints:
            return False  # PeerJS: unavailable-id
        self.endpoints[endpoint.id] = endpoint
        return True

    def kill(self, ident: str) -> None:
        """The browser is gone: its id is free, its channels close (the others hear it)."""
        self.endpoints.pop(ident, None)
        for key, channel in list(self.channels.items()):
            if ident in key:
                del self.channels[key]
                other = channel.b if channel.a == ident else channel.a
                if other in self.endpoints:
                    self.endpoints[other].closed(ident, self.now)

    def dial(self, caller: str, callee: str) -> bool:
        reached = callee in self.endpoints and caller in self.endpoints and caller != callee
        self.dialled.append((caller, callee, reached))
        if not reached:
            return False
        key = frozenset((caller, callee))
        if key in self.channels:  # the same peer again: the old channel is replaced
            del self.channels[key]
            self.endpoints[caller].closed(callee, self.now)
            self.endpoints[callee].closed(caller, self.now)
        self.channels[key] = Channel(caller, callee)
        fa, fb = fingerprint(), fingerprint()
        self.endpoints[callee].opened(caller, Binding(fb, fa, caller), self.now)
        self.endpoints[caller].opened(callee, Binding(fa, fb, callee), self.now)
        return True

    def close(self, ident: str, peer: str, channel: Channel | None = None) -> None:
        """Close the channel between two ids (only ``channel`` if given: not one opened since)."""
        key = frozenset((ident, peer))
        if channel is not None and self.channels.get(key) is not channel:
            return
        channel = self.channels.pop(key, None)
        if channel is not None and peer in self.endpoints:
            self.endpoints[peer].closed(ident, self.now)

    def pump(self, rounds: int = 2000) -> None:
        """Carry everything until quiet (dials included)."""
        for _ in range(rounds):
            moved = False
            closing: list[tuple[str, str, Channel]] = []
            for ident, endpoint in list(self.endpoints.items()):
                if self.endpoints.get(ident) is not endpoint:
                    continue
                for peer, text in endpoint.outgoing():
                    channel = self.channels.get(frozenset((ident, peer)))
                    if channel is not None:
                        if self.tamper is not None:
                            changed = self.tamper(ident, peer, text)
                            if changed is None:
                                continue
                            text = changed
                        channel.queue.append((ident, peer, text))
                        moved = True
                for peer in endpoint.closing():  # once what was written before has arrived
                    channel = self.channels.get(frozenset((ident, peer)))
                    if channel is not None:
                        closing.append((ident, peer, channel))
                        del self.channels[frozenset((ident, peer))]
                        self.channels[frozenset((ident, peer, "closing"))] = channel
                    moved = True
                for peer in endpoint.dials(self.now):  # (after its closings, as a page does)
                    self.dial(ident, peer)
                    moved = True
            for key, channel in list(self.channels.items()):
                while channel.queue and self.channels.get(key) is channel:
                    sender, receiver, text = channel.queue.pop(0)
                    if receiver in self.endpoints:
                        self.endpoints[receiver].received(sender, text, self.now)
                    moved = True
            for ident, peer, _ in closing:
                self.channels.pop(frozenset((ident, peer, "closing")), None)
                if peer in self.endpoints and frozenset((ident, peer)) not in self.channels:  # (not replaced)
                    self.endpoints[peer].closed(ident, self.now)
            if not moved:
                return
        raise AssertionError("the hub never went quiet")

    def wait(self, seconds: float, step: float = 0.5) -> None:
        """Let time pass: every endpoint ticks every ``step`` and the network carries everything."""
        t = 0.0
        while t < seconds:
            self.now += step
            t += step
            for endpoint in list(self.endpoints.values()):
                endpoint.tick(self.now)
            self.pump()


NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve")


def open_table(hub: Hub, rules: Rules, room: str | None = None, secret: str | None = None) -> Browser:
    room = room or new_room_id()
    secret = secret or new_room_secret()
    host = Browser(TableRoom.open(room, secret, rules, NAMES[0], hub.now))
    assert hub.register(host)
    return host


def arrive(hub: Hub, host: Browser, name: str, secret: str | None = None) -> Browser:
    browser = Browser(TableRoom.join(host.room.room, secret or host.room.secret, name, hub.now))
    assert hub.register(browser)
    hub.pump()
    return browser


def full_table(players: int, **rules: Any) -> tuple[Hub, list[Browser]]:
    hub = Hub()
    host = open_table(hub, Rules(players=players, **rules))
    browsers = [host]
    for i in range(1, players):
        browsers.append(arrive(hub, host, NAMES[i]))
    hub.pump()
    return hub, browsers


def payload_of(text: str) -> dict[str, Any] | None:
    """The mesh payload inside a link envelope (None for the link's own messages)."""
    msg = json.loads(text)
    return msg["p"] if msg.get("k") == "data" else None


def with_payload(text: str, payload: dict[str, Any]) -> str:
    msg = json.loads(text)
    msg["p"] = payload
    return json.dumps(msg, separators=(",", ":"))
