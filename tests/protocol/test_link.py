"""The online link: exactly-once delivery over a faulty channel, seat proofs, heartbeat, expiry, fuzz."""

from __future__ import annotations

import json
import random
import string
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cribbage.online import link as link_module
from cribbage.online.link import (
    LOSS_TIMEOUT,
    MAX_DEPTH,
    MAX_ENVELOPE,
    PROTOCOL,
    RESEND_KEEP,
    ROOM_LIFETIME,
    UNPROVEN_TIMEOUT,
    Binding,
    Delivered,
    HangUp,
    Link,
    LinkError,
    Problem,
    StateChanged,
    is_room_id,
    new_room_id,
    new_room_secret,
    new_seat_key,
    seat_commitment,
)

T0 = 1_800_000_000.0


def fingerprint(rng: random.Random | None = None) -> str:
    """A made-up DTLS certificate fingerprint, as net.js hands it over."""
    r = rng or random.Random()
    return "sha-256 " + ":".join(f"{r.randrange(256):02X}" for _ in range(32))


def channel(rng: random.Random | None = None) -> tuple[Binding, Binding]:
    """The bindings of one direct channel: each end sees its own certificate and the other's."""
    a, b = fingerprint(rng), fingerprint(rng)
    return Binding(a, b), Binding(b, a)


class Player:
    """A link plus the 'game' it feeds: the payloads received, in order, and a counter of those sent."""

    def __init__(self, link: Link) -> None:
        self.link = link
        self.got: list[int] = []
        self.next_i = 1
        self.problems: list[str] = []
        self.hangups: list[str] = []
        self.states: list[str] = []

    def drain(self) -> None:
        for event in self.link.pop_events():
            if isinstance(event, Delivered):
                assert event.payload["i"] == len(self.got) + 1, (event, self.got[-3:])
                assert event.n == len(self.got) + 1
                self.got.append(event.payload["i"])
            elif isinstance(event, Problem):
                self.problems.append(event.text)
            elif isinstance(event, HangUp):
                self.hangups.append(event.reason)
            elif isinstance(event, StateChanged):
                self.states.append(event.state)

    def send(self, now: float) -> None:
        self.link.send({"i": self.next_i, "from": self.link.seat, "pad": "x" * (self.next_i % 7)}, now)
        self.next_i += 1

    def save(self) -> str:
        """What a page would keep in storage after handling a batch: the link and the game, together."""
        self.drain()
        # The page saves the link's own text (each payload written once): the same record as to_dict.
        text = self.link.to_json()
        assert json.loads(text) == self.link.to_dict()
        return json.dumps({"link": json.loads(text), "got": self.got, "next": self.next_i})

    @classmethod
    def load(cls, saved: str) -> Player:
        data = json.loads(saved)
        player = cls(Link.from_dict(data["link"]))
        player.got, player.next_i = data["got"], data["next"]
        return player


class Wire:
    """An in-memory channel between two players that can drop, duplicate and reorder envelopes."""

    def __init__(self, a: Player, b: Player, rng: random.Random | None = None,
                 drop: float = 0.0, dup: float = 0.0, reorder: float = 0.0, junk: float = 0.0) -> None:
        self.ends = [a, b]
        self.rng = rng or random.Random(0)
        self.drop, self.dup, self.reorder = drop, dup, reorder
        self.junk = junk  # chance that a mutant of an earlier envelope is slipped in
        self.junked = 0
        self.reported = 0  # Problem events shown on either side
        self.flight: list[list[str]] = [[], []]  # towards end 0, towards end 1
        self.log: list[list[str]] = [[], []]  # everything that reached each end
        self.up = False

    def connect(self, now: float) -> None:
        self.flight = [[], []]
        self.up = True
        for end, binding in zip(self.ends, channel(self.rng)):
            end.link.connected(now, binding)

    def disconnect(self, now: float) -> None:
        self.flight = [[], []]
        self.up = False
        for end in self.ends:
            end.link.disconnected(now)
            end.link.pop_outgoing()
            end.drain()

    def collect(self) -> None:
        for side, end in enumerate(self.ends):
            for text in end.link.pop_outgoing():
                if not self.up or self.rng.random() < self.drop:
                    continue
                queue = self.flight[1 - side]
                queue.append(text)
                if self.rng.random() < self.dup:
                    queue.append(text)

    def deliver(self, now: float, count: int | None = None) -> int:
        """Carry up to ``count`` envelopes (all if None); the number carried."""
        carried = 0
        while count is None or carried < count:
            self.collect()
            sides = [s for s in (0, 1) if self.flight[s]]
            if not sides:
                break
            side = self.rng.choice(sides)
            queue = self.flight[side]
            index = 0
            if len(queue) > 1 and self.rng.random() < self.reorder:
                index = self.rng.randrange(1, min(len(queue), 4))
            text = queue.pop(index)
            if self.log[side] and self.rng.random() < self.junk:
                mutant = mutate(self.rng, self.rng.choice(self.log[side][-50:]))
                receiver = self.ends[side].link
                if not would_be_next_data(mutant, receiver) and not a_final_claim(mutant, receiver):
                    before = len(self.ends[side].problems)
                    self.ends[side].link.receive(mutant, now)
                    self.ends[side].drain()
                    self.reported += len(self.ends[side].problems) - before
                    self.junked += 1
            self.log[side].append(text)
            before = len(self.ends[side].problems)
            self.ends[side].link.receive(text, now)
            self.ends[side].drain()
            self.reported += len(self.ends[side].problems) - before
            carried += 1
            if carried > 100_000:
                raise AssertionError("the links never fall quiet")
        self.collect()
        return carried

    def tick(self, now: float) -> None:
        for end in self.ends:
            end.link.tick(now)
            end.drain()


def make_pair(now: float = T0) -> tuple[Player, Player, Wire]:
    room, secret = new_room_id(), new_room_secret()
    host = Player(Link.host(room, new_seat_key(), now, secret))
    guest = Player(Link.join(room, new_seat_key(), now, secret))
    wire = Wire(host, guest)
    wire.connect(now)
    wire.deliver(now)
    return host, guest, wire


