"""Two browsers in one process for online play: hosts with a wall clock, a fake signalling hub and
in-memory data channels that deliver on the receiver's timer (as WebRTC does, never re-entrantly)."""

from __future__ import annotations

import json
import random
from typing import Any, Callable

from table_fakes import FakeHost, click_first_legal

from cribbage.cards import Card
from cribbage.online.group import Group, ModPGroup
from cribbage.online.link import PROTOCOL, Binding
from cribbage.state import Phase
from web.sessions.online import peer as online
from web.kit.cards import card_name
from web.table.render import deal_cuts
from web.shell.controller import Controller, MemoryStorage
from web.kit.qr_svg import qr_svg
from web.sessions.online.connection import Connection
from web.sessions.online.peer import ChannelEvents, PeerSession

BUSY = json.dumps({"v": PROTOCOL, "k": "refuse", "reason": "full"}, separators=(",", ":"))
_FP = random.Random(7)


def fingerprint() -> str:
    """A made-up DTLS certificate fingerprint (each channel end gets a fresh one, as in Chromium)."""
    return "sha-256 " + ":".join(f"{_FP.randrange(256):02X}" for _ in range(32))

GROUP = ModPGroup(0xC0000000000000000000000000000EAB, "modp-128-test")
"""The group of these fakes' rooms: a 128-bit safe prime (``MODP_TEST`` is 384 bits), a tenth of the
time a multiplication, for tests whose point is not the group (whole matches between two
controllers spent 40% of their time in its exponentiations; docs/testing.md). Known by name where a
page is configured with it; ``test_online_group_save.py`` and the frozen rooms use ``MODP_TEST`` (``Browser.group``)."""



