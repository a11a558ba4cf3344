"""The proven deal at a table of three or four seats (and two, the same code): honest runs.

Each seat gets the right cards and only those: a card the rules keep from a seat (another seat's hand,
its partner's included, the crib before the show, the undealt pack) stays out of its reach, shown by
what it holds: every decryption share that reached it, and its own key. The deal matches the engine's
(:meth:`GameState.deal_slots`). Known answers pin the story's hash (the wire format).
"""

from __future__ import annotations

import hashlib
import json

import pytest

from cribbage.actions import CutPack
from cribbage.online import elgamal
from cribbage.online.group import MODP_TEST
from cribbage.online.pack import card_index
from cribbage.online.table_chain import canonical, story_root
from cribbage.online.table_deal import TableDeal, hand_layout
from cribbage.online.table_keys import TABLE_PROTOCOL
from cribbage.rules import Rules
from cribbage.state import GameState

from table_peers import Mesh, deal_hand, make_mesh, play_out

G = MODP_TEST


def shares_reaching(mesh: Mesh, seat: int, k: int = 0) -> dict[int, set[int]]:
    """Slot -> the seats whose decryption share of it reached ``seat`` in any message (or are its own)."""
    held: dict[int, set[int]] = {}
    for d in mesh.log:
        if d.receiver == seat and d.message.get("p") == k and "shares" in d.message:
            for slot, _ in d.message["shares"]:
                held.setdefault(slot, set()).add(d.sender)
    for slot in range(52):
        held.setdefault(slot, set()).add(seat)  # its own share of any slot it can always make
    return held


def entitled(deal: TableDeal, k: int = 0) -> set[int]:
    """The slots the rules let ``deal``'s seat know now (its hand, every card laid, the starter once
    turned, the crib once shown, every hand once revealed)."""
    p = deal.packs[k]
    assert p.layout is not None
    out = set(p.layout.hands[deal.seat]) | {s for laid in p.laid.values() for s in laid}
    if p.phase == "play" and p.starter is not None:
        out.add(p.starter)
    if p.crib_open:
        out |= {s for d in p.discards.values() for s in d} | set(p.layout.crib_pack)
    if any(kind == "reveal" for _, kind in p.log) and len(p.story.rounds[-1]) == deal.seats:
        out |= {s for hand in p.layout.hands for s in hand}
    return out


def assert_nothing_beyond(mesh: Mesh, k: int = 0) -> None:
    """No seat holds every share of a slot it is not entitled to; with what it holds, the slot opens
    to no card (the missing share matters); and it has opened no such slot."""
    for deal in mesh.deals:
        p = deal.packs[k]
        allowed = entitled(deal, k)
        held = shares_reaching(mesh, deal.seat, k)
        assert set(p.cards) <= allowed, (deal.seat, sorted(set(p.cards) - allowed))
        for slot in range(52):
            if slot in allowed:
                continue
            missing = set(range(deal.seats)) - held[slot]
            assert missing, (deal.seat, slot)
            owner = p.layout.owner(slot) if p.layout else None
            if owner is not None and owner != deal.seat:
                assert owner in missing  # only the owner's own share opens its card
            known = [v for s, v in p.shares.get(slot, {}).items() if s != deal.seat]
            partial = elgamal.combine(G, p.pack[slot], known + [deal.keys.my_share(p.pack[slot])])
            assert card_index(G, partial) is None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_honest_hand_deals_the_right_cards_and_only_those(players: int) -> None:
    mesh = make_mesh(players, seed=players)
    rules = mesh.deals[0].rules
    deal_hand(mesh, dealer=1, depth=17, starter_depth=9)
    assert mesh.refused == [] and all(d.failure is None for d in mesh.deals)
    hands = [d.hand(0) for d in mesh.deals]
    assert [len(h) for h in hands] == [rules.hand_size] * players
    dealt = [c for h in hands for c in h]
    assert len(set(dealt)) == len(dealt)
    starters = {d.card(0, d.packs[0].starter) for d in mesh.deals if d.packs[0].starter is not None}
    assert len(starters) == 1 and None not in starters and not starters & set(dealt)
    assert_nothing_beyond(mesh)
    # part of the play: each card laid opens for every seat, the same card
    play_out(mesh, dealer=1, lays=players + 1)
    assert_nothing_beyond(mesh)
    for laid_seat, slots in mesh.deals[0].packs[0].laid.items():
        for slot in slots:
            cards = {d.card(0, slot) for d in mesh.deals}
            assert len(cards) == 1 and cards.pop() in hands[laid_seat]
    play_out(mesh, dealer=1, lays=None)
    crib_pack = mesh.deals[0].packs[0].layout.crib_pack
    assert len(crib_pack) == rules.crib_from_pack
    assert not any(s in d.packs[0].cards for d in mesh.deals for s in crib_pack)  # not before the show
    assert_nothing_beyond(mesh)
    for d in mesh.deals:
        d.show(0)
    mesh.pump()
    p0 = mesh.deals[0].packs[0]
    crib_slots = [s for d in p0.discards.values() for s in d] + list(crib_pack)
    crib = [{d.card(0, s) for s in crib_slots} for d in mesh.deals]
    assert all(c == crib[0] for c in crib) and None not in crib[0] and len(crib[0]) == 4  # the same crib for all
    assert_nothing_beyond(mesh)
    for d in mesh.deals:
        d.reveal(0)
    mesh.pump()
    assert mesh.refused == [] and all(d.failure is None for d in mesh.deals)
    # the audit: every seat now knows every hand, and they agree with what each seat was dealt
    for d in mesh.deals:
        for seat, hand in enumerate(d.packs[0].layout.hands):
            assert sorted(d.card(0, s).code for s in hand) == sorted(c.code for c in hands[seat])


