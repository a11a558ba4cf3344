"""A player's record: finished matches, statistics, a bounded history and the export bundle.

API (all plain data, every type has ``to_json()``/``from_json()``; bad data raises :class:`RecordError`
with a sentence for the player):

- :func:`record_match` ``(match, played_at)`` → :class:`MatchRecord`: a finished match (who, when,
  winner, scores, seed + actions so it replays, points a hand by source for each seat as dealer or
  pone, best hand and crib with their cards; ``headline()`` is its line in a history list). ``played_at`` is milliseconds since 1970 (UTC), given
  by the caller: this module never reads the clock. :func:`record_state` does the same from a
  :class:`GameState` (stacked decks in tests).
- :func:`coach_totals` ``(match)`` → the coach's view of each human's decisions (expected points lost
  a discard and a play against the expert's choice). It is slow (seconds), optional, and the only
  function here that uses :mod:`cribbage.ai` (imported when called); :meth:`MatchRecord.with_coach`
  adds its result to a record afterwards.
- :class:`Stats` (:func:`statistics`): totals per opponent level (``computer:expert``) and per
  hot-seat player (``hotseat:Player 1``); integers only, so sums stay exact; averages are derived.
  :func:`format_stats` prints them (``cribbage stats FILE``).
- :class:`History`: the last :data:`HISTORY_LIMIT` full records, older ones folded into ``summary``
  (a :class:`Stats`) and ``folded`` (their ids) so totals stay exact and nothing is counted twice.
- :func:`race` ``(events)`` → :class:`RaceStep` list: both scores after every scoring event (charts).
- :func:`make_bundle` / :func:`read_bundle`: the export file (format ``cribbage-export``, a version,
  a checksum; ``data`` maps storage keys to their stored strings), refusing foreign, damaged or newer
  files.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from .actions import Action, Discard, Play, parse_action
from .rules import CLASSIC, Rules, RulesError
from .scoring import score_hand
from .state import Event, GameState, other

if TYPE_CHECKING:
    from .match import Match

__all__ = [
    "RecordError", "Best", "HandRecord", "CoachTotals", "MatchRecord", "SideTotals", "GroupStats", "Stats",
    "TrendPoint",
    "History", "RaceStep", "record_match", "record_state", "coach_totals", "CoachRun", "statistics", "format_stats",
    "race", "replay", "make_bundle", "read_bundle", "SOURCES", "EXPERT_DEALER", "EXPERT_PONE",
    "HISTORY_LIMIT", "HISTORY_KEY", "SKUNK_LINE", "DOUBLE_SKUNK_LINE", "EXPORT_FORMAT", "EXPORT_VERSION",
]

SOURCES = ("pegging", "hand", "crib", "heels")
"""Where points come from, in the order of the score sheet."""
EXPERT_DEALER: Mapping[str, float] = {"pegging": 3.5, "hand": 8.0, "crib": 4.7}
"""Published expert averages a hand as dealer (≈ 16.2 in all)."""
EXPERT_PONE: Mapping[str, float] = {"pegging": 2.0, "hand": 8.1}
"""Published expert averages a hand as pone (≈ 10.1 in all)."""
SKUNK_LINE = 91
"""A loser below 91 is skunked in a game to 121 (information only: this game has no skunk bonus;
a record reads the line from its rules: 31 in a game to 61)."""
DOUBLE_SKUNK_LINE = 61
"""A loser below 61 is double-skunked in a game to 121 (counted apart from single skunks)."""
HISTORY_LIMIT = 500
"""Full records kept; older ones are folded into the summary."""
HISTORY_KEY = "cribbage.history"
"""The storage key of the history."""
RECORD_VERSION = 1
HISTORY_FORMAT = "cribbage-history"
HISTORY_VERSION = 1
EXPORT_FORMAT = "cribbage-export"
"""The ``format`` field of an export file."""
EXPORT_VERSION = 1
"""Export files newer than this are refused."""
SAVE_KEY_PREFIX = "cribbage.save."
KEY_PREFIX = "cribbage."


class RecordError(ValueError):
    """A record, history or export file that cannot be used; the message says why."""


# --- small helpers ------------------------------------------------------------------------------


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _digest(data: Any, n: int = 32) -> str:
    return hashlib.sha256(_canonical(data).encode("utf-8", "surrogatepass")).hexdigest()[:n]  # any text


def _int(data: Mapping[str, Any], key: str, lo: int = 0) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < lo:
        raise RecordError(f"the field {key!r} is not a whole number of at least {lo}")
    return value


def _opt_int(value: Any, what: str) -> int | None:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise RecordError(f"{what} is not a whole number")
    return value


def _str(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise RecordError(f"the field {key!r} is not text")
    return value


def _dict(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RecordError(f"{what} is not an object")
    return value


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(f"{what} is not a list")
    return value


def _pair(value: Any, what: str, n: int = 2) -> list[Any]:
    """A list with one entry a seat (or a side): ``n`` of them (2 to 4 when ``n`` is 0: any table)."""
    items = _list(value, what)
    if len(items) != n and not (n == 0 and 2 <= len(items) <= 4):
        raise RecordError(f"{what} does not have one entry for each seat")
    return items


def _counts(value: Any, what: str) -> dict[int, int]:
    out: dict[int, int] = {}
    for k, v in _dict(value, what).items():
        if not k.isdigit() or not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise RecordError(f"{what} holds an invalid count")
        out[int(k)] = v
    return out


# --- one match ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Best:
    """A best count: its points and cards (the four, then the starter)."""

    points: int
    cards: tuple[str, ...]
    """Card codes, e.g. ``("5C", "5D", "5H", "JS", "5S")``; the starter last."""

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {"points": self.points, "cards": list(self.cards)}

    @classmethod
    def from_json(cls, data: Any) -> Best | None:
        """Read one (None stays None)."""
        if data is None:
            return None
        d = _dict(data, "a best count")
        cards = _list(d.get("cards"), "a best count's cards")
        if len(cards) != 5 or not all(isinstance(c, str) for c in cards):
            raise RecordError("a best count does not hold five cards")
        return cls(_int(d, "points"), tuple(cards))


def _better(a: Best | None, b: Best | None) -> Best | None:
    """The higher of two (the first on a tie)."""
    if b is None:
        return a
    if a is None or b.points > a.points:
        return b
    return a


@dataclass(frozen=True)
class HandRecord:
    """One deal: who dealt, each seat's points by source, the shows (None where not reached)."""

    number: int
    dealer: int
    points: tuple[dict[str, int], ...]
    """Per seat: ``{"pegging": 3, "hand": 8, "crib": 0, "heels": 0}`` (every source present; stored as
    a list in the order of :data:`SOURCES`)."""
    shows: tuple[int | None, ...]
    """Each seat's hand count (0 is a count); None if the match ended before it."""
    crib: int | None
    """The dealer's crib count; None if the match ended before it."""

    @property
    def complete(self) -> bool:
        """True when the hand was played out to the crib (only complete hands enter averages)."""
        return self.crib is not None

    @property
    def pone(self) -> int:
        """The non-dealer (more players: the dealer's left)."""
        return (self.dealer + 1) % len(self.points)

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {"number": self.number, "dealer": self.dealer,
                "points": [[p[s] for s in SOURCES] for p in self.points],  # compact: 500 records are kept
                "shows": list(self.shows), "crib": self.crib}

    @classmethod
    def from_json(cls, data: Any) -> HandRecord:
        """Read one, checking every field."""
        d = _dict(data, "a hand")
        raw_points = _pair(d.get("points"), "a hand's points", 0)
        dealer = _int(d, "dealer")
        if dealer >= len(raw_points):
            raise RecordError("a hand's dealer is not a seat")
        points = []
        for p in raw_points:
            values = _list(p, "a hand's points")
            if len(values) != len(SOURCES):
                raise RecordError("a hand's points do not give every source")
            points.append({s: _int({s: v}, s) for s, v in zip(SOURCES, values)})
        shows = _pair(d.get("shows"), "a hand's shows", len(points))
        return cls(_int(d, "number", 1), dealer, tuple(points),
                   tuple(_opt_int(sh, "a show") for sh in shows), _opt_int(d.get("crib"), "a crib"))


