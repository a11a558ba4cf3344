"""Each side's chance of winning as markup: the thin bar by the board, the cost of a decision in
words, the game-over list of the match's costliest decisions. Pure strings, no browser imports.

The figures come from :func:`cribbage.ai.winchance.seat_chances` (worked out by
:mod:`web.shell.chances` from the viewing seat's view only); this module only draws them. The bar is
an SVG of two rectangles (their widths are attributes: the page's strict CSP allows no inline style)
in the board's colours, with the figures in words beside it for everyone and in its label for a
screen reader.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence

from web.kit.board import PEG_COLOURS
from web.kit.html import esc

__all__ = ["WinBar", "ChanceScene", "Costly", "bar_html", "percents", "cost_text", "review_line",
           "costliest_html", "BAR_ID"]

BAR_ID = "winbar"
"""The bar's element id (and its region's key)."""


@dataclass(frozen=True)
class WinBar:
    """The bar of one frame."""

    names: tuple[str, str]
    """How this device names the two seats (``("You", "Computer")``)."""
    chances: tuple[float, float] | None = None
    """Seat 0's and seat 1's chance of winning (0.0 to 1.0), as the viewing seat sees the game; None
    while it is being worked out, or while the hot-seat cover is up."""
    hidden: bool = False
    """The hot-seat cover is up: nothing is shown (the figure would come from the other hand)."""
    over: bool = False
    """The game is over: the figures are 100 and 0."""


@dataclass(frozen=True)
class Costly:
    """One of the match's costliest decisions, in words."""

    hand: int
    text: str
    """``"You kept 5-5-J-Q: 8.9; best 5-5-6-J: 9.6 (−0.7 pts, −1.2% to win)."``"""


@dataclass(frozen=True)
class ChanceScene:
    """What a frame shows of the chance of winning (:class:`~web.table.scene.Scene.chances`)."""

    setting: bool | None = None
    """The menu's switch: on, off, or None where it is not offered (a table the model does not cover)."""
    online: bool = False
    """An online game: the menu says the bar shows only this side's view."""
    bar: WinBar | None = None
    """The bar by the board (None: no bar)."""
    race: tuple[tuple[int, float], ...] | None = None
    """Game over: "you"'s chance after each hand, ``(0, first)`` for the start (None: not worked out)."""
    you: int = 0
    """The seat whose chance ``race`` follows."""
    costly: tuple[Costly, ...] | None = None
    """Game over: the match's costliest decisions, costliest first (None: not worked out yet)."""
    costly_wanted: bool = False
    """The game-over screen lists the costliest decisions (against the computer, with the coach)."""


def percents(chances: tuple[float, float], over: bool = False) -> tuple[int, int]:
    """Whole percents that add up to 100. Before the game is over neither side is shown as certain
    (1 to 99): the model gives a chance, not a result.

    >>> percents((0.6213, 0.3787))
    (62, 38)
    >>> percents((0.999, 0.001))
    (99, 1)
    >>> percents((1.0, 0.0), over=True)
    (100, 0)
    """
    first = round(100 * chances[0])
    if not over:
        first = max(1, min(99, first))
    return first, 100 - first


def bar_html(bar: WinBar) -> str:
    """The bar: ``You 62% · Computer 38%`` over a two-colour strip, seat 0 on the left."""
    attrs = f'class="winbar" id="{BAR_ID}"'
    if bar.hidden or bar.chances is None:
        state = "hidden" if bar.hidden else "pending"
        label = ("Chance of winning: not shown while the device passes" if bar.hidden
                 else "Chance of winning: being worked out")
        track = ('<svg class="winbar-track" viewBox="0 0 100 4" preserveAspectRatio="none" aria-hidden="true">'
                 '<rect width="100" height="4" fill="#9aa59d"/></svg>')
        text = "" if bar.hidden else "Chance of winning\u2026"
        return (f'<div {attrs} data-state="{state}" role="img" aria-label="{label}">{track}'
                f'<p class="winbar-text" aria-hidden="true">{esc(text)}</p></div>')
    a, b = bar.chances
    pa, pb = percents(bar.chances, bar.over)
    width = f"{100 * a:.2f}"
    track = ('<svg class="winbar-track" viewBox="0 0 100 4" preserveAspectRatio="none" aria-hidden="true">'
             f'<rect width="{width}" height="4" fill="{PEG_COLOURS[0]}"/>'
             f'<rect x="{width}" width="{100 * b:.2f}" height="4" fill="{PEG_COLOURS[1]}"/></svg>')
    first, second = bar.names
    label = f"Chance of winning: {first} {pa}%, {second} {pb}%"
    return (
        f'<div {attrs} data-state="shown" data-chance0="{a:.4f}" data-chance1="{b:.4f}" role="img" '
        f'aria-label="{esc(label)}">{track}<p class="winbar-text" aria-hidden="true">'
        f'<span class="seat-0"><span class="peg-dot"></span><span class="winbar-name">{esc(first)} </span>{pa}%</span>'
        '<span class="winbar-sep">\u00b7</span>'
        f'<span class="seat-1"><span class="peg-dot"></span><span class="winbar-name">{esc(second)} </span>{pb}%'
        "</span></p></div>"
    )


class _Review(Protocol):
    """What the words need of a :class:`cribbage.ai.coach.DecisionReview` (not imported here: the
    coach loads on first use)."""

    @property
    def text(self) -> str: ...
    @property
    def loss(self) -> float: ...
    @property
    def chance_loss(self) -> float | None: ...
    @property
    def by_chance(self) -> bool: ...


MINUS = "\u2212"


def cost_text(review: _Review) -> str:
    """A decision's cost beside its points: ``"−1.2 pts, −2.3% to win"`` ('' when it cost nothing).
    Near the end the coach values plays by the chance of winning itself: then only the chance."""
    if review.loss <= 1e-9:
        return ""
    chance = review.chance_loss
    if review.by_chance:
        return f"{MINUS}{review.loss:.1f}% to win"
    points = f"{MINUS}{review.loss:.1f} pts"
    if chance is None:
        return points
    return f"{points}, {MINUS}{100 * chance:.1f}% to win"


def review_line(review: _Review, who: str = "") -> str:
    """One line of the coach's review: its sentence, capitalised, with the cost in brackets."""
    text = review.text
    line = who + text[:1].upper() + text[1:]
    cost = cost_text(review)
    return line + (f" ({cost})." if cost else ".")


def costliest_html(costly: Sequence[Costly] | None) -> str:
    """The game-over list of the match's costliest decisions (None: the coach is still at it)."""
    head = '<h3 id="costly-title">Your costliest decisions</h3>'
    if costly is None:
        body = '<p class="costly-pending">The coach is looking through the match\u2026</p>'
        return f'<section class="costly" aria-labelledby="costly-title" aria-busy="true">{head}{body}</section>'
    if not costly:
        body = "<p>None: every decision was the coach\u2019s best (or as good).</p>"
    else:
        body = '<ol class="costly-list">' + "".join(
            f'<li data-hand="{c.hand}">Hand {c.hand}: {esc(c.text)}</li>' for c in costly) + "</ol>"
    return f'<section class="costly" aria-labelledby="costly-title">{head}{body}</section>'
