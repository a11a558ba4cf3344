"""The daily discard puzzle: six cards, a score and a role for every UTC date, the same for everyone;
the coach's answer; a player's result, streak and the text they share.

**The puzzle of a date** (:func:`puzzle_for`) comes from SHA-256 of ``TAG + "|" + ISO date``
(``"cribbage daily discard puzzle v1|2026-12-02"``, ASCII). Its first 8 bytes, big-endian, seed the
match generator :class:`cribbage.rng.Rng` (SplitMix64), which then, in this order: shuffles the 52
cards of :data:`cribbage.cards.DECK` (Fisher-Yates) and deals the first six; picks one of the
score situations of ``cribbage/data/puzzle_positions.json`` (the scores at the start of every hand
of expert self-play games to 121, ``py/tools/make_puzzle_positions.py``: real positions, never a
finished game); and draws the role (0: you deal, 1: you are the pone). Every browser and Python
computes the same puzzle; the file is frozen, and ``tests/engine/test_puzzle.py`` pins some days.

**The answer** (:func:`solve`) is :func:`cribbage.ai.discard_wins.rank_by_winning`, the ranking
``cribbage analyze --scores`` prints: the 15 discards with the coach's expected points (the numbers
Hint gives) and the chance of winning from the score (the phase model), best first by the chance of
winning. :func:`reason` says in one sentence why the best is best.

**A result** (:class:`Result`) is the rank of the player's discard among the 15 (equal discards share
a rank: a 5 of either suit), the points and the chance of winning it gave up. The streak counts days
in a row whose puzzle was solved on its own UTC day; past days may be played too (they go into the
history, not the streak). :func:`share_text` names no card.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from .cards import DECK, Card, CardError, parse_card
from .rng import Rng
from .savefile import Envelope, Fields
from .scoring import fifteens, pairs, runs

if TYPE_CHECKING:
    from .ai.coach import DiscardChoice

__all__ = ["TAG", "FIRST_DAY", "TARGET", "Puzzle", "Result", "History", "puzzle_for", "parse_day", "solve",
           "grade", "reason", "share_text", "ordinal", "positions", "keep_points", "HistoryError"]

TAG = "cribbage daily discard puzzle v1"
"""The hash's domain tag: another use of a date's hash never gives the same numbers."""
FIRST_DAY = date(2026, 1, 1)
"""Puzzle number 1. Days before it have no puzzle."""
TARGET = 121
POSITIONS_FILE = "puzzle_positions.json"
HISTORY_FORMAT = "cribbage-puzzle-history"
HISTORY_LIMIT = 4000
"""Results kept (about eleven years of days); the oldest go first."""


class HistoryError(ValueError):
    """A stored history that is not ours, damaged, or from a newer version."""


_HISTORY = Envelope(HISTORY_FORMAT, 1, HistoryError, foreign="it is not a puzzle history",
                    no_version="its version is missing", newer="it was written by a newer version ({version})",
                    checksum=False)
"""The stored puzzle history (no checksum: each result is checked on its own)."""


def parse_day(text: object) -> date:
    """``2026-12-02`` as a date; ValueError for anything else (or a day before :data:`FIRST_DAY`)."""
    if not isinstance(text, str) or len(text) != 10 or text[4] != "-" or text[7] != "-":
        raise ValueError(f"a day is written YYYY-MM-DD, not {text!r}")
    try:
        day = date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"there is no day {text!r}") from None
    if day < FIRST_DAY:
        raise ValueError(f"the daily puzzle starts on {FIRST_DAY.isoformat()}")
    return day


def _load(name: str) -> dict[str, Any]:
    """A JSON table of ``cribbage/data`` (from a wheel, a checkout or Pyodide's file system), read
    without importing the computer (drawing a puzzle must not wait for it)."""
    try:
        from importlib import resources

        text = resources.files("cribbage").joinpath("data", name).read_text("utf-8")
    except Exception:  # noqa: BLE001 - fall back to a path next to this file
        text = (Path(__file__).resolve().parent / "data" / name).read_text("utf-8")
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError(f"{name} is not a table")
    return data


@lru_cache(maxsize=1)
def positions() -> tuple[tuple[int, int], ...]:
    """The score situations, as (dealer's score, pone's score)."""
    data = _load(POSITIONS_FILE)
    if data.get("format") != "cribbage-puzzle-positions":
        raise ValueError(f"{POSITIONS_FILE} is not a table of positions")
    out = tuple((int(a), int(b)) for a, b in data["positions"])
    if not out or any(not (0 <= a < TARGET and 0 <= b < TARGET) for a, b in out):
        raise ValueError(f"{POSITIONS_FILE} holds a finished game")
    return out


def keep_points(keep: Sequence[Card]) -> int:
    """What four kept cards score before the starter: fifteens, pairs, runs, a four-card flush."""
    pts = sum(i.points for i in (*fifteens(keep), *pairs(keep), *runs(keep)))
    if len(keep) == 4 and len({c.suit for c in keep}) == 1:
        pts += 4
    return pts


def _ranks(cards: Sequence[Card]) -> str:
    names = {1: "A", 10: "10", 11: "J", 12: "Q", 13: "K"}
    return "-".join(names.get(int(c.rank), str(int(c.rank))) for c in sorted(cards, key=lambda c: c.rank))


def _pretty(cards: Sequence[Card]) -> str:
    return " ".join(c.pretty for c in cards)


@dataclass(frozen=True)
class Puzzle:
    """One day's puzzle."""

    day: date
    hand: tuple[Card, ...]
    """The six cards, in rank order."""
    dealer: bool
    """True: you deal (the crib is yours); False: you are the pone (the crib is the dealer's)."""
    scores: tuple[int, int]
    """(your score, the opponent's) as the hand is dealt."""
    target: int = TARGET

    @property
    def number(self) -> int:
        """1 on :data:`FIRST_DAY`."""
        return (self.day - FIRST_DAY).days + 1

    @property
    def role(self) -> str:
        return "dealer" if self.dealer else "pone"

    def situation(self) -> str:
        """``You deal (the crib is yours). You have 97, the pone 110; game to 121.``"""
        other = "the pone" if self.dealer else "the dealer"
        whose = "You deal: the crib is yours." if self.dealer else "You are the pone: the crib is the dealer's."
        return f"{whose} You have {self.scores[0]}, {other} {self.scores[1]}; game to {self.target}."

    def to_json(self) -> dict[str, Any]:
        return {"day": self.day.isoformat(), "number": self.number, "hand": [c.code for c in self.hand],
                "dealer": self.dealer, "scores": list(self.scores), "target": self.target}


def _digest(day: date) -> bytes:
    return hashlib.sha256(f"{TAG}|{day.isoformat()}".encode("ascii")).digest()


def puzzle_for(day: date) -> Puzzle:
    """The puzzle of ``day`` (see the module's docstring for how it is drawn)."""
    if day < FIRST_DAY:
        raise ValueError(f"the daily puzzle starts on {FIRST_DAY.isoformat()}")
    rng = Rng(int.from_bytes(_digest(day)[:8], "big"))
    deck = list(DECK)
    rng.shuffle(deck)
    hand = tuple(sorted(deck[:6], key=lambda c: (c.rank, c.suit.index)))
    table = positions()
    dealer_score, pone_score = table[rng.below(len(table))]
    dealer = rng.below(2) == 0
    scores = (dealer_score, pone_score) if dealer else (pone_score, dealer_score)
    return Puzzle(day, hand, dealer, scores)


def solve(puzzle: Puzzle) -> list["DiscardChoice"]:
    """The 15 discards, best first, with the coach's points and the chance of winning (the ranking of
    ``cribbage analyze --scores``; the coach is imported on first use)."""
    from .ai.discard_wins import rank_by_winning

    return rank_by_winning(puzzle.hand, puzzle.dealer, puzzle.scores, puzzle.target)


def _key(c: "DiscardChoice") -> tuple[float, float]:
    from .ai.discard_wins import ranking_key

    return ranking_key(c)


def reason(puzzle: Puzzle, ranking: Sequence["DiscardChoice"]) -> str:
    """Why the best discard is best, in one sentence with the coach's numbers."""
    best = ranking[0]
    whose = "your crib" if puzzle.dealer else "the dealer's crib"
    sign = "+" if puzzle.dealer else "\u2212"
    pre = keep_points(best.keep)
    win = 100 * (best.win_chance or 0.0)
    head = (f"Laying away {_pretty(best.discard)} to {whose} keeps {_ranks(best.keep)} ({pre} point"
            f"{'' if pre == 1 else 's'} before the starter): hand {best.hand_ev:.1f} {sign} crib {best.crib_ev:.1f}"
            f" = {best.net:.1f} expected points")
    top = max(ranking, key=lambda c: round(c.net, 9))
    if round(top.net, 9) > round(best.net, 9):
        return (f"{head}, {top.net - best.net:.1f} fewer than keeping {_ranks(top.keep)}, but it wins more "
                f"often ({win:.1f}% against {100 * (top.win_chance or 0.0):.1f}%): needing "
                f"{puzzle.target - puzzle.scores[0]} against {puzzle.target - puzzle.scores[1]}, "
                "the chance of getting there first counts, not the average.")
    others = [c for c in ranking if _key(c) != _key(best)]
    if not others:
        return f"{head}; every discard is as good ({win:.1f}% to win)."
    nxt = max(others, key=lambda c: round(c.net, 9))
    gap = best.net - nxt.net
    if gap < 0.05:
        return (f"{head}, as many as laying away {_pretty(nxt.discard)}, and the better chance of winning "
                f"({win:.1f}% against {100 * (nxt.win_chance or 0.0):.1f}%).")
    return f"{head}, {gap:.1f} more than any other discard, and {win:.1f}% to win."


@dataclass(frozen=True)
class Result:
    """A solved puzzle."""

    day: date
    discard: tuple[Card, ...]
    """The two cards the player laid away."""
    rank: int
    """1 (the best, or as good as it) to 15."""
    points_lost: float
    """The best discard's expected points minus this one's (negative when this one scores more
    points but wins less often)."""
    win_lost: float
    """The best discard's chance of winning minus this one's (0..1)."""
    on_day: bool
    """Solved on the puzzle's own UTC day: it counts for the streak."""

    def to_json(self) -> dict[str, Any]:
        return {"day": self.day.isoformat(), "discard": [c.code for c in self.discard], "rank": self.rank,
                "points_lost": round(self.points_lost, 3), "win_lost": round(self.win_lost, 5),
                "on_day": self.on_day}

    @classmethod
    def from_json(cls, data: Any) -> "Result":
        f = Fields(data, "a result", HistoryError)
        try:
            day = parse_day(f.str("day"))
            discard = tuple(parse_card(c) for c in f.list_of("discard", str, length=2))
        except (ValueError, CardError) as exc:
            raise HistoryError(f"a result cannot be read ({exc})") from None
        rank = f.int("rank", min=1, max=15)
        lost, win, on_day = f.number("points_lost"), f.number("win_lost"), f.bool("on_day")
        return cls(day, discard, rank, lost, win, on_day)


def grade(puzzle: Puzzle, ranking: Sequence["DiscardChoice"], discard: Sequence[Card], today: date) -> Result:
    """The result of laying away ``discard`` (two of the puzzle's six) on ``today``; ValueError for
    cards that are not two of the six."""
    chosen_set = set(discard)
    if len(chosen_set) != 2 or not chosen_set <= set(puzzle.hand):
        raise ValueError("lay away two of the puzzle's six cards")
    chosen = next(c for c in ranking if set(c.discard) == chosen_set)
    best = ranking[0]
    rank = 1 + sum(1 for c in ranking if _key(c) > _key(chosen))
    return Result(puzzle.day, tuple(c for c in puzzle.hand if c in chosen_set), rank, best.net - chosen.net,
                  max(0.0, (best.win_chance or 0.0) - (chosen.win_chance or 0.0)), today == puzzle.day)


class History:
    """Every solved puzzle of this browser, one result a day (the first answer stands)."""

    def __init__(self, results: Sequence[Result] = ()) -> None:
        self.results: dict[date, Result] = {}
        for r in results:
            self.results.setdefault(r.day, r)

    def get(self, day: date) -> Result | None:
        return self.results.get(day)

    def add(self, result: Result) -> bool:
        """Record ``result`` unless that day has one already; True if it was added."""
        if result.day in self.results:
            return False
        self.results[result.day] = result
        if len(self.results) > HISTORY_LIMIT:
            for day in sorted(self.results)[: len(self.results) - HISTORY_LIMIT]:
                del self.results[day]
        return True

    def streak_on(self, day: date) -> int:
        """Days in a row up to ``day`` whose puzzle was solved on its day."""
        n = 0
        while (r := self.results.get(day - timedelta(days=n))) is not None and r.on_day:
            n += 1
        return n

    def streak(self, today: date) -> int:
        """The current streak: up to today, or up to yesterday while today's puzzle is unsolved."""
        if today in self.results:
            return self.streak_on(today)
        return self.streak_on(today - timedelta(days=1))

    def best_streak(self) -> int:
        """The longest run of days solved on their day."""
        best = 0
        for day, r in self.results.items():
            before = self.results.get(day - timedelta(days=1))
            if r.on_day and (before is None or not before.on_day):
                n = 0
                while (run := self.results.get(day + timedelta(days=n))) is not None and run.on_day:
                    n += 1
                best = max(best, n)
        return best

    def recent(self, n: int = 30) -> list[Result]:
        """The latest ``n`` results, newest first."""
        return [self.results[d] for d in sorted(self.results, reverse=True)[:n]]

    def to_json(self) -> dict[str, Any]:
        return {"format": HISTORY_FORMAT, "version": 1,
                "results": [self.results[d].to_json() for d in sorted(self.results)]}

    @classmethod
    def from_json(cls, data: Any) -> "History":
        f = Fields(_HISTORY.check(data), "the puzzle history", HistoryError)
        results = f.list("results", what="its results")
        return cls([Result.from_json(r) for r in results])


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``11th``, ``15th``."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def share_text(result: Result, streak: int | None = None) -> str:
    """``Cribbage daily 2026-12-02: 2nd best of 15 (−0.3 pts, −0.4% to win) 🔥3``: no card in it.
    ``streak`` (days in a row) is shown from 1 up."""
    if result.rank == 1:
        what = "the best of 15 \U0001f3af"
    else:
        pts = result.points_lost
        sign = "\u2212" if pts >= 0 else "+"
        parts = [f"{sign}{abs(pts):.1f} pts"]
        if round(100 * result.win_lost, 1) > 0:
            parts.append(f"\u2212{100 * result.win_lost:.1f}% to win")
        what = f"{ordinal(result.rank)} best of 15 ({', '.join(parts)})"
    fire = f" \U0001f525{streak}" if streak else ""
    return f"Cribbage daily {result.day.isoformat()}: {what}{fire}"