def kinds(texts: list[str]) -> list[str]:
    return [json.loads(t)["k"] for t in texts]


def test_first_join_binds_both_seats_and_goes_live() -> None:
    host, guest, wire = make_pair()
    assert host.link.state == guest.link.state == "live"
    assert host.link.can_act and guest.link.can_act
    assert host.link.peer_commit == guest.link.commit
    assert guest.link.peer_commit == host.link.commit
    assert host.problems == guest.problems == []
    # the seat keys themselves never went over the wire
    for text in wire.log[0] + wire.log[1]:
        assert host.link.key not in text and guest.link.key not in text


def test_payloads_flow_both_ways_in_order() -> None:
    host, guest, wire = make_pair()
    for _ in range(5):
        host.send(T0)
        guest.send(T0)
    wire.deliver(T0)
    assert host.got == guest.got == [1, 2, 3, 4, 5]
    assert host.link.outbox == [] and guest.link.outbox == []


@pytest.mark.parametrize("seed", range(6))
def test_exactly_once_in_order_over_a_faulty_channel_with_reconnects_and_reloads(seed: int) -> None:
    rng = random.Random(seed)
    room, secret = "room" + str(seed), new_room_secret()
    players = [Player(Link.host(room, new_seat_key(), T0, secret)), Player(Link.join(room, new_seat_key(), T0, secret))]
    wire = Wire(players[0], players[1], rng, drop=0.03, dup=0.05, reorder=0.05, junk=0.02)
    now = T0
    target = 120
    reconnects = reloads = 0
    wire.connect(now)
    for _ in range(3000):
        now += rng.uniform(0.05, 0.6)
        roll = rng.random()
        if roll < 0.15:
            sender = players[rng.randrange(2)]
            if sender.next_i <= target:
                sender.send(now)
        elif roll < 0.17 and wire.up:
            wire.disconnect(now)
        elif roll < 0.25 and not wire.up:
            wire.connect(now)
            reconnects += 1
        elif roll < 0.26:
            # a reload: the page saves, its channel closes, and it comes back from storage
            side = rng.randrange(2)
            saved = players[side].save()
            wire.disconnect(now)
            players[side] = Player.load(saved)
            wire.ends = players
            reloads += 1
        wire.deliver(now, rng.randrange(0, 6))
        wire.tick(now)
    # then the network heals: everything still owed arrives, once
    for sender in players:
        while sender.next_i <= target:
            sender.send(now)
    wire.drop = wire.dup = wire.reorder = wire.junk = 0.0
    if not wire.up:
        wire.connect(now)
    for _ in range(40):
        now += 0.5
        wire.tick(now)
        wire.deliver(now)
    assert reconnects > 10 and reloads > 5 and wire.junked > 10
    assert wire.reported > 5  # the bad input (and the gaps from drops) were reported
    for player in players:
        assert player.got == list(range(1, target + 1))
        assert player.link.outbox == []
        assert player.link.state == "live"


def test_a_third_browser_is_told_the_room_is_full_and_learns_nothing() -> None:
    host, guest, wire = make_pair()
    host.send(T0)
    wire.deliver(T0)
    wire.disconnect(T0 + 1)
    host.send(T0 + 1)  # queued for the guest while it is away
    # someone else who got the whole link (secret included) after the friend joined
    intruder = Player(Link.join(host.link.room, new_seat_key(), T0 + 2, host.link.secret))
    other = Wire(host, intruder)
    other.connect(T0 + 2)
    other.deliver(T0 + 2)
    assert intruder.link.state == "waiting" and not intruder.link.can_act  # it may call again later
    assert "room is full" in intruder.link.status_text
    assert intruder.link.peer_commit is None  # the host never gave it its commitment
    assert host.hangups == ["full"]
    assert host.link.state == "waiting" and "Refused a browser" in host.link.status_text
    assert intruder.got == []
    assert set(kinds(other.log[1])) <= {"hello", "refuse"}
    assert host.link.peer_commit == guest.link.commit  # the seat stays the friend's
    # the friend comes back and gets what was queued
    other.disconnect(T0 + 3)
    wire.connect(T0 + 4)
    wire.deliver(T0 + 4)
    assert guest.got == [1, 2]
    assert guest.link.state == host.link.state == "live"


def test_screen_refuses_a_second_connection_from_another_room_and_leaves_joins_to_the_proof() -> None:
    host, guest, wire = make_pair()
    stranger = Link.join(new_room_id(), new_seat_key(), T0, new_room_secret())
    stranger.connected(T0, channel()[1])
    refusal = host.link.screen(stranger.pop_outgoing()[0], T0)
    assert refusal is not None and json.loads(refusal)["reason"] == "room"
    # a join claims nothing the host can check before the join proof on the channel
    intruder = Link.join(host.link.room, new_seat_key(), T0, new_room_secret())
    intruder.connected(T0, channel()[1])
    intruding = intruder.pop_outgoing()[0]
    returning = Link.from_dict(guest.link.to_dict())
    returning.connected(T0, channel()[1])
    hello = returning.pop_outgoing()[0]
    full = json.dumps({"v": PROTOCOL, "k": "refuse", "reason": "full"}, separators=(",", ":"))
    assert host.link.screen(intruding, T0) == host.link.screen(hello, T0) == full  # the friend is here
    assert host.link.state == "live"  # screening touched nothing
    wire.disconnect(T0 + 1)
    assert host.link.screen(intruding, T0 + 1) is None
    assert host.link.screen(hello, T0 + 1) is None


