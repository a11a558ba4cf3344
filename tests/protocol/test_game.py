"""The online protocol under CPython (no socket, no browser): two peers in one process play whole
matches; cheats are caught; fuzzed and replayed payloads change nothing; saves resume."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cribbage.actions import Go, Play
from cribbage.online import AuditFailure, ProtocolError, sra
from cribbage.online.game import MESSAGE_KINDS, OnlineGame
from cribbage.state import IllegalActionError, Phase, other

from peers import Table, make_table, play_match


def snapshot(peer: OnlineGame) -> str:
    return json.dumps(peer.to_dict(), sort_keys=True)


def assert_same_match(table: Table) -> None:
    a, b = (p.match.state for p in table.peers)
    assert a.scores == b.scores
    assert a.hand_number == b.hand_number
    assert [str(x) for x in a.events if x.kind != "discard"] == [str(x) for x in b.events if x.kind != "discard"]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_two_peers_play_a_whole_match_to_121(seed: int) -> None:
    table = make_table(seed=seed)
    play_match(table, random.Random(seed))
    a, b = table.peers
    assert a.failure is None and b.failure is None
    assert a.match.state.is_over and b.match.state.is_over
    assert not a.audit_pending and not b.audit_pending
    assert a.match.state.winner == b.match.state.winner
    assert max(a.match.state.scores) >= 121
    assert_same_match(table)
    # Every pack was revealed and audited on both sides; audited packs forget their secrets.
    for peer in table.peers:
        assert all(r.ended and r.cards is not None and r.key == r.key and not r.table for r in peer.records)
        assert sorted(peer.records[0].cards or []) == sorted(peer.records[-1].cards or [])
    # Both sides agree on every pack once it is revealed.
    assert [r.cards for r in a.records] == [r.cards for r in b.records]
    assert {m.message["t"] for m in table.log} >= {"shuffle", "cutdeal", "cut", "discard", "starter", "play",
                                                   "count", "shares", "reveal", "next"}


def test_a_match_in_the_real_group_deals_two_hands_and_audits_them() -> None:
    table = make_table(sra.GROUP_14, seed=7)
    rng = random.Random(7)

    def enough() -> bool:
        return all(p.match.state.hand_number >= 3 or p.match.state.is_over for p in table.peers)

    for _ in range(400):
        table.pump()
        if enough():
            break
        for peer in table.peers:
            if peer.can_accept_next_hand():
                peer.accept_next_hand()
            elif peer.legal_actions():
                peer.act(rng.choice(peer.legal_actions()))
    table.pump()
    assert enough()
    for peer in table.peers:
        assert peer.failure is None
        audited = [r for r in peer.records if r.cards is not None]
        assert len(audited) >= 3  # the cut for deal and two hands
    assert table.log[0].message["t"] == "shuffle" and len(table.log[0].message["cards"][0]) == 344


def hidden_guard(table: Table) -> Any:
    """Before every delivery: a share for a slot of the other's hand only when the rules open it."""

    def check(receiver: int, message: dict[str, Any]) -> None:
        peer = table.peers[receiver]
        them = other(receiver)
        st = peer.match.state
        rec = peer.pack
        texts = [v for v in message.values() if isinstance(v, str)]
        for v in texts:
            assert len(v) not in (2, 3) or v in MESSAGE_KINDS or v in ("offer", "accept"), message
        if rec is None or "shares" not in message:
            return
        theirs = set(st.hand_slots[them])
        crib_open = st.phase is Phase.SHOW and st.show_step == 2 and set(rec.discard_slots[them] or [])
        for slot, _ in message["shares"]:
            if slot not in theirs:
                continue
            laid = message["t"] == "play" and message["slot"] == slot
            crib = bool(crib_open) and slot in (rec.discard_slots[them] or [])
            assert laid or crib, f"{message['t']} opens slot {slot} of the other's hidden hand"

    return check


