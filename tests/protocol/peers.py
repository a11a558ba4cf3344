"""Two online peers in one process, over an in-memory exchange that round-trips every payload as JSON."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any, Callable

from cribbage.actions import Action
from cribbage.online.group import MODP_TEST, Group, ModPGroup
from cribbage.online.game import OnlineGame
from cribbage.rules import CLASSIC, Rules
from cribbage.state import other


SMALL_GROUP = ModPGroup(0xC0000000000000000000000000000EAB, "modp-128-test")
"""A 128-bit safe-prime group (``MODP_TEST`` is 384 bits): a multiplication takes a tenth of the
time, for whole matches whose point is not the group (docs/testing.md, the fourth round)."""


@dataclass
class Logged:
    """One payload as delivered: who received it and what the receiver knew of the pack just before."""

    receiver: int
    message: dict[str, Any]


@dataclass
class Table:
    """Two peers and the wires between them."""

    peers: list[OnlineGame]
    wires: list[list[dict[str, Any]]] = field(default_factory=lambda: [[], []])
    """wires[s]: payloads on their way to seat s, in order."""
    log: list[Logged] = field(default_factory=list)
    on_deliver: Callable[[int, dict[str, Any]], None] | None = None

    def pump(self) -> None:
        """Run both peers' work and carry the payloads until everything is quiet."""
        while True:
            moved = False
            for seat, peer in enumerate(self.peers):
                peer.run_all()
                for message in peer.take_outbox():
                    self.wires[other(seat)].append(json.loads(json.dumps(message)))
            for seat in (0, 1):
                while self.wires[seat]:
                    message = self.wires[seat].pop(0)
                    if self.on_deliver is not None:
                        self.on_deliver(seat, message)
                    self.log.append(Logged(seat, message))
                    self.peers[seat].receive(message)
                    moved = True
            if not moved and not any(p.busy for p in self.peers):
                return


def make_table(group: Group = MODP_TEST, seed: int = 0, room: str = "test-room",
               rules: Rules | tuple[Rules, Rules] = CLASSIC) -> Table:
    """Two fresh peers; their secret draws come from ``seed`` so a failing run can be replayed.
    ``rules``: the table (or each peer's own, to test a peer at another table)."""
    both = rules if isinstance(rules, tuple) else (rules, rules)
    return Table([OnlineGame(s, ("North", "South"), room=room, group=group,
                             randbelow=random.Random(seed * 2 + s).randrange, rules=both[s])
                  for s in (0, 1)])


def choose(peer: OnlineGame, rng: random.Random) -> Action | None:
    legal = peer.legal_actions()
    return rng.choice(legal) if legal else None


def play_match(table: Table, rng: random.Random, max_steps: int = 5000,
               before_act: Callable[[Table], None] | None = None) -> None:
    """Play until the game is over on both sides, each peer choosing at random among its legal actions."""
    for _ in range(max_steps):
        table.pump()
        if all(p.match.state.is_over for p in table.peers):
            table.pump()
            return
        if any(p.failure for p in table.peers):
            return
        moved = False
        for seat in rng.sample((0, 1), 2):
            peer = table.peers[seat]
            if peer.can_accept_next_hand():
                peer.accept_next_hand()
                moved = True
                continue
            action = choose(peer, rng)
            if action is not None:
                if before_act is not None:
                    before_act(table)
                peer.act(action)
                moved = True
                if rng.random() < 0.5:
                    break
        if not moved and not any(p.busy for p in table.peers) and not any(table.wires):
            raise AssertionError(f"stuck: {[p.waiting_for() for p in table.peers]} "
                                 f"{[p.match.state for p in table.peers]}")
    raise AssertionError("the match did not finish")


# --- helpers for tests that tamper with payloads ---------------------------------------------------


class Held(Exception):
    """Raised by :func:`hold` to take a payload off the wire before it is delivered."""


def drive(table: Table, rng: random.Random, predicate: Callable[[int, dict[str, Any]], bool],
          limit: int = 3000) -> tuple[int, dict[str, Any]]:
    """Play at random until a payload matching ``predicate(receiver, message)`` is about to be
    delivered; take it off the wire (undelivered) and return ``(receiver, message)``."""
    caught: list[tuple[int, dict[str, Any]]] = []
    previous = table.on_deliver

    def hook(receiver: int, message: dict[str, Any]) -> None:
        if predicate(receiver, message):
            caught.append((receiver, message))
            raise Held
        if previous is not None:
            previous(receiver, message)

    table.on_deliver = hook
    try:
        for _ in range(limit):
            table.pump()
            for seat in rng.sample((0, 1), 2):
                peer = table.peers[seat]
                if peer.can_accept_next_hand():
                    peer.accept_next_hand()
                elif peer.legal_actions():
                    peer.act(rng.choice(peer.legal_actions()))
                    break
    except Held:
        return caught[0]
    finally:
        table.on_deliver = previous
    raise AssertionError("no such payload was sent")


def clone(peer: OnlineGame, seed: int = 99) -> OnlineGame:
    """The peer rebuilt from its save (its outbox emptied): a copy to feed a bad payload to."""
    data = json.loads(json.dumps(peer.to_dict()))
    copy = OnlineGame.from_dict(data, randbelow=random.Random(seed).randrange, groups=(MODP_TEST, SMALL_GROUP))
    copy.take_outbox()
    return copy


def feed(peer: OnlineGame, message: dict[str, Any]) -> tuple[OnlineGame, list[dict[str, Any]]]:
    """A copy of ``peer`` given ``message`` and all its work: (the copy, what it sent after)."""
    copy = clone(peer)
    copy.receive(json.loads(json.dumps(message)))
    copy.run_all()
    return copy, copy.take_outbox()


def run_until(table: Table, rng: random.Random, condition: Callable[[], bool], limit: int = 3000) -> None:
    """Play at random until ``condition()`` holds (checked whenever both peers are quiet)."""
    for _ in range(limit):
        table.pump()
        if condition():
            return
        for seat in rng.sample((0, 1), 2):
            peer = table.peers[seat]
            if peer.can_accept_next_hand():
                peer.accept_next_hand()
            elif peer.legal_actions():
                peer.act(rng.choice(peer.legal_actions()))
                break
    raise AssertionError("condition never reached")
