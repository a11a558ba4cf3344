"""Charts of the player's record as SVG strings: pure functions, no browser imports.

API (each returns one ``<svg>`` element as a string, with ``role="img"``, an ``aria-label``, a
``<title>`` and a ``<desc>`` that say in words what the picture shows; it scales to its container
through its ``viewBox`` and has no fixed pixel width, so it reads at 360 px):

- ``race_chart(steps, names, target, chances, you)``: the race to 121. ``steps`` is
  ``cribbage.record.race(events)`` (every scoring event with every side's score after it; ``names``
  one a side: two players, three, or two partnerships); the scores step up event by event (the pegging inside each
  hand), a dot marks each seat's score after each hand, a
  ring each lead change; with ``chances`` a band below gives seat ``you``'s chance of winning after
  each hand (``web.shell.chances`` works it out from the replayed match).
  ``hand_ends(steps)`` and ``lead_changes(steps)`` give the same numbers as data.
- ``sources_chart(rows)``: points a hand by source (pegging, hand, crib, heels) as stacked bars;
  ``source_rows(group, player, opponent)`` builds the rows from a ``cribbage.record.GroupStats``:
  the player's, the computer's (or opponents') and the published expert figures, as dealer and pone.
- ``histogram_chart(counts)``: how many hands counted 0, 1, ... 29 points
  (``GroupStats.player.shows``).
- ``trend_chart(trend)``: the coach's view match by match (``GroupStats.trend``): expected points lost
  a discard and a play, oldest match first.

Every text that reaches the markup is escaped.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Mapping, Sequence

from web.kit.board import TRACK_COLOURS
from web.kit.speech import whose
from cribbage.record import EXPERT_DEALER, EXPERT_PONE, SOURCES, GroupStats, RaceStep, TrendPoint

__all__ = ["race_chart", "hand_ends", "lead_changes", "sources_chart", "source_rows", "SourceRow",
           "histogram_chart", "trend_chart", "SEAT_COLOURS", "SOURCE_COLOURS"]

WIDTH = 360
"""The viewBox width: drawn for a phone and scaled up elsewhere."""
SEAT_COLOURS = TRACK_COLOURS
"""The board's track of each side: red, blue and a third player's green, as its pegs and name plates
(partners share their side's); side 1 is also dashed and side 2 dotted, so colour is never the only
cue."""
SOURCE_COLOURS = {"pegging": "#2e7d32", "hand": "#1f5fbf", "crib": "#8e44ad", "heels": "#b7791f"}
FONT = 'font-family="system-ui, sans-serif" font-size="11"'


def _e(text: object) -> str:
    """Escape text for an element or an attribute."""
    return escape(str(text), quote=True)


def _svg(height: int, title: str, desc: str, body: list[str]) -> str:
    label = f"{title}. {desc}"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="100%" '
            f'role="img" aria-label="{_e(label)}" class="chart" {FONT}>'
            f"<title>{_e(title)}</title><desc>{_e(desc)}</desc>{''.join(body)}</svg>")


def _short(name: str, limit: int = 18) -> str:
    """A name cut to fit the legend on a phone (the title and description keep it whole)."""
    return name if len(name) <= limit else name[: limit - 1] + "…"


def _n(x: float) -> str:
    """A coordinate, short."""
    return f"{x:.1f}".rstrip("0").rstrip(".")


# --- the race to 121 ----------------------------------------------------------------------------


def hand_ends(steps: Sequence[RaceStep]) -> list[tuple[int, tuple[int, ...]]]:
    """(hand number, every side's score) after the last scoring event of each hand that scored."""
    out: list[tuple[int, tuple[int, ...]]] = []
    for s in steps:
        scores = tuple(s.scores)
        if out and out[-1][0] == s.hand:
            out[-1] = (s.hand, scores)
        else:
            out.append((s.hand, scores))
    return out


def _leader(scores: Sequence[int]) -> int | None:
    """The side alone in front, or None on a tie for the lead."""
    top = max(scores)
    ahead = [side for side, score in enumerate(scores) if score == top]
    return ahead[0] if len(ahead) == 1 else None


def lead_changes(steps: Sequence[RaceStep]) -> list[tuple[int, int]]:
    """(index in ``steps``, new leader) each time the lead passes to another side (ties keep it)."""
    leader: int | None = None
    out: list[tuple[int, int]] = []
    for i, s in enumerate(steps):
        now = _leader(s.scores)
        now = leader if now is None else now
        if now is not None and leader is not None and now != leader:
            out.append((i, now))
        leader = now
    return out


DASHES = ("", ' stroke-dasharray="5 3"', ' stroke-dasharray="1.5 2.5"')
"""The line of each side: solid, dashed, dotted (so colour is never the only cue)."""
LINE_WORDS = ("solid", "dashed", "dotted")
"""The same in words, for the captions."""


def _others(scores: Sequence[int], side: int) -> str:
    """The other sides' scores: ``98`` or ``98 and 87``."""
    rest = [str(x) for i, x in enumerate(scores) if i != side]
    return rest[0] if len(rest) == 1 else ", ".join(rest[:-1]) + " and " + rest[-1]


def race_chart(steps: Sequence[RaceStep], names: Sequence[str], target: int = 121,
               chances: Sequence[tuple[int, float]] | None = None, you: int = 0) -> str:
    """The race to 121 (see the module docstring): a line a side (two players, three players, or two
    partnerships), in the board's track colours. With ``chances`` (``(hand, chance)``: side
    ``you``'s chance of winning after that hand, hand 0 for the start), a band below the race draws
    that chance hand by hand, on its own scale from 0 to 100%, with the 50% line."""
    sides = len(names)
    band = 62 if chances else 0
    height = 230 + band
    left, right, top, bottom = 30.0, WIDTH - 8.0, 30.0, 230 - 28.0
    n = max(len(steps), 1)
    final = tuple(steps[-1].scores) if steps else (0,) * sides
    ymax = max(target, *final)

    def x(i: int) -> float:
        return left + (right - left) * i / n

    def y(score: int) -> float:
        return bottom - (bottom - top) * score / ymax

    body: list[str] = []
    for mark in [m for m in (0, 30, 60, 90) if m < target - 5] + [target]:  # 60 beside 61 would overlap
        dash = "" if mark in (0, target) else ' stroke-dasharray="2 3"'
        body.append(f'<line x1="{_n(left)}" x2="{_n(right)}" y1="{_n(y(mark))}" y2="{_n(y(mark))}" '
                    f'stroke="#999" stroke-width="{1 if mark == target else 0.5}"{dash}/>'
                    f'<text x="{_n(left - 4)}" y="{_n(y(mark) + 4)}" text-anchor="end" fill="#555">{mark}</text>')
    ends = hand_ends(steps)
    end_index = {}
    for i, s in enumerate(steps):
        end_index[s.hand] = i
    marks = [(hand, x(end_index[hand] + 1)) for hand, _ in ends]
    for _, xe in marks:
        body.append(f'<line x1="{_n(xe)}" x2="{_n(xe)}" y1="{_n(top)}" y2="{_n(bottom)}" stroke="#ddd" '
                    f'stroke-width="0.5"/>')
    for hand, xe in _spaced_labels(marks):
        body.append(f'<text x="{_n(xe)}" y="{_n(bottom + 12)}" text-anchor="end" fill="#555" '
                    f'class="hand-label">{hand}</text>')
    body.append(f'<text x="{_n(right)}" y="{_n(230 - 3)}" text-anchor="end" fill="#555">hand</text>')
    for side in range(sides):
        path = [f"M{_n(x(0))} {_n(y(0))}"]
        for i, s in enumerate(steps):
            path.append(f"H{_n(x(i + 1))}V{_n(y(s.scores[side]))}")
        body.append(f'<path d="{"".join(path)}" fill="none" stroke="{SEAT_COLOURS[side]}" stroke-width="2"'
                    f'{DASHES[side]} data-seat="{side}"/>')
    for hand, scores in ends:
        said = ", ".join(f"{names[side]} {scores[side]}" for side in range(sides))
        for side in range(sides):
            body.append(f'<circle cx="{_n(x(end_index[hand] + 1))}" cy="{_n(y(scores[side]))}" r="2.5" '
                        f'fill="{SEAT_COLOURS[side]}" class="hand-end" data-hand="{hand}" data-seat="{side}" '
                        f'data-score="{scores[side]}"><title>{_e(f"After hand {hand}: {said}")}</title></circle>')
    changes = lead_changes(steps)
    for i, leader in changes:
        s = steps[i]
        tip = f"Hand {s.hand}: {names[leader]} takes the lead, {s.scores[leader]} to {_others(s.scores, leader)}"
        body.append(f'<circle cx="{_n(x(i + 1))}" cy="{_n(y(s.scores[leader]))}" r="5" fill="none" '
                    f'stroke="#222" stroke-width="1.2" class="lead-change" data-step="{i}" data-leader="{leader}">'
                    f'<title>{_e(tip)}</title></circle>')
    # Legend: name, line style and final score of each side (three share the width of two).
    step = (right - left) / sides if sides > 2 else 165.0
    for side in range(sides):
        lx = left + side * step
        body.append(f'<line x1="{_n(lx)}" x2="{_n(lx + 18)}" y1="12" y2="12" stroke="{SEAT_COLOURS[side]}" '
                    f'stroke-width="2"{DASHES[side]}/><text x="{_n(lx + 22)}" y="16" class="legend" '
                    f'data-seat="{side}">{_e(_short(names[side], 18 if sides == 2 else 10))} {final[side]}</text>')
    chance_desc = ""
    if chances:
        points = [
            (x(end_index[h] + 1) if h in end_index else x(0), h, c) for h, c in chances if h == 0 or h in end_index
        ]
        body.extend(_chance_band(points, names[you], you, left, right, 230.0, band))
        said = "; ".join(f"{'start' if h == 0 else f'after hand {h}'} {round(100 * c)}%" for _, h, c in points)
        chance_desc = f" {whose(names[you])} chance of winning (the band below): {said}."
    if steps:
        w = max(range(sides), key=lambda side: final[side])
        title = f"Race to {target}: {names[w]} won {final[w]} to {_others(final, w)}"
    else:
        title = f"Race to {target}: no points yet"
    after = "; ".join(f"{h}: {'–'.join(str(x) for x in scores)}" for h, scores in ends)
    lead = (f"The lead changed {len(changes)} time{'s' if len(changes) != 1 else ''}"
            + (": " + "; ".join(f"hand {steps[i].hand}, {names[s]}" for i, s in changes) if changes else "")
            + ".")
    lines = ", ".join(f"{names[side]} {LINE_WORDS[side]}" for side in range(sides))
    desc = (f"{len(ends)} hands, {len(steps)} scoring events; lines: {lines}. Scores after each hand "
            f"({'–'.join(names)}): {after}. {lead}{chance_desc}")
    return _svg(height, title, desc, body)


DIGIT_WIDTH = 7.0
"""About the width of a digit at the charts' font size (11), in viewBox units."""


def _spaced_labels(marks: Sequence[tuple[int, float]]) -> list[tuple[int, float]]:
    """The hand numbers under the race that fit without touching (each is drawn ending at its line):
    the last hand always, then from the first on, each that clears the one before it and the last.
    Hands that scored little sit close together ("8" and "9" ran into "89")."""
    if not marks:
        return []
    last = marks[-1]

    def clear(a: tuple[int, float], b: tuple[int, float]) -> bool:  # b to the right of a
        return b[1] - a[1] >= DIGIT_WIDTH * len(str(b[0])) + 3

    kept: list[tuple[int, float]] = []
    for mark in marks[:-1]:
        if (not kept or clear(kept[-1], mark)) and clear(mark, last) and mark[1] - DIGIT_WIDTH * len(str(mark[0])) >= 0:
            kept.append(mark)
    return kept + [last]


def _chance_band(points: Sequence[tuple[float, int, float]], name: str, you: int, left: float, right: float,
                 top0: float, band: int) -> list[str]:
    """The band of the race chart: ``name``'s chance of winning after each hand (0 to 100%)."""
    top, bottom = top0 + 16.0, top0 + band - 6.0
    colour = SEAT_COLOURS[you]

    def y(chance: float) -> float:
        return bottom - (bottom - top) * chance

    out = [f'<g class="chance-band" data-seat="{you}">',
           f'<text x="{_n(left)}" y="{_n(top0 + 10)}" fill="#333">{_e(_short(name, 24))}: chance of winning</text>']
    for mark, label in ((0.0, "0"), (0.5, "50%"), (1.0, "100%")):
        dash = ' stroke-dasharray="2 3"' if mark == 0.5 else ""
        out.append(f'<line x1="{_n(left)}" x2="{_n(right)}" y1="{_n(y(mark))}" y2="{_n(y(mark))}" stroke="#999" '
                   f'stroke-width="0.5"{dash}/><text x="{_n(left - 4)}" y="{_n(y(mark) + 3)}" text-anchor="end" '
                   f'fill="#555" font-size="9">{label}</text>')
    if len(points) > 1:
        d = " ".join(f"{'M' if j == 0 else 'L'}{_n(px)} {_n(y(c))}" for j, (px, _, c) in enumerate(points))
        out.append(f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="1.6" class="chance-line"/>')
    for px, hand, c in points:
        when = "At the start" if hand == 0 else f"After hand {hand}"
        out.append(f'<circle cx="{_n(px)}" cy="{_n(y(c))}" r="2.2" fill="{colour}" class="chance" '
                   f'data-hand="{hand}" data-chance="{c:.4f}"><title>{_e(f"{when}: {name} {round(100 * c)}% to win")}'
                   "</title></circle>")
    out.append("</g>")
    return out


# --- points a hand by source --------------------------------------------------------------------


@dataclass(frozen=True)
class SourceRow:
    """One bar: who, as dealer or pone, and average points a hand by source."""

    label: str
    values: Mapping[str, float]
    hands: int | None = None
    """Hands averaged (None for published figures)."""


def source_rows(group: GroupStats, player: str = "You", opponent: str = "Computer") -> list[SourceRow]:
    """The rows of :func:`sources_chart` for one group: player, opponent, expert; dealer then pone
    (the published expert figures are for the classic two-player game: no expert row at another table)."""
    rows: list[SourceRow] = []
    for role, expert in (("dealer", EXPERT_DEALER), ("pone", EXPERT_PONE)):
        for name, side in ((player, group.player), (opponent, group.opponent)):
            n = side.dealer_hands if role == "dealer" else side.pone_hands
            if n:
                rows.append(SourceRow(f"{name} as {role}",
                                      {s: side.average(role, s) or 0.0 for s in SOURCES}, n))
        if not group.rules:
            rows.append(SourceRow(f"Expert as {role}", dict(expert)))
    return rows


def sources_chart(rows: Sequence[SourceRow], title: str = "Points a hand by source") -> str:
    """Stacked bars of average points a hand by source, one row each, with the total at the end."""
    label_w, bar_h, gap, top = 118.0, 16.0, 8.0, 30.0
    height = int(top + len(rows) * (bar_h + gap) + 8)
    scale_max = max([20.0, *(sum(r.values.values()) for r in rows)])
    span = WIDTH - label_w - 40.0
    body: list[str] = []
    for k, s in enumerate(SOURCES):
        lx = 8 + k * 86
        body.append(f'<rect x="{lx}" y="6" width="10" height="10" fill="{SOURCE_COLOURS[s]}"/>'
                    f'<text x="{lx + 14}" y="15">{s}</text>')
    parts = []
    for r, row in enumerate(rows):
        y0 = top + r * (bar_h + gap)
        total = sum(row.values.values())
        body.append(
            f'<text x="{_n(label_w - 6)}" y="{_n(y0 + bar_h - 4)}" text-anchor="end">{_e(_short(row.label, 18))}</text>'
        )
        x0 = label_w
        for s in SOURCES:
            v = row.values.get(s, 0.0)
            if v <= 0:
                continue
            w = span * v / scale_max
            body.append(f'<rect x="{_n(x0)}" y="{_n(y0)}" width="{_n(w)}" height="{_n(bar_h)}" '
                        f'fill="{SOURCE_COLOURS[s]}" data-source="{s}" data-value="{v:.2f}">'
                        f'<title>{_e(f"{row.label}: {s} {v:.1f}")}</title></rect>')
            x0 += w
        body.append(f'<text x="{_n(x0 + 4)}" y="{_n(y0 + bar_h - 4)}">{total:.1f}</text>')
        each = ", ".join(f"{s} {row.values.get(s, 0.0):.1f}" for s in SOURCES if row.values.get(s, 0.0) > 0)
        hands = f" over {row.hands} hands" if row.hands is not None else " (published)"
        parts.append(f"{row.label}: {total:.1f} a hand{hands} ({each})")
    desc = "; ".join(parts) + "." if parts else "No complete hands yet."
    return _svg(height, title, desc, body)


# --- the hand histogram -------------------------------------------------------------------------


def _nice_top(peak: int) -> int:
    """The top of a count axis with three evenly spaced ticks (0, half, top), all whole: 2, 4, 10,
    20, 40, 100... the least at or above ``peak``."""
    step = 1
    while True:
        for m in (1, 2, 5):
            if 2 * m * step >= peak:
                return 2 * m * step
        step *= 10


def histogram_chart(counts: Mapping[int, int], title: str = "Your hand counts") -> str:
    """How many hands counted each number of points, 0 to 29."""
    height = 170
    left, right, top, bottom = 26.0, WIDTH - 6.0, 24.0, height - 22.0
    total = sum(counts.values())
    peak = _nice_top(max([1, *counts.values()]))
    slot = (right - left) / 30
    body: list[str] = []
    for tick in (0, peak // 2, peak):
        ty = bottom - (bottom - top) * tick / peak
        body.append(f'<line x1="{_n(left)}" x2="{_n(right)}" y1="{_n(ty)}" y2="{_n(ty)}" stroke="#ccc" '
                    f'stroke-width="0.5"/><text x="{_n(left - 3)}" y="{_n(ty + 4)}" text-anchor="end" '
                    f'fill="#555">{tick}</text>')
    for points in range(30):
        n = counts.get(points, 0)
        bx = left + points * slot
        if n:
            h = (bottom - top) * n / peak
            body.append(f'<rect x="{_n(bx + 1)}" y="{_n(bottom - h)}" width="{_n(slot - 2)}" height="{_n(h)}" '
                        f'fill="{SOURCE_COLOURS["hand"]}" data-points="{points}" data-count="{n}">'
                        f'<title>{points} points: {n} hand{"s" if n != 1 else ""}</title></rect>')
        if points % 5 == 0 or points == 29:
            body.append(f'<text x="{_n(bx + slot / 2)}" y="{_n(bottom + 12)}" text-anchor="middle" '
                        f'fill="#555">{points}</text>')
    body.append(f'<text x="{_n(right)}" y="{_n(height - 1)}" text-anchor="end" fill="#555">points</text>')
    if total:
        mean = sum(p * n for p, n in counts.items()) / total
        common = max(sorted(counts), key=lambda p: counts[p])
        desc = (f"{total} hands counted, {mean:.1f} points on average; most often {common} points "
                f"({counts[common]} hands); best {max(p for p, n in counts.items() if n)}.")
    else:
        desc = "No hands counted yet."
    return _svg(height, title, desc, body)


# --- the coach's trend ---------------------------------------------------------------------------


def trend_chart(trend: Sequence[TrendPoint], title: str = "Points lost to the expert's choices") -> str:
    """Expected points lost a discard and a play, match by match (oldest first)."""
    height = 170
    left, right, top, bottom = 30.0, WIDTH - 8.0, 26.0, height - 22.0
    values = [v for t in trend for v in (t.per_discard, t.per_play) if v is not None]
    ymax = max([1.0, *values])
    n = max(len(trend) - 1, 1)

    def x(i: int) -> float:
        return left + (right - left) * i / n if len(trend) > 1 else (left + right) / 2

    def y(v: float) -> float:
        return bottom - (bottom - top) * v / ymax

    body: list[str] = []
    for tick in (0.0, ymax / 2, ymax):
        body.append(f'<line x1="{_n(left)}" x2="{_n(right)}" y1="{_n(y(tick))}" y2="{_n(y(tick))}" '
                    f'stroke="#ccc" stroke-width="0.5"/><text x="{_n(left - 3)}" y="{_n(y(tick) + 4)}" '
                    f'text-anchor="end" fill="#555">{tick:.1f}</text>')
    series = (("per_discard", "a discard", SEAT_COLOURS[0], ""), ("per_play", "a play", SEAT_COLOURS[1], "5 3"))
    for k, (attr, label, colour, dash) in enumerate(series):
        points = [(i, getattr(t, attr)) for i, t in enumerate(trend) if getattr(t, attr) is not None]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        if len(points) > 1:
            d = " ".join(f"{'M' if j == 0 else 'L'}{_n(x(i))} {_n(y(v))}" for j, (i, v) in enumerate(points))
            body.append(f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="2"{dash_attr}/>')
        for i, v in points:
            body.append(f'<circle cx="{_n(x(i))}" cy="{_n(y(v))}" r="2.5" fill="{colour}" data-series="{attr}" '
                        f'data-match="{i}" data-value="{v:.3f}"><title>Match {i + 1}: {v:.2f} points lost '
                        f'{label}</title></circle>')
        lx = left + k * 150
        body.append(f'<line x1="{_n(lx)}" x2="{_n(lx + 18)}" y1="12" y2="12" stroke="{colour}" stroke-width="2"'
                    f'{dash_attr}/>'
                    f'<text x="{_n(lx + 22)}" y="16">lost {label}</text>')
    body.append(f'<text x="{_n(right)}" y="{_n(height - 3)}" text-anchor="end" fill="#555">match</text>')
    if trend:
        def first_last(attr: str) -> str:
            vs = [getattr(t, attr) for t in trend if getattr(t, attr) is not None]
            return f"{vs[0]:.2f} in the first, {vs[-1]:.2f} in the latest" if vs else "none yet"
        desc = (f"{len(trend)} matches reviewed by the coach. Points lost a discard: {first_last('per_discard')}; "
                f"a play: {first_last('per_play')}.")
    else:
        desc = "No match reviewed by the coach yet."
    return _svg(height, title, desc, body)