def assert_knows_no_hidden_card(peer: OnlineGame) -> None:
    st = peer.match.state
    rec = peer.pack
    if rec is None or st.play_over:
        return
    them = other(peer.seat)
    known = peer.source.packs[peer.source.current]
    opened = {s for s in st.hand_slots[them] if s in known}
    assert opened <= set(rec.laid[them]), (opened, rec.laid[them])


@pytest.mark.parametrize("seed", [4, 5])
def test_no_message_before_the_reveal_opens_a_card_of_the_other_hidden_hand(seed: int) -> None:
    table = make_table(seed=seed)
    guard = hidden_guard(table)

    def deliver(receiver: int, message: dict[str, Any]) -> None:
        guard(receiver, message)
        for peer in table.peers:
            assert_knows_no_hidden_card(peer)

    table.on_deliver = deliver
    play_match(table, random.Random(seed))
    assert all(p.match.state.is_over and p.failure is None for p in table.peers)
    # The saves too: no card of the other's hand in play, ever.
    assert len(table.log) > 100


def test_a_save_resumes_the_match_at_any_point() -> None:
    table = make_table(seed=8)
    rng = random.Random(8)
    reloads = 0

    def reload(t: Table) -> None:
        nonlocal reloads
        if rng.random() < 0.15:
            seat = rng.randrange(2)
            peer = t.peers[seat]
            data = json.loads(json.dumps(peer.to_dict()))
            _check_save_hides_the_other_hand(peer, data)
            t.peers[seat] = OnlineGame.from_dict(data, randbelow=random.Random(reloads).randrange)
            assert snapshot(t.peers[seat]) == json.dumps(data, sort_keys=True)
            reloads += 1

    play_match(table, rng, before_act=reload)
    assert reloads > 10
    assert all(p.match.state.is_over and p.failure is None for p in table.peers)
    assert_same_match(table)


def _check_save_hides_the_other_hand(peer: OnlineGame, data: dict[str, Any]) -> None:
    st = peer.match.state
    if peer.pack is None or st.play_over:
        return
    them = other(peer.seat)
    start = peer.pack.start_action
    current = {slot for i, slot, _ in data["learned"] if i >= start}
    for slot in st.hand_slots[them]:
        if slot in current:
            assert slot in peer.pack.laid[them]
    assert "seed" not in data


# --- cheats -------------------------------------------------------------------------------------


def run_until(table: Table, rng: random.Random, condition: Any, limit: int = 3000) -> None:
    for _ in range(limit):
        table.pump()
        if condition():
            return
        for seat in rng.sample((0, 1), 2):
            peer = table.peers[seat]
            if peer.can_accept_next_hand():
                peer.accept_next_hand()
            elif peer.legal_actions():
                peer.act(rng.choice(peer.legal_actions()))
                break
    raise AssertionError("condition never reached")


def test_a_go_said_while_a_card_fits_is_caught_by_the_audit() -> None:
    caught = 0
    for seed in range(20, 60):
        if caught == 3:
            return
        table = make_table(seed=seed)
        rng = random.Random(seed)
        cheater = table.peers[1]

        def can_cheat() -> bool:
            st = cheater.match.state
            return (st.phase is Phase.PLAY and st.to_play == 1 and cheater.waiting_for() is None
                    and bool(st.playable(1)))

        run_until(table, rng, lambda: can_cheat() or cheater.match.state.is_over)
        if cheater.match.state.is_over:
            continue
        st = cheater.match.state
        k = cheater.source.current
        st._go(Go(1))  # the cheater's own engine would refuse: bypass it, as a modified client would
        cheater.match.actions.append(Go(1))
        cheater._queue_send({"t": "go", "m": cheater.match_number, "pack": k}, None)
        cheater._after_apply(k)
        honest = table.peers[0]
        try:
            play_match(table, rng)
        except AssertionError:
            pass
        assert honest.failure is not None, "the audit missed a false Go"
        assert "the other player said Go at the count of" in honest.failure and "which fitted" in honest.failure
        assert honest.evidence["seat"] == 1 and honest.evidence["action"] == "go 1"
        assert cheater.failure is not None and "the other browser stopped the match" in cheater.failure
        with pytest.raises(IllegalActionError):
            honest.act(Go(0))
        if caught == 0:
            # After a caught cheat the players may still agree to start afresh.
            cheater.offer_new_match()
            table.pump()
            honest.answer_new_match(True)
            table.pump()
            assert honest.failure is None and cheater.failure is None and honest.match_number == 1
            play_match(table, rng)
            assert all(p.match.state.is_over and p.failure is None for p in table.peers)
        caught += 1
    assert caught == 3, "too few positions to cheat in"


