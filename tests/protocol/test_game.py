"""The online protocol under CPython (no socket, no browser): two peers in one process play whole
matches over the proven deal; fuzzed and replayed payloads change nothing; moves out of turn stop the
match before anything computed from them is sent; saves resume. The cheats: test_cheats.py."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cribbage.actions import Play
from cribbage.match import SaveError
from cribbage.online import AuditFailure, ProtocolError
from cribbage.online.game import MESSAGE_KINDS, REPLAY_SLICE, OldProtocolSave, OnlineGame
from cribbage.online.game_save import checksum as _checksum
from cribbage.online.jobs import AheadJob, ReceiveJob, SendJob
from cribbage.online.group import MODP_TEST, Group
from cribbage.state import IllegalActionError, Phase, other

from peers import SMALL_GROUP, Table, feed, play_match, run_until
from peers import make_table as _make_table

GROUPS = (SMALL_GROUP,)


def make_table(seed: int = 0, group: Group = SMALL_GROUP, **options: Any) -> Table:
    """Two peers in the small test group (the point of these tests is the protocol, not the group)."""
    return _make_table(group=group, seed=seed, **options)


def snapshot(peer: OnlineGame) -> str:
    return json.dumps(peer.to_dict(), sort_keys=True)


def reload(peer: OnlineGame, seed: int = 0) -> OnlineGame:
    return OnlineGame.from_dict(json.loads(json.dumps(peer.to_dict())), randbelow=random.Random(seed).randrange,
                                groups=GROUPS)


def assert_same_match(table: Table) -> None:
    a, b = (p.match.state for p in table.peers)
    assert a.scores == b.scores
    assert a.hand_number == b.hand_number
    assert [str(x) for x in a.events if x.kind != "discard"] == [str(x) for x in b.events if x.kind != "discard"]


def refused(peer: OnlineGame, message: dict[str, Any], match: str = "") -> ProtocolError:
    """Refused at once by the envelope check, nothing changed."""
    before = snapshot(peer)
    with pytest.raises(ProtocolError, match=match) as info:
        peer.receive(json.loads(json.dumps(message)))
    assert snapshot(peer) == before, "a refused message changed the peer"
    return info.value


def stops(peer: OnlineGame, message: dict[str, Any], match: str) -> OnlineGame:
    """Taken by the envelope check, then refused by the queued work: a copy of ``peer`` stops the
    match (failure, evidence, an ``abort``) and sends nothing computed from the message."""
    copy, out = feed(peer, message)
    assert copy.failure is not None and match in copy.failure, copy.failure
    assert [m["t"] for m in out] == ["abort"], out
    assert copy.legal_actions() == [] and not copy.busy
    return copy


# --- whole matches ----------------------------------------------------------------------------------


def hidden_guard(table: Table) -> Any:
    """Before every delivery: no card in clear, and a share for a slot of the sender's hand or
    discards only when the rules open it (a card laid, the crib turned over, the end of the match)."""

    def check(receiver: int, message: dict[str, Any]) -> None:
        peer = table.peers[receiver]
        them = other(receiver)
        st = peer.match.state
        rec = peer.pack
        for v in message.values():
            if isinstance(v, str):
                assert len(v) not in (2, 3) or v in MESSAGE_KINDS, message
        if rec is None or "shares" not in message or message["t"] == "final":
            return
        theirs = set(st.hand_slots[them])
        crib_open = st.phase is Phase.SHOW and st.show_step == 2 and bool(st.crib_unseen)
        for slot, _ in message["shares"]:
            if slot not in theirs:
                continue
            laid = message["t"] == "play" and message["slot"] == slot
            crib = crib_open and slot in (rec.discard_slots[them] or [])
            assert laid or crib, f"{message['t']} opens slot {slot} of the other's hidden hand"

    return check


def assert_knows_no_hidden_card(peer: OnlineGame) -> None:
    st = peer.match.state
    rec = peer.pack
    if rec is None or st.is_over or peer.source.current >= len(peer.source.packs):
        return
    them = other(peer.seat)
    known = peer.source.packs[peer.source.current]
    opened = {s for s in st.hand_slots[them] if s in known}
    assert opened <= set(rec.laid[them]), (opened, rec.laid[them])
    if st.phase in (Phase.DISCARD, Phase.CUT_STARTER, Phase.PLAY) or (st.phase is Phase.SHOW and st.crib_unseen):
        assert not set(rec.discard_slots[them] or []) & set(known), "a discard of the other is known"


@pytest.fixture(scope="module")
def finished() -> tuple[Table, int]:
    """A whole match (seed 1), every delivery checked for hidden cards and replayed once (refused)."""
    table = make_table(seed=1)
    guard = hidden_guard(table)
    replays = 0

    def deliver(receiver: int, message: dict[str, Any]) -> None:
        nonlocal replays
        guard(receiver, message)
        for peer in table.peers:
            assert_knows_no_hidden_card(peer)
        peer = table.peers[receiver]
        previous = [m.message for m in table.log if m.receiver == receiver and m.message["m"] == message["m"]]
        if previous:
            refused(peer, previous[-1], "replayed")
            replays += 1

    table.on_deliver = deliver
    play_match(table, random.Random(1))
    table.on_deliver = None
    return table, replays


def check_whole_match(table: Table) -> None:
    a, b = table.peers
    assert a.failure is None and b.failure is None
    assert a.match.state.is_over and b.match.state.is_over
    assert not a.audit_pending and not b.audit_pending
    assert a.verification == b.verification == "verified"
    assert a.match.state.winner == b.match.state.winner
    assert max(a.match.state.scores) >= 121
    assert_same_match(table)
    # Both sides hold the same proven packs, and every card opened on both sides is the same.
    played = a.source.current + 1
    assert len(a.records) == len(b.records) >= played  # (the pack ahead may have been begun)
    assert [r.deck2 for r in a.records[:played]] == [r.deck2 for r in b.records[:played]]
    assert all(r.ready and r.ended and r.deck1 is None for r in a.records[:played])
    for known_a, known_b in zip(a.source.packs, b.source.packs):
        common = set(known_a) & set(known_b)
        assert {s: known_a[s] for s in common} == {s: known_b[s] for s in common}
    kinds = {m.message["t"] for m in table.log}
    assert kinds >= {"key", "shuffle", "ready", "cutdeal", "cut", "discard", "starter", "play", "count", "shares",
                     "next", "final"}
    assert "abort" not in kinds


def test_two_peers_play_a_whole_match_to_121_and_replays_are_refused(finished: tuple[Table, int]) -> None:
    table, replays = finished
    check_whole_match(table)
    assert replays > 100


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3])
def test_more_whole_matches(seed: int) -> None:
    table = make_table(seed=seed)
    table.on_deliver = hidden_guard(table)
    play_match(table, random.Random(seed))
    check_whole_match(table)


def test_the_go_replay_of_a_long_match_yields_between_slices(finished: tuple[Table, int]) -> None:
    """Replaying a whole match to judge its Gos is cut into slices, so no browser frame is long."""
    peer = finished[0].peers[0]
    actions = len(peer.match.actions)
    assert actions > 5 * REPLAY_SLICE
    slices = sum(1 for _ in peer._job_audit(False))
    assert slices == actions // REPLAY_SLICE


def test_a_save_resumes_the_match_at_any_point() -> None:
    table = make_table(seed=8)
    rng = random.Random(8)
    reloads = 0

    def maybe_reload(t: Table) -> None:
        nonlocal reloads
        if rng.random() < 0.15:
            seat = rng.randrange(2)
            peer = t.peers[seat]
            data = json.loads(json.dumps(peer.to_dict()))
            _check_save_hides_the_other_hand(peer, data)
            t.peers[seat] = OnlineGame.from_dict(data, randbelow=random.Random(reloads).randrange, groups=GROUPS)
            assert snapshot(t.peers[seat]) == json.dumps(data, sort_keys=True)
            reloads += 1

    play_match(table, rng, before_act=maybe_reload)
    assert reloads > 10
    assert all(p.match.state.is_over and p.failure is None and p.verification == "verified" for p in table.peers)
    assert_same_match(table)


def _check_save_hides_the_other_hand(peer: OnlineGame, data: dict[str, Any]) -> None:
    st = peer.match.state
    if peer.pack is None or st.is_over:
        return
    them = other(peer.seat)
    start = peer.pack.start_action
    current = {slot for i, slot, _ in data["learned"] if i >= start}
    for slot in st.hand_slots[them]:
        if slot in current:
            assert slot in peer.pack.laid[them]
    assert "seed" not in data
    # The other's secret never reaches this browser: only its public share.
    assert set(data) >= {"secret", "other_share"}


# --- fuzz ---------------------------------------------------------------------------------------


def mutations(message: dict[str, Any], rng: random.Random) -> list[Any]:
    out: list[Any] = []
    junk: list[Any] = [None, True, -1, 0, 1, 51, 52, 10**30, 1.5, "", "x" * 400, [], {}, [[]], [[1, "a"]],
                       "A" * 64, ["A" * 64], [[0, "A" * 64, []]], [[0, "AA==", ["AA==", "AA=="]]]]
    for key in message:
        for value in rng.sample(junk, 4):
            out.append({**message, key: value})
        out.append({k: v for k, v in message.items() if k != key})
    out.append({**message, "extra": 1})
    for key, value in message.items():
        if type(value) is int:
            out.append({**message, key: value + 1})
            out.append({**message, key: value - 1})
        if isinstance(value, list) and value:
            shuffled = list(value)
            rng.shuffle(shuffled)
            out.append({**message, key: shuffled})
            out.append({**message, key: value[:-1]})
            out.append({**message, key: value + value[:1]})
            if isinstance(value[0], list) and len(value[0]) >= 2 and isinstance(value[0][1], str):
                text = value[0][1]
                flipped = text[:10] + ("B" if text[10] != "B" else "C") + text[11:]
                out.append({**message, key: [[value[0][0], flipped, *value[0][2:]], *value[1:]]})
        if isinstance(value, dict) and value:
            name = rng.choice(sorted(value))
            out.append({**message, key: {**value, name: "A" * 8}})
            out.append({**message, key: {k: v for k, v in value.items() if k != name}})
        if isinstance(value, str) and len(value) > 10:
            out.append({**message, key: value[:-2] + "AA"})
    out += [None, 3, "text", [], {"t": "play"}, {"t": 5, "m": 0}, {"t": "reveal", "m": 0, "pack": 0, "key": "00"}]
    return out


def test_fuzzed_messages_never_crash_a_peer() -> None:
    """A mutated payload is refused at once (nothing changed) or taken: then the queued work either
    passes it (another valid move) or stops the match with a clear failure, never a crash."""
    table = make_table(seed=58)
    rng = random.Random(58)
    tried = accepted = stopped = 0

    def deliver(receiver: int, message: dict[str, Any]) -> None:
        nonlocal tried, accepted, stopped
        if rng.random() > 0.07:
            return
        peer = table.peers[receiver]
        data = json.dumps(peer.to_dict())
        for bad in rng.sample(mutations(message, rng), 6):
            clone = OnlineGame.from_dict(json.loads(data), groups=GROUPS)
            before = snapshot(clone)
            try:
                clone.receive(json.loads(json.dumps(bad)))
            except ProtocolError:
                assert snapshot(clone) == before
            else:
                clone.run_all()
                out = clone.take_outbox()
                if clone.failure is not None:
                    assert "failed in its own work" not in clone.failure, clone.failure
                    if clone.failure != "the other browser stopped the match":
                        assert out[-1]["t"] == "abort"
                    stopped += 1
                else:
                    accepted += 1  # e.g. another legal cut depth: a different but valid move
            tried += 1

    table.on_deliver = deliver
    play_match(table, rng)
    assert tried > 50, tried
    assert accepted < tried // 5
    assert stopped > 0


def test_random_payloads_are_refused() -> None:
    peer = make_table(seed=59).peers[1]
    rng = random.Random(59)
    before = snapshot(peer)
    for _ in range(300):
        kind = rng.choice(sorted(MESSAGE_KINDS) + ["zz", "", "reveal"])
        message: dict[str, Any] = {"t": kind, "m": rng.choice([0, 1, -1, "0"]), "n": rng.choice([0, 0, 1, None])}
        for key in rng.sample(["pack", "step", "cards", "depth", "shares", "slots", "slot", "key", "hand", "op",
                               "reason", "share", "proof"], rng.randrange(4)):
            message[key] = rng.choice([0, 3, 51, "x", None, [], [0, 1], [[0, "A" * 44, []]], ["A" * 44] * 52, {}])
        try:
            peer.receive(message)
        except ProtocolError:
            assert snapshot(peer) == before
            continue
        peer.run_all()
        assert peer.failure is None or "failed in its own work" not in peer.failure, peer.failure
        peer = make_table(seed=59).peers[1]
        before = snapshot(peer)


# --- moves out of turn ------------------------------------------------------------------------------


def test_local_intents_out_of_turn_are_refused() -> None:
    table = make_table(seed=60)
    table.pump()
    second = table.peers[1]
    with pytest.raises(IllegalActionError):
        second.act(second.match.state.legal_actions(0)[0])
    with pytest.raises(IllegalActionError):
        second.accept_next_hand()
    with pytest.raises(IllegalActionError):
        second.answer_new_match(True)


def at_play(seed: int) -> tuple[Table, random.Random]:
    table = make_table(seed=seed)
    rng = random.Random(seed)
    run_until(table, rng, lambda: table.peers[1].match.state.phase is Phase.PLAY
              and table.peers[1].match.state.to_play == 1 and table.peers[1].waiting_for() is None
              and bool(table.peers[1].match.state.playable(1)))
    return table, rng


def shares_of(peer: OnlineGame, slots: list[int]) -> dict[str, Any]:
    """The ``shares`` and ``proof`` fields of a payload opening ``slots`` with ``peer``'s true shares."""
    k = peer.source.current
    cts = [peer.records[k].deck2[s] for s in slots]  # type: ignore[index]
    return peer.keys.prove_shares(k, slots, cts, [peer.keys.my_share(ct) for ct in cts],
                                  random.Random(sum(slots)).randrange).to_wire(peer.group)


