"""Online play at every two-player table of the rule book: to 61, two cards from the pack to the crib
(five-card hands), muggins, cutting again on tens. The rules travel in the first payload of a match,
are part of every proof's statement, and a peer at another table is refused."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cribbage.match import SaveError
from cribbage.online import ProtocolError
from cribbage.online.game import OnlineGame, online_rules
from cribbage.online.game_save import checksum as _checksum
from cribbage.online.group import MODP_TEST, Group
from cribbage.online.pack import RULES, MatchKeys, rules_statement
from cribbage.rules import CLASSIC, Rules, RulesError
from cribbage.state import Phase, other

from peers import SMALL_GROUP, Table, clone, drive, feed, play_match
from peers import make_table as _make_table

GROUPS = (SMALL_GROUP,)


def make_table(seed: int = 0, group: Group = SMALL_GROUP, **options: Any) -> Table:
    """Two peers in the small test group (the point of these tests is the table's rules, not the group)."""
    return _make_table(group=group, seed=seed, **options)
TENS_SEED = 30


def reload(peer: OnlineGame, seed: int) -> OnlineGame:
    data = json.loads(json.dumps(peer.to_dict()))
    again = OnlineGame.from_dict(data, randbelow=random.Random(seed).randrange, groups=GROUPS)
    assert json.dumps(again.to_dict(), sort_keys=True) == json.dumps(data, sort_keys=True)
    return again


def guard(table: Table) -> Any:
    """Before every delivery: a share of the sender's hidden hand, its discards or the crib's cards
    from the pack only when the rules open them; and neither peer knows a crib card from the pack
    (nor the other's discards) before the crib is turned."""

    def check(receiver: int, message: dict[str, Any]) -> None:
        for peer in table.peers:
            st, rec = peer.match.state, peer.pack
            if rec is None or st.is_over or peer.source.current >= len(peer.source.packs):
                continue
            known = peer.source.packs[peer.source.current]
            if not (st.phase is Phase.SHOW and st.show_step == 2) and st.phase is not Phase.CUT_PACK:
                assert not set(st.crib_slots) & set(known), "a crib card from the pack is open before the show"
        peer = table.peers[receiver]
        them = other(receiver)
        st, rec = peer.match.state, peer.pack
        if rec is None or "shares" not in message or message["t"] == "final":
            return
        hidden = set(st.hand_slots[them]) | set(st.crib_slots)
        # (the sender's state: a count it sent just before may still wait in the receiver's queue, e.g.
        # a false claim of game corrected at once goes straight on to the crib)
        crib_open = any(s.phase is Phase.SHOW and s.show_step == 2 and bool(s.crib_unseen)
                        for s in (st, table.peers[them].match.state))
        for slot, _ in message["shares"]:
            if slot not in hidden:
                continue
            laid = message["t"] == "play" and message["slot"] == slot
            crib = crib_open and (slot in (rec.discard_slots[them] or []) or slot in st.crib_slots)
            assert laid or crib, f"{message['t']} opens slot {slot} before the rules do"

    return check


def whole_match(rules: Rules, seed: int, reloads: bool = True) -> Table:
    table = make_table(seed=seed, rules=rules)
    table.on_deliver = guard(table)
    rng = random.Random(seed)
    count = 0

    def maybe_reload(t: Table) -> None:
        nonlocal count
        if reloads and rng.random() < 0.1:
            seat = rng.randrange(2)
            t.peers[seat] = reload(t.peers[seat], count)
            count += 1

    play_match(table, rng, before_act=maybe_reload)
    a, b = table.peers
    assert a.failure is None and b.failure is None, (a.failure, b.failure)
    assert a.verification == b.verification == "verified"
    sa, sb = a.match.state, b.match.state
    assert sa.winner == sb.winner and sa.scores == sb.scores
    assert max(sa.scores) >= rules.target and max(sa.scores) < 121 + 29 * (rules.target == 121) + 40
    assert [str(e) for e in sa.events if e.kind != "discard"] == [str(e) for e in sb.events if e.kind != "discard"]
    assert a.rules == b.rules == rules and sa.rules == rules
    assert not reloads or count > 3
    return table


def test_a_whole_match_to_61() -> None:
    table = whole_match(Rules(target=61), 11)
    st = table.peers[0].match.state
    assert 61 <= max(st.scores) < 121
    key = next(m.message for m in table.log if m.message["t"] == "key")
    assert key["rules"] == {"target": 61}


def test_a_whole_match_with_two_cards_from_the_pack_to_the_crib() -> None:
    rules = Rules(crib_from_pack=2, target=61)
    table = make_table(seed=12, rules=rules)
    shapes: list[tuple[int, int, int]] = []
    check = guard(table)

    def deliver(receiver: int, message: dict[str, Any]) -> None:
        check(receiver, message)
        st = table.peers[receiver].match.state
        if st.phase is Phase.DISCARD:
            shapes.append((len(st.hand_slots[0]), len(st.hand_slots[1]), len(st.crib_slots)))
        if message["t"] == "discard":
            assert len(message["slots"]) == 1

    table.on_deliver = deliver
    play_match(table, random.Random(12))
    a, b = table.peers
    assert a.failure is None and b.failure is None and a.verification == b.verification == "verified"
    assert shapes and set(shapes) == {(5, 5, 2)}
    # Every crib counted holds the two cards from the pack, opened on both sides alike.
    cribs = [e for e in a.match.state.events if e.kind == "show crib"]
    assert cribs and cribs == [e for e in b.match.state.events if e.kind == "show crib"]
    assert all(len(e.cards) == 5 for e in cribs)
    assert any(m.message["t"] == "shares" and len(m.message["shares"]) == 3 for m in table.log)


def test_a_whole_match_with_two_cards_from_the_pack_to_121_with_reloads() -> None:
    whole_match(Rules(crib_from_pack=2), 13)


def test_a_whole_match_with_muggins_claims_below_and_calls() -> None:
    # (random claims from 0 to 29: over-claims too, put back when called)
    table = whole_match(Rules(muggins=True, target=61), 44)
    events = table.peers[0].match.state.events
    kinds = {m.message["t"] for m in table.log}
    assert {"crib", "muggins", "pass"} <= kinds
    assert all("claim" in m.message for m in table.log if m.message["t"] == "count")
    taken = [e for e in events if e.kind == "muggins" and e.points > 0]
    assert taken, "a claim below what the count held was called and its missed points taken"
    assert any(e.kind == "pass" for e in events)


def test_a_whole_match_with_muggins_in_the_play() -> None:
    """Every card travels with its claim; calls in the play travel as ``muggins`` actions (online on
    the caller's own turn); over-claims are put back; both browsers agree and the match verifies."""
    table = whole_match(Rules(muggins=True, play_muggins=True, target=61), 16)
    a, b = table.peers
    plays = [m.message for m in table.log if m.message["t"] == "play"]
    assert plays and all(type(m["claim"]) is int and 0 <= m["claim"] <= 15 for m in plays)
    events = a.match.state.events
    assert any(e.kind == "put back" for e in events) or any(
        e.kind == "muggins" and e.points and e.hand and len(e.cards) != 5 for e in events)
    assert a.match.state.scores == b.match.state.scores


def test_a_card_without_its_claim_or_with_a_bad_one_is_refused() -> None:
    rules = Rules(play_muggins=True, target=61)
    table = make_table(seed=17, rules=rules)
    rng = random.Random(17)
    receiver, message = drive(table, rng, lambda r, m: m["t"] == "play")
    peer = table.peers[receiver]
    assert "claim" in message
    for bad in (16, -1, "2", True, 2.0, None):
        with pytest.raises(ProtocolError):
            clone(peer).receive({**message, "claim": bad})
    with pytest.raises(ProtocolError, match="wrong fields"):
        clone(peer).receive({k: v for k, v in message.items() if k != "claim"})
    copy, _ = feed(peer, message)  # the true message is taken
    assert copy.failure is None and copy.match.state.claim is not None


def test_without_the_rule_a_card_carries_no_claim() -> None:
    table = make_table(seed=18, rules=Rules(target=61))
    receiver, message = drive(table, random.Random(18), lambda r, m: m["t"] == "play")
    assert "claim" not in message
    with pytest.raises(ProtocolError, match="wrong fields"):
        clone(table.peers[receiver]).receive({**message, "claim": 0})


def test_online_a_call_in_the_play_is_made_on_ones_turn() -> None:
    """Out of turn a call and the other's next card could cross on the wire: online the call waits
    for the caller's turn (the engine itself allows it out of turn, at one device)."""
    from cribbage.actions import Muggins, Play
    from cribbage.online.moves import call_refusal as _call_refusal
    from cribbage.state import GameState

    rules = Rules(play_muggins=True)
    for seed in range(200):
        rng = random.Random(seed)
        st = GameState(seed, rules=rules, declare_go=True)
        while not st.is_over and st.hand_number < 4:
            claim = st.claim
            if claim is not None and claim.what == "play" and st.phase is Phase.PLAY:
                caller = other(claim.seat)
                if caller not in st.actors():
                    assert Muggins(caller) in st.legal_actions(caller)
                    assert _call_refusal(st, Muggins(caller)) is not None
                    assert "on your turn" in (_call_refusal(st, Muggins(caller)) or "")
                    return
                assert _call_refusal(st, Muggins(caller)) is None  # in turn: it travels
            legal = [a for a in st.legal_actions() if not isinstance(a, Muggins)]
            action = rng.choice(legal)
            if isinstance(action, Play):
                action = Play(action.seat, action.card, st.play_points(action.card))
            st.apply(action)
    pytest.fail("never a claim open while its caller was out of turn")


def test_a_whole_match_with_every_option_and_reloads() -> None:
    whole_match(Rules(crib_from_pack=2, target=61, muggins=True, recut_tens=True), 15)


def test_the_cut_for_deal_is_cut_again_on_two_tens() -> None:
    rules = Rules(recut_tens=True, target=61)
    for seed in range(TENS_SEED, TENS_SEED + 60):  # (until one cuts two ten-cards)
        table = make_table(seed=seed, rules=rules)
        rng = random.Random(seed)
        while table.peers[0].match.state.phase is Phase.CUT_FOR_DEAL or table.peers[1].pending is not None:
            table.pump()
            for peer in table.peers:
                if peer.legal_actions() and peer.match.state.phase is Phase.CUT_FOR_DEAL:
                    peer.act(rng.choice(peer.legal_actions()))
                    break
        table.pump()
        events = [str(e) for e in table.peers[0].match.state.events]
        if any("two ten-cards" in e for e in events):
            assert events == [str(e) for e in table.peers[1].match.state.events]
            play_match(table, rng)
            assert all(p.verification == "verified" for p in table.peers)
            return
    raise AssertionError("no cut for deal with two ten-cards in 60 seeds")


# --- refusals ---------------------------------------------------------------------------------------


def test_a_peer_at_another_table_is_refused() -> None:
    table = make_table(seed=21, rules=(Rules(target=61), CLASSIC))
    table.pump()
    a, b = table.peers
    assert a.failure and "other rules (classic) than this room (to 61)" in a.failure
    assert b.failure and ("other rules (to 61) than this room (classic)" in b.failure
                          or b.peer_reason)
    assert a.match.state.phase is Phase.CUT_FOR_DEAL and not a.legal_actions()


def test_rules_online_does_not_offer_are_refused() -> None:
    with pytest.raises(RulesError, match="two players"):
        OnlineGame(0, rules=Rules(players=3), group=MODP_TEST)
    with pytest.raises(RulesError, match="two players"):
        online_rules({"players": 4})
    table = make_table(seed=22, rules=Rules(muggins=True))
    table.peers[0].run_all()
    key = table.peers[0].take_outbox()[0]
    assert key["t"] == "key" and key["rules"] == {"muggins": True}
    for bad, words in (({"players": 3}, "two players"), ({"target": 99}, "121 or to 61"),
                       ({"bogus": 1}, "unknown rule"), ([1], "not a set of choices"), ({}, "other rules")):
        peer, sent = feed(table.peers[1], {**key, "rules": bad})
        assert peer.failure and words in peer.failure, (bad, peer.failure)
        assert [m["t"] for m in sent] == ["key", "abort"] or [m["t"] for m in sent] == ["abort"]
    peer, _ = feed(table.peers[1], key)
    assert peer.failure is None and peer.keys.ready


def test_a_proof_made_under_other_rules_fails() -> None:
    g = MODP_TEST
    rng = random.Random(5).randrange
    prover = MatchKeys(g, "room", 0, 0, g.random_scalar(rng), Rules(target=61, crib_from_pack=2))
    message = prover.key_message(rng)
    for rules, ok in ((CLASSIC, False), (Rules(target=61), False), (Rules(crib_from_pack=2), False),
                      (Rules(target=61, crib_from_pack=2, muggins=True), False),
                      (Rules(crib_from_pack=2, target=61), True)):
        verifier = MatchKeys(g, "room", 0, 1, g.random_scalar(rng), rules)
        if ok:
            verifier.take_key(message["share"], message["proof"])
        else:
            with pytest.raises(ProtocolError, match="proof"):
                verifier.take_key(message["share"], message["proof"])
    # A decryption share's proof is bound to the table as well.
    verifier = MatchKeys(g, "room", 0, 1, g.random_scalar(rng), Rules(target=61, crib_from_pack=2))
    verifier.take_key(message["share"], message["proof"])
    prover.take_key(*verifier.key_message(rng).values())
    ct = (g.mul_gen(3), g.mul_gen(7))
    shares = prover.prove_shares(0, [4], [ct], [prover.my_share(ct)], rng)
    verifier.check_shares(0, shares, [ct])
    other_table = MatchKeys(g, "room", 0, 1, verifier.secret, Rules(target=61))
    other_table.public = list(verifier.public)
    with pytest.raises(Exception, match="not proven"):
        other_table.check_shares(0, shares, [ct])


def test_the_classic_table_states_its_rules_as_before() -> None:
    assert rules_statement(CLASSIC) == RULES == "cribbage: two players, six cards, game to 121"
    assert rules_statement(Rules(target=61, muggins=True)) == 'cribbage: {"muggins":true,"target":61}'
    assert rules_statement(Rules(recut_tens=True, crib_from_pack=2)) == \
        'cribbage: {"crib_from_pack":2,"recut_tens":true}'
    table = make_table(seed=23)
    table.peers[0].run_all()
    assert "rules" not in table.peers[0].take_outbox()[0]
    assert "rules" not in table.peers[0].to_dict()


def test_saves_carry_the_rules_and_refuse_a_table_online_does_not_offer() -> None:
    rules = Rules(crib_from_pack=2, muggins=True, target=61)
    table = make_table(seed=24, rules=rules)
    table.pump()
    data = json.loads(json.dumps(table.peers[0].to_dict()))
    assert data["rules"] == rules.to_json()
    assert reload(table.peers[0], 1).rules == rules
    data["rules"] = {"players": 3}
    data["checksum"] = _checksum(data)
    with pytest.raises(SaveError, match="two players"):
        OnlineGame.from_dict(data, groups=GROUPS)
    data["rules"] = {"target": 60}
    data["checksum"] = _checksum(data)
    with pytest.raises(SaveError, match="121 or to 61"):
        OnlineGame.from_dict(data, groups=GROUPS)