def at_play(seed: int) -> tuple[Table, random.Random]:
    table = make_table(seed=seed)
    rng = random.Random(seed)
    run_until(table, rng, lambda: table.peers[1].match.state.phase is Phase.PLAY
              and table.peers[1].match.state.to_play == 1 and table.peers[1].waiting_for() is None
              and bool(table.peers[1].match.state.playable(1)))
    return table, rng


def refused(peer: OnlineGame, message: dict[str, Any], match: str = "") -> ProtocolError:
    before = snapshot(peer)
    with pytest.raises(ProtocolError, match=match) as info:
        peer.receive(json.loads(json.dumps(message)))
    assert snapshot(peer) == before, "a refused message changed the peer"
    return info.value


def share_text(peer: OnlineGame, slot: int) -> str:
    rec = peer.pack
    assert rec is not None and rec.second is not None
    value = sra.make_share(rec.second[slot], sra.inverse(rec.key, peer.group), None, peer.group)
    return sra.encode_element(value, peer.group)


def test_laying_a_card_never_received_is_refused_at_once() -> None:
    table, _ = at_play(50)
    cheater, honest = table.peers[1], table.peers[0]
    st = cheater.match.state
    undealt = [s for s in range(52) if s not in st.hand_slots[0] + st.hand_slots[1]][0]
    k = cheater.source.current
    message = {"t": "play", "m": 0, "n": honest.received, "pack": k, "slot": undealt, "shares": [[undealt, share_text(cheater, undealt)]]}
    refused(honest, message, "not dealt")
    # A slot of the other's own hand is no better.
    mine = [s for s in st.hand_slots[0] if s not in honest.pack.laid[0]][0]  # type: ignore[union-attr]
    refused(honest, dict(message, slot=mine, shares=[[mine, share_text(cheater, mine)]]), "not dealt")


def test_a_discarded_slot_cannot_be_laid() -> None:
    table, _ = at_play(51)
    cheater, honest = table.peers[1], table.peers[0]
    rec = cheater.pack
    assert rec is not None
    slot = (rec.discard_slots[1] or [])[0]
    message = {"t": "play", "m": 0, "n": honest.received, "pack": cheater.source.current, "slot": slot,
               "shares": [[slot, share_text(cheater, slot)]]}
    refused(honest, message, "crib")


def test_a_wrong_share_is_refused_at_once() -> None:
    table, _ = at_play(52)
    cheater, honest = table.peers[1], table.peers[0]
    rec = cheater.pack
    assert rec is not None
    slot = [s for s in cheater.match.state.hand_slots[1]
            if s not in rec.laid[1] and s not in (rec.discard_slots[1] or [])][0]
    junk = sra.encode_element(pow(sra.TEST_GROUP.points[3], 12345, sra.TEST_GROUP.p), sra.TEST_GROUP)
    message = {"t": "play", "m": 0, "n": honest.received, "pack": cheater.source.current, "slot": slot,
               "shares": [[slot, junk]]}
    refused(honest, message, "wrong decryption share")
    # A share of the right shape for another slot of the cheater's hand opens a card, but not this one:
    # it is caught when that card turns up again, or by the audit (tests/online/test_sra.py).


