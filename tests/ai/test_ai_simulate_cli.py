"""Duplicate simulation and the analyze/simulate commands."""

from __future__ import annotations

import json

import pytest

from cribbage.ai.cli import main as ai_main
from cribbage.ai import make_player
from cribbage.ai.simulate import SOURCES, completed_hands, simulate, wilson_interval
from cribbage.state import GameState
from cribbage.view import view


def test_wilson_interval():
    lo, hi = wilson_interval(60, 100)
    assert 0.50 < lo < 0.51 and 0.69 < hi < 0.70
    assert wilson_interval(0, 10)[0] == 0.0


def test_simulate_smoke_numbers_add_up():
    r = simulate("greedy", "random", games=6, seed=2)
    assert r.games == 6
    assert sum(r.wins.values()) == 6
    assert 0.0 <= r.win_rate <= 1.0
    lo, hi = r.interval
    assert lo <= r.win_rate <= hi
    data = r.to_json()
    json.dumps(data)
    assert data["players"] == ["greedy", "random"]
    for label in r.players:
        ph = r.per_hand(label)
        for role in ("dealer", "pone"):
            assert ph[role]["hands"] > 0
            assert ph[role]["total"] == pytest.approx(sum(ph[role][s] for s in SOURCES))
        assert ph["pone"]["crib"] == 0 and ph["pone"]["heels"] == 0
        assert r.decision_ms(label)["discard"]["n"] > 0
    # The deal alternates: each player dealt as often as it was pone, give or take one hand a game.
    for label in r.players:
        assert abs(r.hands[label]["dealer"] - r.hands[label]["pone"]) <= r.games


def test_completed_hands_name_the_dealer_of_each_hand():
    # The dealers recorded while the game is played, against what the tally works out afterwards.
    players = (make_player("greedy", seed=1), make_player("random", seed=2))
    state = GameState(17)
    dealers: dict[int, int] = {}
    while not state.is_over:
        if state.dealer is not None:
            dealers.setdefault(state.hand_number, state.dealer)
        seat = state.actors()[0]
        state.apply(players[seat].choose(view(state, seat)))
    hands = completed_hands(state)
    assert len(hands) == state.hand_number - 1 >= 3
    assert [dealer for dealer, _ in hands] == [dealers[n] for n in range(1, state.hand_number)]
    assert [scores for _, scores in hands] == state.hand_scores[:-1]


def test_simulate_self_play_labels_both_sides():
    r = simulate("random", "random", games=2, seed=1)
    assert r.players == ("random", "random#2")


def test_cli_analyze_text_and_json(capsys):
    assert ai_main(["analyze", "--pone", "5H", "5C", "6H", "JS", "QS", "9C"]) == 0
    out = capsys.readouterr().out
    assert "6H 9C" in out
    assert ai_main(["analyze", "--json", "5H", "5C", "6H", "JS", "QS", "9C"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data) == 15
    assert set(data[0]) >= {"discard", "keep", "hand_ev", "crib_ev", "net"}
    assert data[0]["discard"] == ["6H", "9C"]


@pytest.mark.parametrize("cards", [["5H", "5C", "6H", "JS"], ["5H", "5C", "6H", "JS", "QS", "9X"],
                                   ["5H", "5H", "6H", "JS", "QS", "9C"]])
def test_cli_analyze_bad_cards_exit_2(cards, capsys):
    assert ai_main(["analyze", *cards]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err


def test_cli_simulate_json(capsys):
    assert ai_main(["simulate", "--players", "greedy,random", "--games", "2", "--seed", "3", "--json"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert data["games"] == 2 and sum(data["wins"].values()) == 2


def test_cli_simulate_bad_players_exit_2(capsys):
    assert ai_main(["simulate", "--players", "expert,wizard"]) == 2
    assert "wizard" in capsys.readouterr().err


def test_main_command_line_has_analyze_and_simulate(capsys):
    from cribbage.__main__ import main

    assert main(["analyze", "--json", "5H", "5C", "6H", "JS", "QS", "9C"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 15
    assert main(["analyze", "5H", "5C"]) == 2


def test_cli_analyze_five_cards_ranks_the_five_single_discards(capsys):
    assert ai_main(["analyze", "--json", "5H", "5C", "6H", "JS", "QS"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 5 and all(len(r["discard"]) == 1 and len(r["keep"]) == 4 for r in rows)


def test_cli_simulate_three_players_and_partners(capsys):
    assert ai_main(["simulate", "--players", "greedy,random,table", "--games", "3", "--json", "--to", "61"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 3 and sum(data["wins"].values()) == 3 and data["rules"] == {"players": 3, "target": 61}
    assert ai_main(["simulate", "--players", "greedy,random,table,greedy", "--games", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert sum(data["wins"].values()) == 8  # both partners credited
    assert ai_main(["simulate", "--players", "greedy,random,table", "--partners"]) == 2
