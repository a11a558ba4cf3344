"""One browser's channels and pair links in a room of three or four seats, beneath
:class:`~.table_room.TableRoom`: which channel is whose, each pair's :class:`~.link.Link` made from the
two seats' keys (and made anew after a refusal), the screening of strangers on a seat's free id, and
which seats went away and came back.

:class:`RoomMesh` holds the room's state and this bookkeeping; the room (:mod:`.table_room`) adds the
seating, the roster and its agreement, the save and what the page calls. What a pair link delivers,
what the lobby's link does and when the table may start are the room's (:meth:`RoomMesh._on_payload`,
:meth:`RoomMesh._drain_lobby`, :meth:`RoomMesh._maybe_ready`). The argument is in docs/protocol.md
("The room and the mesh").
"""

from __future__ import annotations

from typing import Any

from .link import (PROTOCOL, SCREEN_GRACE, UNPROVEN_FORGET, UNPROVEN_TIMEOUT, Binding, Delivered, HangUp, Link,
                   Problem, is_room_id, is_room_secret, seat_commitment)
from .table_events import CloseChannel, RoomEvent, RoomProblem, SeatAway, SeatBack, TableRoomError
from .table_roster import Roster, SeatKey, clean_name, pair_keys, pair_room

__all__ = ["RoomMesh"]

_REFUSE = '{"v":%d,"k":"refuse","reason":"full"}' % PROTOCOL


