"""The record screens under CPython: a finished match kept once (also after a reload on the game-over
screen), its chart equal to the score sheet, the record dialog, export, and imports refused or applied."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from table_fakes import FakeHost, play_human_turn, select, text_of

from cribbage.match import Match
from cribbage.record import HISTORY_KEY, History, make_bundle, race, record_match
from web.shell.controller import SAVE_KEYS, Controller, MemoryStorage
from web.screens.record.store import read_history


class Host(FakeHost):
    """The fake browser, with downloads."""

    def __init__(self) -> None:
        super().__init__()
        self.downloads: list[tuple[str, str]] = []

        self.stop_when: Any = None
        """Stop running timers once this holds (the match is over: the coach's tick stays pending)."""

    def download(self, filename: str, text: str) -> None:
        self.downloads.append((filename, text))

    def run_timers(self, limit: int = 1000) -> int:
        ran = 0
        while self.timers and ran < limit and not (self.stop_when and self.stop_when()):
            self.timers.pop(min(self.timers))()
            ran += 1
        return ran


def make(storage: MemoryStorage | None = None, params: dict[str, str] | None = None,
         seed: int = 42) -> tuple[Controller, Host, MemoryStorage]:
    host = Host()
    storage = storage if storage is not None else MemoryStorage()
    controller = Controller(host, storage, {"delay": "0", **(params or {})}, seed_source=lambda: seed)
    controller.boot()
    return controller, host, storage


def finish(controller: Controller, host: Host, limit: int = 3000) -> None:
    """Play to the end by clicks; the coach's timer (due after the game-over screen) is not run."""
    host.stop_when = lambda: controller.match.state.is_over
    for _ in range(limit):
        if controller.match.state.is_over:
            return
        host.run_timers()
        if controller.match.state.is_over:
            return
        if not play_human_turn(controller, controller.active_seat()):
            host.run_timers()
    raise AssertionError("the match never ended")


@pytest.fixture(scope="module")
def played() -> tuple[Controller, Host, MemoryStorage]:
    """One match against the computer, played to the end (shared: it takes a few seconds)."""
    controller, host, storage = make(seed=42)
    finish(controller, host)
    return controller, host, storage


def history_of(storage: MemoryStorage) -> History:
    history, problem = read_history(storage)
    assert problem is None
    return history


def test_a_finished_match_is_kept_once_also_after_a_reload(played: Any) -> None:
    controller, _, storage = played
    history = history_of(storage)
    assert [r.id for r in history.records] == [record_match(controller.match, 0).id]
    record = history.records[0]
    assert record.scores == tuple(controller.match.state.scores) and record.mode == "computer"
    # A reload on the game-over screen: the same storage, a new page.
    copy = MemoryStorage(dict(storage.data))
    again, host2, _ = make(copy)
    assert again.match.state.is_over
    assert host2.last.meta["phase"] == "game over"
    assert [r.id for r in history_of(copy).records] == [record.id]
    # Undo the last move and redo it: still the same match, still kept once.
    again.click("undo")
    again.click("redo")
    assert again.match.state.is_over
    assert len(history_of(copy).records) == 1


def test_the_game_over_chart_equals_the_score_sheet(played: Any) -> None:
    controller, host, _ = played
    table = host.last.table
    assert 'class="chart"' in table and "Race to 121" in table
    st = controller.match.state
    # The score sheet's running totals at the end of each hand (from its events)...
    sheet: dict[int, tuple[int, int]] = {}
    for e in st.events:
        if e.points and e.seat is not None:
            sheet[e.hand] = e.scores
    # ... are the chart's hand-end dots.
    dots = select(table, tag="circle", cls="hand-end")
    drawn: dict[int, list[int]] = {}
    for d in dots:
        drawn.setdefault(int(d.attrs["data-hand"]), [0, 0])[int(d.attrs["data-seat"])] = int(d.attrs["data-score"])
    assert {h: tuple(v) for h, v in drawn.items()} == sheet
    assert tuple(sheet[max(sheet)]) == tuple(st.scores)
    steps = race(st.events)
    assert sum(s.points for s in steps if s.seat == 0) == st.scores[0]
    assert sum(s.points for s in steps if s.seat == 1) == st.scores[1]
    # The chart's caption says the same in words.
    final = f"You (solid line) {st.scores[0]}, Computer (dashed line) {st.scores[1]}"
    assert final in text_of(table)


def test_the_coach_fills_in_later_on_the_timer() -> None:
    controller, host, storage = make(seed=42)
    finish(controller, host)
    assert history_of(storage).records[0].coach is None  # nothing slow before the screen is drawn
    assert controller.records.coach_pending and host.timers
    host.stop_when = None
    ticks = host.run_timers(limit=100_000)
    assert ticks > 1  # spread over several ticks
    record = history_of(storage).records[0]
    assert record.coach is not None and record.coach[0] is not None and record.coach[0].discards > 0
    assert not controller.records.coach_pending


def test_a_hot_seat_match_is_kept_for_both_players() -> None:
    controller, host, storage = make(params={"mode": "hotseat"}, seed=5)
    finish(controller, host)
    history = history_of(storage)
    assert len(history.records) == 1 and history.records[0].mode == "hotseat"
    stats = history.stats()
    assert set(stats.groups) == {"hotseat:Player 1", "hotseat:Player 2"}


def test_the_record_dialog_shows_statistics_history_and_a_match(played: Any) -> None:
    _, _, storage = played
    controller, host, _ = make(MemoryStorage(dict(storage.data)))
    controller.click("menu")
    assert select(host.last.overlay, data_action="record")
    controller.click("record")
    overlay = host.last.overlay
    assert 'id="dlg-record"' in overlay and "Your record" in overlay
    text = text_of(overlay)
    assert "vs computer (expert)" in text and "1 match, " in text
    assert "Expert as dealer" in text and "16.2" in text and "Expert as pone" in text and "10.1" in text
    assert "29s: " in text and "Information only" in text
    assert overlay.count('class="chart"') >= 2  # the points by source and the hand counts
    links = select(overlay, data_action="record-match")
    assert len(links) == 1
    controller.click("record-match", {"record": links[0].attrs["data-record"]})
    page = host.last.overlay
    assert "A finished match" in page and "Race to 121" in page and "Points hand by hand" in page
    # Hand by hand with the coach: the review of hand 1 names the discard made.
    assert select(page, data_action="record-review", data_hand="1")
    controller.click("record-review", {"hand": "1"})
    review = select(host.last.overlay, tag="ul", id="record-review-1")
    assert review and "you kept" in text_of(host.last.overlay).lower()
    assert host.focus[-1] == "record-review-1"
    controller.click("record-back")
    assert "Your record" in host.last.overlay
    controller.key("Escape")
    assert host.last.overlay == ""


def test_export_then_import_on_a_cleared_device_restores_everything(played: Any) -> None:
    _, _, storage = played
    controller, host, mine = make(MemoryStorage(dict(storage.data)))
    controller.click("record")
    controller.click("record-export")
    (name, text), = host.downloads
    assert re.fullmatch(r"cribbage-\d{4}-\d\d-\d\d\.json", name)
    exported = dict(mine.data)
    # A cleared device: a new match starts there, so the import asks before replacing it.
    fresh, host2, store2 = make(MemoryStorage(), seed=9)
    assert store2.get(HISTORY_KEY) is None
    fresh.click("record")
    fresh.records.import_text(text)
    assert "Replace what is stored?" in host2.last.overlay
    assert store2.get(HISTORY_KEY) is None  # nothing happens before the answer
    fresh.click("record-import-confirm")
    for key in (HISTORY_KEY, SAVE_KEYS["computer"]):
        assert store2.get(key) == exported[key]
    assert fresh.match.actions == Match.from_json(exported[SAVE_KEYS["computer"]]).actions
    assert "1 match added" in text_of(host2.last.overlay)
    # The same file again adds nothing.
    before = dict(store2.data)
    fresh.records.import_text(text)
    assert store2.data == before
    assert "already here" in text_of(host2.last.overlay)


def _bundle_with(data: dict[str, str], **changes: Any) -> str:
    body = json.loads(make_bundle(data))
    body.update(changes)
    return json.dumps(body)


@pytest.mark.parametrize("kind", ["not json", "foreign", "damaged", "newer", "too big", "unreadable"])
def test_a_refused_import_leaves_storage_byte_identical(played: Any, kind: str) -> None:
    _, _, storage = played
    controller, host, mine = make(MemoryStorage(dict(storage.data)))
    good = make_bundle({HISTORY_KEY: mine.get(HISTORY_KEY) or ""})
    files: dict[str, str | None] = {
        "not json": good[: len(good) // 2],
        "foreign": json.dumps({"format": "something-else", "data": {}}),
        "damaged": good.replace('"version": 1', '"version": 1, "extra": 1', 1).replace("121", "120", 1),
        "newer": _bundle_with({}, version=99),
        "too big": "x" * 20_000_001,
        "unreadable": None,
    }
    before = json.dumps(mine.data, sort_keys=True)
    controller.click("record")
    controller.records.import_text(files[kind])
    assert json.dumps(mine.data, sort_keys=True) == before
    message = select(host.last.overlay, cls="record-message")
    assert message and message[0].attrs["role"] == "alert"
    assert "was not imported" in text_of(host.last.overlay) and "Nothing was changed" in text_of(host.last.overlay)
    if kind == "newer":
        assert "newer version" in text_of(host.last.overlay)


def test_storage_lists_and_removes_keys() -> None:
    storage = MemoryStorage({"cribbage.save.computer.corrupt.1": "x", "cribbage.mode": "computer"})
    assert sorted(storage.keys()) == ["cribbage.mode", "cribbage.save.computer.corrupt.1"]
    storage.remove("cribbage.mode")
    storage.remove("cribbage.mode")
    assert storage.keys() == ["cribbage.save.computer.corrupt.1"]


def test_the_export_holds_a_save_that_was_set_aside() -> None:
    controller, host, storage = make(MemoryStorage({SAVE_KEYS["computer"]: "{not a save"}))
    aside = [k for k in storage.keys() if ".corrupt." in k]
    assert aside and storage.get(aside[0]) == "{not a save"
    controller.click("record")
    controller.click("record-export")
    (_, text), = host.downloads
    assert json.loads(text)["data"][aside[0]] == "{not a save"


def test_an_unreadable_history_is_said_and_a_finished_match_does_not_overwrite_it() -> None:
    storage = MemoryStorage({HISTORY_KEY: "{damaged"})
    controller, host, _ = make(storage, seed=42)
    controller.click("record")
    assert "could not be read" in text_of(host.last.overlay)
    controller.key("Escape")
    finish(controller, host)
    assert storage.get("cribbage.history.unreadable") == "{damaged"
    assert len(history_of(storage).records) == 1