def test_a_wrong_seat_key_fails_the_challenge_and_learns_nothing() -> None:
    host, guest, wire = make_pair()
    host.send(T0)
    wire.deliver(T0)
    wire.disconnect(T0 + 1)
    host.send(T0 + 1)
    forged = guest.link.to_dict()
    forged["key"] = new_seat_key()  # the record of the friend, with a guessed key
    impostor = Player(Link.from_dict(forged))
    impostor.link.send({"i": 99}, T0 + 1)
    other = Wire(host, impostor)
    other.connect(T0 + 2)
    other.deliver(T0 + 2)
    assert host.hangups == ["key"]
    assert any("prove its seat" in p for p in host.problems)
    assert host.got == [] and host.link.recv == 0  # its payload was not taken
    assert impostor.link.state == "refused"
    assert impostor.got == []
    received = [json.loads(t) for t in other.log[1]]
    assert all(m["k"] in ("hello", "proof", "refuse") for m in received)
    assert all("commit" not in m for m in received)
    assert host.link.outbox and host.link.state == "waiting"
    other.disconnect(T0 + 3)
    wire.connect(T0 + 4)
    wire.deliver(T0 + 4)
    assert guest.got == [1, 2] and host.link.state == "live"


def test_a_replayed_envelope_is_ignored() -> None:
    host, guest, wire = make_pair()
    for _ in range(3):
        host.send(T0)
    wire.deliver(T0)
    old = [t for t in wire.log[1] if json.loads(t)["k"] in ("data", "proof", "ack", "ping")]
    for text in old:
        guest.link.receive(text, T0 + 1)
        guest.drain()
    assert guest.got == [1, 2, 3]
    assert guest.link.duplicates == 3
    assert guest.problems == [] and guest.link.state == "live"
    # after a reconnect too
    wire.disconnect(T0 + 2)
    wire.connect(T0 + 3)
    wire.deliver(T0 + 3)
    for text in old:
        guest.link.receive(text, T0 + 4)
        guest.drain()
    assert guest.got == [1, 2, 3] and guest.link.state == "live"


def test_a_gap_is_refused_with_a_message_then_resynchronised() -> None:
    host, guest, wire = make_pair()
    host.send(T0)
    host.send(T0)
    first, second = host.link.pop_outgoing()
    guest.link.receive(second, T0)
    guest.drain()
    assert guest.got == []
    assert guest.problems and "out of order" in guest.problems[0]
    assert guest.link.state == "waiting" and not guest.link.can_act
    guest.link.receive(first, T0)  # distrusted until the handshake: nothing applied
    guest.drain()
    assert guest.got == []
    wire.deliver(T0 + 0.1)
    assert guest.got == []  # a resync is asked at most once per retry interval (3 s)
    wire.tick(T0 + 3)
    wire.deliver(T0 + 3)
    assert guest.got == [1, 2]
    assert guest.link.state == "live"


def random_text(rng: random.Random) -> str:
    alphabet = string.printable + "{}[]\":,\\é€😀\u0000"
    return "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 80)))


def mutate(rng: random.Random, text: str) -> str:
    choice = rng.randrange(6)
    if choice == 0 and text:
        i = rng.randrange(len(text))
        return text[:i] + rng.choice(string.printable) + text[i + 1:]
    if choice == 1 and text:
        i = rng.randrange(len(text))
        return text[:i] + text[i + 1:]
    if choice == 2:
        return text[: rng.randrange(len(text) + 1)]
    obj: Any = json.loads(text)
    key = rng.choice(sorted(obj))
    if choice == 3:
        obj[key] = rng.choice([None, True, -1, 1.5, "x", [], {}, 2**60, "0" * 64, 10**400])
    elif choice == 4:
        del obj[key]
    else:
        obj[rng.choice(["extra", "k", "v", "n"])] = rng.choice(["data", "nope", 2, 0, True])
    try:
        return json.dumps(obj)
    except ValueError:
        return "[" * 50000


def would_be_next_data(text: str, link: Link) -> bool:
    """A mutant that is a well-formed next payload would rightly be delivered: the fuzz skips those."""
    try:
        obj = json.loads(text)
    except ValueError:
        return False
    return isinstance(obj, dict) and obj.get("k") == "data" and obj.get("n") == link.recv + 1


def a_final_claim(text: str, link: Link) -> bool:
    """A mutant that is a well-formed refusal, or a hello from another room or the same seat, rightly
    ends the link for good (such a peer is not the friend): the faulty-channel test skips those."""
    try:
        obj = json.loads(text)
    except ValueError:
        return False
    if not isinstance(obj, dict):
        return False
    if obj.get("k") == "refuse":
        return True
    return obj.get("k") == "hello" and (obj.get("room") != link.room or obj.get("seat") == link.seat)


@pytest.mark.parametrize("seed", range(3))
def test_fuzz_never_raises_and_never_delivers(seed: int) -> None:
    rng = random.Random(seed)
    host, guest, wire = make_pair()
    for _ in range(4):
        host.send(T0)
    wire.deliver(T0)
    samples = list(wire.log[1])
    now = T0
    for round_ in range(600):
        now += 0.01
        text = random_text(rng) if round_ % 2 else mutate(rng, rng.choice(samples))
        if would_be_next_data(text, guest.link):
            continue
        before = guest.link.recv
        guest.link.receive(text, now)
        events = guest.link.pop_events()
        assert not any(isinstance(e, Delivered) for e in events), text
        assert guest.link.recv == before
        guest.link.pop_outgoing()
    for junk in ["", "x" * (MAX_ENVELOPE + 1), "[" * 100000, "1" * 5000, '{"v":1,"k":"ping","ack":NaN}',
                 '{"v":1,"v":1,"k":"ack","ack":0}', "null", '{"v":true,"k":"ack","ack":0}']:
        guest.link.receive(junk, now)
        assert not any(isinstance(e, Delivered) for e in guest.link.pop_events())
    guest.link.receive(12345, now)  # not even a string
    # the honest host gets the link back: resync, then new payloads arrive once, in order
    wire.flight = [[], []]
    guest.link.pop_outgoing()
    guest.link.tick(now + 5)
    host.send(now + 5)
    wire.deliver(now + 5)
    assert guest.got == [1, 2, 3, 4, 5]
    assert guest.link.state == "live"


