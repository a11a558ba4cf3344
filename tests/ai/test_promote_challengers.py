"""The challengers of cribbage.ai.expert_next: the expert's play except where each says."""

from __future__ import annotations

from ai_positions import at_discard, at_play

from cribbage.ai.discard_wins import rank_by_winning
from cribbage.ai.expert_next import NextExpert, make_previous_expert
from cribbage.ai.players import ExpertPlayer
from cribbage.view import view

PONE, DEALER = "5H 5D JC 6S 7S QH", "2C 3C 9D KS 8H AD"


def _discard_view(scores):
    state = at_discard(PONE, DEALER)
    state.scores = list(scores)
    state.previous_scores = list(scores)
    return view(state, 1)  # seat 1 is the pone


def test_far_from_the_end_the_challenger_discards_as_the_expert():
    v = _discard_view((10, 20))
    assert NextExpert(1, discard_need=60).choose(v) == ExpertPlayer(1).choose(v)


def test_near_the_end_the_discard_is_the_phase_models_best():
    # Needs 41 and 51: the expert still plays for points here (its rule starts at 32).
    found_difference = False
    for scores in ((80, 70), (100, 95), (70, 110), (105, 110)):
        v = _discard_view(scores)
        mine = (v.scores[1], v.scores[0])
        best = rank_by_winning(v.hand, False, mine)[0].discard
        got = NextExpert(1, discard_need=60).choose(v)
        assert set(got.cards) == set(best)
        found_difference |= got != ExpertPlayer(1).choose(v)
    assert found_difference  # the rule changes at least one of these discards


def test_the_earlier_play_search_ranks_by_the_chance_of_winning():
    # Both need more than 40: the expert plays for points, the challenger for the chance of winning.
    state = at_play("4S 5H 6C 7D 9S TS", "5D 5S JC QH KD 2C", "3H", scores=(70, 75), plays="4S")
    v = view(state, state.actors()[0])
    import random

    from cribbage.ai.coach import analyze_plays_steps
    from cribbage.ai.steps import finish

    old = finish(analyze_plays_steps(v, rng=random.Random(1)))
    new = finish(analyze_plays_steps(v, rng=random.Random(1), endgame_need=60))
    assert not old[0].win_chance and new[0].win_chance
    assert 0 <= new[0].ev <= 100  # a percent
    assert NextExpert(3, play_need=60).choose(v).card == new[0].card
    assert make_previous_expert(3).name == "expert-previous"
