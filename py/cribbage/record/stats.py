"""Statistics over many recorded matches: per side (:class:`SideTotals`), per opponent level or
hot-seat player (:class:`GroupStats`), all groups (:class:`Stats`, :func:`statistics`), and the
``cribbage stats`` text (:func:`format_stats`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from .base import (DOUBLE_SKUNK_LINE, EXPERT_DEALER, EXPERT_PONE, SKUNK_LINE, SOURCES, RecordError, _counts,
                   fields)
from .hands import Best, CoachTotals, _better
from .match_record import MatchRecord

# --- statistics ---------------------------------------------------------------------------------


@dataclass
class SideTotals:
    """One side's totals over many matches (integers only; averages are derived)."""

    dealer_hands: int = 0
    """Complete hands dealt (only these enter the averages a hand)."""
    pone_hands: int = 0
    dealer: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SOURCES, 0))
    """Points by source over the complete hands as dealer."""
    pone: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SOURCES, 0))
    shows: dict[int, int] = field(default_factory=dict)
    """How many hands counted each number of points (every hand counted, complete or not)."""
    cribs: dict[int, int] = field(default_factory=dict)
    best_hand: Best | None = None
    best_crib: Best | None = None
    skunked: int = 0
    """Matches this side lost below 91 (but at least 61)."""
    double_skunked: int = 0
    """Matches this side lost below 61."""
    coached: int = 0
    """Matches the coach reviewed for this side."""
    coach: CoachTotals = field(default_factory=CoachTotals)

    def average(self, role: str, source: str | None = None) -> float | None:
        """Average points a complete hand as ``dealer`` or ``pone`` (one source, or all)."""
        n = self.dealer_hands if role == "dealer" else self.pone_hands
        sums = self.dealer if role == "dealer" else self.pone
        if not n:
            return None
        return (sums[source] if source else sum(sums.values())) / n

    def count_of(self, points: int) -> int:
        """Hands and cribs that counted exactly ``points`` (29, 28, 24...)."""
        return self.shows.get(points, 0) + self.cribs.get(points, 0)

    def add(self, record: MatchRecord, seat: int) -> None:
        """Add one match as played by ``seat``."""
        for h in record.hands:
            if h.complete:
                if h.dealer == seat:
                    self.dealer_hands += 1
                    target = self.dealer
                else:
                    self.pone_hands += 1
                    target = self.pone
                for s in SOURCES:
                    target[s] += h.points[seat][s]
            show = h.shows[seat]
            if show is not None:
                self.shows[show] = self.shows.get(show, 0) + 1
            if h.crib is not None and h.dealer == seat:
                self.cribs[h.crib] = self.cribs.get(h.crib, 0) + 1
        self.best_hand = _better(self.best_hand, record.best_hand[seat])
        self.best_crib = _better(self.best_crib, record.best_crib[seat])
        if record.loser == record.rules.side_of(seat) and not record.won(seat):
            if record.skunk == "double":
                self.double_skunked += 1
            elif record.skunk == "single":
                self.skunked += 1
        coach = record.coach[seat] if record.coach else None
        if coach is not None:
            self.coached += 1
            self.coach = self.coach + coach

    def merge(self, o: SideTotals) -> None:
        """Add another side's totals."""
        self.dealer_hands += o.dealer_hands
        self.pone_hands += o.pone_hands
        for s in SOURCES:
            self.dealer[s] += o.dealer[s]
            self.pone[s] += o.pone[s]
        for mine, theirs in ((self.shows, o.shows), (self.cribs, o.cribs)):
            for k, v in theirs.items():
                mine[k] = mine.get(k, 0) + v
        self.best_hand = _better(self.best_hand, o.best_hand)
        self.best_crib = _better(self.best_crib, o.best_crib)
        self.skunked += o.skunked
        self.double_skunked += o.double_skunked
        self.coached += o.coached
        self.coach = self.coach + o.coach

    def to_json(self) -> dict[str, Any]:
        """Plain data (histogram keys as text)."""
        return {
            "dealer_hands": self.dealer_hands, "pone_hands": self.pone_hands, "dealer": dict(self.dealer),
            "pone": dict(self.pone), "shows": {str(k): v for k, v in sorted(self.shows.items())},
            "cribs": {str(k): v for k, v in sorted(self.cribs.items())},
            "best_hand": self.best_hand.to_json() if self.best_hand else None,
            "best_crib": self.best_crib.to_json() if self.best_crib else None,
            "skunked": self.skunked, "double_skunked": self.double_skunked, "coached": self.coached,
            "coach": self.coach.to_json(),
        }

    @classmethod
    def from_json(cls, data: Any) -> SideTotals:
        """Read one, checking every field."""
        f = fields(data, "a side's totals")
        sums = []
        for role in ("dealer", "pone"):
            r = f.fields(role, f"the {role}'s totals")
            if set(r.data) != set(SOURCES):
                raise RecordError("a side's totals do not name every source")
            sums.append({s: r.int(s, min=0) for s in SOURCES})
        return cls(f.int("dealer_hands", min=0), f.int("pone_hands", min=0), sums[0], sums[1],
                   _counts(f, "shows", "the hand counts"), _counts(f, "cribs", "the crib counts"),
                   Best.from_json(f.raw("best_hand", None)), Best.from_json(f.raw("best_crib", None)),
                   f.int("skunked", min=0), f.int("double_skunked", min=0), f.int("coached", min=0),
                   CoachTotals.from_json(f.raw("coach", None)) or CoachTotals())


