"""Promotion by duplicate deals: a challenger replaces the incumbent only when it beats it with the
95% interval of the paired margin above zero (issue 34).

Each *deal set* is one match seed, played once for every seating of the challenger (with two players:
twice, the seats swapped), so both sides get exactly the same cards in the same seats and the luck of
the deal cancels within the set. The cuts come from the seed (:func:`cribbage.ai.simulate.play_game`),
every other decision is the players'.

Tables (``table``):

- ``two``: the challenger against the incumbent, played twice (challenger in seat 0, then seat 1);
- ``three``: the challenger against two incumbents, played three times (the challenger in each seat);
- ``four``: partners, two challengers (seats 0 and 2) against two incumbents, played twice (the
  partnerships swap seats).

**The margin of a deal set** is the challenger's games won minus the games an incumbent seat won, on
average: ``w - (g - w) / (sides - 1)`` for ``w`` games won of the set's ``g``. At two players (and
for partners) it is ``+2`` (won both), ``0`` (one each) or ``-2``; at three ``w - (3 - w) / 2``.
Equal players have mean margin 0 at every table. Games won, not points: winning is what a player
wants, and a challenger that plays for points (a bigger margin in games it wins anyway) must not be
promoted for it; the final-score margin is printed beside it as a less noisy second opinion. At two
players the win rate is ``1/2 + mean/4``.

**The interval** is the normal approximation on the deal sets' margins (mean +- 1.96 standard errors,
the sample standard deviation over ``n`` sets): the margins are bounded (at most 2 apart from the
mean) and the sets independent, so with the hundreds of sets a decision needs the mean is very nearly
normal; a bootstrap would give the same figures to the printed precision at far more cost. Below 2
sets there is no spread to measure and nothing is promoted.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable, Sequence

from ..rules import CLASSIC, Rules
from .simulate import SimulationResult, SOURCES, play_game

__all__ = ["TABLES", "DuplicateResult", "duplicate_match", "combine", "player_factory", "rules_for", "seatings",
           "CHALLENGERS"]

TABLES = ("two", "three", "four")
"""The tables a promotion is decided at: two players, three players, four in partnerships."""

PlayerFactory = Callable[[int], Any]


def _challengers() -> dict[str, PlayerFactory]:
    from .expert_next import VARIANTS, make_previous_expert, make_variant

    out: dict[str, PlayerFactory] = {"expert-previous": make_previous_expert}
    for name in VARIANTS:
        out[name] = partial(make_variant, name)
    return out


CHALLENGERS = ("expert-previous", "expert-next", "expert-next-discard", "expert-next-play", "expert-next-both")
"""Names :func:`player_factory` knows beyond :func:`cribbage.ai.make_player`'s: the expert as it was
before this round (``expert-previous``) and the challengers of :mod:`cribbage.ai.expert_next`."""


def player_factory(name: str) -> PlayerFactory:
    """``seed -> player`` for a name of :func:`cribbage.ai.make_player` or of :data:`CHALLENGERS`;
    ValueError with the names for anything else."""
    from . import PLAYER_NAMES, make_player

    key = name.strip().lower()
    extra = _challengers()
    if key in extra:
        return extra[key]
    try:
        make_player(key)
    except ValueError:
        raise ValueError(f"unknown player {name!r}: choose one of "
                         f"{', '.join((*PLAYER_NAMES, 'table', *CHALLENGERS))}") from None
    return lambda seed: make_player(key, seed)


def rules_for(table: str) -> Rules:
    """The rule book's table for ``two``, ``three`` or ``four`` (partners)."""
    if table == "two":
        return CLASSIC
    if table == "three":
        return Rules(players=3)
    if table == "four":
        return Rules(players=4)
    raise ValueError(f"unknown table {table!r}: choose one of {', '.join(TABLES)}")