@pytest.mark.parametrize("players", [3, 4])
def test_before_the_play_no_seat_can_open_another_seats_card_partner_included(players: int) -> None:
    mesh = make_mesh(players, seed=11)
    deal_hand(mesh, dealer=0)
    assert_nothing_beyond(mesh)
    p0 = mesh.deals[0].packs[0]
    held = shares_reaching(mesh, 2, 0)  # seat 3 (seat 1's partner at four)
    for slot in p0.layout.hands[0]:
        assert held[slot] == set(range(players)) - {0}  # every share but its owner's
        assert slot not in mesh.deals[2].packs[0].cards


def test_a_seat_that_withholds_its_deal_shares_opens_nothing_of_the_others() -> None:
    mesh = make_mesh(3, seed=5)
    mesh.pump()
    for d in mesh.deals:
        d.start_pack(0, 0)
    mesh.pump()
    mesh.deals[2].cut(0, 30)
    mesh.pump(hold=lambda s, r, m: s == 2 and m["t"] == "deal")  # seat 3 hears all, sends no shares
    cheat = mesh.deals[2]
    assert len(cheat.hand(0)) == 5  # it has its own hand from the others' shares ...
    assert set(cheat.packs[0].cards) == set(cheat.packs[0].layout.hands[2])  # ... and nothing more
    for d in mesh.deals[:2]:
        assert d.hand(0) == [] and d.failure is None  # the others wait
    assert_nothing_beyond(mesh)


def test_the_next_pack_is_shuffled_while_a_hand_is_played_and_early_messages_wait() -> None:
    mesh = make_mesh(3, seed=2)
    deal_hand(mesh, dealer=0)
    mesh.deals[1].start_pack(1, 1)  # seat 2 begins pack 2 first: its messages wait at the others
    mesh.pump()
    play_out(mesh, dealer=0, lays=2)
    for d in mesh.deals:
        if 1 not in d.packs:
            d.start_pack(1, 1)
    mesh.pump()
    assert mesh.refused == [] and all(d.failure is None for d in mesh.deals)
    assert all(d.packs[1].phase == "cut" and len(d.packs[1].decks) == 3 for d in mesh.deals)
    assert len({canonical(d.packs[1].story.hashes) for d in mesh.deals}) == 1  # one story


@pytest.mark.parametrize("players,dealer,depth", [(3, 0, 4), (3, 2, 30), (4, 1, 17), (4, 3, 48), (2, 1, 26)])
def test_the_layout_is_the_engines_deal(players: int, dealer: int, depth: int) -> None:
    rules = Rules(players=players)
    state = GameState(rules=rules, first_dealer=dealer)
    layout = hand_layout(rules, dealer, depth)
    assert tuple(state.deal_slots(depth)) == layout.hands
    assert state.cutter == (dealer - 1) % players
    state.apply(CutPack(state.cutter, depth))
    assert tuple(state.crib_slots) == layout.crib_pack
    assert state.pack_size == len(layout.rest)
    assert [state.slot_at(d) for d in range(state.pack_size)] == list(layout.rest)


