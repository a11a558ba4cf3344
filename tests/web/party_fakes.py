"""Browsers of an online table of three or four in one process: a fake of the page's mesh
(:mod:`web.sessions.online.mesh_env`: one registered id per page, one channel per pair of pages,
strings only, each event delivered on the receiver's timer as WebRTC does, never re-entrantly), and
pages that open the room from the menu or from its link, through the controller and the table."""

from __future__ import annotations

import random
from typing import Any, Callable
from urllib.parse import parse_qs, urlsplit

from online_fakes import Clock, NetHost

from cribbage.actions import Count, CutForDeal, CutPack, CutStarter, Discard, Go, Muggins, Pass, Play
from cribbage.online.group import ModPGroup
from cribbage.online.link import Binding
from web.sessions.online import peer as online
from web.sessions.online.mesh_env import MeshEvents
from web.sessions.online.party.driver import PartyEvents
from web.sessions.online.party.session import PartySession
from web.shell.controller import Controller, MemoryStorage

TINY = ModPGroup(0x1f2a74de4a5cd715b, "modp-65-game-test")
"""The engine tests' small group (tests/protocol/table_game_hub.py): worthless for play, quick."""
_FP = random.Random(5)


def fingerprint() -> str:
    return "sha-256 " + ":".join(f"{_FP.randrange(256):02X}" for _ in range(32))


class MeshEnd:
    """One page's channels (:class:`~web.sessions.online.mesh_env.MeshChannels`)."""

    def __init__(self, hub: MeshHub, me: str, events: MeshEvents, timer: NetHost) -> None:
        self.hub, self.me, self.events, self.timer = hub, me, events, timer
        self.open: set[str] = set()
        self.closed = False
        self.sent: list[tuple[str, str]] = []

    def later(self, fn: Callable[[], None]) -> None:
        self.timer.later(0, lambda: None if self.closed else fn())

    def dial(self, peer: str) -> None:
        self.hub.dials.append((self.me, peer))
        other = self.hub.ends.get(peer)
        if peer in self.open or other is None or other.closed or other is self:
            if other is None:
                self.later(lambda: self.events.on_error(peer, "peer-unavailable"))
            return
        self.open.add(peer)
        other.open.add(self.me)
        a, b = fingerprint(), fingerprint()
        self.later(lambda: self.events.on_open(peer, Binding(a, b, peer)))
        other.later(lambda: other.events.on_open(self.me, Binding(b, a, self.me)))

    def send(self, peer: str, text: str) -> bool:
        other = self.hub.ends.get(peer)
        if peer not in self.open or other is None or self.me not in other.open:
            return False
        self.sent.append((peer, text))
        self.hub.log.append((self.me, peer, text))
        if self.hub.tamper is not None:
            text = self.hub.tamper(self.me, peer, text)
        other.later(lambda: other.events.on_message(self.me, text) if self.me in other.open else None)
        return True

    def drop(self, peer: str) -> None:
        self._cut(peer)
        self.later(lambda: self.events.on_close(peer, "dropped"))

    def _cut(self, peer: str) -> None:
        self.open.discard(peer)
        other = self.hub.ends.get(peer)
        if other is not None and self.me in other.open:
            other.open.discard(self.me)
            other.later(lambda: other.events.on_close(self.me, "closed"))

    def close(self) -> None:
        for peer in list(self.open):
            self._cut(peer)
        self.closed = True
        if self.hub.ends.get(self.me) is self:
            del self.hub.ends[self.me]


class MeshHub:
    """The signalling server and the network of a table's pages."""

    def __init__(self) -> None:
        self.ends: dict[str, MeshEnd] = {}
        self.dials: list[tuple[str, str]] = []
        self.log: list[tuple[str, str, str]] = []
        """(from, to, text) of every text sent, in order."""
        self.tamper: Callable[[str, str, str], str] | None = None

    def factory(self, room: str, secret: str, me: str, events: MeshEvents) -> MeshEnd:
        assert isinstance(events, PartyEvents)
        timer = events.s.ctx.timer
        assert isinstance(timer, NetHost)
        end = MeshEnd(self, me, events, timer)
        old = self.ends.get(me)
        if old is not None and not old.closed:
            end.later(lambda: events.on_error("", "unavailable-id"))
            return end
        self.ends[me] = end
        end.later(events.on_registered)
        return end

    def kill(self, me: str) -> None:
        """The page is gone (a killed browser): its channels close, its id is free."""
        end = self.ends.get(me)
        if end is not None:
            end.close()