@dataclass(frozen=True)
class CoachTotals:
    """The coach's view of one seat's decisions: counts and points lost (in thousandths, exact sums)."""

    discards: int = 0
    discard_loss: int = 0
    """Expected points given away by all discards against the expert's choice, ×1000."""
    plays: int = 0
    """Plays with a real choice (two ranks or more could be laid)."""
    play_loss: int = 0
    """Expected net pegging given away by those plays, ×1000."""

    @property
    def per_discard(self) -> float | None:
        """Average expected points lost a discard."""
        return self.discard_loss / 1000 / self.discards if self.discards else None

    @property
    def per_play(self) -> float | None:
        """Average expected points lost a play."""
        return self.play_loss / 1000 / self.plays if self.plays else None

    def __add__(self, o: CoachTotals) -> CoachTotals:
        return CoachTotals(self.discards + o.discards, self.discard_loss + o.discard_loss,
                           self.plays + o.plays, self.play_loss + o.play_loss)

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {"discards": self.discards, "discard_loss": self.discard_loss, "plays": self.plays,
                "play_loss": self.play_loss}

    @classmethod
    def from_json(cls, data: Any) -> CoachTotals | None:
        """Read one (None stays None)."""
        if data is None:
            return None
        d = _dict(data, "the coach's totals")
        return cls(_int(d, "discards"), _int(d, "discard_loss"), _int(d, "plays"), _int(d, "play_loss"))


