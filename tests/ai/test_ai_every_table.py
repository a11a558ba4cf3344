"""The expert and the coach at every table of the rule book: whole games from views only, the
discard by whose crib it is, the play searched at three and four, muggins claims, hints and the
review. (test_ai_tables.py plays every preset legally.)"""

from __future__ import annotations

import pytest

from cribbage.actions import Count, Discard, Muggins, Pass, Play
from cribbage.ai import hint, make_player, review_hand
from cribbage.ai.coach import analyze_plays, discard_choices
from cribbage.ai.discards import crib_role
from cribbage.match import Match
from cribbage.rules import Rules
from cribbage.scoring import hand_points
from cribbage.state import GameState, Phase
from cribbage.view import view

TABLES = {
    "three": Rules(players=3),
    "partners": Rules(players=4),
    "five-card": Rules(crib_from_pack=2),
    "61": Rules(target=61),
    "three-61-muggins": Rules(players=3, target=61, muggins=True),
    "partners-muggins": Rules(players=4, muggins=True),
}


def play_out(rules: Rules, names: list[str], seed: int, check=None) -> GameState:
    players = [make_player(n, seed + i) for i, n in enumerate(names)]
    state = GameState(seed, rules=rules)
    while not state.is_over:
        seat = state.actors()[0]
        v = view(state, seat)
        action = players[seat].choose(v)
        assert action in v.legal_actions or isinstance(action, Count)
        if check is not None:
            check(v, action)
        state.apply(action)
    return state


@pytest.mark.parametrize("name", sorted(TABLES))
def test_a_whole_game_at_every_table(name):
    rules = TABLES[name]
    names = ["expert", "greedy", "medium", "easy"][: rules.players]
    state = play_out(rules, names, 11)
    assert state.winner is not None and max(state.scores) >= rules.target


def test_the_expert_lays_away_what_the_coach_ranks_first_for_its_crib():
    rules = TABLES["partners"]
    seen_roles = set()

    def check(v, action):
        if isinstance(action, Discard) and v.seat % 2 == 0:
            role = crib_role(rules, v.seat, v.dealer)
            seen_roles.add(role)
            choices = discard_choices(v)
            assert len(choices) == 5 and all(c.role == role for c in choices)
            assert set(action.cards) == set(choices[0].discard)

    play_out(rules, ["expert", "greedy", "expert", "greedy"], 3, check)
    assert seen_roles == {"own", "partner", "opponent"}


def test_the_play_at_three_is_searched_and_hinted():
    rules = TABLES["three"]
    found = []

    def check(v, action):
        if v.phase is Phase.PLAY and isinstance(action, Play) and len({c.rank for c in v.hand}) > 1 and v.seat == 0:
            plays = analyze_plays(v)
            h = hint(v)
            assert isinstance(h.action, Play) and h.action.card == plays[0].card
            assert {p.card for p in plays} == {a.card for a in v.legal_actions if isinstance(a, Play)}
            found.append(v)

    play_out(rules, ["expert", "greedy", "greedy"], 5, check)
    assert found


def test_muggins_claims_are_exact_and_a_short_claim_is_called():
    rules = TABLES["three-61-muggins"]
    claims = []

    def check(v, action):
        if isinstance(action, Count) and action.claim is not None:
            if v.show_step < rules.players:
                assert action.claim == hand_points(v.kept, v.starter)
            claims.append(action.claim)
        if isinstance(action, (Muggins, Pass)):
            assert v.claim is not None

    play_out(rules, ["expert", "greedy", "random"], 2, check)
    assert claims
    # A claim short of the count is called.
    state = GameState(2, rules=rules)
    players = [make_player("expert", i) for i in range(3)]
    called = False
    while not state.is_over and not called:
        seat = state.actors()[0]
        v = view(state, seat)
        legal = v.legal_actions
        if isinstance(legal[0], Count) and legal[0].claim is not None and hand_points(v.kept, v.starter) > 0 \
                and v.show_step < rules.players:
            state.apply(Count(seat, 0))
            caller = state.actors()[0]
            cv = view(state, caller)
            assert isinstance(players[caller].choose(cv), Muggins)
            assert hint(cv).action is None  # the coach never counts under muggins
            called = True
            break
        state.apply(players[seat].choose(v))
    assert called


def test_the_review_works_at_a_table_of_three():
    rules = TABLES["three"]
    match = Match(4, humans=(0,), names=("A", "B", "C"), rules=rules)
    players = [make_player("greedy", i) for i in range(3)]
    while match.state.hand_number < 2 and not match.state.is_over:
        seat = match.state.actors()[0]
        match.apply(players[seat].choose(view(match.state, seat)))
    reviews = review_hand(match, 0, 1)
    assert reviews and reviews[0].kind == "discard"
    assert all(r.loss >= 0 for r in reviews)
