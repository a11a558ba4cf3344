"""The command line: score and peg, one-off and batch, with clear errors and exit status 2."""

from __future__ import annotations

import io
import re
import json
import subprocess
import sys
from pathlib import Path

from cribbage.__main__ import main

ROOT = Path(__file__).resolve().parents[2]


def run(argv, stdin=""):
    out, err = io.StringIO(), io.StringIO()
    status = main(argv, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_score_prints_the_total():
    assert run(["score", "4D", "5C", "5H", "JS", "6S"]) == (0, "17\n", "")
    assert run(["score", "5H", "5D", "5S", "JC", "5C"])[1] == "29\n"


def test_score_crib_flush_rule():
    assert run(["score", "2H", "4H", "6H", "8H", "TS"])[1] == "4\n"
    assert run(["score", "--crib", "2H", "4H", "6H", "8H", "TS"])[1] == "0\n"


def test_score_json_lists_every_item():
    status, out, _ = run(["score", "--json", "4D", "5C", "5H", "JS", "6S"])
    data = json.loads(out)
    assert status == 0 and data["total"] == 17 and data["starter"] == "6S"
    assert {"kind": "nobs", "cards": ["JS"], "points": 1} in data["items"]
    assert sum(i["points"] for i in data["items"]) == 17


def test_score_batch_from_stdin_reports_bad_lines_by_number():
    status, out, err = run(["score"], "4D 5C 5H JS 6S\n\n5H 5D 5S JC 5C\n4D 5C 1H JS 6S\n2H 4H 6H 8H\n")
    assert out == "17\n29\n"
    assert status == 2
    assert "line 4" in err and "'1H'" in err
    assert "line 5" in err and "4 cards and the starter" in err


def test_score_bad_card_exit_2():
    status, out, err = run(["score", "4D", "5X", "5H", "JS", "6S"])
    assert status == 2 and out == "" and "'5X'" in err


def test_peg_scores_the_last_card():
    assert run(["peg", "4S", "6H", "5D"])[1] == "5\n"
    status, out, _ = run(["peg", "--json", "TS", "TH", "AD", "5C", "5D"])
    data = json.loads(out)
    assert data["count"] == 31 and data["points"] == 4
    assert {i["kind"] for i in data["items"]} == {"thirty-one", "pair"}


def test_peg_over_31_is_an_error():
    status, out, err = run(["peg", "KS", "QH", "JD", "2C"])
    assert status == 2 and "past 31" in err


def test_peg_batch():
    status, out, err = run(["peg"], "5S 5H\n7S 8H\nKS QH JD 2C\n")
    assert out == "2\n2\n" and status == 2 and "line 3" in err


def test_python_dash_m_runs():
    proc = subprocess.run([sys.executable, "-m", "cribbage", "score", "4D", "5C", "5H", "JS", "6S"],
                          capture_output=True, text=True, cwd=ROOT / "py")
    assert proc.returncode == 0 and proc.stdout == "17\n"


def test_play_a_whole_match_in_the_terminal():
    # Always the first choice (a shallow cut, the first discard, the lowest legal card): the match
    # still runs to 121, every score item is printed, and the winner is named.
    status, out, err = run(["play", "--level", "easy", "--seed", "11"], "1\n" * 2000)
    assert status == 0 and err == ""
    assert "Player cuts" in out and "lays two cards away" in out
    last = out.strip().splitlines()[-1]
    assert re.fullmatch(r"(Player|Computer) wins 1[2-4]\d to \d+\.", last), last
    assert "fifteen" in out


def test_play_takes_cards_and_hints_and_stops_at_end_of_input():
    status, out, _ = run(["play", "--seed", "3"], "5\n5\nh\n10s qs\nxx\n")
    assert status == 0
    assert "Lay away" in out  # the hint
    assert "Player lays two cards away" in out  # "10s qs" named the discard
    assert "not a choice here" in out  # "xx"
    assert out.rstrip().endswith("stopped (end of input)")


def test_play_rejects_an_unknown_level():
    status, _, err = run(["play", "--level", "grandmaster"])
    assert status == 2 and "grandmaster" in err


def test_play_at_a_three_player_table_to_61():
    status, out, _ = run(["play", "--players", "greedy,greedy", "--to", "61", "--seed", "4"], "1\n" * 3000)
    assert status == 0 and ("win" in out.splitlines()[-1])


def test_play_with_muggins_in_the_play_asks_each_claim_and_offers_a_call():
    # "1" everywhere: the first choice, a claim of 1 for each card and each count, never a call.
    status, out, _ = run(["play", "--rules", "play-muggins", "--level", "expert", "--seed", "5"], "1\n" * 4000)
    assert status == 0
    assert "how many points does" in out and "Player plays" in out and ": claims 1" in out
    assert "Computer put back" not in out and "Player put back" in out  # the expert calls the overmarks
    assert "call muggins? (m to call" in out
    last = out.strip().splitlines()[-1]
    assert re.fullmatch(r"(Player|Computer) wins \d+ to \d+\.", last), last
    # "m" at every question of muggins, "1" elsewhere: the player calls on each computer claim.
    out_buf, err = io.StringIO(), io.StringIO()

    class Answers(io.StringIO):
        def readline(self, size: int = -1) -> str:
            lines = out_buf.getvalue().rstrip("> ").splitlines()
            return "m\n" if lines and "call muggins?" in lines[-1] else "1\n"

    status = main(["play", "--play-muggins", "--seed", "5"], stdin=Answers(), stdout=out_buf, stderr=err)
    out = out_buf.getvalue()
    assert status == 0 and "Player calls muggins: nothing was missed" in out  # the expert claims exactly
    assert "Player muggins" not in out and "Computer put back" not in out
