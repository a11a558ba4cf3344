"""The record in the browser's storage: append (bounded, once), export → clear → import byte for byte,
bad files refused with the store unchanged, imports all or nothing."""

from __future__ import annotations

import json
import random

import pytest

from cribbage.match import Match
from cribbage.record import HISTORY_KEY, CoachTotals, History, MatchRecord, RecordError, record_match, statistics
from web.shell.controller import MemoryStorage
from web.screens.record.store import (
    HISTORY_ASIDE_KEY,
    append_record,
    export_all,
    fill_coach,
    import_bundle,
    preview_import,
    read_history,
    read_stats,
)

T0 = 1_764_000_000_000


class ListingStorage(MemoryStorage):
    """A storage that can list its keys (as ``localStorage`` can)."""

    def keys(self) -> list[str]:
        return list(self.data)


class FailingStorage(ListingStorage):
    """Refuses the n-th write, like a full ``localStorage``."""

    def __init__(self, data: dict[str, str], fail_at: int) -> None:
        super().__init__(data)
        self.writes = 0
        self.fail_at = fail_at

    def set(self, key: str, value: str) -> None:
        self.writes += 1
        if self.writes == self.fail_at:
            raise RuntimeError("QuotaExceededError")
        super().set(key, value)


def finished(seed: int, humans: tuple[int, ...] = (0,)) -> Match:
    names = ("You", "Computer") if humans == (0,) else ("Player 1", "Player 2")
    match = Match(seed, humans=humans, names=names, options={"level": "medium"} if humans == (0,) else {})
    rng = random.Random(seed)
    while not match.state.is_over:
        match.apply(rng.choice(match.legal_actions()))
    return match


@pytest.fixture(scope="module")
def records() -> list[MatchRecord]:
    return [record_match(finished(s, (0,) if s % 2 else (0, 1)), T0 + s) for s in range(1, 6)]


def filled(records: list[MatchRecord]) -> ListingStorage:
    storage = ListingStorage()
    for r in records:
        assert append_record(storage, r)
    saved = Match(99, humans=(0,), names=("You", "Computer"), options={"level": "medium"})
    saved.apply(saved.legal_actions()[0])
    storage.set("cribbage.save.computer", saved.to_json())
    storage.set("cribbage.settings", json.dumps({"delay": 300}))
    storage.set("cribbage.mode", "computer")
    storage.set("unrelated.key", "not ours")
    return storage


def test_a_finished_match_is_kept_once(records: list[MatchRecord]) -> None:
    storage = MemoryStorage()
    assert append_record(storage, records[0]) and not append_record(storage, records[0])
    history, problem = read_history(storage)
    assert problem is None and [r.id for r in history.records] == [records[0].id]
    assert read_stats(storage).to_json() == statistics([records[0]]).to_json()


def test_the_stored_history_stays_bounded_with_exact_totals(records: list[MatchRecord]) -> None:
    storage = MemoryStorage({HISTORY_KEY: History(limit=2).to_json()})
    for r in records:
        append_record(storage, r)
    history, _ = read_history(storage)
    assert len(history.records) == 2 and len(history.folded) == 3
    assert read_stats(storage).to_json() == statistics(records).to_json()


def test_export_clear_import_round_trips_byte_for_byte(records: list[MatchRecord]) -> None:
    storage = filled(records)
    exported = export_all(storage)
    assert "unrelated.key" not in exported
    fresh = ListingStorage()  # the site's data cleared
    plan = import_bundle(fresh, exported)
    assert plan.new_matches == len(records) and plan.replaced == []
    assert fresh.data == {k: v for k, v in storage.data.items() if k.startswith("cribbage.")}
    assert export_all(fresh) == exported
    # The controller's plain MemoryStorage cannot list its keys: the known keys are exported.
    plain = MemoryStorage()
    import_bundle(plain, exported)
    assert export_all(plain) == exported


