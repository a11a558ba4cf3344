"""One browser's table of three or four: its :class:`~.table_room.TableRoom` (the seats and the mesh of
pair links) and, from the start, its :class:`~.table_game.TableGame` (the match over the proven deal),
wired together. Pure and synchronous, no I/O and no clock, as the room: the page feeds what its
channels do and the time, then drains what to write and what to show.

    s = TableSession.open(room_id, secret, rules, "Ann", now)   # the host (seat 0) chooses the table
    s = TableSession.join(room_id, secret, "Bob", now)          # a newcomer from the room link
    s = TableSession.restore(saved, now)                        # after a reload: the same seat, the same game
    s.my_id; s.to_dial(now); s.opened(peer, binding, now); s.received(peer, text, now)
    s.closed(peer, now); s.tick(now); s.pop_outgoing()          # the room's I/O, passed through
    s.pop_events() -> [SessionEvent]    # the room's events but Received (the game takes those),
                                        # GameStarted, GameStopped, GameRefused
    s.view(); s.legal(); s.act(action, now); s.can_agree(); s.agree(answer, now); s.end_match(now)
    s.status(); s.missing; s.status_text; s.busy; s.work(now)
    s.save()                            # one dict, room and game together: write it after every call

The wiring: every ``Received(seat, payload)`` of the room goes, in order and in the same call, to
:meth:`TableGame.receive <.table_game.TableGame.receive>` (which only queues: the game's inbox is in its
save); the game then works within :attr:`TableSession.budget` (None: everything) and everything in its
outbox goes to :meth:`TableRoom.broadcast <.table_room.TableRoom.broadcast>` at once. So after every call
the room's links hold every message the game wants sent and the game's inbox every message the room
delivered: :meth:`save` then holds both sides of every message, and the room's promise holds (a seat
that comes back gets what it missed; nothing is resent by the game).

The game is made at the room's ``MeshReady``: its seat, names and rules are the roster's (every seat
holds the same roster, digests compared), and its ``room`` (bound into every transcript of the deal)
is the room id with the roster's digest, so a deal's messages belong to this exact table (its seats'
keys, names and rules) and no other. The seat's secrets come from a fresh 32-byte seed of its own
(``seed=`` in tests), kept in the save: a seed shared by the seats would give every seat's key away.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any, Union

from ..actions import Action
from ..match import SaveError
from ..rules import Rules
from ..savefile import Envelope, Fields, SaveFileError
from ..state import IllegalActionError
from ..view import SeatView
from .group import Group
from .link import Binding
from .table_game import TableGame
from .table_room import (CloseChannel, MeshReady, Received, RoomProblem, RosterChanged, SeatAway, SeatBack, Stopped,
                         TableRoom, TableRoomError)

__all__ = ["TableSession", "SessionEvent", "GameStarted", "GameStopped", "GameRefused", "SAVE_FORMAT",
           "SAVE_VERSION", "ENVELOPE"]

SAVE_FORMAT = "cribbage-table-session"
SAVE_VERSION = 1
ENVELOPE = Envelope(SAVE_FORMAT, SAVE_VERSION, SaveError, what="this table's save", ascii=True)
"""One save file: the room's save and the game's, sealed together with one checksum."""


@dataclass(frozen=True)
class GameStarted:
    """The game began at this seat (the room's ``MeshReady``): ``seat`` of ``names``."""

    seat: int
    names: tuple[str, ...]


@dataclass(frozen=True)
class GameStopped:
    """The match stopped at this seat (a false proof, another story, a move against the rules, the
    host's end): say ``text``; :meth:`TableSession.status` says which."""

    text: str


@dataclass(frozen=True)
class GameRefused:
    """A game message was refused on receipt (a replay, one out of turn): nothing changed."""

    text: str


SessionEvent = Union[RosterChanged, MeshReady, SeatAway, SeatBack, RoomProblem, Stopped, CloseChannel,
                     GameStarted, GameStopped, GameRefused]


class TableSession:
    """One browser's side of a table of three or four: the room and, once it starts, the game."""

    def __init__(self, room: TableRoom, *, game: TableGame | None = None, group: Group | None = None,
                 seed: bytes | None = None, budget: float | None = None) -> None:
        """``group``: the deal's group (None: P-256; tests pass a small one); ``seed``: this seat's 32
        secret bytes for the game (None: fresh at the start); ``budget``: seconds of crypto work per
        call (None: all of it; the page gives a slice and calls :meth:`work` while :attr:`busy`)."""
        self.room = room
        self.game = game
        self.group = group
        self.budget = budget
        self._seed = seed
        self._events: list[SessionEvent] = []
        self._told_failure = game is not None and game.failure is not None
        self._refused = 0 if game is None else len(game.refused)

    # ---- making one ------------------------------------------------------------------------------

    @classmethod
    def open(cls, room: str, secret: str, rules: Rules, name: str, now: float, **kw: Any) -> TableSession:
        """The host's table (seat 0, the rules it chose): ``kw`` as :class:`TableSession`."""
        if rules.players < 3:
            raise TableRoomError("a table session is for three or four seats (two play the two-seat room)")
        return cls(TableRoom.open(room, secret, rules, name, now), **kw)

    @classmethod
    def join(cls, room: str, secret: str, name: str, now: float, **kw: Any) -> TableSession:
        """A newcomer from the room link (save at once: its seat key is its seat)."""
        return cls(TableRoom.join(room, secret, name, now), **kw)

    def save(self) -> dict[str, Any]:
        """Room and game in one sealed dict (JSON-able): write it after every call."""
        body: dict[str, Any] = {"format": SAVE_FORMAT, "version": SAVE_VERSION, "room": self.room.to_dict(),
                                "game": None if self.game is None else self.game.to_dict()}
        return ENVELOPE.seal(body)

    @classmethod
    def restore(cls, data: Any, now: float, *, groups: tuple[Group, ...] = (), budget: float | None = None
                ) -> TableSession:
        """The table as :meth:`save` left it (:class:`SaveError` with a sentence for anything doubtful)."""
        try:
            fields = Fields(ENVELOPE.check(data), "this table's save", SaveError)
            room = TableRoom.from_dict(fields.object("room"), now)
            raw_game = fields.optional("game", fields.object)
        except (SaveFileError, TableRoomError) as exc:
            raise SaveError(str(exc)) from None
        if raw_game is not None and not room.started:
            raise SaveError("this table's save has a game at a table that has not started")
        game = None
        if raw_game is not None:
            game = TableGame.from_dict(raw_game, groups)
            if room.roster is None or (game.seat, game.n, game.room) != (room.seat, room.roster.rules.players,
                                                                         _game_room(room)):
                raise SaveError("this table's save holds a game of another table or seat")
        return cls(room, game=game, group=None if game is None else game.group, budget=budget)

    # ---- the room's I/O, passed through ----------------------------------------------------------

    @property
    def my_id(self) -> str:
        return self.room.my_id

    def to_dial(self, now: float) -> list[str]:
        return self.room.to_dial(now)

    def opened(self, peer: str, binding: Binding | None, now: float) -> None:
        self.room.opened(peer, binding, now)
        self._settle(now)

    def received(self, peer: str, text: object, now: float) -> None:
        self.room.received(peer, text, now)
        self._settle(now)

    def closed(self, peer: str, now: float) -> None:
        self.room.closed(peer, now)
        self._settle(now)

    def tick(self, now: float) -> None:
        self.room.tick(now)
        self._settle(now)

    def pop_outgoing(self) -> list[tuple[str, str]]:
        return self.room.pop_outgoing()

    def pop_events(self) -> list[SessionEvent]:
        events, self._events = self._events, []
        return events

    def work(self, now: float) -> None:
        """More of the game's queued work, within :attr:`budget` (call again while :attr:`busy`)."""
        self._settle(now)

    @property
    def busy(self) -> bool:
        """The game has work to do: messages to take in, or its own (the next pack's, in the background)."""
        return self.game is not None and self.game.busy

    @property
    def moving(self) -> bool:
        """Of :attr:`busy`, the work a move waits for (:attr:`TableGame.moving <.table_game.TableGame.moving>`)."""
        return self.game is not None and self.game.moving

    # ---- what the page shows ---------------------------------------------------------------------

    @property
    def seat(self) -> int | None:
        return self.room.seat

    @property
    def missing(self) -> tuple[str, ...]:
        """The names of the seats not here now (not taken yet, or away), in seat order."""
        return tuple(self.room.name_of(p) for p in self.room.missing)

    @property
    def status_text(self) -> str:
        """One sentence: the room's (waiting for whom, stopped), else the game's failure, else ''."""
        if self.room.stopped is not None or not self.room.started or self.room.missing:
            return self.room.status_text
        return (self.game.failure or "") if self.game is not None else ""

    def status(self) -> str:
        """``room`` (before the start), then the game's: ``keys``, ``playing``, ``auditing``, ``verified``,
        ``ended``, ``stopped``."""
        return "room" if self.game is None else self.game.status()

    def view(self) -> SeatView | None:
        return None if self.game is None else self.game.view()

    def legal(self) -> list[Action]:
        return [] if self.game is None else self.game.legal()

    def can_agree(self) -> str | None:
        return None if self.game is None else self.game.can_agree()

    def act(self, action: Action, now: float) -> None:
        """The local player's action (:class:`~cribbage.state.IllegalActionError` if not legal now)."""
        self._need_game().act(action)
        self._settle(now)

    def agree(self, answer: str, now: float) -> None:
        """``next`` / ``new`` between hands, ``new`` / ``leave`` at the end (see :meth:`TableGame.agree`)."""
        self._need_game().agree(answer)
        self._settle(now)

    def end_match(self, now: float) -> None:
        """The host ends the match, unverified, at every seat."""
        self._need_game().end_match()
        self._settle(now)

    def leave(self, now: float) -> None:
        """This player leaves the table: every seat is told (the room's ``abort``)."""
        self.room.leave(now)
        self._settle(now)

    # ---- inside --------------------------------------------------------------------------------

    def _need_game(self) -> TableGame:
        if self.game is None:
            raise IllegalActionError("the game has not started yet")
        return self.game

    def _settle(self, now: float) -> None:
        """Room events to the game and the page, the game's work, its outbox to every seat."""
        for event in self.room.pop_events():
            if isinstance(event, Received):
                if self.game is not None:
                    self.game.receive(event.seat, event.payload)
                continue
            self._events.append(event)
            if isinstance(event, MeshReady) and self.game is None:
                self._start(event)
        if self.game is None:
            return
        self.game.work(self.budget)
        self._flush(now)
        for text in self.game.refused[self._refused:]:
            self._events.append(GameRefused(text))
        self._refused = len(self.game.refused)
        if self.game.failure is not None and not self._told_failure:
            self._told_failure = True
            self._events.append(GameStopped(self.game.failure))

    def _flush(self, now: float) -> None:
        assert self.game is not None
        out = self.game.take_outbox()
        if not out or self.room.stopped is not None:
            return  # (a stopped room sends nothing more: every seat was told why)
        for message in out:
            self.room.broadcast(message, now)
        for event in self.room.pop_events():  # (sending never delivers, but keep the order if it did)
            if isinstance(event, Received):
                self.game.receive(event.seat, event.payload)
            else:
                self._events.append(event)

    def _start(self, ready: MeshReady) -> None:
        roster = ready.roster
        names = tuple(s.name for s in roster.seats)
        try:
            self.game = TableGame(ready.seat, rules=roster.rules, names=names, room=_game_room(self.room),
                                  group=self.group, seed=self._seed if self._seed is not None
                                  else secrets.token_bytes(32))
        except (TypeError, ValueError) as exc:
            self._events.append(Stopped(f"This table cannot be played here: {exc}."))
            return
        self._seed = None
        self._events.append(GameStarted(ready.seat, names))


def _game_room(room: TableRoom) -> str:
    """The ``room`` of the table's game: the room id and the digest of its full roster."""
    assert room.roster is not None
    return f"{room.room}/{room.roster.digest()}"
