"""One browser's side of a room of three or four seats: the seats, the roster and a full mesh of links.

No I/O and no clock, as :mod:`.link`: the page feeds what its channels do and the time, then drains
what to write and what happened. The argument is in docs/protocol.md ("The room and the mesh").

    room = TableRoom.open(room_id, secret, rules, "Ann", now)   # the host: seat 0, chooses the table
    room = TableRoom.join(room_id, secret, "Bob", now)          # a newcomer, from the room link
    room = TableRoom.from_dict(saved, now)                      # after a reload: the same seat
    room.my_id                              # the signalling id to register (derived from the secret)
    room.to_dial(now) -> list[str]          # ids to call now (again every REDIAL_S while not linked)
    room.opened(peer, binding, now)         # a channel to/from signalling id ``peer`` opened
    room.received(peer, text, now)          # a string that came on it
    room.closed(peer, now)                  # it closed
    room.tick(now)                          # every ~0.5 s: the links' heartbeats, timeouts
    room.pop_outgoing() -> [(peer, text)]   # write these, in order, to the channel of ``peer``
    room.pop_events() -> [RoomEvent]        # RosterChanged, MeshReady, Received, SeatAway, SeatBack,
                                            # RoomProblem, Stopped, CloseChannel
    room.send(seat, payload, now); room.broadcast(payload, now)   # once MeshReady: the game's messages
    room.waiting(now) -> {seat: seconds}    # seats taken whose pair link with this browser is not live
    room.free_seat(seat, now)               # the host, before the start: give up a seat that never links
    room.leave(now)                         # this player leaves: every seat is told why (now or later)
    room.seat, room.roster, room.started, room.missing, room.status_text
    room.to_dict()                          # save it after every call that queued or delivered something

How a room fills: the host registers :func:`~.table_roster.host_id` (an HMAC of the room id under the
secret of the link's ``#k=``); a newcomer registers its own :func:`~.table_roster.seat_id` (of its
public seat key) and calls the host. That first call is a two-seat :class:`~.link.Link` first join
(each side shows the room secret, bound to the channel), on which the newcomer asks to sit with its
name and public key; the host gives it the next seat (or the seat that key already holds: a browser
that comes back is never seated twice), or says the table is full. The host then announces the
roster to every seat over their pair links; each seat checks it (its own seat unchanged, ids derived
from the keys, nothing taken changed: :meth:`~.table_roster.Roster.extends`). Every pair of seats has
its own Link whose keys come from the pair's Diffie–Hellman secret (the higher seat dials the
lower); once the roster is full, every seat sends every other the roster's digest, and the game
starts at a seat (``MeshReady``) when every pair link is live and every other seat's digest equals
its own. A digest that differs stops the table: the host told two seats different things.

Before the start the host may free a seat (:meth:`TableRoom.free_seat`: a browser that took it and
never linked blocks the table; :meth:`TableRoom.waiting` says for how long): the later seats move
down one, every seat checks the new roster is the old one without that seat (a pair's link room is
its two keys', so every other link stays as it was), agreements to the old table are void, and the
freed browser is told :data:`FREED_TEXT` by the host when it next calls. A seat that some seat has
already started with cannot be freed without stopping the table (that seat refuses the change).

After the start the roster is fixed: a roster announcement that differs from it stops the table.
A seat that stops (the host changed or split the table, its player left: :meth:`TableRoom.leave`, or
another seat told it so) sends every other seat an ``abort`` with a reason code (:data:`ABORTS`) and
keeps its pair links up for it, so a seat away is told when it next links rather than find it quiet;
each stops too and says which seat stopped and why.

Game messages (the answer table_game.py needs): ``send``/``broadcast`` after ``MeshReady`` arrive as
``Received(seat, payload)`` at each addressee exactly once and in the sender's order. A seat away (its
link not live) is in :attr:`TableRoom.missing`; messages to it wait in its link and are delivered when
it comes back (the link's resend), and what it had queued before it went is sent when it is back: the
game layer never resends, provided every browser saves :meth:`TableRoom.to_dict` with its game state
after every call that queued or delivered something (a browser that lost its last writes resends from
its disk's state; the link's ``RESEND_KEEP`` covers the other side). There is no order across senders.

Strangers on a free id (a seat's browser away, anyone with the room link may register its id): the
room, not the link, times each pair's unproven channels across calls (the id is the seat's whoever
holds it), so once ``UNPROVEN_TIMEOUT`` is spent a channel that proves nothing is closed after
``SCREEN_GRACE``, however often it calls, and the seat itself (proving within a round trip) gets in.
Bad input never raises: a link
refuses it (its own ``Problem``), a bad mesh payload is ``RoomProblem`` and the link asks for a
new handshake (``distrust``); :class:`TableRoomError` is only for local misuse or a damaged save.

Beneath it, :mod:`.table_mesh` (:class:`~.table_mesh.RoomMesh`, the state it builds on) keeps the channels
and pair links: whose channel is whose, each pair's link from the seats' keys, the screening of strangers,
seats away and back. The events and :class:`TableRoomError` are :mod:`.table_events`'s, named here too.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..rules import Rules
from .errors import ProtocolError
from .link import Binding, Delivered, HangUp, Link, LinkError, Problem, new_seat_key
from .table_events import (CloseChannel, MeshReady, Received, RoomEvent, RoomProblem, RosterChanged, SeatAway,
                           SeatBack, Stopped, TableRoomError)
from .table_mesh import RoomMesh
from .table_roster import Roster, SeatKey, TABLE_SEATS, clean_name, host_id, lobby_room, read_roster, seat_id

__all__ = ["TableRoom", "TableRoomError", "RoomEvent", "RosterChanged", "MeshReady", "Received", "SeatAway",
           "SeatBack", "RoomProblem", "Stopped", "CloseChannel", "REDIAL_S", "MAX_LOBBY", "LOBBY_TIMEOUT",
           "MAX_BUFFERED", "SAVE_FORMAT", "ABORTS", "FREED_TEXT"]

SAVE_FORMAT = "cribbage-table-room"
REDIAL_S = 3.0
"""Seconds between calls to a seat (or the host) not linked."""
MAX_LOBBY = 8
"""Newcomers the host talks to at once (more are refused at once)."""
LOBBY_TIMEOUT = 15.0
"""Seconds a newcomer's call may stay open at the host without asking for a seat."""
MAX_BUFFERED = 256
"""Game messages kept from seats that started before this one did."""
ABORTS = {
    "roster": "the host told it another table than another seat (the host told the seats different things)",
    "changed": "the host changed the table after seats were taken",
    "left": "its player left the table",
}
"""Why a seat stopped the table, as it tells the others (each says it in its own words)."""
FREED_TEXT = ("The host gave up this browser's seat, as it had not linked to every seat; to play, ask the "
              "host for the room link again.")
