"""A cheating peer against an honest one: every attack is caught before the honest browser sends
anything computed from the bad input, and the cheater never learns a hidden card of the honest one.

Each attack is scripted by tampering with a payload on the wire (:func:`peers.drive` takes it off
before delivery), by forging values with the crypto primitives, or by bypassing the cheater's own
engine. The honest side is then a copy rebuilt from its save (:func:`peers.feed`), given the bad
payload and all its work: what it sends after is exactly what it computed from that input.
"""

from __future__ import annotations

import base64
import json
import random
import re
from typing import Any

import pytest

from cribbage.actions import Go
from cribbage.online import elgamal, proofs
from cribbage.online.game import VERIFY_WAIT, OnlineGame
from cribbage.online.group import MODP_TEST, Group
from cribbage.online.p256 import P256_GROUP
from cribbage.state import Phase, other

from peers import SMALL_GROUP, Table, drive, feed, make_table, run_until


# --- what "caught in time" means --------------------------------------------------------------


def assert_stopped(copy: OnlineGame, out: list[dict[str, Any]], match: str, pack: int | None = None,
                   reply: list[int] | None = None) -> None:
    """The honest copy stopped the match (failure, evidence) and sent only an ``abort`` computed from
    the bad input (its own first shuffle of another pack, made from the public deck, may go out).

    ``reply``: the bad payload is a cut whose depth, legal, entitles the other to these slots: the
    reply opening them depends on the depth alone, not on the shares checked after, and may go first."""
    assert copy.failure is not None and re.search(match, copy.failure), copy.failure
    assert out and out[-1]["t"] == "abort", out
    if reply is not None:
        assert out[0]["t"] == "shares" and [s for s, _ in out[0]["shares"]] == reply, out[0]
        out = out[1:]
    computed = [m for m in out[:-1] if not (m["t"] == "shuffle" and m["step"] == 1 and m["pack"] != pack)]
    assert computed == [], [m["t"] for m in computed]
    assert not any(m["t"] in ("ready", "shares") or m.get("shares") for m in out)
    assert copy.legal_actions() == [] and not copy.busy


def hidden_cards(honest: OnlineGame) -> set[Any]:
    """The honest peer's cards the rules have not made public: its hand not yet laid, its discards
    before the crib is shown (of the pack in play)."""
    rec = honest.pack
    st = honest.match.state
    if rec is None or st.is_over:
        return set()
    me = honest.seat
    slots = [s for s in st.hand_slots[me] if s not in rec.laid[me]]
    if not (st.phase is Phase.SHOW and not st.crib_unseen) and st.phase is not Phase.CUT_PACK:
        slots += rec.discard_slots[me] or []
    return {honest.source.card(s) for s in slots} - {None}


def assert_cheater_learned_no_hidden_card(cheater: OnlineGame, honest: OnlineGame) -> None:
    k = honest.source.current
    if k < 0 or k >= len(cheater.source.packs):
        return
    leaked = hidden_cards(honest) & set(cheater.source.packs[k].values())
    assert not leaked, f"the cheater knows {leaked}"


def cards_of(g: Group, cts: list[tuple[Any, Any]]) -> list[list[str]]:
    return elgamal.encode_ciphertexts(g, cts)


def decode_cards(g: Group, wire: list[list[str]]) -> list[tuple[Any, Any]]:
    return [(g.decode_text(a, "a"), g.decode_text(b, "b")) for a, b in wire]


def garbage(g: Group, proof: dict[str, Any]) -> dict[str, Any]:
    """A proof of the right shape with one response replaced."""
    return {**proof, "s1": g.scalar_text(123456789)}


def shuffle_message(seat_from: int, pack: int, step: int) -> Any:
    return lambda receiver, m: (receiver == other(seat_from) and m["t"] == "shuffle"
                                and m["pack"] == pack and m["step"] == step)


# --- 1. product slots instead of a shuffle ------------------------------------------------------


