"""A series of games in the page: what is kept between games, and how the next game is opened.

The engine's :class:`~cribbage.series.Series` counts game points (skunks as its rules say) and names
who deals first next; this module keeps it beside a local mode's saved match, under
``cribbage.series.<mode>`` (:func:`series_key`), as :class:`SeriesPlay`: the choice of the New game
dialog it was started with, the series so far, the saves of its finished games (their race charts
for the summary) and the seed of the game on the table (``current``), so a reload finds the series
again and a match that is not its game is never counted.

A game is added to the series when the next one is opened (:func:`open_game`), not the moment it
ends: until then an undo on the game-over screen may still take the winning move back. What the
table shows meanwhile counts the finished game on the table as well (:meth:`SeriesPlay.shown`).
A match saved before series existed has no series key: it loads and plays exactly as before.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from cribbage.match import Match
from cribbage.rules import RulesError
from cribbage.series import Series, WinKind

from web.sessions.newgame import NewGame, edit, remembered
from web.sessions.newgame import from_json as choice_from_json
from web.sessions.storage import Storage
from web.kit.caught import caught

__all__ = ["SeriesPlay", "GameLine", "series_key", "load", "save", "discard", "open_game", "SERIES_VERSION"]

SERIES_VERSION = 1
KEY_PREFIX = "cribbage.series."


def series_key(mode: str) -> str:
    """The storage key of ``mode``'s series (``cribbage.series.computer``)."""
    return KEY_PREFIX + mode


@dataclass(frozen=True)
class GameLine:
    """One finished game of the series, for the summary."""

    number: int
    winner: int
    """The winning side."""
    scores: tuple[int, ...]
    value: int
    """Game points it was worth."""
    kind: WinKind
    save: str
    """The game's save (its race chart replays it); "" for the game still on the table."""


@dataclass(frozen=True)
class SeriesPlay:
    """A series in progress in one local mode."""

    choice: NewGame
    series: Series
    saves: tuple[str, ...] = ()
    """The finished games' saves, in order (one per game of ``series``)."""
    current: int | None = None
    """The seed of the game on the table (a game of this series only if its seed is this)."""

    def owns(self, match: Match) -> bool:
        """Is ``match`` the series' game on the table?"""
        return (match.seed == self.current and match.rules == self.series.rules
                and len(match.names) == len(self.choice.seats))

    def after(self, match: Match) -> "SeriesPlay":
        """The series with ``match`` (finished, the series' game) added; unchanged otherwise."""
        st = match.state
        if not self.owns(match) or not st.is_over or self.series.winner is not None:
            return self
        try:
            series = self.series.add(list(st.scores), _first_dealer(match))
        except RulesError:
            return self
        return replace(self, series=series, saves=(*self.saves, match.to_json()), current=None)

    def shown(self, match: Match) -> Series:
        """The series as the table shows it: the finished game on the table counted too."""
        return self.after(match).series

    def lines(self, match: Match | None = None) -> list[GameLine]:
        """Every finished game (the one on the table too, when it is over and the series' own)."""
        play = self.after(match) if match is not None else self
        saves = list(play.saves)
        if match is not None and play is not self:
            saves[-1] = ""  # the table's game: its events are at hand
        return [GameLine(i + 1, side, g.scores, value, kind, saves[i] if i < len(saves) else "")
                for i, (g, (side, value, kind)) in enumerate(zip(play.series.games, play.series.values()))]

    def to_json(self) -> dict[str, Any]:
        return {"v": SERIES_VERSION, "choice": self.choice.to_json(), "series": self.series.to_json(),
                "saves": list(self.saves), "current": self.current}

    @classmethod
    def from_json(cls, data: Any) -> "SeriesPlay":
        """A series from :meth:`to_json`'s data; ValueError for anything else."""
        if not isinstance(data, dict) or data.get("v") != SERIES_VERSION:
            raise ValueError("not a series of this version")
        choice = choice_from_json(data.get("choice"))
        series = Series.from_json(data.get("series"))
        saves = data.get("saves")
        current = data.get("current")
        if not isinstance(saves, list) or len(saves) != len(series.games) or not all(isinstance(s, str) for s in saves):
            raise ValueError("the series' games are not kept")
        if current is not None and (type(current) is not int or current < 0):
            raise ValueError("the series' game on the table is not a seed")
        if series.rules != choice.rules or series.series != choice.series:
            raise ValueError("the series does not match its choice")
        return cls(choice, series, tuple(saves), current)


def _first_dealer(match: Match) -> int:
    """Who dealt the first hand of ``match`` (its first deal line names the dealer)."""
    if match.first_dealer is not None:
        return match.first_dealer
    for e in match.state.events:
        if e.kind == "deal" and e.seat is not None:
            return e.seat
    return 0


def load(storage: Storage, mode: str) -> SeriesPlay | None:
    """``mode``'s series, or None (none kept, or one that cannot be read: it is simply not shown)."""
    try:
        raw = storage.get(series_key(mode))
        return SeriesPlay.from_json(json.loads(raw)) if raw else None
    except Exception as exc:  # noqa: BLE001 - a damaged series loses the count, never the game
        caught("sessions.series.load", exc)
        return None


def save(storage: Storage, mode: str, play: SeriesPlay | None) -> None:
    """Keep ``play`` (None: forget the series)."""
    try:
        if play is None:
            storage.remove(series_key(mode))
        else:
            storage.set(series_key(mode), json.dumps(play.to_json(), separators=(",", ":")))
    except Exception as exc:  # noqa: BLE001 - a full storage must not stop the game
        caught("sessions.series.save", exc)


def discard(storage: Storage, mode: str) -> None:
    """Forget ``mode``'s series (a new game was chosen in the dialog)."""
    save(storage, mode, None)


def choice_for(storage: Storage, mode: str, level: str | None) -> NewGame:
    """The remembered choice made to fit ``mode`` (its preset's seats if it names another way to
    play; the house rules and the series kept where they apply), every computer at ``level`` when
    given (the menu's level sets the computers of new games)."""
    choice = remembered(storage)
    if choice.mode_key != mode and mode in ("computer", "hotseat"):
        choice = edit(choice, "preset", mode)
    if level is not None and choice.computers and choice.seats[choice.computers[0]].level != level:
        # The menu's level differs from the choice's: every computer plays at the menu's level.
        choice = replace(choice, seats=tuple(replace(s, level=level) if s.kind == "computer" else s
                                             for s in choice.seats))
    return choice


def open_game(storage: Storage, mode: str, save_key: str, seed: int, level: str | None) -> tuple[Match, int]:
    """A new match of ``mode``: the next game of its series if the game on the table finished one
    that is not won yet, else a new match of the remembered choice (a new series if it has one).
    Returns the match and the hand the table has acknowledged (0: no cut for deal to look at)."""
    play = load(storage, mode)
    previous: Match | None = None
    raw = storage.get(save_key)
    if play is not None and raw:
        try:
            previous = Match.from_json(raw)
        except Exception as exc:  # noqa: BLE001 - no readable game: the series cannot go on
            caught("sessions.series.open_game", exc)
            previous = None
    if play is not None and previous is not None and play.owns(previous) and previous.state.is_over:
        nxt = play.after(previous)
        if nxt.series.winner is None:
            first = nxt.series.next_first_dealer()
            match = nxt.choice.match(seed, first)
            save(storage, mode, replace(nxt, current=seed))
            return match, (0 if first is not None else -1)
    choice = choice_for(storage, mode, level)
    match = choice.match(seed)
    save(storage, mode, SeriesPlay(choice, Series(choice.rules, choice.series), current=seed)
         if choice.is_series else None)
    return match, -1
