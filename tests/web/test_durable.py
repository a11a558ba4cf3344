"""Durable before acknowledged: the page's store adapter over a store whose writes reach the disk
later (as IndexedDB's do), and online play sending nothing before the save that produced it is on
disk, whatever moment a browser is killed at (only what reached the disk survives it)."""

from __future__ import annotations

import json
import random
import re
from typing import Any, Callable

import pytest
from online_fakes import Browser, Clock, Hub, pass_time, settle, turn
from table_fakes import text_of

from cribbage.online.jobs import AheadJob
from cribbage.state import Phase
from web.sessions.online import peer as online
from web.sessions.online.room_log import read_record
from web.sessions.online.peer import room_key
from web.sessions.storage import DurableStorage, MemoryStorage


class SlowStore:
    """``static/store.js``'s interface in Python: values in memory at once, on the "disk" only when
    a write completes (on the page's timer if one is given, else when the test says)."""

    def __init__(self, disk: dict[str, str] | None = None, timer: Callable[[], Any] | None = None) -> None:
        self.disk = dict(disk or {})
        self.data = dict(self.disk)
        self.timer = timer
        self.written = 0
        self.durable = 0
        self.queue: list[tuple[int, str, str | None]] = []
        self.waiters: list[tuple[int, Callable[[], None]]] = []
        self.error: str | None = None
        self.full = False
        """Quota exceeded: every transaction fails (and stays queued) until it is lifted."""
        self.dead = False
        """The browser was killed: nothing more reaches the disk, no callback runs."""
        self._scheduled = False

    def get(self, key: str) -> str | None:
        return self.data.get(key)

    def keys(self) -> list[str]:
        return sorted(self.data)

    def set(self, key: str, value: str) -> int:
        return self._write(key, value)

    def remove(self, key: str) -> int:
        return self._write(key, None)

    def _write(self, key: str, value: str | None) -> int:
        if value is None:
            self.data.pop(key, None)
        else:
            self.data[key] = value
        self.written += 1
        self.queue.append((self.written, key, value))
        if self.timer is not None and not self._scheduled:
            self._scheduled = True
            self._later(self.LAG)
        return self.written

    LAG = 4
    """Timer turns a write takes to reach the disk (messages cross the channel in one)."""

    def _later(self, hops: int) -> None:
        assert self.timer is not None
        self.timer().later(1, self.complete if hops <= 1 else lambda: self._later(hops - 1))

    def whenDurable(self, fn: Callable[[], None]) -> None:  # noqa: N802 - the JS name
        if self.durable >= self.written:
            fn()
        else:
            self.waiters.append((self.written, fn))

    def complete(self) -> None:
        """One transaction: every write queued so far reaches the disk (or fails, if full)."""
        self._scheduled = False
        if self.dead or not self.queue:
            return
        if self.full:
            self.error = "the browser's storage is full"
            return
        upto = self.queue[-1][0]
        for _, key, value in self.queue:
            if value is None:
                self.disk.pop(key, None)
            else:
                self.disk[key] = value
        self.queue.clear()
        self.error = None
        self.durable = upto
        while self.waiters and self.waiters[0][0] <= self.durable:
            self.waiters.pop(0)[1]()


# --- the adapter -----------------------------------------------------------------------------------


def test_the_adapter_reads_from_memory_and_writes_through() -> None:
    store = SlowStore({"cribbage.a": "1"})
    storage = DurableStorage(store)
    assert storage.get("cribbage.a") == "1" and storage.get("cribbage.b") is None
    storage.set("cribbage.b", "2")
    storage.remove("cribbage.a")
    assert storage.get("cribbage.b") == "2" and storage.get("cribbage.a") is None
    assert storage.keys() == ["cribbage.b"]
    assert store.disk == {"cribbage.a": "1"}  # not on disk yet
    done: list[str] = []
    storage.when_durable(lambda: done.append("x"))
    assert done == []
    store.complete()
    assert done == ["x"] and store.disk == {"cribbage.b": "2"}
    storage.when_durable(lambda: done.append("y"))  # nothing pending: at once
    assert done == ["x", "y"]
    assert storage.failure() is None