def test_a_second_shuffle_of_product_slots_is_caught_before_any_share() -> None:
    table = make_table(seed=101)
    honest, cheater = table.peers  # seat 0 shuffles pack 0 first, seat 1 second
    _, message = drive(table, random.Random(101), shuffle_message(1, 0, 2))
    g = honest.group
    deck1 = honest.records[0].deck1
    assert deck1 is not None
    # slot s = (a_s + 2·a_{s-1}, b_s + 2·b_{s-1}): a decryption share of it would leak a relation
    product = [(g.add(deck1[s][0], g.mul(deck1[s - 1][0], 2)), g.add(deck1[s][1], g.mul(deck1[s - 1][1], 2)))
               for s in range(52)]
    for proof in (message["proof"], garbage(g, message["proof"])):
        copy, out = feed(honest, {**message, "cards": cards_of(g, product), "proof": proof})
        assert_stopped(copy, out, r"pack 1: the other browser's shuffle \(step 2\) is not proven", pack=0)
        assert copy.evidence["pack"] == 0 and copy.evidence["step"] == "shuffle 2"
        assert not copy.records[0].ready and copy.records[0].deck2 is None
    # Delivered for real: the honest peer stops, the cheater learns nothing.
    honest.receive({**message, "cards": cards_of(g, product)})
    table.pump()
    assert honest.failure is not None and cheater.failure == "the other browser stopped the match"
    assert all(not known for known in cheater.source.packs)


# --- 2. a first shuffle with known relations ------------------------------------------------------


def test_a_first_shuffle_with_related_values_is_caught_before_the_second_shuffle() -> None:
    table = make_table(seed=102)
    cheater, honest = table.peers  # seat 0 shuffles pack 0 first
    _, message = drive(table, random.Random(102), shuffle_message(0, 0, 1))
    g = honest.group
    deck1 = decode_cards(g, message["cards"])
    # Slot 1 encrypts 2·M where slot 0 encrypts M.
    doubled = list(deck1)
    doubled[1] = (g.mul(deck1[0][0], 2), g.mul(deck1[0][1], 2))
    # A list not derived from the public deck: fresh encryptions of points the cheater chose.
    y = cheater.keys.joint
    rng = random.Random(5)
    chosen = []
    for _ in range(52):
        r, m = g.random_scalar(rng.randrange), g.mul_gen(g.random_scalar(rng.randrange))
        chosen.append((g.mul_gen(r), g.add(m, g.mul(y, r))))
    # The public deck itself, unencrypted, and the honest list in another order.
    plain = [(g.mul_gen(1), b) for _, b in elgamal.public_deck(g, [b for _, b in deck1])]
    rotated = deck1[1:] + deck1[:1]
    for cards in (doubled, chosen, plain, rotated):
        for proof in (message["proof"], garbage(g, message["proof"])):
            copy, out = feed(honest, {**message, "cards": cards_of(g, cards), "proof": proof})
            assert_stopped(copy, out, r"pack 1: the other browser's shuffle \(step 1\) is not proven", pack=0)
            assert copy.records[0].deck1 is None and copy.records[0].deck2 is None


# --- 3. malformed lists: duplicates, a missing card, points not in the group ---------------------


def _off_curve_x() -> bytes:
    for x in range(1, 100):
        raw = bytes([2]) + x.to_bytes(32, "big")
        try:
            P256_GROUP.decode(raw)
        except ValueError:
            return raw
    raise AssertionError("every small x is on the curve")


@pytest.fixture(scope="module")
def p256_first_shuffle() -> tuple[OnlineGame, dict[str, Any]]:
    table = make_table(P256_GROUP, seed=103)
    honest = table.peers[1]
    _, message = drive(table, random.Random(103), shuffle_message(0, 0, 1))
    return honest, message


def _tamper(message: dict[str, Any], slot: int, half: int, text: str) -> dict[str, Any]:
    cards = json.loads(json.dumps(message["cards"]))
    cards[slot][half] = text
    return {**message, "cards": cards}


