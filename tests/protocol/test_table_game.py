"""The game at a table of three and four seats (partners included) over the proven deal: whole matches,
a seat reloaded mid-hand, the next hand and a new match by every seat's agreement, the host's end, and
a scan that no seat's knowledge or view ever holds a card the rules keep from it.

The small test group (:data:`table_game_hub.TINY`) keeps a whole match to 61 to a few seconds."""

from __future__ import annotations

import json
import random

import pytest

from cribbage.actions import Discard
from cribbage.cards import Card
from cribbage.match import SaveError
from cribbage.online.table_game import TableGame
from cribbage.state import IllegalActionError, Phase

from table_game_hub import TINY, Hub, make_hub, play, step


def assert_one_match(hub: Hub) -> None:
    """Every seat holds the same match: the same actions (hidden discards aside), scores, winner."""
    first = hub.games[0].match
    assert first is not None
    for g in hub.games:
        assert g.match is not None
        assert g.match.state.scores == first.state.scores
        assert g.match.state.winner == first.state.winner
        assert [str(a) for a in g.match.actions if not isinstance(a, Discard)] == \
            [str(a) for a in first.actions if not isinstance(a, Discard)]
        assert len(g.history) == len(hub.games[0].history)


@pytest.mark.parametrize("players", [3, pytest.param(4, marks=pytest.mark.slow)])
def test_a_whole_match_to_61_is_played_and_verified_at_every_seat(players: int) -> None:
    hub = make_hub(players, seed=players)
    play(hub)
    for g in hub.games:
        assert g.status() == "verified", g.failure
        assert g.match is not None and g.match.state.is_over
        assert g.match.state.hand_number >= 2  # the next hand was agreed at least once
        assert max(g.match.state.scores) >= 61
        assert g.audited == len(g.history) > 0
    assert_one_match(hub)
    assert all(g.refused == [] for g in hub.games)


@pytest.mark.slow
@pytest.mark.parametrize("players,seed,target", [(3, 11, 61), (4, 12, 61), (3, 13, 121), (4, 14, 121)])
def test_more_whole_matches(players: int, seed: int, target: int) -> None:
    hub = make_hub(players, seed=seed, target=target)
    play(hub, seed=seed, limit=20000)
    assert all(g.status() == "verified" for g in hub.games), [g.failure for g in hub.games]
    assert_one_match(hub)


def in_play_of_hand(h: int) -> "object":
    def at(hub: Hub) -> bool:
        m = hub.games[0].match
        return m is not None and m.state.hand_number == h and m.state.phase is Phase.PLAY and bool(m.state.pile)
    return at


@pytest.mark.parametrize("players", [pytest.param(3, marks=pytest.mark.slow), 4])
def test_a_seat_reloaded_mid_hand_resumes_its_seat_and_the_match_goes_on(players: int) -> None:
    hub = make_hub(players, seed=20 + players, saveable=True)
    play(hub, until=in_play_of_hand(2))  # type: ignore[arg-type]
    # the next hand's pack is already shuffled and proven by every seat, during this hand
    assert all(len(g.deal.packs[2].decks) == players and g.deal.packs[2].phase == "cut" for g in hub.games)
    seat = players - 1
    old = hub.games[seat]
    assert old.match is not None
    before = (old.match.state.scores, [str(a) for a in old.match.actions], old.legal(), old.view())
    text = json.dumps(old.to_dict())
    again = TableGame.from_dict(json.loads(text), groups=(TINY,))
    assert again.match is not None
    assert (again.match.state.scores, [str(a) for a in again.match.actions], again.legal(), again.view()) == before
    assert again.take_outbox() == old.take_outbox()
    hub.games[seat] = again
    play(hub)
    assert all(g.status() == "verified" for g in hub.games), [g.failure for g in hub.games]
    assert_one_match(hub)


