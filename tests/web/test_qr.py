"""The room link's QR code: the vendored encoder (uqr, called through static/net.js's ``qr()``, run
in Node) against segno, module for module, and the SVG that web/kit/qr_svg.py draws of it.

segno (a pure-Python QR library, in the ``test`` extra) is the independent implementation. Two
known differences are allowed for rather than copied:

* segno 1.6.6 adds eight zero bits after the terminator when the bit stream already ends on a
  codeword boundary (heuer/segno#148, open); the standard adds none, so the tests run segno with
  that one function corrected.
* segno scores the masks before the format information is drawn; uqr (Nayuki's QR Code generator)
  scores the finished symbol, as ZXing does, so the two may choose different masks. The
  comparisons therefore find the mask whose segno symbol is the one drawn (the format information
  names it; a wrong one would differ there).
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Iterator

import pytest

from web.kit.qr_svg import QUIET_ZONE, parse_modules, qr_svg
from web.sessions.online import peer as online

ROOT = Path(__file__).resolve().parents[2]
NET_JS = ROOT / "static" / "net.js"
UQR = ROOT / "node_modules" / "uqr" / "dist" / "index.mjs"
SVG = "{http://www.w3.org/2000/svg}"

Modules = tuple[tuple[bool, ...], ...]

ROOM_LINK = (
    "https://cribbage.example.org/?room=r0123456789abcdef0123#k=" + "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdE"
)
TEXTS = [
    "a",
    "hello",
    "HELLO WORLD 42",  # alphanumeric-only: still byte mode, as the page always drew it
    ROOM_LINK,
    online.room_link(online.OnlineEnv(page_url="https://cribbage.example.org/play/",
                                      link_query="&signal=https%3A%2F%2Fsignal.example.org%2Fcribbage"),
                     "r" + "5a" * 10, "Zq7" * 14 + "x"),
    "https://cribbage.example.org/play/?room=" + "Zq7" * 53,  # about 200 characters
    "Crib ♠♥♦♣ — Ünïcödé 日本語 🃏",
    "é",  # Latin-1 representable: must still be sent as UTF-8 (two bytes)
    "x" * 700,
]

PROBE = r"""
const fs = require("fs"), vm = require("vm");
const [source, base, texts] = [fs.readFileSync(process.argv[1], "utf8"), process.argv[2], JSON.parse(process.argv[3])];
const document = { currentScript: { dataset: { peerjs: "./vendor/peerjs.min.js", qr: process.argv[4] } },
                   baseURI: base, querySelector() { return null; } };
const context = { window: { location: { search: "" } }, document, URL, URLSearchParams, JSON, TextEncoder,
                  Array, Promise, setTimeout, clearTimeout, console };
vm.createContext(context);
vm.runInContext(source, context, { importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER });
const net = context.window.cribbageNet;
let readies = 0;
const before = net.qr(texts[0], () => { readies += 1; });
const again = net.qr(texts[0], "not a function");  // still loading: "" again, nothing thrown
setTimeout(() => {
  const rows = texts.map((t) => net.qr(t, () => { readies += 100; }));
  setTimeout(() => process.stdout.write(JSON.stringify({ before, again, readies, rows })), 20);
}, 1000);
"""


@pytest.fixture(scope="module")
def drawn() -> dict[str, Any]:
    """net.js's qr() for every text (the vendored uqr imported on first use), run once in Node."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    if not UQR.is_file():
        pytest.skip("node_modules/uqr is missing: run `npm ci`")
    texts = [*TEXTS, *random_links(), "x" * 3000]
    run = subprocess.run([node, "--no-warnings", "-e", PROBE, str(NET_JS), ROOT.as_uri() + "/", json.dumps(texts),
                          "./node_modules/uqr/dist/index.mjs"], capture_output=True, text=True, timeout=60, check=True)
    result = json.loads(run.stdout)
    result["by_text"] = dict(zip(texts, result["rows"]))
    return result


def random_links() -> list[str]:
    rng = random.Random(9)
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/?#=&%é♣"
    return ["https://x.org/?room=" + "".join(rng.choice(alphabet) for _ in range(n)) for n in range(1, 260, 7)]


@pytest.fixture(scope="module")
def segno() -> Iterator[Any]:
    """segno with its codeword-boundary padding corrected (heuer/segno#148)."""
    segno = pytest.importorskip("segno", reason="segno is in the test extras: pip install -e '.[test]'")
    from segno import consts, encoder

    def write_padding_bits(buff: Any, version: int, length: int) -> None:
        if version not in (consts.VERSION_M1, consts.VERSION_M3):
            buff.extend([0] * (-length % 8))

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(encoder, "write_padding_bits", write_padding_bits)
        yield segno


def segno_modules(segno: Any, data: bytes, version: int | None, mask: int | None) -> tuple[int, Modules]:
    """segno's symbol (its version, its modules) for the same bytes: byte mode, level M, no boost."""
    code = segno.make(data, error="m", version=version, mode="byte", mask=mask, boost_error=False, micro=False)
    return code.version, tuple(tuple(bool(m) for m in row) for row in code.matrix_iter(scale=1, border=0))


def check_against_segno(segno: Any, text: str, rows: str) -> Modules:
    modules = parse_modules(rows)
    assert modules is not None, text
    data = text.encode("utf-8")
    version = (len(modules) - 17) // 4
    assert segno_modules(segno, data, None, None)[0] == version, text  # the smallest version at M
    same = [mask for mask in range(8) if segno_modules(segno, data, version, mask)[1] == modules]
    assert len(same) == 1, text
    return modules


