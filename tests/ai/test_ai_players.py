"""Players: every level plays whole matches legally, from a seat view and nothing else."""

from __future__ import annotations

import inspect
import typing

import pytest

from ai_positions import at_discard, at_play
from cribbage.ai import PLAYER_NAMES, Player, make_player
from cribbage.match import Match
from cribbage.view import SeatView, view


def test_player_names_are_the_five_levels():
    assert PLAYER_NAMES == ("random", "greedy", "easy", "medium", "expert")


def test_unknown_player_names_the_choices():
    with pytest.raises(ValueError) as exc:
        make_player("grandmaster")
    for name in PLAYER_NAMES:
        assert name in str(exc.value)


@pytest.mark.parametrize("name", PLAYER_NAMES)
def test_choose_receives_only_a_seat_view(name):
    player = make_player(name, seed=1)
    assert isinstance(player, Player)
    assert player.name == name
    params = list(inspect.signature(player.choose).parameters.values())
    assert len(params) == 1
    hints = typing.get_type_hints(player.choose)
    assert hints[params[0].name] is SeatView


@pytest.mark.parametrize("name", PLAYER_NAMES)
def test_every_player_plays_a_whole_match_legally(name):
    # Both seats by the same level; every decision (cuts, discards, play, Go, the show) is asked for.
    match = Match(seed=hash(name) % 1000, humans=())
    players = [make_player(name, seed=1), make_player(name, seed=2)]
    steps = 0
    while not match.state.is_over:
        for seat in match.state.actors():
            v = match.view(seat)
            action = players[seat].choose(v)
            assert action in v.legal_actions, f"{name} chose {action} which is not legal"
            match.apply(action)
            steps += 1
            break
        assert steps < 2000
    assert max(match.state.scores) >= 121


def test_expert_decisions_depend_only_on_the_view():
    # Same seat-1 hand and history; the dealer's (seat 0) hidden cards differ completely.
    a = at_play("9S KC 3D AC 8H 7H", "2H TD 4S 6C QH QD", "8D", plays="9S 2H")
    b = at_play("9S KC 3D AC 8H 7H", "2H 5D 5C JC QH QD", "8D", plays="9S 2H")
    va, vb = view(a, 1), view(b, 1)
    assert va == vb
    assert make_player("expert", seed=5).choose(va) == make_player("expert", seed=5).choose(vb)
    da = at_discard("5H 5C 6H JS QS 9C", "2H TD 4S 6C QH QD")
    db = at_discard("5H 5C 6H JS QS 9C", "AH AD 2S 3C KH QC")
    assert view(da, 1) == view(db, 1)
    assert make_player("expert", seed=5).choose(view(da, 1)) == make_player("expert", seed=5).choose(view(db, 1))


def test_views_never_show_the_opponents_hidden_hand():
    state = at_play("9S KC 3D AC 8H 7H", "2H TD 4S 6C QH QD", "8D", plays="9S")
    v = view(state, 1)
    hidden = set(state.hands[0])
    assert not hidden & v.known_cards()
