"""The room of three and four seats (py/cribbage/online/table_room.py): browsers meet over an in-memory
signalling hub and build the full mesh of pair links; strangers, a fifth browser, a wrong secret and a
browser posing as another seat are refused; a killed seat comes back to its own seat."""

from __future__ import annotations

import itertools
import json

import pytest
from table_room_hub import NAMES, Browser, Endpoint, Hub, arrive, full_table, open_table, payload_of, with_payload

from cribbage.online.link import (SCREEN_GRACE, UNPROVEN_TIMEOUT, Binding, Link, new_room_secret, new_seat_key,
                                  rendezvous, seat_commitment)
from cribbage.online.errors import ProtocolError
from cribbage.online.table_roster import SeatKey, host_id, lobby_room, pair_keys, pair_room, read_roster, seat_id
from cribbage.online.table_room import (ABORTS, FREED_TEXT, MeshReady, RoomProblem, RosterChanged, SeatAway, SeatBack,
                                        Stopped, TableRoom, TableRoomError)
from cribbage.rules import Rules


def stops(browser: Browser) -> list[str]:
    return [e.text for e in browser.events if isinstance(e, Stopped)]


def problems(browser: Browser) -> list[str]:
    return [e.text for e in browser.events if isinstance(e, RoomProblem)]


def all_live(browsers: list[Browser]) -> bool:
    return all(link.state == "live" for b in browsers for link in b.room.links.values())


@pytest.mark.parametrize("players", [3, 4])
def test_browsers_meet_and_build_the_full_mesh(players: int) -> None:
    hub, browsers = full_table(players, target=61, muggins=True)
    rosters = {json.dumps(b.room.roster.to_json(), sort_keys=True) for b in browsers}  # type: ignore[union-attr]
    assert len(rosters) == 1  # every seat holds the host's roster
    roster = browsers[0].room.roster
    assert roster is not None and roster.rules == Rules(players=players, target=61, muggins=True)
    assert [s.name for s in roster.seats] == list(NAMES[:players])  # seats in arrival order, names shown
    for seat, b in enumerate(browsers):
        assert b.room.seat == seat and b.room.started and b.room.missing == ()
        ready = [e for e in b.events if isinstance(e, MeshReady)]
        assert len(ready) == 1 and ready[0].seats == tuple(range(players)) and ready[0].seat == seat
        assert sorted(b.room.links) == [p for p in range(players) if p != seat]
        assert b.id == roster.seats[seat].id  # registered where the roster says
    assert all_live(browsers)
    # the full mesh: one channel per pair of seats (and nothing else left open)
    assert len(hub.channels) == players * (players - 1) // 2
    # every rendezvous id is derived from the secret, one per seat
    secret, room = browsers[0].room.secret, browsers[0].room.room
    assert roster.seats[0].id == host_id(room, secret)
    assert all(s.id == seat_id(room, secret, s.pub) for s in roster.seats[1:])
    # the game's API: each seat's message reaches every other seat once, from the seat its link proved
    for seat, b in enumerate(browsers):
        b.room.broadcast({"hello": seat}, hub.now)
    browsers[1].room.send(0, {"only": "host"}, hub.now)
    hub.pump()
    for seat, b in enumerate(browsers):
        got = b.received_games()
        expected = [(p, {"hello": p}) for p in range(players) if p != seat]
        assert sorted(got, key=lambda x: (x[0], json.dumps(x[1]))) == sorted(
            expected + ([(1, {"only": "host"})] if seat == 0 else []), key=lambda x: (x[0], json.dumps(x[1])))


def test_seats_fill_in_the_order_people_arrive() -> None:
    hub = Hub()
    host = open_table(hub, Rules(players=4))
    order = ["Dan", "Bob", "Cat"]
    late = [arrive(hub, host, name) for name in order]
    roster = host.room.roster
    assert roster is not None and [s.name for s in roster.seats] == ["Ann", *order]
    assert [b.room.seat for b in late] == [1, 2, 3]
    changes = [e for e in host.events if isinstance(e, RosterChanged)]
    assert [len(e.roster.seats) for e in changes] == [2, 3, 4]
    # before the last seat is taken nobody starts, and every seat sees who is still missing
    hub2 = Hub()
    host2 = open_table(hub2, Rules(players=3))
    bob = arrive(hub2, host2, "Bob")
    assert not host2.room.started and not bob.room.started
    assert host2.room.missing == (2,) and bob.room.missing == (2,)
    assert "1 of 3" not in host2.room.status_text and "2 of 3 seats taken" in host2.room.status_text