# --- the vendored encoder through net.js, against segno ---------------------------------------


@pytest.mark.parametrize("text", TEXTS, ids=lambda t: repr(t[:24]))
def test_the_drawn_code_is_segnos_symbol_module_for_module(drawn: dict[str, Any], segno: Any, text: str) -> None:
    check_against_segno(segno, text, drawn["by_text"][text])


def test_random_links_of_every_length_are_segnos_symbols(drawn: dict[str, Any], segno: Any) -> None:
    for text in random_links():
        check_against_segno(segno, text, drawn["by_text"][text])


def test_the_room_link_with_its_secret_and_signal_fits_a_small_code(drawn: dict[str, Any], segno: Any) -> None:
    link = TEXTS[4]
    assert "#k=" in link and "&signal=" in link
    modules = check_against_segno(segno, link, drawn["by_text"][link])
    assert len(modules) <= 4 * 10 + 17  # version 10 at most (57 modules): a phone across the table reads it


def test_the_encoder_is_imported_on_first_use_and_then_says_so_once(drawn: dict[str, Any]) -> None:
    # the first call starts the import and draws nothing; the second (still loading) neither, and its
    # onReady that is not a function is ignored; the first call's onReady ran once; later calls draw
    # at once and call no onReady
    assert drawn["before"] == "" and drawn["again"] == ""
    assert drawn["readies"] == 1


def test_a_text_too_long_for_a_qr_code_draws_nothing(drawn: dict[str, Any]) -> None:
    assert drawn["by_text"]["x" * 3000] == ""


# --- reading the rows ---------------------------------------------------------------------------


def square(size: int, char: str = "0") -> str:
    return "\n".join(char * size for _ in range(size))


@pytest.mark.parametrize("rows", ["", square(20), square(22), square(181), square(21)[:-1],
                                  square(21).replace("0", "2", 1), square(21) + "\n",
                                  "\n".join(["0" * 21] * 20 + ["0" * 20])])
def test_rows_that_are_not_a_qr_symbol_are_refused(rows: str) -> None:
    assert parse_modules(rows) is None


def test_rows_are_read_dark_as_one() -> None:
    rows = "\n".join(("1" if r == 0 else "0") * 25 for r in range(25))
    modules = parse_modules(rows)
    assert modules is not None and len(modules) == 25
    assert all(modules[0]) and not any(any(row) for row in modules[1:])
    assert parse_modules(square(177, "1")) is not None


# --- the SVG -------------------------------------------------------------------------------------

NASTY_LABEL = 'Room <b>"A&B"</b> \'join\' ]]>'


def dark_cells(path_data: str) -> set[tuple[int, int]]:
    """The unit squares the path covers: it is a list of ``M x y h w v1 h-w z`` rectangles."""
    cells: set[tuple[int, int]] = set()
    rects = re.findall(r"M(\d+) (\d+)h(\d+)v1h-(\d+)z", path_data)
    assert "".join(f"M{x} {y}h{w}v1h-{w2}z" for x, y, w, w2 in rects) == path_data
    for x, y, w, w2 in rects:
        assert w == w2
        for i in range(int(w)):
            assert (int(y), int(x) + i) not in cells  # no module drawn twice
            cells.add((int(y), int(x) + i))
    return cells


def symbol(segno: Any, text: str) -> Modules:
    return segno_modules(segno, text.encode(), None, None)[1]


def test_svg_is_xml_with_a_role_a_label_and_a_title(segno: Any) -> None:
    modules = symbol(segno, ROOM_LINK)
    root = ET.fromstring(qr_svg(modules, label=NASTY_LABEL))
    assert root.tag == SVG + "svg"
    assert root.get("role") == "img"
    assert root.get("aria-label") == NASTY_LABEL
    title = root.find(SVG + "title")
    assert title is not None and title.text == NASTY_LABEL
    side = len(modules) + 2 * QUIET_ZONE
    assert root.get("viewBox") == f"0 0 {side} {side}"
    assert root.get("width") is None and root.get("height") is None  # scales with its box


def test_svg_escapes_the_label(segno: Any) -> None:
    svg = qr_svg(symbol(segno, "hi"), label=NASTY_LABEL)
    assert "<b>" not in svg and '"A&B"' not in svg and "A&B" not in svg
    assert "&lt;b&gt;&quot;A&amp;B&quot;&lt;/b&gt;" in svg


@pytest.mark.parametrize("text", [ROOM_LINK, "Crib ♠♥♦♣", "x" * 400])
def test_svg_path_draws_exactly_the_dark_modules_inside_the_quiet_zone(segno: Any, text: str) -> None:
    modules = symbol(segno, text)
    root = ET.fromstring(qr_svg(modules, label="Room link"))
    paths = root.findall(SVG + "path")
    assert len(paths) == 1
    cells = dark_cells(paths[0].get("d", ""))
    expected = {(r + QUIET_ZONE, c + QUIET_ZONE) for r, row in enumerate(modules) for c, dark in enumerate(row) if dark}
    assert cells == expected and len(cells) == sum(row.count(True) for row in modules)
    n = len(modules)
    assert all(QUIET_ZONE <= r < QUIET_ZONE + n and QUIET_ZONE <= c < QUIET_ZONE + n for r, c in cells)