def test_bad_input_is_reported_once_and_distrusts_until_a_handshake() -> None:
    host, guest, wire = make_pair()
    guest.link.receive("{not json", T0)
    guest.link.receive('{"v":1,"k":"launch"}', T0)
    guest.drain()
    assert guest.problems == ["The other browser sent a message that is not valid JSON; it was ignored."]
    assert guest.link.state == "waiting"
    host.send(T0)
    wire.deliver(T0)
    assert guest.got == []
    wire.tick(T0 + 3)
    wire.deliver(T0 + 3)
    assert guest.got == [1] and guest.link.state == "live"


def test_oversized_is_refused_before_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    host, guest, wire = make_pair()

    def boom(*args: object, **kwargs: object) -> object:
        raise AssertionError("parsed an oversized envelope")

    monkeypatch.setattr(link_module.json, "loads", boom)
    guest.link.receive('{"v":1,"k":"ack","ack":0,"pad":"' + "x" * MAX_ENVELOPE + '"}', T0)
    monkeypatch.undo()
    guest.drain()
    assert guest.problems and "oversized" in guest.problems[0]


def test_a_payload_too_large_or_not_json_is_refused_locally() -> None:
    host, guest, wire = make_pair()
    with pytest.raises(LinkError):
        host.link.send({"big": "x" * MAX_ENVELOPE}, T0)
    with pytest.raises(LinkError):
        host.link.send({"f": float("nan")}, T0)
    with pytest.raises(LinkError):
        host.link.send({"s": {1, 2}}, T0)
    with pytest.raises(LinkError):
        deep: dict[str, Any] = {}
        for _ in range(MAX_DEPTH):
            deep = {"d": deep}
        host.link.send(deep, T0)
    assert host.link.sent == 0 and host.link.outbox == []


def test_nesting_is_limited_before_parsing_but_brackets_in_text_are_fine() -> None:
    host, guest, wire = make_pair()
    host.link.send({"i": 1, "text": "[{" * 500, "pack": [[str(10**600 + k)] for k in range(52)]}, T0)
    wire.deliver(T0)
    assert guest.got == [1] and guest.problems == []
    guest.link.receive('{"v":1,"k":"ack","ack":0,"x":' + "[" * 40 + "]" * 40 + "}", T0)
    guest.drain()
    assert guest.problems and "nested too deeply" in guest.problems[0]


def test_heartbeat_notices_a_silent_peer_within_ten_seconds() -> None:
    host, guest, wire = make_pair()
    now = T0
    # both alive: a minute of ticks and pings keeps the link live, with nothing but pings
    seen = len(wire.log[0]), len(wire.log[1])
    for _ in range(120):
        now += 0.5
        wire.tick(now)
        wire.deliver(now)
    assert host.link.state == guest.link.state == "live"
    for side in (0, 1):
        idle = kinds(wire.log[side][seen[side]:])
        assert set(idle) == {"ping"} and 29 <= len(idle) <= 31
    # the guest's browser is killed: nothing more from it, and no close event either
    killed_at = now
    pings = 0
    while now < killed_at + LOSS_TIMEOUT - 0.5:
        now += 0.5
        host.link.tick(now)
        host.drain()
        pings += kinds(host.link.pop_outgoing()).count("ping")
        assert host.link.state == "live"
    assert pings >= 4  # a ping every ~2 s
    now = killed_at + LOSS_TIMEOUT
    host.link.tick(now)
    host.drain()
    assert host.link.state == "waiting" and not host.link.can_act
    assert "Lost contact" in host.link.status_text
    assert host.states[-1] == "waiting"


def test_loss_is_exactly_at_ten_seconds_of_silence() -> None:
    host, guest, wire = make_pair()
    host.link.tick(T0 + LOSS_TIMEOUT - 0.01)
    assert host.link.state == "live"
    host.link.tick(T0 + LOSS_TIMEOUT)
    assert host.link.state == "waiting"


def test_a_room_expires_after_seven_days_unused() -> None:
    host, guest, wire = make_pair()
    host.send(T0 + 100)
    wire.deliver(T0 + 100)
    wire.disconnect(T0 + 200)
    later = T0 + 100 + ROOM_LIFETIME - 1
    assert not host.link.expired(later)
    wire.connect(later)  # used again just before the week is up: the clock restarts
    wire.deliver(later)
    assert host.link.state == "live"
    wire.disconnect(later + 1)
    gone = later + ROOM_LIFETIME + 1
    assert host.link.expired(gone)
    fresh = Player(Link.from_dict(guest.link.to_dict()))
    fresh.link.last_used = gone  # the friend's own record looks fresh; the host's decides
    other = Wire(host, fresh)
    other.connect(gone)
    other.deliver(gone)
    assert host.link.state == "expired"
    assert fresh.link.state == "expired"
    assert fresh.link.status_text.startswith("This room has expired")
    # and a newcomer to the expired room hears the same
    newcomer = Player(Link.join(host.link.room, new_seat_key(), gone, host.link.secret))
    third = Wire(host, newcomer)
    third.connect(gone)
    third.deliver(gone)
    assert newcomer.link.state == "expired"


def test_own_record_expired_says_so_without_connecting() -> None:
    link = Link.host(new_room_id(), new_seat_key(), T0)
    link.connected(T0 + ROOM_LIFETIME)
    assert link.state == "expired"
    assert link.pop_outgoing() == []


def test_same_seat_twice_is_refused() -> None:
    host, guest, wire = make_pair()
    twin = Player(Link.from_dict(host.link.to_dict()))
    other = Wire(host, twin)
    other.disconnect(T0)
    wire.disconnect(T0)
    other.connect(T0)
    other.deliver(T0)
    assert "seat" in host.hangups and twin.link.state in ("refused", "waiting")


