"""Muggins in the play (issue 29): each card is laid with a claim of what it scores (fifteen, 31, pairs,
runs, the last card; never the go); until the next card, Go or count any seat of another side may
call muggins on it, out of turn too: a miss is taken, an over-claim is put back and its overage pegged
by the caller (Hoyle; ACC Rule 8.4); a false claim of game is corrected at once. At every table."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_tables import table

from cribbage.actions import Count, Go, Muggins, Pass, Play, parse_action
from cribbage.cards import parse_card
from cribbage.match import Match
from cribbage.rules import PRESETS, Rules
from cribbage.scoring import ScoreKind
from cribbage.state import MAX_PLAY_CLAIM, GameState, IllegalActionError, Phase, play_points
from cribbage.view import view

PM = Rules(play_muggins=True)


def C(code: str) -> object:  # noqa: N802 - a card, written as the rule book does: C("5H")
    return parse_card(code)


def two(rules: Rules = PM, scores: list[int] | None = None) -> GameState:
    """Dealer 0 keeps 5H JD 9C 2S, the pone (1) keeps 5D TD 4C 6H; the pone leads."""
    return table(rules, {0: "5H JD 9C 2S KH QH", 1: "5D TD 4C 6H KS QS"}, "AC", scores=scores)


def test_the_rule_is_a_choice_of_its_own_written_only_when_on() -> None:
    assert PRESETS["play-muggins"] == Rules(muggins=True, play_muggins=True)
    assert Rules().to_json() == {} and PM.to_json() == {"play_muggins": True}
    assert Rules.from_json({"play_muggins": True}) == PM
    assert "muggins in the play" in PM.describe() and "muggins in the play" not in Rules(muggins=True).describe()


def test_a_play_prints_and_parses_its_claim_and_an_old_play_is_unchanged() -> None:
    assert str(Play(0, parse_card("5H"), 2)) == "play 0 5H 2" and parse_action("play 0 5H 2") == Play(
        0, parse_card("5H"), 2
    )
    assert parse_action("play 0 5H") == Play(0, parse_card("5H")) and str(Play(0, parse_card("5H"))) == "play 0 5H"
    assert hash(Play(0, parse_card("5H"))) == hash(Play(0, parse_card("5H"), None))


def test_a_claim_is_required_with_the_rule_and_refused_without_it() -> None:
    state = two()
    with pytest.raises(IllegalActionError, match="how many points"):
        state.apply(Play(1, parse_card("TD")))
    with pytest.raises(IllegalActionError, match="how many points"):
        state.apply(Play(1, parse_card("TD"), MAX_PLAY_CLAIM + 1))
    assert {a.claim for a in state.legal_actions() if isinstance(a, Play)} == set(range(MAX_PLAY_CLAIM + 1))
    plain = two(Rules())
    with pytest.raises(IllegalActionError, match="counted for you"):
        plain.apply(Play(1, parse_card("TD"), 0))
    assert all(isinstance(a, Go) or a.claim is None for a in plain.legal_actions() if isinstance(a, (Play, Go)))


def test_an_exact_claim_is_pegged_and_a_call_finds_nothing() -> None:
    state = two()
    state.apply(Play(1, parse_card("TD"), 0))
    state.apply(Play(0, parse_card("5H"), 2))  # fifteen
    e = state.events[-1]
    assert e.claim and [i.kind for i in e.items] == [ScoreKind.CLAIM] and state.scores == [2, 0]
    v = view(state, 1)
    assert v.claim == (0, 2) and v.claim_what == "play" and v.callers == (1,) and Muggins(1) in v.legal_actions
    assert Muggins(0) not in state.legal_actions(0)
    state.apply(Muggins(1))
    assert state.events[-2].text == "calls muggins: nothing was missed" and state.scores == [2, 0]
    assert state.events[-1].kind == "counted" and state.claim is None


def test_an_under_claim_called_gives_the_caller_the_points_missed() -> None:
    state = two()
    state.apply(Play(1, parse_card("TD"), 0))
    state.apply(Play(0, parse_card("5H"), 0))
    assert state.scores == [0, 0]
    before = len(state.events)
    for s in (0, 1):  # the truth is in no view before the claim is settled
        assert not any(e.kind == "counted" for e in view(state, s).events[before - 1:])
        assert all(i.kind is ScoreKind.CLAIM for e in view(state, s).events[-1:] for i in e.items)
    state.apply(Muggins(1))
    taken = state.events[-2]
    assert (taken.kind, taken.seat, taken.points) == ("muggins", 1, 2) and state.scores == [0, 2]
    assert state.hand_scores[-1]["muggins1"] == 2


def test_an_over_claim_called_is_put_back_and_the_caller_pegs_the_overage() -> None:
    state = two()
    state.apply(Play(1, parse_card("TD"), 0))
    state.apply(Play(0, parse_card("5H"), 5))  # holds 2
    assert state.scores == [5, 0]
    state.apply(Muggins(1))
    back, taken, counted = state.events[-3:]
    assert (back.kind, back.seat, back.points, back.source) == ("put back", 0, -3, "pegging")
    assert (taken.kind, taken.seat, taken.points) == ("muggins", 1, 3)
    assert counted.text == "the card scored 2"
    assert state.scores == [2, 3] and state.previous_scores == [5, 0]
    assert state.hand_scores[-1]["pegging0"] == 2 and state.hand_scores[-1]["muggins1"] == 3


def test_an_over_claim_nobody_calls_stands_and_the_next_card_closes_the_window() -> None:
    state = two()
    state.apply(Play(1, parse_card("TD"), 0))
    state.apply(Play(0, parse_card("5H"), 5))
    state.apply(Play(1, parse_card("5D"), 2))  # a pair: the 5H claim stands
    assert state.scores == [5, 2]
    assert any(e.kind == "counted" and e.text == "the card scored 2" for e in state.events[-3:])
    assert state.claim is not None and state.claim.seat == 1  # now the 5D's claim is open
    with pytest.raises(IllegalActionError, match="another side"):
        state.apply(Muggins(1))  # nobody calls on their own claim (and the 5H's window is shut)


def test_a_go_closes_the_window_and_its_point_is_the_engines() -> None:
    rng = random.Random(4)
    for seed in range(40):
        state = GameState(seed, rules=PM)
        while not state.is_over and state.hand_number < 3:
            legal = state.legal_actions()
            if state.claim is not None and state.claim.what == "play" and Go(state.to_play) in legal:
                state.apply(Go(state.to_play))
                assert state.claim is None and any(e.kind == "counted" for e in state.events[-3:])
                with pytest.raises(IllegalActionError):
                    state.apply(Muggins((state.to_play + 1) % 2))
                return
            plays = [a for a in legal if isinstance(a, Play)]
            if plays:
                card = rng.choice(plays).card
                state.apply(Play(state.to_play, card, state.play_points(card)))
            else:
                state.apply(rng.choice([a for a in legal if not isinstance(a, Muggins)]))
    pytest.fail("no Go said while a claim was open")


def test_a_false_claim_of_game_is_corrected_at_once() -> None:
    state = two(scores=[115, 100])
    state.apply(Play(1, parse_card("TD"), 0))
    state.apply(Play(0, parse_card("5H"), 6))  # 115 + 6 = 121, but the card holds 2
    assert not state.is_over and state.claim is None
    fixed, taken = state.events[-2:]
    assert not fixed.claim and fixed.points == 2 and [i.kind for i in fixed.items] == [ScoreKind.FIFTEEN]
    assert (taken.kind, taken.seat, taken.points) == ("muggins", 1, 4)
    assert state.scores == [117, 104] and state.to_play == 1


def test_a_true_claim_of_game_wins_and_a_short_game_too() -> None:
    state = two(Rules(target=61, play_muggins=True), scores=[59, 0])
    state.apply(Play(1, parse_card("TD"), 0))
    state.apply(Play(0, parse_card("5H"), 2))
    assert state.is_over and state.winner == 0
    short = two(Rules(target=61, play_muggins=True), scores=[57, 50])
    short.apply(Play(1, parse_card("TD"), 0))
    short.apply(Play(0, parse_card("5H"), 4))  # a false claim of game at 61
    assert not short.is_over and short.scores == [59, 52]


def test_the_last_card_is_claimed_with_the_card_and_its_claim_waits_for_the_count() -> None:
    rng = random.Random(1)
    state = GameState(3, rules=PM)
    while state.phase is not Phase.PLAY:
        state.apply(rng.choice(state.legal_actions()))
    while True:
        plays = [a for a in state.legal_actions() if isinstance(a, Play)]
        if not plays:
            state.apply(next(a for a in state.legal_actions() if isinstance(a, Go)))
            continue
        card = plays[0].card
        if sum(state.hand_size(s) for s in range(2)) == 1:
            due = state.play_points(card)
            expected = play_points([*(c for _, c in state.pile), card], last=True)
            assert due == expected and due == play_points([*(c for _, c in state.pile), card]) + (
                state.count + card.value != 31
            )
            state.apply(Play(state.to_play, card, due + 1))  # one too many
            break
        state.apply(Play(state.to_play, card, state.play_points(card)))
    assert state.phase is Phase.SHOW and state.claim is not None and state.claim.what == "play"
    assert state.actors() == [state.show_seat]  # the show goes on; the other side may still call
    claimant = state.claim.seat
    state.apply(Muggins(1 - claimant))
    assert state.events[-3].kind == "put back" and state.events[-2].points == 1
    state.apply(Count(state.show_seat))  # type: ignore[arg-type]


def three_players(dealer: int = 0) -> GameState:
    return table(Rules(players=3, play_muggins=True),
                 {0: "5S 2C AD JC KC", 1: "TD 4C 6H 8S KS", 2: "5H 3D 7C 9D QS"}, "AC", crib_pack="QC")


def test_three_players_a_third_player_calls_out_of_turn() -> None:
    state = three_players()
    state.apply(Play(1, parse_card("TD"), 0))
    state.apply(Play(2, parse_card("5H"), 0))  # fifteen missed; seat 0 is to play
    assert state.to_play == 0 and state.actors() == [0] and state.callers_now() == [0, 1]
    assert state.legal_actions(1) == [Muggins(1)] and Muggins(1) in state.legal_actions()
    state.apply(Muggins(1))
    assert state.scores == [0, 2, 0] and state.to_play == 0 and state.actors() == [0]
    with pytest.raises(IllegalActionError):
        state.apply(Muggins(0))  # settled: nothing left to call
    with pytest.raises(IllegalActionError, match="not something to do"):
        three_players_with_claim().apply(Pass(0))


def three_players_with_claim() -> GameState:
    state = three_players()
    state.apply(Play(1, parse_card("TD"), 0))
    state.apply(Play(2, parse_card("5H"), 3))
    return state


def test_four_players_a_partner_cannot_call_on_a_partner() -> None:
    state = table(Rules(players=4, play_muggins=True),
                  {0: "5S 2C AD JC KC", 1: "TD 4C 6H 8S KS", 2: "5H 3D 7C 9D QS", 3: "9S 8C 2D 3C QH"}, "AC")
    state.apply(Play(1, parse_card("TD"), 0))
    state.apply(Play(2, parse_card("5H"), 4))  # over-claim by seat 2 (partner of 0)
    assert state.callers_now() == [3, 1]
    with pytest.raises(IllegalActionError, match="another side"):
        state.apply(Muggins(0))
    state.apply(Muggins(1))  # out of turn: seat 3 is to play
    assert state.scores == [2, 2] and state.to_play == 3


def test_five_card_two_player_claims() -> None:
    state = table(Rules(crib_from_pack=2, play_muggins=True),
                  {0: "5H JD 9C 2S KH", 1: "5D TD 4C 6H KS"}, "AC", crib_pack="QC QD")
    state.apply(Play(1, parse_card("5D"), 0))
    state.apply(Play(0, parse_card("5H"), 1))  # a pair claimed 1
    state.apply(Muggins(1))
    assert state.scores == [1, 1]


def test_the_preview_and_the_view_still_work_with_the_rule() -> None:
    state = two()
    v = view(state, 1)
    assert [c.code for c, _ in v.play_outcomes] == ["4C", "5D", "6H", "TD"]  # one per card
    assert state.play_outcome(1, parse_card("TD")) == ()


def test_a_match_saves_and_replays_its_claims() -> None:
    m = Match(seed=7, rules=PM)
    rng = random.Random(2)
    while m.state.phase is not Phase.SHOW and not m.state.is_over:
        legal = m.legal_actions()
        a = rng.choice(legal)
        m.apply(a)
    again = Match.from_json(m.to_json())
    assert [str(a) for a in again.actions] == [str(a) for a in m.actions]
    assert again.state.scores == m.state.scores
    assert any(isinstance(a, Play) and a.claim is not None for a in again.actions)


TABLES = [PM, Rules(players=3, play_muggins=True), Rules(players=4, play_muggins=True),
          Rules(crib_from_pack=2, play_muggins=True), Rules(target=61, play_muggins=True),
          Rules(muggins=True, play_muggins=True)]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.sampled_from(TABLES), st.integers(0, 2**16))
def test_scores_are_the_true_pegging_plus_muggins_transfers(seed: int, rules: Rules, choices: int) -> None:
    """A referee: for random claims in the play (honest, short, over) and random calls, every side's
    score is at every step what the true points and the muggins rule give, worked out here from each
    card's true points; the engine's own pegging (the go, his heels, the show) is taken from its log."""
    rng = random.Random(choices)
    state = GameState(seed, rules=rules)
    expected = [0] * rules.sides
    steps, last_true = 0, 0
    while not state.is_over and steps < 600:
        steps += 1
        before = len(state.events)
        claim = state.claim
        if claim is not None and claim.what == "play" and rng.random() < 0.4:
            caller = rng.choice(state.callers_now())
            gap = claim.claimed - last_true
            if gap < 0:
                expected[rules.side_of(caller)] -= gap
            elif gap > 0:
                expected[rules.side_of(claim.seat)] -= gap
                expected[rules.side_of(caller)] += gap
            state.apply(Muggins(caller))
            assert state.claim is None
        else:
            action = rng.choice([a for a in state.legal_actions()
                                 if not (isinstance(a, Muggins) and claim is not None and claim.what == "play")])
            if isinstance(action, Play):
                true = last_true = state.play_points(action.card, action.seat)
                claimed = max(0, min(MAX_PLAY_CLAIM, true + rng.choice((0, 0, -1, -2, 1, 3))))
                action = Play(action.seat, action.card, claimed)
                side = rules.side_of(action.seat)
                if claimed > true and expected[side] + claimed >= rules.target:
                    expected[side] += true  # a false claim of game, corrected at once
                    first = next(s for s in rules.order_from(rules.left_of(action.seat)) if rules.side_of(s) != side)
                    if expected[side] < rules.target:
                        expected[rules.side_of(first)] += claimed - true
                else:
                    expected[side] += claimed
            state.apply(action)
            for e in state.events[before:]:  # what the engine pegs by itself
                if e.seat is not None and e.points and not (isinstance(action, Play) and e.kind in ("play", "muggins")):
                    expected[rules.side_of(e.seat)] += e.points
        if not state.is_over:
            assert expected == state.scores, state.events[before:]
        else:
            assert max(expected) >= rules.target
    assert steps > 20


def over_claimed_game(seed: int) -> GameState:
    """A game with muggins in the show and the play where every claim is one too many, every one called."""
    state = GameState(seed, rules=PRESETS["play-muggins"])
    rng = random.Random(seed)
    while not state.is_over:
        if state.claim is not None and state.callers_now():
            state.apply(Muggins(state.callers_now()[0]))
            continue
        legal = state.legal_actions()
        action = rng.choice([a for a in legal if not isinstance(a, Muggins)])
        if isinstance(action, Play):
            action = Play(action.seat, action.card, min(MAX_PLAY_CLAIM, state.play_points(action.card) + 1))
        elif isinstance(action, Count):
            from cribbage.ai.table import claim_for
            action = Count(action.seat, min(29, claim_for(view(state, action.seat)) + 1))
        state.apply(action)
    return state


def test_put_backs_keep_the_hand_totals_the_race_and_the_record_true() -> None:
    from cribbage.record import race, record_state

    state = over_claimed_game(3)
    backs = [e for e in state.events if e.kind == "put back"]
    assert backs and all(e.points < 0 for e in backs)
    assert {e.source for e in backs} >= {"pegging", "hand"}
    # Every point on the board is in the hand totals, put-backs included.
    for side in range(state.rules.sides):
        total = sum(v for h in state.hand_scores for k, v in h.items()
                    if int(k[-1]) in state.rules.seats_of(side))
        assert total == state.scores[side]
    steps = race(state.events)
    assert any(s.points < 0 and s.source in ("pegging", "hand", "crib") for s in steps)
    assert steps[-1].scores == tuple(state.scores)
    rec = record_state(state, names=("A", "B"), humans=(0,), seed=3, actions=(), played_at=0)
    from cribbage.scoring import score_hand
    for h in rec.hands:
        for seat in range(2):
            assert all(v >= 0 for v in h.points[seat].values())
    shown = [e for e in state.events if e.kind == "show hand" and e.claim]
    assert shown
    for e in shown:  # the record keeps what the hand held, never the over-claim
        held = score_hand(e.cards[:4], e.cards[4]).total
        assert rec.hands[e.hand - 1].shows[e.seat] == held
