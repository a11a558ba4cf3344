"""The cribbage board as an SVG string: a wooden board, two tracks of 121 holes, two pegs each.

Each player's track runs out along the outer row (holes 1-60) and back along the inner row (61-120)
to the game hole (121), in twelve groups of five per row, like a real two-track board. The front peg
marks the total; the back peg marks the total before the latest score, so the gap between them is
what was just pegged. Pure functions, no browser: ``board_svg(...)`` returns markup.

Coordinates are computed along the board (``along``) and across it (``across``), then mapped to x/y
for a horizontal board (narrow screens, above the table) or a vertical one (beside the table).
"""

from __future__ import annotations

from functools import lru_cache
from html import escape
from typing import NamedTuple

__all__ = [
    "HOLES",
    "GAME_HOLE",
    "PEG_COLOURS",
    "hole_position",
    "peg_positions",
    "board_svg",
    "board_size",
    "board_label",
    "Peg",
    "pegs_of",
]

HOLES = 120
"""Holes on each track before the game hole."""
GAME_HOLE = 121
PITCH = 10.0
"""Distance between neighbouring holes of a group."""
GROUP_GAP = 7.0
"""Extra space between groups of five."""
FIRST = 44.0
"""Where hole 1 sits along the board."""
LENGTH = 738.0
WIDTH = 120.0
START_HOLES = (14.0, 26.0)
"""The two start holes (front and back peg before any score), on the outer row."""
GAME_ALONG = 20.0
"""The game hole, at the start end of the inner row."""
# Across the board: seat 1's track on the top/left edge, seat 0's (the near player) on the bottom/right.
ROWS = {1: (19.0, 37.0), 0: (101.0, 83.0)}
"""Per seat: (outer row, inner row)."""
LABEL_OUTER = {1: 8.5, 0: 111.5}
LABEL_INNER = 60.0
PEG_COLOURS = ("#e0452f", "#2d6fd2")
"""Seat 0 red, seat 1 blue (the name plates use the same colours)."""
PEG_DARK = ("#8c1f10", "#173f80")


