"""The scorekeeper: a ledger of the points scored in a game played with real cards.

Nobody deals here: the players deal and count at the table, and the ledger keeps what they peg,
as a paper score sheet or a pegboard would — by deal, each score with its kind (pegging, a hand,
the crib, his heels), the deal moving on when they say so. It knows the rules it needs and reads
them from one place: the target and the skunk lines from :class:`~cribbage.rules.Rules`, what a
won game is worth and the series from :mod:`cribbage.series`, which counts no hand can make from
:func:`cribbage.scoring.possible_totals`.

Every entry can be undone and redone, without limit (python-chess's ``push``/``pop``); a saved
ledger is its rules, names and entries, and loading replays the entries through the same checks,
so a damaged save is refused as a whole (:class:`ScoreError`), never half-loaded.

Sides, not seats, score: with four players the two partnerships peg on two tracks, and any
partner's hand is the side's hand. The dealer is a seat (the deal goes round the table).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Mapping, Sequence, Union

from .rules import CLASSIC, Rules, RulesError
from .scoring import GO_POINTS, HEELS_POINTS, MAX_SHOW, possible_totals
from .series import Series, WinKind, game_value

__all__ = ["ScoreError", "Score", "NextDeal", "Event", "Kind", "Scorekeeper", "PEG_BUTTONS", "SAVE_VERSION",
           "impossible_count_reason"]

Kind = Literal["peg", "go", "hand", "crib", "heels"]
KINDS: tuple[Kind, ...] = ("peg", "go", "hand", "crib", "heels")
PEG_BUTTONS: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 12)
"""The common scores of the play: a go or last card, fifteen or a pair, a run of three, ..., a
double pair royal."""
PEG_MAX = 29
"""The largest pegging entry taken (more than any one card can peg: it also takes a few pegs
added together)."""
SAVE_VERSION = 1


class ScoreError(ValueError):
    """An entry the ledger refuses; the message is a plain sentence for the players."""


@dataclass(frozen=True, slots=True)
class Score:
    """Points pegged by one side."""

    side: int
    kind: Kind
    points: int

    def to_json(self) -> list[Any]:
        return [self.kind, self.side, self.points]


@dataclass(frozen=True, slots=True)
class NextDeal:
    """The deal passes to the next dealer on the left."""

    def to_json(self) -> list[Any]:
        return ["deal"]


Event = Union[Score, NextDeal]


def event_from_json(data: Any) -> Event:
    """An entry from its saved form (``["hand", 0, 8]``, ``["deal"]``)."""
    if data == ["deal"]:
        return NextDeal()
    if (not isinstance(data, list) or len(data) != 3 or data[0] not in KINDS
            or type(data[1]) is not int or type(data[2]) is not int):
        raise ScoreError(f"an entry of the ledger is not a score: {str(data)[:40]}")
    return Score(data[1], data[0], data[2])


def impossible_count_reason(points: int, crib: bool = False) -> str | None:
    """Why no hand (or crib) counts ``points``, in a sentence, or None if one can."""
    what = "crib" if crib else "hand"
    if points < 0 or points > MAX_SHOW:
        return f"A {what} counts from 0 to {MAX_SHOW}."
    if points not in possible_totals(crib):
        return (f"No {what} counts {points}: 19, 25, 26 and 27 cannot be made with four cards and the starter. "
                "(A \u201cnineteen hand\u201d is slang for a hand worth nothing: enter 0.)")
    return None


@dataclass(frozen=True, slots=True)
class DealLog:
    """One deal of the game as the ledger lists it."""

    number: int
    """1 for the first deal."""
    dealer: int
    """The seat that dealt."""
    entries: tuple[tuple[int, Score, tuple[int, ...]], ...]
    """(index in the ledger, the score, every side's total after it)."""


class Scorekeeper:
    """The ledger of one game (and the series it belongs to)."""

    def __init__(self, rules: Rules = CLASSIC, names: Sequence[str] | None = None, first_dealer: int = 0,
                 series: Series | None = None) -> None:
        self.rules = rules
        if names is None:
            names = [f"Player {i + 1}" for i in range(rules.players)]
        if len(names) != rules.players or not all(isinstance(n, str) for n in names):
            raise ScoreError(f"a table of {rules.players} needs {rules.players} names")
        self.names: tuple[str, ...] = tuple(n.strip()[:24] or f"Player {i + 1}" for i, n in enumerate(names))
        if type(first_dealer) is not int or not 0 <= first_dealer < rules.players:
            raise ScoreError(f"no seat {first_dealer!r} to deal at a table of {rules.players}")
        self.first_dealer = first_dealer
        self.series = series if series is not None else Series(rules)
        if self.series.rules != rules:
            raise ScoreError("the series is of other rules than the game")
        self.events: list[Event] = []
        self.undone: list[Event] = []
        """Entries taken back, the next to redo last."""

    # --- what the ledger shows -----------------------------------------------------------------

    @property
    def sides(self) -> int:
        return self.rules.sides

    def side_name(self, side: int) -> str:
        """``"Ann"``, or for a partnership ``"Ann & Cy"``."""
        return " & ".join(self.names[s] for s in self.rules.seats_of(side))

    @property
    def totals(self) -> tuple[int, ...]:
        """Each side's score: the sum of its entries in force."""
        out = [0] * self.sides
        for e in self.events:
            if isinstance(e, Score):
                out[e.side] += e.points
        return tuple(out)

    @property
    def previous(self) -> tuple[int, ...]:
        """Each side's score before its latest entry (the back peg: the gap is the last score)."""
        out = [0] * self.sides
        now = [0] * self.sides
        for e in self.events:
            if isinstance(e, Score):
                out[e.side] = now[e.side]
                now[e.side] += e.points
        return tuple(out)

    @property
    def deal(self) -> int:
        """The deal being scored, from 1."""
        return 1 + sum(1 for e in self.events if isinstance(e, NextDeal))

    @property
    def dealer(self) -> int:
        """The seat dealing now (the crib is theirs)."""
        return (self.first_dealer + self.deal - 1) % self.rules.players

    @property
    def crib_side(self) -> int:
        """The side the crib (and his heels) belongs to this deal."""
        return self.rules.side_of(self.dealer)

    @property
    def winner(self) -> int | None:
        """The side that reached the target (the game ends that moment), or None."""
        for side, total in enumerate(self.totals):
            if total >= self.rules.target:
                return side
        return None

    @property
    def result(self) -> tuple[int, int, WinKind] | None:
        """Once won: (winner side, game points it is worth, "win" / "skunk" / "double skunk" / "lurch")."""
        if self.winner is None:
            return None
        return game_value(self.rules, self.series.series, self.totals)

    def result_sentence(self) -> str | None:
        """``"Ann wins, 121 to 84: a skunk (2 games)."``, once the game is won (``"Ann reaches 61 and
        wins, 76 to 52."`` when the last count went past the target)."""
        result = self.result
        if result is None:
            return None
        side, value, kind = result
        totals = self.totals
        others = " and ".join(str(t) for s, t in enumerate(totals) if s != side)
        name = self.side_name(side)
        verb = "win" if len(self.rules.seats_of(side)) > 1 else "wins"
        worth = {"win": "", "skunk": f": a skunk ({value} games)", "double skunk": f": a double skunk ({value} games)",
                 "lurch": f": a lurch ({value} games)"}[kind]
        if totals[side] > self.rules.target:  # the last count went past the target: say which it was
            reach = "reach" if verb == "win" else "reaches"
            return f"{name} {reach} {self.rules.target} and {verb}, {totals[side]} to {others}{worth}."
        return f"{name} {verb}, {totals[side]} to {others}{worth}."

    def lines(self) -> tuple[tuple[str, int], ...]:
        """The lines drawn across the board: ("skunk", 91), ("double skunk", 61) — from the rules."""
        out: list[tuple[str, int]] = []
        if self.series.series.lurch:
            out.append(("lurch", self.rules.lurch_line))
        else:
            out.append(("skunk", self.rules.skunk_line))
            if self.rules.double_skunk_line is not None:
                out.append(("double skunk", self.rules.double_skunk_line))
        return tuple(out)

    def deals(self) -> list[DealLog]:
        """The entries in force, deal by deal (a deal with no score is listed too)."""
        out: list[DealLog] = []
        number, entries = 1, []  # type: tuple[int, list[tuple[int, Score, tuple[int, ...]]]]
        now = [0] * self.sides
        for index, e in enumerate(self.events):
            if isinstance(e, NextDeal):
                out.append(DealLog(number, (self.first_dealer + number - 1) % self.rules.players, tuple(entries)))
                number, entries = number + 1, []
            else:
                now[e.side] += e.points
                entries.append((index, e, tuple(now)))
        out.append(DealLog(number, (self.first_dealer + number - 1) % self.rules.players, tuple(entries)))
        return out

    @property
    def can_undo(self) -> bool:
        return bool(self.events)

    @property
    def can_redo(self) -> bool:
        return bool(self.undone)

    # --- entries -------------------------------------------------------------------------------

    def check(self, event: Event) -> None:
        """Raise :class:`ScoreError` (a sentence) if ``event`` cannot be entered now."""
        if self.winner is not None:
            raise ScoreError(f"The game is over: {self.result_sentence()} Undo, or start the next game.")
        if isinstance(event, NextDeal):
            return
        if not isinstance(event, Score) or event.kind not in KINDS:
            raise ScoreError("that is not a score")
        side, kind, points = event.side, event.kind, event.points
        if type(side) is not int or not 0 <= side < self.sides:
            raise ScoreError(f"there is no side {side!r} at this table")
        if type(points) is not int:
            raise ScoreError("points are whole numbers")
        this_deal = self._this_deal()
        if kind == "go":
            if points != GO_POINTS:
                raise ScoreError(f"A go scores {GO_POINTS}.")
        elif kind == "peg":
            if not 1 <= points <= PEG_MAX:
                raise ScoreError(f"Pegging takes 1 to {PEG_MAX} points at a time.")
        elif kind == "heels":
            if points != HEELS_POINTS:
                raise ScoreError(f"His heels scores {HEELS_POINTS}.")
            if side != self.crib_side:
                raise ScoreError(f"His heels scores for the dealer, {self.names[self.dealer]}.")
            if any(e.kind == "heels" for e in this_deal):
                raise ScoreError("His heels is already scored this deal: one starter a deal.")
        elif kind in ("hand", "crib"):
            reason = impossible_count_reason(points, crib=kind == "crib")
            if reason:
                raise ScoreError(reason)
            if kind == "crib":
                if side != self.crib_side:
                    raise ScoreError(f"The crib is the dealer's: {self.names[self.dealer]}'s.")
                if any(e.kind == "crib" for e in this_deal):
                    raise ScoreError("The crib is already counted this deal.")
            else:
                seats = self.rules.seats_of(side)
                counted = sum(1 for e in this_deal if e.kind == "hand" and e.side == side)
                if counted >= len(seats):
                    which = "Both hands are" if len(seats) == 2 else "The hand is"
                    raise ScoreError(f"{which} already counted for {self.side_name(side)} this deal: "
                                     "undo it to correct it, or press Next deal.")

    def _this_deal(self) -> list[Score]:
        out: list[Score] = []
        for e in reversed(self.events):
            if isinstance(e, NextDeal):
                break
            out.append(e)
        return out

    def record(self, event: Event) -> Event:
        """Enter ``event`` (checked first); the redo list is cleared, as after any new move."""
        self.check(event)
        self.events.append(event)
        self.undone.clear()
        return event

    def peg(self, side: int, points: int) -> Event:
        return self.record(Score(side, "peg", points))

    def go(self, side: int) -> Event:
        return self.record(Score(side, "go", GO_POINTS))

    def hand(self, side: int, points: int) -> Event:
        return self.record(Score(side, "hand", points))

    def crib(self, points: int) -> Event:
        return self.record(Score(self.crib_side, "crib", points))

    def heels(self) -> Event:
        return self.record(Score(self.crib_side, "heels", HEELS_POINTS))

    def next_deal(self) -> Event:
        return self.record(NextDeal())

    def undo(self) -> Event | None:
        """Take back the latest entry (None if there is none)."""
        if not self.events:
            return None
        event = self.events.pop()
        self.undone.append(event)
        return event

    def redo(self) -> Event | None:
        """Enter again the entry last taken back (None if there is none)."""
        if not self.undone:
            return None
        event = self.undone.pop()
        self.check(event)  # always passes: the ledger is as it was when it was entered
        self.events.append(event)
        return event

    # --- games of a series ---------------------------------------------------------------------

    def next_game(self, first_dealer: int | None = None) -> None:
        """The won game goes into the series; a new game starts with an empty ledger, dealt first by
        ``first_dealer`` or, if None, by whom the series names (the cut decides: ``first_dealer``
        must then be given)."""
        if self.winner is None:
            raise ScoreError("The game is not over yet.")
        if self.series_winner is not None:
            raise ScoreError("The series is over: start a new one.")
        series = self.series.add(self.totals, self.first_dealer)
        if first_dealer is None:
            first_dealer = series.next_first_dealer()
            if first_dealer is None:
                raise ScoreError("Cut for the deal: say who deals first.")
        if type(first_dealer) is not int or not 0 <= first_dealer < self.rules.players:
            raise ScoreError(f"no seat {first_dealer!r} to deal")
        self.series = series
        self.first_dealer = first_dealer
        self.events.clear()
        self.undone.clear()

    def new_series(self, first_dealer: int) -> None:
        """Start again: a new series of the same rules, an empty ledger (the names stay)."""
        if type(first_dealer) is not int or not 0 <= first_dealer < self.rules.players:
            raise ScoreError(f"no seat {first_dealer!r} to deal")
        self.series = Series(self.rules, self.series.series)
        self.first_dealer = first_dealer
        self.events.clear()
        self.undone.clear()

    @property
    def series_points(self) -> tuple[int, ...]:
        """Game points per side, the game being played included once it is won."""
        points = list(self.series.points)
        if self.result is not None:
            side, value, _ = self.result
            points[side] += value
        return tuple(points)

    @property
    def series_winner(self) -> int | None:
        for side, p in enumerate(self.series_points):
            if p >= self.series.series.first_to:
                return side
        return None

    # --- saves ---------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {"v": SAVE_VERSION, "names": list(self.names), "first_dealer": self.first_dealer,
                "series": self.series.to_json(), "events": [e.to_json() for e in self.events],
                "undone": [e.to_json() for e in self.undone]}

    @classmethod
    def from_json(cls, data: Any) -> "Scorekeeper":
        """A ledger from :meth:`to_json`'s data, every entry checked again; anything else is a
        :class:`ScoreError` naming what is wrong."""
        if not isinstance(data, Mapping):
            raise ScoreError("the save is not a score sheet")
        if data.get("v") != SAVE_VERSION:
            raise ScoreError(f"the save is of version {data.get('v')!r}, not {SAVE_VERSION}")
        try:
            series = Series.from_json(data.get("series"))
        except RulesError as exc:
            raise ScoreError(f"the series cannot be read: {exc}") from None
        names = data.get("names")
        if not isinstance(names, list):
            raise ScoreError("the names are not a list")
        keeper = cls(series.rules, names, data.get("first_dealer"), series)  # type: ignore[arg-type]
        events, undone = data.get("events"), data.get("undone", [])
        if not isinstance(events, list) or not isinstance(undone, list):
            raise ScoreError("the entries are not a list")
        for raw in events:
            keeper.record(event_from_json(raw))
        # The redo list must replay on top of the ledger, the last taken back first.
        trial = cls(series.rules, names, keeper.first_dealer, series)
        trial.events = list(keeper.events)
        for raw in reversed(undone):
            trial.record(event_from_json(raw))
        keeper.undone = [event_from_json(raw) for raw in undone]
        return keeper
