"""The record's words and numbers: the sources of points, the published expert averages, the skunk
lines, the history's limit and storage keys, the formats and versions, :class:`RecordError`, and the
small readers the record's types share."""

from __future__ import annotations

import hashlib
import json
from typing import Any, Mapping

SOURCES = ("pegging", "hand", "crib", "heels")
"""Where points come from, in the order of the score sheet."""
EXPERT_DEALER: Mapping[str, float] = {"pegging": 3.5, "hand": 8.0, "crib": 4.7}
"""Published expert averages a hand as dealer (≈ 16.2 in all)."""
EXPERT_PONE: Mapping[str, float] = {"pegging": 2.0, "hand": 8.1}
"""Published expert averages a hand as pone (≈ 10.1 in all)."""
SKUNK_LINE = 91
"""A loser below 91 is skunked in a game to 121 (information only: this game has no skunk bonus;
a record reads the line from its rules: 31 in a game to 61)."""
DOUBLE_SKUNK_LINE = 61
"""A loser below 61 is double-skunked in a game to 121 (counted apart from single skunks)."""
HISTORY_LIMIT = 500
"""Full records kept; older ones are folded into the summary."""
HISTORY_KEY = "cribbage.history"
"""The storage key of the history."""
RECORD_VERSION = 1
HISTORY_FORMAT = "cribbage-history"
HISTORY_VERSION = 1
EXPORT_FORMAT = "cribbage-export"
"""The ``format`` field of an export file."""
EXPORT_VERSION = 1
"""Export files newer than this are refused."""
SAVE_KEY_PREFIX = "cribbage.save."
KEY_PREFIX = "cribbage."


class RecordError(ValueError):
    """A record, history or export file that cannot be used; the message says why."""


# --- small helpers ------------------------------------------------------------------------------


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _digest(data: Any, n: int = 32) -> str:
    return hashlib.sha256(_canonical(data).encode("utf-8", "surrogatepass")).hexdigest()[:n]  # any text


def _int(data: Mapping[str, Any], key: str, lo: int = 0) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < lo:
        raise RecordError(f"the field {key!r} is not a whole number of at least {lo}")
    return value


def _opt_int(value: Any, what: str) -> int | None:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise RecordError(f"{what} is not a whole number")
    return value


def _str(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise RecordError(f"the field {key!r} is not text")
    return value


def _dict(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RecordError(f"{what} is not an object")
    return value


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(f"{what} is not a list")
    return value


def _pair(value: Any, what: str, n: int = 2) -> list[Any]:
    """A list with one entry a seat (or a side): ``n`` of them (2 to 4 when ``n`` is 0: any table)."""
    items = _list(value, what)
    if len(items) != n and not (n == 0 and 2 <= len(items) <= 4):
        raise RecordError(f"{what} does not have one entry for each seat")
    return items


def _counts(value: Any, what: str) -> dict[int, int]:
    out: dict[int, int] = {}
    for k, v in _dict(value, what).items():
        if not k.isdigit() or not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise RecordError(f"{what} holds an invalid count")
        out[int(k)] = v
    return out