def test_a_failing_write_is_reported_and_what_waits_on_it_stays_held() -> None:
    store = SlowStore()
    storage = DurableStorage(store)
    storage.set("cribbage.k", "v")
    store.full = True
    done: list[int] = []
    storage.when_durable(lambda: done.append(1))
    store.complete()
    assert done == [] and storage.failure() == "the browser's storage is full"
    store.full = False
    store.complete()  # the store tries again: then it is on disk
    assert done == [1] and storage.failure() is None and store.disk == {"cribbage.k": "v"}


def test_a_store_that_throws_keeps_the_value_for_this_visit_and_says_so() -> None:
    class Broken(SlowStore):
        def set(self, key: str, value: str) -> int:
            raise RuntimeError("QuotaExceededError")

    storage = DurableStorage(Broken())
    storage.set("cribbage.k", "v")
    assert storage.get("cribbage.k") == "v" and "cribbage.k" in storage.keys()
    held: list[int] = []
    storage.when_durable(lambda: held.append(1))
    assert held == [] and "QuotaExceededError" in (storage.failure() or "")


def test_memory_storage_is_durable_at_once() -> None:
    storage = MemoryStorage()
    storage.set("k", "v")
    done: list[int] = []
    storage.when_durable(lambda: done.append(1))
    assert done == [1] and storage.failure() is None


# --- online play over slow disks --------------------------------------------------------------------


def slow_browser(name: str, clock: Clock, hub: Hub, room: str | None = None, secret: str | None = None,
                 disk: dict[str, str] | None = None, auto: bool = True) -> Browser:
    b = Browser(name, clock, hub, room=room, secret=secret)
    b.store = SlowStore(disk if disk is not None else {online.NAME_KEY: name},  # type: ignore[attr-defined]
                        (lambda: b.host) if auto else None)
    b.storage = DurableStorage(b.store)  # type: ignore[attr-defined,assignment]
    return b


def kill(b: Browser, hub: Hub) -> None:
    """The whole browser dies: only its disk survives; the channel is gone without a word; it is
    opened again on the room link."""
    old: SlowStore = b.store  # type: ignore[attr-defined]
    old.dead = True
    if b.controller is not None:
        b.controller.session.close()
        b.controller = None
    b.store = SlowStore(old.disk, old.timer)  # type: ignore[attr-defined]
    b.storage = DurableStorage(b.store)  # type: ignore[attr-defined,assignment]
    b.load()


class DiskWatch:
    """Every envelope a browser writes to its channel, checked against its own disk at that moment."""

    def __init__(self, hub: Hub, *browsers: Browser) -> None:
        self.browsers = browsers
        self.checked = 0
        self.bad: list[str] = []
        hub.tamper = self.tamper

    def tamper(self, receiver: str, text: str) -> None:
        sender = next((b for b in self.browsers if b.controller is not None
                       and b.session.channel is not None
                       and getattr(b.session.channel, "remote", None) is not None
                       and b.session.channel.remote.me == receiver), None)  # type: ignore[attr-defined]
        if sender is None:
            return None
        store: SlowStore = sender.store  # type: ignore[attr-defined]
        record = read_record(store.disk, room_key(sender.session.net.room))  # the base and its log on disk
        disk = record["link"] if record else {"sent": 0, "recv": 0}
        msg = json.loads(text)
        k = msg.get("k")
        claims = {"data": (msg.get("n", 0), msg.get("ack", 0)), "ack": (0, msg.get("ack", 0)),
                  "ping": (msg.get("sent", 0), msg.get("ack", 0)),
                  "hello": (msg.get("sent", 0), msg.get("recv", 0))}.get(k, (0, 0))
        self.checked += 1
        if claims[0] > disk["sent"] or claims[1] > disk["recv"]:
            self.bad.append(f"{sender.name} sent {k} {claims} with {disk['sent'], disk['recv']} on disk")
        return None


