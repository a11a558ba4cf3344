"""The daily discard puzzle: the same six cards, score and role for everyone on a date (the
documented hash, pinned days), different the next day; never a finished game; the ranking is
``cribbage analyze --scores``'s; results, streaks and the history's file; a share text with no card."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from datetime import date, timedelta
from pathlib import Path

import pytest

from cribbage.ai.cli import main as cli_main
from cribbage.cards import DECK, parse_cards
from cribbage.puzzle import (FIRST_DAY, TAG, History, HistoryError, Result, grade, ordinal, parse_day, positions,
                             puzzle_for, reason, share_text, solve)
from cribbage.rng import Rng

ROOT = Path(__file__).resolve().parents[2]
DAY = date(2026, 12, 2)


def test_the_same_date_gives_the_same_puzzle_and_the_next_day_another():
    assert puzzle_for(DAY) == puzzle_for(date(2026, 12, 2))
    days = [FIRST_DAY + timedelta(days=n) for n in range(400)]
    puzzles = [puzzle_for(d) for d in days]
    assert all(a.hand != b.hand for a, b in zip(puzzles, puzzles[1:]))
    assert len({p.hand for p in puzzles}) == len(puzzles)
    assert {p.dealer for p in puzzles} == {True, False}


def test_pinned_days_never_change():
    # Changing the hash, the generator, the deck order or the positions table would change every
    # past day's puzzle: these are the published ones.
    p = puzzle_for(DAY)
    assert [c.code for c in p.hand] == ["AS", "4D", "5S", "6D", "JC", "KC"]
    assert (p.dealer, p.scores, p.target, p.number) == (False, (109, 102), 121, 336)
    p = puzzle_for(date(2026, 12, 1))
    assert [c.code for c in p.hand] == ["3H", "4C", "7C", "8H", "8C", "9D"]
    assert (p.dealer, p.scores) == (True, (42, 35))


def test_the_documented_recipe_gives_the_puzzle():
    for day in (FIRST_DAY, DAY, date(2031, 7, 4)):
        digest = hashlib.sha256(f"cribbage daily discard puzzle v1|{day.isoformat()}".encode("ascii")).digest()
        rng = Rng(int.from_bytes(digest[:8], "big"))
        deck = list(DECK)
        rng.shuffle(deck)
        dealer_score, pone_score = positions()[rng.below(len(positions()))]
        dealer = rng.below(2) == 0
        p = puzzle_for(day)
        assert set(p.hand) == set(deck[:6]) and p.dealer == dealer
        assert p.scores == ((dealer_score, pone_score) if dealer else (pone_score, dealer_score))
    assert TAG == "cribbage daily discard puzzle v1"


def test_another_python_process_deals_the_same_puzzle():
    code = ("import sys; sys.path.insert(0, 'py'); from datetime import date; from cribbage.puzzle import puzzle_for; "
            "print(puzzle_for(date(2026, 12, 2)).to_json())")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.strip() == str(puzzle_for(DAY).to_json())


def test_situations_are_real_positions_never_a_finished_game():
    table = positions()
    assert len(table) > 1000 and all(0 <= a < 121 and 0 <= b < 121 for a, b in table)
    assert (0, 0) in table and max(max(a, b) for a, b in table) >= 110  # the whole game, start to end
    for n in range(0, 2000, 7):
        p = puzzle_for(FIRST_DAY + timedelta(days=n))
        assert all(0 <= s < 121 for s in p.scores)


@pytest.mark.parametrize("text", ["2026-1-02", "02/12/2026", "2026-02-30", "", "2025-12-31", None, 20261202])
def test_a_bad_day_is_refused_with_a_sentence(text):
    with pytest.raises(ValueError):
        parse_day(text)


def test_the_ranking_is_analyzes(capsys):
    for n in (0, 1, 2, 40, 200, 335):
        p = puzzle_for(FIRST_DAY + timedelta(days=n))
        role = "--dealer" if p.dealer else "--pone"
        status = cli_main(["analyze", "--json", role, "--scores", f"{p.scores[0]},{p.scores[1]}",
                           *[c.code for c in p.hand]])
        assert status == 0
        printed = json.loads(capsys.readouterr().out)
        assert printed == [c.to_json() for c in solve(p)]
        assert len(printed) == 15 and all(0.0 <= c["win_chance"] <= 1.0 for c in printed)


def test_analyze_with_scores_ranks_by_the_chance_of_winning(capsys):
    assert cli_main(["analyze", "--pone", "--scores", "97,110", "5H", "5C", "6D", "JS", "QS", "9C"]) == 0
    out = capsys.readouterr().out
    assert "97 to 110" in out and "ranked by the chance of winning" in out and "win %" in out
    assert cli_main(["analyze", "--json", "--pone", "--scores", "97,110", "5H", "5C", "6D", "JS", "QS", "9C"]) == 0
    wins = [c["win_chance"] for c in json.loads(capsys.readouterr().out)]
    assert wins == sorted(wins, reverse=True)


@pytest.mark.parametrize("argv, words", [
    (["--scores", "97"], "two scores"),
    (["--scores", "97,121"], "0 to 120"),
    (["--scores=-1,5"], "two scores"),
    (["--scores", "50,70", "--to", "61"], "0 to 60"),
    (["--scores", "1,2", "--table", "three"], "six cards"),
])
def test_analyze_refuses_scores_it_cannot_use(argv, words, capsys):
    cards = ["5H", "5C", "6D", "JS", "QS"] + ([] if "three" in argv else ["9C"])
    assert cli_main(["analyze", *argv, *cards]) == 2
    assert words in capsys.readouterr().err


def test_grade_ranks_equal_discards_alike():
    p = puzzle_for(DAY)
    ranking = solve(p)
    best = grade(p, ranking, ranking[0].discard, DAY)
    assert best.rank == 1 and best.points_lost == 0 and best.win_lost == 0 and best.on_day
    worst = grade(p, ranking, ranking[-1].discard, DAY + timedelta(days=3))
    assert worst.rank > 1 and worst.win_lost > 0 and not worst.on_day
    # 5 of hearts or 5 of clubs: the same discard by value gets the same rank
    hand = parse_cards("5H 5C 6D JS QS 9C".split())
    from cribbage.puzzle import Puzzle

    q = Puzzle(DAY, tuple(hand), True, (60, 60))
    r = solve(q)
    a = grade(q, r, parse_cards(["5H", "QS"]), DAY)
    b = grade(q, r, parse_cards(["5C", "QS"]), DAY)
    assert a.rank == b.rank and a.points_lost == pytest.approx(b.points_lost)
    with pytest.raises(ValueError):
        grade(q, r, parse_cards(["5H", "AS"]), DAY)
    with pytest.raises(ValueError):
        grade(q, r, parse_cards(["5H"]), DAY)


def test_the_reason_is_one_sentence_with_the_best_discard():
    for n in range(0, 60, 6):
        p = puzzle_for(FIRST_DAY + timedelta(days=n))
        ranking = solve(p)
        text = reason(p, ranking)
        assert text.count(". ") == 0 and text.endswith(".")
        assert " ".join(c.pretty for c in ranking[0].discard) in text and "%" in text


CARD_WORDS = [*(c.code for c in DECK), *(c.pretty for c in DECK), "\u2660", "\u2665", "\u2666", "\u2663",
              "\u2664", "\u2661", "\u2662", "\u2667", "spade", "heart", "diamond", "club", "ace", "jack", "queen",
              "king"]


def test_the_share_text_names_no_card():
    words_ok = []
    for n in range(0, 90, 3):
        p = puzzle_for(FIRST_DAY + timedelta(days=n))
        ranking = solve(p)
        for choice in ranking:
            result = grade(p, ranking, choice.discard, p.day)
            for streak in (None, 0, 1, 12):
                text = share_text(result, streak)
                assert text.startswith(f"Cribbage daily {p.day.isoformat()}: ")
                lower = text.lower()
                for word in CARD_WORDS:
                    # codes and glyphs as written (``TS``, ``10♠``), words in any case
                    hit = word in text if (word[0].isupper() or not word.isalpha()) else word in lower
                    assert not hit, (text, word)
                words_ok.append(text)
    assert any("\U0001f3af" in t for t in words_ok) and any("2nd best" in t for t in words_ok)


def test_share_text_reads_like_the_example():
    r = Result(DAY, tuple(parse_cards(["5H", "QS"])), 2, 0.3, 0.004, True)
    assert (
        share_text(r, 3) == "Cribbage daily 2026-12-02: 2nd best of 15 (\u22120.3 pts, \u22120.4% to win) \U0001f5253"
    )
    r = Result(DAY, tuple(parse_cards(["5H", "QS"])), 1, 0.0, 0.0, True)
    assert share_text(r) == "Cribbage daily 2026-12-02: the best of 15 \U0001f3af"
    r = Result(DAY, tuple(parse_cards(["5H", "QS"])), 3, -0.4, 0.02, False)
    assert share_text(r) == "Cribbage daily 2026-12-02: 3rd best of 15 (+0.4 pts, \u22122.0% to win)"
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 15, 21, 22)] == \
        ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "15th", "21st", "22nd"]


def _result(day: date, on_day: bool = True, rank: int = 1) -> Result:
    return Result(day, tuple(parse_cards(["5H", "QS"])), rank, 0.0, 0.0, on_day)


def test_streaks_count_days_in_a_row_solved_on_their_day():
    h = History()
    for n in range(5):
        assert h.add(_result(DAY - timedelta(days=n)))
    assert not h.add(_result(DAY, rank=9))  # the first answer stands
    assert h.get(DAY).rank == 1
    assert h.streak(DAY) == 5 and h.streak(DAY + timedelta(days=1)) == 5  # today not yet solved
    assert h.streak(DAY + timedelta(days=2)) == 0
    h.add(_result(DAY - timedelta(days=6), on_day=False))
    h.add(_result(DAY - timedelta(days=5), on_day=False))
    assert h.streak(DAY) == 5 and h.best_streak() == 5  # days played later are not on the streak
    h.add(_result(DAY - timedelta(days=20)))
    assert h.best_streak() == 5 and h.streak_on(DAY - timedelta(days=20)) == 1
    assert [r.day for r in h.recent(2)] == [DAY, DAY - timedelta(days=1)]


def test_the_history_file_round_trips_and_refuses_what_is_not_ours():
    h = History([_result(DAY), _result(DAY - timedelta(days=1), on_day=False, rank=7)])
    again = History.from_json(json.loads(json.dumps(h.to_json())))
    assert again.to_json() == h.to_json() and again.get(DAY - timedelta(days=1)).rank == 7
    bad = [None, [], {"format": "other"}, {"format": "cribbage-puzzle-history"},
           {"format": "cribbage-puzzle-history", "version": 2, "results": []},
           {"format": "cribbage-puzzle-history", "version": 1, "results": {}},
           {"format": "cribbage-puzzle-history", "version": 1, "results": [{"day": "2026-12-02"}]},
           {"format": "cribbage-puzzle-history", "version": 1, "results": [
               {"day": "2026-12-02", "discard": ["5H", "ZZ"], "rank": 1, "points_lost": 0, "win_lost": 0,
                "on_day": True}]},
           {"format": "cribbage-puzzle-history", "version": 1, "results": [
               {"day": "2026-12-02", "discard": ["5H", "QS"], "rank": 16, "points_lost": 0, "win_lost": 0,
                "on_day": True}]}]
    for data in bad:
        with pytest.raises(HistoryError):
            History.from_json(data)
