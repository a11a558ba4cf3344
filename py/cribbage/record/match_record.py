"""A finished match as the history keeps it (:class:`MatchRecord`): :func:`record_match`,
:func:`record_state`, and :func:`replay` (the match again from its seed and actions)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from ..actions import Action, parse_action
from ..rules import CLASSIC, Rules, RulesError
from ..scoring import score_hand
from ..state import GameState, other
from ..savefile import digest
from .base import RECORD_VERSION, SOURCES, RecordError, fields
from .hands import Best, CoachTotals, HandRecord, _better

if TYPE_CHECKING:
    from ..match import Match

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
    fair: Committed | None = None
    """A match whose deals were committed before the first cut (:mod:`cribbage.fairness`): the
    commitment, the nonce revealed at the end and the deals as they were on the table; written only
    when set, so older records and their ids stay as they were."""

    def verify(self) -> str | None:
        """*Verify this match*: a sentence saying every card matches, or naming the first hand that
        differs; None when the match was not committed."""
        from ..fairness import verify_record_json

        verdict = verify_record_json(self.to_json())
        return None if verdict is None else verdict.summary

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
            "version": RECORD_VERSION if self.fair is not None else 1, "id": self.id, "played_at": self.played_at,
            "mode": self.mode,
            "level": self.level, "names": list(self.names), "humans": list(self.humans), "winner": self.winner,
            "scores": list(self.scores), "seed": self.seed, "actions": list(self.actions),
            "hands": [h.to_json() for h in self.hands],
            "best_hand": [b.to_json() if b else None for b in self.best_hand],
            "best_crib": [b.to_json() if b else None for b in self.best_crib],
            "coach": None if self.coach is None else [c.to_json() if c else None for c in self.coach],
            **({} if self.rules.is_classic else {"rules": self.rules.to_json()}),
            **({} if self.first_dealer is None else {"first_dealer": self.first_dealer}),
            **({} if self.fair is None else {"fair": self.fair.to_json()}),
        }

    @classmethod
    def from_json(cls, data: Any) -> MatchRecord:
        """Read a record, checking every field and its id."""
        f = fields(data, "a match record")
        version = f.int("version", min=0)
        if version > RECORD_VERSION:
            raise RecordError(f"a match record was made by a newer version of the game (version {version})")
        try:
            rules = Rules.from_json(f.raw("rules", None))
        except RulesError as exc:
            raise RecordError(f"a match record's rules cannot be used: {exc}") from exc
        n = rules.players
        mode = f.str("mode", choices=("computer", "hotseat"), what="a match record's mode")
        level = f.optional("level", lambda k: f.str(k, what="a match record's level"))
        names = f.list_of("names", str, length=n, what="a match record's names")
        humans = f.list_of("humans", int, what="a match record's human seats")
        if any(h not in range(n) for h in humans) or len(set(humans)) != len(humans):
            raise RecordError("a match record's human seats are invalid")
        scores = f.list_of("scores", int, length=rules.sides, what="a match record's scores")
        if any(s < 0 for s in scores):
            raise RecordError("a match record's scores are invalid")
        winner = f.int("winner", min=0, max=rules.sides - 1, what="a match record's winner")
        actions = f.list_of("actions", str, what="a match record's actions")
        coach_raw = f.optional("coach", lambda k: f.list(k, length=n, what="a match record's coach totals"))
        coach = None if coach_raw is None else tuple(CoachTotals.from_json(c) for c in coach_raw)
        bh = f.list("best_hand", length=n, what="a match record's best hands")
        bc = f.list("best_crib", length=n, what="a match record's best cribs")
        hands = tuple(HandRecord.from_json(h) for h in f.list("hands", what="a match record's hands"))
        first = f.optional("first_dealer", lambda k: f.int(k, min=0, max=n - 1, what="a match record's first dealer"))
        if any(len(h.points) != n for h in hands):
            raise RecordError("a match record's hands do not have one entry for each seat")
        fair = f.optional("fair", lambda k: Committed.from_json(f.raw(k)))
        record = cls(
            f.str("id"), f.int("played_at", min=0), mode, level, tuple(names), tuple(humans), winner,
            tuple(scores), f.int("seed", min=0), tuple(actions), hands,
            tuple(Best.from_json(b) for b in bh), tuple(Best.from_json(b) for b in bc), coach, rules, first, fair)
        if record.id != _record_id(record.seed, record.names, record.humans, record.actions, record.rules,
                                   record.first_dealer, record.fair):
            raise RecordError("a match record has been altered (its id does not match)")
        return record


@dataclass(frozen=True)
class Committed:
    """A committed match's proof: the commitment shown (as a fingerprint) before the first cut, the
    nonce revealed at the end, and every deal as it was on the table (:func:`cribbage.fairness.deal_lines`)."""

    commitment: str
    nonce: str
    deals: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {"commitment": self.commitment, "nonce": self.nonce, "deals": list(self.deals)}

    @classmethod
    def from_json(cls, data: Any) -> Committed:
        """Read one (the check that it holds is :meth:`MatchRecord.verify`, not this)."""
        f = fields(data, "a match record's commitment")
        return cls(f.str("commitment"), f.str("nonce"), tuple(f.list_of("deals", str, what="a match record's deals")))


def _record_id(seed: int, names: Sequence[str], humans: Sequence[int], actions: Sequence[str],
               rules: Rules = CLASSIC, first_dealer: int | None = None, fair: Committed | None = None) -> str:
    body: dict[str, Any] = {"seed": seed, "names": list(names), "humans": list(humans), "actions": list(actions)}
    if not rules.is_classic:  # classic ids stay exactly as they were before the rule book
        body["rules"] = rules.to_json()
    if first_dealer is not None:  # a series game dealt by its rule, not cut for
        body["first_dealer"] = first_dealer
    if fair is not None:  # a committed match: its commitment and nonce are part of what it is
        body["fair"] = [fair.commitment, fair.nonce]
    return digest(body, 16)


def record_match(match: Match, played_at: int) -> MatchRecord:
    """The record of a finished match (mode and level from its human seats and options)."""
    level = match.options.get("level")
    fair = None
    commit = match.commitment
    if commit is not None and match.nonce is not None:
        from ..fairness import deal_lines

        deals, _ = deal_lines(match.seed, match.actions, match.names, rules=match.rules,
                              first_dealer=match.first_dealer)
        fair = Committed(commit, match.nonce, tuple(deals))
    return record_state(match.state, played_at=played_at, seed=match.seed, actions=match.actions,
                        names=match.names, humans=sorted(match.humans),
                        level=level if isinstance(level, str) else None, fair=fair)


def record_state(state: GameState, *, played_at: int, seed: int, actions: Iterable[Action | str],
                 names: Sequence[str] = ("North", "South"), humans: Sequence[int] = (0, 1),
                 level: str | None = None, fair: Committed | None = None) -> MatchRecord:
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
        _record_id(seed, names2, hum, texts, rules, first, fair), played_at, mode,
        None if mode == "hotseat" else level,
        names2, hum, state.winner, tuple(state.scores), seed, texts, tuple(hands),
        tuple(best_hand), tuple(best_crib), rules=rules, first_dealer=first, fair=fair)


def replay(record: MatchRecord) -> Match:
    """The match again from its seed and actions (for the chart, the score sheet, the coach)."""
    from ..match import Match

    try:  # (a seed out of range, from an edited file, is refused here too)
        match = Match(record.seed, record.humans, record.names, {"level": record.level} if record.level else {},
                      rules=record.rules, first_dealer=record.first_dealer)
        match.nonce = record.fair.nonce if record.fair is not None else None
        for text in record.actions:
            match.apply(parse_action(text))
    except ValueError as exc:
        raise RecordError(f"this match cannot be replayed: {exc}") from exc
    return match