def test_actions_out_of_turn_stop_the_match() -> None:
    table, _ = at_play(64)
    honest = table.peers[0]
    st = honest.match.state
    assert st.to_play == 1
    k = honest.source.current
    base = {"m": 0, "n": honest.received, "pack": k}
    # The envelope: refused at once, nothing changed.
    refused(honest, {**base, "n": honest.received + 1, "t": "go"}, "replayed or lost")
    refused(honest, {**base, "m": 1, "t": "go"}, "match 1")
    refused(honest, {**base, "t": "reveal", "key": "00"}, "unknown message kind")
    refused(honest, {**base, "t": "go", "slot": 3}, "wrong fields")
    # The move: taken, then refused by the queued work, which stops the match.
    stops(honest, {**base, "t": "count", "shares": [], "proof": []}, "out of turn")
    stops(honest, {**base, "t": "starter", "depth": 10, "shares": [], "proof": []}, "not legal now")
    stops(honest, {**base, "t": "cut", "depth": 10, "shares": [], "proof": []}, "not legal now")
    stops(honest, {**base, "t": "shares", "shares": [], "proof": []}, "nothing here waits")
    stops(honest, {"t": "next", "m": 0, "n": honest.received, "hand": st.hand_number}, "not waiting")
    stops(honest, {**base, "pack": k + 1, "t": "go"}, "pack in play")
    stops(honest, {**base, "t": "final", "shares": [], "proof": []}, "has not ended")
    stops(honest, {**base, "t": "ready"}, "out of turn")
    stops(honest, {"t": "newmatch", "m": 0, "n": honest.received, "op": "accept"}, "not made")


