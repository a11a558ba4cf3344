"""A table's record in this browser: under the room's key (:func:`~..env.room_key`, where a two-player
room keeps its own), written once per batch and only when it changed, as a base and an append-only log
since version 2 (:mod:`.table_log`: the base is the record below with ``"version": 2`` and a ``"log"``,
each later save an entry of what changed). The record of version 1, one object rewritten whole:
``{"format": "cribbage-party-room", "version": 1, "acked": N, "table": SEALED}``, SEALED the table
session's own sealed save (:meth:`TableSession.save <cribbage.online.table_session.TableSession.save>`:
the room, the seat's keys and the game, one checksum). The head only adds what the page keeps beside
the match (the last hand whose show this player dismissed). A record is told from a two-player
room's by its ``format`` (a string here, a number there)."""

from __future__ import annotations

import json
from typing import Any

from cribbage.match import SaveError

from web.sessions.online.env import room_key
from web.sessions.online.party.table_log import read_table
from web.sessions.storage import Storage

__all__ = ["FORMAT", "VERSION", "is_party", "read_party", "record_text"]

FORMAT = "cribbage-party-room"
VERSION = 1


def is_party(raw: str | None) -> bool:
    """The stored text is a table's record (not a two-player room's, not nothing)."""
    if not raw or f'"{FORMAT}"' not in raw:
        return False
    try:
        data = json.loads(raw)
    except ValueError:
        return False
    return isinstance(data, dict) and data.get("format") == FORMAT


def read_party(storage: Storage, room: str) -> tuple[dict[str, Any], int] | None:
    """(the table session's sealed save, the acknowledged hand) of ``room``, its log merged in
    (:func:`.table_log.read_table`), None when there is no record of a table; :class:`SaveError` (a
    sentence) when it is damaged."""
    if not is_party(storage.get(room_key(room))):
        return None
    got = read_table(storage, room_key(room), storage.keys())
    if got is None:
        raise SaveError("this table's record is damaged")
    return got


def record_text(table: dict[str, Any], acked: int) -> str:
    """The record of version 1 as it was stored before the table's log (tests and the benchmark): compact
    JSON, the table's save already canonical inside its seal."""
    return json.dumps({"format": FORMAT, "version": VERSION, "acked": acked, "table": table},
                      separators=(",", ":"), ensure_ascii=True)