def test_to_dict_round_trips_through_json_and_resumes() -> None:
    host, guest, wire = make_pair()
    host.send(T0)
    host.send(T0)
    host.link.pop_outgoing()  # lost in flight
    saved = json.loads(json.dumps(host.link.to_dict()))
    assert saved["outbox"] == [[1, {"i": 1, "from": 0, "pad": "x"}], [2, {"i": 2, "from": 0, "pad": "xx"}]]
    wire.disconnect(T0)
    host = Player(Link.from_dict(saved))
    wire.ends[0] = host
    wire.connect(T0 + 1)
    wire.deliver(T0 + 1)
    assert guest.got == [1, 2] and host.link.outbox == []


def test_a_side_back_behind_what_it_acknowledged_is_sent_it_again() -> None:
    """A browser whose disk lost what it had acknowledged (no strict durability) resumes where its disk
    is: the other sends those payloads again from the ones it keeps, and neither reports a problem."""
    host, guest, wire = make_pair()
    old = guest.save()
    host.send(T0)
    host.send(T0)
    wire.deliver(T0)
    assert guest.got == [1, 2] and host.link.outbox == []
    wire.disconnect(T0)
    guest = Player.load(old)
    wire.ends[1] = guest
    wire.connect(T0 + 1)
    wire.deliver(T0 + 1)
    assert guest.got == [1, 2] and host.link.resent_from_log == 2
    assert not guest.problems and not host.problems and host.link.state == guest.link.state == "live"
    saved = Link.from_dict(json.loads(json.dumps(host.link.to_dict())))  # what it keeps is saved
    assert [n for n, _ in saved.kept] == [1, 2]


def test_a_side_back_behind_what_it_sent_is_named_as_the_one_behind() -> None:
    host, guest, wire = make_pair()
    old = guest.save()
    guest.send(T0)
    wire.deliver(T0)
    assert host.got == [1]
    wire.disconnect(T0)
    guest = Player.load(old)  # its disk lost the payload it had sent
    wire.ends[1] = guest
    wire.connect(T0 + 1)
    wire.deliver(T0 + 1)
    mine, theirs = " ".join(guest.problems), " ".join(host.problems)
    assert "This browser lost its last moves" in mine, mine
    assert "The other browser lost messages it had sent" in theirs, theirs


def test_only_a_few_acknowledged_payloads_are_kept() -> None:
    host, guest, wire = make_pair()
    for _ in range(RESEND_KEEP + 5):
        host.send(T0)
    wire.deliver(T0)
    assert [n for n, _ in host.link.kept] == list(range(6, RESEND_KEEP + 6))


@pytest.mark.parametrize("damage", [
    None, [], {"format": 2}, "text",
    {"format": 1, "room": "r1234", "seat": 0, "key": "0" * 64, "peer_commit": None, "last_used": T0,
     "sent": 2, "recv": 0, "outbox": [[1, {}]]},
    {"format": 1, "room": "r1234", "seat": 3, "key": "0" * 64, "peer_commit": None, "last_used": T0,
     "sent": 0, "recv": 0, "outbox": []},
    {"format": 1, "room": "r1234", "seat": 0, "key": "short", "peer_commit": None, "last_used": T0,
     "sent": 0, "recv": 0, "outbox": []},
    {"format": 1, "room": "r1234", "seat": 0, "key": "0" * 64, "peer_commit": None, "last_used": "x",
     "sent": 0, "recv": 0, "outbox": []},
    {"format": 1, "room": "r1234", "seat": 0, "key": "0" * 64, "peer_commit": None, "last_used": float("nan"),
     "sent": 0, "recv": 0, "outbox": []},
    {"format": 1, "room": "r1234", "seat": 0, "key": "0" * 64, "peer_commit": "zz", "last_used": T0,
     "sent": 0, "recv": 0, "outbox": []},
    {"format": 1, "room": "r1234", "seat": 0, "key": "0" * 64, "peer_commit": None, "last_used": T0,
     "sent": 1, "recv": 0, "outbox": [[1, "not a dict"]]},
])
def test_a_damaged_saved_link_is_refused_clearly(damage: object) -> None:
    with pytest.raises(LinkError):
        Link.from_dict(damage)


def test_room_helpers() -> None:
    room, key = new_room_id(), new_seat_key()
    assert room != new_room_id() and key != new_seat_key()
    assert len(key) == 64 and room.isalnum() and is_room_id(room)
    for bad in ["", "ab", "a" * 65, "../x", "<b>", "r1 2", None, 12345, "-abc"]:
        assert not is_room_id(bad)
        with pytest.raises(LinkError):
            Link.join(bad, key, T0)  # type: ignore[arg-type]
    assert seat_commitment(room, key) != seat_commitment(room, new_seat_key())
    assert seat_commitment(room, key) != seat_commitment(new_room_id(), key)


def test_a_payload_received_but_not_acknowledged_is_not_applied_twice_after_the_sender_reloads() -> None:
    host, guest, wire = make_pair()
    host.send(T0)
    (data,) = host.link.pop_outgoing()
    guest.link.receive(data, T0)
    guest.drain()
    guest.link.pop_outgoing()  # its ack is lost with the connection
    assert guest.got == [1]
    saved = host.save()
    wire.disconnect(T0 + 1)
    host = Player.load(saved)
    assert host.link.outbox and host.link.sent == 1
    wire.ends[0] = host
    wire.connect(T0 + 2)
    wire.deliver(T0 + 2)
    assert guest.got == [1]
    assert host.link.outbox == []
    host.send(T0 + 3)
    wire.deliver(T0 + 3)
    assert guest.got == [1, 2]


def test_a_lost_peer_that_speaks_again_is_live_again() -> None:
    host, guest, wire = make_pair()
    host.link.tick(T0 + LOSS_TIMEOUT)
    assert host.link.state == "waiting"
    guest.link.tick(T0 + LOSS_TIMEOUT + 1)  # its ping arrives at last
    wire.deliver(T0 + LOSS_TIMEOUT + 1)
    assert host.link.state == "live"


