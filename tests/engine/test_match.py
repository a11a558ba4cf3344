"""The match record: replay, undo/redo (with the computer's replies), restart, saves."""

from __future__ import annotations

import json
import random

import pytest

from cribbage.match import SAVE_VERSION, Match, SaveError
from cribbage.state import IllegalActionError, Phase


def play_randomly(match: Match, steps: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        if match.state.is_over:
            return
        match.apply(rng.choice(match.legal_actions()))


def snapshot(match: Match):
    s = match.state
    return (s.phase, list(s.scores), s.dealer, s.hand_number, [list(h) for h in s.hands], s.starter,
            list(s.pile), list(s.events), [str(a) for a in match.actions])


def test_same_seed_same_deals():
    a, b = Match(42), Match(42)
    play_randomly(a, 120, seed=1)
    for action in a.actions:
        b.apply(action)
    assert snapshot(a) == snapshot(b)


def test_different_seeds_deal_differently():
    a, b = Match(1), Match(2)
    for m in (a, b):
        m.apply(m.legal_actions()[0])
        m.apply(m.legal_actions()[0])
    assert a.state.cut_cards != b.state.cut_cards


def test_seed_gives_a_fixed_first_shuffle_on_every_python():
    # Pinned: if this changes, every saved match in every browser would replay differently.
    m = Match(2026)
    m.apply("cutdeal 0 4")
    m.apply("cutdeal 1 4")
    assert [str(c) for c in m.state.cut_cards] == ["9H", "AD"]


def test_hot_seat_undo_takes_back_one_action_and_redo_replays_it():
    m = Match(7, humans=(0, 1))
    play_randomly(m, 30)
    before = snapshot(m)
    last = m.actions[-1]
    assert m.undo() and len(m.actions) == 29
    replay = Match(7, humans=(0, 1))
    for action in m.actions:
        replay.apply(action)
    assert snapshot(m) == snapshot(replay)  # the state itself is taken back, not only the record
    assert m.can_redo and m.redo()
    assert m.actions[-1] == last and snapshot(m) == before


def test_against_the_computer_one_undo_also_takes_back_its_replies():
    m = Match(11, humans=(0,))
    rng = random.Random(3)
    human_moves = 0
    while human_moves < 12 and not m.state.is_over:
        action = rng.choice(m.legal_actions())
        m.apply(action)
        human_moves += action.seat == 0
    while m.actions[-1].seat == 0:  # end on computer replies
        m.apply(rng.choice(m.legal_actions()))
    states = snapshot(m)
    played = list(m.actions)
    last_human = max(i for i, a in enumerate(played) if a.seat == 0)
    replies = played[last_human + 1:]
    assert replies and all(a.seat == 1 for a in replies)
    assert m.undo()
    # Exactly the human's last decision and the computer's replies to it are taken back, no more.
    assert m.actions == played[:last_human]
    assert m.undone == list(reversed(played[last_human:]))
    assert m.undone[-1].seat == 0  # the human's decision is the next to redo
    # The state is the one before that decision, not merely the record shortened.
    before = Match(11, humans=(0,))
    for action in played[:last_human]:
        before.apply(action)
    assert snapshot(m)[:-1] == snapshot(before)[:-1]
    assert m.legal_actions() == before.legal_actions() and played[last_human] in m.legal_actions()
    assert m.redo()
    assert snapshot(m) == states and not m.can_redo


def test_undo_to_the_start_and_redo_to_the_end_return_identical_states():
    m = Match(5, humans=(0,))
    play_randomly(m, 400, seed=9)
    end = snapshot(m)
    while m.undo():
        pass
    assert not m.can_undo
    assert all(a.seat == 1 for a in m.actions)  # only computer actions before the human's first
    while m.redo():
        pass
    assert snapshot(m) == end


def test_a_new_action_clears_redo():
    m = Match(5)
    play_randomly(m, 10)
    m.undo()
    assert m.can_redo
    m.apply(m.legal_actions()[-1])
    assert not m.can_redo


def test_restart_replays_the_same_deals():
    m = Match(99)
    play_randomly(m, 60)
    first_hands = None
    replay = Match(99)
    for a in m.actions:
        replay.apply(a)
        if replay.state.phase is Phase.DISCARD and first_hands is None:
            first_hands = [list(h) for h in replay.state.hands]
    m.restart()
    assert m.actions == [] and m.state.phase is Phase.CUT_FOR_DEAL
    for a in replay.actions:
        if m.state.phase is Phase.DISCARD:
            break
        m.apply(a)
    assert first_hands is not None
    assert [list(h) for h in m.state.hands] == first_hands


def test_save_and_load_reproduce_the_match():
    m = Match(123, humans=(0,), names=("Ann", "Computer"), options={"level": "expert"})
    play_randomly(m, 80)
    m.undo()
    loaded = Match.from_json(m.to_json())
    assert snapshot(loaded) == snapshot(m)
    assert loaded.undone == m.undone and loaded.names == ("Ann", "Computer")
    assert loaded.options == {"level": "expert"} and loaded.humans == frozenset({0})


@pytest.mark.parametrize("mangle,message", [
    (lambda s: s[: len(s) // 2], "not valid JSON"),
    (lambda s: "", "not valid JSON"),
    (lambda s: "[1, 2, 3]", "not a cribbage save"),
    (lambda s: json.dumps({"format": "chess"}), "not a cribbage save"),
    (lambda s: s.replace('"seed":123', '"seed":124'), "altered"),
    (lambda s: s.replace('"version":1', f'"version":{SAVE_VERSION + 1}'), "newer version"),
])
def test_bad_saves_are_refused_with_a_clear_message(mangle, message):
    m = Match(123)
    play_randomly(m, 20)
    with pytest.raises(SaveError, match=message):
        Match.from_json(mangle(m.to_json()))


def test_a_save_with_a_forged_checksum_but_illegal_actions_is_refused():
    from cribbage.match import _checksum
    m = Match(123)
    play_randomly(m, 20)
    data = m.to_dict()
    data["actions"].append("play 0 KS")
    data["checksum"] = _checksum(data)
    with pytest.raises(SaveError, match="cannot be replayed"):
        Match.from_dict(data)
    data["actions"][-1] = "fly 0 to the moon"
    data["checksum"] = _checksum(data)
    with pytest.raises(SaveError, match="cannot be replayed"):
        Match.from_dict(data)


def test_an_illegal_action_leaves_the_match_unchanged():
    m = Match(8)
    play_randomly(m, 5)
    before = snapshot(m)
    with pytest.raises(IllegalActionError):
        m.apply("play 0 KS")
    with pytest.raises(IllegalActionError):
        m.apply("nonsense")
    assert snapshot(m) == before


def test_seed_must_be_a_64_bit_integer():
    for bad in (-1, 2**64, "7", 1.5, True):
        with pytest.raises(ValueError):
            Match(bad)  # type: ignore[arg-type]
