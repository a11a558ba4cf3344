"""Duplicate matches between computer players, with win rates and where the points came from.

Each deal sequence is played once for every seating, the players rotated round the table (with two
players: twice, swapped), so every player gets exactly the same cards in each seat and luck largely
cancels. Any table of the rule book may be simulated (``rules``): the number of players is the
table's; with partners, both players of the winning partnership are credited with the win. The cuts (for
deal, of the pack, for the starter) are drawn by the simulator from the game's seed, not by the
players, so both games of a pair see the same deals; every other decision is the player's, made
from ``view(state, seat)`` alone. Actions with only one legal choice (Count, a forced Go, a single
playable card) are applied without asking, and are not timed.
"""

from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence, cast

from ..actions import Action, CutForDeal, CutPack, CutStarter, Discard, Muggins
from ..rng import Rng
from ..rules import CLASSIC, Rules
from ..state import GameState
from ..view import view

__all__ = ["SimulationResult", "simulate", "play_game", "completed_hands", "wilson_interval", "SOURCES"]

SOURCES = ("pegging", "hand", "crib", "heels")
"""Where points come from, as in ``GameState.hand_scores`` keys (``pegging0``, ``hand1``…)."""


def wilson_interval(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return (lo, hi)


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo = math.floor(k)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


@dataclass
class SimulationResult:
    """What a run of duplicate games showed."""

    players: tuple[str, ...]
    """The players' labels in seat order of the first seating (a repeated name is labelled ``name#2``…)."""
    games: int
    """Games played (twice the number of deal sequences)."""
    wins: dict[str, int]
    """Games won by each label."""
    hands: dict[str, dict[str, int]] = field(default_factory=dict)
    """Completed hands by label and role (``dealer``/``pone``); a game's unfinished last hand is left out."""
    points: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)
    """Points by label, role and source (pegging, hand, crib, heels) over the completed hands."""
    decision_times: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    """Milliseconds per decision by label and kind (``discard``, ``play``)."""
    seconds: float = 0.0
    """Wall time of the run."""
    margins: list[int] = field(default_factory=list)
    """Per game: the first player's final score minus the best other side's (less noisy than wins alone)."""
    rules: Rules = CLASSIC
    """The table played at."""

    @property
    def margin(self) -> float:
        """Average final-score margin of the first player."""
        return sum(self.margins) / len(self.margins) if self.margins else 0.0

    @property
    def win_rate(self) -> float:
        """The first player's share of the games."""
        return self.wins[self.players[0]] / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of :attr:`win_rate`."""
        return wilson_interval(self.wins[self.players[0]], self.games)

    def per_hand(self, label: str | None = None) -> dict[str, dict[str, float]]:
        """Average points a hand by role and source (and ``total``); all labels pooled if None."""
        labels = [label] if label else list(self.players)
        out: dict[str, dict[str, float]] = {}
        for role in ("dealer", "pone"):
            n = sum(self.hands[lb][role] for lb in labels)
            row = {}
            for source in SOURCES:
                total = sum(self.points[lb][role][source] for lb in labels)
                row[source] = total / n if n else 0.0
            row["total"] = sum(row[s] for s in SOURCES)
            row["hands"] = n
            out[role] = row
        return out

    def decision_ms(self, label: str | None = None) -> dict[str, dict[str, float]]:
        """Median and 95th percentile of decision time by kind (all labels pooled if None)."""
        labels = [label] if label else list(self.players)
        out = {}
        for kind in ("discard", "play"):
            values = [t for lb in labels for t in self.decision_times[lb][kind]]
            out[kind] = {"median": statistics.median(values) if values else 0.0,
                         "p95": _percentile(values, 0.95), "n": len(values)}
        return out

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        lo, hi = self.interval
        return {
            **({} if self.rules.is_classic else {"rules": self.rules.to_json()}),
            "players": list(self.players),
            "games": self.games,
            "wins": dict(self.wins),
            "win_rate": round(self.win_rate, 4),
            "interval95": [round(lo, 4), round(hi, 4)],
            "margin": round(self.margin, 2),
            "per_hand": {lb: _round(self.per_hand(lb)) for lb in self.players},
            "decision_ms": {lb: _round(self.decision_ms(lb)) for lb in self.players},
            "seconds": round(self.seconds, 1),
        }

    def summary(self) -> str:
        """A few lines for people."""
        a = self.players[0]
        lo, hi = self.interval
        n = len(self.players)
        table = "" if self.rules.is_classic else f" ({self.rules.describe()})"
        sets = f"{self.games // n} duplicate {'pairs' if n == 2 else 'sets'}"
        won = ", ".join(f"{lb} won {self.wins[lb]}" for lb in self.players)
        lines = [f"{' vs '.join(self.players)}{table}: {self.games} games ({sets}) in {self.seconds:.0f} s",
                 f"  {won}: {a} {100 * self.win_rate:.1f}% "
                 f"(95% interval {100 * lo:.1f}-{100 * hi:.1f}%), average margin {self.margin:+.1f} points"]
        for lb in self.players:
            ph = self.per_hand(lb)
            for role in ("dealer", "pone"):
                r = ph[role]
                lines.append(f"  {lb:>10} as {role:<6} {r['total']:5.2f} a hand: pegging {r['pegging']:.2f}, "
                             f"hand {r['hand']:.2f}, crib {r['crib']:.2f}, heels {r['heels']:.2f} "
                             f"({int(r['hands'])} hands)")
            dm = self.decision_ms(lb)
            lines.append(f"  {lb:>10} decisions: discard median {dm['discard']['median']:.1f} ms "
                         f"(p95 {dm['discard']['p95']:.1f}), play median {dm['play']['median']:.1f} ms "
                         f"(p95 {dm['play']['p95']:.1f})")
        return "\n".join(lines)


def _round(d: Any) -> Any:
    if isinstance(d, dict):
        return {k: _round(v) for k, v in d.items()}
    if isinstance(d, float):
        return round(d, 3)
    return d


PlayerFactory = Callable[[int], Any]


def _factory(spec: str | PlayerFactory) -> tuple[str, PlayerFactory]:
    if isinstance(spec, str):
        from . import make_player

        make_player(spec)  # fail early on an unknown name
        return spec, lambda seed, _n=spec: make_player(_n, seed)
    name = getattr(spec(0), "name", "player")
    return name, spec


def next_action(state: GameState, players: Sequence[Any], cuts: Rng,
                clock: Callable[[], float] = time.perf_counter,
                timed: Callable[[int, Action, float], None] | None = None) -> Action:
    """The next action of a simulated game: a cut is drawn from ``cuts`` (the players are not
    asked), a lone legal action is taken, any other choice is the seat's player's from its view;
    ``timed(seat, first legal action, ms by clock)`` hears how long each choice took."""
    if state.claim is not None and state.claim.what == "play":
        # Muggins in the play: every seat of another side may call on the card just laid.
        for caller in state.callers_now():
            call = getattr(players[caller], "call", None)
            if call is not None and (called := call(view(state, caller))) is not None:
                return cast(Action, called)
    seat = state.actors()[0]
    legal = state.legal_actions(seat)
    first = legal[0]
    if isinstance(first, (CutForDeal, CutPack, CutStarter)):
        return legal[cuts.below(len(legal))]
    if len(legal) == 1 and not isinstance(first, Muggins):
        return first
    v = view(state, seat)
    t0 = clock()
    action: Action = players[seat].choose(v)
    if timed is not None:
        timed(seat, first, (clock() - t0) * 1000.0)
    return action


def simulation_cuts(seed: int) -> Rng:
    """Where a simulated game's cuts come from (the seed's own stream: duplicate games cut alike)."""
    return Rng(seed ^ 0x5DEECE66D)


def play_game(players: Sequence[Any], seed: int, result: SimulationResult | None = None,
              labels: Sequence[str] = ("0", "1"), rules: Rules = CLASSIC) -> GameState:
    """Play one game, seat ``i`` by ``players[i]``; tally into ``result`` if given."""
    state = GameState(seed, rules=rules)
    cuts = simulation_cuts(seed)

    def timed(seat: int, first: Action, ms: float) -> None:
        if result is not None:
            kind = "discard" if isinstance(first, Discard) else "play"
            result.decision_times[labels[seat]][kind].append(ms)

    while not state.is_over:
        state.apply(next_action(state, players, cuts, timed=timed))
    if result is not None:
        _tally(state, result, labels)
    return state


def completed_hands(state: GameState) -> list[tuple[int, dict[str, int]]]:
    """(dealer seat, points by source and seat) for each hand of a finished game but the last,
    which the win cut short."""
    n = len(state.hand_scores)
    last_dealer = state.dealer  # the game ended in the last hand, dealt by state.dealer
    assert last_dealer is not None
    players = state.rules.players  # the deal passes left: hand i was dealt (n-1-i) seats to the right
    return [((last_dealer - (n - 1 - i)) % players, scores) for i, scores in enumerate(state.hand_scores[:-1])]


def _tally(state: GameState, result: SimulationResult, labels: Sequence[str]) -> None:
    rules = state.rules
    for seat in state.winning_seats:
        result.wins[labels[seat]] += 1
    first = rules.side_of(list(labels).index(result.players[0]))
    result.margins.append(state.scores[first] - max(state.scores[s] for s in range(rules.sides) if s != first))
    for dealer, scores in completed_hands(state):
        for seat in range(rules.players):
            role = "dealer" if seat == dealer else "pone"
            lb = labels[seat]
            result.hands[lb][role] += 1
            for source in SOURCES:
                result.points[lb][role][source] += scores.get(f"{source}{seat}", 0)


def simulate(player_a: str | PlayerFactory, player_b: str | PlayerFactory, games: int = 200, seed: int = 1,
             progress: Callable[[int, int], None] | None = None, *, more: Sequence[str | PlayerFactory] = (),
             rules: Rules | None = None) -> SimulationResult:
    """Play ``games`` duplicate games (rounded up to a multiple of the players) between players.

    Players are names for :func:`cribbage.ai.make_player` or factories ``seed -> player``; ``more``
    adds the third and fourth. ``rules`` is the table (default: classic for two, three players for
    three, partners for four); its number of players must match.
    """
    specs = [player_a, player_b, *more]
    n = len(specs)
    if rules is None:
        rules = CLASSIC if n == 2 else Rules(players=n)
    if rules.players != n:
        raise ValueError(f"the table seats {rules.players} players, not {n}")
    made = [_factory(spec) for spec in specs]
    labels: list[str] = []
    for name, _ in made:
        label, k = name, 2
        while label in labels:
            label, k = f"{name}#{k}", k + 1
        labels.append(label)
    sets = max(1, (games + n - 1) // n)
    result = SimulationResult(tuple(labels), n * sets, {lb: 0 for lb in labels},
                              hands={lb: {"dealer": 0, "pone": 0} for lb in labels},
                              points={lb: {r: {s: 0 for s in SOURCES} for r in ("dealer", "pone")} for lb in labels},
                              decision_times={lb: {"discard": [], "play": []} for lb in labels}, rules=rules)
    start = time.perf_counter()
    for i in range(sets):
        game_seed = (seed * 1_000_003 + i) & ((1 << 64) - 1)
        bots = [make(game_seed * n + k + 1) for k, (_, make) in enumerate(made)]
        for r in range(n):  # every seating: player (k + r) % n in seat k
            order = [(k + r) % n for k in range(n)]
            play_game([bots[j] for j in order], game_seed, result, [labels[j] for j in order], rules)
        if progress is not None:
            progress(n * (i + 1), n * sets)
    result.seconds = time.perf_counter() - start
    return result