class RoomMesh:
    """One browser's channels and pair links (the state of :class:`~.table_room.TableRoom`)."""

    def __init__(self, room: str, secret: str, key: SeatKey, name: str, now: float, *, seat: int | None = None,
                 roster: Roster | None = None) -> None:
        if not is_room_id(room):
            raise TableRoomError("bad room id")
        if not is_room_secret(secret):
            raise TableRoomError("a room of three or four needs its secret (the link's #k=)")
        self.room = room
        self.secret = secret
        self.key = key
        """This seat's identity: the secret half stays in this browser (saved with the room)."""
        self.name = clean_name(name) or "Player"
        self.seat = seat
        """This browser's seat (None until the host gave one)."""
        self.roster = roster
        self.started = False
        """The game started here (MeshReady given); the roster is fixed from then on."""
        self.stopped: str | None = None
        self.links: dict[int, Link] = {}
        """Other seat -> the pair's link."""
        self.agreed: dict[int, str] = {}
        """Other seat -> the roster digest it sent."""
        self.agree_sent = False
        self.buffered: list[tuple[int, dict[str, Any]]] = []
        self._channels: dict[str, int | str] = {}  # peer id -> seat, "lobby" or "pending"
        self._bindings: dict[str, Binding | None] = {}  # peer id -> its channel's fingerprints
        self._pending: dict[str, float] = {}  # host: a seated browser's channel before its first message
        self._lobby: dict[str, tuple[Link, float]] = {}  # host: newcomer id -> (its link, when it called)
        self._my_lobby: Link | None = None  # newcomer: the call to the host
        self._last_dial: dict[str, float] = {}
        self._unproven: dict[int, tuple[float, float]] = {}  # pair -> (its unproven clock's start, last call)
        self._chan_at: dict[int, float] = {}  # pair -> when its channel opened (nothing proven on it yet)
        self._live: set[int] = set()
        self._waiting_since: dict[int, float] = {}  # seat taken, its pair link not live -> since when
        self._stale: set[str] = set()  # digests of full rosters a freed seat replaced (their agreements void)
        self._freed: dict[str, Link] = {}  # host: a freed seat's id -> its old link, to tell it so
        self._seen: set[int] = set()  # seats whose link was live since this page started
        self._out: list[tuple[str, str]] = []
        self._events: list[RoomEvent] = []
        self._now = now

    def name_of(self, seat: int) -> str:
        if self.roster is None or not 0 <= seat < len(self.roster.seats):
            return f"seat {seat + 1}"
        return self.roster.seats[seat].name

    # ---- the pair links and the strangers on their ids ---------------------------------------------

    def _revive(self, p: int) -> Link:
        """The pair's link, made anew from its record if a refusal closed it (perhaps a stranger's,
        on a free id): the pair is fixed by the roster, so it is always worth another call."""
        link = self.links[p]
        if link.state == "refused":
            self.links[p] = link = Link.from_dict(link.to_dict())
        return link

    def _pair_call(self, p: int, now: float) -> None:
        """A channel from seat ``p``'s id opened: start (or go on with) the pair's unproven clock."""
        start, last = self._unproven.get(p, (now, now))
        if now - last > UNPROVEN_FORGET:
            start = now
        self._unproven[p] = (start, now)
        self._chan_at[p] = now

    def _screen_pairs(self, now: float) -> None:
        """Whoever holds a pair's channel without proving the seat is out once the pair's unproven
        clock (across calls, as :meth:`.link.Link.screen` counts a caller's) has run ``UNPROVEN_TIMEOUT``
        and this call ``SCREEN_GRACE``: a stranger on a free id, calling again and again, holds the
        channel 3 s at a time at most; the seat itself proves within a round trip and gets in."""
        if self.roster is None:
            return
        for p, since in list(self._chan_at.items()):
            peer = self.roster.seats[p].id if p < len(self.roster.seats) else ""
            if self._channels.get(peer) not in (p, "pending"):
                del self._chan_at[p]
            elif now - since >= SCREEN_GRACE and now - self._unproven[p][0] >= UNPROVEN_TIMEOUT:
                del self._chan_at[p]
                self._unproven[p] = (self._unproven[p][0], now)
                self._hang(peer, f"A browser on the id of {self.name_of(p)} (seat {p + 1}) that did not prove "
                                 "the seat was disconnected.", tell=False)

    def _forget_channel(self, peer: str) -> None:
        where = self._channels.pop(peer, None)
        self._pending.pop(peer, None)
        self._bindings.pop(peer, None)
        if isinstance(where, int):
            self.links[where].disconnected(self._now)
            self._drain_link(where)
        elif where == "freed":
            self._freed[peer].disconnected(self._now)
            self._freed[peer].pop_events()
        elif where == "lobby":
            if self.seat == 0:
                self._lobby.pop(peer, None)
            elif self._my_lobby is not None:
                self._my_lobby.disconnected(self._now)
                self._drain_lobby(peer)

    def _hang(self, peer: str, text: str, tell: bool = True) -> None:
        """Refuse whoever is on ``peer``'s channel and forget the channel (the page closes it)."""
        if tell:
            self._out.append((peer, _REFUSE))
        self._events.append(CloseChannel(peer, text))
        where = self._channels.pop(peer, None)
        self._pending.pop(peer, None)
        if where == "lobby" and self.seat == 0:
            self._lobby.pop(peer, None)
        elif where == "lobby" and self._my_lobby is not None:
            self._my_lobby.disconnected(self._now)  # (so it calls the host again)
            self._my_lobby.pop_events()
        elif isinstance(where, int):
            self.links[where].disconnected(self._now)

    def _make_link(self, p: int, now: float) -> Link:
        assert self.roster is not None and self.seat is not None
        lo, hi = sorted((self.seat, p))
        pubs = self.roster.seats
        shared = self.key.shared(pubs[p].pub)
        room = pair_room(self.room, self.secret, pubs[lo].pub, pubs[hi].pub)
        k_lo, k_hi = pair_keys(shared, self.secret, room)
        role = 0 if self.seat == lo else 1
        mine, theirs = (k_lo, k_hi) if role == 0 else (k_hi, k_lo)
        return Link(room, role, mine, now, peer_commit=seat_commitment(room, theirs))

    def _drain_link(self, p: int) -> None:
        link = self.links[p]
        peer = self.roster.seats[p].id if self.roster is not None else ""
        for text in link.pop_outgoing():
            if self._channels.get(peer) == p:
                self._out.append((peer, text))
        for event in link.pop_events():
            if isinstance(event, Delivered):
                self._on_payload(p, event.payload)
            elif isinstance(event, Problem):
                self._events.append(RoomProblem(f"{self.name_of(p)} (seat {p + 1}): {event.text}"))
            elif isinstance(event, HangUp) and self._channels.get(peer) == p:
                self._events.append(CloseChannel(peer, event.text))
                self._channels.pop(peer, None)
                link.disconnected(self._now)
                link.pop_events()

    def _drain_freed(self, peer: str) -> None:
        link = self._freed[peer]
        for text in link.pop_outgoing():
            if self._channels.get(peer) == "freed":
                self._out.append((peer, text))
        for event in link.pop_events():  # (what it says is no longer this table's business)
            if isinstance(event, HangUp) and self._channels.get(peer) == "freed":
                self._events.append(CloseChannel(peer, event.text))
                self._channels.pop(peer, None)
                link.disconnected(self._now)
                link.pop_events()

    def _after(self) -> None:
        live = {p for p, link in self.links.items() if link.state == "live"}
        for p in sorted(self._live - live):
            self._events.append(SeatAway(p, self.name_of(p)))
        for p in self.links:
            if p in live:
                self._waiting_since.pop(p, None)
            else:
                self._waiting_since.setdefault(p, self._now)
        for p in live:
            self._chan_at.pop(p, None)  # proven on this channel: its unproven time is forgiven
            self._unproven.pop(p, None)
        for p in sorted(live - self._live):
            if p in self._seen:
                self._events.append(SeatBack(p, self.name_of(p)))
        self._seen |= live
        self._live = live
        self._maybe_ready()


    # ---- what the room decides (:class:`~.table_room.TableRoom`) ------------------------------------

    def _on_payload(self, p: int, msg: dict[str, Any]) -> None:
        """A payload seat ``p``'s link delivered."""
        raise NotImplementedError

    def _drain_lobby(self, peer: str) -> None:
        """What the lobby's link on ``peer``'s channel wrote and did."""
        raise NotImplementedError

    def _maybe_ready(self) -> None:
        """Start the game here if every seat agrees and every pair link is live."""
        raise NotImplementedError
