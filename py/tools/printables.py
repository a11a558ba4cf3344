"""The printable sheets, as PDF (fpdf2): a one-page rule sheet, score sheets and paper boards, each
for Letter and A4. Called by ``build_site.py`` (into ``dist/print/``); also runs alone:

    python py/tools/printables.py OUT_DIR

Nothing is written twice: the rule sheet's text is the Rules dialog's (``web.kit.rules.SECTIONS``) and
the scoring charts are the tables of ``docs/RULES.md``; the 29 hand is counted by the engine; the
lines and the counts no hand makes come from ``Rules`` and ``scoring.possible_totals``; the board
is ``web.kit.board``'s geometry (its holes, rows and lines), drawn for paper.
"""

from __future__ import annotations

import io
import re
from datetime import datetime, timezone
import sys
from pathlib import Path
from typing import Any, Sequence

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "py"))

from fpdf import FPDF  # noqa: E402

from cribbage.cards import parse_card, parse_cards  # noqa: E402
from cribbage.rules import Rules  # noqa: E402
from cribbage.scoring import MAX_SHOW, possible_totals, score_hand  # noqa: E402
from web.kit import board  # noqa: E402
from web.kit import rules as rules_text  # noqa: E402
from web.kit.cards import SUIT_COLOURS, _SUIT_PATHS, rank_text  # noqa: E402

__all__ = ["build_all", "rule_sheet", "score_sheet", "paper_board", "HOLE_RGB"]

PAPERS = {"letter": "Letter", "a4": "A4"}
HOLE_RGB = (0, 0, 0)
"""The holes of the paper board are pure black and nothing else is (the tests count them)."""
INK = (35, 35, 35)
SOFT = (110, 110, 110)
SEAT_RGB = [(224, 69, 47), (45, 111, 210), (47, 157, 82)]
LINE_RGB = (200, 40, 40)
TEXT_SUBS = {"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2014": "-", "\u2013": "-",
             "\u00d7": "x", "\u2026": "...", "\u00b7": "-", "\u2212": "-", "\u200b": ""}


def _latin(text: str) -> str:
    """Text the core PDF fonts can show (they have no curly quotes or dashes beyond Latin-1)."""
    for a, b in TEXT_SUBS.items():
        text = text.replace(a, b)
    return text.encode("latin-1", "replace").decode("latin-1")


def _pdf(paper: str, landscape: bool = False) -> FPDF:
    pdf = FPDF(orientation="L" if landscape else "P", unit="mm", format=PAPERS[paper])
    pdf.set_auto_page_break(False)
    pdf.set_margins(12, 11, 12)
    pdf.set_creator("cribbage (py/tools/printables.py)")
    # A fixed date: the same sources make the same bytes (the site's version is a hash of them).
    pdf.set_creation_date(datetime(2026, 1, 1, tzinfo=timezone.utc))
    pdf.add_page()
    pdf.set_text_color(*INK)
    return pdf


def markdown_tables(text: str) -> list[list[list[str]]]:
    """Every table of a markdown text: rows of cells, the header row first, markup removed."""
    tables: list[list[list[str]]] = []
    current: list[list[str]] = []
    for line in text.splitlines():
        if line.startswith("|"):
            cells = [re.sub(r"\*\*|`", "", c).strip() for c in line.strip().strip("|").split("|")]
            if not all(set(c) <= set("-: ") for c in cells):
                current.append(cells)
        elif current:
            tables.append(current)
            current = []
    if current:
        tables.append(current)
    return tables


def _heading(pdf: FPDF, text: str, size: float = 11.5) -> None:
    pdf.ln(1.2)
    pdf.set_font("Helvetica", "B", size)
    pdf.cell(0, 5.6, _latin(text), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 9)