class Clock:
    """Wall time in seconds, moved by the test."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


class NetHost(FakeHost):
    """A FakeHost whose timers remember their delay: work and messages (< 500 ms) run by ``settle``,
    the heartbeat (500 ms) only when the test lets time pass."""

    def __init__(self, clock: Clock) -> None:
        super().__init__()
        self.wall = clock
        self.delays: dict[int, int] = {}

    def later(self, ms: int, fn: Callable[[], None]) -> int:
        handle = super().later(ms, fn)
        self.delays[handle] = ms
        return handle

    def cancel(self, handle: int) -> None:
        super().cancel(handle)
        self.delays.pop(handle, None)

    def now_ms(self) -> int:
        return int(self.wall.now * 1000)

    def run_short(self) -> int:
        """Fire every pending timer shorter than the heartbeat; how many ran."""
        ran = 0
        while True:
            short = [h for h in sorted(self.timers) if self.delays.get(h, 0) < online.TICK_MS]
            if not short:
                return ran
            fn = self.timers.pop(short[0])
            self.delays.pop(short[0], None)
            fn()
            ran += 1

    def run_ticks(self) -> None:
        for h in [h for h in sorted(self.timers) if self.delays.get(h, 0) >= online.TICK_MS]:
            fn = self.timers.pop(h, None)
            self.delays.pop(h, None)
            if fn is not None:
                fn()


class Hub:
    """The signalling server and the wires: registered ids, one channel per host."""

    def __init__(self) -> None:
        self.peers: dict[str, MemChannel] = {}
        self.traffic = 0
        """Characters carried."""
        self.tamper: Callable[[str, str], str | None] | None = None
        """(receiver id, text) -> text to deliver instead (None: as sent)."""
        self.log: list[tuple[str, str]] = []
        """Every text sent, with its sender's id, in order (a channel's ``sent`` goes with the channel)."""
        self.dials: list[str] = []
        """The id of every page that dialled a host (``connect``), in order."""

    def sent_by(self, prefix: str) -> list[str]:
        """The texts sent by pages whose id starts with ``prefix`` (the friend: ``cribbage-ROOM-1``)."""
        return [text for who, text in self.log if who.startswith(prefix)]

    def factory(self, room: str, seat: int, me: str, host: str, events: ChannelEvents) -> MemChannel:
        assert isinstance(events, Connection)
        timer = events.ctx.timer
        assert isinstance(timer, NetHost)
        channel = MemChannel(self, me, host, events, timer)
        self.peers[me] = channel
        return channel


class MemChannel:
    """One page's end (net.js semantics: the host accepts one peer; a third is sent BUSY and closed)."""

    def __init__(self, hub: Hub, me: str, host: str, events: ChannelEvents, timer: NetHost) -> None:
        self.hub = hub
        self.me = me
        self.host = host
        self.events = events
        self.timer = timer
        self.remote: MemChannel | None = None
        self.closed = False
        self.sent: list[str] = []
        self.fp = fingerprint()
        """This end's certificate fingerprint on its current channel."""

    def _later(self, fn: Callable[[], None]) -> None:
        self.timer.later(0, lambda: None if self.closed else fn())

    def connect(self) -> None:
        self.hub.dials.append(self.me)
        host = self.hub.peers.get(self.host)
        if host is None or host.closed:
            self._later(lambda: self.events.on_error("peer-unavailable"))
            return
        current = host.remote
        if current is not None and current.me != self.me and current.remote is host:
            # a third browser: it hears the refusal, then the channel closes
            self.fp = fingerprint()
            mine = Binding(self.fp, fingerprint())
            self._later(lambda: self.events.on_open(mine))
            self._later(lambda: self.events.on_message(BUSY))
            self._later(self.events.on_close)
            host._later(host.events.on_full)
            return
        if current is not None:
            current.remote = None
            host._later(host.events.on_close)  # "replaced"
        if self.remote is not None:
            self.remote.remote = None
        host.remote = self
        self.remote = host
        self.fp, host.fp = fingerprint(), fingerprint()
        theirs, mine = Binding(host.fp, self.fp), Binding(self.fp, host.fp)
        host._later(lambda: host.events.on_open(theirs))
        self._later(lambda: self.events.on_open(mine))

    def send(self, text: str) -> bool:
        peer = self.remote
        if peer is None:
            return False
        self.sent.append(text)
        self.hub.log.append((self.me, text))
        self.hub.traffic += len(text)
        if self.hub.tamper is not None:
            text = self.hub.tamper(peer.me, text) or text
        delivered = text
        peer._later(lambda: peer.events.on_message(delivered) if peer.remote is self else None)
        return True

    def drop(self) -> None:
        peer, self.remote = self.remote, None
        if peer is not None and peer.remote is self:
            peer.remote = None
            peer._later(peer.events.on_close)
        self._later(self.events.on_close)

    def close(self) -> None:
        peer, self.remote = self.remote, None
        self.closed = True
        if peer is not None and peer.remote is self:
            peer.remote = None
            peer._later(peer.events.on_close)
        if self.hub.peers.get(self.me) is self:
            del self.hub.peers[self.me]


class FakeQr:
    """The page's QR drawing (:attr:`OnlineEnv.qr`) with segno as the encoder: like the page, it gives
    ``""`` until its library has "loaded" (a timer of the host, run by ``settle``), then calls the
    latest ``ready`` once, and draws every later link at once."""

    def __init__(self, host: NetHost) -> None:
        self.host = host
        self.loaded = False
        self.loading = False
        self.ready: Callable[[], None] | None = None
        self.calls = 0

    def __call__(self, link: str, ready: Callable[[], None]) -> str:
        import segno  # the test extra

        self.calls += 1
        if not self.loaded:
            self.ready = ready
            if not self.loading:
                self.loading = True
                self.host.later(5, self._load)
            return ""
        code = segno.make(link.encode(), error="m", mode="byte", boost_error=False, micro=False)
        return qr_svg(
            [[bool(m) for m in row] for row in code.matrix_iter(scale=1, border=0)], label="QR code of the room link"
        )

    def _load(self) -> None:
        self.loaded = True
        ready, self.ready = self.ready, None
        if ready is not None:
            ready()


