"""A table's record in this browser: one JSON object under the room's key (:func:`~..env.room_key`,
where a two-player room keeps its own), written once per batch and only when it changed:
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
    """(the table session's sealed save, the acknowledged hand) of ``room``, None when there is no
    record of a table; :class:`SaveError` (a sentence) when it is damaged."""
    raw = storage.get(room_key(room))
    if not is_party(raw):
        return None
    assert raw is not None
    data = json.loads(raw)
    if data.get("version") != VERSION:
        raise SaveError(f"this table's record is of version {data.get('version')!r}, which this page cannot read")
    table, acked = data.get("table"), data.get("acked", 0)
    if not isinstance(table, dict) or type(acked) is not int:
        raise SaveError("this table's record is damaged")
    return table, acked


def record_text(table: dict[str, Any], acked: int) -> str:
    """The record to store (compact JSON; the table's save is already canonical inside its seal)."""
    return json.dumps({"format": FORMAT, "version": VERSION, "acked": acked, "table": table},
                      separators=(",", ":"), ensure_ascii=True)