# --- known answers ---------------------------------------------------------------------------


def _item(label: str, data: bytes) -> bytes:
    name = label.encode()
    return len(name).to_bytes(8, "big") + name + len(data).to_bytes(8, "big") + data


def test_the_story_hash_is_the_documented_one() -> None:
    """H_0 and H_1 recomputed here from the documented formula, independently of the module."""
    mesh = make_mesh(3, seed=1, room="kat-room")
    mesh.pump()
    rules = json.dumps(Rules(players=3).to_json(), sort_keys=True, separators=(",", ":"))
    root = hashlib.sha256(b"".join(_item(a, b.encode()) for a, b in [
        ("protocol", "cribbage-table-deal/1"), ("group", "modp-384-test"), ("rules", "cribbage: " + rules),
        ("room", "kat-room"), ("match", "0"), ("seats", "3"), ("story", "keys")])).hexdigest()
    story = mesh.deals[0].key_story
    assert TABLE_PROTOCOL == "cribbage-table-deal/1" and story.hashes[0] == root
    assert (
        story_root(("protocol", TABLE_PROTOCOL))
        == hashlib.sha256(_item("protocol", TABLE_PROTOCOL.encode())).hexdigest()
    )
    keys = {s: m for s, m in mesh.sent if m["t"] == "key"}
    h1 = hashlib.sha256(_item("previous", bytes.fromhex(root)) + _item("round", bytes(8)) + b"".join(
        _item("seat", s.to_bytes(8, "big")) + _item("message", canonical(keys[s]).encode()) for s in range(3)))
    assert all(d.key_story.hashes[1] == h1.hexdigest() for d in mesh.deals)


def test_a_fixed_run_gives_fixed_hashes() -> None:
    """Known answer of a whole key round and pack with fixed draws: any change to what is sent or hashed
    changes it (and must change :data:`TABLE_PROTOCOL`)."""
    mesh = make_mesh(3, seed=7, room="kat-room")
    deal_hand(mesh, dealer=0, depth=20, starter_depth=10)
    d = mesh.deals[0]
    assert d.key_story.hashes[1][:16] == KEYS_HASH
    assert d.packs[0].story.hashes[-1][:16] == PACK_HASH
    assert [c.code for c in d.hand(0)] == HAND


KEYS_HASH = "a65b5bf2ab4d44e3"
PACK_HASH = "99a8a903532af07f"
HAND = ["JD", "8D", "8C", "TH", "KC"]



def test_a_pack_begun_elsewhere_before_this_seat_confirmed_the_keys_waits_for_it() -> None:
    """Seat 1 holds every echo of the keys and shuffles; seat 2 has not yet had seat 3's echo: seat 1's
    shuffle waits at seat 2 (it is not refused, nor used before the keys are confirmed there)."""
    mesh = make_mesh(3, seed=21)
    late = lambda s, r, m: s == 2 and r == 1 and m["t"] == "ack"  # noqa: E731
    mesh.pump(hold=late)
    assert mesh.deals[0].keys_ready and not mesh.deals[1].keys_ready
    mesh.deals[0].start_pack(0, 0)
    mesh.pump(hold=late)
    assert (
        mesh.refused == []
        and [m["t"] for _, m in mesh.deals[1]._early] == ["shuffle", "ack"]
        and 0 not in mesh.deals[1].packs
    )
    mesh.pump()
    for d in mesh.deals[1:]:
        d.start_pack(0, 0)
    mesh.pump()
    assert mesh.refused == [] and all(d.packs[0].phase == "cut" for d in mesh.deals)