def test_a_save_that_is_not_one_is_refused_with_a_sentence() -> None:
    for bad in (None, {}, {"format": "cribbage-table-game", "version": 1, "deal": {}}, "text"):
        with pytest.raises(SaveError):
            TableGame.from_dict(bad, groups=(TINY,))


def test_the_next_hand_waits_for_every_seat_and_a_new_match_starts_when_all_agree() -> None:
    hub = make_hub(3, seed=5)
    rng = random.Random(5)
    hub.pump()
    # play to the end of the first hand's show: the cutter of hand 2 may not cut before all agree
    for _ in range(2000):
        if any(g.can_agree() == "next" for g in hub.games):
            break
        step(hub, rng)
    assert all(g.can_agree() == "next" for g in hub.games)
    hub.games[0].agree("new")  # seat 1 asks for a new match, the others for the next hand: asked again
    hub.games[1].agree("next")
    hub.games[2].agree("next")
    hub.pump()
    assert all(g.can_agree() == "next" for g in hub.games) and all(g.deal.match == 0 for g in hub.games)
    with pytest.raises(IllegalActionError):
        hub.games[0].agree("leave")
    hub.games[0].agree("next")
    hub.games[1].agree("next")
    hub.pump()
    assert all(g.legal() == [] for g in hub.games)  # seat 3 has not agreed: nobody cuts
    hub.games[2].agree("next")
    hub.pump()
    m = hub.games[0].match
    assert m is not None and m.state.hand_number == 2
    assert any(g.legal() for g in hub.games)  # now the cutter cuts
    def renewed(h: Hub) -> bool:
        return all(g.deal.match == 1 and g.match is not None and g.match.state.hand_number == 1 for g in h.games)
    play(hub, answer="new", until=renewed)
    # every seat answered "new": a new match (number 1) with fresh keys, its first hand dealt
    assert renewed(hub), [g.failure for g in hub.games]
    assert all(g.status() == "playing" and g.history == [] or g.status() == "playing" for g in hub.games)
    assert hub.games[0].deal.key_story.hashes[1] == hub.games[2].deal.key_story.hashes[1]


def test_the_host_ends_the_match_unverified_at_every_seat() -> None:
    hub = make_hub(4, seed=6)
    play(hub, until=in_play_of_hand(1))  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="only the host"):
        hub.games[1].end_match()
    hub.games[0].end_match()
    hub.pump()
    assert [g.status() for g in hub.games] == ["ended"] * 4
    assert all(g.legal() == [] for g in hub.games)


def view_cards(g: TableGame) -> set[Card]:
    """Every card in this seat's view."""
    v = g.view()
    if v is None:
        return set()
    out = set(v.hand) | set(v.kept) | set(v.discards) | set(v.crib) | set(v.opponent_kept)
    out |= {c for _, c in v.pile} | {c for count in v.played for _, c in count}
    return out | ({v.starter} if v.starter is not None else set())


def hidden_slots(hub: Hub, seat: int, k: int) -> dict[int, Card]:
    """Slot -> card of pack ``k`` the rules keep from ``seat`` now: other seats' slots not laid, their
    discards before the crib's round, every hand before the audit (the truth from the owners' decks)."""
    p = hub.games[seat].deal.packs[k]
    if p.layout is None:
        return {}
    public = {s for laid in p.laid.values() for s in laid}
    if p.crib_open:
        public |= {s for d in p.discards.values() for s in d} | set(p.layout.crib_pack)
    if any(kind == "reveal" for _, kind in p.log):  # the audit's round is complete: every hand is open
        public |= {s for hand in p.layout.hands for s in hand}
    out: dict[int, Card] = {}
    for j, hand in enumerate(p.layout.hands):
        owner = hub.games[j].deal.packs.get(k)
        for s in hand:
            if j != seat and s not in public and owner is not None and s in owner.cards:
                out[s] = owner.cards[s]
    return out