@dataclass(frozen=True)
class MatchRecord:
    """A finished match, everything the history and the statistics need."""

    id: str
    """A stable id, the digest of seed, seats, names and actions (not the time, so recording the same
    finished match again, e.g. after a reload, gives the same id): importing twice adds nothing."""
    played_at: int
    """When it ended, milliseconds since 1970 UTC."""
    mode: str
    """``computer`` or ``hotseat``."""
    level: str | None
    """The computer's level (``easy``, ``medium``, ``expert``); None in hot-seat."""
    names: tuple[str, ...]
    """One name a seat."""
    humans: tuple[int, ...]
    winner: int
    """The winning side (a seat for two or three players, a partnership 0 or 1 for four)."""
    scores: tuple[int, ...]
    """Each side's final score."""
    seed: int
    actions: tuple[str, ...]
    """Every action in text form: seed + actions replay the match (:func:`replay`)."""
    hands: tuple[HandRecord, ...]
    best_hand: tuple[Best | None, ...]
    best_crib: tuple[Best | None, ...]
    coach: tuple[CoachTotals | None, ...] | None = None
    """Per seat (humans only); None until :func:`coach_totals` has been run."""
    rules: Rules = CLASSIC
    """The table it was played at (not written for the classic game, so classic ids stay the same)."""
    first_dealer: int | None = None
    """A series game whose rule named the first dealer (no cut for deal); written only when set."""

    def won(self, seat: int) -> bool:
        """True if ``seat``'s side won."""
        return self.rules.side_of(seat) == self.winner

    @property
    def loser(self) -> int:
        """The side that lost (with three players, the lowest score)."""
        if self.rules.sides == 2:
            return 1 - self.winner
        return min((s for s in range(self.rules.sides) if s != self.winner), key=lambda s: self.scores[s])

    @property
    def skunk(self) -> str | None:
        """``double`` (loser below 61 in a game to 121), ``single`` (below 91; below 31 to 61) or None."""
        lost = self.scores[self.loser]
        double = self.rules.double_skunk_line
        if double is not None and lost < double:
            return "double"
        if lost < self.rules.skunk_line:
            return "single"
        return None

    def headline(self) -> str:
        """``You won 121 to 98 against the computer (expert)`` or ``Ann beat Bob 121 to 87``."""
        w, lo = self.winner, self.loser
        tail = " (double skunk)" if self.skunk == "double" else " (skunk)" if self.skunk == "single" else ""
        if self.rules.sides > 2 or self.rules.partners:
            who = " and ".join(self.names[s] for s in self.rules.seats_of(w))
            rest = " and ".join(f"{self.scores[s]} ({' and '.join(self.names[t] for t in self.rules.seats_of(s))})"
                                for s in range(self.rules.sides) if s != w)
            return f"{who} won {self.scores[w]} to {rest} ({self.rules.describe()}){tail}"
        if self.mode == "hotseat":
            return f"{self.names[w]} beat {self.names[lo]} {self.scores[w]} to {self.scores[lo]}{tail}"
        human = self.humans[0] if self.humans else 0
        verb = "won" if w == human else "lost"
        return (f"{self.names[human]} {verb} {self.scores[human]} to {self.scores[other(human)]} against the "
                f"computer ({self.level or 'unknown level'}){tail}")

    def with_coach(self, coach: tuple[CoachTotals | None, ...]) -> MatchRecord:
        """This record with the coach's totals filled in (the id does not change)."""
        return replace(self, coach=coach)

    def to_json(self) -> dict[str, Any]:
        """Plain data (versioned)."""
        return {
            "version": RECORD_VERSION, "id": self.id, "played_at": self.played_at, "mode": self.mode,
            "level": self.level, "names": list(self.names), "humans": list(self.humans), "winner": self.winner,
            "scores": list(self.scores), "seed": self.seed, "actions": list(self.actions),
            "hands": [h.to_json() for h in self.hands],
            "best_hand": [b.to_json() if b else None for b in self.best_hand],
            "best_crib": [b.to_json() if b else None for b in self.best_crib],
            "coach": None if self.coach is None else [c.to_json() if c else None for c in self.coach],
            **({} if self.rules.is_classic else {"rules": self.rules.to_json()}),
            **({} if self.first_dealer is None else {"first_dealer": self.first_dealer}),
        }

    @classmethod
    def from_json(cls, data: Any) -> MatchRecord:
        """Read a record, checking every field and its id."""
        d = _dict(data, "a match record")
        version = _int(d, "version")
        if version > RECORD_VERSION:
            raise RecordError(f"a match record was made by a newer version of the game (version {version})")
        try:
            rules = Rules.from_json(d.get("rules"))
        except RulesError as exc:
            raise RecordError(f"a match record's rules cannot be used: {exc}") from exc
        n = rules.players
        mode = _str(d, "mode")
        if mode not in ("computer", "hotseat"):
            raise RecordError(f"unknown mode {mode!r} in a match record")
        level = d.get("level")
        if level is not None and not isinstance(level, str):
            raise RecordError("a match record's level is not text")
        names = _pair(d.get("names"), "a match record's names", n)
        if not all(isinstance(n, str) for n in names):
            raise RecordError("a match record's names are not text")
        humans = _list(d.get("humans"), "a match record's human seats")
        if any(h not in range(n) or isinstance(h, bool) for h in humans) or len(set(humans)) != len(humans):
            raise RecordError("a match record's human seats are invalid")
        scores = _pair(d.get("scores"), "a match record's scores", rules.sides)
        if not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in scores):
            raise RecordError("a match record's scores are invalid")
        winner = _int(d, "winner")
        if winner not in range(rules.sides):
            raise RecordError("a match record's winner is not a seat")
        actions = _list(d.get("actions"), "a match record's actions")
        if not all(isinstance(a, str) for a in actions):
            raise RecordError("a match record's actions are not text")
        coach_raw = d.get("coach")
        coach = None
        if coach_raw is not None:
            pair = _pair(coach_raw, "a match record's coach totals", n)
            coach = tuple(CoachTotals.from_json(c) for c in pair)
        bh = _pair(d.get("best_hand"), "a match record's best hands", n)
        bc = _pair(d.get("best_crib"), "a match record's best cribs", n)
        hands = tuple(HandRecord.from_json(h) for h in _list(d.get("hands"), "a match record's hands"))
        first = d.get("first_dealer")
        if first is not None and (type(first) is not int or first not in range(n)):
            raise RecordError("a match record's first dealer is not a seat")
        if any(len(h.points) != n for h in hands):
            raise RecordError("a match record's hands do not have one entry for each seat")
        record = cls(
            _str(d, "id"), _int(d, "played_at"), mode, level, tuple(names), tuple(humans), winner,
            tuple(scores), _int(d, "seed"), tuple(actions), hands,
            tuple(Best.from_json(b) for b in bh), tuple(Best.from_json(b) for b in bc), coach, rules, first)
        if record.id != _record_id(record.seed, record.names, record.humans, record.actions, record.rules,
                                   record.first_dealer):
            raise RecordError("a match record has been altered (its id does not match)")
        return record