def test_the_audit_opens_every_hand_for_every_seat_mid_hand_at_four() -> None:
    """A hand abandoned after two cards (or a match pegged out): every seat reveals what it holds, with
    proven shares, and every seat then knows every hand, the same cards as each was dealt."""
    mesh = make_mesh(4, seed=22)
    deal_hand(mesh, dealer=3)
    hands = [d.hand(0) for d in mesh.deals]
    play_out(mesh, dealer=3, lays=2)
    for d in mesh.deals:  # its own hand, the two cards laid, the starter
        p = d.packs[0]
        assert set(p.cards) == set(p.layout.hands[d.seat]) | {s for x in p.laid.values() for s in x} | {p.starter}
    for d in mesh.deals:
        d.reveal(0)
    mesh.pump()
    revealed = [m for s, m in mesh.sent if m["t"] == "reveal"]
    assert mesh.refused == [] and all(d.failure is None for d in mesh.deals)
    assert sorted(len(m["shares"]) for m in revealed) == [4, 4, 5, 5]  # what each holds, its discard too
    for d in mesh.deals:
        for seat, hand in enumerate(d.packs[0].layout.hands):
            assert sorted(d.card(0, s).code for s in hand) == sorted(c.code for c in hands[seat])
    assert_nothing_beyond(mesh)  # the crib's and the undealt cards stay closed


def test_a_round_of_several_speakers_in_the_play_takes_one_action_from_each() -> None:
    """A window for calls (muggins in the play at four: the other side's two seats), each a call or a pass."""
    mesh = make_mesh(4, seed=23)
    deal_hand(mesh, dealer=0)
    for d in mesh.deals:
        d.turn(0, (1, 3))
    mesh.deals[3].say(0, {"muggins": 2})
    mesh.pump()
    assert all(d.packs[0].story.speakers == (1, 3) for d in mesh.deals)  # seat 2 has not spoken yet
    with pytest.raises(ValueError, match="turn"):
        mesh.deals[2].say(0, "pass")
    mesh.deals[1].say(0, "pass")
    mesh.pump()
    assert mesh.refused == [] and all(d.failure is None for d in mesh.deals)
    assert all(d.packs[0].said == [(1, "pass"), (3, {"muggins": 2})] for d in mesh.deals)  # in seat order


def test_a_seat_reloaded_mid_hand_replays_its_story_and_plays_on() -> None:
    """Seat 2 is saved after a card laid, with messages still on their way to it, and rebuilt from the
    save (JSON): the same story, the same hand, and the hand goes on to the audit."""
    from cribbage.online.table_deal import TableDeal
    mesh = make_mesh(3, seed=24)
    mesh.deals[1] = TableDeal(1, rules=mesh.deals[0].rules, room="table-room", group=G, seed=bytes(range(32)))
    deal_hand(mesh, dealer=2)
    play_out(mesh, dealer=2, lays=1)
    for d in mesh.deals:
        d.turn(0, 1)
    mesh.pump(hold=lambda s, r, m: r == 1)  # nothing reaches seat 2 for now
    hand = mesh.deals[1].hand(0)
    saved = json.loads(json.dumps(mesh.deals[1].to_dict()))
    back = TableDeal.from_dict(saved)
    assert back.hand(0) == hand and back.packs[0].story.hashes == mesh.deals[1].packs[0].story.hashes
    assert back.take_outbox() == []  # what it had sent is not sent again
    mesh.deals[1] = back
    back.lay(0, back._held(back.packs[0], 1)[0])
    mesh.pump()
    play_out(mesh, dealer=1, lays=None)  # from seat 3 on, every card still held
    for d in mesh.deals:
        d.show(0)
    mesh.pump()
    for d in mesh.deals:
        d.reveal(0)
    mesh.pump()
    assert mesh.refused == [] and all(d.failure is None for d in mesh.deals)
    assert sorted(c.code for c in hand) == sorted(mesh.deals[0].card(0, s).code for s in back.packs[0].layout.hands[1])
    damaged = {**saved, "hashes": {**saved["hashes"], "keys": "0" * 64}}
    with pytest.raises(ValueError, match="does not replay"):
        TableDeal.from_dict(damaged)


def test_only_small_plain_values_are_said() -> None:
    from cribbage.online.table_deal import plain
    assert plain({"go": True, "claim": [1, 2], "who": None}) and not plain(1.0) and not plain({1: "a"})
    assert not plain([[[[[[[[["deep"]]]]]]]]]) and not plain(2 ** 60)
    mesh = make_mesh(3, seed=25)
    deal_hand(mesh, dealer=0)
    for d in mesh.deals:
        d.turn(0, 1)
    with pytest.raises(ValueError, match="plain"):
        mesh.deals[1].say(0, 0.5)
    with pytest.raises(ValueError, match="plain"):
        mesh.deals[1].say(0, "x" * 600)