def test_a_fifth_browser_is_refused_with_a_sentence() -> None:
    hub, browsers = full_table(4)
    before = browsers[0].room.roster
    fifth = arrive(hub, browsers[0], "Eve")
    hub.wait(5)
    assert fifth.room.seat is None and fifth.room.stopped is not None
    assert stops(fifth) == ["This table is full: every seat is taken."]
    assert fifth.room.to_dial(hub.now + 60) == []  # it stops calling
    assert browsers[0].room.roster == before
    assert any("full table" in t for t in problems(browsers[0]))
    assert all(b.room.started and b.room.missing == () for b in browsers)
    # and its call is closed: only the mesh's channels remain
    assert len(hub.channels) == 6


def test_a_wrong_secret_reaches_nobody_and_is_refused_by_the_host() -> None:
    hub = Hub()
    host = open_table(hub, Rules(players=3))
    # with another secret, a browser dials an id nobody holds
    wrong = arrive(hub, host, "Eve", secret=new_room_secret())
    hub.wait(8)
    assert wrong.room.seat is None and not any(reached for caller, _, reached in hub.dialled if caller == wrong.id)
    # one that learned the host's id anyway (the signalling server sees it) cannot prove the secret
    stranger = LinkCaller(hub, "cribbage-tstranger", host.id,
                          Link.join(lobby_room(host.room.room, host.room.secret), new_seat_key(), hub.now,
                                    new_room_secret()),
                          {"t": "sit", "name": "Eve", "pub": SeatKey().pub})
    hub.wait(15)
    assert stranger.link.state != "live" and not stranger.delivered
    assert host.room.roster is not None and len(host.room.roster.seats) == 1
    assert any("whole link" in t for t in problems(host))
    # the real friend still gets in
    bob, cat = arrive(hub, host, "Bob"), arrive(hub, host, "Cat")
    hub.pump()
    assert bob.room.started and cat.room.started and host.room.started


class LinkCaller(Endpoint):
    """A hand-made browser: one Link, dialling ``target`` from id ``ident`` (any id it likes)."""

    def __init__(self, hub: Hub, ident: str, target: str, link: Link, payload: dict[str, object] | None = None) -> None:
        self.id, self.target, self.link, self.hub = ident, target, link, hub
        self.delivered: list[dict[str, object]] = []
        self.problems: list[str] = []
        self.called = False
        if payload is not None:
            link.send(payload, hub.now)
        assert hub.register(self)

    def opened(self, peer: str, binding: Binding, now: float) -> None:
        self.link.connected(now, binding)

    def received(self, peer: str, text: str, now: float) -> None:
        self.link.receive(text, now)

    def closed(self, peer: str, now: float) -> None:
        self.link.disconnected(now)

    def outgoing(self) -> list[tuple[str, str]]:
        for event in self.link.pop_events():
            if hasattr(event, "payload"):
                self.delivered.append(event.payload)  # type: ignore[union-attr]
            elif hasattr(event, "text"):
                self.problems.append(event.text)  # type: ignore[union-attr]
        return [(self.target, t) for t in self.link.pop_outgoing()]

    def dials(self, now: float) -> list[str]:
        if self.called:
            return []
        self.called = True
        return [self.target]

    def tick(self, now: float) -> None:
        self.link.tick(now)


@pytest.mark.parametrize("seat", [0, 2, 3])
def test_a_killed_seat_comes_back_to_its_own_seat_and_every_link_returns(seat: int) -> None:
    hub, browsers = full_table(4)
    roster = browsers[0].room.roster
    gone = browsers[seat]
    others = [b for b in browsers if b is not gone]
    saved = json.loads(json.dumps(gone.save))
    hub.kill(gone.id)
    hub.pump()
    for b in others:
        assert b.room.missing == (seat,)
        assert NAMES[seat] in b.room.status_text
        assert any(isinstance(e, SeatAway) and e.seat == seat for e in b.events)
    # the game goes on sending to it: the messages wait in its links
    first, last = others[0], others[-1]
    first.room.broadcast({"deal": 1}, hub.now)
    last.room.send(seat, {"to": NAMES[seat]}, hub.now)
    hub.pump()
    # the same browser, reopened from its save: its own seat, its own key, no new seat
    back = Browser(TableRoom.from_dict(saved, hub.now))
    assert back.id == gone.id and back.room.seat == seat and back.room.started
    assert hub.register(back)
    hub.wait(4)
    everyone = [*others, back]
    assert all_live(everyone) and all(b.room.missing == () for b in everyone)
    got = back.received_games()  # exactly once each (no order across links: each link keeps its own)
    assert sorted(got, key=lambda x: x[0]) == [(first.room.seat, {"deal": 1}), (last.room.seat, {"to": NAMES[seat]})]
    for b in others:
        assert any(isinstance(e, SeatBack) and e.seat == seat for e in b.events)
        assert b.room.roster == roster and b.room.stopped is None
    # and after the return the mesh carries both ways
    back.room.broadcast({"again": True}, hub.now)
    hub.pump()
    assert all(b.received_games()[-1] == (seat, {"again": True}) for b in others)
    # the same person on a fresh browser (no saved key) is a stranger: the table is full
    host = back if seat == 0 else browsers[0]
    fresh = arrive(hub, host, NAMES[seat])
    hub.pump()
    assert fresh.room.seat is None and stops(fresh) == ["This table is full: every seat is taken."]