def _record_id(seed: int, names: Sequence[str], humans: Sequence[int], actions: Sequence[str],
               rules: Rules = CLASSIC, first_dealer: int | None = None) -> str:
    body: dict[str, Any] = {"seed": seed, "names": list(names), "humans": list(humans), "actions": list(actions)}
    if not rules.is_classic:  # classic ids stay exactly as they were before the rule book
        body["rules"] = rules.to_json()
    if first_dealer is not None:  # a series game dealt by its rule, not cut for
        body["first_dealer"] = first_dealer
    return _digest(body, 16)


def record_match(match: Match, played_at: int) -> MatchRecord:
    """The record of a finished match (mode and level from its human seats and options)."""
    level = match.options.get("level")
    return record_state(match.state, played_at=played_at, seed=match.seed, actions=match.actions,
                        names=match.names, humans=sorted(match.humans),
                        level=level if isinstance(level, str) else None)


def record_state(state: GameState, *, played_at: int, seed: int, actions: Iterable[Action | str],
                 names: Sequence[str] = ("North", "South"), humans: Sequence[int] = (0, 1),
                 level: str | None = None) -> MatchRecord:
    """The record of a finished :class:`GameState` (``seed`` and ``actions`` are kept as given)."""
    if not state.is_over or state.winner is None:
        raise RecordError("the match is not over yet: only finished matches are recorded")
    if not isinstance(played_at, int) or isinstance(played_at, bool) or played_at < 0:
        raise RecordError("the time a match was played is milliseconds since 1970")
    rules = state.rules
    n = rules.players
    mode = "hotseat" if len(set(humans)) >= 2 else "computer"
    texts = tuple(str(a) for a in actions)
    dealers: dict[int, int] = {}
    shows: dict[int, list[int | None]] = {}
    cribs: dict[int, int] = {}
    best_hand: list[Best | None] = [None] * n
    best_crib: list[Best | None] = [None] * n
    for e in state.events:
        if e.kind == "deal" and e.hand not in dealers and e.seat is not None:
            dealers[e.hand] = e.seat  # the first deal line of a hand names the dealer
        elif e.kind in ("show hand", "show crib") and e.seat is not None:
            held = e.points
            if e.claim and len(e.cards) == 5:
                # Muggins: a claim counts as what it claimed, but never above what the cards hold (an
                # over-claim is not a 29 in the statistics, called or not).
                held = min(held, score_hand(e.cards[:4], e.cards[4], crib=e.kind == "show crib").total)
            best = Best(held, tuple(c.code for c in e.cards))
            if e.kind == "show hand":
                shows.setdefault(e.hand, [None] * n)[e.seat] = held
                best_hand[e.seat] = _better(best_hand[e.seat], best)
            else:
                cribs[e.hand] = held
                best_crib[e.seat] = _better(best_crib[e.seat], best)
    hands = []
    for number, totals in enumerate(state.hand_scores, 1):
        points = tuple({s: totals.get(f"{s}{seat}", 0) for s in SOURCES} for seat in range(n))
        sh = shows.get(number, [None] * n)
        hands.append(HandRecord(number, dealers[number], points, tuple(sh), cribs.get(number)))
    names2 = tuple(str(names[i]) for i in range(n))
    hum = tuple(sorted(set(humans)))
    first = state.first_dealer
    return MatchRecord(
        _record_id(seed, names2, hum, texts, rules, first), played_at, mode, None if mode == "hotseat" else level,
        names2, hum, state.winner, tuple(state.scores), seed, texts, tuple(hands),
        tuple(best_hand), tuple(best_crib), rules=rules, first_dealer=first)