def _para(pdf: FPDF, text: str, size: float = 9) -> None:
    pdf.set_font("Helvetica", "", size)
    pdf.multi_cell(0, 4.0, _latin(text), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(0.6)


def _table(pdf: FPDF, rows: list[list[str]], widths: Sequence[float]) -> None:
    pdf.set_font("Helvetica", "", 8.6)
    with pdf.table(col_widths=tuple(widths), line_height=4.2, text_align=("LEFT", "RIGHT"),
                   first_row_as_headings=True, borders_layout="HORIZONTAL_LINES",
                   width=sum(widths)) as table:
        for row in rows:
            r = table.row()
            for cell in row:
                r.cell(_latin(cell))
    pdf.ln(1.5)


def _suit(pdf: FPDF, suit: str, x: float, y: float, size: float) -> None:
    colour = SUIT_COLOURS[suit]
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">'
           f'<g fill="{colour}">{_SUIT_PATHS[suit]}</g></svg>')
    pdf.image(io.BytesIO(svg.encode()), x=x, y=y, w=size, h=size)


def _card(pdf: FPDF, code: str, x: float, y: float, w: float = 11.0) -> None:
    """A small card face: its rank and suit, drawn with the page's own suit shapes."""
    card = parse_card(code)
    h = w * 1.4
    pdf.set_draw_color(150, 140, 120)
    pdf.set_fill_color(255, 253, 247)
    pdf.rect(x, y, w, h, style="DF", round_corners=True, corner_radius=1.2)
    suit = card.suit.value
    r, g, b = (int(SUIT_COLOURS[suit][i:i + 2], 16) for i in (1, 3, 5))
    pdf.set_text_color(r, g, b)
    pdf.set_font("Helvetica", "B", 9)
    pdf.set_xy(x + 0.6, y + 0.6)
    pdf.cell(w - 1.2, 4, rank_text(card), align="L")
    _suit(pdf, suit, x + w / 2 - 3, y + h - 7.4, 6)
    pdf.set_text_color(*INK)


def rule_sheet(paper: str) -> bytes:
    """One page: how to play and score, the scoring charts, the 29 hand, the lines of a game."""
    pdf = _pdf(paper)
    pdf.set_title("Cribbage: how to play and score")
    pdf.set_font("Helvetica", "B", 17)
    pdf.cell(0, 8, "Cribbage: how to play and score", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 8.5)
    pdf.set_text_color(*SOFT)
    pdf.cell(0, 4, _latin("Two players, six cards each, a game to 121 (three players: five cards each, one "
                          "to the crib from each and one from the pack)."), new_x="LMARGIN", new_y="NEXT")
    pdf.set_text_color(*INK)
    for heading, paragraphs in rules_text.SECTIONS:
        _heading(pdf, heading)
        for text in paragraphs:
            if "tap" in text.split():  # the app's own instructions are not for paper
                continue
            _para(pdf, text)
    tables = markdown_tables((ROOT / "docs" / "RULES.md").read_text())
    play = next(t for t in tables if t[0][0].startswith("Made by"))
    show = next(t for t in tables if t[0][0].startswith("Combination"))
    width = pdf.epw
    _heading(pdf, "Scoring chart: the play")
    _table(pdf, play, (width * 0.8, width * 0.2))
    _heading(pdf, "Scoring chart: the show (each hand, then the crib, with the starter)")
    _table(pdf, show, (width * 0.62, width * 0.38))
    _heading(pdf, "The 29 hand")
    hand, starter = parse_cards("5C 5D 5H JS"), parse_card("5S")
    scored = score_hand(hand, starter)  # the engine counts it
    y = pdf.get_y() + 0.5
    x = pdf.l_margin
    for c in hand:
        _card(pdf, c.code, x, y)
        x += 12.5
    pdf.set_xy(x, y + 4)
    pdf.set_font("Helvetica", "B", 12)
    pdf.cell(6, 6, "+")
    _card(pdf, starter.code, x + 7, y)
    kinds: dict[str, list[int]] = {}
    for item in scored.items:
        kinds.setdefault(item.kind.value, []).append(item.points)
    words = {"fifteen": "fifteens", "pair": "pairs", "nobs": "his nobs"}
    parts = [f"{len(p)} {words.get(k, k)} {sum(p)}" if len(p) > 1 else f"{words.get(k, k)} {sum(p)}"
             for k, p in kinds.items()]
    pdf.set_xy(x + 22, y + 1)
    pdf.multi_cell(pdf.w - pdf.r_margin - (x + 22), 4.2, _latin(
        f"Three fives and the jack, the fourth five turned up in the jack's suit: {', '.join(parts)}: "
        f"{scored.total}, the most any hand can count."), new_x="LMARGIN", new_y="NEXT")
    pdf.set_y(max(pdf.get_y(), y + 16.5))
    never = sorted(set(range(MAX_SHOW + 1)) - possible_totals())
    classic, short = Rules(), Rules(target=61)
    _para(pdf, f"No hand or crib counts {', '.join(map(str, never[:-1]))} or {never[-1]}; a \"nineteen hand\" "
               "is slang for a hand worth nothing.")
    _heading(pdf, "The end of a game")
    _para(pdf, f"The first to reach {classic.target} wins at once, even in the middle of a count. A loser below "
               f"{classic.skunk_line} is skunked (the win counts 2 games), below {classic.double_skunk_line} "
               f"double-skunked (3 or 4, as agreed). In a game to {short.target} the skunk line is "
               f"{short.skunk_line}.")
    if pdf.page_no() != 1 or pdf.get_y() > pdf.h - 6:
        raise RuntimeError(f"the rule sheet ({paper}) does not fit on one page")
    return bytes(pdf.output())


