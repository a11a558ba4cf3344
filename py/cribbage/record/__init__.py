"""A player's record: finished matches, statistics, a bounded history and the export bundle.

API (all plain data, every type has ``to_json()``/``from_json()``; bad data raises :class:`RecordError`
with a sentence for the player):

- :func:`record_match` ``(match, played_at)`` → :class:`MatchRecord`: a finished match (who, when,
  winner, scores, seed + actions so it replays, points a hand by source for each seat as dealer or
  pone, best hand and crib with their cards; ``headline()`` is its line in a history list). ``played_at`` is
  milliseconds since 1970 (UTC), given
  by the caller: this module never reads the clock. :func:`record_state` does the same from a
  :class:`GameState` (stacked decks in tests).
- :func:`coach_totals` ``(match)`` → the coach's view of each human's decisions (expected points lost
  a discard and a play against the expert's choice). It is slow (seconds), optional, and the only
  function here that uses :mod:`cribbage.ai` (imported when called); :meth:`MatchRecord.with_coach`
  adds its result to a record afterwards.
- :class:`Stats` (:func:`statistics`): totals per opponent level (``computer:expert``) and per
  hot-seat player (``hotseat:Player 1``); integers only, so sums stay exact; averages are derived.
  :func:`format_stats` prints them (``cribbage stats FILE``).
- :class:`History`: the last :data:`HISTORY_LIMIT` full records, older ones folded into ``summary``
  (a :class:`Stats`) and ``folded`` (their ids) so totals stay exact and nothing is counted twice.
- :func:`race` ``(events)`` → :class:`RaceStep` list: both scores after every scoring event (charts).
- :func:`make_bundle` / :func:`read_bundle`: the export file (format ``cribbage-export``, a version,
  a checksum; ``data`` maps storage keys to their stored strings), refusing foreign, damaged or newer
  files.

The modules, one concern each: :mod:`~cribbage.record.base` (the words, numbers and
:class:`RecordError`), :mod:`~cribbage.record.hands` (a deal, a best count, the coach's totals),
:mod:`~cribbage.record.match_record` (a finished match), :mod:`~cribbage.record.coach_run` (the coach's
review), :mod:`~cribbage.record.race`, :mod:`~cribbage.record.stats` (and the ``cribbage stats`` text),
:mod:`~cribbage.record.history`, :mod:`~cribbage.record.bundle` (the export file). Every file reads
through :mod:`cribbage.savefile`.
"""

from __future__ import annotations

from .base import (DOUBLE_SKUNK_LINE, EXPERT_DEALER, EXPERT_PONE, EXPORT_FORMAT, EXPORT_VERSION, HISTORY_FORMAT,
                   HISTORY_KEY, HISTORY_LIMIT, HISTORY_VERSION, KEY_PREFIX, RECORD_VERSION, SAVE_KEY_PREFIX, SKUNK_LINE,
                   SOURCES, RecordError)
from .bundle import make_bundle, read_bundle
from .coach_run import CoachRun, coach_totals
from .hands import Best, CoachTotals, HandRecord
from .history import History
from .match_record import MatchRecord, record_match, record_state, replay
from .race import RaceStep, race
from .stats import GroupStats, SideTotals, Stats, TrendPoint, format_stats, statistics

__all__ = [
    "RecordError", "Best", "HandRecord", "CoachTotals", "MatchRecord", "SideTotals", "GroupStats", "Stats",
    "TrendPoint",
    "History", "RaceStep", "record_match", "record_state", "coach_totals", "CoachRun", "statistics", "format_stats",
    "race", "replay", "make_bundle", "read_bundle", "SOURCES", "EXPERT_DEALER", "EXPERT_PONE",
    "HISTORY_LIMIT", "HISTORY_KEY", "SKUNK_LINE", "DOUBLE_SKUNK_LINE", "EXPORT_FORMAT", "EXPORT_VERSION",
    "KEY_PREFIX", "SAVE_KEY_PREFIX", "RECORD_VERSION", "HISTORY_FORMAT", "HISTORY_VERSION",
]