def test_a_browser_killed_before_it_heard_its_seat_gets_the_same_seat() -> None:
    hub = Hub()
    host = open_table(hub, Rules(players=3))
    bob = Browser(TableRoom.join(host.room.room, host.room.secret, "Bob", hub.now))
    before = json.loads(json.dumps(bob.room.to_dict()))  # saved before calling (its key is its seat)
    assert hub.register(bob)
    hub.pump()
    assert bob.room.seat == 1
    hub.kill(bob.id)
    again = Browser(TableRoom.from_dict(before, hub.now))
    assert again.room.seat is None and hub.register(again)
    hub.wait(4)
    assert again.room.seat == 1
    assert host.room.roster is not None and len(host.room.roster.seats) == 2
    cat = arrive(hub, host, "Cat")
    hub.wait(2)
    assert cat.room.seat == 2 and again.room.started and cat.room.started and host.room.started


def test_a_browser_claiming_another_seats_id_is_refused() -> None:
    hub, browsers = full_table(4)
    ann, bob, cat, dan = browsers
    room, secret = ann.room.room, ann.room.secret
    roster = ann.room.roster
    assert roster is not None
    hub.kill(cat.id)  # Cat's browser is away: its id is free on the signalling server
    hub.pump()
    # Dan (seated, with the room secret and the roster) registers Cat's id and calls Bob on the link of the
    # pair (Bob, Cat): he knows that link's room but not Cat's key, so only keys of his own making
    room12 = pair_room(room, secret, roster.seats[1].pub, roster.seats[2].pub)
    _, forged = pair_keys(dan.room.key.shared(roster.seats[1].pub), secret, room12)
    saved = cat.save["links"]["1"]  # (even with the counters right: the best an impostor can guess)
    link = Link(room12, 1, forged, hub.now, peer_commit=seat_commitment(room12, pair_keys(
        dan.room.key.shared(roster.seats[1].pub), secret, room12)[0]), sent=saved["sent"], recv=saved["recv"])
    impostor = LinkCaller(hub, cat.id, bob.id, link, {"t": "game", "m": {"from": "cat?"}})
    hub.wait(12)
    assert bob.room.links[2].state != "live" and bob.room.missing == (2,)
    assert not any(isinstance(e, SeatBack) and e.seat == 2 for e in bob.events)  # never live, not for a moment
    assert all(seat != 2 for seat, _ in bob.received_games())
    assert any("prove its seat" in t for t in problems(bob))
    hub.kill(impostor.id)
    # a newcomer asking the host for a seat from an id that is not its key's is refused
    poser = Browser(TableRoom.join(room, secret, "Eve", hub.now), id=cat.id)
    assert hub.register(poser)
    hub.wait(4)
    assert poser.room.seat is None and poser.room.stopped is not None
    assert any("not its own" in t for t in problems(ann))
    hub.kill(poser.id)
    # the real Cat comes back and is linked to everyone
    back = Browser(TableRoom.from_dict(cat.save, hub.now))
    assert hub.register(back)
    hub.wait(4)
    assert all_live([ann, bob, back, dan])


def test_a_squatter_with_only_the_room_id_reaches_nobody() -> None:
    hub, browsers = full_table(3)
    room = browsers[0].room.room
    guesses = {f"cribbage-{room}-0", f"cribbage-{room}", room, f"cribbage-{rendezvous(room, None)}-0",
               host_id(room, new_room_secret())}
    guesses |= {seat_id(room, new_room_secret(), b.room.key.pub) for b in browsers}  # even knowing the keys
    assert not guesses & set(hub.endpoints)
    squatter = LinkCaller(hub, "cribbage-tsquat", "", Link.join(room, new_seat_key(), hub.now, new_room_secret()))
    for guess in sorted(guesses):
        assert not hub.dial(squatter.id, guess)
    # a browser of its own with a made-up secret never finds the host either
    lost = arrive(hub, browsers[0], "Eve", secret=new_room_secret())
    hub.wait(10)
    assert lost.room.seat is None and not any(r for c, _, r in hub.dialled if c in (lost.id, squatter.id))
    assert all(not problems(b) for b in browsers)  # nobody even heard a call


