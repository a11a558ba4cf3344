"""The cribbage board as an SVG string: a wooden board, two tracks of 121 holes, two pegs each
(or, for the scorekeeper, three tracks, or tracks of 61 holes for a game to 61: :class:`Layout`).

Each player's track runs out along the outer row (holes 1-60) and back along the inner row (61-120)
to the game hole (121), in twelve groups of five per row, like a real two-track board. The front peg
marks the total; the back peg marks the total before the latest score, so the gap between them is
what was just pegged. Pure functions, no browser: ``board_svg(...)`` returns markup.

Coordinates are computed along the board (``along``) and across it (``across``), then mapped to x/y
for a horizontal board (narrow screens, above the table) or a vertical one (beside the table).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from html import escape
from typing import NamedTuple, Sequence

__all__ = [
    "Layout",
    "LAYOUT",
    "layout_for",
    "TRACK_COLOURS",
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
    "back_pegs",
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
LABEL_INNER = 60.0
PEG_COLOURS = ("#e0452f", "#2d6fd2")
"""Seat 0 red, seat 1 blue (the name plates use the same colours)."""
PEG_DARK = ("#8c1f10", "#173f80")
TRACK_COLOURS = (*PEG_COLOURS, "#2f9d52")
"""A third track (three players, in the scorekeeper) is green."""
TRACK_DARK = (*PEG_DARK, "#17592d")


@dataclass(frozen=True)
class Layout:
    """Where the tracks run. The game's board is :data:`LAYOUT`; :func:`layout_for` gives the
    scorekeeper's (two or three tracks, a game to 121 or 61)."""

    rows: tuple[tuple[float, float], ...] = ((101.0, 83.0), (19.0, 37.0))
    """Per track: (outer row, inner row), across the board."""
    holes: int = HOLES
    """Holes on a track before the game hole: 120 (twice 60 along the board), or 60."""
    width: float = WIDTH
    outer_labels: tuple[float, ...] = (111.5, 8.5)
    """Per track: where the outbound numbers stand across the board."""
    inner_labels: tuple[float, ...] = (LABEL_INNER,)
    """Where the inbound numbers (and the game hole's) stand: shared by the tracks beside them."""
    brass: tuple[float, ...] = (LABEL_INNER,)
    """Brass inlays between tracks (a pair of lines around each)."""
    grain: tuple[float, ...] = (10, 27, 46, 60, 74, 93, 110)

    @property
    def per_row(self) -> int:
        return self.holes // 2

    @property
    def length(self) -> float:
        return _along_index(self.per_row - 1) + LENGTH - _along_index(59)

    @property
    def tracks(self) -> int:
        return len(self.rows)

    @property
    def game_hole(self) -> int:
        return self.holes + 1


LAYOUT = Layout()
"""The game's board: two tracks of 120 holes and a game hole."""


def layout_for(tracks: int, target: int = GAME_HOLE) -> Layout:
    """The board for ``tracks`` (2 or 3) tracks in a game to ``target`` (121 or 61): three tracks
    make a wider board (seat 0 nearest, seat 1 farthest, seat 2 between), 61 a shorter one."""
    holes = target - 1
    if tracks == 2:
        return LAYOUT if holes == HOLES else Layout(holes=holes)
    if tracks != 3:
        raise ValueError(f"a board has 2 or 3 tracks, not {tracks}")
    return Layout(rows=((151.0, 133.0), (19.0, 37.0), (76.0, 94.0)), holes=holes, width=170.0,
                  outer_labels=(161.5, 8.5, 56.5), inner_labels=(56.5, 113.5), brass=(113.5,),
                  grain=(10, 27, 46, 66, 85, 104, 124, 143, 160))