def test_a_false_share_for_the_starter_is_caught_by_the_audit() -> None:
    table = make_table(seed=53)
    rng = random.Random(53)
    run_until(table, rng, lambda: table.peers[0].match.state.phase is Phase.CUT_STARTER)
    pone = table.peers[0].match.state.pone
    assert pone is not None
    dealer = table.peers[other(pone)]
    original = dealer._job_send

    def lying_send(message: dict[str, Any], slots: list[int] | None) -> Any:
        if message["t"] == "shares" and slots and len(slots) == 1 and dealer.match.state.starter is not None:
            st = dealer.match.state
            used = set(st.hand_slots[0] + st.hand_slots[1]) | set(slots)
            decoy = [s for s in range(52) if s not in used][0]
            share = share_text(dealer, decoy)
            dealer._emit({**message, "shares": [[slots[0], share]]})
            return iter(())
        return original(message, slots)

    dealer._job_send = lying_send  # type: ignore[method-assign]
    try:
        play_match(table, rng)
    except (AssertionError, ProtocolError, IllegalActionError):
        pass
    victim = table.peers[pone]
    assert victim.failure is not None and "false decryption share" in victim.failure, victim.failure


def test_a_shuffle_with_a_duplicate_card_is_refused_at_once() -> None:
    table = make_table(seed=54)
    first = table.peers[0]
    first.run_all()
    message = first.take_outbox()[0]
    assert message["t"] == "shuffle" and message["step"] == 1
    cards = list(message["cards"])
    cards[5] = cards[9]
    refused(table.peers[1], dict(message, cards=cards), "twice")


def test_a_shuffle_with_a_disguised_duplicate_is_caught_by_the_audit() -> None:
    table = make_table(seed=55)
    cheater = table.peers[0]
    g = cheater.group

    def cheating_first(k: int) -> Any:
        key = sra.new_key(cheater.randbelow)
        order = sra.random_permutation(52, cheater.randbelow)
        table_a, first = yield from sra.shuffle_first(key, order, None, g)
        # Position 1 becomes the card at position 0 again, under another exponent: no equal values.
        first[1] = pow(g.points[order[0]], key + 1, g.p)
        rec = cheater.records[k]
        rec.key, rec.order, rec.table, rec.first = key, order, table_a, first
        cheater._emit({"t": "shuffle", "m": 0, "pack": k, "step": 1,
                                "cards": [sra.encode_element(v, g) for v in first]})

    cheater._job_shuffle_first = cheating_first  # type: ignore[method-assign]
    rng = random.Random(55)
    caught: list[str] = []
    try:
        run_until(table, rng, lambda: table.peers[1].failure is not None, limit=200)
    except ProtocolError as exc:  # the fake value was opened: it is no card
        caught.append(str(exc))
    failure = table.peers[1].failure
    assert caught or (failure is not None and "first shuffle" in failure), (caught, failure)


def test_a_discard_of_a_slot_not_held_is_refused() -> None:
    table = make_table(seed=56)
    rng = random.Random(56)
    run_until(table, rng, lambda: table.peers[0].match.state.phase is Phase.DISCARD
              and table.peers[1].match.state.phase is Phase.DISCARD)
    honest, cheater = table.peers
    st = honest.match.state
    theirs = list(st.hand_slots[1])
    mine = list(st.hand_slots[0])
    undealt = [s for s in range(52) if s not in theirs + mine][0]
    base = {"t": "discard", "m": 0, "n": honest.received, "pack": honest.source.current}
    refused(honest, dict(base, slots=[theirs[0], mine[0]]), "not two slots dealt")
    refused(honest, dict(base, slots=[theirs[0], undealt]), "not two slots dealt")
    refused(honest, dict(base, slots=[theirs[0], theirs[0]]), "not two slots dealt")
    refused(honest, dict(base, slots=[theirs[0]]), "two slots")


def test_every_replayed_message_is_refused_and_changes_nothing() -> None:
    table = make_table(seed=57)
    replays = 0

    def deliver(receiver: int, message: dict[str, Any]) -> None:
        nonlocal replays
        peer = table.peers[receiver]
        previous = [m.message for m in table.log if m.receiver == receiver]
        if previous:
            refused(peer, previous[-1], "replayed")
            replays += 1

    table.on_deliver = deliver
    play_match(table, random.Random(57))
    assert replays > 100


