"""A series on the table: the games score in the header and the summary once the series is won.

Pure markup from a :class:`SeriesScene` (built by :func:`series_scene` from the kept series and the
match on the table). The summary, which lists every game (winner, score, skunk) with its race chart,
is drawn with the record's charts by :func:`web.shell.game_over.series_summary` and reaches the table
as markup.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Sequence

from cribbage.match import Match
from cribbage.state import Event

from web.sessions.series import SeriesPlay
from web.kit.caught import caught

__all__ = ["SeriesScene", "SummaryLine", "series_scene", "series_badge", "side_names"]


@dataclass(frozen=True)
class SummaryLine:
    """One game of the series."""

    number: int
    winner: str
    scores: tuple[int, ...]
    kind: str
    """``win``, ``skunk``, ``double skunk`` or ``lurch``."""
    value: int
    events: tuple[Event, ...]
    """The game's events (its race chart)."""


@dataclass(frozen=True)
class SeriesScene:
    """What the table shows of a series."""

    sides: tuple[str, ...]
    points: tuple[int, ...]
    """Game points per side so far (the finished game on the table counted)."""
    skunks: tuple[int, ...]
    """Skunks (and double skunks) each side has won."""
    first_to: int
    games: int
    """Games finished (the one on the table counted once it is over)."""
    winner: int | None = None
    """The side that won the series (then the summary is drawn)."""
    lines: tuple[SummaryLine, ...] = ()
    names: tuple[str, ...] = ()
    """The seats' names (the charts' legends)."""
    target: int = 121
    """The games' target (the charts' scale)."""
    you: int | None = None
    """The side this device speaks to as "you" (None in hot-seat): the perspective, not a name."""
    game_kind: str = ""
    """The game on the table once it is over: ``win``, ``skunk``, ``double skunk`` or ``lurch`` by the
    series' rule ("" before)."""


def side_names(names: Sequence[str], sides: int) -> tuple[str, ...]:
    """A name per side: the seat's, or a partnership's two names joined."""
    if sides == len(names):
        return tuple(names)
    return tuple(" & ".join(names[s] for s in range(len(names)) if s % sides == side) for side in range(sides))


def series_scene(play: SeriesPlay | None, match: Match, names: Sequence[str],
                 me: int | None = None) -> SeriesScene | None:
    """The series of the match on the table, or None (no series, or the match is not its game)."""
    if play is None or not play.owns(match):
        return None
    shown = play.shown(match)
    rules = shown.rules
    sides = side_names(names, rules.sides)
    skunks = [0] * rules.sides
    for side, _, kind in shown.values():
        if kind in ("skunk", "double skunk", "lurch"):
            skunks[side] += 1
    winner = shown.winner if match.state.is_over else None
    lines: tuple[SummaryLine, ...] = ()
    if winner is not None:
        out = []
        for line in play.lines(match):
            events: tuple[Event, ...] = tuple(match.state.events)
            if line.save:
                try:
                    events = tuple(Match.from_json(line.save).state.events)
                except Exception as exc:  # noqa: BLE001 - a game that cannot be replayed has no chart
                    caught("table.series_view.series_scene", exc)
                    events = ()
            out.append(SummaryLine(line.number, sides[line.winner], line.scores, line.kind, line.value, events))
        lines = tuple(out)
    values = shown.values()
    game_kind: str = values[-1][2] if match.state.is_over and values else ""
    return SeriesScene(sides, shown.points, tuple(skunks), shown.series.first_to, len(shown.games), winner, lines,
                       tuple(names), rules.target, None if me is None else rules.side_of(me), game_kind)


def _esc(text: object) -> str:
    return escape(str(text), quote=True)


def _score_words(scene: SeriesScene) -> str:
    return ", ".join(f"{name} {p}" for name, p in zip(scene.sides, scene.points))


def series_badge(scene: SeriesScene | None) -> str:
    """The header's games score: ``Games 1–0`` (its label names the sides, the target and skunks)."""
    if scene is None:
        return ""
    dash = "\u2013"
    skunks = sum(scene.skunks)
    skunk_words = "" if not skunks else "; skunks: " + ", ".join(
        f"{name} {k}" for name, k in zip(scene.sides, scene.skunks) if k)
    label = f"Series, first to {scene.first_to}: {_score_words(scene)}{skunk_words}"
    tail = f" \u00b7 {skunks} skunk{'s' if skunks != 1 else ''}" if skunks else ""
    return (f'<span class="brand-series" id="series-score" role="status" aria-label="{_esc(label)}" '
            f'title="{_esc(label)}">Games {dash.join(str(p) for p in scene.points)}{_esc(tail)}</span>')
