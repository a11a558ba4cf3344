"""The player's record in the browser's storage: history, statistics, export and import.

Pure functions over the controller's :class:`~web.shell.controller.Storage` (``get``/``set`` of strings);
no browser imports. The data types and every number come from :mod:`cribbage.record`.

API (for the page):

- ``append_record(storage, record) -> bool``: keep a finished match (False if already kept). Call it
  at game over with ``cribbage.record.record_match(match, host.now_ms())``; later, when there is time,
  ``fill_coach(storage, record.id, coach_totals(match))`` adds the coach's view.
- ``read_history(storage) -> (History, problem)``: ``problem`` is a sentence when the stored history
  could not be read (it is then set aside by the next write, never overwritten).
- ``read_stats(storage) -> Stats``; ``cribbage.record.format_stats`` prints them.
- ``export_all(storage) -> str``: the export file (every ``cribbage.`` key: saves, history, settings);
  ``export_filename(host.now_ms())`` names it.
- ``preview_import(storage, text) -> ImportPlan``: what an import would change, without changing
  anything (to ask "this replaces your match in progress: import?"); raises ``RecordError``.
- ``import_bundle(storage, text) -> ImportPlan``: apply it, all or nothing; raises ``RecordError``
  (nothing changed) for a foreign, damaged or newer file. Histories merge (each match once); saves and
  settings from the file replace those here.

Charts of a kept match: ``web.kit.charts.race_chart(race(replay(record).state.events), record.names)``
(``race`` and ``replay`` from :mod:`cribbage.record`); of the statistics: ``sources_chart(source_rows(
group))``, ``histogram_chart(group.player.shows)``, ``trend_chart(group.trend)``.

Keys: if the storage has ``keys()`` every ``cribbage.`` key is exported; otherwise the keys the game
writes (:data:`KNOWN_KEYS`) are. If a write fails midway an import is undone; a key it had created is
removed with the storage's ``remove(key)`` when it has one, else emptied (``get`` returns ``""``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Iterable

from cribbage.record import (
    HISTORY_KEY,
    KEY_PREFIX,
    CoachTotals,
    History,
    MatchRecord,
    RecordError,
    Stats,
    make_bundle,
    read_bundle,
)

from web.sessions.storage import Storage

__all__ = ["append_record", "fill_coach", "read_history", "read_stats", "export_all", "export_filename",
           "preview_import",
           "import_bundle", "ImportPlan", "KNOWN_KEYS", "HISTORY_KEY", "HISTORY_ASIDE_KEY"]

KNOWN_KEYS = ("cribbage.save.computer", "cribbage.save.hotseat", "cribbage.mode", "cribbage.settings",
              "cribbage.ui.computer", "cribbage.ui.hotseat", HISTORY_KEY)
"""The keys the game writes (the same strings as the controller's ``SAVE_KEYS``, ``SETTINGS_KEY``...)."""
HISTORY_ASIDE_KEY = "cribbage.history.unreadable"
"""Where a stored history that cannot be read is copied before a new one is written."""


def _keys(storage: Storage) -> list[str]:
    """Every ``cribbage.`` key in the storage (or the known ones, if it cannot list its keys)."""
    lister = getattr(storage, "keys", None)
    names: Iterable[str] = lister() if callable(lister) else KNOWN_KEYS
    return sorted(k for k in names if isinstance(k, str) and k.startswith(KEY_PREFIX) and storage.get(k) is not None)


def read_history(storage: Storage) -> tuple[History, str | None]:
    """The stored history, and a sentence if it could not be read (then an empty one)."""
    raw = storage.get(HISTORY_KEY)
    if raw is None:
        return History(), None
    try:
        return History.from_json(raw), None
    except RecordError as exc:
        return History(), f"Your match history could not be read ({exc})."


def _write_history(storage: Storage, history: History) -> None:
    """Store a history; an unreadable one already there is copied aside first, never lost."""
    raw = storage.get(HISTORY_KEY)
    if raw is not None:
        try:
            History.from_json(raw)
        except RecordError:
            storage.set(HISTORY_ASIDE_KEY, raw)
    storage.set(HISTORY_KEY, history.to_json())


def append_record(storage: Storage, record: MatchRecord) -> bool:
    """Keep a finished match in the history (bounded); False if it was already kept."""
    history, _ = read_history(storage)
    added = history.add(record)
    if added:
        _write_history(storage, history)
    return added


def fill_coach(storage: Storage, record_id: str,
               coach: tuple[CoachTotals | None, ...]) -> bool:
    """Add the coach's totals to a kept match; False if it is not (or no longer) kept in full."""
    history, problem = read_history(storage)
    if problem:
        return False
    for record in history.records:
        if record.id == record_id:
            if history.add(record.with_coach(coach)):
                _write_history(storage, history)
                return True
            return False
    return False


def read_stats(storage: Storage) -> Stats:
    """Statistics of every match kept (an unreadable history counts as none)."""
    return read_history(storage)[0].stats()


def export_filename(now_ms: int) -> str:
    """A name for the export file: ``cribbage-2026-11-30.json`` (the date in UTC)."""
    day = datetime.fromtimestamp(now_ms / 1000, tz=timezone.utc).date().isoformat()
    return f"cribbage-{day}.json"


def export_all(storage: Storage) -> str:
    """The export file: every stored ``cribbage.`` entry, exactly as stored."""
    return make_bundle({k: v for k in _keys(storage) if (v := storage.get(k)) is not None})


@dataclass
class ImportPlan:
    """What an import writes: the new value of each key, and what it replaces."""

    writes: dict[str, str] = field(default_factory=dict)
    """Key → value to store (only keys whose value changes)."""
    replaced: list[str] = field(default_factory=list)
    """Keys that held something else before (saves, settings), so the page can ask first."""
    new_matches: int = 0
    """Matches the history gains."""

    @property
    def changes(self) -> bool:
        """True if the import changes anything."""
        return bool(self.writes)


def preview_import(storage: Storage, text: str | bytes) -> ImportPlan:
    """What importing ``text`` would do; raises :class:`RecordError` for a file it refuses."""
    entries = read_bundle(text)
    plan = ImportPlan()
    for key, value in entries.items():
        current = storage.get(key)
        if key == HISTORY_KEY:
            theirs = History.from_json(value)
            mine, problem = read_history(storage)
            if current is None or problem:
                merged_text = value
                plan.new_matches = len(theirs.ids())
            else:
                merged = mine.merged(theirs)
                merged_text = merged.to_json()
                plan.new_matches = len(merged.ids() - mine.ids())
            if merged_text != current:
                plan.writes[key] = merged_text
            continue
        if value != current:
            plan.writes[key] = value
            if current is not None:
                plan.replaced.append(key)
    return plan


def import_bundle(storage: Storage, text: str | bytes) -> ImportPlan:
    """Import an export file, all or nothing: a refused file or a failed write leaves storage as it was."""
    plan = preview_import(storage, text)
    before = {k: storage.get(k) for k in plan.writes}
    if HISTORY_KEY in plan.writes and before[HISTORY_KEY] is not None:
        try:
            History.from_json(before[HISTORY_KEY] or "")
        except RecordError:
            plan.writes = {HISTORY_ASIDE_KEY: before[HISTORY_KEY] or "", **plan.writes}
            before[HISTORY_ASIDE_KEY] = storage.get(HISTORY_ASIDE_KEY)
    done: list[str] = []
    try:
        for key, value in plan.writes.items():
            storage.set(key, value)
            done.append(key)
    except Exception as exc:  # e.g. the storage quota: undo what was written, then say why
        remove = getattr(storage, "remove", None)
        for key in reversed(done):
            old = before[key]
            if old is not None:
                storage.set(key, old)
            elif callable(remove):
                remove(key)
            else:  # a storage that cannot delete: the closest to "never there" it can hold
                storage.set(key, "")
        raise RecordError(f"the import could not be stored ({exc}); nothing was changed") from exc
    return plan