# --- fuzz ---------------------------------------------------------------------------------------


def mutations(message: dict[str, Any], rng: random.Random) -> list[Any]:
    out: list[Any] = []
    junk: list[Any] = [None, True, -1, 0, 1, 51, 52, 10**30, 1.5, "", "x" * 400, [], {}, [[]], [[1, "a"]],
                       "A" * 64, ["A" * 64]]
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
            if isinstance(value[0], list) and len(value[0]) == 2 and isinstance(value[0][1], str):
                text = value[0][1]
                flipped = text[:10] + ("B" if text[10] != "B" else "C") + text[11:]
                out.append({**message, key: [[value[0][0], flipped], *value[1:]]})
        if isinstance(value, str) and len(value) > 10:
            out.append({**message, key: value[:-2] + "AA"})
    out += [None, 3, "text", [], {"t": "play"}, {"t": 5, "m": 0}, {"t": "reveal", "m": 0, "pack": 0, "key": "00"}]
    return out


def test_fuzzed_messages_never_crash_a_peer_nor_change_it() -> None:
    table = make_table(seed=58)
    rng = random.Random(58)
    tried = accepted = 0

    def deliver(receiver: int, message: dict[str, Any]) -> None:
        nonlocal tried, accepted
        if rng.random() > 0.12:
            return
        peer = table.peers[receiver]
        data = peer.to_dict()
        for bad in rng.sample(mutations(message, rng), 8):
            clone = OnlineGame.from_dict(json.loads(json.dumps(data)))
            before = snapshot(clone)
            try:
                clone.receive(json.loads(json.dumps(bad)))
            except ProtocolError:
                assert snapshot(clone) == before
            else:
                accepted += 1  # e.g. another legal cut depth: a different but valid message
            tried += 1

    table.on_deliver = deliver
    play_match(table, rng)
    assert tried > 150
    assert accepted < tried // 5


def test_random_payloads_are_refused() -> None:
    peer = make_table(seed=59).peers[1]
    rng = random.Random(59)
    before = snapshot(peer)
    for _ in range(300):
        kind = rng.choice(sorted(MESSAGE_KINDS) + ["zz", ""])
        message: dict[str, Any] = {"t": kind, "m": rng.choice([0, 1, -1, "0"]), "n": rng.choice([0, 0, 1, None])}
        for key in rng.sample(["pack", "step", "cards", "depth", "shares", "slots", "slot", "key", "hand", "op",
                               "reason"], rng.randrange(4)):
            message[key] = rng.choice([0, 3, 51, "x", None, [], [0, 1], [[0, "A" * 64]], ["A" * 64] * 52])
        try:
            peer.receive(message)
        except ProtocolError:
            pass
        if message.get("t") in ("abort", "newmatch"):
            peer = make_table(seed=59).peers[1]
            before = snapshot(peer)
            continue
        assert snapshot(peer) == before


def test_local_intents_out_of_turn_are_refused() -> None:
    table = make_table(seed=60)
    table.pump()
    second = table.peers[1]
    with pytest.raises(IllegalActionError):
        second.act(second.match.state.legal_actions(0)[0])
    with pytest.raises(IllegalActionError):
        second.accept_next_hand()


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
    assert b._closing is not None
    # A reload while the hand abandoned waits for its audit.
    b = table.peers[1] = OnlineGame.from_dict(json.loads(json.dumps(b.to_dict())))
    assert b._closing is not None
    table.pump()
    assert a.match_number == b.match_number == 1
    assert a.match.state.phase is Phase.CUT_FOR_DEAL and not a.match.actions
    # The hand abandoned was revealed and audited on both sides.
    got = {(m.receiver, m.message["pack"]) for m in table.log if m.message["t"] == "reveal" and m.message["m"] == 0}
    assert {(0, abandoned), (1, abandoned)} <= got
    assert a._closing is None and b._closing is None and a.failure is None and b.failure is None
    play_match(table, rng)
    assert all(p.match.state.is_over and p.failure is None for p in table.peers)


