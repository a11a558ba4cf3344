"""The table's record as a base and an append-only log (web.sessions.online.party.table_log): read back,
it is the table's whole save at every save of a game; a save writes what changed; a damaged log is
refused with a sentence and the base kept; a record of version 1 (the whole save) still loads."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "protocol"))

from party_fakes import full_table as page_table, pass_time, play as page_play, settle
from table_game_hub import TINY
from table_session_hub import by_seat, full_table, step

from cribbage.match import SaveError
from cribbage.online.table_session import TableSession
from cribbage.state import Phase
from web.sessions.online.env import room_key
from web.sessions.online.party import table_log
from web.sessions.online.party.store import read_party, record_text
from web.sessions.online.party.table_log import TableLog, read_table
from web.sessions.online.room_log import entry_key
from web.sessions.storage import MemoryStorage

FROZEN = Path(__file__).parent / "rooms" / "table_v1_mid_play.json"
KEY = "cribbage.online.room.rtest"


class Counting(MemoryStorage):
    """A store that counts the characters written to it."""

    def __init__(self) -> None:
        super().__init__()
        self.written = 0

    def set(self, key: str, value: str) -> None:
        self.written += len(value)
        super().set(key, value)


def logged_game(players: int, until_hand: int | None, seed: int, check: bool, least: int = 300
                ) -> tuple[list[Any], list[Any], list[tuple[bool, int, int]]]:
    """A table's game, every page saving into its own log after every pump; ``check``: the record read
    back is the whole save at every save. Returns (the pages, their (log, store), each save of the
    first page: (a base, characters written, the whole record's characters at that save))."""
    hub, pages = full_table(players, table=seed, keep=False, **({"target": 61} if players == 3 else {}))
    logs = [(TableLog(store, KEY), store) for store in (Counting() for _ in pages)]
    rng = random.Random(seed)
    checked = 0
    saves: list[tuple[bool, int, int]] = []

    def save_all() -> None:
        nonlocal checked
        for page, (log, store) in zip(pages, logs):
            acked = 0 if page.session.game is None or page.session.game.match is None else \
                page.session.game.match.state.hand_number - 1
            wrote = log.save(page.session, acked)
            if wrote and page is pages[0] and not check:
                saves.append((log.n == 0, log.written, len(record_text(page.session.save(), acked))))
            if wrote and check:
                got = read_table(store, KEY, store.keys())
                assert got is not None
                assert got == (page.session.save(), acked), f"read back differs at save {log.n} of {page.id}"
                checked += 1

    save_all()
    for _ in range(5000):
        hub.pump()
        save_all()
        g = by_seat(pages)[0].session.game
        m = g.match if g is not None else None
        if until_hand is not None and m is not None and m.state.hand_number > until_hand:
            break
        if not step(hub, pages, rng):
            hub.pump()
            save_all()
            break
    assert not check or checked > least, checked
    return pages, logs, saves


def test_the_log_read_back_is_the_whole_save_at_every_save_of_a_game_to_61_at_three_seats() -> None:
    pages, logs, _ = logged_game(3, None, seed=3, check=True)
    for page, (_log, store) in zip(pages, logs):
        assert page.session.status() == "verified"
        got = read_table(store, KEY, store.keys())
        assert got is not None
        back = TableSession.restore(got[0], 0.0, groups=(TINY,))  # a reload resumes exactly
        assert back.save() == page.session.save()


def test_the_log_read_back_is_the_whole_save_at_every_save_of_two_hands_at_four_seats() -> None:
    pages, logs, _ = logged_game(4, 2, seed=4, check=True, least=150)
    for page, (_log, store) in zip(pages, logs):
        got = read_table(store, KEY, store.keys())
        assert got is not None and got[0] == page.session.save()
        assert TableSession.restore(got[0], 0.0, groups=(TINY,)).save() == page.session.save()


def test_a_save_writes_what_changed_not_the_whole_table() -> None:
    """Late in a game the whole save is tens of kB; an entry holds what changed (the whole rewrite of
    version 1 wrote the whole record at every save), and the game's writes are a fraction of the whole
    rewrites."""
    _pages, _logs, saves = logged_game(3, 5, seed=5, check=False)
    entries = [(wrote, whole) for base, wrote, whole in saves if not base]
    assert len(entries) > 100 and max(whole for _, whole in entries) > 50_000
    # an entry holds the fields that changed and the new messages (a shuffle's proof, ~7 kB here, is in
    # the deal's calls and in each link's kept payloads): never the record
    assert max(wrote for wrote, _ in entries) < 32_000, max(wrote for wrote, _ in entries)
    assert sorted(wrote for wrote, _ in entries)[len(entries) // 2] < 2_000
    late = [(wrote, whole) for wrote, whole in entries if whole > 50_000]
    assert late and all(wrote < whole / 2 for wrote, whole in late)
    # the whole game's writes (bases included) against the whole rewrite at every save
    assert sum(w for _, w, _ in saves) < sum(whole for _, _, whole in saves) / 5


def test_the_page_writes_entries_not_the_whole_record_per_batch() -> None:
    """Through the page (party/driver.py): a batch writes an entry of what changed, a base only now and then."""
    clock, hub, pages = page_table(3)
    page = pages[0]
    page_play(pages, lambda: bool(page.session.match is not None and page.session.match.state.pile))
    writes: list[int] = []
    real = page.storage.set

    def set_(key: str, value: str) -> None:
        writes.append(len(value))
        real(key, value)

    page.storage.set = set_  # type: ignore[method-assign]
    page_play(pages, lambda: page.session.match is not None and len(page.session.match.state.pile) >= 6)
    whole = len(record_text(page.session.table.save(), 0))  # type: ignore[union-attr]
    assert len(writes) > 3 and whole > 20_000
    # a base now and then (a hand's end; the log outgrowing its base), an entry of what changed otherwise
    assert sorted(writes)[len(writes) // 2] < 2_000, writes
    assert sum(writes) < len(writes) * whole / 8, (writes, whole)
    got = read_party(page.storage, page.session.room)
    assert got is not None and got[0] == page.session.table.save()  # type: ignore[union-attr]


def small_log() -> tuple[MemoryStorage, dict[str, Any], str]:
    """A log of a few entries of one seat in hand 1 (its store, the save it reads back to, its generation)."""
    hub, pages = full_table(3, table=9, keep=False, target=61)
    store = MemoryStorage()
    log = TableLog(store, KEY)
    rng = random.Random(9)
    page = by_seat(pages)[0]
    log.save(page.session, 0)
    while log.n < 6:
        step(hub, pages, rng)
        log.save(page.session, 0)
    assert log.log is not None
    return store, page.session.save(), log.log


@pytest.mark.parametrize("damage, words", [
    (lambda t: t[:-40], "does not match its checksum"),                         # truncated
    (lambda t: t.replace('"n":3', '"n":3 ', 1), "does not match its checksum"),  # altered
    (lambda t: t.split(":", 1)[0] + ":" + "{}", "does not match its checksum"),   # another text
    (lambda t: "", "does not match its checksum"),                               # emptied
])
def test_a_damaged_entry_is_refused_with_a_sentence_and_the_base_is_kept(damage: Any, words: str) -> None:
    store, save, log = small_log()
    assert read_table(store, KEY, store.keys()) == (save, 0)
    base = store.get(KEY)
    store.set(entry_key(KEY, log, 3), damage(store.get(entry_key(KEY, log, 3)) or ""))
    with pytest.raises(SaveError, match=words):
        read_table(store, KEY, store.keys())
    assert store.get(KEY) == base and store.get(entry_key(KEY, log, 4)) is not None  # nothing removed


def test_a_missing_or_misplaced_entry_is_refused() -> None:
    store, save, log = small_log()
    four = store.get(entry_key(KEY, log, 4)) or ""
    store.remove(entry_key(KEY, log, 4))
    with pytest.raises(SaveError, match="entry 4 of its log is missing"):
        read_table(store, KEY, store.keys())
    store.set(entry_key(KEY, log, 4), store.get(entry_key(KEY, log, 5)) or "")  # entry 5 in 4's place
    with pytest.raises(SaveError, match="out of place"):
        read_table(store, KEY, store.keys())
    store.set(entry_key(KEY, log, 4), four)
    assert read_table(store, KEY, store.keys()) == (save, 0)


def test_an_entry_that_does_not_fit_its_base_is_refused() -> None:
    store, _save, log = small_log()
    body = ('{"format":"cribbage-party-log","lists":[[["game","nothing","here"],0,0,[]]],"log":"%s","n":7,'
            '"version":1}' % log)
    store.set(entry_key(KEY, log, 7), f"{table_log.text_digest(body)}:{body}")
    with pytest.raises(SaveError, match="does not fit"):
        read_table(store, KEY, store.keys())


def test_a_page_that_resumes_writes_its_own_base_and_removes_the_old_log() -> None:
    store, save, log = small_log()
    got = read_table(store, KEY, store.keys())
    assert got is not None
    table = TableSession.restore(got[0], 0.0, groups=(TINY,))
    again = TableLog(store, KEY)
    again.load()
    assert again.save(table, 0)
    assert not [k for k in store.keys() if ".log." in k]
    assert read_table(store, KEY, store.keys()) == (table.save(), 0) and table.save() == save


def test_a_table_record_of_version_1_still_loads_and_resumes_its_seat() -> None:
    frozen = json.loads(FROZEN.read_text())
    store = MemoryStorage()
    store.set(room_key("rtable"), frozen["record"])
    got = read_party(store, "rtable")
    assert got is not None and got[1] == 1
    table = TableSession.restore(got[0], 0.0, groups=(TINY,))
    assert table.seat == frozen["seat"] and table.game is not None and table.game.match is not None
    state = table.game.match.state
    assert state.hand_number == frozen["hand"] and state.phase == Phase.PLAY
    assert list(state.scores) == frozen["scores"]
    assert [str(a) for a in table.game.match.actions] == frozen["actions"]
    # saved again, it becomes a base of version 2 and reads back the same
    log = TableLog(store, room_key("rtable"))
    assert log.save(table, 1)
    assert json.loads(store.get(room_key("rtable")) or "")["version"] == 2
    assert read_party(store, "rtable") == (table.save(), 1)


def test_a_page_whose_log_is_damaged_says_so_and_keeps_its_record() -> None:
    clock, hub, pages = page_table(3)
    page_play(pages, lambda: pages[0].session.match is not None and len(pages[0].session.match.state.pile) >= 2)
    bob = pages[1]
    key = room_key(bob.session.room)
    got = read_party(bob.storage, bob.session.room)
    assert got is not None
    entries = sorted((k for k in bob.storage.keys() if k.startswith(key + ".log.")),
                     key=lambda k: int(k.rpartition(".")[2]))
    assert entries, "the page writes entries after its base"
    kept = {k: bob.storage.get(k) for k in [key, *entries]}
    bob.kill()
    pass_time(clock, 1.0, pages[0], pages[2])
    bob.storage.set(entries[-1], (kept[entries[-1]] or "")[:-10])  # the last write cut short
    bob.load()
    settle(*pages)
    assert not isinstance(bob.c.session, type(pages[0].session))
    assert "could not be read" in bob.html() and "does not match its checksum" in bob.html()
    assert all(bob.storage.get(k) == v for k, v in kept.items() if k != entries[-1])  # the base and log kept
    assert [k for k in bob.storage.keys() if ".corrupt." in k]