def test_a_second_card_laid_out_of_turn_stops_the_match() -> None:
    table, _ = at_play(65)
    honest, cheater = table.peers
    cheater.act(Play(1, cheater.match.state.playable(1)[0]))
    table.pump()
    st = honest.match.state
    if st.phase is not Phase.PLAY or st.to_play != 0:
        pytest.skip("the count did not pass to the honest player")
    rec = cheater.pack
    assert rec is not None
    slot = [s for s in cheater.match.state.hand_slots[1]
            if s not in rec.laid[1] and s not in (rec.discard_slots[1] or [])][0]
    message = {"t": "play", "m": 0, "n": honest.received, "pack": cheater.source.current, "slot": slot,
               **shares_of(cheater, [slot])}
    stops(honest, message, "out of turn")


def test_a_discard_of_a_slot_not_held_stops_the_match() -> None:
    table = make_table(seed=56)
    rng = random.Random(56)
    run_until(table, rng, lambda: table.peers[0].match.state.phase is Phase.DISCARD
              and table.peers[1].match.state.phase is Phase.DISCARD)
    honest = table.peers[0]
    st = honest.match.state
    theirs = list(st.hand_slots[1])
    mine = list(st.hand_slots[0])
    undealt = [s for s in range(52) if s not in theirs + mine][0]
    base = {"t": "discard", "m": 0, "n": honest.received, "pack": honest.source.current}
    stops(honest, dict(base, slots=[theirs[0], mine[0]]), "not two slots dealt")
    stops(honest, dict(base, slots=[theirs[0], undealt]), "not two slots dealt")
    stops(honest, dict(base, slots=[theirs[0], theirs[0]]), "not two slots dealt")
    refused(honest, dict(base, slots=[theirs[0]]), "two slots")


