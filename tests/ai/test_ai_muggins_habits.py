"""Under muggins the weaker levels slip now and then (a claim one scoring item short, a miss let
stand) so a player has something to call; the expert counts exactly and calls every miss."""

from __future__ import annotations

import random

import pytest

from cribbage.actions import Count, Muggins, Pass
from cribbage.ai import make_player
from cribbage.ai.table import EXACT, LEVEL_HABITS, Habits, claim_for, missed_by_claim, muggins_choice
from cribbage.rules import Rules
from cribbage.state import GameState
from cribbage.view import view

RULES = Rules(muggins=True)


def claims_and_calls(level: str, games: int) -> tuple[list[tuple[int, int]], list[bool]]:
    """(claimed, due) for each of ``level``'s own counts and, for each short claim it could call,
    whether it called it, over ``games`` games against the expert."""
    claims: list[tuple[int, int]] = []
    calls: list[bool] = []
    for g in range(games):
        players = [make_player(level, 100 + g), make_player("expert", 200 + g)]
        state = GameState(g, rules=RULES)
        while not state.is_over:
            seat = state.actors()[0]
            v = view(state, seat)
            if seat == 1 and isinstance(v.legal_actions[0], Count) and v.legal_actions[0].claim is not None:
                state.apply(Count(seat, max(0, claim_for(v) - 2)))  # the expert's seat under-claims
                continue
            action = players[seat].choose(v)
            if seat == 0 and isinstance(action, Count) and action.claim is not None:
                claims.append((action.claim, claim_for(v)))
            if seat == 0 and isinstance(action, (Muggins, Pass)) and missed_by_claim(v):
                calls.append(isinstance(action, Muggins))
            state.apply(action)
    return claims, calls


def test_the_expert_counts_exactly_and_calls_every_miss() -> None:
    claims, calls = claims_and_calls("expert", 3)
    assert claims and all(c == due for c, due in claims)
    assert calls and all(calls)


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_weaker_levels_sometimes_claim_short_and_let_a_miss_stand(level: str) -> None:
    claims, calls = claims_and_calls(level, 8)
    habits = LEVEL_HABITS[level]
    assert all(0 <= c <= due for c, due in claims)  # never an over-claim
    short = sum(c < due for c, due in claims)
    scoring = sum(due > 0 for _, due in claims)
    assert 0 < short < scoring
    assert abs(short / scoring - habits.miss) < 0.2
    assert any(calls) and not all(calls)


def test_a_short_claim_is_one_scoring_item_short() -> None:
    state = GameState(5, rules=RULES)
    players = [make_player("expert", 1), make_player("expert", 2)]
    rng = random.Random(3)
    seen = 0
    while not state.is_over and seen < 20:
        seat = state.actors()[0]
        v = view(state, seat)
        first = v.legal_actions[0]
        if isinstance(first, Count) and first.claim is not None and claim_for(v) > 0:
            a = muggins_choice(v, rng, Habits(miss=1.0))
            assert isinstance(a, Count) and a.claim is not None
            gap = claim_for(v) - a.claim
            assert gap in {1, 2, 3, 4, 5, 6, 12}  # nobs, fifteen, pair, run, flush, pair royal...
            assert muggins_choice(v, rng, EXACT) == Count(seat, claim_for(v))
            seen += 1
        state.apply(players[seat].choose(v))
    assert seen