def _along_index(i: int) -> float:
    """Along-board position of the i-th hole of a row (0..59), groups of five."""
    return FIRST + i * PITCH + (i // 5) * GROUP_GAP


def hole_position(score: int, seat: int, peg: int = 0, layout: Layout = LAYOUT) -> tuple[float, float]:
    """(along, across) of the hole for ``score`` on ``seat``'s track.

    Score 0 is a start hole (``peg`` 0 or 1 picks which of the two); 1-60 run out along the outer
    row, 61-120 come back along the inner row, 121 and beyond is the game hole (on a board for a
    game to 61: 1-30 out, 31-60 back, 61 the game hole).

    >>> hole_position(1, 0)[0] == hole_position(120, 0)[0]
    True
    """
    outer, inner = layout.rows[seat]
    half = layout.per_row
    if score <= 0:
        return START_HOLES[peg], outer
    if score >= layout.game_hole:
        return GAME_ALONG, inner
    if score <= half:
        return _along_index(score - 1), outer
    return _along_index(layout.holes - score), inner


def peg_positions(scores: Sequence[int], previous: Sequence[int],
                  layout: Layout = LAYOUT) -> dict[tuple[int, str], tuple[float, float]]:
    """Where each peg stands: {(seat, "front"|"back"): (along, across)}."""
    out: dict[tuple[int, str], tuple[float, float]] = {}
    for seat in range(layout.tracks):
        front, back = scores[seat], previous[seat]
        out[(seat, "front")] = hole_position(front, seat, 0, layout)
        # Before any score both pegs wait in the two start holes.
        out[(seat, "back")] = hole_position(back, seat, 1 if back <= 0 else 0, layout)
    return out


def line_along(score: int, layout: Layout = LAYOUT) -> float:
    """Where a line "below ``score``" crosses the tracks: between the holes of ``score`` - 1 and
    ``score`` (past the far end of the board when they are either side of the turn)."""
    if score - 1 == layout.per_row:
        return _along_index(layout.per_row - 1) + 9.0
    a = hole_position(score - 1, 0, 0, layout)[0]
    b = hole_position(score, 0, 0, layout)[0]
    return (a + b) / 2


def board_size(orientation: str, layout: Layout = LAYOUT) -> tuple[float, float]:
    """(width, height) of the board's viewBox."""
    length = layout.length
    return (length, layout.width) if orientation == "horizontal" else (layout.width, length)


def _xy(along: float, across: float, orientation: str, length: float = LENGTH) -> tuple[float, float]:
    if orientation == "horizontal":
        return along, across
    # Vertical: the start end at the bottom, pegs travel upwards; seat 1 on the left.
    return across, length - along


def _f(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


@lru_cache(maxsize=16)
def _static_board(orientation: str, layout: Layout = LAYOUT) -> str:
    """Everything but the pegs: wood, lanes, holes, numbers (cached: it never changes)."""
    w, h = board_size(orientation, layout)
    length = layout.length
    last = _along_index(layout.per_row - 1)  # the far end's holes

    def xy(along: float, across: float) -> tuple[float, float]:
        return _xy(along, across, orientation, length)

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
    for k, across in enumerate(layout.grain):
        d = []
        along = 8.0
        first = True
        while along <= length - 8:
            wave = 1.6 * (1 if (int(along / 60) + k) % 2 else -1)
            x, y = xy(along, across + wave)
            d.append(f"{'M' if first else 'L'}{_f(x)} {_f(y)}")
            first = False
            along += 60
        parts.append(f'<path d="{" ".join(d)}" fill="none" stroke="#6b3f1a" stroke-opacity=".18" '
                     'stroke-width="1.2" stroke-linecap="round"/>')
    # A lane per player, tinted with the peg colour, under its two rows.
    for seat in range(layout.tracks):
        outer, inner = layout.rows[seat]
        lo, hi = min(outer, inner) - 6.5, max(outer, inner) + 6.5
        a0, a1 = FIRST - 8, last + 8
        x0, y0 = xy(a0, lo)
        x1, y1 = xy(a1, hi)
        parts.append(
            f'<rect class="lane lane-{seat}" x="{_f(min(x0, x1))}" y="{_f(min(y0, y1))}" '
            f'width="{_f(abs(x1 - x0))}" height="{_f(abs(y1 - y0))}" rx="7" fill="{TRACK_COLOURS[seat]}" '
            'fill-opacity=".13"/>'
        )
        # The turn at the far end: a groove joining the outer row to the inner row.
        ta, tb = last + 4, last + 13
        p0 = xy(ta, outer)
        p1 = xy(tb, (outer + inner) / 2)
        p2 = xy(ta, inner)
        parts.append(f'<path d="M{_f(p0[0])} {_f(p0[1])} Q{_f(p1[0])} {_f(p1[1])} {_f(p2[0])} {_f(p2[1])}" '
                     f'fill="none" stroke="{TRACK_DARK[seat]}" stroke-opacity=".45" stroke-width="1.4" '
                     'stroke-dasharray="2 2.5"/>')
    # A brass inlay down the middle, between the tracks.
    for middle in layout.brass:
        for offset in (-7.0, 7.0):
            p0 = xy(FIRST - 10, middle + offset)
            p1 = xy(last + 14, middle + offset)
            parts.append(f'<line x1="{_f(p0[0])}" y1="{_f(p0[1])}" x2="{_f(p1[0])}" y2="{_f(p1[1])}" '
                         'stroke="#e2b96b" stroke-opacity=".55" stroke-width="1"/>')
    # Holes.
    holes: list[str] = []
    for seat in range(layout.tracks):
        for score in range(0, layout.game_hole + 1):
            pegs = (0, 1) if score == 0 else (0,)
            for peg in pegs:
                x, y = xy(*hole_position(score, seat, peg, layout))
                r = 3.4 if score in (0, layout.game_hole) else 2.6
                holes.append(f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{r}"/>')
    parts.append('<g class="holes" fill="#2a170a" stroke="#e7c18f" stroke-opacity=".55" stroke-width=".7">'
                 + "".join(holes) + "</g>")
    # Numbers every ten holes: outbound outside each track, inbound in the middle.
    half = layout.per_row
    labels: list[str] = []
    for n in range(10, half + 1, 10):
        along = _along_index(n - 1)
        for seat in range(layout.tracks):
            x, y = xy(along, layout.outer_labels[seat])
            labels.append(f'<text x="{_f(x)}" y="{_f(y)}">{n}</text>')
    for middle in layout.inner_labels:
        for n in range(half + 10, layout.holes + 1, 10):
            x, y = xy(_along_index(layout.holes - n), middle)
            labels.append(f'<text x="{_f(x)}" y="{_f(y)}">{n}</text>')
        gx, gy = xy(GAME_ALONG, middle)
        labels.append(f'<text x="{_f(gx)}" y="{_f(gy)}">{layout.game_hole}</text>')
    parts.append('<g class="board-numbers" fill="#3d220b" fill-opacity=".75" font-size="7" font-weight="600" '
                 'text-anchor="middle" dominant-baseline="central" font-family="system-ui, sans-serif">'
                 + "".join(labels) + "</g>")
    return "".join(parts)


def _lines_svg(lines: Sequence[tuple[str, int]], orientation: str, layout: Layout) -> str:
    """A line across every track below each score in ``lines`` (("skunk", 91)...), with its name."""
    if not lines:
        return ""
    out: list[str] = []
    length = layout.length
    top = min(min(r) for r in layout.rows) - 7
    bottom = max(max(r) for r in layout.rows) + 7
    for name, score in lines:
        along = line_along(score, layout)
        x0, y0 = _xy(along, top, orientation, length)
        x1, y1 = _xy(along, bottom, orientation, length)
        short = {"skunk": "S", "double skunk": "SS", "lurch": "L"}.get(name, "") + str(score)
        text = ""
        if orientation == "horizontal":
            if score - 1 == layout.per_row:  # at the turn: upright, between the line and the end
                mid = (top + bottom) / 2
                text = (f'<text x="{_f(along + 5)}" y="{_f(mid)}" transform="rotate(90 {_f(along + 5)} {_f(mid)})" '
                        f'text-anchor="middle">{short}</text>')
            else:  # beside the line, on the bottom edge, clear of the numbers
                text = f'<text x="{_f(along + 3)}" y="{_f(layout.width - 6)}">{short}</text>'
        out.append(f'<g class="board-line" data-line="{escape(name)}" data-score="{score}">'
                   f'<title>{escape(name.capitalize())} line: below {score}</title>'
                   f'<line x1="{_f(x0)}" y1="{_f(y0)}" x2="{_f(x1)}" y2="{_f(y1)}" stroke="#1d1d1d" '
                   'stroke-width="1.6" stroke-dasharray="4 2.5" stroke-opacity=".8"/>'
                   + (f'<g font-size="6" font-weight="700" fill="#1d1d1d" '
                      f'font-family="system-ui, sans-serif">{text}</g>' if text else "")
                   + "</g>")
    return "".join(out)


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


def pegs_of(scores: Sequence[int], previous: Sequence[int], names: Sequence[str] = ("You", "Computer"),
            orientation: str = "horizontal", moved: Sequence[bool] = (False, False),
            layout: Layout = LAYOUT) -> tuple[Peg, ...]:
    """The pegs: for each track the back peg (the total before the latest score), then the front."""
    positions = peg_positions(scores, previous, layout)
    length = layout.length
    game = layout.game_hole
    out = []
    for seat in range(layout.tracks):
        name = names[seat]
        bx, by = _xy(*positions[(seat, "back")], orientation, length)
        out.append(Peg(f"{seat}-back", bx, by, f"peg peg-{seat} peg-back", min(previous[seat], game),
                       f"{name}: back peg at {previous[seat]}"))
        fx, fy = _xy(*positions[(seat, "front")], orientation, length)
        popped = seat < len(moved) and moved[seat]
        out.append(Peg(f"{seat}-front", fx, fy, f"peg peg-{seat} peg-front" + (" peg-moved" if popped else ""),
                       min(scores[seat], game), f"{name}: {scores[seat]}"))
    return tuple(out)


def _peg(peg: Peg) -> str:
    seat_text, which = peg.key.split("-")
    seat = int(seat_text)
    colour, dark = TRACK_COLOURS[seat], TRACK_DARK[seat]
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


def board_label(scores: Sequence[int], names: Sequence[str], layout: Layout = LAYOUT) -> str:
    """The board's spoken label."""
    said = ", ".join(f"{names[s]} {scores[s]}" for s in range(layout.tracks))
    return f"Cribbage board. {said}, game is {layout.game_hole}."


def board_svg(
    scores: Sequence[int],
    previous: Sequence[int],
    names: Sequence[str] = ("You", "Computer"),
    orientation: str = "horizontal",
    moved: Sequence[bool] = (False, False),
    layout: Layout = LAYOUT,
    lines: Sequence[tuple[str, int]] = (),
) -> str:
    """The whole board with two pegs a track, as an ``<svg>`` string.

    ``moved`` marks a seat whose front peg just advanced (the stylesheet gives it a short pop,
    unless the player prefers reduced motion). ``lines`` are drawn across the tracks (the
    scorekeeper's skunk lines: ``(("skunk", 91), ("double skunk", 61))``).
    """
    if orientation not in ("horizontal", "vertical"):
        raise ValueError(f"unknown orientation {orientation!r}")
    w, h = board_size(orientation, layout)
    pegs = "".join(_peg(p) for p in pegs_of(scores, previous, names, orientation, moved, layout))
    return (
        f'<svg class="board board-{orientation}" viewBox="0 0 {_f(w)} {_f(h)}" role="img" '
        f'aria-label="{escape(board_label(scores, names, layout))}" preserveAspectRatio="xMidYMid meet">'
        + _static_board(orientation, layout)
        + _lines_svg(lines, orientation, layout)
        + '<g class="pegs">' + pegs + "</g></svg>"
    )


def back_pegs(scores: Sequence[int], previous: Sequence[int], history: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """Where the back pegs stand: the total before the latest score, except after a put back (muggins:
    an over-claim called, a score that went down). A player put back moves the front peg back and
    leaves the back peg where it was, so it stays behind the front: where it stood before the claim.
    ``history``: each side's total after every event, in order.

    >>> back_pegs((28, 5), (30, 0), [(0, 0), (22, 0), (30, 0), (28, 0), (28, 5)])
    (22, 0)
    """
    out = list(previous)
    for side in range(len(scores)):
        if previous[side] <= scores[side]:
            continue
        front = back = 0
        for totals in history:
            now = totals[side] if side < len(totals) else front
            if now > front:
                back, front = front, now
            elif now < front:
                front = now
        out[side] = min(back, scores[side])
    return tuple(out)