def announce(host: Browser, seat: int, roster: dict[str, object], now: float) -> None:
    """The host's browser running modified code: a roster of its choosing to one seat."""
    host.room.links[seat].send({"t": "roster", "roster": roster}, now)
    host.room._drain_link(seat)


def test_the_roster_cannot_change_after_the_start() -> None:
    hub, browsers = full_table(3)
    host = browsers[0]
    assert host.room.roster is not None
    changed = host.room.roster.to_json()
    changed["seats"][2]["name"] = "Mallory"
    announce(host, 1, changed, hub.now)
    hub.pump()
    assert stops(browsers[1]) == ["The host changed the table after the game started; the table stops."]
    assert browsers[1].room.roster is not None and browsers[1].room.roster.seats[2].name == "Cat"
    # Bob tells the others why he stopped: every seat stops, and says who stopped it
    assert stops(browsers[2]) == [f"Bob (seat 2) stopped the table: {ABORTS['changed']}."]
    assert stops(host) == stops(browsers[2])
    # other rules, announced after the start, are refused the same way
    hub, browsers = full_table(3)
    other = browsers[0].room.roster.to_json()  # type: ignore[union-attr]
    other["rules"] = {"players": 3, "target": 61}
    announce(browsers[0], 2, other, hub.now)
    hub.pump()
    assert stops(browsers[2]) == ["The host changed the table after the game started; the table stops."]
    assert browsers[2].room.roster.rules.target == 121  # type: ignore[union-attr]


def test_a_seat_already_taken_cannot_be_changed_before_the_start() -> None:
    hub = Hub()
    host = open_table(hub, Rules(players=3))
    bob = arrive(hub, host, "Bob")
    assert host.room.roster is not None
    moved = host.room.roster.to_json()
    moved["rules"] = {"players": 3, "muggins": True}
    announce(host, 1, moved, hub.now)
    hub.pump()
    assert stops(bob) == ["The host changed seats already taken (or the rules); the table stops."]


@pytest.mark.parametrize("players,what", [(3, "name"), (4, "rules"), (4, "order")])
def test_a_host_telling_seats_different_rosters_is_caught_before_anyone_starts(players: int, what: str) -> None:
    hub = Hub()
    host = open_table(hub, Rules(players=players))
    victim = 1  # the seat told another table than the others

    def tamper(sender: str, receiver: str, text: str) -> str | None:
        if sender != host.id or not late or receiver != late[victim - 1].id:
            return text
        payload = payload_of(text)
        if not payload or "roster" not in payload:
            return text
        roster = payload["roster"]
        if what == "name" and len(roster["seats"]) > 2:
            roster["seats"][2]["name"] = "Mallory"
        elif what == "rules":
            roster["rules"] = {"players": players, "target": 61}
        elif what == "order" and len(roster["seats"]) == 4:
            roster["seats"][2], roster["seats"][3] = roster["seats"][3], roster["seats"][2]
        return with_payload(text, payload)

    late: list[Browser] = []
    hub.tamper = tamper
    for name in NAMES[1:players]:
        late.append(arrive(hub, host, name))
    hub.wait(5)
    everyone = [host, *late]
    assert not any(b.room.started or b.ready for b in everyone)  # caught before any seat starts
    assert stops(late[victim - 1])  # the victim knows
    others = [b for b in everyone if b is not late[victim - 1]]
    # every other seat stopped, never got a seat (the host had stopped) or waits for the victim for good
    assert all(stops(b) or b.room.seat is None or victim in b.room.missing for b in others)
    assert stops(host)  # the host compared digests with the victim, or was told why the victim stopped
    if what == "name":  # the victim compared its full roster's digest: the sentence says what happened
        assert "the host told the seats different things" in stops(late[victim - 1])[0]
    else:
        assert stops(host) == [f"Bob (seat 2) stopped the table: {ABORTS['changed']}."]
    with pytest.raises(TableRoomError):
        late[victim - 1].room.broadcast({"play": 1}, hub.now)


