"""The export file: storage entries in a versioned, checksummed bundle, each entry checked on the
way in."""

from __future__ import annotations

import json
from typing import Any, Mapping

from ..savefile import Envelope, Fields
from .base import EXPORT_FORMAT, EXPORT_VERSION, HISTORY_KEY, KEY_PREFIX, SAVE_KEY_PREFIX, RecordError
from .history import History

ENVELOPE = Envelope(
    EXPORT_FORMAT, EXPORT_VERSION, RecordError, what="this file", foreign="this is not a cribbage export file",
    no_version="this export file has no valid version number",
    newer="this file was exported by a newer version of the game (file version {version}, this game reads up "
          "to {latest}): update the game first")
"""The export file: canonical UTF-8 JSON with a checksum (written indented, one key a line)."""

# --- the export file ----------------------------------------------------------------------------


def make_bundle(entries: Mapping[str, str]) -> str:
    """An export file holding these storage entries (``cribbage.`` keys to their stored strings)."""
    body: dict[str, Any] = {"format": EXPORT_FORMAT, "version": EXPORT_VERSION,
                            "data": {k: entries[k] for k in sorted(entries)}}
    return json.dumps(ENVELOPE.seal(body), sort_keys=True, ensure_ascii=False, indent=1) + "\n"


def read_bundle(text: str | bytes) -> dict[str, str]:
    """The entries of an export file, each checked; refuse a foreign, damaged or newer file."""
    from ..match import Match, SaveError

    f = Fields(ENVELOPE.check(ENVELOPE.loads(text)), "this export file", RecordError)
    entries = f.object("data", what="this export file's data")
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
