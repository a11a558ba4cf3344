"""What a room of three or four seats tells its page (:class:`~.table_room.TableRoom`'s events), and
:class:`TableRoomError` for local misuse or a damaged save. Records only: the room
(:mod:`.table_room`) and its channels and pair links (:mod:`.table_mesh`) make them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

from .table_roster import Roster

__all__ = ["TableRoomError", "RoomEvent", "RosterChanged", "MeshReady", "Received", "SeatAway", "SeatBack",
           "RoomProblem", "Stopped", "CloseChannel"]


class TableRoomError(ValueError):
    """Local misuse (sending before the start, to a seat that is not there) or a damaged save."""


@dataclass(frozen=True)
class RosterChanged:
    """The seats taken so far (a newcomer's seat is :attr:`TableRoom.seat` once it has one)."""

    roster: Roster


@dataclass(frozen=True)
class MeshReady:
    """Every seat is taken, every pair is linked and every seat holds the same roster: play."""

    seat: int
    seats: tuple[int, ...]
    roster: Roster


@dataclass(frozen=True)
class Received:
    """A game message from ``seat`` (the seat its link proved), exactly once, in its order."""

    seat: int
    payload: dict[str, Any]


@dataclass(frozen=True)
class SeatAway:
    seat: int
    name: str


@dataclass(frozen=True)
class SeatBack:
    seat: int
    name: str


@dataclass(frozen=True)
class RoomProblem:
    """Something bad came in and was refused (our own plain words)."""

    text: str


@dataclass(frozen=True)
class Stopped:
    """The room is over for this browser (refused, or the seats disagree): say ``text``."""

    text: str


@dataclass(frozen=True)
class CloseChannel:
    """Close the channel of ``peer`` (~200 ms later, so a refusal gets through)."""

    peer: str
    text: str


RoomEvent = Union[RosterChanged, MeshReady, Received, SeatAway, SeatBack, RoomProblem, Stopped, CloseChannel]