def replay(record: MatchRecord) -> Match:
    """The match again from its seed and actions (for the chart, the score sheet, the coach)."""
    from .match import Match

    match = Match(record.seed, record.humans, record.names, {"level": record.level} if record.level else {},
                  rules=record.rules, first_dealer=record.first_dealer)
    try:
        for text in record.actions:
            match.apply(parse_action(text))
    except ValueError as exc:
        raise RecordError(f"this match cannot be replayed: {exc}") from exc
    return match


def coach_totals(match: Match, seats: Iterable[int] | None = None,
                 samples: int = 64) -> tuple[CoachTotals | None, ...]:
    """The coach's view of each seat's decisions (default: the human seats). Slow: seconds a match.

    Discards are valued as the coach's discard analysis (hand + crib + pegging estimate), plays by its
    expected net pegging to the end of the play (in points even near 121, so the units stay points).
    """
    run = CoachRun(match, seats, samples)
    while not run.done:
        run.step()
    return run.result()


class CoachRun:
    """:func:`coach_totals` one action at a time, so a page can spread it over timer ticks."""

    def __init__(self, match: Match, seats: Iterable[int] | None = None, samples: int = 64) -> None:
        from .ai.coach import analyze_plays, discard_choices
        from .view import view as view_of

        self._discards, self._plays, self._view = discard_choices, analyze_plays, view_of
        self.samples = samples
        self.who = set(match.humans if seats is None else seats)
        self.acc: dict[int, list[int]] = {s: [0, 0, 0, 0] for s in self.who}
        self.actions = list(match.actions)
        self.index = 0
        """The next action to look at."""
        self.state = match.new_state()

    @property
    def done(self) -> bool:
        """True once every action has been looked at."""
        return self.index >= len(self.actions)

    def step(self) -> None:
        """Look at the next action (one coach analysis at most)."""
        action = self.actions[self.index]
        self.index += 1
        seat = getattr(action, "seat", None)
        if seat in self.who and isinstance(action, (Discard, Play)):
            v = self._view(self.state, seat)
            acc = self.acc[seat]
            if isinstance(action, Discard):
                choices = self._discards(v, endgame=False)  # any table: six cards or five
                chosen = next(c for c in choices if set(c.discard) == set(action.cards))
                acc[0] += 1
                acc[1] += round(1000 * max(0.0, choices[0].net - chosen.net))
            else:
                plays = self._plays(v, samples=self.samples, endgame=False)
                if len({p.card.rank for p in plays if p.card is not None}) >= 2:
                    chosen_p = next(p for p in plays if p.card == action.card)
                    acc[2] += 1
                    acc[3] += round(1000 * max(0.0, plays[0].ev - chosen_p.ev))
        self.state.apply(action)

    def result(self) -> tuple[CoachTotals | None, ...]:
        """The totals per seat (None for a seat not reviewed)."""
        return tuple(CoachTotals(*self.acc[s]) if s in self.acc else None for s in range(self.state.rules.players))


