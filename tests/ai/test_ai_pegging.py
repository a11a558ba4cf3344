"""The play: the exact solver agrees with the engine, and the expert's choices in built positions."""

from __future__ import annotations

import copy
import random

import pytest

from ai_positions import at_play
from cribbage.actions import Go, Play
from cribbage.ai import analyze_plays, make_player
from cribbage.ai.pegging import _Solver, peg_points, play_state_from_view
from cribbage.cards import parse_cards
from cribbage.scoring import score_play
from cribbage.state import GameState, Phase
from cribbage.view import view


def test_peg_points_agree_with_the_itemised_scorer():
    rng = random.Random(3)
    from cribbage.cards import DECK

    for _ in range(3000):
        cards = rng.sample(DECK, rng.randint(1, 6))
        if sum(c.value for c in cards) > 31:
            continue
        ranks = tuple(int(c.rank) for c in cards)
        assert peg_points(ranks[:-1], ranks[-1]) == sum(i.points for i in score_play(cards))


def _pegging_net(state: GameState, seat: int) -> int:
    scores = state.hand_scores[-1]
    return scores.get(f"pegging{seat}", 0) - scores.get(f"pegging{1 - seat}", 0)


def _best_line(state: GameState) -> None:
    """Play out the rest of the play with both hands open, each side taking its solver-best card."""
    solver = _Solver()
    while state.phase is Phase.PLAY:
        seat = state.actors()[0]
        legal = state.legal_actions(seat)
        if isinstance(legal[0], Go):
            state.apply(legal[0])
            continue
        ps = play_state_from_view(view(state, seat))
        mine = tuple(sorted(int(c.rank) for c in state.hands[seat]))
        theirs = tuple(sorted(int(c.rank) for c in state.hands[1 - seat]))
        count = state.count
        best = max(legal, key=lambda a: solver.after(mine, theirs, ps.tail, count, 0, ps.go, int(a.card.rank)))
        state.apply(best)


@pytest.mark.parametrize("seed", range(12))
def test_solver_value_is_what_the_engine_scores_along_the_best_line(seed):
    rng = random.Random(seed)
    state = GameState(seed)
    # Random discards, random first plays: then the solver's value must be realised exactly.
    while state.phase is not Phase.PLAY:
        seat = state.actors()[0]
        state.apply(rng.choice(state.legal_actions(seat)))
    for _ in range(rng.randint(0, 3)):
        if state.phase is Phase.PLAY:
            state.apply(rng.choice(state.legal_actions()))
    if state.phase is not Phase.PLAY:
        pytest.skip("the play ended early")
    seat = state.actors()[0]
    before = _pegging_net(state, seat)
    ps = play_state_from_view(view(state, seat))
    mine = tuple(sorted(int(c.rank) for c in state.hands[seat]))
    theirs = tuple(sorted(int(c.rank) for c in state.hands[1 - seat]))
    go = ps.go
    predicted = _Solver().value(mine, theirs, ps.tail, state.count, 0, go, ps.last)
    probe = copy.deepcopy(state)
    _best_line(probe)
    if probe.is_over:
        pytest.skip("someone reached 121 in the play")
    assert _pegging_net(probe, seat) - before == predicted


def _choose(state, seat, name="expert"):
    return make_player(name, seed=1).choose(view(state, seat))


def test_takes_thirty_one_when_offered():
    # Pone (seat 1) 9S, dealer 2H (11), pone KC (21): the dealer holds TD 4S 6C.
    state = at_play("9S KC 3D AC 8H 7H", "2H TD 4S 6C QH QD", "8D", plays="9S 2H KC")
    assert state.count == 21 and state.actors() == [0]
    assert _choose(state, 0) == Play(0, parse_cards("TD")[0])


def test_takes_fifteen_and_a_run_when_offered():
    state = at_play("4C 5H KS 9S 7D 7C", "6D QH JH 2S 8H 8C", "AD", plays="4C 6D")
    assert state.actors() == [1]
    choices = analyze_plays(view(state, 1))
    assert choices[0].card == parse_cards("5H")[0] and choices[0].points == 5
    assert _choose(state, 1) == Play(1, parse_cards("5H")[0])