class Browser:
    """One browser: its storage survives reloads; each (re)load is a new controller."""

    trace: Callable[[str], None] | None = None
    """Online play's trace (:attr:`OnlineEnv.trace`: each payload, slice of work, save and redraw)."""
    group: Group = GROUP
    """The page's group (``?group=test``'s ``MODP_TEST`` for a save or room made in it)."""

    def __init__(self, name: str, clock: Clock, hub: Hub, room: str | None = None, secret: str | None = None) -> None:
        self.name = name
        self.secret = secret
        """The ``#k=`` of the link this browser opened."""
        self.clock = clock
        self.hub = hub
        self.storage = MemoryStorage({online.NAME_KEY: name})
        self.room = room
        self.host = NetHost(clock)
        self.controller: Controller | None = None
        self.rules_text: str | None = None
        """The ``?rules=`` of the page's address (a new room's table, or the room link's)."""
        self.holds: list[bool] = []
        """What online play told the page of its work (:attr:`OnlineEnv.hold`), in order."""
        self.qr = FakeQr(self.host)
        self.random = random.Random(name)
        """This browser's deal (its key share and shuffles), seeded by its name: a test's match is
        the same on every run, whichever tests ran before (the system's source made some flaky)."""

    def load(self, params: dict[str, str] | None = None, room: str | None = None) -> Controller:
        """Open the page (again): the previous page is gone without closing anything but its channel."""
        if self.controller is not None:
            self.controller.session.close()
        self.host = NetHost(self.clock)
        self.qr = FakeQr(self.host)  # a new page imports its QR library again
        if room is not None:
            self.room = room
        online.configure(channel=self.hub.factory, room=self.room, secret=self.secret, page_url="http://127.0.0.1/",
                         wall=self.clock, group=self.group, rules_text=self.rules_text, hold=self.holds.append,
                         qr=self.qr, randbelow=self.random.randrange, trace=self.trace)
        p = dict(params or {})
        if self.room is not None:
            p["mode"] = "online"
        self.controller = Controller(self.host, self.storage, p, seed_source=lambda: 5)
        self.controller.boot()
        return self.controller

    @property
    def c(self) -> Controller:
        assert self.controller is not None
        return self.controller

    @property
    def session(self) -> PeerSession:
        s = self.c.session
        assert isinstance(s, PeerSession)
        return s

    def html(self) -> str:
        f = self.host.last
        return f.table + f.overlay


def settle(*browsers: Browser, limit: int = 100_000) -> None:
    """Run every pending message and slice of work until all are quiet."""
    for _ in range(limit):
        if not sum(b.host.run_short() for b in browsers):
            return
    raise AssertionError("never quiet")


def host_from_menu(clock: Clock, hub: Hub, name: str = "Ann") -> Browser:
    """A browser that opens a room from the menu (New game, Online, Start), settled: the host alone."""
    host = Browser(name, clock, hub)
    host.load()
    host.c.click("menu")
    host.c.click("new-mode", {"mode": "online"})
    host.c.click("start")
    settle(host)
    return host


def pass_time(clock: Clock, seconds: float, *browsers: Browser) -> None:
    """Let heartbeats tick for ``seconds`` (half a second at a time)."""
    steps = int(seconds / 0.5)
    for _ in range(steps):
        clock.now += 0.5
        for b in browsers:
            b.host.run_ticks()
        settle(*browsers)


def turn(c: Controller) -> bool:
    """Make one decision for this browser's seat by clicking; False if none is due."""
    if c.summary_hand() is not None:
        c.click("next-hand")
        return True
    view = c.scene().view  # the dressed view: no action while waiting
    if not view.legal_actions:
        return False
    return click_first_legal(c, view, cut_offset=3)


def hidden_cards(b: Browser) -> set[Card]:
    """Cards this browser's seat holds that the other may not know yet."""
    view = b.c.match.view(b.session.perspective)
    # The cut for deal came from another pack: those cards are public whatever this hand holds.
    public = set(deal_cuts(view.events).values())
    return _hidden(view) - public


def _hidden(view: Any) -> set[Card]:
    if view.phase in (Phase.DISCARD, Phase.CUT_STARTER, Phase.PLAY):
        return set(view.hand) | set(view.discards)
    if view.phase is Phase.SHOW and view.show_step < 2:
        return set(view.discards)
    return set()


def leaks(html: str, cards: set[Card]) -> list[str]:
    """Marks of any of ``cards`` in ``html``."""
    found = []
    for card in cards:
        for mark in (f'data-card="{card.code}"', card_name(card), card.pretty):
            if mark in html:
                found.append(f"{card.code}: {mark!r}")
    return found


def payload_log(hub: Hub) -> list[Any]:
    return [json.loads(t) for ch in hub.peers.values() for t in ch.sent]