# --- the race to 121 ----------------------------------------------------------------------------


@dataclass(frozen=True)
class RaceStep:
    """One scoring event: who scored, from which source, and both scores after it."""

    hand: int
    seat: int
    source: str
    points: int
    scores: tuple[int, ...]


def race(events: Iterable[Event]) -> list[RaceStep]:
    """Every scoring event of a match in order (the score sheet's points, as a chart reads them)."""
    return [RaceStep(e.hand, e.seat, e.source, e.points, e.scores)
            for e in events if e.points and e.seat is not None and e.source is not None]


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
        d = _dict(data, "a side's totals")
        sums = []
        for role in ("dealer", "pone"):
            r = _dict(d.get(role), f"the {role}'s totals")
            if set(r) != set(SOURCES):
                raise RecordError("a side's totals do not name every source")
            sums.append({s: _int(r, s) for s in SOURCES})
        return cls(_int(d, "dealer_hands"), _int(d, "pone_hands"), sums[0], sums[1],
                   _counts(d.get("shows"), "the hand counts"), _counts(d.get("cribs"), "the crib counts"),
                   Best.from_json(d.get("best_hand")), Best.from_json(d.get("best_crib")),
                   _int(d, "skunked"), _int(d, "double_skunked"), _int(d, "coached"),
                   CoachTotals.from_json(d.get("coach")) or CoachTotals())


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
        d = _dict(data, "a group's statistics")
        rules = d.get("rules", "")
        if not isinstance(rules, str):
            raise RecordError("a group's rules are not text")
        g = cls(_str(d, "key"), _int(d, "matches"), _int(d, "wins"), SideTotals.from_json(d.get("player")),
                SideTotals.from_json(d.get("opponent")), rules=rules)
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
        d = _dict(data, "the statistics")
        stats = cls(matches=_int(d, "matches"))
        for raw in _list(d.get("groups"), "the statistics' groups"):
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
    from .cards import parse_card

    return f"{b.points} ({' '.join(parse_card(c).pretty for c in b.cards[:4])}, starter {parse_card(b.cards[4]).pretty})"


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
            out.append(f"  coach ({_plural(g.player.coached, 'match', 'matches')} reviewed): {_avg(c.per_discard, 1).strip()} points "
                       f"lost a discard ({c.discards}), {_avg(c.per_play, 1).strip()} a play ({c.plays})")
            if len(g.trend) >= 2:
                first, last = g.trend[0], g.trend[-1]
                out.append(f"  trend: a discard {_avg(first.per_discard, 1).strip()} → "
                           f"{_avg(last.per_discard, 1).strip()}, a play {_avg(first.per_play, 1).strip()} → "
                           f"{_avg(last.per_play, 1).strip()} (first → latest reviewed match)")
    return "\n".join(out)


