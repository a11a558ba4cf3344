"""Who sits where at a table of three or four browsers: the seat keys, the signalling ids, the roster,
and the keys of each pair's link. Pure functions and one record; the room itself is :mod:`.table_room`.

- **A seat's identity** is a P-256 key pair made by its browser when it first opens the room: the
  secret scalar ``x`` stays in that browser's storage; the public point ``Y = x·G`` is in the roster.
- **Signalling ids** (what a browser registers on PeerJS and what the others dial) are HMACs under the
  room secret (the link's ``#k=``, which no server sees): the host's of the room id alone
  (:func:`host_id`: a newcomer dials it to be seated), every other seat's of the room id and its
  public key (:func:`seat_id`). Knowing the room id finds nobody; each id names one seat's key, so a
  roster with an id that is not its key's is refused by every seat.
- **The roster** (:class:`Roster`): the room id, the host's rules and, seat by seat in arrival order,
  a name, a public key and an id. The host announces it; every seat checks it (:func:`read_roster`)
  and the seats compare its hash (:func:`Roster.digest`) pairwise before the game starts.
- **A pair's link** (seats ``lo < hi``) is a two-seat :class:`~.link.Link` whose keys both seats
  derive from their Diffie–Hellman secret ``x_lo·Y_hi = x_hi·Y_lo`` (:func:`pair_keys`): each side
  knows the other's commitment before any call, so there is no first join to win, and only the two
  holders of those keys can prove either end (a third seat cannot compute the secret: CDH in P-256).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from dataclasses import dataclass
from typing import Any

from ..rules import Rules, RulesError
from .errors import ProtocolError
from .group import Element
from .link import is_room_id, is_room_secret, seat_commitment
from .p256 import P256_GROUP
from .wire import clean_peer_text

__all__ = ["MAX_NAME", "TABLE_SEATS", "Roster", "RosterSeat", "SeatKey", "host_id", "seat_id", "pair_room",
           "pair_keys", "read_roster", "clean_name"]

MAX_NAME = 24
"""Longest player name (characters), as in two-player rooms."""
TABLE_SEATS = (2, 3, 4)
"""The tables a room may hold (two-player rooms normally use the two-seat link of :mod:`.link`)."""

_GROUP = P256_GROUP
_HOST_ID = b"cribbage-table-host-v1"
_SEAT_ID = b"cribbage-table-seat-v1"
_LOBBY = b"cribbage-table-lobby-v1"
_PAIR = b"cribbage-table-pair-v1"
_PAIR_KEY = b"cribbage-table-pair-key-v1"
_DIGEST = b"cribbage-table-roster-v1"


def _secret_bytes(secret: str) -> bytes:
    return base64.urlsafe_b64decode(secret + "=")


def _hmac(secret: str, *parts: bytes) -> str:
    return hmac.new(_secret_bytes(secret), b"|".join(parts), hashlib.sha256).hexdigest()


def host_id(room: str, secret: str) -> str:
    """The host's signalling id: where a newcomer asks for a seat and the other seats dial seat 0."""
    return "cribbage-t" + _hmac(secret, _HOST_ID, room.encode())[:32]


def seat_id(room: str, secret: str, pub: str) -> str:
    """The signalling id of the seat whose public key is ``pub`` (seats 1 and up)."""
    return "cribbage-t" + _hmac(secret, _SEAT_ID, room.encode(), pub.encode())[:32]


def lobby_room(room: str, secret: str) -> str:
    """The link room of a newcomer's call to the host (a first join proving the room secret)."""
    return "l" + _hmac(secret, _LOBBY, room.encode())[:40]


def pair_room(room: str, secret: str, pub_lo: str, pub_hi: str) -> str:
    """The link room of the pair of seats with these keys, ``pub_lo`` the lower seat's (not the seat
    numbers: a seat freed before the start moves the later seats down, and their links stay as they are)."""
    return "m" + _hmac(secret, _PAIR, room.encode(), pub_lo.encode(), pub_hi.encode())[:40]


def clean_name(text: object) -> str:
    """A player's name as plain text (no control or format characters), at most ``MAX_NAME``; "" if none."""
    return clean_peer_text(text, MAX_NAME)


class SeatKey:
    """A seat's identity key pair; ``secret_hex`` is saved in this browser only."""

    def __init__(self, x: int | None = None) -> None:
        self.x = x if x is not None else _GROUP.random_scalar()
        if not 0 < self.x < _GROUP.order:
            raise ValueError("a seat key is a scalar of P-256")
        self.pub = _GROUP.encode_text(_GROUP.mul(_GROUP.generator, self.x))
        """The public half (base64 of the compressed point), in the roster."""

    @property
    def secret_hex(self) -> str:
        return _GROUP.encode_scalar(self.x).hex()

    @classmethod
    def from_hex(cls, text: object) -> SeatKey:
        if not isinstance(text, str) or len(text) != 64:
            raise ValueError("a saved seat key is 64 hex digits")
        return cls(int(text, 16))

    def shared(self, peer_pub: str) -> bytes:
        """The Diffie–Hellman secret with the seat whose public key is ``peer_pub`` (ProtocolError if bad)."""
        point: Element = _GROUP.decode_text(peer_pub, "a seat's public key")
        return _GROUP.encode(_GROUP.mul(point, self.x))


