"""The table game's work in steps (issue 32, "the deal keeps up with play"): every step of a seat's work is a
few group operations at most (counted, not timed: the same bound holds in CPython and inside Pyodide), a
shuffle received is checked in slices while the hand's messages go on, the next pack is shuffled and proven
while the hand is played so the deal after "next hand" needs only the decryption shares, and a seat saved
in the middle of its own shuffle resumes it. Times on P-256: docs/performance.md ("Three and four online:
the deal", ``py/tools/bench_table_deal.py``)."""

from __future__ import annotations

import json
import random
from typing import Any, Callable

import pytest

from cribbage.online.group import OpCount
from cribbage.online.table_deal import TableDeal
from cribbage.online.table_game import TableGame

from table_game_hub import TINY, Hub, make_hub

STEP_OPS = 40
"""The most group work one step may do, as single multiplications ("naive": a multi-scalar term counts as one,
a fixed-base one too). On P-256 in CPython a variable-base multiplication is ~1 ms, the others less: 40 of them
are under 15 ms of CPython, under 50 ms inside Pyodide (docs/performance.md)."""


def ops() -> int:
    o: OpCount = TINY.ops
    return o.total_naive()


def deliver(hub: Hub) -> bool:
    """Every outbox to every other seat's inbox (as JSON); no work done."""
    moved = False
    for s, g in enumerate(hub.games):
        for message in g.take_outbox():
            moved = True
            hub.events.append(("sent", s, -1, message))
            for r, other in enumerate(hub.games):
                if r != s:
                    other.receive(s, json.loads(json.dumps(message)))
    return moved


def drive(hub: Hub, until: Callable[[], bool], on_step: Callable[[TableGame, int], None] = lambda g, n: None,
          patient: bool = True, seed: int = 3, limit: int = 200_000) -> None:
    """One step of each busy seat in turn; the players act (a seeded random legal action, "next" between
    hands) only once no seat has work left (``patient``: players slower than the deal) or at every turn."""
    rng = random.Random(seed)
    for _ in range(limit):
        if until():
            return
        moved = deliver(hub)
        for g in hub.games:
            if g.busy:
                before = ops()
                assert g.step()
                on_step(g, ops() - before)
                moved = True
        if moved and patient:
            continue
        for g in hub.games:
            if g.can_agree() == "next":
                g.agree("next")
                moved = True
            elif g.legal():
                g.act(rng.choice(g.legal()))
                moved = True
        if not moved:
            return
    raise AssertionError("the table did not get there")


def hand_of(g: TableGame) -> int:
    return 0 if g.match is None else g.match.state.hand_number


@pytest.mark.parametrize("players", [3, 4])
def test_no_step_of_a_seats_work_does_more_than_a_few_group_operations(players: int) -> None:
    """Two hands and the next deal, one step at a time: every step, a shuffle's check and this seat's own
    shuffle included, stays under the bound (the check of a shuffle in one message was hundreds)."""
    hub = make_hub(players, seed=5, saveable=True)
    steps: list[int] = []
    kinds: set[str] = set()

    def counted(g: TableGame, n: int) -> None:
        steps.append(n)
        if g.checking is not None:
            kinds.add(f"check {g.checking[0]['t']}")
        if any(j.kind == "shuffle" for j in g.deal.jobs):
            kinds.add("own shuffle")

    drive(hub, lambda: all(hand_of(g) == 3 and g.legal() for g in hub.games[:1]), counted, patient=False)
    assert all(g.failure is None for g in hub.games), [g.failure for g in hub.games]
    assert kinds == {"check shuffle", "check deal", "own shuffle"}  # each was sliced here
    assert max(steps) <= STEP_OPS, sorted(steps)[-10:]
    assert sum(steps) > 20 * STEP_OPS  # (a pack's shuffles are far more than one step's work)