def test_the_friend_back_on_a_new_connection_replaces_a_ghost_one() -> None:
    host, guest, wire = make_pair()
    guest.send(T0)
    saved = guest.save()  # the friend's browser is killed: the host is not told
    host.send(T0 + 1)
    host.link.pop_outgoing()
    returning = Player.load(saved)
    returning.link.connected(T0 + 2, channel()[1])
    hello = returning.link.pop_outgoing()[0]
    # it claims the friend's seat: once the ghost is silent, let the proof decide (net.js lets the
    # friend's own signalling id replace its ghost channel without asking)
    assert host.link.screen(hello, T0 + 2) is not None
    host.link.tick(T0 + 11)
    assert host.link.screen(hello, T0 + 11) is None
    other = Wire(host, returning)
    other.connect(T0 + 2)
    other.deliver(T0 + 2)
    assert host.link.state == returning.link.state == "live"
    assert host.got == [1] and returning.got == [1]


def test_a_browser_from_another_room_is_refused() -> None:
    host = Player(Link.host(new_room_id(), new_seat_key(), T0, new_room_secret()))
    stranger = Player(Link.join(new_room_id(), new_seat_key(), T0, new_room_secret()))
    wire = Wire(host, stranger)
    wire.connect(T0)
    wire.deliver(T0)
    assert host.hangups == ["room"] and host.link.peer_commit is None
    assert stranger.link.state == "refused" and "different room" in stranger.link.status_text


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
ENVELOPE = st.fixed_dictionaries(
    {"v": st.sampled_from([1, 1, 2, True, "1"]),
     "k": st.sampled_from(["hello", "proof", "data", "ack", "ping", "refuse", "x", 3])},
    optional={"n": JSON, "ack": JSON, "p": JSON, "sent": JSON, "live": JSON, "room": JSON, "seat": JSON,
              "nonce": JSON, "recv": JSON, "for": JSON, "mac": JSON, "commit": JSON, "join": JSON},
)


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.text(max_size=200), JSON.map(json.dumps), ENVELOPE.map(json.dumps)))
def test_any_text_from_the_peer_never_raises_and_never_delivers_out_of_sequence(text: str) -> None:
    host, guest, wire = make_pair()
    assume(not would_be_next_data(text, guest.link))
    guest.link.receive(text, T0)
    assert not any(isinstance(e, Delivered) for e in guest.link.pop_events())
    assert guest.link.recv == 0
    host.send(T0 + 5)  # and the link comes back for the honest peer (unless it was rightly refused)
    guest.link.tick(T0 + 5)
    wire.deliver(T0 + 5)
    assert guest.got == [1] or a_final_claim(text, guest.link)


# ---- seat proofs bound to the channel, the room secret, strangers timed out ------------------------


class Relay:
    """A man in the middle (a hostile signalling server): two DTLS connections, one to each browser,
    passing every text across unchanged. Each side sees its own fingerprint and the relay's."""

    def __init__(self, host: Player, guest: Player, now: float) -> None:
        self.host, self.guest = host, guest
        self.seen: list[str] = []
        host_binding, _ = channel()  # host <-> relay
        _, guest_binding = channel()  # relay <-> guest
        host.link.connected(now, host_binding)
        guest.link.connected(now, guest_binding)

    def pump(self, now: float) -> None:
        for _ in range(1000):
            moved = False
            for src, dst in ((self.host, self.guest), (self.guest, self.host)):
                for text in src.link.pop_outgoing():
                    moved = True
                    self.seen.append(text)
                    dst.link.receive(text, now)
                    dst.drain()
            if not moved:
                return
        raise AssertionError("the relayed links never fall quiet")

    def run(self, start: float, seconds: float) -> None:
        now = start
        while now <= start + seconds:
            self.pump(now)
            for p in (self.host, self.guest):
                p.link.tick(now)
                p.drain()
            now += 0.5


def fresh_room(now: float = T0) -> tuple[Player, Player]:
    room, secret = new_room_id(), new_room_secret()
    return Player(Link.host(room, new_seat_key(), now, secret)), Player(Link.join(room, new_seat_key(), now, secret))


def test_a_relayed_rejoin_fails_on_both_sides_and_nothing_is_delivered() -> None:
    host, guest, wire = make_pair()
    host.send(T0)
    wire.deliver(T0)
    wire.disconnect(T0 + 1)
    host.send(T0 + 1)
    guest.send(T0 + 1)
    relay = Relay(host, guest, T0 + 2)
    relay.run(T0 + 2, 8)
    assert host.link.state != "live" and guest.link.state != "live"
    assert not host.link.can_act and not guest.link.can_act
    assert any("prove its seat" in p for p in host.problems)
    assert any("prove its seat" in p for p in guest.problems)
    assert host.got == [] and guest.got == [1]  # the payloads queued meanwhile never crossed the relay
    assert "data" not in kinds(relay.seen)
    # then the two meet directly and everything owed arrives
    host.link.disconnected(T0 + 11)
    guest.link.disconnected(T0 + 11)
    wire.connect(T0 + 12)
    wire.deliver(T0 + 12)
    assert host.link.state == guest.link.state == "live"
    assert host.got == [1] and guest.got == [1, 2]


def test_a_relayed_first_join_fails_and_the_relay_never_sees_a_commitment() -> None:
    host, guest = fresh_room()
    relay = Relay(host, guest, T0)
    relay.run(T0, 8)
    assert host.link.state != "live" and guest.link.state != "live"
    assert host.link.peer_commit is None and guest.link.peer_commit is None
    assert set(host.hangups) == {"full"} and any("refused" in p for p in host.problems)
    assert "room is full" in guest.link.status_text
    # Nothing a relay saw can prove a seat later: neither commitment crossed it in clear.
    for text in relay.seen:
        assert host.link.commit not in text and guest.link.commit not in text
        assert host.link.secret is not None and host.link.secret not in text
    # The honest first join, directly, still works afterwards.
    host.link.disconnected(T0 + 9)
    guest.link.disconnected(T0 + 9)
    wire = Wire(host, guest)
    wire.connect(T0 + 10)
    wire.deliver(T0 + 10)
    assert host.link.state == guest.link.state == "live"
    assert host.link.peer_commit == guest.link.commit and guest.link.peer_commit == host.link.commit