# --- the history --------------------------------------------------------------------------------


@dataclass
class History:
    """The last ``limit`` full records (oldest first) and a summary of every older one."""

    records: list[MatchRecord] = field(default_factory=list)
    summary: Stats = field(default_factory=Stats)
    folded: list[str] = field(default_factory=list)
    """Ids of the matches folded into ``summary`` (so they are never counted twice)."""
    limit: int = HISTORY_LIMIT

    def ids(self) -> set[str]:
        """Every match id known, full or folded."""
        return {r.id for r in self.records} | set(self.folded)

    def add(self, record: MatchRecord) -> bool:
        """Add a finished match; False if it is already here (a coach review still fills in)."""
        for i, r in enumerate(self.records):
            if r.id == record.id:
                if r.coach is None and record.coach is not None:
                    self.records[i] = record
                    return True
                return False
        if record.id in self.folded:
            return False
        self.records.append(record)
        self.records.sort(key=lambda r: (r.played_at, r.id))
        self._fold()
        return True

    def _fold(self) -> None:
        while len(self.records) > self.limit:
            oldest = self.records.pop(0)
            self.summary.add(oldest)
            self.folded.append(oldest.id)
        for g in self.summary.groups.values():
            g.trend = []

    def stats(self) -> Stats:
        """Statistics of every match ever recorded (summary + full records)."""
        return statistics(self.records, self.summary)

    def merged(self, o: History) -> History:
        """This history with another's matches added (each match once); refuses overlaps it cannot
        merge exactly (both summaries hold some of the same matches, but not all)."""
        out = History(list(self.records), Stats(), list(self.folded), self.limit)
        out.summary.merge(self.summary)
        mine = self.ids()
        theirs_folded = set(o.folded)
        known = theirs_folded & mine
        if o.folded and not known:
            out.summary.merge(o.summary)
            out.folded += o.folded
        elif known != theirs_folded:
            if known & set(self.folded):
                raise RecordError("these histories overlap in a way that cannot be merged exactly: "
                                  "both have summarised some of the same old matches")
            # Their summary covers some of our full records: drop ours, take their summary.
            out.records = [r for r in out.records if r.id not in theirs_folded]
            out.summary.merge(o.summary)
            out.folded += o.folded
        for r in o.records:
            out.add(r)
        for g in out.summary.groups.values():
            g.trend = []
        return out

    def to_json(self) -> str:
        """The history as canonical JSON (the same history always gives the same text)."""
        body = {"format": HISTORY_FORMAT, "version": HISTORY_VERSION, "limit": self.limit,
                "records": [r.to_json() for r in self.records], "summary": self.summary.to_json(),
                "folded": list(self.folded)}
        return _canonical(body)

    @classmethod
    def from_json(cls, text: str) -> History:
        """Read a stored history; refuse anything doubtful with :class:`RecordError`."""
        try:
            data = json.loads(text)
        except (ValueError, TypeError) as exc:
            raise RecordError("the match history cannot be read: it is not valid JSON") from exc
        d = _dict(data, "the match history")
        if d.get("format") != HISTORY_FORMAT:
            raise RecordError("this is not a cribbage match history")
        version = _int(d, "version", 1)
        if version > HISTORY_VERSION:
            raise RecordError(f"the match history was made by a newer version of the game (version {version})")
        folded = _list(d.get("folded"), "the history's folded matches")
        if not all(isinstance(i, str) for i in folded):
            raise RecordError("the history's folded matches are not ids")
        records = [MatchRecord.from_json(r) for r in _list(d.get("records"), "the history's records")]
        if len({r.id for r in records} | set(folded)) != len(records) + len(folded):
            raise RecordError("the match history lists a match twice")
        return cls(records, Stats.from_json(d.get("summary")), folded, _int(d, "limit", 1))


