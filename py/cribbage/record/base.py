"""The record's words and numbers: the sources of points, the published expert averages, the skunk
lines, the history's limit and storage keys, the formats and versions, :class:`RecordError`, and the
small readers the record's types share."""

from __future__ import annotations

from typing import Any, Mapping

from ..savefile import Fields

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
RECORD_VERSION = 2
"""The newest match record this version reads. Version 2 adds ``fair`` (a committed match, issue 34):
only such a record is written as version 2, so an older game that imports it says it comes from a newer
version (not that it was altered), and every other record is written, byte for byte, as version 1."""
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


def fields(data: Any, where: str) -> Fields:
    """A typed reader of one of the record's objects (:class:`cribbage.savefile.Fields`), refusing with
    :class:`RecordError`."""
    return Fields(data, where, RecordError)


def _counts(f: Fields, key: str, what: str) -> dict[int, int]:
    """A histogram: ``{"29": 1, ...}`` (points as text) to ``{29: 1}``."""
    out: dict[int, int] = {}
    for k, v in f.object(key, what=what).items():
        if not k.isdigit() or type(v) is not int or v < 0:
            raise RecordError(f"{what} holds an invalid count")
        out[int(k)] = v
    return out


def _seat_count(items: list[Any], n: int, what: str) -> list[Any]:
    """``items`` if it has one entry a seat (or a side): ``n`` of them."""
    if len(items) != n:
        raise RecordError(f"{what} does not have one entry for each seat")
    return items
