"""Browsers of a table session over the room's fake hub (:mod:`table_room_hub`): each endpoint is a
:class:`TableSession`, saved after every pump (its last save: what a killed browser comes back from),
and a driver that plays every seat's legal actions from a seeded generator."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any, Callable

from cribbage.online.link import Binding, new_room_id, new_room_secret
from cribbage.online.table_room import CloseChannel
from cribbage.online.table_session import SessionEvent, TableSession
from cribbage.rules import Rules

from table_game_hub import TINY
from table_room_hub import NAMES, Endpoint, Hub


@dataclass
class Page(Endpoint):
    """One browser's page: its session, what it was told, its last save."""

    session: TableSession
    id: str = ""
    events: list[SessionEvent] = field(default_factory=list)
    save: dict[str, Any] = field(default_factory=dict)
    saves: int = 0
    dirty: bool = False
    keep: bool = True
    """Save after every pump that moved something (False: only on :meth:`store`; a save costs ~50 ms late
    in a match)."""
    _close: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.id = self.id or self.session.my_id
        self.store()

    def store(self) -> None:
        self.save = json.loads(json.dumps(self.session.save()))
        self.saves += 1

    def opened(self, peer: str, binding: Binding, now: float) -> None:
        self.session.opened(peer, binding, now)
        self.dirty = True

    def received(self, peer: str, text: str, now: float) -> None:
        self.session.received(peer, text, now)
        self.dirty = True

    def closed(self, peer: str, now: float) -> None:
        self.session.closed(peer, now)
        self.dirty = True

    def outgoing(self) -> list[tuple[str, str]]:
        out = self.session.pop_outgoing()
        for event in self.session.pop_events():
            self.events.append(event)
            if isinstance(event, CloseChannel):
                self._close.append(event.peer)
        if self.keep and (self.dirty or out):
            self.store()
            self.dirty = False
        return out

    def closing(self) -> list[str]:
        out, self._close = self._close, []
        return out

    def dials(self, now: float) -> list[str]:
        return self.session.to_dial(now)

    def tick(self, now: float) -> None:
        self.session.tick(now)
        self.dirty = True


def seed_of(table: int, seat: int) -> bytes:
    return bytes([table, seat]) + bytes(30)


def full_table(players: int, table: int = 0, keep: bool = True, **rules: Any) -> tuple[Hub, list[Page]]:
    """A hub with ``players`` pages met in one room (the host first, the others in turn)."""
    hub = Hub()
    room, secret = new_room_id(), new_room_secret()
    host = Page(TableSession.open(room, secret, Rules(players=players, **rules), NAMES[0], hub.now, group=TINY,
                                  seed=seed_of(table, 0)), keep=keep)
    assert hub.register(host)
    pages = [host]
    for i in range(1, players):
        page = Page(TableSession.join(room, secret, NAMES[i], hub.now, group=TINY, seed=seed_of(table, i)), keep=keep)
        assert hub.register(page)
        hub.pump()
        pages.append(page)
    for _ in range(20):
        if all(p.session.game is not None for p in pages):
            break
        hub.wait(1.0)
    return hub, pages


def by_seat(pages: list[Page]) -> list[Page]:
    return sorted(pages, key=lambda p: p.session.seat if p.session.seat is not None else 99)


def step(hub: Hub, pages: list[Page], rng: random.Random, answer: str = "leave") -> bool:
    """Every seat that may act or agree does (one action each, by a seeded random choice); False when none could."""
    moved = False
    for page in by_seat(pages):
        s = page.session
        asked = s.can_agree()
        if asked is not None:
            s.agree("next" if asked == "next" else answer, hub.now)
            page.dirty = moved = True
            continue
        legal = s.legal()
        if legal:
            s.act(rng.choice(legal), hub.now)
            page.dirty = moved = True
    hub.pump()
    return moved


def play(hub: Hub, pages: list[Page], seed: int = 1, until: Callable[[], bool] | None = None,
         limit: int = 5000, answer: str = "leave") -> None:
    rng = random.Random(seed)
    hub.pump()
    for _ in range(limit):
        if until is not None and until():
            return
        if not step(hub, pages, rng, answer):
            return
