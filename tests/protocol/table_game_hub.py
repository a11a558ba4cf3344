"""Seats of a table game in one process: a hub that broadcasts each seat's outbox to every other seat
(every message round-tripped as JSON, FIFO per ordered pair), a tamper hook for attacks, and a driver
that plays each seat's legal actions from a seeded generator."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any, Callable

from cribbage.online.group import ModPGroup
from cribbage.online.table_game import TableGame
from cribbage.rules import Rules

TINY = ModPGroup(0x1f2a74de4a5cd715b, "modp-65-game-test")
"""A 65-bit safe-prime group, worthless for play: small enough that whole matches of three and four
seats run in seconds (every proof is the same code as on P-256)."""

Tamper = Callable[[int, int, dict[str, Any]], "dict[str, Any] | list[dict[str, Any]] | None"]
"""(sender, receiver, message) -> what to put on that wire (a message, several, or None to drop it)."""


@dataclass
class Hub:
    games: list[TableGame]
    tamper: Tamper | None = None
    events: list[tuple[str, int, int, dict[str, Any]]] = field(default_factory=list)
    """("sent", sender, -1, message) and ("got", sender, receiver, message), in order."""
    wires: dict[tuple[int, int], list[dict[str, Any]]] = field(default_factory=dict)

    @property
    def n(self) -> int:
        return len(self.games)

    def pump(self, hold: Callable[[int, int, dict[str, Any]], bool] | None = None) -> None:
        while True:
            moved = False
            for s, g in enumerate(self.games):
                for message in g.take_outbox():
                    moved = True
                    self.events.append(("sent", s, -1, message))
                    for r in range(self.n):
                        if r == s:
                            continue
                        copy: Any = json.loads(json.dumps(message))
                        if self.tamper is not None:
                            copy = self.tamper(s, r, copy)
                        for m in ([] if copy is None else copy if isinstance(copy, list) else [copy]):
                            self.wires.setdefault((s, r), []).append(m)
            for (s, r), wire in sorted(self.wires.items()):
                while wire and not (hold is not None and hold(s, r, wire[0])):
                    m = wire.pop(0)
                    self.events.append(("got", s, r, m))
                    self.games[r].receive(s, m)
                    self.games[r].work()
                    moved = True
            if not moved:
                return

    def sent_after(self, seat: int, bad: Callable[[int, dict[str, Any]], bool]) -> list[dict[str, Any]] | None:
        """What ``seat`` sent after it received the first message for which ``bad`` holds (None: never got one)."""
        for i, (what, sender, receiver, message) in enumerate(self.events):
            if what == "got" and receiver == seat and bad(sender, message):
                return [m for w, s, _, m in self.events[i + 1:] if w == "sent" and s == seat]
        return None


def make_hub(players: int, seed: int = 0, target: int = 61, saveable: bool = False, **rules: Any) -> Hub:
    table = Rules(players=players, target=target, **rules)
    games = []
    for s in range(players):
        if saveable:
            games.append(TableGame(s, rules=table, room="room", group=TINY,
                                   seed=bytes([seed, s]) + bytes(30)))
        else:
            games.append(TableGame(s, rules=table, room="room", group=TINY,
                                   randbelow=random.Random(seed * 10 + s).randrange))
    return Hub(games)


def step(hub: Hub, rng: random.Random, answer: str = "leave") -> bool:
    """Every seat that may act or agree does (one action each); False when nobody could."""
    moved = False
    for g in hub.games:
        if g.can_agree() is not None:
            g.agree("next" if g.can_agree() == "next" else answer)
            moved = True
            continue
        legal = g.legal()
        if legal:
            g.act(rng.choice(legal))
            moved = True
    hub.pump()
    return moved


def play(hub: Hub, seed: int = 1, until: Callable[[Hub], bool] | None = None, limit: int = 5000,
         answer: str = "leave") -> None:
    """Play until ``until(hub)`` holds, or nobody can act (the match over and answered, or stopped)."""
    rng = random.Random(seed)
    hub.pump()
    for _ in range(limit):
        if until is not None and until(hub):
            return
        if not step(hub, rng, answer):
            return
