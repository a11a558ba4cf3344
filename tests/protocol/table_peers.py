"""Seats of a table deal in one process, over an in-memory full mesh: one FIFO wire per ordered pair of
seats, every message round-tripped as JSON, each delivered with the seat it comes from (as an
authenticated link says). A test may tamper with, hold back or drop any message on any wire."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any, Callable

from cribbage.online.group import MODP_TEST, Group
from cribbage.online.table_deal import TableDeal
from cribbage.rules import Rules

Tamper = Callable[[int, int, dict[str, Any]], "dict[str, Any] | None"]
"""(sender, receiver, message) -> the message to put on that wire, or None to drop it."""


@dataclass
class Delivered:
    sender: int
    receiver: int
    message: dict[str, Any]


@dataclass
class Mesh:
    deals: list[TableDeal]
    wires: dict[tuple[int, int], list[dict[str, Any]]] = field(default_factory=dict)
    log: list[Delivered] = field(default_factory=list)
    sent: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    """(sender, message) of every message broadcast, as its sender made it."""
    tamper: Tamper | None = None
    events: list[tuple[str, int, int, dict[str, Any]]] = field(default_factory=list)
    """("sent", sender, -1, message) and ("got", sender, receiver, message), in the order they happened."""
    refused: list[tuple[int, int, str]] = field(default_factory=list)
    """(sender, receiver, error) of every message refused on receipt (ProtocolError)."""

    @property
    def n(self) -> int:
        return len(self.deals)

    def collect(self) -> bool:
        moved = False
        for s, deal in enumerate(self.deals):
            for message in deal.take_outbox():
                self.sent.append((s, message))
                self.events.append(("sent", s, -1, message))
                for r in range(self.n):
                    if r == s:
                        continue
                    copy = json.loads(json.dumps(message))
                    if self.tamper is not None:
                        copy = self.tamper(s, r, copy)
                    if copy is not None:
                        self.wires.setdefault((s, r), []).append(copy)
                moved = True
        return moved

    def deliver(self, sender: int, receiver: int, message: dict[str, Any]) -> None:
        from cribbage.online.errors import ProtocolError
        self.log.append(Delivered(sender, receiver, message))
        self.events.append(("got", sender, receiver, message))
        try:
            self.deals[receiver].receive(sender, message)
        except ProtocolError as exc:
            self.refused.append((sender, receiver, str(exc)))

    def pump(self, hold: Callable[[int, int, dict[str, Any]], bool] | None = None) -> None:
        """Carry messages until quiet; ``hold(sender, receiver, message)`` keeps a message on its wire."""
        while True:
            moved = self.collect()
            for (s, r), wire in sorted(self.wires.items()):
                while wire and not (hold is not None and hold(s, r, wire[0])):
                    self.deliver(s, r, wire.pop(0))
                    moved = True
            if not moved:
                return


def make_mesh(players: int, seed: int = 0, group: Group = MODP_TEST, room: str = "table-room",
              rules: Rules | None = None) -> Mesh:
    rules = rules or Rules(players=players)
    return Mesh([TableDeal(s, rules=rules, room=room, group=group,
                           randbelow=random.Random(seed * 10 + s).randrange) for s in range(players)])


def deal_hand(mesh: Mesh, k: int = 0, dealer: int = 0, depth: int = 20, starter_depth: int = 10) -> None:
    """Keys (if not yet), pack ``k``: shuffles, the cut, the deal, every seat's discard (its first slots),
    the starter; stops with the play open."""
    mesh.pump()
    n = mesh.n
    for d in mesh.deals:
        if k not in d.packs:
            d.start_pack(k, dealer)
    mesh.pump()
    mesh.deals[(dealer - 1) % n].cut(k, depth)
    mesh.pump()
    for d in mesh.deals:
        p = d.packs[k]
        assert p.layout is not None
        d.discard(k, list(p.layout.hands[d.seat][:d.rules.discards]))
    mesh.pump()
    mesh.deals[(dealer + 1) % n].cut_starter(k, starter_depth)
    mesh.pump()


def play_out(mesh: Mesh, k: int = 0, dealer: int = 0, lays: int | None = None) -> None:
    """Every seat lays the cards it holds, one at a time clockwise from the dealer's left (``lays``: stop
    after that many cards), a ``say`` of "go" when it holds none."""
    n = mesh.n
    total = sum(len(d._held(d.packs[k], d.seat)) for d in mesh.deals)
    lays = total if lays is None else lays
    seat = (dealer + 1) % n
    for _ in range(lays):
        for d in mesh.deals:
            d.turn(k, seat)
        actor = mesh.deals[seat]
        held = actor._held(actor.packs[k], seat)
        if held:
            actor.lay(k, held[0])
        else:
            actor.say(k, "go")
        mesh.pump()
        seat = (seat + 1) % n


def sent_after(mesh: Mesh, seat: int, bad: Callable[[int, dict[str, Any]], bool]) -> list[dict[str, Any]] | None:
    """What ``seat`` sent after it received the first message for which ``bad(sender, message)`` holds
    (None: it never received one)."""
    for i, (what, sender, receiver, message) in enumerate(mesh.events):
        if what == "got" and receiver == seat and bad(sender, message):
            return [m for w, s, _, m in mesh.events[i + 1:] if w == "sent" and s == seat]
    return None