"""What a browser whose seat the host freed says."""
_HEX64 = re.compile(r"[0-9a-f]{64}")
_UNKNOWN = "A browser this table does not know called; it was refused."


def _uncalled(binding: Binding | None) -> Binding | None:
    """The binding without the caller's id, for a pair's link: the id is the seat's whoever holds it,
    so the room, not the link, keeps the pair's unproven clock (a stranger's time must not shut the
    seat out)."""
    return None if binding is None else Binding(binding.local, binding.remote, "")


def _full_text(players: int) -> str:
    words = {2: "two", 3: "three", 4: "four"}
    return f"This table is full: its {words.get(players, str(players))} seats are taken."


class TableRoom(RoomMesh):
    """One browser's side of an N-seat room (its channels and pair links: :class:`~.table_mesh.RoomMesh`)."""

    # ---- construction and persistence ------------------------------------------------------------

    @classmethod
    def open(cls, room: str, secret: str, rules: Rules, name: str, now: float, key: SeatKey | None = None) -> TableRoom:
        """The host's room: seat 0, at the table it chose."""
        if rules.players not in TABLE_SEATS:
            raise TableRoomError("a table of two, three or four")
        key = key or SeatKey()
        me = clean_name(name) or "Player"
        roster = Roster(room, rules, ()).with_seat(me, key.pub, secret)
        return cls(room, secret, key, me, now, seat=0, roster=roster)

    @classmethod
    def join(cls, room: str, secret: str, name: str, now: float, key: SeatKey | None = None) -> TableRoom:
        """A newcomer from the room link (save it before calling: its key is its seat)."""
        return cls(room, secret, key or SeatKey(), name, now)

    def to_dict(self) -> dict[str, Any]:
        return {**self.head_dict(), "links": {str(p): link.to_dict() for p, link in sorted(self.links.items())}}

    def head_dict(self) -> dict[str, Any]:
        """:meth:`to_dict` without the links of the seats (``links``; a freed seat's, rare, are in it): the
        table's log saves each link in pieces (:meth:`Link.pieces <.link.Link.pieces>`)."""
        return {"format": SAVE_FORMAT, "version": 1, "room": self.room, "secret": self.secret,
                "key": self.key.secret_hex, "name": self.name, "seat": self.seat,
                "roster": None if self.roster is None else self.roster.to_json(), "started": self.started,
                "stopped": self.stopped, "agreed": {str(p): h for p, h in sorted(self.agreed.items())},
                "agree_sent": self.agree_sent, "stale": sorted(self._stale),
                "buffered": [[p, m] for p, m in self.buffered],
                "freed": {peer: link.to_dict() for peer, link in sorted(self._freed.items())}}

    @classmethod
    def from_dict(cls, data: object, now: float) -> TableRoom:
        """The room as saved (every link offline until called again); TableRoomError if damaged."""
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT or data.get("version") != 1:
            raise TableRoomError("the saved table room is damaged or from another version")
        try:
            room, secret = data["room"], data["secret"]
            key = SeatKey.from_hex(data["key"])
            seat, roster_raw = data["seat"], data["roster"]
            self = cls(room, secret, key, data["name"], now)
            if seat is not None:
                roster = read_roster(roster_raw, room, secret)
                if type(seat) is not int or not 0 <= seat < len(roster.seats) or roster.seats[seat].pub != key.pub:
                    raise TableRoomError("the saved seat is not this key's")
                self.seat, self.roster = seat, roster
            if type(data["started"]) is not bool or type(data["agree_sent"]) is not bool:
                raise TableRoomError("bad flags")
            self.started, self.agree_sent = data["started"], data["agree_sent"]
            stopped = data["stopped"]
            if stopped is not None and not isinstance(stopped, str):
                raise TableRoomError("bad stop")
            self.stopped = stopped
            agreed = data["agreed"]
            if not isinstance(agreed, dict):
                raise TableRoomError("bad agreements")
            for p, h in agreed.items():
                if not (isinstance(h, str) and _HEX64.fullmatch(h)):
                    raise TableRoomError("bad agreement")
                self.agreed[int(p)] = h
            stale = data.get("stale", [])
            if not (isinstance(stale, list) and all(isinstance(h, str) and _HEX64.fullmatch(h) for h in stale)):
                raise TableRoomError("bad stale agreements")
            self._stale = set(stale)
            for item in data["buffered"]:
                if not (isinstance(item, list) and len(item) == 2 and type(item[0]) is int
                        and isinstance(item[1], dict)):
                    raise TableRoomError("bad buffered message")
                self.buffered.append((item[0], item[1]))
            links = data["links"]
            if not isinstance(links, dict):
                raise TableRoomError("bad links")
            if self.roster is not None:
                for p in range(len(self.roster.seats)):
                    if p == self.seat:
                        continue
                    want = self._make_link(p, now)
                    saved = links.get(str(p))
                    if saved is None:
                        self.links[p] = want
                        continue
                    link = Link.from_dict(saved)
                    if (link.room, link.seat, link.key, link.peer_commit) != (want.room, want.seat, want.key,
                                                                              want.peer_commit):
                        raise TableRoomError(f"the saved link to seat {p + 1} is not this table's")
                    self.links[p] = link
            freed = data.get("freed", {})
            if not isinstance(freed, dict):
                raise TableRoomError("bad freed seats")
            for peer, saved in freed.items():
                if not isinstance(peer, str) or (self.roster is not None and self.roster.seat_of_id(peer) is not None):
                    raise TableRoomError("bad freed seat")
                self._freed[peer] = Link.from_dict(saved)
            if self.started and not (self.roster is not None and self.roster.full):
                raise TableRoomError("started without a full table")
        except (KeyError, TypeError, ValueError, ProtocolError, LinkError) as exc:
            if isinstance(exc, TableRoomError):
                raise
            raise TableRoomError(f"the saved table room is damaged: {exc}") from None
        return self

    # ---- what the page reads -------------------------------------------------------------------

    @property
    def my_id(self) -> str:
        """The signalling id this browser registers."""
        if self.seat == 0:
            return host_id(self.room, self.secret)
        return seat_id(self.room, self.secret, self.key.pub)

    @property
    def host(self) -> bool:
        return self.seat == 0

    @property
    def missing(self) -> tuple[int, ...]:
        """Seats not here now: not taken yet, or their link not live (never this seat)."""
        if self.roster is None:
            return ()
        return tuple(p for p in range(self.roster.rules.players)
                     if p != self.seat and not (p in self.links and self.links[p].state == "live"))

    @property
    def status_text(self) -> str:
        if self.stopped is not None:
            return self.stopped
        if self.seat is None or self.roster is None:
            return "Asking the host for a seat…"
        rules = self.roster.rules
        if not self.roster.full:
            return f"Waiting for players: {len(self.roster.seats)} of {rules.players} seats taken."
        away = ", ".join(self.name_of(p) for p in self.missing)
        if not self.started:
            return f"Connecting the table; waiting for {away}." if away else "Checking the table with every seat…"
        return f"Waiting for {away} to come back." if away else "Everyone is here."

    def waiting(self, now: float) -> dict[int, float]:
        """Seats taken whose pair link with this browser is not live -> seconds they have been so
        (since the seat was taken here, or its link was last live). The host's page offers
        :meth:`free_seat` for a seat that waits too long before the start."""
        return {p: now - since for p, since in sorted(self._waiting_since.items())}

    @property
    def can_free(self) -> bool:
        """Whether this browser may free a seat now: the host, before the start."""
        return self.seat == 0 and self.roster is not None and not self.started and self.stopped is None

    def free_seat(self, seat: int, now: float) -> None:
        """The host gives up ``seat`` before the start (its browser never linked, say): the later
        seats move down one, every seat is sent the new roster and checks it (it is the old one without
        that seat), and the freed browser is told with a sentence when it next links to the host.
        The next newcomer takes the last seat. TableRoomError if not the host, after the start, or no
        such seat."""
        self._now = now
        if not self.can_free or self.roster is None:
            raise TableRoomError("only the host frees a seat, and only before the game starts")
        if not 1 <= seat < len(self.roster.seats):
            raise TableRoomError(f"no seat {seat + 1} to free")
        link = self._revive(seat)
        link.send({"t": "freed"}, now)
        self._drain_link(seat)
        self._freed[self.roster.seats[seat].id] = link
        self._apply_free(seat)
        for p in sorted(self.links):
            self.links[p].send({"t": "roster", "roster": self.roster.to_json()}, now)
            self._drain_link(p)
        self._after()

    def pop_outgoing(self) -> list[tuple[str, str]]:
        out, self._out = self._out, []
        return out

    def pop_events(self) -> list[RoomEvent]:
        events, self._events = self._events, []
        return events

    # ---- what the page tells us -----------------------------------------------------------------

    def to_dial(self, now: float) -> list[str]:
        """The ids to call now: the host until seated, then every lower seat whose link is down."""
        wanted: list[str] = []
        if self.stopped is not None:
            if self.seat is None or self.roster is None:
                return []
            # a stopped seat calls only to say why: the lower seats its abort has not reached yet
            for p in range(self.seat):
                if p in self.links and self.links[p].outbox and self._revive(p).state == "offline":
                    wanted.append(self.roster.seats[p].id)
        elif self.seat is None:
            if self._my_lobby is None or self._my_lobby.state in ("offline", "refused"):
                wanted.append(host_id(self.room, self.secret))
        elif self.roster is not None:
            for p in range(self.seat):
                link = self.links.get(p)
                if link is None:
                    continue
                link = self._revive(p)
                if link.state == "offline":
                    wanted.append(self.roster.seats[p].id)
        due = [peer for peer in wanted if now - self._last_dial.get(peer, float("-inf")) >= REDIAL_S]
        for peer in due:
            self._last_dial[peer] = now
        return due

    def opened(self, peer: str, binding: Binding | None, now: float) -> None:
        """A data channel with signalling id ``peer`` opened (either way), with its fingerprints."""
        self._now = now
        self._forget_channel(peer)
        bound = None if binding is None else Binding(binding.local, binding.remote, peer)
        p = self.roster.seat_of_id(peer) if self.roster is not None and self.seat is not None else None
        if p is None and peer in self._freed and self.stopped is None:
            self._channels[peer] = "freed"  # a freed seat calls on its old pair link: tell it
            self._freed[peer].connected(now, _uncalled(bound))
            self._drain_freed(peer)
            return
        if self.stopped is not None and not (p is not None and p != self.seat and p in self.links):
            self._hang(peer, self.stopped, tell=False)
            return
        self._bindings[peer] = bound
        if p is not None and p != self.seat and p in self.links and self.seat == 0 and self.stopped is None:
            # a seated browser calls the host on the pair's link, or (it lost the answer) asks for its
            # seat again: its first message says which, so the host speaks only after it
            self._channels[peer] = "pending"
            self._pending[peer] = now
            self._pair_call(p, now)
        elif p is not None and p != self.seat and p in self.links:
            self._channels[peer] = p
            self._pair_call(p, now)
            self._revive(p).connected(now, _uncalled(bound))
            self._drain_link(p)
        elif self.seat == 0:
            if len(self._lobby) >= MAX_LOBBY:
                self._hang(peer, "Too many browsers are asking for a seat at once; one was refused.")
                return
            link = Link.host(lobby_room(self.room, self.secret), new_seat_key(), now, self.secret)
            self._lobby[peer] = (link, now)
            self._channels[peer] = "lobby"
            link.connected(now, bound)
            self._drain_lobby(peer)
        elif self.seat is None and peer == host_id(self.room, self.secret):
            link = Link.join(lobby_room(self.room, self.secret), new_seat_key(), now, self.secret)
            link.send({"t": "sit", "name": self.name, "pub": self.key.pub}, now)
            self._my_lobby = link
            self._channels[peer] = "lobby"
            link.connected(now, bound)
            self._drain_lobby(peer)
        else:
            self._hang(peer, _UNKNOWN)
        self._after()

    def received(self, peer: str, text: object, now: float) -> None:
        self._now = now
        where = self._channels.get(peer)
        if where is None:
            return
        if where == "pending":
            self._pending.pop(peer, None)
            p = self.roster.seat_of_id(peer) if self.roster is not None else None
            if p is None or p not in self.links:
                return
            if self._asks_seat(text):  # a seated browser asking again for its seat: the lobby answers
                fresh = Link.host(lobby_room(self.room, self.secret), new_seat_key(), now, self.secret)
                self._lobby[peer] = (fresh, now)
                self._channels[peer] = where = "lobby"
                fresh.connected(now, self._bindings.get(peer))
            else:
                self._channels[peer] = where = p
                self._revive(p).connected(now, _uncalled(self._bindings.get(peer)))
        if isinstance(where, int):
            self.links[where].receive(text, now)
            self._drain_link(where)
        elif where == "freed":
            self._freed[peer].receive(text, now)
            self._drain_freed(peer)
        else:
            lobby = self._lobby_link(peer)
            if lobby is not None:
                lobby.receive(text, now)
                self._drain_lobby(peer)
        self._after()

    def closed(self, peer: str, now: float) -> None:
        self._now = now
        self._forget_channel(peer)
        self._after()

    def tick(self, now: float) -> None:
        self._now = now
        for p in sorted(self.links):
            self.links[p].tick(now)
            self._drain_link(p)
        for peer, (link, since) in list(self._lobby.items()):
            link.tick(now)
            self._drain_lobby(peer)
            if peer in self._lobby and now - since >= LOBBY_TIMEOUT:
                self._hang(peer, "A browser that did not ask for a seat in time was disconnected.")
        for peer, since in list(self._pending.items()):
            if now - since >= LOBBY_TIMEOUT:
                self._pending.pop(peer, None)
                self._hang(peer, "A browser that said nothing was disconnected.")
        if self._my_lobby is not None:
            self._my_lobby.tick(now)
            self._drain_lobby(host_id(self.room, self.secret))
        for peer, link in self._freed.items():
            link.tick(now)
            self._drain_freed(peer)
        self._screen_pairs(now)
        self._after()

    def send(self, seat: int, payload: dict[str, Any], now: float) -> None:
        """Queue a game message for ``seat`` (sent now if its link is live, else when it comes back)."""
        if not self.started or self.stopped is not None:
            raise TableRoomError("the game has not started here (or the table stopped)")
        if seat not in self.links:
            raise TableRoomError(f"no seat {seat} at this table")
        try:
            self.links[seat].send({"t": "game", "m": payload}, now)
        except LinkError as exc:
            raise TableRoomError(str(exc)) from None
        self._drain_link(seat)

    def broadcast(self, payload: dict[str, Any], now: float) -> None:
        """:meth:`send` to every other seat, in seat order."""
        for p in sorted(self.links):
            self.send(p, payload, now)

    # ---- inside ---------------------------------------------------------------------------------

    def _asks_seat(self, text: object) -> bool:
        """Whether ``text`` is a link hello for the room's lobby (a newcomer's first join)."""
        if not isinstance(text, str) or len(text) > 1000:
            return False
        try:
            msg = json.loads(text)
        except ValueError:
            return False
        return (isinstance(msg, dict) and msg.get("k") == "hello" and msg.get("join") is True
                and msg.get("room") == lobby_room(self.room, self.secret))

    def _lobby_link(self, peer: str) -> Link | None:
        if self.seat == 0:
            entry = self._lobby.get(peer)
            return None if entry is None else entry[0]
        return self._my_lobby

    def _apply_free(self, i: int) -> None:
        """Seat ``i`` is freed (the host's act, or its announcement): the later seats move down one;
        their pair links are unchanged (a pair's link room is its keys', not its seat numbers)."""
        assert self.roster is not None and self.seat is not None
        old = self.roster
        gone = old.seats[i].id
        if old.full:
            self._stale.add(old.digest())  # agreements to it, still on their way, are void

        def moved(q: int) -> int:
            return q if q < i else q - 1

        for peer, where in list(self._channels.items()):
            if peer == gone and where == i and self.seat == 0:
                self._channels[peer] = "freed"
            elif peer == gone:
                self._channels.pop(peer, None)
                self._pending.pop(peer, None)
                self._events.append(CloseChannel(peer, f"{old.seats[i].name}'s seat was freed."))
            elif isinstance(where, int):
                self._channels[peer] = moved(where)
        self.roster = old.without(i)
        self.seat = moved(self.seat)
        self.links = {moved(q): link for q, link in self.links.items() if q != i}
        self._live = {moved(q) for q in self._live if q != i}
        self._seen = {moved(q) for q in self._seen if q != i}
        self._waiting_since = {moved(q): t for q, t in self._waiting_since.items() if q != i}
        self._unproven = {moved(q): t for q, t in self._unproven.items() if q != i}
        self._chan_at = {moved(q): t for q, t in self._chan_at.items() if q != i}
        self.buffered = [(moved(q), m) for q, m in self.buffered if q != i]
        self.agreed, self.agree_sent = {}, False
        self._events.append(RosterChanged(self.roster))

    def _drain_lobby(self, peer: str) -> None:
        link = self._lobby_link(peer)
        if link is None:
            return
        for text in link.pop_outgoing():
            if self._channels.get(peer) == "lobby":
                self._out.append((peer, text))
        for event in link.pop_events():
            if self._lobby_link(peer) is not link:
                break  # seated, refused or hung up meanwhile
            if isinstance(event, Delivered):
                if self.seat == 0:
                    self._on_sit(peer, link, event.payload)
                else:
                    self._on_seated(peer, event.payload)
            elif isinstance(event, Problem):
                self._events.append(RoomProblem(event.text))
            elif isinstance(event, HangUp) and self._channels.get(peer) == "lobby":
                self._hang(peer, event.text, tell=False)
        if self.seat is None and self._my_lobby is not None and self._my_lobby.state == "refused":
            self._stop(self._my_lobby.status_text)

    # the host's side of a newcomer's call

    def _on_sit(self, peer: str, link: Link, msg: dict[str, Any]) -> None:
        assert self.roster is not None
        name, pub = clean_name(msg.get("name")), msg.get("pub")
        if msg.get("t") != "sit" or set(msg) != {"t", "name", "pub"} or not name or not isinstance(pub, str):
            self._events.append(RoomProblem("A browser asked for a seat in a malformed message; it was refused."))
            self._refuse_sit(peer, link, "bad")
            return
        try:
            self.key.shared(pub)  # a valid public key
        except ProtocolError:
            self._events.append(RoomProblem("A browser asked for a seat with a malformed key; it was refused."))
            self._refuse_sit(peer, link, "bad")
            return
        if peer != seat_id(self.room, self.secret, pub) or pub == self.key.pub:
            self._events.append(RoomProblem("A browser asked for a seat with a key that is not its own; it was "
                                            "refused."))
            self._refuse_sit(peer, link, "id")
            return
        seat = self.roster.seat_of(pub)
        if seat is None:
            if self.roster.full:
                self._events.append(RoomProblem("A browser asked for a seat at a full table; it was refused."))
                self._refuse_sit(peer, link, "full")
                return
            self.roster = self.roster.with_seat(name, pub, self.secret)
            seat = len(self.roster.seats) - 1
            self.links[seat] = self._make_link(seat, self._now)
            for p in sorted(self.links):
                if p != seat:
                    self.links[p].send({"t": "roster", "roster": self.roster.to_json()}, self._now)
                    self._drain_link(p)
            self._events.append(RosterChanged(self.roster))
            self._maybe_agree()
        link.send({"t": "seated", "seat": seat, "roster": self.roster.to_json()}, self._now)
        self._drain_lobby(peer)

    def _refuse_sit(self, peer: str, link: Link, reason: str) -> None:
        link.send({"t": "refused", "reason": reason}, self._now)
        for text in link.pop_outgoing():
            self._out.append((peer, text))
        self._events.append(CloseChannel(peer, "A browser that cannot take a seat was refused."))
        self._channels.pop(peer, None)
        self._lobby.pop(peer, None)

    # the newcomer's side

    def _on_seated(self, peer: str, msg: dict[str, Any]) -> None:
        kind = msg.get("t")
        if kind == "refused":
            reason = msg.get("reason")
            if reason == "full":
                self._stop("This table is full: every seat is taken.")
            elif reason == "id":
                self._stop("The host did not accept this browser's seat key; open the room link again.")
            else:
                self._stop("The host refused this browser's request for a seat.")
            return
        if kind != "seated" or set(msg) != {"t", "seat", "roster"} or type(msg["seat"]) is not int:
            self._events.append(RoomProblem("The host answered a request for a seat with something malformed."))
            return
        try:
            roster = read_roster(msg["roster"], self.room, self.secret)
        except ProtocolError as exc:
            self._events.append(RoomProblem(str(exc)))
            return
        seat = msg["seat"]
        if not 1 <= seat < len(roster.seats) or roster.seats[seat].pub != self.key.pub:
            self._events.append(RoomProblem("The host gave this browser a seat that is not its own."))
            return
        self.seat, self.roster = seat, roster
        for p in range(len(roster.seats)):
            if p != seat:
                self.links[p] = self._make_link(p, self._now)
        self._my_lobby = None
        self._channels.pop(peer, None)
        self._events.append(CloseChannel(peer, "Seated: the call for a seat is done."))
        self._last_dial.pop(peer, None)  # call the host again at once, now on the pair's link
        self._events.append(RosterChanged(roster))
        self._maybe_agree()

    # the pair links' payloads

    def _on_payload(self, p: int, msg: dict[str, Any]) -> None:
        if self.stopped is not None:
            return  # (its links stay up only to say why it stopped)
        kind = msg.get("t")
        if kind == "game" and set(msg) == {"t", "m"} and isinstance(msg["m"], dict):
            if self.started:
                self._events.append(Received(p, msg["m"]))
            elif len(self.buffered) < MAX_BUFFERED:
                self.buffered.append((p, msg["m"]))
            else:
                self._distrust(p, "sent game messages before the table was ready")
        elif kind == "roster" and set(msg) == {"t", "roster"}:
            self._on_roster(p, msg["roster"])
        elif kind == "agree" and set(msg) == {"t", "digest"} and isinstance(msg["digest"], str) \
                and _HEX64.fullmatch(msg["digest"]):
            digest = msg["digest"]
            if digest in self._stale:
                return  # an agreement to the table before a seat was freed
            if p in self.agreed and self.agreed[p] != digest:
                self._stop(f"{self.name_of(p)} (seat {p + 1}) agreed to two different tables; the table stops.",
                           "roster")
                return
            self.agreed[p] = digest
            self._check_agreement(p)
            self._maybe_ready()
        elif kind == "freed" and set(msg) == {"t"} and p == 0 and not self.started:
            self._stop(FREED_TEXT)
        elif kind == "abort" and set(msg) - {"seat"} == {"t", "reason"} and msg["reason"] in ABORTS \
                and (self.roster is not None and type(msg.get("seat", p)) is int
                     and 0 <= msg.get("seat", p) < len(self.roster.seats) and msg.get("seat", p) != self.seat):
            by = msg.get("seat", p)  # (a seat that stopped because another did says which)
            self._stop(f"{self.name_of(by)} (seat {by + 1}) stopped the table: {ABORTS[msg['reason']]}.",
                       msg["reason"], by)
        else:
            self._distrust(p, "sent a message this table does not have")

    def _on_roster(self, p: int, data: object) -> None:
        assert self.roster is not None and self.seat is not None
        if p != 0 or self.seat == 0:
            self._distrust(p, "announced the table, which only the host does")
            return
        try:
            roster = read_roster(data, self.room, self.secret)
        except ProtocolError as exc:
            self._distrust(p, f"announced a bad table ({exc})")
            return
        if not self.started and not roster.extends(self.roster):
            freed = next((i for i in range(1, len(self.roster.seats))
                          if i != self.seat and self.roster.without(i) == roster), None)
            if freed is not None:  # the host freed a seat before the start (a browser that never linked)
                self._apply_free(freed)
                return
        if len(roster.seats) <= self.seat or roster.seats[self.seat].pub != self.key.pub:
            self._stop("The host moved this browser out of its seat; the table stops.", "changed")
            return
        if self.started and roster != self.roster:
            self._stop("The host changed the table after the game started; the table stops.", "changed")
            return
        if not roster.extends(self.roster):
            self._stop("The host changed seats already taken (or the rules); the table stops.", "changed")
            return
        if roster == self.roster:
            return
        self.roster = roster
        for q in range(len(roster.seats)):
            if q != self.seat and q not in self.links:
                self.links[q] = self._make_link(q, self._now)
        self._events.append(RosterChanged(roster))
        self._maybe_agree()
        for q in list(self.agreed):
            self._check_agreement(q)
        self._maybe_ready()

    def _distrust(self, p: int, what: str) -> None:
        text = f"{self.name_of(p)} (seat {p + 1}) {what}; it was refused."
        self._events.append(RoomProblem(text))
        self.links[p].distrust(text, self._now)
        self.links[p].pop_events()

    def _maybe_agree(self) -> None:
        if self.agree_sent or self.roster is None or not self.roster.full:
            return
        self.agree_sent = True
        digest = self.roster.digest()
        for p in sorted(self.links):
            self.links[p].send({"t": "agree", "digest": digest}, self._now)
            self._drain_link(p)
        for q in list(self.agreed):
            self._check_agreement(q)
        self._maybe_ready()

    def _check_agreement(self, p: int) -> None:
        if self.stopped is None and self.roster is not None and self.roster.full \
                and self.agreed.get(p, self.roster.digest()) != self.roster.digest():
            self._stop(f"{self.name_of(p)} (seat {p + 1}) was told another table than this browser (other seats, "
                       "names or rules): the host told the seats different things, so the table stops.", "roster")

    def _maybe_ready(self) -> None:
        if self.started or self.stopped is not None or self.roster is None or not self.roster.full:
            return
        assert self.seat is not None
        digest = self.roster.digest()
        others = [p for p in range(self.roster.rules.players) if p != self.seat]
        if all(self.agreed.get(p) == digest and self.links[p].state == "live" for p in others):
            self.started = True
            self._events.append(MeshReady(self.seat, tuple(range(self.roster.rules.players)), self.roster))
            held, self.buffered = self.buffered, []
            self._events.extend(Received(p, m) for p, m in held)

    def _stop(self, text: str, abort: str | None = None, by: int | None = None) -> None:
        """Stop for good, saying ``text``; ``abort``: tell every other seat why (a code of
        :data:`ABORTS`; ``by``: the seat that stopped first, if not this one), so each stops too and
        says so. The pair links stay up for that: a seat away gets it when it calls (or is called)."""
        if self.stopped is not None:
            return
        self.stopped = text
        self._events.append(Stopped(text))
        if abort is not None and self.seat is not None:
            msg: dict[str, Any] = {"t": "abort", "reason": abort}
            if by is not None and by != self.seat:
                msg["seat"] = by
            for p in sorted(self.links):
                self._revive(p).send(msg, self._now)
                self._drain_link(p)
        for peer, where in list(self._channels.items()):
            if abort is None or not isinstance(where, int):
                self._hang(peer, text, tell=False)
        if abort is None:
            for link in self.links.values():
                link.stop(text)
                link.pop_events()
                link.pop_outgoing()

    def leave(self, now: float) -> None:
        """This browser's player leaves the table: it stops, and every other seat is told why
        (``abort: left``), at once or when it next links."""
        self._now = now
        self._stop("You left the table.", "left")
        self._after()
