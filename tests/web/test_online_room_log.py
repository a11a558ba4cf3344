"""The room's record as a base and an append-only log (web.sessions.online.room_log): a save per
envelope appends what changed, the record read back is the game as it is, a damaged entry is refused
with a sentence, and a compaction's leftovers are never read and are removed."""

from __future__ import annotations

import json
import random

import pytest
from online_fakes import Browser, Clock, Hub, settle
from test_online import open_room, play

from cribbage.match import SaveError
from cribbage.state import Phase
from web.sessions.online.peer import room_key
from web.sessions.online.room_log import BASE_FORMAT, entry_key, read_record


def _entries(b: Browser, key: str) -> list[str]:
    return sorted((k for k in b.storage.keys() if k.startswith(key + ".log.")),
                  key=lambda k: int(k.rsplit(".", 1)[1]))


@pytest.fixture(scope="module")
def mid_hand() -> tuple[Clock, Hub, Browser, Browser]:
    clock, hub = Clock(), Hub()
    ann, bob = open_room(clock, hub)
    play(ann, bob, random.Random(4), until=lambda: bob.c.match.state.phase is Phase.PLAY
         and len(bob.c.match.actions) > 8)
    settle(ann, bob)
    return clock, hub, ann, bob


def test_saves_within_a_hand_append_small_entries_and_the_record_reads_back_as_the_game_is(
        mid_hand: tuple[Clock, Hub, Browser, Browser]) -> None:
    clock, hub, ann, bob = mid_hand
    for b in (ann, bob):
        key = room_key(b.session.net.room)
        base = b.storage.get(key) or ""
        assert json.loads(base)["format"] == BASE_FORMAT
        entries = _entries(b, key)
        assert entries, "no entry appended since the hand began"
        assert max(len(b.storage.get(k) or "") for k in entries) < len(base) / 2  # O(envelope), not O(record)
        record = read_record(b.storage, key)
        assert record is not None and record["format"] == 1
        assert json.dumps(record["game"], sort_keys=True) == json.dumps(json.loads(b.session.game.to_json()),
                                                                        sort_keys=True)
        assert record["link"] == json.loads(b.session.net.to_json())


def test_a_reload_resumes_from_the_base_and_its_log_and_removes_the_old_generation(
        mid_hand: tuple[Clock, Hub, Browser, Browser]) -> None:
    clock, hub, ann, bob = mid_hand
    key = room_key(bob.session.net.room)
    old = _entries(bob, key)
    actions = [str(a) for a in bob.c.match.actions]
    game = bob.session.game.to_json()
    bob.load()
    assert [str(a) for a in bob.c.match.actions] == actions and bob.session.game.to_json() == game
    bob.session.save()
    assert not set(old) & set(_entries(bob, key))  # the first save of the page wrote a new base
    record = read_record(bob.storage, key)
    assert record is not None and record["game"]["actions"] == actions


def test_a_damaged_or_misplaced_entry_is_refused_with_a_sentence() -> None:
    clock, hub = Clock(), Hub()
    ann, bob = open_room(clock, hub)
    play(ann, bob, random.Random(5), until=lambda: len(ann.c.match.actions) > 3)
    settle(ann, bob)
    key = room_key(ann.session.net.room)
    entries = _entries(ann, key)
    assert entries
    text = ann.storage.get(entries[-1]) or ""
    ann.storage.set(entries[-1], text.replace('"n":', '"n": ', 1))  # one byte changed
    with pytest.raises(SaveError, match="altered or damaged"):
        read_record(ann.storage, key)
    log = json.loads(ann.storage.get(key) or "")["log"]
    ann.storage.set(entries[-1], text)
    ann.storage.set(entry_key(key, log, len(entries) + 2), text)  # after a gap: never read
    assert read_record(ann.storage, key) is not None
    ann.storage.set(entry_key(key, log, len(entries) + 1), text)  # an entry under another's number
    with pytest.raises(SaveError, match="out of place"):
        read_record(ann.storage, key)


def test_entries_a_crash_left_behind_are_never_read_and_the_next_page_removes_them(
        mid_hand: tuple[Clock, Hub, Browser, Browser]) -> None:
    clock, hub, ann, bob = mid_hand
    key = room_key(ann.session.net.room)
    left = entry_key(key, "deadbeef", 1)  # a generation no base names (a crash between base and removals)
    ann.storage.set(left, "0" * 32 + ":{}")
    record = read_record(ann.storage, key)
    assert record is not None  # never read
    ann.load()
    ann.session.save()
    assert ann.storage.get(left) is None
    assert read_record(ann.storage, key) is not None