# --- the export file ----------------------------------------------------------------------------


def make_bundle(entries: Mapping[str, str]) -> str:
    """An export file holding these storage entries (``cribbage.`` keys to their stored strings)."""
    body: dict[str, Any] = {"format": EXPORT_FORMAT, "version": EXPORT_VERSION,
                            "data": {k: entries[k] for k in sorted(entries)}}
    body["checksum"] = _digest(body)
    return json.dumps(body, sort_keys=True, ensure_ascii=False, indent=1) + "\n"


def read_bundle(text: str | bytes) -> dict[str, str]:
    """The entries of an export file, each checked; refuse a foreign, damaged or newer file."""
    from .match import Match, SaveError

    try:
        data = json.loads(text)
    except (ValueError, TypeError) as exc:
        raise RecordError("this file cannot be read: it is not valid JSON (it may be truncated)") from exc
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise RecordError("this is not a cribbage export file")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise RecordError("this export file has no valid version number")
    if version > EXPORT_VERSION:
        raise RecordError(f"this file was exported by a newer version of the game (file version {version}, "
                          f"this game reads up to {EXPORT_VERSION}): update the game first")
    if data.get("checksum") != _digest({k: v for k, v in data.items() if k != "checksum"}):
        raise RecordError("this file has been altered or damaged (its checksum does not match)")
    entries = data.get("data")
    if not isinstance(entries, dict):
        raise RecordError("this export file holds no data")
    for key, value in entries.items():
        if not key.startswith(KEY_PREFIX) or not isinstance(value, str):
            raise RecordError(f"this export file holds an entry that is not the game's: {key!r}")
    for key, value in entries.items():
        if key == HISTORY_KEY:
            try:
                History.from_json(value)
            except RecordError as exc:
                raise RecordError(f"the match history in this file cannot be used: {exc}") from exc
        elif key.startswith(SAVE_KEY_PREFIX) and key.count(".") == 2:
            try:
                Match.from_json(value)
            except SaveError as exc:
                raise RecordError(f"the saved game {key!r} in this file cannot be used: {exc}") from exc
    return dict(entries)