def test_the_relay_cannot_take_a_seat_with_what_it_saw() -> None:
    """A relay that watched a (failed) first join, then calls the host itself once the friend joined."""
    host, guest = fresh_room()
    relay = Relay(host, guest, T0)
    relay.run(T0, 4)
    host.link.disconnected(T0 + 5)
    guest.link.disconnected(T0 + 5)
    wire = Wire(host, guest)
    wire.connect(T0 + 6)
    wire.deliver(T0 + 6)
    wire.disconnect(T0 + 7)
    # The relay replays, on its own channel to the host, every proof it saw (it holds no key).
    mallory = Player(Link.join(host.link.room, new_seat_key(), T0 + 8, None))
    mallory.link.peer_commit = host.link.commit  # even knowing the host's commitment would not do
    host_binding, _ = channel()
    host.link.connected(T0 + 8, host_binding)
    hello = json.loads(host.link.pop_outgoing()[0])
    for text in relay.seen:
        msg = json.loads(text)
        if msg["k"] in ("hello", "proof") and msg.get("seat", 1) == 1:
            if msg["k"] == "proof":
                msg["for"] = hello["nonce"]  # answer the host's fresh nonce
            host.link.receive(json.dumps(msg), T0 + 8)
            host.drain()
    assert host.link.state != "live" and not host.link.can_act
    assert host.got == []


def test_a_join_without_the_room_secret_is_refused() -> None:
    host, _ = fresh_room()
    # a page opened from a link without "#k=": it says so and sends nothing
    lost = Player(Link.join(host.link.room, new_seat_key(), T0))
    lost.link.connected(T0, channel()[1])
    assert lost.link.state == "refused" and "incomplete" in lost.link.status_text
    assert lost.link.pop_outgoing() == []
    # a crafted join: the hello asks to join, the proof leaves out the secret's part
    stranger = Player(Link.join(host.link.room, new_seat_key(), T0, new_room_secret()))
    host_binding, stranger_binding = channel()
    host.link.connected(T0, host_binding)
    stranger.link.connected(T0, stranger_binding)
    hello = json.loads(host.link.pop_outgoing()[0])
    for text in stranger.link.pop_outgoing():
        host.link.receive(text, T0)
    forged = {"v": PROTOCOL, "k": "proof", "for": hello["nonce"], "mac": "0" * 64}
    host.link.receive(json.dumps(forged), T0)
    host.drain()
    assert host.hangups == ["full"] and host.link.peer_commit is None
    sent = [json.loads(t) for t in host.link.pop_outgoing()]
    assert [m["k"] for m in sent] == ["refuse"] and sent[0]["reason"] == "full"


def test_a_join_with_a_wrong_secret_is_refused_and_learns_nothing() -> None:
    host, _ = fresh_room()
    stranger = Player(Link.join(host.link.room, new_seat_key(), T0, new_room_secret()))
    wire = Wire(host, stranger)
    wire.connect(T0)
    wire.deliver(T0)
    assert host.hangups == ["full"] and host.link.peer_commit is None and host.link.state != "live"
    assert stranger.link.state != "live" and stranger.link.peer_commit is None
    assert "room is full" in stranger.link.status_text
    assert set(kinds(wire.log[1])) <= {"hello", "refuse"}  # no proof, no commitment from the host
    assert all(host.link.commit not in t for t in wire.log[1])


@pytest.mark.parametrize("forge", ["room", "binding", "seat", "nonce"])
def test_a_join_proof_for_another_room_binding_seat_or_nonce_is_refused(forge: str) -> None:
    host, guest = fresh_room()
    secret = host.link.secret
    assert secret is not None
    host_binding, guest_binding = channel()
    host.link.connected(T0, host_binding)
    guest.link.connected(T0, guest_binding)
    host_hello = json.loads(host.link.pop_outgoing()[0])
    for text in guest.link.pop_outgoing():  # the guest's hello (join)
        host.link.receive(text, T0)
    assert host.link.pop_outgoing() == []  # nothing said back to a joiner before it shows the secret
    room, nonce = host.link.room, host_hello["nonce"]
    ends = link_module._ends(guest_binding, 1)
    seat = 1
    if forge == "room":
        room = new_room_id()
    elif forge == "binding":
        ends = link_module._ends(channel()[1], 1)  # the proof of another channel (a relay's other leg)
    elif forge == "seat":
        seat = 0
    else:
        nonce = new_seat_key()  # an old nonce
    commit = guest.link.commit
    proof = {"v": PROTOCOL, "k": "proof", "for": host_hello["nonce"],
             "mac": link_module._mac(commit, room, seat, nonce, ends),
             "seal": link_module._seal(secret, room, commit, nonce, ends),
             "jmac": link_module._join_mac(secret, room, seat, commit, nonce, ends)}
    host.link.receive(json.dumps(proof), T0)
    host.drain()
    assert host.hangups == ["full"] and host.link.peer_commit is None and host.link.state != "live"
    assert [json.loads(t)["k"] for t in host.link.pop_outgoing()] == ["refuse"]


def test_the_honest_first_join_then_a_rejoin_proves_seats_without_the_secret_again() -> None:
    host, guest, wire = make_pair()
    first = [json.loads(t) for t in wire.log[0] + wire.log[1]]
    assert any("seal" in m for m in first) and any("commit" in m for m in first)
    assert all(guest.link.commit not in json.dumps(m) for m in first)  # sealed, never in clear
    wire.disconnect(T0 + 1)
    wire.log = [[], []]
    guest = Player.load(guest.save())  # and the friend's page reloads in between
    wire.ends[1] = guest
    wire.connect(T0 + 2)
    wire.deliver(T0 + 2)
    assert host.link.state == guest.link.state == "live"
    again = [json.loads(t) for t in wire.log[0] + wire.log[1]]
    assert not any(k in m for m in again for k in ("join", "seal", "jmac", "commit"))