def test_does_not_lead_a_five_with_a_sensible_alternative():
    state = at_play("5H 4C KS 9D 7D 7C", "6D QH JH 2S 8H 8C", "AD")
    assert state.actors() == [1]
    assert _choose(state, 1).card.rank != 5
    notes = {c.card.code: c.note for c in analyze_plays(view(state, 1))}
    assert "leading a 5 invites a ten-card" in notes["5H"]
    assert not any("leading a 5" in notes[code] for code in ("4C", "KS", "9D"))


def test_does_not_leave_twenty_one_when_avoidable():
    # Count 11 (AC TS): the pone holds TD 3H 7S. The ten pairs the dealer's ten for 2 but makes 21,
    # where any ten-card makes 31 (and a third ten a pair royal); the 3 makes 14, the 7 makes 18.
    state = at_play("AC TD 3H 7S 2C 4D", "TS 2H 8D 6C QH QD", "KC", plays="AC TS")
    ten = parse_cards("TD")[0]
    assert state.count == 11 and state.actors() == [1]
    assert Play(1, ten) in state.legal_actions()  # the trap is on offer
    assert _choose(state, 1, "greedy") == Play(1, ten)  # and grabbing the pair walks into it
    card = _choose(state, 1).card
    assert card != ten and card in parse_cards("3H 7S")
    notes = {c.card: c.note for c in analyze_plays(view(state, 1))}
    assert "leaves 21" in notes[ten]


def test_pegs_out_to_win():
    # Pone (seat 1) at 120 needs one point and his hand counts nothing; the dealer needs 21.
    # After 8H QH (18) only QC scores now (a pair): it wins on the spot.
    state = at_play("8H QC 9S 4D 2C 3C", "QH 5S 6C 7D KH KD", "KC", plays="8H QH", scores=(100, 120))
    assert state.count == 18 and state.actors() == [1]
    choices = analyze_plays(view(state, 1))
    assert choices[0].win_chance and choices[0].ev == pytest.approx(100.0)
    choice = _choose(state, 1)
    assert choice == Play(1, parse_cards("QC")[0])
    state.apply(choice)
    assert state.is_over and state.winner == 1


def test_settle_passes_the_turn_exactly_as_the_engine_does():
    """The solvers' rank-level turn passing (Go, skipping empty hands, the go point, who leads after a
    reset) agrees with ``GameState`` after every play and every Go of many random hands."""
    import random as _random

    from cribbage.actions import Go as _Go
    from cribbage.actions import Play as _Play
    from cribbage.ai.pegging import settle
    from cribbage.match import Match
    from cribbage.state import Phase as _Phase

    rng = _random.Random(5)
    checked = 0
    for seed in range(40):
        match = Match(seed)
        while not match.state.is_over and match.state.hand_number <= 3:
            st = match.state
            action = rng.choice(st.legal_actions())
            if st.phase is _Phase.PLAY:
                seat = action.seat
                hands = [sorted(int(c.rank) for c in h) for h in st.hands]
                count, go, last = st.count, -1 if st.go_said is None else st.go_said, st.last_layer
                if isinstance(action, _Play):
                    hands[seat].remove(int(action.card.rank))
                    count += action.card.value
                    last = seat
                else:
                    go = seat
                events_before = len(st.events)
                match.apply(action)
                # The engine waits for a stuck player to say Go; the solvers say it for him.
                while match.state.phase is _Phase.PLAY and match.legal_actions() == [_Go(match.state.to_play)]:
                    match.apply(_Go(match.state.to_play))
                ended = count == 31 or (not hands[0] and not hands[1]) or match.state.phase is not _Phase.PLAY
                if isinstance(action, _Go) or not ended:
                    turn, go2, count2, go_to = settle(tuple(hands[0]), tuple(hands[1]), count, 1 - seat, go, last)
                    new = match.state
                    scored_go = [e.seat for e in new.events[events_before:] if e.kind == "go" and e.points]
                    assert (new.to_play, new.go_said, new.count) == (turn, None if go2 < 0 else go2, count2)
                    assert scored_go == ([] if go_to < 0 else [go_to])
                    checked += 1
            else:
                match.apply(action)
    assert checked > 500