def test_bad_input_never_crashes_and_is_refused_in_words() -> None:
    hub, browsers = full_table(3)
    ann, bob, cat = browsers
    junk: list[object] = [None, 7, "", "{", "[]", '{"v":3}', '{"v":3,"k":"data","n":1,"ack":0,"p":{}}',
                          "x" * 300_000, "[" * 5000, json.dumps({"v": 3, "k": "hello", "room": "zz"})]
    for text in junk:
        ann.room.received(bob.id, text, hub.now)  # type: ignore[arg-type]
        ann.room.received("nobody", text, hub.now)  # type: ignore[arg-type]
    hub.pump()
    # payloads a seat's (modified) browser may send over its live link
    for bad in ({"t": "nope"}, {"t": "game"}, {"t": "game", "m": [1]}, {"t": "agree", "digest": 5},
                {"t": "roster", "roster": {"room": 1}}, {"t": "seated", "seat": 1, "roster": {}}):
        bob.room.links[0].send(bad, hub.now)
        bob.room._drain_link(0)
        hub.wait(4)
    assert ann.room.stopped is None and len(problems(ann)) >= 3
    # a stranger's payloads at a non-host seat: a roster from someone other than the host is refused
    cat.room.links[1].send({"t": "roster", "roster": ann.room.roster.to_json()}, hub.now)  # type: ignore[union-attr]
    cat.room._drain_link(1)
    hub.wait(4)
    assert any("only the host" in t for t in problems(bob)) and bob.room.stopped is None
    # the links recover (a new handshake) and the game's messages go through
    ann.room.broadcast({"ok": 1}, hub.now)
    hub.wait(4)
    assert (0, {"ok": 1}) in bob.received_games() and (0, {"ok": 1}) in cat.received_games()
    # a damaged save is a TableRoomError, never anything else
    good = ann.room.to_dict()
    for damage in ({}, {**good, "key": "zz"}, {**good, "seat": 5}, {**good, "roster": {"room": "x"}},
                   {**good, "links": {"1": {"format": 1}}}, {**good, "agreed": {"1": "x"}},
                   {**good, "key": bob.room.key.secret_hex}, {**good, "started": "yes"}, []):
        with pytest.raises(TableRoomError):
            TableRoom.from_dict(damage, hub.now)
    # a link swapped in from another pair is refused too
    swapped = {**good, "links": {"1": good["links"]["2"], "2": good["links"]["1"]}}
    with pytest.raises(TableRoomError):
        TableRoom.from_dict(swapped, hub.now)
    # local misuse
    with pytest.raises(TableRoomError):
        ann.room.send(0, {"me": 1}, hub.now)
    with pytest.raises(TableRoomError):
        TableRoom.join(ann.room.room, "short", "Eve", hub.now)


def test_save_and_restore_round_trip() -> None:
    hub, browsers = full_table(4)
    for b in browsers:
        data = json.loads(json.dumps(b.room.to_dict()))
        again = TableRoom.from_dict(data, hub.now)
        assert again.to_dict() == b.room.to_dict()
        assert again.seat == b.room.seat and again.my_id == b.room.my_id and again.started
        assert again.missing == tuple(p for p in range(4) if p != b.room.seat)  # offline until called again


def test_every_pair_link_has_its_own_keys() -> None:
    hub, browsers = full_table(4)
    rooms = {link.room for b in browsers for link in b.room.links.values()}
    assert len(rooms) == 6  # one link room per pair, the same at both ends
    for a, b in itertools.combinations(browsers, 2):
        la, lb = a.room.links[b.room.seat], b.room.links[a.room.seat]  # type: ignore[index]
        assert la.room == lb.room and la.peer_commit == lb.commit and lb.peer_commit == la.commit
    commits = [link.commit for b in browsers for link in b.room.links.values()]
    assert len(set(commits)) == 12


def test_a_roster_must_give_each_seat_its_keys_id() -> None:
    hub, browsers = full_table(3)
    ann, bob, cat = browsers
    assert ann.room.roster is not None
    room, secret, good = ann.room.room, ann.room.secret, ann.room.roster.to_json()
    assert read_roster(good, room, secret) == ann.room.roster
    forged = json.loads(json.dumps(good))
    forged["seats"][2]["id"] = forged["seats"][1]["id"]  # Cat's seat, dialled at Bob's browser
    twice = json.loads(json.dumps(good))
    twice["seats"][2] = {**twice["seats"][1], "name": "Cat"}
    too_many = json.loads(json.dumps(good))
    too_many["seats"].append(too_many["seats"][2])
    nameless = json.loads(json.dumps(good))
    nameless["seats"][1]["name"] = "\u202eboB"
    for bad in (forged, twice, too_many, nameless, {**good, "room": "rother-room"}, {**good, "rules": {"players": 5}},
                {**good, "extra": 1}, [], {**good, "seats": [{"name": "A", "pub": "x", "id": "y"}]}):
        with pytest.raises(ProtocolError):
            read_roster(bad, room, secret)
    with pytest.raises(ProtocolError):
        read_roster(good, room, new_room_secret())  # ids made with another secret
    # announced by the host's (modified) browser before the start, a forged id is refused, not taken
    hub2 = Hub()
    host = open_table(hub2, Rules(players=3))
    bob2 = arrive(hub2, host, "Bob")
    cat2 = Browser(TableRoom.join(host.room.room, host.room.secret, "Cat", hub2.now))

    def forge(sender: str, receiver: str, text: str) -> str | None:
        payload = payload_of(text)
        if sender == host.id and receiver == bob2.id and payload and payload.get("t") == "roster":
            payload["roster"]["seats"][2]["id"] = "cribbage-t" + "0" * 32
            return with_payload(text, payload)
        return text

    hub2.tamper = forge
    assert hub2.register(cat2)
    hub2.wait(5)
    assert bob2.room.roster is not None and len(bob2.room.roster.seats) == 2 and not bob2.room.started
    assert any("not its key's" in t for t in problems(bob2))