def pair_keys(shared: bytes, secret: str, room: str) -> tuple[str, str]:
    """The link keys of a pair's two ends (``lo``'s, ``hi``'s) in link room ``room``, from their shared secret."""
    keys = []
    for role in (b"0", b"1"):
        keys.append(hmac.new(shared, b"|".join((_PAIR_KEY, _secret_bytes(secret), room.encode(), role)),
                             hashlib.sha256).hexdigest())
    return keys[0], keys[1]


def pair_commitments(shared: bytes, secret: str, room: str) -> tuple[str, str]:
    lo, hi = pair_keys(shared, secret, room)
    return seat_commitment(room, lo), seat_commitment(room, hi)


@dataclass(frozen=True)
class RosterSeat:
    name: str
    pub: str
    id: str


@dataclass(frozen=True)
class Roster:
    """The room, the host's rules, and the seats taken so far in arrival order (seat 0: the host)."""

    room: str
    rules: Rules
    seats: tuple[RosterSeat, ...]

    @property
    def full(self) -> bool:
        return len(self.seats) == self.rules.players

    def to_json(self) -> dict[str, Any]:
        return {"room": self.room, "rules": self.rules.to_json(),
                "seats": [{"name": s.name, "pub": s.pub, "id": s.id} for s in self.seats]}

    def digest(self) -> str:
        """What every seat proves it agreed to: SHA-256 of the label and the roster's canonical JSON."""
        text = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        return hashlib.sha256(_DIGEST + b"|" + text.encode()).hexdigest()

    def extends(self, other: Roster) -> bool:
        """Whether this roster keeps every seat of ``other`` as it was (same room, same rules)."""
        return (self.room == other.room and self.rules == other.rules
                and self.seats[:len(other.seats)] == other.seats)

    def seat_of(self, pub: str) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s.pub == pub), None)

    def seat_of_id(self, peer: str) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s.id == peer), None)

    def without(self, seat: int) -> Roster:
        """The roster with ``seat`` (not the host's) freed: the later seats move down one."""
        if not 1 <= seat < len(self.seats):
            raise ValueError(f"no seat {seat + 1} to free")
        return Roster(self.room, self.rules, self.seats[:seat] + self.seats[seat + 1:])

    def with_seat(self, name: str, pub: str, secret: str) -> Roster:
        ident = host_id(self.room, secret) if not self.seats else seat_id(self.room, secret, pub)
        return Roster(self.room, self.rules, self.seats + (RosterSeat(name, pub, ident),))


def read_roster(data: object, room: str, secret: str) -> Roster:
    """A roster announced by the host, checked: this room, rules of the rule book for 2–4 seats, at
    most that many seats, each with a name, a valid public key (no two alike) and the id that key's
    seat must have. ProtocolError with a sentence otherwise."""
    if not (isinstance(data, dict) and set(data) == {"room", "rules", "seats"}):
        raise ProtocolError("The host sent a table of the wrong shape.")
    if data["room"] != room or not is_room_id(room) or not is_room_secret(secret):
        raise ProtocolError("The host sent the table of another room.")
    try:
        rules = Rules.from_json(data["rules"])
    except (RulesError, TypeError) as exc:
        raise ProtocolError(f"The host's rules are not a table of the rule book ({exc}).") from None
    if rules.players not in TABLE_SEATS:
        raise ProtocolError("The host's table has a number of seats online play does not have.")
    raw = data["seats"]
    if not (isinstance(raw, list) and 1 <= len(raw) <= rules.players):
        raise ProtocolError("The host sent more seats than its table has (or none).")
    seats: list[RosterSeat] = []
    for i, item in enumerate(raw):
        if not (isinstance(item, dict) and set(item) == {"name", "pub", "id"}):
            raise ProtocolError(f"The host sent seat {i + 1} in the wrong shape.")
        name, pub, ident = item["name"], item["pub"], item["id"]
        if not isinstance(name, str) or clean_name(name) != name or not name:
            raise ProtocolError(f"The host sent an unreadable name for seat {i + 1}.")
        _GROUP.decode_text(pub, f"the key of seat {i + 1}")
        want = host_id(room, secret) if i == 0 else seat_id(room, secret, pub)
        if ident != want:
            raise ProtocolError(f"The host gave seat {i + 1} a signalling id that is not its key's.")
        if any(s.pub == pub for s in seats):
            raise ProtocolError("The host gave two seats the same key.")
        seats.append(RosterSeat(name, pub, ident))
    return Roster(room, rules, tuple(seats))