def test_audit_failure_carries_structured_evidence() -> None:
    exc = AuditFailure("pack 2: slot 3", {"pack": 1, "slot": 3})
    assert isinstance(exc, ProtocolError) and exc.evidence["slot"] == 3


def test_play_is_a_card_laid_only_with_its_slot() -> None:
    table, _ = at_play(62)
    cheater = table.peers[1]
    card = cheater.match.state.playable(1)[0]
    cheater.act(Play(1, card))
    cheater.run_all()
    sent = cheater.take_outbox()[-1]
    assert sent["t"] == "play" and set(sent) == {"t", "m", "n", "pack", "slot", "shares"}
    assert card.code not in json.dumps(sent)


def test_work_is_sliced_one_power_at_a_time() -> None:
    ticks = iter(range(10**9))
    peer = OnlineGame(0, group=sra.TEST_GROUP, clock=lambda: float(next(ticks)))
    calls = 0
    while peer.step(0.0):
        calls += 1
        assert not peer.take_outbox() or calls >= 52
    assert calls >= 52  # the first shuffle: one call per power of its table
    assert peer.records[0].first is not None


def test_a_damaged_save_is_refused_with_a_clear_message() -> None:
    from cribbage.match import SaveError

    table = make_table(seed=63)
    run_until(table, random.Random(63), lambda: table.peers[0].match.state.phase is Phase.PLAY)
    data = table.peers[0].to_dict()
    assert OnlineGame.from_dict(json.loads(json.dumps(data))).to_dict() == data
    for damage in ({"actions": data["actions"][:-1]}, {"seat": 5}, {"records": 3}, {"checksum": "0"},
                   {"version": 99}, {"format": "x"}):
        bad = {**data, **damage}
        with pytest.raises(SaveError):
            OnlineGame.from_dict(bad)
    # Damage under a recomputed checksum (a save edited by hand) is still refused, never a crash.
    from cribbage.online.game import _checksum
    for damage in ({"actions": data["actions"] + ["go 1"]}, {"learned": [[0, 99, "5H"]]}, {"records": [{}]},
                   {"seat": 5}, {"group_bits": 7}):
        bad = {**data, **damage}
        bad["checksum"] = _checksum(bad)
        with pytest.raises(SaveError):
            OnlineGame.from_dict(bad)


def test_actions_out_of_turn_are_refused() -> None:
    table, _ = at_play(64)
    honest = table.peers[0]
    st = honest.match.state
    assert st.to_play == 1
    k = honest.source.current
    base = {"m": 0, "n": honest.received, "pack": k}
    refused(honest, {**base, "t": "count", "shares": []}, "out of turn")
    refused(honest, {**base, "t": "starter", "depth": 10, "shares": []}, "not legal now")
    refused(honest, {**base, "t": "cut", "depth": 10, "shares": []}, "not legal now")
    refused(honest, {**base, "t": "shares", "shares": []}, "nothing here waits")
    refused(honest, {"t": "next", "m": 0, "n": honest.received, "hand": st.hand_number}, "not waiting")
    refused(honest, {**base, "t": "reveal", "key": "0" * 62 + "05"}, "before that pack is over")
    refused(honest, {**base, "pack": k + 1, "t": "go"}, "pack in play")
    refused(honest, {**base, "n": honest.received + 1, "t": "go"}, "replayed or lost")


def test_a_second_card_laid_out_of_turn_is_refused() -> None:
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
               "shares": [[slot, share_text(cheater, slot)]]}
    refused(honest, message, "out of turn")