def test_messages_from_a_seat_that_started_first_wait_for_this_seats_start() -> None:
    hub = Hub()
    host = open_table(hub, Rules(players=3))
    bob = arrive(hub, host, "Bob")
    dropped: list[str] = []

    def lose_one(sender: str, receiver: str, text: str) -> str | None:
        payload = payload_of(text)
        if sender == host.id and receiver == bob.id and payload and payload.get("t") == "agree" and not dropped:
            dropped.append(text)
            return None  # the host's digest to Bob is lost once (its link sends it again after a resync)
        return text

    hub.tamper = lose_one
    cat = arrive(hub, host, "Cat")
    hub.pump()
    assert dropped and host.room.started and cat.room.started and not bob.room.started
    cat.room.broadcast({"early": 1}, hub.now)
    hub.pump()
    assert bob.received_games() == [] and bob.room.buffered == [(2, {"early": 1})]
    hub.wait(5)
    assert bob.room.started
    kinds = [type(e).__name__ for e in bob.events if type(e).__name__ in ("MeshReady", "Received")]
    assert kinds == ["MeshReady", "Received"] and bob.received_games() == [(2, {"early": 1})]


class Refuser(Endpoint):
    """Whoever holds a free id and answers every call with a refusal (no proof of anything)."""

    def __init__(self, hub: Hub, ident: str) -> None:
        self.id = ident
        self.calls: list[str] = []
        self._out: list[tuple[str, str]] = []
        assert hub.register(self)

    def opened(self, peer: str, binding: Binding, now: float) -> None:
        self.calls.append(peer)
        self._out.append((peer, json.dumps({"v": 3, "k": "refuse", "reason": "room"})))

    def outgoing(self) -> list[tuple[str, str]]:
        out, self._out = self._out, []
        return out


def test_a_refusal_from_a_stranger_on_a_free_id_does_not_close_a_pair_for_good() -> None:
    hub, browsers = full_table(4)
    bob = browsers[1]
    hub.kill(bob.id)
    hub.pump()
    stranger = Refuser(hub, bob.id)
    hub.wait(4)
    assert {browsers[2].id, browsers[3].id} <= set(stranger.calls)  # Cat and Dan called it and were refused
    assert all(1 in b.room.missing for b in browsers[2:])
    hub.kill(stranger.id)
    back = Browser(TableRoom.from_dict(bob.save, hub.now))
    assert hub.register(back)
    hub.wait(4)
    assert all_live([browsers[0], back, browsers[2], browsers[3]])


class Squatter(Endpoint):
    """Whoever holds a free seat id, says nothing, and calls ``targets`` again the moment a call closes."""

    def __init__(self, hub: Hub, ident: str, targets: tuple[str, ...] = ()) -> None:
        self.id, self.hub, self.targets = ident, hub, targets
        self.open: dict[str, float] = {}
        self.held: list[tuple[str, float, float]] = []
        """(peer, opened, closed) of every channel."""
        assert hub.register(self)

    def opened(self, peer: str, binding: Binding, now: float) -> None:
        self.closed(peer, now)  # (a call again on the same pair of ids replaces the channel)
        self.open[peer] = now

    def closed(self, peer: str, now: float) -> None:
        if peer in self.open:
            self.held.append((peer, self.open.pop(peer), now))

    def dials(self, now: float) -> list[str]:
        return [t for t in self.targets if t not in self.open]


