"""Attacks on the proven deal at three and four seats: each is caught before any honest seat sends a
value built on it, and each test also runs the attack against the code with the one check it tests
taken out (``unproven``), where the attack succeeds: the test has teeth.

"Built on it" is judged from the wire: after the bad message reaches an honest seat, that seat sends
nothing but its echo of rounds before, and an ``abort``.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Iterator

import pytest

from cribbage.cards import parse_card
from cribbage.online import elgamal, table_chain, table_keys
from cribbage.online.errors import ProtocolError
from cribbage.online.group import MODP_TEST, run
from cribbage.online.pack import card_index, card_points, public_deck
from cribbage.online.table_deal import TableDeal

from table_peers import Mesh, deal_hand, make_mesh, sent_after

G = MODP_TEST


@pytest.fixture(params=["proven", "unproven"])
def proven(request: pytest.FixtureRequest) -> Iterator[bool]:
    yield request.param == "proven"


Bad = Callable[[int, dict[str, Any]], bool]


def by(seat: int, kind: str) -> Bad:
    return lambda s, m: s == seat and m["t"] == kind


def assert_caught(mesh: Mesh, honest: list[int], bad: Bad, match: str, pack: int = 0,
                  last_round: int | None = None) -> None:
    """Every honest seat stopped (``match`` in one's reason, the others may stop on its abort) and sent,
    after it received the bad message (if it did), only echoes of rounds up to ``last_round`` of
    ``pack`` and an abort."""
    for seat in honest:
        deal = mesh.deals[seat]
        assert deal.failure is not None, seat
        later = sent_after(mesh, seat, bad) or []
        for m in later:
            assert m["t"] in ("ack", "abort"), (seat, m["t"])
            if m["t"] == "ack":
                assert m["p"] == pack and last_round is not None and m["r"] <= last_round, (seat, m)
    assert any(match in (mesh.deals[s].failure or "") for s in honest), [mesh.deals[s].failure for s in honest]


def secret_open(mesh: Mesh, k: int, slot: int) -> str:
    """The card at ``slot`` of pack ``k`` as a god who holds every key would open it (tests only)."""
    ct = mesh.deals[0].packs[k].pack[slot]
    shares = [d.keys.my_share(ct) for d in mesh.deals]
    index = card_index(G, elgamal.combine(G, ct, shares))
    assert index is not None
    return str(__import__("cribbage.cards", fromlist=["DECK"]).DECK[index].code)


# --- a forged shuffle ---------------------------------------------------------------------------


def test_a_stacked_pack_from_the_third_seat_is_refused(proven: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 3, the last to shuffle at three, sends a pack it stacked (the public deck in order, each card
    re-encrypted with randomness it knows) with the proof of its honest shuffle: unproven, it would know
    where every card lies, so every hand once the cut is made."""
    if not proven:
        def no_check(self: Any, *args: Any) -> Any:
            return
            yield
        monkeypatch.setattr(table_keys.TableKeys, "verify_shuffle", no_check)
    mesh = make_mesh(3, seed=3)
    mesh.pump()
    cheat = mesh.deals[2]
    gY = G.fixed(cheat.keys.joint)
    stacked = [elgamal.reencrypt(G, gY, ct, 1000 + i) for i, ct in enumerate(public_deck(G))]
    honest_shuffle = cheat.keys.shuffle_and_prove

    def stacking(pack: int, inputs: Any, randbelow: Any) -> Any:
        _, proof = yield from honest_shuffle(pack, inputs, randbelow)
        return stacked, proof  # the cheater's own record holds the stacked pack too: one story

    monkeypatch.setattr(cheat.keys, "shuffle_and_prove", stacking)
    for d in mesh.deals:
        d.start_pack(0, 0)
    mesh.pump()
    if proven:
        assert_caught(mesh, [0, 1], by(2, "shuffle"), "seat 3's shuffle is not proven")
        assert "shuffle" in str(mesh.deals[0].evidence) and mesh.deals[0].evidence.get("seat") == 2
        return
    # unproven: the honest seats take the stacked pack, and seat 3 knows seat 1's hand before the deal
    assert all(d.failure is None for d in mesh.deals[:2])
    mesh.deals[2].cut(0, 20)
    mesh.pump()
    layout = mesh.deals[0].packs[0].layout
    guessed = sorted(str(__import__("cribbage.cards", fromlist=["DECK"]).DECK[s].code) for s in layout.hands[0])
    assert sorted(c.code for c in mesh.deals[0].hand(0)) == guessed


# --- a false decryption share -------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_a_false_share_that_would_turn_the_starter_into_a_jack_is_refused(
        players: int, proven: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The seat after the pone shifts its share of the starter's slot by ``M_starter − M_JC``: unproven,
    every seat sees the jack of clubs turned (his heels, two for the dealer)."""
    if not proven:
        monkeypatch.setattr(table_keys.TableKeys, "check_shares", lambda self, *a: None)
    mesh = make_mesh(players, seed=4)
    cheater = 2
    jack = card_points(G)[__import__("cribbage.cards", fromlist=["DECK"]).DECK.index(parse_card("JC"))]
    marks: list[int] = []

    def tamper(s: int, r: int, m: dict[str, Any]) -> dict[str, Any]:
        if s == cheater and m["t"] == "turn":
            marks.append(len(mesh.sent))
            slot = m["shares"][0][0]
            ct = mesh.deals[0].packs[0].pack[slot]
            true = elgamal.combine(G, ct, [d.keys.my_share(ct) for d in mesh.deals])
            d = G.decode_text(m["shares"][0][1], "share")
            m["shares"][0][1] = G.encode_text(G.add(d, G.sub(true, jack)))
        return m

    mesh.tamper = tamper
    deal_hand(mesh, dealer=0, depth=20, starter_depth=12)
    starter = mesh.deals[0].packs[0].starter
    assert starter is not None and secret_open(mesh, 0, starter) != "JC"
    honest = [s for s in range(players) if s != cheater]
    if proven:
        assert_caught(
            mesh,
            honest,
            by(cheater, "turn"),
            f"seat {cheater + 1}'s decryption shares of slots [{starter}] are not proven",
        )
        assert all(mesh.deals[s].card(0, starter) is None for s in honest)
    else:
        assert all(mesh.deals[s].card(0, starter) == parse_card("JC") for s in honest)


def test_a_false_deal_share_that_would_give_a_seat_a_card_it_was_not_dealt_is_refused(
        proven: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 2 shifts its share of seat 1's first slot so that it opens, for seat 1, as a card of seat 2's
    own hand: unproven, seat 1 holds a card it was not dealt (and one card is in two hands)."""
    if not proven:
        monkeypatch.setattr(table_keys.TableKeys, "check_shares", lambda self, *a: None)
    mesh = make_mesh(3, seed=6)
    marks: list[int] = []

    def tamper(s: int, r: int, m: dict[str, Any]) -> dict[str, Any]:
        if s == 1 and r == 0 and m["t"] == "deal":
            marks.append(len(mesh.sent))
            layout = mesh.deals[1].packs[0].layout
            target, theirs = layout.hands[0][0], layout.hands[1][0]
            ct = mesh.deals[0].packs[0].pack[target]
            true = elgamal.combine(G, ct, [d.keys.my_share(ct) for d in mesh.deals])
            ct2 = mesh.deals[0].packs[0].pack[theirs]
            wanted = elgamal.combine(G, ct2, [d.keys.my_share(ct2) for d in mesh.deals])
            for entry in m["shares"]:
                if entry[0] == target:
                    entry[1] = G.encode_text(G.add(G.decode_text(entry[1], "share"), G.sub(true, wanted)))
        return m

    mesh.tamper = tamper
    mesh.pump()
    for d in mesh.deals:
        d.start_pack(0, 0)
    mesh.pump()
    mesh.deals[2].cut(0, 25)
    mesh.pump()
    layout = mesh.deals[0].packs[0].layout
    stolen = secret_open(mesh, 0, layout.hands[1][0])
    if proven:
        assert_caught(mesh, [0], by(1, "deal"), "seat 2's decryption shares")
        assert mesh.deals[0].hand(0) == []
    else:
        assert stolen in [c.code for c in mesh.deals[0].hand(0)]


# --- a replay -----------------------------------------------------------------------------------


def test_a_replayed_go_is_refused_and_changes_nothing(proven: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 2's "go" of one turn delivered again in its next turn: refused as a replay; unproven (a
    story that takes any round's message in the round open), it would count as a second Go."""
    if not proven:
        original = table_chain.Story.receive

        def lax(self: table_chain.Story, sender: int, message: dict[str, Any]) -> Any:
            if message["t"] == "say":
                message = {**message, "r": self.round, "h": self.hashes[-1]}
            return original(self, sender, message)
        monkeypatch.setattr(table_chain.Story, "receive", lax)
    mesh = make_mesh(3, seed=8)
    deal_hand(mesh, dealer=0)
    for d in mesh.deals:
        d.turn(0, 1)
    mesh.deals[1].say(0, "go")
    mesh.pump()
    go = next(m for s, m in mesh.sent if s == 1 and m["t"] == "say")
    for seat in (2, 0):
        for d in mesh.deals:
            d.turn(0, seat)
        mesh.deals[seat].say(0, "go")
        mesh.pump()
    for d in mesh.deals:
        d.turn(0, 1)
    mesh.pump()
    before = mesh.deals[0].packs[0].story.round
    if proven:
        with pytest.raises(ProtocolError, match="replay"):
            mesh.deals[0].receive(1, json.loads(json.dumps(go)))
        assert mesh.deals[0].packs[0].story.round == before and mesh.deals[0].failure is None
        assert [v for s, v in mesh.deals[0].packs[0].said if s == 1] == ["go"]
    else:
        mesh.deals[0].receive(1, json.loads(json.dumps(go)))
        assert [v for s, v in mesh.deals[0].packs[0].said if s == 1] == ["go", "go"]


def test_a_message_of_another_room_is_not_taken() -> None:
    """A key message made for another room, sent by the same seat: its story hash is another story's."""
    mesh = make_mesh(3, seed=9)
    other = TableDeal(1, rules=mesh.deals[0].rules, room="another-room", group=G)
    message = other.take_outbox()[0]
    mesh.deals[0].receive(1, message)
    assert mesh.deals[0].failure is not None and "another story" in mesh.deals[0].failure


# --- a message from the wrong seat ---------------------------------------------------------------


def test_messages_from_the_wrong_seat_are_refused_and_change_nothing() -> None:
    mesh = make_mesh(3, seed=10)
    deal_hand(mesh, dealer=0)
    for d in mesh.deals:
        d.turn(0, 1)
    mesh.pump()
    victim = mesh.deals[0]
    story = victim.packs[0].story
    state = (story.round, list(story.hashes), dict(story.waiting), list(victim.packs[0].said))
    base = {"t": "say", "p": 0, "r": story.round, "h": story.hashes[-1], "value": "go"}
    # seat 3 says it is seat 2 (on its own link)
    with pytest.raises(ProtocolError, match="says it comes from another seat"):
        victim.receive(2, {**base, "from": 1})
    # seat 3 speaks in seat 2's turn, as itself
    with pytest.raises(ProtocolError, match="out of turn"):
        victim.receive(2, {**base, "from": 2})
    # seat 3 relays a genuine message of seat 2 over its own link
    mesh.deals[1].say(0, "go")
    genuine = mesh.deals[1].take_outbox()
    with pytest.raises(ProtocolError, match="says it comes from another seat"):
        victim.receive(2, genuine[0])
    assert (story.round, story.hashes, dict(story.waiting), victim.packs[0].said) == state
    assert victim.failure is None
    # the genuine one, on its own link, is taken
    victim.receive(1, genuine[0])
    assert victim.packs[0].said == [(1, "go")]


def test_a_rogue_key_share_is_refused() -> None:
    """Seat 3 announces ``z·G − y_1 − y_2`` (the joint key would be ``z·G``, all its own) with its proof."""
    mesh = make_mesh(3, seed=12)

    def tamper(s: int, r: int, m: dict[str, Any]) -> dict[str, Any]:
        if s == 2 and m["t"] == "key":
            y = G.mul_gen(12345)
            for d in mesh.deals[:2]:
                y = G.sub(y, d.keys.public[d.seat])
            m["share"] = G.encode_text(y)
        return m

    mesh.tamper = tamper
    mesh.pump()
    for d in mesh.deals[:2]:
        assert d.failure is not None and "rogue key" in d.failure
        assert not d.keys_ready


# --- equivocation -------------------------------------------------------------------------------


def _lax_echo(monkeypatch: pytest.MonkeyPatch) -> None:
    """The code without the echo: a round counts as confirmed once done here, echoes are not compared."""
    monkeypatch.setattr(table_chain.Story, "confirmed", lambda self, r: r < self.round)
    monkeypatch.setattr(table_chain.Story, "_receive_ack", lambda self, sender, r, h: self.pump())


def test_two_proven_shuffles_told_to_two_seats_are_caught_before_the_next_shuffle(
        proven: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """At four seats, seat 2 sends seat 1 its shuffle and seats 3 and 4 another, both with valid proofs.
    Seat 3, next to shuffle, must not shuffle either: it would build on a pack seat 1 does not hold."""
    if not proven:
        _lax_echo(monkeypatch)
    mesh = make_mesh(4, seed=13)
    mesh.pump()
    cheat = mesh.deals[1]
    marks: list[int] = []
    alternative: list[dict[str, Any]] = []

    def tamper(s: int, r: int, m: dict[str, Any]) -> dict[str, Any]:
        if s == 1 and m["t"] == "shuffle" and r != 0:
            if not alternative:
                marks.append(len(mesh.sent))
                inputs = elgamal.decode_ciphertexts(G, next(x for y, x in mesh.sent if y == 0 and x["t"] == "shuffle")
                                                    ["cards"], 52, "seat 1's shuffle")
                outputs, proof = run(cheat.keys.shuffle_and_prove(0, inputs, cheat.randbelow))
                alternative.append({**m, "cards": elgamal.encode_ciphertexts(G, outputs), "proof": proof})
            return json.loads(json.dumps(alternative[0]))
        return m

    mesh.tamper = tamper
    for d in mesh.deals:
        d.start_pack(0, 0)
    mesh.pump()
    assert alternative and mesh.refused == []
    if proven:
        assert_caught(mesh, [0, 2, 3], by(1, "shuffle"), "another story", last_round=1)
        assert not any(m["t"] == "shuffle" for s, m in mesh.sent if s in (2, 3))
    else:
        assert any(m["t"] == "shuffle" for s, m in mesh.sent[marks[0]:] if s == 2)


@pytest.mark.parametrize("players", [3, 4])
def test_two_cards_laid_told_to_two_seats_are_caught_before_the_next_play(
        players: int, proven: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 2 lays one card to seat 1 and another (each with its true share) to the others. The next to
    play must not lay a card on a count the others do not share."""
    if not proven:
        _lax_echo(monkeypatch)
    mesh = make_mesh(players, seed=14)
    deal_hand(mesh, dealer=0)
    cheat = mesh.deals[1]
    p = cheat.packs[0]
    held = cheat._held(p, 1)
    for d in mesh.deals:
        d.turn(0, 1)
    mesh.pump()
    other_lay = {"slot": held[1], **cheat.keys.prove_shares(0, "lay", [held[1]], [p.pack[held[1]]],
                                                             cheat.randbelow).to_wire(G)}
    marks: list[int] = []

    def tamper(s: int, r: int, m: dict[str, Any]) -> dict[str, Any]:
        if s == 1 and m["t"] == "lay" and r != 0:
            marks.append(len(mesh.sent))
            return {**m, **json.loads(json.dumps(other_lay))}
        return m

    mesh.tamper = tamper
    cheat.lay(0, held[0])
    mesh.pump()
    nxt = 2 % players
    honest = [s for s in range(players) if s != 1]
    if proven:
        assert_caught(mesh, honest, by(1, "lay"), "another story", last_round=mesh.deals[0].packs[0].story.round - 1)
        with pytest.raises(ValueError):
            mesh.deals[nxt].turn(0, nxt)
    else:
        for d in mesh.deals:
            d.turn(0, nxt)
        mesh.deals[nxt].lay(0, mesh.deals[nxt]._held(mesh.deals[nxt].packs[0], nxt)[0])
        mesh.pump()
        assert any(m["t"] == "lay" for s, m in mesh.sent[marks[0]:] if s == nxt)
        assert mesh.deals[0].card(0, held[0]) is not None and mesh.deals[2].card(0, held[1]) is not None


# --- a reload that takes another turn ------------------------------------------------------------


def test_a_seat_reloaded_that_lays_another_card_gives_no_key_away(
    proven: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seat 2 lays a card, is reloaded from a save made before, and lays another: two proofs with the same
    secret. Were their nonces drawn alike (a seeded stream that ignores what the seat did), the others
    would read its key off them, ``x = (s − s')/(c − c')``, and open every card it holds."""
    from cribbage.online import table_deal
    if not proven:
        original = table_deal.seeded_randbelow
        monkeypatch.setattr(table_deal, "seeded_randbelow", lambda seed, context=bytes: original(seed))
    mesh = make_mesh(3, seed=26)
    mesh.deals[1] = TableDeal(1, rules=mesh.deals[0].rules, room="table-room", group=G, seed=bytes(32))
    deal_hand(mesh, dealer=0)
    for d in mesh.deals:
        d.turn(0, 1)
    mesh.pump()
    saved = json.loads(json.dumps(mesh.deals[1].to_dict()))
    proofs = []
    for pick in (0, 1):
        seat = TableDeal.from_dict(saved)
        seat.lay(0, seat._held(seat.packs[0], 1)[pick])
        lay = next(m for m in seat.take_outbox() if m["t"] == "lay")
        proofs.append([G.decode_scalar_text(v, "proof") for v in lay["proof"]])
    (c1, s1), (c2, s2) = proofs
    x = (s1 - s2) * pow(c1 - c2, -1, G.order) % G.order
    assert (G.mul_gen(x) == mesh.deals[1].keys.public[1]) is not proven