def test_play_is_a_card_laid_only_with_its_slot() -> None:
    table, _ = at_play(62)
    cheater = table.peers[1]
    card = cheater.match.state.playable(1)[0]
    cheater.act(Play(1, card))
    cheater.run_all()
    sent = cheater.take_outbox()[-1]
    assert sent["t"] == "play" and set(sent) == {"t", "m", "n", "pack", "slot", "shares", "proof"}
    assert [entry[0] for entry in sent["shares"]] == [sent["slot"]]
    assert card.code not in json.dumps(sent)


def test_the_next_pack_is_shuffled_during_the_show_but_dealt_only_once_both_accept() -> None:
    table = make_table(seed=66)
    rng = random.Random(66)
    run_until(table, rng, lambda: all(p.match.state.hand_number == 2 for p in table.peers), limit=5000)
    table.pump()
    assert all(p.pack is not None and p.pack.ready for p in table.peers)  # shuffled already
    assert all(len(p.records) == p.source.current + 2 for p in table.peers)  # and the one after is begun
    pone_seat = table.peers[0].match.state.pone
    assert pone_seat is not None
    pone, dealer = table.peers[pone_seat], table.peers[other(pone_seat)]
    assert pone.legal_actions() == [] and pone.waiting_for() == "your acceptance of the next hand"
    k = dealer.source.current
    slots = pone.match.state.deal_slots(10)
    stops(dealer, {"t": "cut", "m": 0, "n": dealer.received, "pack": k, "depth": 10,
                   **shares_of(pone, list(slots[dealer.seat]))}, "accepted")
    pone.accept_next_hand()
    table.pump()
    assert pone.waiting_for() == "the other player to accept the next hand"
    dealer.accept_next_hand()
    table.pump()
    assert pone.waiting_for() is None and pone.legal_actions()