def public_log(b: Browser) -> list[str]:
    """The match's actions as this browser holds them (the other seat's discards are hidden to it; the
    two discards of a hand in seat order)."""
    out: list[str] = []
    for action in b.c.match.actions:
        text = re.sub(r"^(discard \d) .*", r"\1", str(action))
        if text.startswith("discard") and out and out[-1].startswith("discard"):
            out[-1:] = sorted([out[-1], text])  # both discard at once: each applies its own first
        else:
            out.append(text)
    return out


def open_slow_room(clock: Clock, hub: Hub) -> tuple[Browser, Browser]:
    ann = slow_browser("Ann", clock, hub)
    ann.load()
    ann.c.click("menu")
    ann.c.click("new-mode", {"mode": "online"})
    ann.c.click("start")
    settle(ann)
    room, secret = ann.session.net.room, ann.session.net.secret
    bob = slow_browser("Bob", clock, hub, room=room, secret=secret)
    bob.load()
    settle(ann, bob)
    pass_time(clock, 1.0, ann, bob)
    assert ann.session.net.state == "live" and bob.session.net.state == "live"
    return ann, bob


def run_one(b: Browser) -> bool:
    """Fire this browser's oldest pending short timer (a message, a slice of work, a disk write)."""
    short = [h for h in sorted(b.host.timers) if b.host.delays.get(h, 0) < online.TICK_MS]
    if not short:
        return False
    fn = b.host.timers.pop(short[0])
    b.host.delays.pop(short[0], None)
    fn()
    return True


def play_with_kills(ann: Browser, bob: Browser, hub: Hub, rng: random.Random, kill_rate: float,
                    max_steps: int = 6000) -> int:
    kills = 0
    for _ in range(max_steps):
        if rng.random() < kill_rate:
            # Run part of what is pending, then kill: in the middle of things (a write not yet on
            # disk, a message on the wire, a shuffle half done), rather where a write is pending.
            for _ in range(rng.randrange(0, 60)):
                if not run_one(rng.choice([ann, bob])) and not run_one(ann) and not run_one(bob):
                    break
            behind = [b for b in (ann, bob) if b.store.queue]  # type: ignore[attr-defined]
            kill(rng.choice(behind or [ann, bob]), hub)
            kills += 1
            continue
        settle(ann, bob)
        for b in (ann, bob):
            b.c.refresh()
        if all(b.c.match.state.is_over for b in (ann, bob)):
            return kills
        moved = False
        for b in rng.sample([ann, bob], 2):
            if turn(b.c):
                moved = True
                break
        if not moved:
            pass_time(ann.clock, 1.0, ann, bob)
    raise AssertionError(f"the match did not finish: {[b.session.turn_text() for b in (ann, bob)]}")


@pytest.mark.parametrize("seed", [1, 2])
def test_a_browser_killed_at_any_moment_resumes_on_both_sides(seed: int) -> None:
    clock, hub = Clock(), Hub()
    ann, bob = open_slow_room(clock, hub)
    watch = DiskWatch(hub, ann, bob)
    kills = play_with_kills(ann, bob, hub, random.Random(seed), kill_rate=0.08)
    assert kills >= 8
    assert not watch.bad, watch.bad[:5]
    assert watch.checked > 100
    a, b = ann.c.match, bob.c.match
    assert public_log(ann) == public_log(bob)  # nothing lost, nothing applied twice
    assert a.state.is_over and a.state.scores == b.state.scores
    for browser in (ann, bob):
        assert browser.session.game.failure is None
        assert not browser.session.problems, browser.session.problems