def test_importing_the_same_file_twice_adds_nothing_twice(records: list[MatchRecord]) -> None:
    storage = filled(records[:3])
    exported = export_all(filled(records))
    first = import_bundle(storage, exported)
    assert first.new_matches == 2
    before = dict(storage.data)
    second = import_bundle(storage, exported)
    assert not second.changes and second.new_matches == 0 and storage.data == before
    assert len(read_history(storage)[0].records) == len(records)


def test_an_import_merges_histories_and_says_what_it_replaces(records: list[MatchRecord]) -> None:
    here = filled(records[:2])
    here.set("cribbage.settings", json.dumps({"delay": 0}))
    there = filled(records[2:])
    plan = preview_import(here, export_all(there))
    assert plan.new_matches == 3 and plan.replaced == ["cribbage.settings"]
    assert json.loads(here.data["cribbage.settings"]) == {"delay": 0}  # a preview changes nothing
    import_bundle(here, export_all(there))
    assert read_stats(here).to_json() == statistics(records).to_json()
    assert json.loads(here.data["cribbage.settings"]) == {"delay": 300}


def _damaged(text: str) -> str:
    data = json.loads(text)
    data["data"]["cribbage.settings"] = '{"delay":1}'
    return json.dumps(data)


def _newer(text: str) -> str:
    data = json.loads(text)
    data["version"] = 2
    return json.dumps(data)


@pytest.mark.parametrize("spoil, message", [
    (lambda t: t[: len(t) // 3], "not valid JSON"),
    (lambda t: '{"format": "cribbage-match", "version": 1}', "not a cribbage export"),
    (lambda t: "[1, 2, 3]", "not a cribbage export"),
    (_damaged, "altered or damaged"),
    (_newer, "newer version"),
])
def test_a_bad_file_is_refused_and_the_store_is_unchanged(records: list[MatchRecord], spoil, message) -> None:  # type: ignore[no-untyped-def]
    storage = filled(records[:2])
    exported = export_all(filled(records))
    before = dict(storage.data)
    with pytest.raises(RecordError, match=message):
        import_bundle(storage, spoil(exported))
    assert storage.data == before


def test_a_write_that_fails_midway_is_undone(records: list[MatchRecord]) -> None:
    exported = export_all(filled(records))
    base = filled(records[:1])
    base.set("cribbage.settings", json.dumps({"delay": 0}))
    writes = len(preview_import(base, exported).writes)
    assert writes >= 2
    for fail_at in range(1, writes + 1):
        storage = FailingStorage(dict(base.data), fail_at)
        before = dict(storage.data)
        with pytest.raises(RecordError, match="nothing was changed"):
            import_bundle(storage, exported)
        # Keys that existed hold their old values; keys that did not were removed or emptied.
        assert {k: v for k, v in storage.data.items() if v != ""} == before


def test_an_unreadable_stored_history_is_set_aside_not_lost(records: list[MatchRecord]) -> None:
    storage = MemoryStorage({HISTORY_KEY: "{not json"})
    history, problem = read_history(storage)
    assert problem is not None and "could not be read" in problem and not history.records
    assert append_record(storage, records[0])
    assert storage.data[HISTORY_ASIDE_KEY] == "{not json"
    assert [r.id for r in read_history(storage)[0].records] == [records[0].id]


def test_the_coachs_view_is_filled_in_later(records: list[MatchRecord]) -> None:
    storage = MemoryStorage()
    append_record(storage, records[0])
    coach = (CoachTotals(discards=4, discard_loss=1200, plays=10, play_loss=500), None)
    assert fill_coach(storage, records[0].id, coach) and not fill_coach(storage, records[0].id, coach)
    assert not fill_coach(storage, "no-such-match", coach)
    g = read_stats(storage).groups["computer:medium"]
    assert g.player.coach.per_discard == pytest.approx(0.3) and g.player.coach.per_play == pytest.approx(0.05)


def test_the_export_file_is_named_by_its_day() -> None:
    from web.screens.record.store import export_filename

    assert export_filename(T0) == "cribbage-2025-11-24.json"