def seatings(table: str) -> list[tuple[bool, ...]]:
    """Per game of a deal set, which seats the challenger holds (True) and which the incumbent."""
    if table == "two":
        return [(True, False), (False, True)]
    if table == "three":
        return [tuple(s == k for s in range(3)) for k in range(3)]
    if table == "four":
        return [(True, False, True, False), (False, True, False, True)]
    raise ValueError(f"unknown table {table!r}: choose one of {', '.join(TABLES)}")


@dataclass
class DuplicateResult:
    """What a duplicate run showed."""

    challenger: str
    incumbent: str
    table: str
    margins: list[float] = field(default_factory=list)
    """Per deal set: the challenger's games won minus an incumbent seat's (see the module's docstring)."""
    wins: int = 0
    """Games the challenger (its partnership) won."""
    games: int = 0
    score_margins: list[int] = field(default_factory=list)
    """Per game: the challenger's final score minus the best incumbent side's."""
    stats: SimulationResult | None = None
    """Points a hand and decision times by label (``challenger``, ``incumbent``)."""
    seconds: float = 0.0

    @property
    def sets(self) -> int:
        return len(self.margins)

    @property
    def mean(self) -> float:
        """The mean margin a deal set."""
        return sum(self.margins) / len(self.margins) if self.margins else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """95% interval of :attr:`mean` (normal approximation); (-inf, inf) below two sets."""
        n = len(self.margins)
        if n < 2:
            return (-math.inf, math.inf)
        m = self.mean
        sd = math.sqrt(sum((x - m) ** 2 for x in self.margins) / (n - 1))
        half = 1.96 * sd / math.sqrt(n)
        return (m - half, m + half)

    @property
    def promote(self) -> bool:
        """True only when the whole interval lies above zero."""
        return self.interval[0] > 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def score_margin(self) -> float:
        return sum(self.score_margins) / len(self.score_margins) if self.score_margins else 0.0

    def summary(self) -> str:
        """A few lines for people: games, margin, interval and the verdict."""
        lo, hi = self.interval
        lines = [
            f"{self.challenger} (challenger) vs {self.incumbent} (incumbent), table {self.table}: "
            f"{self.games} games, {self.sets} deal sets, {self.seconds:.0f} s",
            f"  challenger won {self.wins} of {self.games} ({100 * self.win_rate:.1f}%); "
            f"final-score margin {self.score_margin:+.2f} points a game",
            f"  paired margin (games won minus an incumbent seat's, a deal set): {self.mean:+.3f}, "
            f"95% interval {lo:+.3f} to {hi:+.3f}",
        ]
        if self.stats is not None:
            for lb in self.stats.players:
                dm = self.stats.decision_ms(lb)
                lines.append(f"  {lb:>10} decisions: discard median {dm['discard']['median']:.1f} ms "
                             f"(p95 {dm['discard']['p95']:.1f}, max {self.max_ms(lb, 'discard'):.0f}), "
                             f"play median {dm['play']['median']:.1f} ms (p95 {dm['play']['p95']:.1f}, "
                             f"max {self.max_ms(lb, 'play'):.0f})")
        lines.append("  PROMOTE: the interval lies above zero" if self.promote else
                     "  KEEP the incumbent: the interval does not lie above zero")
        return "\n".join(lines)

    def max_ms(self, label: str, kind: str) -> float:
        if self.stats is None:
            return 0.0
        values = self.stats.decision_times[label][kind]
        return max(values) if values else 0.0

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.interval
        return {"challenger": self.challenger, "incumbent": self.incumbent, "table": self.table,
                "games": self.games, "sets": self.sets, "wins": self.wins,
                "win_rate": round(self.win_rate, 4), "margin": round(self.mean, 4),
                "interval95": [round(lo, 4), round(hi, 4)], "score_margin": round(self.score_margin, 2),
                "promote": self.promote, "seconds": round(self.seconds, 1),
                "set_margins": self.margins, "score_margins": self.score_margins}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DuplicateResult:
        """A result written by :meth:`to_json` (without its decision times)."""
        return cls(str(data["challenger"]), str(data["incumbent"]), str(data["table"]),
                   margins=[float(m) for m in data["set_margins"]], wins=int(data["wins"]),
                   games=int(data["games"]), score_margins=[int(m) for m in data["score_margins"]],
                   seconds=float(data["seconds"]))