@dataclass
class TrendPoint:
    """The coach's averages for one match (for the trend)."""

    played_at: int
    per_discard: float | None
    per_play: float | None


@dataclass
class GroupStats:
    """Statistics of one opponent level (``computer:expert``) or one hot-seat player (``hotseat:Ann``)."""

    key: str
    matches: int = 0
    wins: int = 0
    player: SideTotals = field(default_factory=SideTotals)
    """The human's side (the player named in the key)."""
    opponent: SideTotals = field(default_factory=SideTotals)
    """The other side: the computer at this level, or the hot-seat player's opponents."""
    trend: list[TrendPoint] = field(default_factory=list)
    """The coach's averages match by match (full records only, oldest first; not kept when folded)."""
    rules: str = ""
    """The table's description (``Rules.describe``) for any table but the classic one (empty):
    statistics are grouped by rules, and the published figures are shown for the classic game only."""

    @property
    def label(self) -> str:
        """``vs computer (expert)`` or ``hot-seat: Ann`` (``…, three players`` for another table)."""
        kind, _, rest = self.key.partition(":")
        if self.rules:
            rest = rest[: -len(_rules_suffix(self.rules))]
        label = f"vs computer ({rest})" if kind == "computer" else f"hot-seat: {rest}"
        return f"{label}, {self.rules}" if self.rules else label

    @property
    def win_rate(self) -> float | None:
        """Wins / matches (None before the first match)."""
        return self.wins / self.matches if self.matches else None

    def add(self, record: MatchRecord, seat: int) -> None:
        """Add one match as played by ``seat``."""
        self.matches += 1
        self.wins += record.won(seat)
        self.player.add(record, seat)
        # The other side: the opponent, or (more players) the player on the left.
        self.opponent.add(record, record.rules.left_of(seat))
        coach = record.coach[seat] if record.coach else None
        if coach is not None:
            self.trend.append(TrendPoint(record.played_at, coach.per_discard, coach.per_play))

    def merge(self, o: GroupStats) -> None:
        """Add another group's totals."""
        self.matches += o.matches
        self.wins += o.wins
        self.player.merge(o.player)
        self.opponent.merge(o.opponent)
        self.trend = sorted([*self.trend, *o.trend], key=lambda t: t.played_at)

    def to_json(self) -> dict[str, Any]:
        """Plain data (without the trend: a folded summary keeps totals only)."""
        return {"key": self.key, "matches": self.matches, "wins": self.wins, "player": self.player.to_json(),
                "opponent": self.opponent.to_json(), **({"rules": self.rules} if self.rules else {})}

    @classmethod
    def from_json(cls, data: Any) -> GroupStats:
        """Read one."""
        f = fields(data, "a group's statistics")
        rules = f.str("rules", default="", what="a group's rules")
        g = cls(f.str("key"), f.int("matches", min=0), f.int("wins", min=0),
                SideTotals.from_json(f.raw("player", None)), SideTotals.from_json(f.raw("opponent", None)), rules=rules)
        if g.wins > g.matches:
            raise RecordError("a group's statistics have more wins than matches")
        return g


def _rules_suffix(rules: str) -> str:
    return f" · {rules}"


def _groups_of(record: MatchRecord) -> list[tuple[str, int]]:
    """(group key, seat) for each human of a match; another table than the classic one groups apart."""
    tail = "" if record.rules.is_classic else _rules_suffix(record.rules.describe())
    if record.mode == "hotseat":
        return [(f"hotseat:{record.names[s]}{tail}", s) for s in record.humans]
    return [(f"computer:{record.level or 'unknown'}{tail}", s) for s in record.humans]


@dataclass
class Stats:
    """Statistics per group, in the order groups were first seen (levels first, then hot-seat)."""

    groups: dict[str, GroupStats] = field(default_factory=dict)
    matches: int = 0
    """Matches counted (a hot-seat match is in two groups but counts once here)."""

    def group(self, key: str) -> GroupStats:
        """The group (created empty if new)."""
        if key not in self.groups:
            self.groups[key] = GroupStats(key)
        return self.groups[key]

    def add(self, record: MatchRecord) -> None:
        """Add one match to every group it belongs to."""
        self.matches += 1
        for key, seat in _groups_of(record):
            group = self.group(key)
            group.rules = "" if record.rules.is_classic else record.rules.describe()
            group.add(record, seat)

    def merge(self, o: Stats) -> None:
        """Add other statistics."""
        self.matches += o.matches
        for key, g in o.groups.items():
            self.group(key).merge(g)
            self.groups[key].rules = g.rules

    def sorted_groups(self) -> list[GroupStats]:
        """Levels (easy, medium, expert, others) then hot-seat players by name."""
        order = {"computer:easy": 0, "computer:medium": 1, "computer:expert": 2}
        return sorted(self.groups.values(), key=lambda g: (g.key.startswith("hotseat:"),
                                                           order.get(g.key, 3), g.key))

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {"matches": self.matches, "groups": [g.to_json() for g in self.groups.values()]}

    @classmethod
    def from_json(cls, data: Any) -> Stats:
        """Read statistics."""
        f = fields(data, "the statistics")
        stats = cls(matches=f.int("matches", min=0))
        for raw in f.list("groups", what="the statistics' groups"):
            g = GroupStats.from_json(raw)
            if g.key in stats.groups:
                raise RecordError("the statistics name a group twice")
            stats.groups[g.key] = g
        return stats