def test_the_next_pack_is_shuffled_during_the_show_but_dealt_only_once_both_accept() -> None:
    table = make_table(seed=66)
    rng = random.Random(66)
    run_until(table, rng, lambda: all(p.match.state.hand_number == 2 for p in table.peers), limit=5000)
    table.pump()
    assert all(p.pack is not None and p.pack.ready for p in table.peers)  # shuffled already
    pone_seat = table.peers[0].match.state.pone
    assert pone_seat is not None
    pone, dealer = table.peers[pone_seat], table.peers[other(pone_seat)]
    assert pone.legal_actions() == [] and pone.waiting_for() == "your acceptance of the next hand"
    k = dealer.source.current
    slots = pone.match.state.deal_slots(10)
    shares = [[s, share_text(pone, s)] for s in slots[dealer.seat]]
    early_cut = {"t": "cut", "m": 0, "n": dealer.received, "pack": k, "depth": 10, "shares": shares}
    refused(dealer, early_cut, "accepted")
    pone.accept_next_hand()
    table.pump()
    assert pone.waiting_for() == "the other player to accept the next hand"
    dealer.accept_next_hand()
    table.pump()
    assert pone.waiting_for() is None and pone.legal_actions()


def test_a_shuffle_that_leaves_cards_unencrypted_is_refused() -> None:
    table = make_table(seed=67)
    first, second = table.peers
    first.run_all()
    message = first.take_outbox()[0]
    g = second.group
    plain = [sra.encode_element(m, g) for m in g.points]
    refused(second, dict(message, cards=plain), "unencrypted")
    second.receive(message)
    second.run_all()
    reply = second.take_outbox()[0]
    assert reply["step"] == 2
    refused(first, dict(reply, cards=message["cards"]), "unencrypted")


def test_a_key_withheld_holds_up_the_next_deal() -> None:
    branches: set[str] = set()
    for seed in range(68, 90):
        if len(branches) == 2:
            break
        table = make_table(seed=seed)
        honest, cheater = table.peers

        def no_reveal(k: int) -> Any:
            return iter(())

        cheater._job_reveal = no_reveal  # type: ignore[method-assign]
        rng = random.Random(seed)
        run_until(table, rng, lambda: all(p.match.state.phase is Phase.CUT_PACK and p.pack is not None
                                          and p.pack.ready for p in table.peers))
        assert honest.records[0].ended and honest.records[0].other_key is None
        if honest.match.state.pone == 0:
            # The honest pone may not cut: the last pack is not audited.
            assert honest.waiting_for() == "the audit of the last pack" and honest.legal_actions() == []
            branches.add("honest pone waits")
        else:
            # The cheating pone's cut is refused.
            cheater.act(cheater.legal_actions()[0])
            with pytest.raises(ProtocolError, match="revealed its key"):
                table.pump()
            branches.add("cheater's cut refused")
    assert len(branches) == 2, branches


def test_a_cheat_in_a_hand_abandoned_by_agreement_is_still_caught() -> None:
    for seed in range(80, 120):
        table = make_table(seed=seed)
        rng = random.Random(seed)
        honest, cheater = table.peers

        def can_cheat() -> bool:
            st = cheater.match.state
            return (st.phase is Phase.PLAY and st.to_play == 1 and cheater.waiting_for() is None
                    and bool(st.playable(1)))

        run_until(table, rng, lambda: can_cheat() or cheater.match.state.is_over)
        if cheater.match.state.is_over:
            continue
        k = cheater.source.current
        cheater._job_audit = lambda k: iter(())  # type: ignore[method-assign]  # a cheat never audits itself
        cheater.match.state._go(Go(1))
        cheater.match.actions.append(Go(1))
        cheater._queue_send({"t": "go", "m": cheater.match_number, "pack": k}, None)
        cheater._after_apply(k)
        table.pump()
        if honest.match.state.is_over or cheater.match.state.is_over or honest.pack is None:
            continue
        cheater.offer_new_match()  # and hope the hand is never looked at again
        table.pump()
        honest.answer_new_match(True)
        table.pump()
        assert honest.match_number == 1
        assert honest.failure is not None and "in the match abandoned" in honest.failure, honest.failure
        assert "said Go" in honest.failure and honest.evidence["action"] == "go 1"
        return
    pytest.fail("no position to cheat in")