@pytest.mark.parametrize("players", [pytest.param(3, marks=pytest.mark.slow), 4])
def test_no_seat_ever_holds_a_card_the_rules_keep_from_it_partner_included(players: int) -> None:
    hub = make_hub(players, seed=40 + players)
    rng = random.Random(1)
    hub.pump()
    checked = 0
    for _ in range(120):
        for s, g in enumerate(hub.games):
            for k, p in g.deal.packs.items():
                hidden = hidden_slots(hub, s, k)
                assert not set(p.cards) & set(hidden), f"seat {s + 1} opened {set(p.cards) & set(hidden)}"
                if g.match is not None and k == g.match.state.hand_number - 1:
                    leak = view_cards(g) & set(hidden.values())
                    assert not leak, f"seat {s + 1}'s view shows {leak}"
                    checked += len(hidden)
        if not step(hub, rng):
            break
    assert checked > 1000  # the scan saw hidden cards (partners' among them) at every step


def test_work_takes_one_message_at_a_time_within_its_budget_and_refuses_a_stranger() -> None:
    hub = make_hub(3, seed=8)
    g = hub.games[2]
    for s in (0, 1):
        for m in hub.games[s].take_outbox():
            g.receive(s, m)
    g.receive(0, {"t": "nonsense"})
    queued = len(g.inbox)
    assert queued == 3
    g.work(budget=0.0)
    assert len(g.inbox) == queued - 1 and g.busy
    g.work()
    assert not g.inbox and not g.busy
    assert len(g.refused) == 1 and "unknown kind" in g.refused[0]
    assert g.failure is None


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4])
def test_a_seat_reloaded_again_and_again_plays_the_same_match(players: int) -> None:
    """Every few steps one seat (in turn) is rebuilt from its save; the match ends verified at every seat."""
    hub = make_hub(players, seed=70 + players, saveable=True)
    rng = random.Random(2)
    hub.pump()
    for i in range(3000):
        if i % 7 == 0:
            s = (i // 7) % players
            old = hub.games[s]
            hub.games[s] = TableGame.from_dict(json.loads(json.dumps(old.to_dict())), groups=(TINY,))
            assert hub.games[s].legal() == old.legal() and hub.games[s].view() == old.view()
        if not step(hub, rng):
            break
    assert all(g.status() == "verified" for g in hub.games), [g.failure for g in hub.games]
    assert_one_match(hub)


def test_every_seat_asking_for_a_new_match_between_hands_starts_one() -> None:
    hub = make_hub(4, seed=9)
    rng = random.Random(9)
    hub.pump()
    for _ in range(2000):
        if all(g.can_agree() == "next" for g in hub.games):
            break
        step(hub, rng)
    assert all(g.verified is False and g.audited == len(g.history) for g in hub.games)  # the hand was audited
    for g in hub.games:
        g.agree("new")
    hub.pump()
    assert all(g.deal.match == 1 and g.failure is None for g in hub.games)
    assert all(g.match is not None and g.match.state.hand_number == 1 and g.history == [] for g in hub.games)


def test_the_scan_finds_a_partners_card_put_where_it_should_not_be() -> None:
    """The scan above can fail: a partner's card slipped into a seat's knowledge or view is found."""
    hub = make_hub(4, seed=44)
    play(hub, until=in_play_of_hand(1))  # type: ignore[arg-type]
    me, partner = hub.games[0], hub.games[2]
    p = partner.deal.packs[0]
    assert p.layout is not None
    held = [s for s in p.layout.hands[2] if s not in p.laid.get(2, [])]
    hidden = hidden_slots(hub, 0, 0)
    assert held and set(held) <= set(hidden)
    me.deal.packs[0].cards[held[0]] = p.cards[held[0]]
    assert set(me.deal.packs[0].cards) & set(hidden_slots(hub, 0, 0))
    assert me.match is not None
    me.match.state.hands[0].append(p.cards[held[-1]])
    assert view_cards(me) & set(hidden_slots(hub, 0, 0).values())