def score_sheet(paper: str, table: str) -> bytes:
    """One page: a row a deal, and for each player (or team) pegging, hand, crib and running total."""
    players = {"2": 2, "3": 3, "teams": 2}[table]
    teams = table == "teams"
    landscape = players == 3
    pdf = _pdf(paper, landscape)
    who = {"2": "two players", "3": "three players", "teams": "two teams"}[table]
    pdf.set_title(f"Cribbage score sheet, {who}")
    pdf.set_font("Helvetica", "B", 15)
    pdf.cell(0, 7, f"Cribbage score sheet: {who}", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 8.5)
    pdf.set_text_color(*SOFT)
    classic, short = Rules(), Rules(target=61)
    pdf.cell(0, 4, _latin(f"Game to {classic.target} (skunk below {classic.skunk_line}, double skunk below "
                          f"{classic.double_skunk_line}) or {short.target} (skunk below {short.skunk_line}). "
                          "Date: ____________  Game ____ of ____"), new_x="LMARGIN", new_y="NEXT")
    pdf.set_text_color(*INK)
    pdf.ln(2)
    deal_w = 10.0
    group_w = (pdf.epw - deal_w) / players
    cols = ("Peg", "Hands" if teams else "Hand", "Crib", "Total")
    col_w = [group_w * f for f in (0.22, 0.22, 0.22, 0.34)]
    top = pdf.get_y()
    # Names row.
    pdf.set_font("Helvetica", "B", 9.5)
    pdf.set_xy(pdf.l_margin + deal_w, top)
    for p in range(players):
        label = f"Team {'AB'[p]}: ____________ & ____________" if teams else f"Player {p + 1}: ________________"
        pdf.set_fill_color(*[min(255, c + (255 - c) * 3 // 4) for c in SEAT_RGB[p]])
        pdf.cell(group_w, 8, label, border=1, align="C", fill=True)
    pdf.ln(8)
    pdf.set_font("Helvetica", "B", 8.5)
    pdf.cell(deal_w, 6, "Deal", border=1, align="C")
    for _ in range(players):
        for name, w in zip(cols, col_w):
            pdf.cell(w, 6, name, border=1, align="C")
    pdf.ln(6)
    bottom = pdf.h - 16
    row_h = 7.0
    rows = int((bottom - pdf.get_y()) // row_h)
    pdf.set_font("Helvetica", "", 8.5)
    pdf.set_draw_color(150, 150, 150)
    for n in range(1, rows + 1):
        pdf.cell(deal_w, row_h, str(n), border=1, align="C")
        for _ in range(players):
            for w in col_w:
                pdf.cell(w, row_h, "", border=1, fill=False)
        pdf.ln(row_h)
    pdf.set_font("Helvetica", "", 8)
    pdf.set_text_color(*SOFT)
    pdf.ln(1)
    pdf.multi_cell(0, 3.6, _latin(
        "Each deal: pegging in the play, then the hands (pone first, the dealer last) and the dealer's crib; his "
        "heels (2 to the dealer) goes with the pegging. Add each line to the running total: the first to the "
        "target wins at once. No hand counts 19, 25, 26 or 27."), new_x="LMARGIN", new_y="NEXT")
    if pdf.page_no() != 1:
        raise RuntimeError(f"the score sheet ({paper}, {table}) does not fit on one page")
    return bytes(pdf.output())


def paper_board(paper: str, tracks: int) -> bytes:
    """One landscape page: the board of :mod:`web.kit.board` for ``tracks`` players, 121 holes a track,
    with the skunk lines (91) and double skunk lines (61)."""
    layout = board.layout_for(tracks, 121)
    pdf = _pdf(paper, landscape=True)
    pdf.set_title(f"Cribbage board, {tracks} players")
    pdf.set_font("Helvetica", "B", 14)
    pdf.cell(0, 7, f"Cribbage board for {tracks} players: 121 holes a track", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 8.5)
    pdf.set_text_color(*SOFT)
    rules = Rules(players=tracks)
    pdf.multi_cell(0, 3.8, _latin(
        "Two markers a player (coins, pins): each score moves the back one past the front one, so the gap shows "
        "the last score. Out along the outer row (1 to 60), back along the inner row (61 to 120), then the game "
        f"hole. Dashed lines: skunk below {rules.skunk_line}, double skunk below {rules.double_skunk_line}."),
        new_x="LMARGIN", new_y="NEXT")
    pdf.set_text_color(*INK)
    # The board is cut in two halves across the middle (after the sixth group of five holes), the
    # far half drawn under the near one, so the holes are twice the size a one-piece board allows.
    length, width = layout.length, layout.width
    split = (board._along_index(29) + board._along_index(30)) / 2
    lead = board.FIRST - 16  # room before the far half's first holes
    span = max(split + 6, length - split + lead)
    gap = 9.0
    area_w = pdf.epw
    area_h = pdf.h - pdf.get_y() - 16
    scale = min(area_w / span, (area_h - gap) / (2 * width))
    ox = pdf.l_margin + (area_w - span * scale) / 2
    oy = pdf.get_y() + 4
    oy2 = oy + width * scale + gap

    def xy(along: float, across: float) -> tuple[float, float]:
        if along <= split:
            return ox + along * scale, oy + across * scale
        return ox + (along - split + lead) * scale, oy2 + across * scale

    pdf.set_draw_color(120, 90, 60)
    pdf.set_line_width(0.5)
    pdf.rect(ox, oy, (split + 6) * scale, width * scale, round_corners=True, corner_radius=4)
    pdf.rect(ox, oy2, (length - split + lead) * scale, width * scale, round_corners=True, corner_radius=4)
    last = board._along_index(layout.per_row - 1)
    for seat in range(tracks):
        outer, inner = layout.rows[seat]
        lo, hi = min(outer, inner) - 6.5, max(outer, inner) + 6.5
        r, g, b = SEAT_RGB[seat]
        pdf.set_fill_color(r + (255 - r) * 4 // 5, g + (255 - g) * 4 // 5, b + (255 - b) * 4 // 5)
        for a0, a1 in ((board.FIRST - 8, split), (split + 1e-6, last + 8)):
            x0, y0 = xy(a0, lo)
            x1, y1 = xy(a1 if a1 != split else split, hi)
            if a1 == split:
                x1 = ox + (split + 3) * scale
            if a0 > split:
                x0 = ox + (lead + 2) * scale
            pdf.rect(x0, y0, x1 - x0, y1 - y0, style="F", round_corners=True, corner_radius=2)
        # the turn at the far end
        pdf.set_draw_color(r, g, b)
        pdf.set_line_width(0.35)
        ax, ay = xy(last + 4, outer)
        bx, by = xy(last + 4, inner)
        cx, cy = xy(last + 13, (outer + inner) / 2)
        pdf.bezier([(ax, ay), (cx, cy), (bx, by)])
    pdf.set_text_color(*SOFT)
    pdf.set_font("Helvetica", "I", 7.5)
    pdf.set_xy(ox, oy + width * scale + 1)
    pdf.cell((split + 6) * scale, 3.5, "The track goes on in the half below (holes 31-60 out, 61-90 back).", align="R")
    # Lines across the tracks (drawn under the holes).
    top = min(min(r) for r in layout.rows) - 7
    bottom = max(max(r) for r in layout.rows) + 7
    pdf.set_draw_color(*LINE_RGB)
    pdf.set_line_width(0.45)
    pdf.set_font("Helvetica", "B", 7)
    pdf.set_text_color(*LINE_RGB)
    for name, score in (("skunk", rules.skunk_line), ("double skunk", rules.double_skunk_line or 61)):
        along = board.line_along(score, layout)
        x0, y0 = xy(along, top)
        x1, y1 = xy(along, bottom)
        with pdf.local_context(dash_pattern={"dash": 1.4, "gap": 0.9}):
            pdf.line(x0, y0, x1, y1)
        # named under the board, on the side of the line away from the board's end
        at_turn = score - 1 == layout.per_row or along >= split - 1e-6 and along <= split + 1e-6
        pdf.set_xy(x0 - 40 if at_turn else x0, y1 - (bottom - width) * scale + (4.6 if along <= split else 0.8))
        pdf.cell(40, 3.2, f"{name} {score}", align="R" if at_turn else "L")
    # Holes: pure black, nothing else is.
    pdf.set_fill_color(*HOLE_RGB)
    for seat in range(tracks):
        for score in range(0, layout.game_hole + 1):
            for peg in ((0, 1) if score == 0 else (0,)):
                hx, hy = xy(*board.hole_position(score, seat, peg, layout))
                r = (3.4 if score in (0, layout.game_hole) else 2.6) * scale
                pdf.circle(x=hx, y=hy, radius=r, style="F")
    # Numbers every ten holes.
    pdf.set_text_color(90, 70, 50)
    pdf.set_font("Helvetica", "", 6.5)

    def label(along: float, across: float, text: str) -> None:
        x, y = xy(along, across)
        pdf.set_xy(x - 5, y - 1.5)
        pdf.cell(10, 3, text, align="C")

    for n in range(10, layout.per_row + 1, 10):
        for seat in range(tracks):
            label(board._along_index(n - 1), layout.outer_labels[seat], str(n))
    for middle in layout.inner_labels:
        for n in range(layout.per_row + 10, layout.holes + 1, 10):
            label(board._along_index(layout.holes - n), middle, str(n))
        label(board.GAME_ALONG, middle, str(layout.game_hole))
    pdf.set_text_color(*SOFT)
    pdf.set_font("Helvetica", "", 8)
    pdf.set_xy(pdf.l_margin, oy2 + width * scale + 5)
    pdf.cell(0, 4, _latin("Start in the two holes at the left end of your track. Players (colours): "
                          + ", ".join(["red", "blue", "green"][:tracks]) + "."))
    if pdf.page_no() != 1:
        raise RuntimeError("the board does not fit on one page")
    return bytes(pdf.output())


def sheets() -> list[tuple[str, Any]]:
    """(key, maker(paper) -> bytes) for every sheet of :data:`web.kit.rules.PRINTABLES`."""
    makers: dict[str, Any] = {
        "rules": rule_sheet,
        "score-2": lambda paper: score_sheet(paper, "2"),
        "score-3": lambda paper: score_sheet(paper, "3"),
        "score-teams": lambda paper: score_sheet(paper, "teams"),
        "board-2": lambda paper: paper_board(paper, 2),
        "board-3": lambda paper: paper_board(paper, 3),
    }
    return [(key, makers[key]) for key, _ in rules_text.PRINTABLES]


def build_all(out: Path) -> list[str]:
    """Write every sheet in every paper size under ``out`` (the site's root); the paths written."""
    written = []
    for key, make in sheets():
        for paper, _ in rules_text.PAPERS:
            rel = rules_text.printable_path(key, paper)
            path = out / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(make(paper))
            written.append(rel)
    return written


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "print-out")
    for rel in build_all(target):
        print(target / rel)