class Page:
    """One browser of the table: its storage survives reloads; each (re)load is a new controller."""

    def __init__(self, name: str, clock: Clock, hub: MeshHub, link: str | None = None) -> None:
        self.name, self.clock, self.hub = name, clock, hub
        self.storage = MemoryStorage({online.NAME_KEY: name} if name else {})
        self.host = NetHost(clock)
        self.random = random.Random(name)
        self.link = link
        self.controller: Controller | None = None
        self.log: list[str] | None = None
        """When a list: online play's trace (a slice of work, a save, a redraw), each task of the page's
        timers opened by a "task" line."""

    def load(self) -> Controller:
        if self.controller is not None:
            self.controller.session.close()
        self.host = NetHost(self.clock)
        log = self.log
        if log is not None:
            later = self.host.later

            def traced(ms: int, fn: Callable[[], None]) -> int:
                def task() -> None:
                    log.append("task")
                    fn()
                return later(ms, task)
            self.host.later = traced  # type: ignore[method-assign]
        room = secret = None
        players = None
        params: dict[str, str] = {}
        if self.link is not None:
            url = urlsplit(self.link)
            query = {k: v[0] for k, v in parse_qs(url.query).items()}
            room, players = query.get("room"), query.get("players")
            secret = url.fragment[2:] if url.fragment.startswith("k=") else None
            params = {"mode": "online", "room": room or ""}
            if players:
                params["players"] = players
        online.configure(mesh=self.hub.factory, room=room, secret=secret, players=players,
                         page_url="http://127.0.0.1/", wall=self.clock, group=TINY,
                         randbelow=self.random.randrange, trace=None if log is None else log.append)
        self.controller = Controller(self.host, self.storage, params, seed_source=lambda: 5)
        self.controller.boot()
        return self.controller

    @property
    def c(self) -> Controller:
        assert self.controller is not None
        return self.controller

    @property
    def session(self) -> PartySession:
        s = self.c.session
        assert isinstance(s, PartySession), type(s)
        return s

    def html(self) -> str:
        f = self.host.last
        return f.table + f.overlay

    def kill(self) -> None:
        """The browser is killed: nothing more runs here, its channels close on the others' side."""
        s = self.session
        if s.mesh is not None:
            me = s.mesh.me  # type: ignore[attr-defined]
            self.hub.kill(me)
        s._closed = True
        s.runner.close()
        self.host.timers.clear()
        self.controller = None


def settle(*pages: Page, limit: int = 200_000) -> None:
    """Run every pending message and slice of work until all are quiet."""
    for _ in range(limit):
        if not sum(p.host.run_short() for p in pages if p.controller is not None):
            return
    raise AssertionError("never quiet")


def pass_time(clock: Clock, seconds: float, *pages: Page) -> None:
    for _ in range(int(seconds / 0.5)):
        clock.now += 0.5
        for p in pages:
            if p.controller is not None:
                p.host.run_ticks()
        settle(*pages)


def host_table(clock: Clock, hub: MeshHub, players: int, name: str = "Ann", **choices: str) -> Page:
    """A browser that opens a table from the menu: Online, the table of ``players`` (and ``choices``,
    field -> choice of the room's controls), Start."""
    page = Page(name, clock, hub)
    page.load()
    page.c.click("menu")
    page.c.click("new-mode", {"mode": "online"})
    page.c.click("newgame-room", {"field": "players", "choice": str(players)})
    for field, choice in choices.items():
        page.c.click("newgame-room", {"field": field, "choice": choice})
    page.c.click("start")
    settle(page)
    return page


def full_table(players: int, names: tuple[str, ...] = ("Ann", "Bob", "Cat", "Dan"), **choices: str
               ) -> tuple[Clock, MeshHub, list[Page]]:
    """The host and ``players - 1`` visitors of its link, in arrival order, the game started."""
    clock, hub = Clock(), MeshHub()
    host = host_table(clock, hub, players, names[0], **choices)
    pages = [host]
    for name in names[1:players]:
        page = Page(name, clock, hub, host.session.panel().link)
        page.load()
        pages.append(page)
        settle(*pages)
        pass_time(clock, 1.0, *pages)
    for _ in range(40):
        if all(p.session.started for p in pages):
            break
        pass_time(clock, 0.5, *pages)
    return clock, hub, pages


def turn(page: Page) -> bool:
    """One decision of this page's seat by clicking the table (or the panel's answer); False if none."""
    c = page.c
    s = page.session
    if c.summary_hand() is not None:
        c.click("next-hand")
        return True
    asked = s.table.can_agree() if s.table is not None else None
    if asked == "next" and s.want is None:
        c.click("party-next")
        return True
    if asked == "new":
        return False  # the end of the match: the test answers (a new match, or leave)
    view = c.scene().view  # the dressed view: nothing while waiting
    if not view.legal_actions:
        return False
    first = view.legal_actions[0]
    if isinstance(first, (CutForDeal, CutPack, CutStarter)):
        c.click("cut-pick", {"depth": str(view.cut_depths[0] + 3)})
    elif isinstance(first, Discard):
        for card in first.cards:
            c.click("card", {"index": str(view.hand.index(card))})
        c.click("discard")
    elif isinstance(first, Go):
        c.click("go")
    elif isinstance(first, Play):
        index = view.hand.index(first.card)
        c.click("card", {"index": str(index)})
        c.click("card", {"index": str(index)})
    elif isinstance(first, Count) and first.claim is not None:
        c.click("claim-digit", {"digit": "0"})
        c.click("claim")
    elif isinstance(first, Count):
        c.click("count")
    elif isinstance(first, (Muggins, Pass)):
        c.click("let-stand")
    else:
        return False
    return True


def play(pages: list[Page], until: Callable[[], bool], limit: int = 3000) -> None:
    """Every page makes its decisions, the messages run, until ``until()`` (or nothing moves)."""
    clock = pages[0].clock
    idle = 0
    for _ in range(limit):
        if until():
            return
        moved = False
        for page in pages:
            if page.controller is not None and turn(page):
                moved = True
                settle(*pages)
        if not moved:
            idle += 1
            pass_time(clock, 0.5, *pages)
            if idle > 40:
                return
        else:
            idle = 0


def table_of(page: Page) -> Any:
    t = page.session.table
    assert t is not None and t.game is not None
    return t.game
