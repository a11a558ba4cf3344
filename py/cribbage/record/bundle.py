"""The export file: storage entries in a versioned, checksummed bundle, each entry checked on the
way in."""

from __future__ import annotations

import json
from typing import Any, Mapping

from .base import EXPORT_FORMAT, EXPORT_VERSION, HISTORY_KEY, KEY_PREFIX, SAVE_KEY_PREFIX, RecordError, _digest
from .history import History

# --- the export file ----------------------------------------------------------------------------


def make_bundle(entries: Mapping[str, str]) -> str:
    """An export file holding these storage entries (``cribbage.`` keys to their stored strings)."""
    body: dict[str, Any] = {"format": EXPORT_FORMAT, "version": EXPORT_VERSION,
                            "data": {k: entries[k] for k in sorted(entries)}}
    body["checksum"] = _digest(body)
    return json.dumps(body, sort_keys=True, ensure_ascii=False, indent=1) + "\n"


def read_bundle(text: str | bytes) -> dict[str, str]:
    """The entries of an export file, each checked; refuse a foreign, damaged or newer file."""
    from ..match import Match, SaveError

    try:
        data = json.loads(text)
    except (ValueError, TypeError) as exc:
        raise RecordError("this file cannot be read: it is not valid JSON (it may be truncated)") from exc
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise RecordError("this is not a cribbage export file")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise RecordError("this export file has no valid version number")
    if version > EXPORT_VERSION:
        raise RecordError(f"this file was exported by a newer version of the game (file version {version}, "
                          f"this game reads up to {EXPORT_VERSION}): update the game first")
    if data.get("checksum") != _digest({k: v for k, v in data.items() if k != "checksum"}):
        raise RecordError("this file has been altered or damaged (its checksum does not match)")
    entries = data.get("data")
    if not isinstance(entries, dict):
        raise RecordError("this export file holds no data")
    for key, value in entries.items():
        if not key.startswith(KEY_PREFIX) or not isinstance(value, str):
            raise RecordError(f"this export file holds an entry that is not the game's: {key!r}")
    for key, value in entries.items():
        if key == HISTORY_KEY:
            try:
                History.from_json(value)
            except RecordError as exc:
                raise RecordError(f"the match history in this file cannot be used: {exc}") from exc
        elif key.startswith(SAVE_KEY_PREFIX) and key.count(".") == 2:
            try:
                Match.from_json(value)
            except SaveError as exc:
                raise RecordError(f"the saved game {key!r} in this file cannot be used: {exc}") from exc
    return dict(entries)
