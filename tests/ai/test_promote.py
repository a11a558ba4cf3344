"""The promotion script (issue 34): duplicate deals, the paired margin and its interval decide."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from cribbage.ai.duplicate import DuplicateResult, duplicate_match, player_factory, seatings

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "py" / "tools"))
import promote


def test_a_weaker_challenger_is_refused():
    r = duplicate_match("random", "greedy", sets=12, seed=5)
    assert r.games == 24 and r.sets == 12
    assert r.mean < 0 and r.interval[1] < 0
    assert not r.promote


def test_a_clearly_stronger_challenger_is_promoted():
    r = duplicate_match("greedy", "random", sets=12, seed=5)
    assert r.mean > 1.5 and r.interval[0] > 0
    assert r.promote
    assert "PROMOTE" in r.summary()


def test_the_same_player_against_itself_is_not_promoted():
    # Each game of a pair gets the same cards in the same seat: equal players cancel, and a margin of
    # zero never lies above zero.
    r = duplicate_match("greedy", "greedy", sets=10, seed=7)
    assert r.interval[0] <= 0 <= r.interval[1]
    assert not r.promote


def test_margins_and_interval_by_hand():
    r = DuplicateResult("a", "b", "two", margins=[2.0, 0.0, 2.0, -2.0])
    assert r.mean == 0.5
    sd = math.sqrt(((1.5 ** 2) * 2 + 0.5 ** 2 + 2.5 ** 2) / 3)
    assert r.interval == pytest.approx((0.5 - 1.96 * sd / 2, 0.5 + 1.96 * sd / 2))
    assert DuplicateResult("a", "b", "two", margins=[2.0]).interval == (-math.inf, math.inf)
    assert not DuplicateResult("a", "b", "two", margins=[2.0]).promote


@pytest.mark.parametrize("table,games", [("three", 3), ("four", 2)])
def test_three_and_four_players_rotate_the_challenger_through_the_seats(table, games):
    plan = seatings(table)
    assert len(plan) == games
    assert sorted(sum(s.index(True) == k for s in plan) for k in range(len(plan))) == [1] * len(plan)
    r = duplicate_match("greedy", "random", sets=2, seed=3, table=table)
    assert r.games == 2 * games
    won_all = games - 0.0
    assert all(m <= won_all for m in r.margins)
    # The margin is games won minus an incumbent seat's share: -games/(sides-1) .. +games.
    sides = 3 if table == "three" else 2
    assert all(-games / (sides - 1) <= m for m in r.margins)
    assert r.mean > 0


def test_the_script_prints_and_exits_by_the_verdict(capsys, tmp_path):
    out = tmp_path / "r.json"
    assert promote.main(["--challenger", "greedy", "--incumbent", "random", "--pairs", "6", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "12 games" in text and "95% interval" in text and "PROMOTE" in text
    assert '"promote": true' in out.read_text()
    assert promote.main(["--challenger", "random", "--incumbent", "greedy", "--pairs", "6"]) == 1
    assert "KEEP" in capsys.readouterr().out


def test_unknown_players_and_bad_counts_get_a_sentence(capsys):
    assert promote.main(["--challenger", "grandmaster"]) == 2
    assert "unknown player 'grandmaster'" in capsys.readouterr().err
    assert promote.main(["--pairs", "0"]) == 2
    with pytest.raises(ValueError, match="deal sets"):
        duplicate_match("greedy", "random", sets=0)
    with pytest.raises(ValueError, match="unknown table"):
        duplicate_match("greedy", "random", sets=1, table="five")
    assert player_factory("expert-previous")(1).name == "expert-previous"


@pytest.mark.slow
def test_the_expert_against_random_both_ways():
    # About 2.5 CPU-seconds: the expert's own games, so in the slow suite.
    assert duplicate_match("expert", "random", sets=2, seed=11).promote
    assert not duplicate_match("random", "expert", sets=2, seed=11).promote


def test_chunks_of_a_run_combine_into_the_whole_run(tmp_path, capsys):
    whole = duplicate_match("greedy", "random", sets=6, seed=9)
    files = []
    for k, start in enumerate((0, 2, 4)):
        f = tmp_path / f"part{k}.json"
        assert promote.main(["--challenger", "greedy", "--incumbent", "random", "--pairs", "2", "--seed", "9",
                             "--start", str(start), "--json", str(f)]) in (0, 1)
        files.append(str(f))
    capsys.readouterr()
    assert promote.main(["--combine", *files]) == (0 if whole.promote else 1)
    text = capsys.readouterr().out
    lo, hi = whole.interval
    assert f"{whole.games} games" in text and f"{whole.mean:+.3f}, 95% interval {lo:+.3f} to {hi:+.3f}" in text
    assert promote.main(["--combine", str(tmp_path / "missing.json")]) == 2
    assert "cannot combine" in capsys.readouterr().err