@pytest.mark.parametrize("where", ["lower", "higher"])
def test_a_stranger_on_a_free_id_holds_a_pair_seconds_at_a_time_however_often_it_calls(where: str) -> None:
    hub, browsers = full_table(4)
    ann, bob, cat, dan = browsers
    away = bob if where == "lower" else cat  # Bob is called by Cat and Dan; Cat calls Ann and Bob
    saved = json.loads(json.dumps(away.save))
    hub.kill(away.id)
    hub.pump()
    first = hub.now
    stranger = Squatter(hub, away.id, () if away is bob else (ann.id, bob.id))
    hub.wait(60)
    for peer in stranger.open:
        stranger.held.append((peer, stranger.open[peer], hub.now))
    faces = {cat.id, dan.id} if away is bob else {ann.id, bob.id, dan.id}  # (Dan calls Cat's id)
    assert {peer for peer, _, _ in stranger.held} == faces  # every seat it faces was held, and let go
    late = [(b - a) for _, a, b in stranger.held if a >= first + UNPROVEN_TIMEOUT]
    assert len(late) >= 10 and max(late) <= SCREEN_GRACE + 0.5  # its first 10 s spent, 3 s a call at most
    assert sum(b - a for _, a, b in stranger.held) <= 2 * UNPROVEN_TIMEOUT + len(late) * (SCREEN_GRACE + 0.5)
    # the seat itself comes back at once (the stranger's time spent) and proves within a round trip
    hub.kill(stranger.id)
    back = Browser(TableRoom.from_dict(saved, hub.now))
    assert hub.register(back)
    hub.wait(4)
    everyone = [back if b is away else b for b in browsers]
    assert all_live(everyone) and all(b.room.missing == () for b in everyone)


def test_game_messages_arrive_at_every_other_seat_in_order_through_a_kill_and_restore() -> None:
    """The API the web wiring uses: MeshReady, then send/broadcast arrive as Received(seat, payload) at
    every other seat, exactly once, in each sender's order; what was sent to a seat while it was away
    (and what it sent and saved before it died) is delivered when it is back: the game never resends."""
    hub, browsers = full_table(4)
    for b in browsers:
        ready = [e for e in b.events if isinstance(e, MeshReady)]
        assert len(ready) == 1 and ready[0].seat == b.room.seat and ready[0].seats == (0, 1, 2, 3)
    sent: dict[int, list[dict[str, object]]] = {p: [] for p in range(4)}
    to_cat: list[dict[str, object]] = []
    gone = browsers[2]

    def speak(b: Browser, i: int) -> None:
        seat = b.room.seat
        assert seat is not None
        msg = {"from": seat, "i": i}
        b.room.broadcast(msg, hub.now)
        sent[seat].append(msg)
        if seat == 3:  # a private message too, interleaved with Dan's broadcasts
            b.room.send(2, {"only": "cat", "i": i}, hub.now)
            to_cat.append({"only": "cat", "i": i})

    for i in range(6):
        for b in browsers:
            speak(b, i)
        if i == 2:
            gone.room.broadcast({"from": 2, "i": "unsent"}, hub.now)  # queued, saved, never written: it dies
            sent[2].append({"from": 2, "i": "unsent"})
            saved = json.loads(json.dumps(gone.room.to_dict()))
            gone.room.pop_outgoing()
            hub.kill(gone.id)
            browsers = [b for b in browsers if b is not gone]
        hub.pump()
    assert all(2 in b.room.missing for b in browsers)
    back = Browser(TableRoom.from_dict(saved, hub.now))
    assert hub.register(back)
    hub.wait(4)
    for i in range(6, 8):
        for b in [*browsers, back]:
            speak(b, i)
        hub.pump()
    everyone = [*browsers, back]
    for b in everyone:
        got = b.received_games() if b is not back else gone.received_games() + back.received_games()
        for p in range(4):
            if p != b.room.seat:
                want = sent[p] + (to_cat if b is back and p == 3 else [])
                from_p = [m for q, m in got if q == p]
                if b is back and p == 3:  # one link carries both, in Dan's order of sending
                    want = sorted(want, key=lambda m: (m["i"], "only" in m))
                assert from_p == want, (b.room.seat, p)
    # the restored seat got what it had received before it died only once (its save holds the counters)
    assert not any(isinstance(e, MeshReady) for e in back.events) and back.room.started


def test_a_seat_that_stops_tells_every_seat_why_even_one_away_when_it_comes_back() -> None:
    hub, browsers = full_table(4)
    ann, bob, cat, dan = browsers
    saved = json.loads(json.dumps(dan.save))
    hub.kill(dan.id)  # Dan is away when Bob leaves
    hub.pump()
    bob.room.leave(hub.now)
    hub.pump()
    said = f"Bob (seat 2) stopped the table: {ABORTS['left']}."
    assert stops(bob) == ["You left the table."]
    assert stops(ann) == [said] and stops(cat) == [said]
    with pytest.raises(TableRoomError):
        ann.room.broadcast({"play": 1}, hub.now)
    # Dan comes back to a table that stopped: the seats he calls tell him why, rather than go quiet
    back = Browser(TableRoom.from_dict(saved, hub.now))
    assert hub.register(back)
    hub.wait(4)
    assert stops(back) == [said] and back.room.status_text == said
    assert not back.received_games()
    # and once everyone has been told, nobody calls anyone again
    hub.wait(4)
    calls = len(hub.dialled)
    hub.wait(10)
    assert len(hub.dialled) == calls