# --- a new match, the work, saves -----------------------------------------------------------------


def test_a_new_match_by_agreement() -> None:
    table = make_table(seed=61)
    rng = random.Random(61)
    run_until(table, rng, lambda: table.peers[0].match.state.phase is Phase.PLAY)
    a, b = table.peers
    abandoned = a.source.current
    a.offer_new_match()
    table.pump()
    assert b.new_match_offer == 0
    b.answer_new_match(True)
    assert b.settling
    # A reload while the hand abandoned waits for the other's cards.
    b = table.peers[1] = reload(b)
    assert b.settling
    table.pump()
    assert a.match_number == b.match_number == 1
    assert a.match.state.phase is Phase.CUT_FOR_DEAL and not a.match.actions
    # Both opened what they held in the hand abandoned, and each checked the other's.
    got = {(m.receiver, m.message["pack"]) for m in table.log if m.message["t"] == "final" and m.message["m"] == 0}
    assert got == {(0, abandoned), (1, abandoned)}
    assert not a.settling and not b.settling and a.failure is None and b.failure is None
    run_until(table, rng, lambda: all(p.match.state.hand_number >= 2 for p in table.peers))
    assert all(p.failure is None for p in table.peers)
    assert_same_match(table)


def test_a_new_match_after_a_stopped_one() -> None:
    table, _ = at_play(67)
    honest, other_peer = table.peers
    other_peer._stop("gone\u0000 away", {})
    table.pump()
    assert honest.failure == "the other browser stopped the match" and honest.peer_reason == "gone away"
    other_peer.offer_new_match()
    table.pump()
    honest.answer_new_match(True)
    table.pump()
    assert honest.match_number == other_peer.match_number == 1
    assert honest.failure is None and other_peer.failure is None
    assert all(p.records and p.records[0].ready for p in table.peers)  # the new match's first pack


