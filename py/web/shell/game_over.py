"""The finished match's pictures on the table's game-over stage, drawn with the record's charts
(:mod:`web.screens.record.view`, imported when a match first ends) and handed to the table as markup
(:attr:`web.table.scene.Scene.chart`): the race chart with the chance band and the costliest
decisions, and, after a series' deciding game, the series summary with each game's race."""

from __future__ import annotations

from typing import Sequence

from cribbage.view import SeatView
from cribbage.state import Phase

from web.kit.html import esc
from web.kit.winchance import ChanceScene
from web.table.layout import side_names
from web.table.series_view import SeriesScene

__all__ = ["game_over_chart", "series_summary"]


def game_over_chart(view: SeatView, names: Sequence[str], chances: ChanceScene | None,
                    series: SeriesScene | None) -> str:
    """The stage's pictures under the winner once ``view``'s match is won ('' before)."""
    if view.phase is not Phase.GAME_OVER or view.winner is None:
        return ""
    from web.screens.record.view import game_over_html  # the race chart: only a finished match has one

    sides = side_names(names, view.rules)  # a line a side: a seat, or a partnership
    return game_over_html(view.events, sides, chances, target=view.rules.target) + series_summary(series)


def series_summary(scene: SeriesScene | None) -> str:
    """The series summary on the game-over screen of its deciding game (empty before)."""
    if scene is None or scene.winner is None:
        return ""
    from web.screens.record.view import race_figure  # the charts: only a finished game has one

    dash = "\u2013"
    rows = []
    charts = []
    for line in scene.lines:
        how = {"win": "", "skunk": " (skunk)", "double skunk": " (double skunk)", "lurch": " (lurch)"}[line.kind]
        score = dash.join(str(s) for s in line.scores)
        rows.append(f'<tr><th scope="row">Game {line.number}</th><td>{esc(line.winner)}</td><td>{score}</td>'
                    f"<td>{line.value}{esc(how)}</td></tr>")
        if line.events:  # a line a side: two players, three, or two partnerships
            charts.append(f'<div class="series-game"><h4>Game {line.number}</h4>'
                          f"{race_figure(line.events, scene.sides, short=True, target=scene.target)}</div>")
    verb = "win" if scene.winner == scene.you or " & " in scene.sides[scene.winner] else "wins"
    return (
        f'<section class="series-summary" aria-labelledby="series-title" id="series-summary">'
        f'<h3 id="series-title">{esc(scene.sides[scene.winner])} {verb} the series, '
        f"{dash.join(str(p) for p in scene.points)}</h3>"
        '<table class="sheet series-table"><thead><tr><th scope="col">Game</th><th scope="col">Winner</th>'
        '<th scope="col">Score</th><th scope="col">Game points</th></tr></thead>'
        f'<tbody>{"".join(rows)}</tbody></table>{"".join(charts)}</section>'
    )