def statistics(records: Iterable[MatchRecord], summary: Stats | None = None) -> Stats:
    """Statistics of these records (plus a folded summary)."""
    stats = Stats()
    if summary is not None:
        stats.merge(summary)
        for g in stats.groups.values():
            g.trend = []
    for r in sorted(records, key=lambda r: (r.played_at, r.id)):
        stats.add(r)
    return stats


def _avg(x: float | None, width: int = 5) -> str:
    return f"{x:{width}.1f}" if x is not None else " " * (width - 1) + "-"


def _side_lines(name: str, side: SideTotals) -> list[str]:
    lines = []
    for role, n in (("dealer", side.dealer_hands), ("pone", side.pone_hands)):
        cells = " ".join(_avg(side.average(role, s) if role == "dealer" or s in EXPERT_PONE else None, 7)
                         for s in SOURCES)
        who = name if len(name) <= 14 else name[:13] + "…"
        lines.append(f"  {who + ' as ' + role:<24}{cells} {_avg(side.average(role), 7)}  ({n} hands)")
    return lines


def _best(b: Best | None) -> str:
    if b is None:
        return "-"
    from ..cards import parse_card

    return (
        f"{b.points} ({' '.join(parse_card(c).pretty for c in b.cards[:4])}, starter {parse_card(b.cards[4]).pretty})"
    )


def _plural(n: int, one: str, many: str) -> str:
    """``1 match``, ``2 matches``."""
    return f"{n} {one if n == 1 else many}"


def format_stats(stats: Stats) -> str:
    """The statistics as text (the ``cribbage stats`` output)."""
    if not stats.groups:
        return "No finished matches yet."
    out: list[str] = []
    for g in stats.sorted_groups():
        you, opp = ("you", "computer") if g.key.startswith("computer:") else (g.key.partition(":")[2], "opponents")
        rate = g.win_rate
        out.append(f"{g.label}: {_plural(g.matches, 'match', 'matches')}, {g.wins} won"
                   + (f" ({100 * rate:.0f}%)" if rate is not None else ""))
        out.append(f"  {'points a hand':<24}" + " ".join(f"{s:>7}" for s in SOURCES) + f" {'total':>7}")
        out += _side_lines(you, g.player)
        out += _side_lines(opp, g.opponent)
        # The published expert figures are for the classic two-player game only.
        for role, fig in () if g.rules else (("dealer", EXPERT_DEALER), ("pone", EXPERT_PONE)):
            cells = " ".join(_avg(fig.get(s), 7) for s in SOURCES)
            out.append(f"  {'expert as ' + role:<24}{cells} {_avg(sum(fig.values()), 7)}  (published)")
        out.append(f"  best hand {_best(g.player.best_hand)}; best crib {_best(g.player.best_crib)}")
        out.append(f"  29s {g.player.count_of(29)}, 28s {g.player.count_of(28)}, 24s {g.player.count_of(24)}")
        if " to 61" in g.rules:
            out.append(f"  lost below 31 (skunk): {you} {g.player.skunked}, {opp} {g.opponent.skunked} "
                       "(information only)")
        else:
            out.append(f"  lost below {SKUNK_LINE} (skunk): {you} {g.player.skunked}, {opp} {g.opponent.skunked}; "
                       f"below {DOUBLE_SKUNK_LINE} (double skunk): {you} {g.player.double_skunked}, "
                       f"{opp} {g.opponent.double_skunked} (information only)")
        c = g.player.coach
        if g.player.coached:
            out.append(
                f"  coach ({_plural(g.player.coached, 'match', 'matches')} reviewed): "
                f"{_avg(c.per_discard, 1).strip()} points "
                f"lost a discard ({c.discards}), {_avg(c.per_play, 1).strip()} a play ({c.plays})"
            )
            if len(g.trend) >= 2:
                first, last = g.trend[0], g.trend[-1]
                out.append(f"  trend: a discard {_avg(first.per_discard, 1).strip()} → "
                           f"{_avg(last.per_discard, 1).strip()}, a play {_avg(first.per_play, 1).strip()} → "
                           f"{_avg(last.per_play, 1).strip()} (first → latest reviewed match)")
    return "\n".join(out)