def _along_index(i: int) -> float:
    """Along-board position of the i-th hole of a row (0..59), groups of five."""
    return FIRST + i * PITCH + (i // 5) * GROUP_GAP


def hole_position(score: int, seat: int, peg: int = 0) -> tuple[float, float]:
    """(along, across) of the hole for ``score`` on ``seat``'s track.

    Score 0 is a start hole (``peg`` 0 or 1 picks which of the two); 1-60 run out along the outer
    row, 61-120 come back along the inner row, 121 and beyond is the game hole.

    >>> hole_position(1, 0)[0] == hole_position(120, 0)[0]
    True
    """
    outer, inner = ROWS[seat]
    if score <= 0:
        return START_HOLES[peg], outer
    if score >= GAME_HOLE:
        return GAME_ALONG, inner
    if score <= 60:
        return _along_index(score - 1), outer
    return _along_index(120 - score), inner


def peg_positions(scores: tuple[int, int], previous: tuple[int, int]) -> dict[tuple[int, str], tuple[float, float]]:
    """Where each peg stands: {(seat, "front"|"back"): (along, across)}."""
    out: dict[tuple[int, str], tuple[float, float]] = {}
    for seat in (0, 1):
        front, back = scores[seat], previous[seat]
        out[(seat, "front")] = hole_position(front, seat, 0)
        # Before any score both pegs wait in the two start holes.
        out[(seat, "back")] = hole_position(back, seat, 1 if back <= 0 else 0)
    return out


def board_size(orientation: str) -> tuple[float, float]:
    """(width, height) of the board's viewBox."""
    return (LENGTH, WIDTH) if orientation == "horizontal" else (WIDTH, LENGTH)


def _xy(along: float, across: float, orientation: str) -> tuple[float, float]:
    if orientation == "horizontal":
        return along, across
    # Vertical: the start end at the bottom, pegs travel upwards; seat 1 on the left.
    return across, LENGTH - along


def _f(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


@lru_cache(maxsize=4)
def _static_board(orientation: str) -> str:
    """Everything but the pegs: wood, lanes, holes, numbers (cached: it never changes)."""
    w, h = board_size(orientation)
    vertical = orientation != "horizontal"
    parts: list[str] = []
    parts.append(
        '<defs>'
        '<linearGradient id="board-wood" x1="0" y1="0" x2="{x2}" y2="{y2}">'
        '<stop offset="0" stop-color="#c48a52"/><stop offset=".35" stop-color="#a8713f"/>'
        '<stop offset=".7" stop-color="#b97f49"/><stop offset="1" stop-color="#8f5c2f"/>'
        '</linearGradient>'
        '<linearGradient id="board-edge" x1="0" y1="0" x2="{ex}" y2="{ey}">'
        '<stop offset="0" stop-color="#ffffff" stop-opacity=".25"/>'
        '<stop offset="1" stop-color="#000000" stop-opacity=".25"/></linearGradient>'
        '<radialGradient id="peg-shine" cx=".35" cy=".35" r=".65">'
        '<stop offset="0" stop-color="#ffffff" stop-opacity=".85"/>'
        '<stop offset=".45" stop-color="#ffffff" stop-opacity="0"/></radialGradient>'
        '</defs>'.format(
            x2="0" if vertical else "1", y2="1" if vertical else "0",
            ex="1" if vertical else "0", ey="0" if vertical else "1",
        )
    )
    parts.append(f'<rect class="board-wood" x="1" y="1" width="{_f(w - 2)}" height="{_f(h - 2)}" rx="16" '
                 'fill="url(#board-wood)" stroke="#5b3515" stroke-width="2"/>')
    parts.append(f'<rect x="4" y="4" width="{_f(w - 8)}" height="{_f(h - 8)}" rx="13" fill="none" '
                 'stroke="url(#board-edge)" stroke-width="3"/>')
    # Wood grain: long gentle waves along the board.
    for k, across in enumerate((10, 27, 46, 60, 74, 93, 110)):
        d = []
        along = 8.0
        first = True
        while along <= LENGTH - 8:
            wave = 1.6 * (1 if (int(along / 60) + k) % 2 else -1)
            x, y = _xy(along, across + wave, orientation)
            d.append(f"{'M' if first else 'L'}{_f(x)} {_f(y)}")
            first = False
            along += 60
        parts.append(f'<path d="{" ".join(d)}" fill="none" stroke="#6b3f1a" stroke-opacity=".18" '
                     'stroke-width="1.2" stroke-linecap="round"/>')
    # A lane per player, tinted with the peg colour, under its two rows.
    for seat in (0, 1):
        outer, inner = ROWS[seat]
        lo, hi = min(outer, inner) - 6.5, max(outer, inner) + 6.5
        a0, a1 = FIRST - 8, _along_index(59) + 8
        x0, y0 = _xy(a0, lo, orientation)
        x1, y1 = _xy(a1, hi, orientation)
        parts.append(
            f'<rect class="lane lane-{seat}" x="{_f(min(x0, x1))}" y="{_f(min(y0, y1))}" '
            f'width="{_f(abs(x1 - x0))}" height="{_f(abs(y1 - y0))}" rx="7" fill="{PEG_COLOURS[seat]}" '
            'fill-opacity=".13"/>'
        )
        # The turn at the far end: a groove joining the outer row to the inner row.
        ta, tb = _along_index(59) + 4, _along_index(59) + 13
        p0 = _xy(ta, outer, orientation)
        p1 = _xy(tb, (outer + inner) / 2, orientation)
        p2 = _xy(ta, inner, orientation)
        parts.append(f'<path d="M{_f(p0[0])} {_f(p0[1])} Q{_f(p1[0])} {_f(p1[1])} {_f(p2[0])} {_f(p2[1])}" '
                     f'fill="none" stroke="{PEG_DARK[seat]}" stroke-opacity=".45" stroke-width="1.4" '
                     'stroke-dasharray="2 2.5"/>')
    # A brass inlay down the middle, between the two tracks.
    for offset in (-7.0, 7.0):
        p0 = _xy(FIRST - 10, LABEL_INNER + offset, orientation)
        p1 = _xy(_along_index(59) + 14, LABEL_INNER + offset, orientation)
        parts.append(f'<line x1="{_f(p0[0])}" y1="{_f(p0[1])}" x2="{_f(p1[0])}" y2="{_f(p1[1])}" '
                     'stroke="#e2b96b" stroke-opacity=".55" stroke-width="1"/>')
    # Holes.
    holes: list[str] = []
    for seat in (0, 1):
        for score in range(0, GAME_HOLE + 1):
            pegs = (0, 1) if score == 0 else (0,)
            for peg in pegs:
                x, y = _xy(*hole_position(score, seat, peg), orientation)
                r = 3.4 if score in (0, GAME_HOLE) else 2.6
                holes.append(f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{r}"/>')
    parts.append('<g class="holes" fill="#2a170a" stroke="#e7c18f" stroke-opacity=".55" stroke-width=".7">'
                 + "".join(holes) + "</g>")
    # Numbers every ten holes: outbound (10-60) outside each track, inbound (70-120) in the middle.
    labels: list[str] = []
    for n in range(10, 61, 10):
        along = _along_index(n - 1)
        for seat in (0, 1):
            x, y = _xy(along, LABEL_OUTER[seat], orientation)
            labels.append(f'<text x="{_f(x)}" y="{_f(y)}">{n}</text>')
    for n in range(70, 121, 10):
        x, y = _xy(_along_index(120 - n), LABEL_INNER, orientation)
        labels.append(f'<text x="{_f(x)}" y="{_f(y)}">{n}</text>')
    gx, gy = _xy(GAME_ALONG, LABEL_INNER, orientation)
    labels.append(f'<text x="{_f(gx)}" y="{_f(gy)}">121</text>')
    parts.append('<g class="board-numbers" fill="#3d220b" fill-opacity=".75" font-size="7" font-weight="600" '
                 'text-anchor="middle" dominant-baseline="central" font-family="system-ui, sans-serif">'
                 + "".join(labels) + "</g>")
    return "".join(parts)


class Peg(NamedTuple):
    """One peg as the page draws it: where it stands and what it says."""

    key: str
    """``"0-front"``, ``"1-back"``: its ``data-peg``."""
    x: float
    y: float
    cls: str
    hole: int
    title: str

    @property
    def translate(self) -> str:
        """Its place as a CSS transform (the page moves a peg by this, so it can glide)."""
        return f"translate({_f(self.x)}px, {_f(self.y)}px)"


def pegs_of(scores: tuple[int, int], previous: tuple[int, int], names: tuple[str, str] = ("You", "Computer"),
            orientation: str = "horizontal", moved: tuple[bool, bool] = (False, False)) -> tuple[Peg, ...]:
    """The four pegs: for each seat the back peg (the total before the latest score), then the front."""
    positions = peg_positions(scores, previous)
    out = []
    for seat in (0, 1):
        name = names[seat]
        bx, by = _xy(*positions[(seat, "back")], orientation)
        out.append(Peg(f"{seat}-back", bx, by, f"peg peg-{seat} peg-back", min(previous[seat], GAME_HOLE),
                       f"{name}: back peg at {previous[seat]}"))
        fx, fy = _xy(*positions[(seat, "front")], orientation)
        out.append(Peg(f"{seat}-front", fx, fy, f"peg peg-{seat} peg-front" + (" peg-moved" if moved[seat] else ""),
                       min(scores[seat], GAME_HOLE), f"{name}: {scores[seat]}"))
    return tuple(out)


def _peg(peg: Peg) -> str:
    seat = int(peg.key[0])
    which = peg.key[2:]
    colour, dark = PEG_COLOURS[seat], PEG_DARK[seat]
    r = 5.2 if which == "front" else 4.5
    opacity = "1" if which == "front" else ".72"
    # Drawn at the origin and translated: the page moves a peg by its transform alone.
    return (
        f'<g class="{peg.cls}" data-peg="{peg.key}" data-hole="{peg.hole}" opacity="{opacity}" '
        f'transform="translate({_f(peg.x)} {_f(peg.y)})">'
        f"<title>{escape(peg.title)}</title>"
        f'<g class="peg-body"><circle cx=".8" cy="1.1" r="{r}" fill="#000" fill-opacity=".35"/>'
        f'<circle r="{r}" fill="{colour}" stroke="{dark}" stroke-width="1.1"/>'
        f'<circle r="{r}" fill="url(#peg-shine)"/></g>'
        "</g>"
    )


def board_label(scores: tuple[int, int], names: tuple[str, str]) -> str:
    """The board's spoken label."""
    return f"Cribbage board. {names[0]} {scores[0]}, {names[1]} {scores[1]}, game is 121."


def board_svg(
    scores: tuple[int, int],
    previous: tuple[int, int],
    names: tuple[str, str] = ("You", "Computer"),
    orientation: str = "horizontal",
    moved: tuple[bool, bool] = (False, False),
) -> str:
    """The whole board with the four pegs, as an ``<svg>`` string.

    ``moved`` marks a seat whose front peg just advanced (the stylesheet gives it a short pop,
    unless the player prefers reduced motion).
    """
    if orientation not in ("horizontal", "vertical"):
        raise ValueError(f"unknown orientation {orientation!r}")
    w, h = board_size(orientation)
    pegs = "".join(_peg(p) for p in pegs_of(scores, previous, names, orientation, moved))
    return (
        f'<svg class="board board-{orientation}" viewBox="0 0 {_f(w)} {_f(h)}" role="img" '
        f'aria-label="{escape(board_label(scores, names))}" preserveAspectRatio="xMidYMid meet">'
        + _static_board(orientation)
        + '<g class="pegs">' + pegs + "</g></svg>"
    )
