"""Muggins in the play: the computer claims every card it lays (the expert exactly, the weaker
levels now and then one scoring item short, never over) and calls muggins on another side's card,
in turn or not (the expert on every miss and over-claim); its search, the simulator and the
coach's hint keep working under the rule."""

from __future__ import annotations

import random

import pytest

from cribbage.actions import Muggins, Play
from cribbage.ai import call_for_level, hint, make_player
from cribbage.ai.players import call_in_play_for
from cribbage.ai.simulate import play_game
from cribbage.ai.table import LEVEL_HABITS, claim_error
from cribbage.rules import PRESETS, Rules
from cribbage.state import GameState
from cribbage.view import view

PM = Rules(play_muggins=True)


def run(level: str, games: int, rules: Rules = PM, bad_claims: bool = True
        ) -> tuple[list[tuple[int, int]], list[bool], GameState]:
    """Seat 0 is ``level``; seat 1 is scripted: it claims wrong (short or over) about half the time.
    Returns (claimed, due) for each of seat 0's cards, whether seat 0 called each wrong claim it could."""
    claims: list[tuple[int, int]] = []
    calls: list[bool] = []
    state = GameState(0, rules=rules)
    for g in range(games):
        me = make_player(level, 100 + g)
        rng = random.Random(g)
        other = make_player("expert", 300 + g)
        state = GameState(g, rules=rules)
        while not state.is_over:
            if state.claim is not None and state.claim.what == "play" and 0 in state.callers_now():
                v = view(state, 0)
                wrong = claim_error(v) != 0
                assert wrong == (state.claim.claimed != state.claim.actual)
                decided = call_in_play_for(me, v) if state.to_play != 0 else None
                if state.to_play == 0:
                    action = me.choose(v)
                    decided = action if isinstance(action, Muggins) else None
                    if wrong:
                        calls.append(decided is not None)
                    if decided is None:
                        _check_claim(v, action, claims)
                    state.apply(action)
                    continue
                if wrong:
                    calls.append(decided is not None)
                else:
                    assert decided is None  # never a call on a right claim
                if decided is not None:
                    state.apply(decided)
                    continue
            seat = state.actors()[0]
            v = view(state, seat)
            if seat == 1:
                action = other.choose(v)
                if isinstance(action, Play) and bad_claims and rng.random() < 0.5:
                    action = Play(1, action.card, max(0, action.claim + rng.choice((-2, -1, 1, 2))))  # type: ignore[operator]
                state.apply(action)
                continue
            action = me.choose(v)
            _check_claim(v, action, claims)
            state.apply(action)
    return claims, calls, state


def _check_claim(v: object, action: object, claims: list[tuple[int, int]]) -> None:
    if isinstance(action, Play):
        assert action.claim is not None
        claims.append((action.claim, v.play_points(action.card)))  # type: ignore[attr-defined]


def test_the_expert_claims_exactly_and_calls_every_miss_and_over_claim() -> None:
    claims, calls, _ = run("expert", 2)
    assert claims and all(c == due for c, due in claims)
    assert any(due > 0 for _, due in claims)
    assert len(calls) > 5 and all(calls)


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_weaker_levels_never_over_claim_and_sometimes_slip(level: str) -> None:
    claims, calls, _ = run(level, 4)
    assert all(0 <= c <= due for c, due in claims)
    scoring = [(c, due) for c, due in claims if due > 0]
    short = sum(c < due for c, due in scoring)
    assert scoring and abs(short / len(scoring) - LEVEL_HABITS[level].miss) < 0.25
    assert any(calls)
    if level == "easy":
        assert 0 < short and not all(calls)


@pytest.mark.parametrize("name", ["random", "greedy", "table"])
def test_every_player_claims_its_cards_and_never_over(name: str) -> None:
    claims, _, state = run(name, 1, rules=PRESETS["play-muggins"], bad_claims=False)
    assert claims and all(c == due for c, due in claims) and state.is_over


@pytest.mark.parametrize("rules", [Rules(players=3, play_muggins=True), Rules(players=4, play_muggins=True),
                                   Rules(crib_from_pack=2, play_muggins=True), PRESETS["play-muggins"]])
def test_simulated_games_finish_at_every_table(rules: Rules) -> None:
    players = [make_player("easy", s) for s in range(rules.players)]
    state = play_game(players, 5, rules=rules)
    assert state.is_over
    assert any(e.kind == "play" and e.claim for e in state.events)


def test_the_hint_in_the_play_is_a_legal_exact_claim_without_saying_the_points() -> None:
    state = GameState(11, rules=PM)
    players = [make_player("expert", 1), make_player("expert", 2)]
    seen = 0
    while not state.is_over and seen < 6:
        seat = state.actors()[0]
        v = view(state, seat)
        if any(isinstance(a, Play) for a in v.legal_actions):
            h = hint(v)
            assert h.action in v.legal_actions
            if isinstance(h.action, Play):
                assert h.action.claim == v.play_points(h.action.card)
                assert " for " not in h.text.split(":")[0] and "yourself" in h.text
                seen += 1
        state.apply(players[seat].choose(v))
    assert seen


def test_a_call_is_the_same_however_often_it_is_asked() -> None:
    """The driver asks every computer caller after each claim, and the seat to play decides again in
    its own turn: one claim, one answer (a weaker level's chance is not drawn twice)."""
    seen = {"easy": [0, 0], "expert": [0, 0]}
    for seed in range(6):
        state = GameState(seed, rules=PM)
        rng = random.Random(seed)
        while not state.is_over and state.hand_number < 4:
            claim = state.claim
            if claim is not None and claim.what == "play" and claim.claimed != claim.actual:
                caller = state.callers_now()[0]
                v = view(state, caller)
                for level in seen:
                    answers = {call_for_level(v, level) for _ in range(3)}
                    assert len(answers) == 1
                    called = answers.pop()
                    assert called in (None, Muggins(caller))
                    seen[level][called is not None] += 1
                    if called is not None and caller == state.to_play:
                        assert make_player(level, seed).choose(v) == called
            legal = [a for a in state.legal_actions() if not isinstance(a, Muggins)]
            action = rng.choice(legal)
            if isinstance(action, Play):
                action = Play(action.seat, action.card, state.play_points(action.card) + rng.choice((0, 1)))
            state.apply(action)
    assert seen["expert"][0] == 0 and seen["expert"][1] > 5  # the expert calls every wrong claim
    assert seen["easy"][0] > 0 and seen["easy"][1] > 0  # easy lets some stand
