"""The printable sheets (py/tools/printables.py, fpdf2): every sheet one page in Letter and A4, the
rule sheet's headings and scoring charts in its text (pdftotext), and the paper boards' holes counted
in the rendered picture (pdftoppm): pure black is used for the holes only, so each dark blob is one
hole — 120 a track, the game hole and the two start holes, 123 a track."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "py" / "tools"))

pytest.importorskip("fpdf", reason="fpdf2 is in the build extras: pip install -e '.[build]'")
import printables  # noqa: E402

from web.kit.rules import PAPERS, PRINTABLES, printable_path  # noqa: E402

POPPLER = shutil.which("pdftoppm") and shutil.which("pdftotext") and shutil.which("pdfinfo")
needs_poppler = pytest.mark.skipif(not POPPLER, reason="poppler-utils (pdftoppm, pdftotext) is not installed")
SIZES = {"letter": (612, 792), "a4": (595, 842)}  # points, portrait


@pytest.fixture(scope="module")
def sheets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("print")
    written = printables.build_all(out)
    assert sorted(written) == sorted(printable_path(k, p) for k, _ in PRINTABLES for p, _ in PAPERS)
    return out


def text_of(path: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


@needs_poppler
@pytest.mark.parametrize("key", [k for k, _ in PRINTABLES])
@pytest.mark.parametrize("paper", [p for p, _ in PAPERS])
def test_every_sheet_is_one_page_of_its_paper(sheets: Path, key: str, paper: str) -> None:
    info = subprocess.run(["pdfinfo", str(sheets / printable_path(key, paper))], capture_output=True, text=True,
                          check=True).stdout
    fields = dict(line.split(":", 1) for line in info.splitlines() if ":" in line)
    assert fields["Pages"].strip() == "1"
    w, h = (round(float(v)) for v in fields["Page size"].split("pts")[0].split(" x "))
    assert sorted((w, h)) == sorted(SIZES[paper])


@needs_poppler
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_the_rule_sheet_holds_the_rules_headings_the_charts_and_the_29_hand(sheets: Path, paper: str) -> None:
    text = " ".join(text_of(sheets / printable_path("rules", paper)).split())
    for heading in ("How to play", "Scoring in the play", "Scoring in the show", "Scoring chart: the play",
                    "Scoring chart: the show", "The 29 hand", "The end of a game"):
        assert heading in text
    for row in ("the count reaches exactly 15 2", "four of a rank in a row (a double pair royal) 12",
                "his nobs: the jack of the starter's suit among the four cards 1"):
        assert row in text
    assert "his nobs 1: 29, the most any hand can count" in text
    assert "No hand or crib counts 19, 25, 26 or 27" in text
    assert "below 91 is skunked" in text and "below 61 double-skunked" in text and "skunk line is 31" in text


@needs_poppler
@pytest.mark.parametrize("table,groups", [("2", 2), ("3", 3), ("teams", 2)])
def test_the_score_sheets_have_a_row_a_deal_and_columns_for_each_side(sheets: Path, table: str, groups: int) -> None:
    text = text_of(sheets / printable_path(f"score-{table}", "a4"))
    header = next(line for line in text.splitlines() if "Deal" in line and "Peg" in line)
    assert header.split().count("Peg") == groups and header.split().count("Total") == groups
    assert header.split().count("Crib") == groups
    rows = [line.split()[0] for line in text.splitlines() if line.split() and line.split()[0].isdigit()]
    assert rows[:3] == ["1", "2", "3"] and len(rows) >= 20  # one row a deal: more than any game needs
    if table == "teams":
        assert "Team A" in text and "Hands" in header


def dark_blobs(ppm: bytes) -> list[int]:
    """Sizes of the 4-connected blobs of pure black pixels in a binary PPM (P6)."""
    parts = ppm.split(maxsplit=4)
    assert parts[0] == b"P6" and parts[3] == b"255"
    w, h, data = int(parts[1]), int(parts[2]), parts[4]
    dark = bytearray(w * h)
    for i in range(w * h):
        if data[3 * i] + data[3 * i + 1] + data[3 * i + 2] < 30:
            dark[i] = 1
    sizes = []
    for start in range(w * h):
        if not dark[start]:
            continue
        dark[start] = 0
        stack, n = [start], 0
        while stack:
            p = stack.pop()
            n += 1
            x = p % w
            for q in (p - w, p + w, p - 1 if x else -1, p + 1 if x < w - 1 else -1):
                if 0 <= q < w * h and dark[q]:
                    dark[q] = 0
                    stack.append(q)
        sizes.append(n)
    return sizes


@needs_poppler
@pytest.mark.parametrize("tracks", [2, 3])
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_the_paper_board_has_121_holes_a_track_plus_two_start_holes(sheets: Path, tracks: int, paper: str) -> None:
    pdf = sheets / printable_path(f"board-{tracks}", paper)
    ppm = subprocess.run(["pdftoppm", "-r", "100", str(pdf)], capture_output=True, check=True).stdout
    blobs = [n for n in dark_blobs(ppm) if n >= 4]  # specks of antialiasing are not holes
    assert len(blobs) == tracks * (120 + 1 + 2)
    text = " ".join(text_of(pdf).split())
    assert "skunk 91" in text and "double skunk 61" in text and "121" in text


def test_the_same_sources_make_the_same_bytes(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    printables.build_all(a)
    printables.build_all(b)
    for rel in printables.build_all(a):
        assert (a / rel).read_bytes() == (b / rel).read_bytes(), rel