def test_without_the_gate_envelopes_claim_what_the_disk_does_not_hold(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above is not vacuous: sending at once (as before) sends and acknowledges what the
    sender's disk does not hold yet, which a kill then loses (the link's kept payloads heal only the
    acknowledgements; a lost sent move stops the match)."""

    def at_once(self: SlowStore, fn: Callable[[], None]) -> None:
        fn()

    monkeypatch.setattr(SlowStore, "whenDurable", at_once)
    clock, hub = Clock(), Hub()
    ann, bob = open_slow_room(clock, hub)
    watch = DiskWatch(hub, ann, bob)
    try:
        play_with_kills(ann, bob, hub, random.Random(1), kill_rate=0.03, max_steps=300)
    except AssertionError:
        pass
    assert watch.bad  # it sent what its disk did not hold


def test_nothing_reaches_the_channel_before_the_write_completes_and_order_is_kept() -> None:
    clock, hub = Clock(), Hub()
    ann, bob = open_slow_room(clock, hub)
    settle(ann, bob)
    # From now on Ann's writes complete only when the test says.
    store: SlowStore = ann.store  # type: ignore[attr-defined]
    store.timer = None
    for _ in range(200):
        settle(ann, bob)
        store.complete()
        if ann.session.can_act() is None and ann.c.scene().view.legal_actions:
            break
        if bob.session.can_act() is None and turn(bob.c):
            continue
        pass_time(clock, 0.5, ann, bob)
    channel = ann.session.channel
    assert channel is not None
    sent_before = len(channel.sent)  # type: ignore[attr-defined]
    produced: list[str] = []
    real_pop = ann.session.net.pop_outgoing

    def pop() -> list[str]:
        out = real_pop()
        produced.extend(out)
        return out

    ann.session.net.pop_outgoing = pop  # type: ignore[method-assignment]
    assert turn(ann.c)
    for _ in range(50):
        ann.host.run_short()
    assert produced, "the move produced nothing to send"
    assert len(channel.sent) == sent_before  # type: ignore[attr-defined]
    store.complete()
    settle(ann)
    sent = channel.sent[sent_before:]  # type: ignore[attr-defined]
    assert sent and sent == produced[:len(sent)]
    store.complete()
    settle(ann)
    assert channel.sent[sent_before:] == produced  # type: ignore[attr-defined]


def test_a_full_storage_holds_the_match_tells_the_player_and_a_reload_resumes_the_last_save() -> None:
    clock, hub = Clock(), Hub()
    ann, bob = open_slow_room(clock, hub)
    rng = random.Random(8)
    for _ in range(400):
        settle(ann, bob)
        if ann.c.match.state.phase is Phase.PLAY:
            break
        if not any(turn(b.c) for b in rng.sample([ann, bob], 2)):
            pass_time(clock, 0.5, ann, bob)
    store: SlowStore = ann.store  # type: ignore[attr-defined]
    settle(ann, bob)
    good = dict(store.disk)
    bob_actions = [str(a) for a in bob.c.match.actions]
    store.full = True
    for _ in range(20):  # Ann acts (or acknowledges) while nothing can be saved
        if turn(ann.c) or turn(bob.c):
            settle(ann, bob)
        pass_time(clock, 0.5, ann, bob)
    assert store.disk == good  # the last good save is untouched
    assert [str(a) for a in bob.c.match.actions][:len(bob_actions)] == bob_actions
    told = text_of(ann.html())
    assert "cannot save the match" in told and "storage is full" in told, told
    # What Ann did meanwhile never left her browser: Bob's table has none of it.
    ann_actions = [str(a) for a in ann.c.match.actions]
    assert len(ann_actions) > len(bob.c.match.actions) or ann_actions == [str(a) for a in bob.c.match.actions]
    # Ann's browser is killed; she frees some space and opens the link again: the last good save.
    store.full = False
    kill(ann, hub)
    settle(ann, bob)
    pass_time(clock, 2.0, ann, bob)
    assert ann.session.net.state == "live" and bob.session.net.state == "live"
    assert not ann.session.problems and not bob.session.problems
    play_with_kills(ann, bob, hub, rng, kill_rate=0.0)
    assert public_log(ann) == public_log(bob)


def rewind(b: Browser, disk: dict[str, str], hub: Hub) -> None:
    """``b``'s browser is killed and its disk comes back older than what it had acknowledged (a
    browser that does not honour strict durability)."""
    b.store.disk = dict(disk)  # type: ignore[attr-defined]
    b.store.queue.clear()  # type: ignore[attr-defined]
    kill(b, hub)


def until_turn(ann: Browser, bob: Browser, who: Browser, rng: random.Random) -> None:
    clock = ann.clock
    for _ in range(600):
        settle(ann, bob)
        if who.c.match.state.phase is Phase.PLAY and who.session.can_act() is None and who.c.scene().view.legal_actions:
            return
        if not any(turn(b.c) for b in rng.sample([ann, bob], 2)):
            pass_time(clock, 0.5, ann, bob)
    raise AssertionError("never came to that turn")


def test_a_browser_back_behind_what_it_acknowledged_is_sent_it_again() -> None:
    clock, hub = Clock(), Hub()
    ann, bob = open_slow_room(clock, hub)
    until_turn(ann, bob, ann, random.Random(3))
    old = dict(bob.store.disk)  # type: ignore[attr-defined]
    recv = bob.session.net.recv
    assert turn(ann.c)  # Ann plays; Bob's browser applies it, saves it and acknowledges it...
    settle(ann, bob)
    assert bob.session.net.recv > recv and not ann.session.net.outbox
    rewind(bob, old, hub)  # ...but comes back without it
    settle(ann, bob)
    pass_time(clock, 4.0, ann, bob)
    assert ann.session.net.resent_from_log >= 1
    assert ann.session.net.state == "live" and bob.session.net.state == "live"
    assert not ann.session.problems and not bob.session.problems
    assert public_log(ann) == public_log(bob)
    play_with_kills(ann, bob, hub, random.Random(3), kill_rate=0.0)
    assert public_log(ann) == public_log(bob)



def test_while_a_payload_waits_for_its_save_the_queued_work_waits_until_it_is_out_or_hold_ms() -> None:
    """The deal's background work does not run between a payload and the store's answer (the answer
    comes first and the payload goes out at once); a store that never answers holds it HOLD_MS at most."""
    clock, hub = Clock(), Hub()
    ann, bob = open_slow_room(clock, hub)
    settle(ann, bob)
    store: SlowStore = ann.store  # type: ignore[attr-defined]
    store.timer = None
    game = ann.session.game
    channel = ann.session.channel
    assert channel is not None and game.pack is not None and not game.busy

    def held_move() -> None:
        game.pack.ahead.clear()  # type: ignore[union-attr]
        game.work.add_background(AheadJob(game.source.current))  # background work to do
        before = len(channel.sent)  # type: ignore[attr-defined]
        ann.c.click("online-name", {"value": f"Ann {len(channel.sent)}"})  # type: ignore[attr-defined]
        assert len(channel.sent) == before and game.busy  # type: ignore[attr-defined]
        delays = sorted(ann.host.delays.get(h, 0) for h in ann.host.timers)
        assert 0 not in delays and online.HOLD_MS in delays, delays  # no slice of work, only the hold

    held_move()
    store.complete()  # the save is on disk: the payload goes out, then the work
    assert game.pack is not None and not game.pack.ahead
    assert 0 in [ann.host.delays.get(h, 0) for h in ann.host.timers]
    settle(ann)
    assert len(game.pack.ahead) > 40

    held_move()  # and a store that never answers
    hold = next(h for h in sorted(ann.host.timers) if ann.host.delays.get(h) == online.HOLD_MS)
    sent = len(channel.sent)  # type: ignore[attr-defined]
    ann.host.delays.pop(hold)
    ann.host.timers.pop(hold)()
    settle(ann)
    assert len(game.pack.ahead) > 40 and len(channel.sent) == sent  # type: ignore[attr-defined]
