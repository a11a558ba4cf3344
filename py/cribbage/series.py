"""A series of games: first to N game points (or best of N), skunks or the lurch, who deals next.

One game is a :class:`~cribbage.state.GameState` played by its :class:`~cribbage.rules.Rules`; a
series sits above games and reads only their final scores per side and who dealt first, so the
engine, the scorekeeper and the record share it. The lines (skunk, double skunk, lurch) come from
the game's ``Rules``, never from a copy here.

What a won game is worth (rule book):

- a win: 1 game point;
- a skunk (the loser below the skunk line: 91 in a game to 121, 31 in a game to 61): 2;
- a double skunk (the loser below 61 in a game to 121): 3, or 4 as agreed;
- the lurch, an option *instead of* the skunk lines: a loser below half the board (61 in a game to
  121) makes the win count 2.

With three players the game's worth is judged by the best of the losers (a skunk only when every
opponent is below the line): one winner takes one value, as with two.

Who deals first in the next game: the loser of the last game (with three players, the lowest score;
a tie for lowest cuts again), or *alternate*: the first game's non-dealer (the seat on the dealer's
left) deals the second, and the cut decides the third, and so on — the cut for odd-numbered games,
the left of the previous first dealer for even ones. ``None`` means "cut for deal".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Mapping, Sequence

from .rules import Rules, RulesError
from .savefile import Fields

__all__ = ["SeriesRules", "GameResult", "Series", "game_value", "WinKind"]

WinKind = Literal["win", "skunk", "double skunk", "lurch"]
NextDealer = Literal["loser", "alternate"]


@dataclass(frozen=True, slots=True)
class SeriesRules:
    """How a series is won. ``SeriesRules()`` is a single game."""

    first_to: int = 1
    """Game points that win the series (best of N is first to N // 2 + 1: :meth:`best_of`)."""
    skunks: bool = True
    """Skunks and double skunks count extra (ignored when ``lurch`` is on)."""
    double_skunk: int = 3
    """Game points for a double skunk: 3, or 4 as agreed."""
    lurch: bool = False
    """The lurch instead of the skunk lines: a loser below half the board makes the win count 2."""
    next_dealer: NextDealer = "loser"
    """Who deals first in the next game: ``loser`` or ``alternate``."""

    def __post_init__(self) -> None:
        if type(self.first_to) is not int or not 1 <= self.first_to <= 99:
            raise RulesError(f"a series is played to 1–99 game points, not {self.first_to!r}")
        if self.double_skunk not in (3, 4) or type(self.double_skunk) is not int:
            raise RulesError(f"a double skunk counts 3 or 4 games, not {self.double_skunk!r}")
        if type(self.skunks) is not bool or type(self.lurch) is not bool:
            raise RulesError("skunks and the lurch are yes or no")
        if self.next_dealer not in ("loser", "alternate"):
            raise RulesError(f"the next game's dealer is the loser or alternates, not {self.next_dealer!r}")

    @classmethod
    def best_of(cls, games: int, **options: Any) -> "SeriesRules":
        """Best of ``games`` (an odd number): first to more than half of them."""
        if type(games) is not int or games < 1 or games % 2 == 0:
            raise RulesError(f"best of an odd number of games, not {games!r}")
        return cls(first_to=games // 2 + 1, **options)

    def to_json(self) -> dict[str, Any]:
        """The choices that differ from a single game with skunks counted (``{}`` for the default)."""
        default = SeriesRules()
        return {name: getattr(self, name) for name in self.__slots__
                if getattr(self, name) != getattr(default, name)}

    @classmethod
    def from_json(cls, data: Any) -> "SeriesRules":
        """Series rules from :meth:`to_json`'s data; anything malformed is a :class:`RulesError`."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise RulesError("the series rules are not a set of choices")
        unknown = sorted(str(k) for k in data if k not in cls.__slots__)
        if unknown:
            raise RulesError(f"unknown series rule {unknown[0]!r}")
        return cls(**{str(k): v for k, v in data.items()})


def game_value(rules: Rules, series: SeriesRules, scores: Sequence[int]) -> tuple[int, int, WinKind]:
    """The winner's side, the game points the win is worth and its kind, from the final scores per
    side. Raises :class:`RulesError` if the scores are not a finished game of these rules."""
    if len(scores) != rules.sides:
        raise RulesError(f"a game of {rules.describe()} has {rules.sides} scores, not {len(scores)}")
    if any(type(s) is not int or s < 0 for s in scores):
        raise RulesError("scores are whole numbers from 0")
    winners = [side for side, s in enumerate(scores) if s >= rules.target]
    if len(winners) != 1:
        raise RulesError(f"a finished game has exactly one side at {rules.target} or more")
    winner = winners[0]
    best_loser = max(s for side, s in enumerate(scores) if side != winner)
    if series.lurch:
        return (winner, 2, "lurch") if best_loser < rules.lurch_line else (winner, 1, "win")
    if series.skunks:
        double = rules.double_skunk_line
        if double is not None and best_loser < double:
            return winner, series.double_skunk, "double skunk"
        if best_loser < rules.skunk_line:
            return winner, 2, "skunk"
    return winner, 1, "win"


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game of a series: the final score of each side and the seat that dealt first."""

    scores: tuple[int, ...]
    first_dealer: int

    def to_json(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "first_dealer": self.first_dealer}


@dataclass(frozen=True, slots=True)
class Series:
    """A series in progress: its rules and the games finished so far (immutable; :meth:`add`
    returns the next value)."""

    rules: Rules
    series: SeriesRules = SeriesRules()
    games: tuple[GameResult, ...] = ()

    def add(self, scores: Sequence[int], first_dealer: int) -> "Series":
        """The series after one more finished game. Refused once the series is won, or for scores
        that are not a finished game of these rules."""
        if self.winner is not None:
            raise RulesError("the series is already won")
        if type(first_dealer) is not int or not 0 <= first_dealer < self.rules.players:
            raise RulesError(f"no seat {first_dealer!r} at a table of {self.rules.players}")
        game_value(self.rules, self.series, scores)  # validates
        return Series(self.rules, self.series, (*self.games, GameResult(tuple(scores), first_dealer)))

    def values(self) -> list[tuple[int, int, WinKind]]:
        """Each game's (winner side, game points, kind), in order."""
        return [game_value(self.rules, self.series, g.scores) for g in self.games]

    @property
    def points(self) -> tuple[int, ...]:
        """Game points per side so far."""
        out = [0] * self.rules.sides
        for side, value, _ in self.values():
            out[side] += value
        return tuple(out)

    @property
    def winner(self) -> int | None:
        """The side that reached ``first_to`` game points, once one has."""
        for side, p in enumerate(self.points):
            if p >= self.series.first_to:
                return side
        return None

    def next_first_dealer(self) -> int | None:
        """The seat that deals first in the next game, or None when the cut decides (the first
        game; alternate dealing's odd-numbered games; a tie for the lowest score)."""
        if not self.games:
            return None
        last = self.games[-1]
        if self.series.next_dealer == "alternate":
            if len(self.games) % 2 == 0:  # the next game is odd-numbered: cut again
                return None
            return self.rules.left_of(last.first_dealer)
        low = min(last.scores)
        losers = [side for side, s in enumerate(last.scores) if s == low]
        if len(losers) != 1:
            return None
        seats = self.rules.seats_of(losers[0])
        if len(seats) == 1:
            return seats[0]
        # A losing partnership: its seat on the last first dealer's left (the deal keeps moving).
        return next(s for s in self.rules.order_from(self.rules.left_of(last.first_dealer)) if s in seats)

    def to_json(self) -> dict[str, Any]:
        return {"rules": self.rules.to_json(), "series": self.series.to_json(),
                "games": [g.to_json() for g in self.games]}

    @classmethod
    def from_json(cls, data: Any) -> "Series":
        """A series from :meth:`to_json`'s data, every game checked again."""
        f = Fields(data, "the series", RulesError)
        made = cls(Rules.from_json(f.raw("rules", None)), SeriesRules.from_json(f.raw("series", None)))
        for g in f.list("games", default=[], what="the series' games"):
            game = Fields(g, "a game of the series", RulesError)
            made = made.add(game.list_of("scores", int), game.int("first_dealer", min=0))
        return made