def test_audit_failure_carries_structured_evidence() -> None:
    exc = AuditFailure("pack 2: slot 3", {"pack": 1, "slot": 3})
    assert isinstance(exc, ProtocolError) and exc.evidence["slot"] == 3


def test_work_is_sliced() -> None:
    table = make_table(seed=69)
    a, b = table.peers
    a.run_all(), b.run_all()
    for message in b.take_outbox():
        a.receive(message)
    ticks = iter(range(10**9))
    a.clock = lambda: float(next(ticks))
    calls = 0
    while a.step(0.0):
        calls += 1
        sent = [m["t"] for m in a.take_outbox()]
        assert "shuffle" not in sent or calls > 52
    assert calls > 52  # the first shuffle and its proof: many steps
    assert a.records[0].deck1 is not None


def test_a_damaged_save_is_refused_with_a_clear_message() -> None:
    table = make_table(seed=63, group=MODP_TEST)  # the group ``?group=test`` pages know by name
    run_until(table, random.Random(63), lambda: table.peers[0].match.state.phase is Phase.PLAY)
    data = table.peers[0].to_dict()
    assert OnlineGame.from_dict(json.loads(json.dumps(data)), groups=GROUPS).to_dict() == data
    for damage in ({"actions": data["actions"][:-1]}, {"seat": 5}, {"records": 3}, {"checksum": "0"},
                   {"version": 99}, {"format": "x"}):
        with pytest.raises(SaveError):
            OnlineGame.from_dict({**data, **damage}, groups=GROUPS)
    # A save is read in the group it names (the test group is known by name too).
    assert OnlineGame.from_dict(json.loads(json.dumps(data))).group is MODP_TEST
    # Damage under a recomputed checksum (a save edited by hand) is still refused, never a crash.
    for damage in (
        {"actions": data["actions"][1:]},
        {"actions": data["actions"] + ["xyz"]},
        {"learned": [[0, 99, "5H"]]},
        {"records": [{}]},
        {"seat": 5},
        {"secret": "A" * 8},
        {"other_share": "AA=="},
        {"group": "modp-9"},
        {"records": [dict(data["records"][0], deck2=[["AA==", "AA=="]])]},
    ):
        bad = {**data, **damage}
        bad["checksum"] = _checksum(bad)
        with pytest.raises(SaveError):
            OnlineGame.from_dict(bad, groups=GROUPS)


def test_a_save_of_the_old_protocol_cannot_resume() -> None:
    data = {"format": "cribbage-online", "version": 1, "seat": 0}
    with pytest.raises(OldProtocolSave, match="new match"):
        OnlineGame.from_dict(data)


def test_a_cut_is_sent_with_shares_computed_ahead_and_the_reply_waits_for_no_shuffle() -> None:
    """Once a pack is ready each browser computes its shares of every slot in the background, so the
    cut's shares need no new multiplication; while the pone waits for the dealer's reply, the shuffle
    of the pack after waits (the reply is checked the moment it comes); the dealer replies first,
    then checks the cut's shares, then deals."""
    table = make_table(seed=67)
    rng = random.Random(67)
    run_until(table, rng, lambda: all(p.match.state.hand_number == 2 for p in table.peers), limit=5000)
    table.pump()
    for peer in table.peers:
        if peer.can_accept_next_hand():
            peer.accept_next_hand()
    table.pump()
    pone_seat = table.peers[0].match.state.pone
    assert pone_seat is not None
    pone, dealer = table.peers[pone_seat], table.peers[other(pone_seat)]
    assert pone.pack is not None and len(pone.pack.ahead) + len(pone.pack.mine) >= 52
    ops = pone.group.ops
    muls = ops.mul
    after = pone.records[pone.source.current + 1]
    assert after.ready and after.deck2 is not None  # shuffled during the show: give it background work
    after.ahead.clear()
    pone.work.add_background(AheadJob(pone.source.current + 1))
    pone.act(next(a for a in pone.legal_actions()))
    pone.run_all()
    assert ops.mul == muls + 2, "only the batched proof's Z = x·M and k·M: every share was computed ahead"
    cut = pone.take_outbox()
    assert [m["t"] for m in cut] == ["cut"] and len(cut[0]["shares"]) == 6
    assert pone.work.bg and not pone.busy and not after.ahead  # waiting for the reply: the background waits
    dealer.receive(cut[0])
    assert dealer.step(0.0)  # the first slice: the move checked legal, the reply queued first
    first, second = dealer.work.fg[:2]
    assert isinstance(first, SendJob) and isinstance(second, ReceiveJob) and second.replied
    dealer.run_all()
    reply = dealer.take_outbox()
    assert [m["t"] for m in reply] == ["shares"] and dealer.match.state.phase is Phase.DISCARD
    pone.receive(reply[0])
    assert pone.busy
    pieces = 0
    while pone.match.state.phase is not Phase.DISCARD:  # the reply checked in a few short pieces...
        pone.step(0.0)
        pieces += 1
        assert not after.ahead, "background work ran before the reply was checked"
    assert pieces <= 4  # ...and the hand dealt, before anything else runs
    pone.run_all()
    assert len(after.ahead) == 52  # then the background work goes on