def test_no_proof_is_made_or_accepted_without_a_binding() -> None:
    host, guest, wire = make_pair()
    wire.disconnect(T0 + 1)
    host.link.connected(T0 + 2, None)
    host.drain()
    assert host.link.pop_outgoing() == []  # no hello
    assert host.problems and "fingerprints" in host.problems[-1]
    guest.link.connected(T0 + 2, channel()[1])
    for text in guest.link.pop_outgoing():
        host.link.receive(text, T0 + 2)
    assert host.link.pop_outgoing() == []  # no proof either
    bad = Binding("sha-256 zz", "nonsense")
    returning = Link.from_dict(guest.link.to_dict())
    returning.connected(T0 + 2, bad)
    assert returning.pop_outgoing() == [] and returning.state == "waiting"
    host.link.tick(T0 + 2 + UNPROVEN_TIMEOUT)
    host.drain()
    assert host.hangups == ["full"]


def test_an_unproven_channel_is_dropped_after_ten_seconds_and_the_friend_gets_in() -> None:
    host, guest, wire = make_pair()
    wire.disconnect(T0 + 1)
    # A squatter opens the host's only channel and proves nothing (net.js refuses other callers).
    host.link.connected(T0 + 2, channel()[0])
    host.link.pop_outgoing()
    for t in range(1, 20):
        host.link.tick(T0 + 2 + t * 0.5)
        host.link.receive(json.dumps({"v": PROTOCOL, "k": "ping", "ack": 0, "sent": 0, "live": False}),
                          T0 + 2 + t * 0.5)  # it keeps the channel busy
        host.drain()
    assert host.hangups == []  # 9.5 s
    host.link.tick(T0 + 2 + UNPROVEN_TIMEOUT)
    host.drain()
    assert host.hangups == ["full"]  # the stranger learns nothing but "full"
    assert [json.loads(t) for t in host.link.pop_outgoing()][-1] == {"v": PROTOCOL, "k": "refuse", "reason": "full"}
    host.link.disconnected(T0 + 12.2)  # the page drops that channel: the next caller is heard
    wire.connect(T0 + 13)
    wire.deliver(T0 + 13)
    assert host.link.state == guest.link.state == "live"


def test_a_guest_told_full_calls_again_and_gets_in() -> None:
    host, guest, wire = make_pair()
    wire.disconnect(T0 + 1)
    guest.link.connected(T0 + 2, channel()[1])  # the host's page answered "full" (a squatter holds it)
    guest.link.receive(json.dumps({"v": PROTOCOL, "k": "refuse", "reason": "full"}), T0 + 2)
    guest.drain()
    assert guest.hangups == ["full"] and guest.link.full and "room is full" in guest.link.status_text
    assert guest.link.state not in ("refused", "expired")  # not final
    guest.link.disconnected(T0 + 2.2)
    wire.connect(T0 + 8)
    wire.deliver(T0 + 8)
    assert host.link.state == guest.link.state == "live" and not guest.link.full


def test_a_stranger_cannot_close_the_room_with_a_refusal() -> None:
    host, guest, wire = make_pair()
    wire.disconnect(T0 + 1)
    host.link.connected(T0 + 2, channel()[0])
    host.link.receive(json.dumps({"v": PROTOCOL, "k": "refuse", "reason": "expired"}), T0 + 2)
    host.drain()
    assert host.link.state == "waiting" and host.hangups == ["refused"]
    host.link.disconnected(T0 + 3)
    wire.connect(T0 + 4)
    wire.deliver(T0 + 4)
    assert host.link.state == "live"


def test_an_unproven_guest_channel_is_dropped_quietly_after_ten_seconds() -> None:
    _, guest = fresh_room()
    guest.link.connected(T0, channel()[1])
    guest.link.pop_outgoing()
    guest.link.tick(T0 + UNPROVEN_TIMEOUT)
    guest.drain()
    assert guest.hangups == ["timeout"]
    assert kinds(guest.link.pop_outgoing()) in ([], ["ping"], ["hello"], ["ping", "hello"], ["hello", "ping"])


def test_a_room_from_before_secrets_keeps_its_friend_and_takes_no_new_one() -> None:
    host, guest, wire = make_pair()
    wire.disconnect(T0 + 1)
    old_host, old_guest = host.link.to_dict(), guest.link.to_dict()
    del old_host["secret"], old_guest["secret"]  # saved by the version before secrets
    host, guest = Player(Link.from_dict(old_host)), Player(Link.from_dict(old_guest))
    assert host.link.secret is None
    wire = Wire(host, guest)
    wire.connect(T0 + 2)
    wire.deliver(T0 + 2)
    assert host.link.state == guest.link.state == "live"
    # an old host room nobody joined yet: no first join without a secret
    lonely = Player(Link.host(new_room_id(), new_seat_key(), T0))
    comer = Player(Link.join(lonely.link.room, new_seat_key(), T0, new_room_secret()))
    other = Wire(lonely, comer)
    other.connect(T0)
    other.deliver(T0)
    assert lonely.hangups == ["full"] and lonely.link.peer_commit is None and comer.link.state != "live"


def test_a_peer_of_the_old_protocol_is_told_plainly() -> None:
    host, guest, wire = make_pair()
    old = json.dumps({"v": 1, "k": "hello", "room": host.link.room, "seat": 1, "nonce": "0" * 64,
                      "recv": 0, "sent": 0, "join": "1" * 64})
    host.link.receive(old, T0)
    host.drain()
    assert host.problems == ["The other browser runs a different version of the game; reload both pages."]
    assert host.link.peer_commit == guest.link.commit