@pytest.mark.parametrize("players", [3, 4])
def test_the_next_pack_is_proven_before_the_hand_ends_and_the_next_deal_needs_only_shares(players: int) -> None:
    hub = make_hub(players, seed=6, saveable=True)
    seen: dict[str, Any] = {"asked": [], "after": 0, "counting": False, "kinds": set()}

    def agreed() -> bool:
        asked = [g for g in hub.games if g.can_agree() == "next"]
        if asked and not seen["asked"]:
            seen["asked"] = [hand_of(g) for g in hub.games]
            k = hub.games[0]._k()  # (the match is at the next hand: its pack)
            for g in hub.games:  # when the hand ends (its show and audit done), the next pack is proven
                p = g.deal.packs[k]
                assert len(p.decks) == players and p.phase == "cut" and not any(j.pack == k for j in g.deal.jobs)
            seen["counting"] = True
        return bool(seen["asked"]) and all(len(g.deal.hand(g._k())) == g.rules.hand_size for g in hub.games)

    def counted(g: TableGame, n: int) -> None:
        if seen["counting"]:
            seen["after"] += n
            seen["kinds"] |= {"check"} if g.checking is not None and g.checking[0]["t"] == "shuffle" else set()
            seen["kinds"] |= {"own shuffle"} if any(j.kind == "shuffle" for j in g.deal.jobs) else set()

    drive(hub, agreed, counted)
    assert all(g.failure is None for g in hub.games)
    # the deal after "next hand": each seat's shares of the others' cards and their proofs, no shuffle
    assert seen["kinds"] == set()
    assert 0 < seen["after"] <= players * (players - 1) * 5 * 10, seen["after"]


def test_a_pack_is_begun_at_every_seat_as_the_play_of_the_hand_before_begins() -> None:
    hub = make_hub(3, seed=7, saveable=True)
    drive(hub, lambda: all(g.match is not None and g.match.state.phase.name == "PLAY" for g in hub.games))
    for g in hub.games:
        assert 1 in g.deal.packs


def test_a_seat_saved_in_the_middle_of_its_own_shuffle_resumes_it_and_the_match_goes_on() -> None:
    hub = make_hub(3, seed=8, saveable=True)

    def midway() -> bool:
        g = hub.games[1]
        job = next((j for j in g.deal.jobs if j.kind == "shuffle"), None)
        return job is not None and job.pack == 1 and job.work.gi_frame is not None and job.work.gi_frame.f_lasti > 0

    drive(hub, midway, patient=False)
    g = hub.games[1]
    sent_before = [m for w, s, _, m in hub.events if w == "sent" and s == 1]
    saved = json.loads(json.dumps(g.to_dict()))
    assert saved["deal"]["version"] == 2 and any(e[0] == "done" for e in saved["deal"]["events"])
    back = TableGame.from_dict(saved, groups=(TINY,))
    assert [(j.pack, j.kind) for j in back.deal.jobs] == [(1, "shuffle")]  # the shuffle begun, to be made again
    assert back.take_outbox() == [] and back.deal.packs[1].story.hashes == g.deal.packs[1].story.hashes
    hub.games[1] = back
    drive(hub, lambda: all(x.status() == "verified" for x in hub.games), patient=True)
    assert all(x.status() == "verified" for x in hub.games), [x.failure for x in hub.games]
    sent_after = [m for w, s, _, m in hub.events if w == "sent" and s == 1]
    shuffles = [m for m in sent_after if m["t"] == "shuffle" and m["p"] == 1]
    assert len(shuffles) == 1 and not any(m["t"] == "shuffle" and m["p"] == 1 for m in sent_before)


def test_a_save_of_an_unsliced_deal_replays_unsliced() -> None:
    """Saves of version 1 (every shuffle made at once) still load, and play on as they were made."""
    from table_peers import deal_hand, make_mesh
    mesh = make_mesh(3, seed=9, group=TINY)
    mesh.deals[0] = TableDeal(0, rules=mesh.deals[1].rules, room="table-room", group=TINY, seed=bytes(32))
    deal_hand(mesh)
    saved = json.loads(json.dumps(mesh.deals[0].to_dict()))
    assert saved["version"] == 1 and not any(e[0] == "done" for e in saved["events"])
    back = TableDeal.from_dict(saved, (TINY,))
    assert not back.sliced and back.hand(0) == mesh.deals[0].hand(0)
