"""Attacks on the game at three and four seats, each caught before any honest seat sends a value built on
it: a forged shuffle from the third seat, a withheld or forged share, a false Go in the last hand by any
seat (the audit), a replayed message, and equivocation (a seat telling two seats different shuffles or
different plays). Each attack that leans on one check is also run with that check taken out, where the
attack must then go through: the test has teeth (``*_without_the_check_*``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cribbage.actions import Go, Play
from cribbage.online import elgamal, table_chain
from cribbage.online.errors import ProtocolError
from cribbage.online.group import run
from cribbage.online.table_game import TableGame
from cribbage.online.table_keys import TableKeys

from table_game_hub import Hub, make_hub, play

BUILT = {"shuffle", "cut", "deal", "discard", "starter", "turn", "lay", "say", "crib", "reveal"}
"""Kinds of message that carry a value (everything but the echo ``ack`` and the ``abort``)."""


def honest_sent_nothing_built_on(hub: Hub, bad: Any, honest: list[int]) -> None:
    """Every honest seat stopped, and after it received the bad message sent no value (an echo of the round
    it came in, at most, and the abort)."""
    for s in honest:
        after = hub.sent_after(s, bad)
        assert after is not None, f"seat {s + 1} never received the bad message"
        values = [m for m in after if m["t"] in BUILT]
        assert values == [], f"seat {s + 1} sent {[m['t'] for m in values]} after the bad message"
        assert hub.games[s].failure is not None


# --- a forged shuffle from the third seat ---------------------------------------------------------


def forge_shuffle(sender: int, receiver: int, m: dict[str, Any]) -> dict[str, Any]:
    if sender == 2 and m["t"] == "shuffle" and m["p"] == 0:
        m["cards"][0], m["cards"][1] = m["cards"][1], m["cards"][0]  # two ciphertexts swapped after the proof
    return m


def is_forged_shuffle(sender: int, m: dict[str, Any]) -> bool:
    return sender == 2 and m["t"] == "shuffle" and m["p"] == 0


@pytest.mark.parametrize("players", [3, 4])
def test_a_forged_shuffle_from_the_third_seat_stops_every_seat_before_use(players: int) -> None:
    hub = make_hub(players, seed=1)
    hub.tamper = forge_shuffle
    play(hub)
    honest = [s for s in range(players) if s != 2]
    honest_sent_nothing_built_on(hub, is_forged_shuffle, honest)
    assert all("shuffle" in (hub.games[s].failure or "") for s in honest)
    assert all(len(hub.games[s].deal.packs[0].decks) == 2 for s in honest)  # never taken in


def test_a_forged_shuffle_goes_through_without_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    def trusting(self: TableKeys, *args: Any) -> Any:
        return
        yield  # pragma: no cover
    monkeypatch.setattr(TableKeys, "verify_shuffle", trusting)
    hub = make_hub(3, seed=1)
    hub.tamper = forge_shuffle
    play(hub)
    for s in (0, 1):  # the forged pack was taken in: the proof's check is what refuses it
        assert len(hub.games[s].deal.packs[0].decks) == 3


# --- a withheld or forged share --------------------------------------------------------------------


def test_a_withheld_share_opens_nothing_and_the_host_ends_the_match_unverified() -> None:
    hub = make_hub(4, seed=2)
    hub.tamper = lambda s, r, m: None if (s == 1 and m["t"] == "deal" and m["p"] == 0) else m
    play(hub)
    for s in (0, 2, 3):
        g = hub.games[s]
        p = g.deal.packs[0]
        assert p.layout is not None
        assert not any(slot in p.cards for slot in p.layout.hands[s])  # its own cards need seat 2's share
        assert g.legal() == [] and g.status() == "playing"
    hub.games[0].end_match()
    hub.pump()
    assert [g.status() for g in hub.games] == ["ended"] * 4


def forge_share(sender: int, receiver: int, m: dict[str, Any]) -> dict[str, Any]:
    if sender == 1 and m["t"] == "deal" and m["p"] == 0:
        m["shares"][0][1], m["shares"][1][1] = m["shares"][1][1], m["shares"][0][1]
    return m


def test_a_forged_share_stops_every_seat_before_use() -> None:
    hub = make_hub(3, seed=3)
    hub.tamper = forge_share
    play(hub)
    honest_sent_nothing_built_on(hub, lambda s, m: s == 1 and m["t"] == "deal" and m["p"] == 0, [0, 2])
    for s in (0, 2):
        p = hub.games[s].deal.packs[0]
        assert p.layout is not None and not any(slot in p.cards for slot in p.layout.hands[s])


# --- a false Go in the last hand -------------------------------------------------------------------


class Cheater(TableGame):
    """Runs modified code: its own false Go goes into its match unchecked, and it audits nobody."""

    def _apply(self, k: int, action: Any) -> None:
        try:
            super()._apply(k, action)
        except ProtocolError:
            if not (isinstance(action, Go) and action.seat == self.seat):
                raise
            assert self.match is not None
            self.match.state._go(action)
            self.match.actions.append(action)
            self.history.append((k, action))

    def _audit(self) -> bool:
        self.audited = len(self.history)  # (believes every move of its own and the others')
        return False


def play_with_a_false_go(hub: Hub, cheater: int, from_score: int) -> bool:
    """Play; ``cheater`` says Go instead of laying a card that fits, once a side has ``from_score``.
    True once it did."""
    rng = random.Random(7)
    hub.pump()
    cheated = False
    for _ in range(4000):
        moved = False
        for g in hub.games:
            if g.can_agree() is not None:
                g.agree("next" if g.can_agree() == "next" else "leave")
                moved = True
                continue
            legal = g.legal()
            if not legal:
                continue
            moved = True
            st = g.match.state if g.match else None
            if (g.seat == cheater and not cheated and st is not None and max(st.scores) >= from_score
                    and any(isinstance(a, Play) for a in legal)):
                g.deal.say(g._k(), {"act": str(Go(g.seat))})
                g._sync()
                cheated = True
            else:
                g.act(rng.choice(legal))
        hub.pump()
        if not moved:
            break
    return cheated


def cheat_hub(players: int, cheater: int, seed: int) -> Hub:
    hub = make_hub(players, seed=seed)
    bad = hub.games[cheater]
    hub.games[cheater] = Cheater(cheater, rules=bad.rules, room=bad.room, group=bad.deal.group,
                                 randbelow=bad.deal.randbelow)
    return hub


@pytest.mark.parametrize("players,cheater,seed", [
    pytest.param(3, 0, 100, marks=pytest.mark.slow), (3, 1, 101), pytest.param(3, 2, 105, marks=pytest.mark.slow),
    pytest.param(4, 3, 101, marks=pytest.mark.slow), pytest.param(4, 0, 100, marks=pytest.mark.slow)])
def test_a_false_go_in_the_last_hand_is_caught_by_every_honest_seat(players: int, cheater: int, seed: int) -> None:
    """(The seeds are ones where the match ends in the hand of the false Go: only the end's audit sees it.)"""
    hub = cheat_hub(players, cheater, seed=seed)
    assert play_with_a_false_go(hub, cheater, from_score=50)
    for s in range(players):
        if s == cheater:
            continue
        g = hub.games[s]
        assert g.failure is not None and f"seat {cheater + 1} said Go" in g.failure, g.failure
        assert g.match is not None and g.match.state.is_over  # caught by the audit at the end of the match
        assert g.status() == "stopped" and g.can_agree() is None
        agreed = [m for w, x, _, m in hub.events if w == "sent" and x == s and m["t"] == "say"
                  and "agree" in m["value"] and m["p"] == g.match.state.hand_number - 1]
        assert agreed == []  # no agreement to a new match built on the false Go


def test_a_false_go_goes_through_without_the_audit(monkeypatch: pytest.MonkeyPatch) -> None:
    def believing(self: TableGame) -> bool:
        self.audited = len(self.history)
        return False
    monkeypatch.setattr(TableGame, "_audit", believing)
    hub = cheat_hub(3, 1, seed=100)
    assert play_with_a_false_go(hub, 1, from_score=50)
    assert all(g.failure is None for g in hub.games)


# --- a replay ------------------------------------------------------------------------------------


def test_a_replayed_message_is_refused_and_the_match_goes_on() -> None:
    hub = make_hub(3, seed=4)
    replays = []

    def twice(s: int, r: int, m: dict[str, Any]) -> Any:
        if s == 1 and r == 2 and m["t"] in ("lay", "discard") and len(replays) < 3:
            replays.append(m)
            return [m, dict(m)]
        return m
    hub.tamper = twice
    play(hub)
    assert len(replays) == 3
    assert len(hub.games[2].refused) == 3 and all("replay" in e or "twice" in e for e in hub.games[2].refused)
    assert all(g.status() == "verified" for g in hub.games), [g.failure for g in hub.games]


# --- equivocation --------------------------------------------------------------------------------


def test_a_seat_telling_two_seats_different_shuffles_is_caught_before_the_next_shuffle() -> None:
    hub = make_hub(4, seed=5)

    def equivocate(s: int, r: int, m: dict[str, Any]) -> dict[str, Any]:
        if s == 1 and r == 2 and m["t"] == "shuffle" and m["p"] == 0:
            d = hub.games[1].deal
            outputs, proof = run(d.keys.shuffle_and_prove(0, d.packs[0].decks[0], random.Random(9).randrange))
            m = {**m, "cards": elgamal.encode_ciphertexts(d.group, outputs), "proof": proof}
        return m
    hub.tamper = equivocate
    play(hub)
    def bad(s: int, m: dict[str, Any]) -> bool:
        return s == 1 and m["t"] == "shuffle" and m["p"] == 0
    honest_sent_nothing_built_on(hub, bad, [0, 2, 3])
    assert any("another story" in (hub.games[s].failure or "") for s in (0, 2, 3))


def test_different_shuffles_go_through_without_the_echo_check(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_chain.Story, "confirmed", lambda self, r: r < self.round)
    hub = make_hub(4, seed=5)

    def equivocate(s: int, r: int, m: dict[str, Any]) -> dict[str, Any]:
        if s == 1 and r == 2 and m["t"] == "shuffle" and m["p"] == 0:
            d = hub.games[1].deal
            outputs, proof = run(d.keys.shuffle_and_prove(0, d.packs[0].decks[0], random.Random(9).randrange))
            m = {**m, "cards": elgamal.encode_ciphertexts(d.group, outputs), "proof": proof}
        return m
    hub.tamper = equivocate
    play(hub, limit=3)
    after = hub.sent_after(2, lambda s, m: s == 1 and m["t"] == "shuffle" and m["p"] == 0) or []
    assert any(m["t"] == "shuffle" for m in after)  # seat 3 built its shuffle on the one it alone was told


def test_a_seat_telling_two_seats_different_plays_is_caught_before_the_next_play() -> None:
    """Seat 2 lays a card to seat 1 and says Go to seat 3. The echoes between seats 1 and 3 are held back
    on the wire while the players go on acting: neither honest seat may send anything built on the round
    (its next turn is not opened before every echo is in); once the echoes arrive, both stop."""
    hub = make_hub(3, seed=6)
    told: list[dict[str, Any]] = []

    def equivocate(s: int, r: int, m: dict[str, Any]) -> dict[str, Any]:
        if s == 1 and r == 2 and m["t"] == "lay" and not told:
            told.append(m)
            told.append({"t": "say", "p": m["p"], "r": m["r"], "from": 1, "h": m["h"], "value": {"act": "go 1"}})
            return told[1]
        if s == 1 and r == 2 and told and m["t"] == "ack" and m["p"] == told[0]["p"] and m["r"] == told[0]["r"]:
            # its echo to seat 3 is of the story seat 3 was told
            return {**m, "h": table_chain._round_hash(told[0]["h"], m["r"], {1: told[1]})}
        return None if (s == 1 and m["t"] == "abort") else m  # (the cheater never owns up)

    def hold(s: int, r: int, m: dict[str, Any]) -> bool:
        return (bool(told) and {s, r} == {0, 2} and m["t"] == "ack" and m["p"] == told[0]["p"]
                and m["r"] == told[0]["r"])
    hub.tamper = equivocate
    rng = random.Random(3)
    hub.pump()
    for _ in range(400):
        for g in hub.games:
            if g.can_agree() is not None:
                g.agree("next")
            elif g.legal():
                g.act(rng.choice(g.legal()))
        hub.pump(hold=hold)
        if told and not any(g.legal() for g in hub.games):
            break
    assert told
    def bad(s: int, m: dict[str, Any]) -> bool:
        return s == 1 and m["t"] in ("lay", "say") and m["r"] == told[0]["r"] and m["p"] == told[0]["p"]
    for s in (0, 2):
        after = hub.sent_after(s, bad)
        assert after is not None and [m for m in after if m["t"] in BUILT] == []
    hub.pump()  # the echoes arrive: each sees the other holds another story
    honest_sent_nothing_built_on(hub, bad, [0, 2])
    assert all("another story" in (hub.games[s].failure or "") for s in (0, 2))