def test_a_shuffle_with_a_duplicate_or_a_card_outside_the_deck_is_caught_on_p256(
        p256_first_shuffle: tuple[OnlineGame, dict[str, Any]]) -> None:
    honest, message = p256_first_shuffle
    g = P256_GROUP
    cards = json.loads(json.dumps(message["cards"]))
    cards[5] = cards[9]
    copy, out = feed(honest, {**message, "cards": cards})
    assert_stopped(copy, out, r"pack 1: .*repeats an earlier ciphertext", pack=0)
    # A card replaced by an encryption of a valid point that is no card: only the proof can tell.
    outsider = g.hash_to_group(b"not a card", b"\x00")
    r = 987654321
    y = honest.keys.joint
    cards = json.loads(json.dumps(message["cards"]))
    cards[3] = [g.encode_text(g.mul_gen(r)), g.encode_text(g.add(outsider, g.mul(y, r)))]
    copy, out = feed(honest, {**message, "cards": cards})
    assert_stopped(copy, out, r"shuffle \(step 1\) is not proven", pack=0)


@pytest.mark.parametrize("what", ["off the curve", "the identity", "zero bytes", "x too large", "bad prefix"])
def test_a_shuffle_with_a_point_not_in_the_group_is_caught_on_p256(
        p256_first_shuffle: tuple[OnlineGame, dict[str, Any]], what: str) -> None:
    honest, message = p256_first_shuffle
    texts = {
        "off the curve": base64.b64encode(_off_curve_x()).decode(),
        "the identity": P256_GROUP.encode_text(P256_GROUP.identity),
        "zero bytes": base64.b64encode(bytes(33)).decode(),
        "x too large": base64.b64encode(bytes([2]) + b"\xff" * 32).decode(),
        "bad prefix": base64.b64encode(bytes([4]) + base64.b64decode(message["cards"][0][0])[1:]).decode(),
    }
    for half in (0, 1):
        copy, out = feed(honest, _tamper(message, 7, half, texts[what]))
        assert_stopped(copy, out, r"pack 1: ", pack=0)
        assert copy.evidence["step"] == "shuffle 1"