def combine(parts: Sequence[DuplicateResult]) -> DuplicateResult:
    """Chunks of one run (the same challenger, incumbent and table; disjoint deal sets) as one."""
    if not parts:
        raise ValueError("nothing to combine")
    first = parts[0]
    for p in parts[1:]:
        if (p.challenger, p.incumbent, p.table) != (first.challenger, first.incumbent, first.table):
            raise ValueError(f"cannot combine {p.challenger} vs {p.incumbent} ({p.table}) with "
                             f"{first.challenger} vs {first.incumbent} ({first.table})")
    return DuplicateResult(first.challenger, first.incumbent, first.table,
                           margins=[m for p in parts for m in p.margins], wins=sum(p.wins for p in parts),
                           games=sum(p.games for p in parts),
                           score_margins=[m for p in parts for m in p.score_margins],
                           seconds=sum(p.seconds for p in parts))


def duplicate_match(challenger: str | PlayerFactory, incumbent: str | PlayerFactory, sets: int = 100,
                    seed: int = 1, table: str = "two",
                    progress: Callable[[DuplicateResult], None] | None = None, start: int = 0) -> DuplicateResult:
    """Play ``sets`` deal sets (match seeds derived from ``seed``) between the two at ``table``.

    Players are names (:func:`player_factory`) or factories ``seed -> player``. Each game gets fresh
    players seeded from the deal set (so a deal set's games differ only by the seating). ``start``
    skips that many deal sets of the seed's sequence, so a long run may be split into chunks
    (``start`` 0, 500, 1000, ...) whose results :func:`combine` joins.
    """
    if not isinstance(sets, int) or isinstance(sets, bool) or sets < 1:
        raise ValueError(f"the number of deal sets is a whole number from 1: {sets!r} is not")
    rules = rules_for(table)
    plan = seatings(table)
    c_make = player_factory(challenger) if isinstance(challenger, str) else challenger
    i_make = player_factory(incumbent) if isinstance(incumbent, str) else incumbent
    c_name = challenger if isinstance(challenger, str) else getattr(c_make(0), "name", "challenger")
    i_name = incumbent if isinstance(incumbent, str) else getattr(i_make(0), "name", "incumbent")
    labels_all = ("challenger", "incumbent")
    stats = SimulationResult(labels_all, 0, {lb: 0 for lb in labels_all},
                             hands={lb: {"dealer": 0, "pone": 0} for lb in labels_all},
                             points={lb: {r: {s: 0 for s in SOURCES} for r in ("dealer", "pone")}
                                     for lb in labels_all},
                             decision_times={lb: {"discard": [], "play": []} for lb in labels_all}, rules=rules)
    result = DuplicateResult(c_name, i_name, table, stats=stats)
    began = time.perf_counter()
    for i in range(start, start + sets):
        game_seed = (seed * 1_000_003 + i) & ((1 << 64) - 1)
        won = 0
        for seats in plan:
            players = [(c_make if mine else i_make)(game_seed * 8 + s + 1) for s, mine in enumerate(seats)]
            labels = ["challenger" if mine else "incumbent" for mine in seats]
            state = play_game(players, game_seed, stats, labels, rules)  # points a hand, decision times
            c_side = rules.side_of(seats.index(True))
            if any(rules.side_of(s) == c_side for s in state.winning_seats):
                won += 1
            result.score_margins.append(state.scores[c_side] - max(state.scores[s] for s in range(rules.sides)
                                                                   if s != c_side))
        g_count = len(plan)
        result.wins += won
        result.games += g_count
        result.margins.append(won - (g_count - won) / (rules.sides - 1))
        if progress is not None:
            progress(result)
    result.seconds = time.perf_counter() - began
    stats.games = result.games
    stats.seconds = result.seconds
    return result

