"""The scorekeeper's ledger: entries, refusals, the deal moving round, the end of a game, undo and
redo without limit, the series, saves (also inside Pyodide with the rest of tests/engine)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cribbage.rules import Rules
from cribbage.scorekeeper import (NextDeal, Score, ScoreError, Scorekeeper, event_from_json,
                                  impossible_count_reason)
from cribbage.scoring import MAX_SHOW, possible_totals
from cribbage.series import Series, SeriesRules

TABLES = [Rules(), Rules(players=3), Rules(players=4), Rules(target=61), Rules(players=3, target=61)]


def test_the_counts_no_hand_makes_are_derived_from_the_scorer_and_match_the_published_table():
    published_missing = {19, 25, 26, 27}  # the published distribution of all 12,994,800 hands
    for crib in (False, True):
        assert set(range(MAX_SHOW + 1)) - possible_totals(crib) == published_missing
        assert max(possible_totals(crib)) == 29


@pytest.mark.parametrize("points", [19, 25, 26, 27])
def test_a_hand_or_crib_of_an_impossible_count_is_refused_in_a_sentence(points):
    k = Scorekeeper()
    with pytest.raises(ScoreError, match=f"No hand counts {points}.*nineteen hand"):
        k.hand(0, points)
    with pytest.raises(ScoreError, match=f"No crib counts {points}"):
        k.crib(points)
    assert k.totals == (0, 0) and not k.events
    assert impossible_count_reason(30) == "A hand counts from 0 to 29."
    assert impossible_count_reason(29) is None and impossible_count_reason(0) is None


def test_a_deal_of_two_players_pegs_counts_and_moves_on():
    k = Scorekeeper(names=["Ann", "Bob"], first_dealer=1)
    assert (k.deal, k.dealer, k.crib_side) == (1, 1, 1)
    k.peg(0, 2)
    k.go(1)
    k.heels()
    k.hand(0, 8)
    k.hand(1, 12)
    k.crib(4)
    assert k.totals == (10, 19)
    assert k.previous == (2, 15)  # the back peg: the score before each side's latest entry
    k.next_deal()
    assert (k.deal, k.dealer, k.crib_side) == (2, 0, 0)
    logs = k.deals()
    assert [(d.number, d.dealer, len(d.entries)) for d in logs] == [(1, 1, 6), (2, 0, 0)]
    assert logs[0].entries[-1][2] == (10, 19)


def test_heels_and_the_crib_belong_to_the_dealer_once_a_deal():
    k = Scorekeeper(names=["Ann", "Bob"])
    with pytest.raises(ScoreError, match="dealer, Ann"):
        k.record(Score(1, "heels", 2))
    with pytest.raises(ScoreError, match="crib is the dealer's"):
        k.record(Score(1, "crib", 4))
    k.heels()
    with pytest.raises(ScoreError, match="already scored"):
        k.heels()
    k.crib(0)
    with pytest.raises(ScoreError, match="already counted"):
        k.crib(2)
    k.hand(1, 4)
    with pytest.raises(ScoreError, match="already counted for Bob"):
        k.hand(1, 4)


def test_partners_count_two_hands_a_side_on_one_track_and_the_deal_goes_round_four_seats():
    k = Scorekeeper(Rules(players=4), ["Ann", "Bob", "Cy", "Di"])
    assert k.sides == 2 and k.side_name(0) == "Ann & Cy" and k.side_name(1) == "Bob & Di"
    k.hand(0, 6)
    k.hand(0, 7)
    with pytest.raises(ScoreError, match="Both hands are already counted"):
        k.hand(0, 2)
    dealers = []
    for _ in range(5):
        dealers.append(k.dealer)
        k.next_deal()
    assert dealers == [0, 1, 2, 3, 0]
    assert k.totals == (13, 0)


def test_three_players_each_have_a_track_and_the_dealer_rotates():
    k = Scorekeeper(Rules(players=3), ["A", "B", "C"], first_dealer=2)
    assert k.sides == 3
    k.hand(2, 29)
    k.next_deal()
    assert k.dealer == 0 and k.crib_side == 0
    assert k.totals == (0, 0, 29)


def test_the_game_ends_the_moment_a_track_reaches_the_target_and_the_win_is_named():
    k = Scorekeeper(names=["Ann", "Bob"])
    for _ in range(6):
        k.hand(0, 20)
        k.next_deal()
    k.hand(1, 24)
    assert k.winner is None
    k.peg(0, 1)
    assert k.totals == (121, 24) and k.winner == 0
    assert k.result == (0, 3, "double skunk")
    assert k.result_sentence() == "Ann wins, 121 to 24: a double skunk (3 games)."
    with pytest.raises(ScoreError, match="game is over"):
        k.peg(1, 2)
    with pytest.raises(ScoreError, match="game is over"):
        k.next_deal()
    assert k.series_points == (3, 0) and k.series_winner == 0  # a single game: first to 1


@pytest.mark.parametrize("rules,lines", [
    (Rules(), (("skunk", 91), ("double skunk", 61))),
    (Rules(target=61), (("skunk", 31),)),
])
def test_the_lines_come_from_the_rules(rules, lines):
    assert Scorekeeper(rules).lines() == lines
    assert Scorekeeper(rules, series=Series(rules, SeriesRules(lurch=True))).lines() == (("lurch", rules.lurch_line),)


@pytest.mark.parametrize("loser,kind", [(90, "skunk"), (91, "win"), (60, "double skunk"), (61, "skunk")])
def test_skunk_lines_at_121(loser, kind):
    k = Scorekeeper()
    _bring(k, 1, loser)
    _bring(k, 0, 121)
    assert k.result is not None and k.result[2] == kind


@pytest.mark.parametrize("loser,kind", [(30, "skunk"), (31, "win"), (0, "skunk")])
def test_skunk_line_at_61(loser, kind):
    k = Scorekeeper(Rules(target=61))
    _bring(k, 1, loser)
    _bring(k, 0, 61)
    assert k.result is not None and k.result[2] == kind and k.result[1] == (2 if kind == "skunk" else 1)


def _bring(k: Scorekeeper, side: int, total: int) -> None:
    """Peg ``side`` up to ``total`` in pegs of at most 12."""
    while k.totals[side] < total:
        k.peg(side, min(12, total - k.totals[side]))


def test_a_series_counts_games_with_skunks_and_names_the_next_dealer():
    rules = Rules()
    k = Scorekeeper(rules, ["Ann", "Bob"], series=Series(rules, SeriesRules.best_of(3)))
    _bring(k, 1, 80)
    _bring(k, 0, 121)
    assert k.series_points == (2, 0) and k.series_winner == 0  # a skunk is worth two: first to 2
    with pytest.raises(ScoreError, match="game is over"):
        k.peg(0, 1)
    with pytest.raises(ScoreError, match="series is over"):
        k.next_game()
    k.new_series(0)
    with pytest.raises(ScoreError, match="not over"):
        k.next_game()


def test_next_game_dealer_is_the_loser_or_asked_for():
    rules = Rules()
    k = Scorekeeper(rules, ["Ann", "Bob"], series=Series(rules, SeriesRules(first_to=3, skunks=False)))
    _bring(k, 1, 100)
    _bring(k, 0, 121)
    k.next_game()
    assert k.first_dealer == 1 and k.totals == (0, 0) and k.series_points == (1, 0) and k.deal == 1
    k2 = Scorekeeper(rules, series=Series(rules, SeriesRules(first_to=3, skunks=False, next_dealer="alternate")))
    _bring(k2, 0, 121)
    k2.next_game()
    assert k2.first_dealer == 1  # the first game's pone deals the second
    _bring(k2, 0, 121)
    with pytest.raises(ScoreError, match="Cut for the deal"):
        k2.next_game()
    k2.next_game(first_dealer=0)
    assert len(k2.series.games) == 2
    _bring(k2, 0, 121)
    assert k2.series_winner == 0
    with pytest.raises(ScoreError, match="series is over"):
        k2.next_game()
    k2.new_series(first_dealer=1)
    assert k2.series_points == (0, 0) and not k2.series.games and k2.first_dealer == 1 and not k2.events


def test_undo_and_redo_step_through_every_entry_and_a_new_entry_clears_redo():
    k = Scorekeeper()
    k.peg(0, 2)
    k.next_deal()
    k.hand(1, 5)
    assert isinstance(k.undo(), Score) and isinstance(k.undo(), NextDeal)
    assert k.deal == 1 and k.totals == (2, 0) and k.can_redo
    assert isinstance(k.redo(), NextDeal)
    k.peg(1, 3)
    assert not k.can_redo and k.redo() is None
    assert k.undo() is not None and k.undo() is not None and k.undo() is not None and k.undo() is None


def test_a_save_round_trips_with_the_redo_list_and_a_damaged_one_is_refused():
    rules = Rules(players=3, target=61)
    k = Scorekeeper(rules, ["A", "B", "C"], first_dealer=1, series=Series(rules, SeriesRules.best_of(3)))
    k.peg(0, 2)
    k.heels()
    k.hand(2, 12)
    k.next_deal()
    k.crib(8)
    k.undo()
    k.undo()
    data = json.loads(json.dumps(k.to_json()))
    again = Scorekeeper.from_json(data)
    assert again.to_json() == k.to_json()
    assert again.redo() == NextDeal() and again.redo() == Score(2, "crib", 8)
    for broken in [None, [], {**data, "v": 9}, {**data, "events": [["hand", 0, 19]]},
                   {**data, "events": [["heels", 0, 2]]}, {**data, "names": ["A"]},
                   {**data, "undone": [["crib", 0, 19]]}, {**data, "series": {"rules": {"players": 7}}},
                   {**data, "events": [["peg", "x", 1]]}, {**data, "first_dealer": 5}]:
        with pytest.raises(ScoreError):
            Scorekeeper.from_json(broken)


# --- properties ------------------------------------------------------------------------------------

ACTION = st.one_of(
    st.tuples(st.just("peg"), st.integers(0, 3), st.sampled_from([1, 2, 3, 4, 5, 6, 12])),
    st.tuples(st.just("go"), st.integers(0, 3), st.just(1)),
    st.tuples(st.just("hand"), st.integers(0, 3), st.integers(-1, 31)),
    st.tuples(st.just("crib"), st.just(0), st.integers(-1, 31)),
    st.tuples(st.just("heels"), st.just(0), st.just(2)),
    st.tuples(st.just("deal"), st.just(0), st.just(0)),
    st.tuples(st.just("undo"), st.just(0), st.just(0)),
    st.tuples(st.just("redo"), st.just(0), st.just(0)),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=st.sampled_from(TABLES), actions=st.lists(ACTION, max_size=80))
def test_any_entries_undos_and_redos_leave_totals_equal_to_the_entries_in_force(table, actions):
    k = Scorekeeper(table)
    in_force: list[Score | NextDeal] = []  # the model: what should be in force
    undone: list[Score | NextDeal] = []
    for kind, side, points in actions:
        side %= k.sides
        before = k.to_json()
        if kind == "undo":
            if in_force:
                undone.append(in_force.pop())
            k.undo()
        elif kind == "redo":
            if undone:
                in_force.append(undone.pop())
            k.redo()
        else:
            event: Score | NextDeal = NextDeal() if kind == "deal" else Score(
                k.crib_side if kind in ("crib", "heels") else side, kind, points)  # type: ignore[arg-type]
            try:
                k.record(event)
            except ScoreError as refused:
                assert k.to_json() == before  # a refusal changes nothing
                text = str(refused)
                assert text[0].isupper() or text.startswith("there")
                if kind in ("hand", "crib") and points in (19, 25, 26, 27):
                    assert "nineteen hand" in text
                if kind in ("hand", "crib") and 0 <= points <= 29 and points not in (19, 25, 26, 27):
                    assert "already" in text or "game is over" in text or "dealer" in text
                continue
            in_force.append(event)
            undone.clear()
        assert k.events == in_force and k.undone == undone
        sums = [0] * k.sides
        for e in in_force:
            if isinstance(e, Score):
                sums[e.side] += e.points
        assert list(k.totals) == sums
        reached = [s for s, t in enumerate(sums) if t >= table.target]
        assert len(reached) <= 1  # one entry at a time: the game ends at the first to reach it
        assert k.winner == (reached[0] if reached else None)
        if k.winner is not None:
            loser = max(t for s, t in enumerate(sums) if s != k.winner)
            expected = "double skunk" if table.double_skunk_line and loser < table.double_skunk_line else (
                "skunk" if loser < table.skunk_line else "win")
            assert k.result is not None and k.result[2] == expected
        assert k.deal == 1 + sum(isinstance(e, NextDeal) for e in in_force)
        assert sum(len(d.entries) for d in k.deals()) == sum(isinstance(e, Score) for e in in_force)
    assert Scorekeeper.from_json(json.loads(json.dumps(k.to_json()))).to_json() == k.to_json()


def test_events_parse_back():
    assert event_from_json(["deal"]) == NextDeal()
    assert event_from_json(["go", 1, 1]) == Score(1, "go", 1)
    with pytest.raises(ScoreError):
        event_from_json(["slam", 0, 1])