def test_a_shuffle_with_an_element_outside_the_subgroup_is_caught_in_the_test_group() -> None:
    table = make_table(seed=104)
    honest = table.peers[1]
    _, message = drive(table, random.Random(104), shuffle_message(0, 0, 1))
    g = MODP_TEST
    p = g.p  # type: ignore[attr-defined]
    non_residue = next(x for x in range(2, 100) if pow(x, (p - 1) // 2, p) != 1)
    size = g.element_bytes
    for value in (non_residue, 1, 0, p - 1 if pow(p - 1, (p - 1) // 2, p) != 1 else p, p + 2):
        text = base64.b64encode(value.to_bytes(size + 1, "big")[-size:] if value < 256 ** size
                                else b"\xff" * size).decode()
        copy, out = feed(honest, _tamper(message, 11, 1, text))
        assert_stopped(copy, out, r"pack 1: .*not a valid element", pack=0)


# --- 4. valid proofs replayed from another pack or another room ---------------------------------


def test_a_valid_shuffle_replayed_as_another_pack_is_caught() -> None:
    table = make_table(seed=105)
    honest = table.peers[1]
    _, message = drive(table, random.Random(105), shuffle_message(0, 2, 1))
    first = next(m.message for m in table.log if m.receiver == 1 and m.message["t"] == "shuffle"
                 and m.message["pack"] == 0 and m.message["step"] == 1)
    for bad in ({**message, "cards": first["cards"], "proof": first["proof"]}, {**message, "proof": first["proof"]}):
        copy, out = feed(honest, bad)
        assert_stopped(copy, out, r"pack 3: the other browser's shuffle \(step 1\) is not proven", pack=2)


def test_valid_proofs_from_another_room_are_caught() -> None:
    here, there = make_table(seed=106, room="room-a"), make_table(seed=106, room="room-b")
    # The same secrets in both rooms: the key shares and the lists are equal, only the room differs.
    _, key_here = drive(here, random.Random(1), lambda r, m: r == 1 and m["t"] == "key")
    _, key_there = drive(there, random.Random(1), lambda r, m: r == 1 and m["t"] == "key")
    assert key_here["share"] == key_there["share"] and key_here["proof"] != key_there["proof"]
    copy, out = feed(here.peers[1], key_there)
    assert_stopped(copy, out, "proof of knowledge")
    assert not copy.keys.ready
    here.peers[1].receive(key_here)
    there.peers[1].receive(key_there)
    _, shuffle_here = drive(here, random.Random(1), shuffle_message(0, 0, 1))
    _, shuffle_there = drive(there, random.Random(1), shuffle_message(0, 0, 1))
    assert shuffle_here["cards"] == shuffle_there["cards"]
    copy, out = feed(here.peers[1], shuffle_there)
    assert_stopped(copy, out, r"pack 1: the other browser's shuffle \(step 1\) is not proven", pack=0)
    copy, out = feed(here.peers[1], shuffle_here)
    assert copy.failure is None and [m["t"] for m in out] == ["shuffle"] and out[0]["step"] == 2


# --- 5. a wrong decryption share that is a valid point ------------------------------------------


@pytest.mark.parametrize("kind", ["cutdeal", "cut", "play", "starter"])
def test_a_single_false_share_in_a_batch_is_caught_before_anything_is_built_on_it(kind: str) -> None:
    """One false share among the message's (the cut's six, or one), at every place of the batch:
    with the proof of the true shares, with a proof made over the false ones by the key's owner, or
    swapped for the true share of a slot the message does not open. The batched proof fails, the
    match stops, and nothing computed from the shares goes out (a cut's reply depends on its depth
    alone: it may go first)."""
    table = make_table(SMALL_GROUP, seed=107)
    receiver, message = drive(table, random.Random(107), lambda r, m: m["t"] == kind)
    honest, cheater = table.peers[receiver], table.peers[other(receiver)]
    g = honest.group
    k = message["pack"]
    deck = cheater.records[k].deck2
    assert deck is not None
    slots = [slot for slot, _ in message["shares"]]
    values = [g.decode_text(v, "share") for _, v in message["shares"]]
    cts = [deck[s] for s in slots]
    assert len(slots) == (6 if kind == "cut" else 1)
    st = honest.match.state
    reply = {"cut": lambda: list(st.deal_slots(message["depth"])[cheater.seat]),
             "play": lambda: None}.get(kind, lambda: slots)()
    elsewhere = next(s for s in range(52) if s not in slots)
    rand = random.Random(3).randrange

    def wire(shares: list[Any]) -> list[list[Any]]:
        return [[s, g.encode_text(v)] for s, v in zip(slots, shares)]

    for bad in range(len(slots)):
        false = list(values)
        false[bad] = g.add(values[bad], g.generator)  # a valid element, not the share
        other_slots = list(values)
        other_slots[bad] = cheater.keys.my_share(deck[elsewhere])
        for tampered in ({**message, "shares": wire(false)},
                         {**message, **cheater.keys.prove_shares(k, slots, cts, false, rand).to_wire(g)},
                         {**message, **cheater.keys.prove_shares(k, slots, cts, other_slots, rand).to_wire(g)}):
            copy, out = feed(honest, tampered)
            assert_stopped(copy, out, rf"pack {k + 1}: the other browser's decryption shares of slots "
                                      rf"{re.escape(str(slots))} are not proven", reply=reply)
            assert copy.evidence == {"pack": k, "slots": slots, "step": "shares"}
            assert_cheater_learned_no_hidden_card(cheater, copy)
    # The honest one, untouched, goes on.
    copy, out = feed(honest, message)
    assert copy.failure is None


# --- 6. a rogue key share -------------------------------------------------------------------------


def test_a_rogue_key_share_is_refused_before_any_shuffle() -> None:
    table = make_table(seed=108)
    honest, cheater = table.peers
    _, message = drive(table, random.Random(108), lambda r, m: r == 0 and m["t"] == "key")
    g = honest.group
    y_honest = honest.keys.public[0]
    z = 424242
    rogue = g.sub(g.mul_gen(z), y_honest)  # the joint key would be z·G, known to the cheater
    own = proofs.prove_dlog(g, z, cheater.keys.transcript("key", 1), random.Random(1).randrange).to_wire()
    forged = [g.scalar_text(11), g.scalar_text(22)]
    for proof in (message["proof"], own, forged):
        copy, out = feed(honest, {**message, "share": g.encode_text(rogue), "proof": proof})
        assert_stopped(copy, out, "without a valid proof of knowledge")
        assert not copy.keys.ready and copy.records == []
    # The honest one's own share sent back is refused too.
    copy, out = feed(honest, {**message, "share": g.encode_text(y_honest)})
    assert_stopped(copy, out, "equals this browser's")


# --- 7, 8. a false Go, then silence ----------------------------------------------------------------


def can_cheat(cheater: OnlineGame) -> bool:
    st = cheater.match.state
    return (st.phase is Phase.PLAY and st.to_play == cheater.seat and cheater.waiting_for() is None
            and bool(st.playable(cheater.seat)))


def false_go(cheater: OnlineGame) -> None:
    """Say Go while a card fits: the cheater's own engine would refuse, so bypass it."""
    st = cheater.match.state
    k = cheater.source.current
    assert st.playable(cheater.seat)
    st._go(Go(cheater.seat))
    cheater.match.actions.append(Go(cheater.seat))
    cheater._queue_send({"t": "go", "m": cheater.match_number, "pack": k}, None)
    cheater._after_apply(k)
    cheater._job_audit = lambda final=False: iter(())  # type: ignore[method-assign]  # never judges itself


class Withholding:
    """Keeps the cheater's ``final`` off the honest peer until :meth:`release`."""

    def __init__(self, honest: OnlineGame) -> None:
        self.honest = honest
        self.held: list[dict[str, Any]] = []
        self.real = honest.receive

        def receive(message: object) -> None:
            if isinstance(message, dict) and message.get("t") == "final" and message.get("m") == 0:
                self.held.append(message)
                return
            self.real(message)

        honest.receive = receive  # type: ignore[method-assign]

    def release(self, table: Table) -> None:
        assert len(self.held) == 1
        self.real(self.held.pop())
        table.pump()


def play_on(table: Table, rng: random.Random, done: Any, limit: int = 400) -> None:
    for _ in range(limit):
        table.pump()
        if done() or any(p.failure for p in table.peers):
            return
        for seat in rng.sample((0, 1), 2):
            peer = table.peers[seat]
            if peer.can_accept_next_hand():
                peer.accept_next_hand()
            elif peer.legal_actions():
                peer.act(rng.choice(peer.legal_actions()))
                break
    raise AssertionError("stuck")


@pytest.fixture(scope="module")
def go_position() -> list[dict[str, Any]]:
    """Saves of both peers where seat 1 may lay a card (and so may falsely say Go)."""
    table = make_table(SMALL_GROUP, seed=109)
    run_until(table, random.Random(109), lambda: can_cheat(table.peers[1]))
    return [json.loads(json.dumps(p.to_dict())) for p in table.peers]


def from_saves(saves: list[dict[str, Any]], seed: int) -> Table:
    return Table([OnlineGame.from_dict(json.loads(json.dumps(s)), randbelow=random.Random(seed * 2 + i).randrange,
                                       groups=(MODP_TEST, SMALL_GROUP)) for i, s in enumerate(saves)])


def test_a_false_go_in_a_hand_that_ends_normally_is_caught_at_the_end_of_the_play(
        go_position: list[dict[str, Any]]) -> None:
    table = from_saves(go_position, 1)
    honest, cheater = table.peers
    false_go(cheater)
    sent_before = len(table.log)
    play_on(table, random.Random(1), lambda: honest.match.state.phase is not Phase.PLAY)
    assert honest.failure is not None, "the false Go was not caught"
    assert re.search(r"the other player said Go at the count of \d+ while holding .* which fitted", honest.failure)
    assert honest.evidence["seat"] == 1 and honest.evidence["action"] == "go 1"
    assert cheater.failure == "the other browser stopped the match"
    # The honest peer's last payload is its abort; nothing of the show was opened for the cheater.
    from_honest = [m.message["t"] for m in table.log[sent_before:] if m.receiver == 1]
    assert from_honest[-1] == "abort" and "count" not in from_honest
    assert_cheater_learned_no_hidden_card(cheater, honest)


def test_a_false_go_then_a_win_and_silence_is_shown_unverified_or_stands(go_position: list[dict[str, Any]]) -> None:
    seen: set[str] = set()
    for attempt in range(40):
        if seen >= {"unverified", "stands", "verified"}:
            break
        table = from_saves(go_position, 100 + attempt)
        honest, cheater = table.peers
        cheat = attempt % 3 != 2
        target = "verified" if not cheat else ("unverified" if attempt % 3 == 0 else "stands")
        if target in seen:
            continue
        # Both engines agree on scores close to the end, so the match ends during this play.
        scores = {"unverified": [100, 120], "stands": [120, 100], "verified": [120, 118]}[target]
        for p in table.peers:
            p.match.state.scores = list(scores)
        withholding = Withholding(honest)
        if cheat:
            false_go(cheater)
        rng = random.Random(attempt)
        play_on(table, rng, lambda: honest.match.state.phase is not Phase.PLAY)
        st = honest.match.state
        if not st.is_over:
            assert (honest.failure is not None) == cheat  # the play ended: caught there
            continue
        assert honest.failure is None and cheater.match.state.is_over
        got = "unverified" if st.winner == 1 else "stands"
        if not cheat:
            got = "verified"
        if got != target:
            continue
        assert withholding.held, "the cheater's final should be on its way"
        assert honest.verification == "waiting"
        honest.tick(1000.0)
        honest.tick(1000.0 + VERIFY_WAIT - 1)
        assert honest.verification == "waiting"
        honest.tick(1000.0 + VERIFY_WAIT)
        assert honest.verification == ("unverified" if st.winner == 1 else "stands")
        if cheat and st.winner == 1:
            assert honest.verification != "verified"  # never a verified win for the cheater
        # The final comes late after all.
        withholding.release(table)
        if cheat:
            assert honest.failure is not None and "said Go" in honest.failure, honest.failure
            assert honest.verification != "verified"
        else:
            assert honest.failure is None and honest.verification == "verified"
        seen.add(target)
    assert seen >= {"unverified", "stands", "verified"}, seen


def test_a_false_go_then_a_new_match_then_silence_holds_up_the_new_match(go_position: list[dict[str, Any]]) -> None:
    for attempt in range(20):
        table = from_saves(go_position, 200 + attempt)
        honest, cheater = table.peers
        withholding = Withholding(honest)
        false_go(cheater)
        table.pump()
        st = honest.match.state
        if st.phase is not Phase.PLAY or st.is_over:
            continue
        assert_cheater_learned_no_hidden_card(cheater, honest)
        cheater.offer_new_match()
        table.pump()
        honest.answer_new_match(True)
        table.pump()
        # The cheater keeps its cards to itself: the honest peer does not begin the new match.
        assert cheater.settling and not withholding.real.__self__.final_checked  # type: ignore[attr-defined]
        assert honest.match_number == 0 and honest.settling and honest.failure is None
        assert honest.waiting_for() == "the other browser to open the cards it held in the hand abandoned"
        assert honest.legal_actions() == [] and honest.match.actions
        assert not any(m.message["m"] == 1 for m in table.log if m.receiver == 1), "the honest peer began match 1"
        # (The honest peer opened what it held: agreeing to abandon the hand makes those cards public.)
        for t in (0.0, 100.0):
            honest.tick(t)
        assert honest.settling and honest.match_number == 0
        # The final comes at last: the false Go is caught, the new match does not start.
        withholding.release(table)
        assert honest.failure is not None and "said Go" in honest.failure, honest.failure
        assert honest.match_number == 0 and not honest.settling
        return
    pytest.fail("no position to cheat in")


# --- 9. shares and plays naming slots the engine did not open -------------------------------------


@pytest.fixture(scope="module")
def at_play() -> tuple[OnlineGame, OnlineGame]:
    table = make_table(SMALL_GROUP, seed=110)
    run_until(table, random.Random(110), lambda: can_cheat(table.peers[1]))
    return table.peers[0], table.peers[1]


def shares_of(cheater: OnlineGame, slots: list[int]) -> dict[str, Any]:
    """The ``shares`` and ``proof`` of a payload opening ``slots`` with the cheater's true shares."""
    k = cheater.source.current
    cts = [cheater.records[k].deck2[s] for s in slots]  # type: ignore[index]
    return cheater.keys.prove_shares(k, slots, cts, [cheater.keys.my_share(ct) for ct in cts],
                                     random.Random(sum(slots)).randrange).to_wire(cheater.group)


def test_a_share_for_a_slot_not_opened_is_refused(at_play: tuple[OnlineGame, OnlineGame]) -> None:
    honest, cheater = at_play
    rec = cheater.pack
    assert rec is not None
    st = cheater.match.state
    held = [s for s in st.hand_slots[1] if s not in rec.laid[1] and s not in (rec.discard_slots[1] or [])]
    base = {"t": "play", "m": 0, "n": honest.received, "pack": cheater.source.current}
    # The play names one slot and opens another (of its own hand, an undealt one, the honest one's).
    undealt = next(s for s in range(52) if s not in st.hand_slots[0] + st.hand_slots[1])
    for opened in (held[-1] if len(held) > 1 else None, undealt, st.hand_slots[0][0]):
        if opened is None:
            continue
        copy, out = feed(honest, {**base, "slot": held[0], **shares_of(cheater, [opened])})
        assert_stopped(copy, out, f"a share for slot {opened}, which this message does not open")
    # Two shares for the slot laid, or none.
    two = shares_of(cheater, [held[0]])
    copy, out = feed(honest, {**base, "slot": held[0], **two, "shares": two["shares"] * 2})
    assert_stopped(copy, out, f"two shares for slot {held[0]}")
    copy, out = feed(honest, {**base, "slot": held[0], "shares": [], "proof": []})
    assert_stopped(copy, out, "expected decryption shares")
    # The right one passes.
    copy, out = feed(honest, {**base, "slot": held[0], **shares_of(cheater, [held[0]])})
    assert copy.failure is None


def test_a_play_of_a_slot_not_dealt_laid_or_discarded_is_refused(at_play: tuple[OnlineGame, OnlineGame]) -> None:
    honest, cheater = at_play
    rec = cheater.pack
    assert rec is not None
    st = cheater.match.state
    base = {"t": "play", "m": 0, "n": honest.received, "pack": cheater.source.current}
    undealt = next(s for s in range(52) if s not in st.hand_slots[0] + st.hand_slots[1])
    cases = [(undealt, "not dealt"), (st.hand_slots[0][0], "not dealt"), ((rec.discard_slots[1] or [])[0], "crib")]
    if rec.laid[1]:
        cases.append((rec.laid[1][0], "laid before"))
    for slot, why in cases:
        copy, out = feed(honest, {**base, "slot": slot, **shares_of(cheater, [slot])})
        assert_stopped(copy, out, why)


def test_a_card_laid_twice_is_refused() -> None:
    table = make_table(SMALL_GROUP, seed=111)
    rng = random.Random(111)
    run_until(table, rng, lambda: can_cheat(table.peers[1]) and bool(table.peers[1].pack.laid[1]))  # type: ignore[union-attr]
    honest, cheater = table.peers
    rec = cheater.pack
    assert rec is not None
    slot = rec.laid[1][0]
    copy, out = feed(honest, {"t": "play", "m": 0, "n": honest.received, "pack": cheater.source.current,
                              "slot": slot, **shares_of(cheater, [slot])})
    assert_stopped(copy, out, "laid before")


# --- a whole match on the real curve ------------------------------------------------------------------


def test_one_proven_hand_on_p256() -> None:
    table = make_table(P256_GROUP, seed=112)
    rng = random.Random(112)
    run_until(table, rng, lambda: all(p.match.state.hand_number >= 2 or p.match.state.is_over for p in table.peers))
    for peer in table.peers:
        assert peer.failure is None and peer.group is P256_GROUP
        assert peer.records[1].ended and peer.records[1].ready
    a, b = table.peers
    assert a.match.state.scores == b.match.state.scores
    assert a.source.packs[1] == b.source.packs[1]  # the whole first hand, opened on both sides alike
    assert len(a.source.packs[1]) >= 13


def test_a_whole_match_on_p256() -> None:
    from peers import play_match

    table = make_table(P256_GROUP, seed=113)
    play_match(table, random.Random(113))
    assert all(p.failure is None and p.verification == "verified" for p in table.peers)
    assert table.peers[0].match.state.winner == table.peers[1].match.state.winner