def test_the_host_frees_a_seat_whose_browser_never_links_and_the_table_fills_and_starts() -> None:
    hub = Hub()
    ann = open_table(hub, Rules(players=4))
    bob = arrive(hub, ann, "Bob")
    bob_saved = json.loads(json.dumps(bob.save))
    hub.kill(bob.id)  # Bob's browser took seat 2 and is gone for good
    cat, dan = arrive(hub, ann, "Cat"), arrive(hub, ann, "Dan")
    hub.wait(6)
    assert ann.room.roster is not None and ann.room.roster.full and not ann.room.started
    waits = ann.room.waiting(hub.now)
    assert list(waits) == [1] and waits[1] >= 6  # the page can offer to free Bob's seat
    assert list(cat.room.waiting(hub.now)) == [1] and list(dan.room.waiting(hub.now)) == [1]
    with pytest.raises(TableRoomError):
        cat.room.free_seat(1, hub.now)  # only the host
    cat_dan = cat.room.links[3]
    ann.room.free_seat(1, hub.now)
    hub.wait(2)
    names = ["Ann", "Cat", "Dan"]
    for b, seat in ((ann, 0), (cat, 1), (dan, 2)):  # every seat took the new roster: the later seats moved down
        assert b.room.seat == seat and b.room.roster is not None
        assert [s.name for s in b.room.roster.seats] == names and b.room.stopped is None
        assert isinstance([e for e in b.events if isinstance(e, RosterChanged)][-1], RosterChanged)
    assert cat.room.links[2] is cat_dan and cat_dan.state == "live"  # Cat and Dan's link is as it was
    assert ann.room.waiting(hub.now) == {} and ann.room.missing == (3,)
    # the next newcomer takes the last seat and the table starts, everyone agreeing
    eve = arrive(hub, ann, "Eve")
    hub.wait(3)
    everyone = [ann, cat, dan, eve]
    assert eve.room.seat == 3 and all(b.room.started and b.room.stopped is None for b in everyone)
    assert all(b.room.roster == ann.room.roster for b in everyone)
    cat.room.broadcast({"hi": 1}, hub.now)
    hub.pump()
    assert all(b.received_games() == [(1, {"hi": 1})] for b in (ann, dan, eve))
    with pytest.raises(TableRoomError):
        ann.room.free_seat(3, hub.now)  # not after the start
    # Bob's browser comes back (the host reloaded meanwhile): the host tells it, in a sentence
    hub.kill(ann.id)
    ann = Browser(TableRoom.from_dict(json.loads(json.dumps(ann.save)), hub.now))
    assert hub.register(ann)
    hub.wait(4)
    everyone = [ann, cat, dan, eve]
    back = Browser(TableRoom.from_dict(bob_saved, hub.now))
    assert hub.register(back)
    hub.wait(4)
    assert stops(back) == [FREED_TEXT] and back.room.status_text == FREED_TEXT
    assert all(b.room.stopped is None and b.room.missing == () for b in everyone)


def test_a_freed_seat_voids_agreements_to_the_full_table_still_on_their_way() -> None:
    hub = Hub()
    ann = open_table(hub, Rules(players=4))
    bob = arrive(hub, ann, "Bob")
    hub.kill(bob.id)  # seat 2 taken by a browser gone for good
    cat = arrive(hub, ann, "Cat")
    held: list[str] = []

    def hold_dans_agreement(sender: str, receiver: str, text: str) -> str | None:
        payload = payload_of(text)
        if receiver == cat.id and sender != ann.id and payload and payload.get("t") == "agree" and not held:
            held.append(text)
            return None  # lost once: Dan's link sends it again after the free, digest of the old table
        return text

    hub.tamper = hold_dans_agreement
    dan = arrive(hub, ann, "Dan")
    hub.pump()
    assert held and 3 not in cat.room.agreed
    ann.room.free_seat(1, hub.now)
    hub.wait(5)  # (Dan's link resends the old agreement to Cat: void)
    assert cat.room.agreed == {} and cat.room.stopped is None
    eve = arrive(hub, ann, "Eve")
    hub.wait(3)
    assert all(b.room.started and b.room.stopped is None for b in (ann, cat, dan, eve))