def test_a_save_built_from_kept_pieces_is_the_whole_saved_afresh_after_every_step() -> None:
    """``to_json`` keeps each deck's encoding and each pack's record between saves and writes a record
    again only when it changed: after every slice of work and every payload of three hands (a reload
    on the way), the text is the canonical JSON of the whole state, the same as a save made with
    nothing kept, and it loads back to the same text."""
    from cribbage.online.wire import canonical as _canonical

    def fresh(peer: OnlineGame) -> str:
        kept = [rec.saved for rec in peer.records], peer._deck_texts
        for rec in peer.records:
            rec.saved = None
        peer._deck_texts = {}
        try:
            return peer.to_json()
        finally:
            for rec, saved in zip(peer.records, kept[0]):
                rec.saved = saved
            peer._deck_texts = kept[1]

    saves = 0

    def check(peer: OnlineGame) -> None:
        nonlocal saves
        text = peer.to_json()
        assert text == fresh(peer), f"seat {peer.seat}: a kept piece of the save is stale"
        saves += 1

    class Stepped(Table):
        """Every slice of work one at a time, the save checked after each (a page saves between them)."""

        def pump(self) -> None:
            while True:
                moved = False
                for seat, peer in enumerate(self.peers):
                    while peer.step(0):
                        check(peer)
                    check(peer)
                    for message in peer.take_outbox():
                        self.wires[other(seat)].append(json.loads(json.dumps(message)))
                for seat in (0, 1):
                    while self.wires[seat]:
                        self.peers[seat].receive(self.wires[seat].pop(0))
                        check(self.peers[seat])
                        moved = True
                if not moved and not any(p.busy for p in self.peers):
                    return

    table = Stepped(make_table(seed=71).peers)
    rng = random.Random(71)
    run_until(table, rng, lambda: table.peers[0].match.state.hand_number >= 2)
    text = table.peers[1].to_json()
    assert text == _canonical(json.loads(text))
    table.peers[1] = again = OnlineGame.from_dict(json.loads(text), groups=GROUPS, randbelow=random.Random(1).randrange)
    assert again.to_json() == text
    run_until(table, rng, lambda: table.peers[0].match.state.hand_number >= 4)
    assert saves > 500


def test_the_deals_constants_are_made_in_the_background_in_slices_before_the_first_shuffle() -> None:
    """A new game makes the card points, the commitment generators and the generator's table in
    short pieces of its background work (a page does it while waiting for the other browser), not
    in the first shuffle's first slice; a game made once they exist has nothing to make."""
    from cribbage.online import pack, shuffle
    from cribbage.online.p256 import P256

    group = P256()  # a group of its own: its generator's table not made yet
    assert not pack.constants_ready(group)
    game = OnlineGame(0, room="warm", group=group)
    assert game.busy and game.next_job == "key"
    counts = []
    while game.busy:
        before = (group.ops.mul, group.ops.fixed)
        game.step(0)
        counts.append(group.ops.mul + group.ops.fixed - sum(before))
    # (The card points and generators may be cached already, by the group's name: the new group's
    # own table of the generator is made in slices at least.)
    assert pack.constants_ready(group) and len(counts) >= 8
    assert shuffle.generators_ready(group, pack.PACK_SIZE) and group.fixed_ready()
    assert OnlineGame(1, room="warm", group=group).work.warm is None
