"""Payloads of the next match that come before this browser begins it (issue 31): only the few the
protocol can send then are kept, each shape-checked and small; a declined offer clears them; so a
peer cannot grow the room's record with them (it grew to 12.6 MB with 65 payloads of 190 kB)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cribbage.online import ProtocolError
from cribbage.online.game import EARLY_KINDS, MAX_EARLY_BYTES, OnlineGame
from cribbage.online.group import MODP_TEST
from cribbage.state import Phase

from peers import make_table, run_until

BIG = "A" * 190_000
"""About the size of the largest payload a peer may send (a proven shuffle)."""


_OFFERED: list[str] = []


def offered() -> tuple[OnlineGame, OnlineGame]:
    """Mid-hand, seat 0 offered a new match; seat 1 holds the offer and has not answered (played
    once, then each test resumes both from their saves)."""
    if not _OFFERED:
        table = make_table(seed=31)
        run_until(table, random.Random(31), lambda: table.peers[0].match.state.phase is Phase.PLAY)
        a, b = table.peers
        a.offer_new_match()
        table.pump()
        _OFFERED.extend(p.to_json() for p in (a, b))
    a, b = (OnlineGame.from_dict(json.loads(text), randbelow=random.Random(s).randrange, groups=(MODP_TEST,))
            for s, text in enumerate(_OFFERED))
    assert b.new_match_offer == 0 and a.new_match_offer == 0
    return a, b


def early(kind: str, n: int, **fields: Any) -> dict[str, Any]:
    """A payload of match 1 (the next one) from seat 1, well-formed as far as its envelope goes."""
    body: dict[str, Any] = {
        "key": {"share": "A" * 64, "proof": ["AA", "AA"]},
        "newmatch": {"op": "offer"},
        "abort": {"reason": "gone"},
        "go": {"pack": 0},
        "shuffle": {"pack": 0, "step": 1, "cards": [["AA", "AA"]] * 52, "proof": {}},
    }[kind]
    return {"t": kind, "m": 1, "n": n, **body, **fields}


def saved_size(peer: OnlineGame) -> int:
    return len(peer.to_json())


def test_the_few_payloads_the_protocol_sends_ahead_are_kept_in_order() -> None:
    a, _ = offered()
    for n, kind in enumerate(EARLY_KINDS):
        a.receive(early(kind, n))
    assert [m["t"] for m in a.to_dict()["early"]] == list(EARLY_KINDS)


def test_a_flood_of_the_next_match_is_refused_after_the_few_it_may_send() -> None:
    a, _ = offered()
    size = saved_size(a)
    kept = 0
    for n in range(65):  # the old bound: 65 payloads, each up to ~190 kB
        message = early("key" if n == 0 else "abort", n, **({"reason": BIG[:150_000]} if n else {}))
        try:
            a.receive(json.loads(json.dumps(message)))
            kept += 1
        except ProtocolError:
            pass
    assert kept == 1
    assert saved_size(a) < size + 2 * MAX_EARLY_BYTES


def test_a_huge_payload_of_the_next_match_is_refused() -> None:
    a, _ = offered()
    size = saved_size(a)
    with pytest.raises(ProtocolError, match="longer than"):
        a.receive(early("key", 0, share=BIG))
    assert a.to_dict()["early"] == [] and saved_size(a) == size


@pytest.mark.parametrize("message", [
    early("shuffle", 0),                       # no shuffle before this browser's key share exists there
    early("go", 0),                            # nor a move
    early("key", 0, share=7),                  # shape-checked before it is kept
    early("key", 3),                           # in order from its first payload
    early("newmatch", 0, op="accept"),         # an answer to an offer never made in that match
    early("abort", 0, reason=["not", "text"]),
], ids=["shuffle", "go", "share-not-text", "out-of-order", "accept", "reason-not-text"])
def test_a_payload_of_the_next_match_the_protocol_cannot_send_yet_is_refused(message: dict[str, Any]) -> None:
    a, _ = offered()
    with pytest.raises(ProtocolError):
        a.receive(message)
    assert a.to_dict()["early"] == []


def test_the_same_kind_twice_is_refused() -> None:
    a, _ = offered()
    a.receive(early("key", 0))
    with pytest.raises(ProtocolError, match="second"):
        a.receive(early("key", 1))


def test_a_declined_offer_clears_what_came_of_the_next_match() -> None:
    a, b = offered()
    a.receive(early("key", 0))
    assert a.to_dict()["early"] != []
    b.answer_new_match(False)
    b.run_all()
    a.receive(b.take_outbox()[-1])
    a.run_all()
    assert a.new_match_offer is None and a.failure is None
    assert a.to_dict()["early"] == []
    with pytest.raises(ProtocolError, match="match 1"):  # and no more is kept after the decline
        a.receive(early("abort", 1))
