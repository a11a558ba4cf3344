"""QR codes for the room link: a byte-mode encoder (ISO/IEC 18004 model 2) and an SVG of the symbol.

Pure Python, stdlib only, so the web layer can draw the code for a phone across the table
without a CDN or a JavaScript library. :func:`encode` does the work: the text as UTF-8 bytes in
byte mode, the smallest version (1-40) that holds them at the chosen error-correction level,
Reed-Solomon error correction over GF(256), block interleaving, and the mask (of the eight) with
the lowest penalty score, format and version information included. :func:`qr_matrix` and
:func:`qr_svg` are the two things the web layer needs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from html import escape

__all__ = [
    "QrCode",
    "QrCodeError",
    "encode",
    "qr_matrix",
    "qr_svg",
    "svg_path",
    "choose_version",
    "data_capacity",
    "ECC_LEVELS",
    "QUIET_ZONE",
]

ECC_LEVELS = ("L", "M", "Q", "H")
"""Error-correction levels, weakest first (about 7%, 15%, 25% and 30% of codewords recoverable)."""

QUIET_ZONE = 4
"""Light modules around the symbol that a scanner needs (the standard's minimum)."""

MIN_VERSION, MAX_VERSION = 1, 40

# Error-correction codewords per block, indexed [level][version] (index 0 unused).
_ECC_PER_BLOCK: dict[str, tuple[int, ...]] = {
    "L": (0, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28,
          28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30),
    "M": (0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
          26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28),
    "Q": (0, 13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30,
          28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30),
    "H": (0, 17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28,
          30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30),
}

# Error-correction blocks, indexed [level][version] (index 0 unused).
_BLOCKS: dict[str, tuple[int, ...]] = {
    "L": (0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8,
          8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25),
    "M": (0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
          17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49),
    "Q": (0, 1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20,
          23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68),
    "H": (0, 1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25,
          25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81),
}

# The two bits that name the level in the format information (it is not in order: M is 00).
_ECC_FORMAT_BITS = {"L": 1, "M": 0, "Q": 3, "H": 2}

_BYTE_MODE = 0b0100
_PAD_BYTES = (0xEC, 0x11)

# Penalty weights of the mask evaluation (the standard's N1..N4).
_N1, _N2, _N3, _N4 = 3, 3, 40, 10

# GF(256) with the QR field polynomial x^8 + x^4 + x^3 + x^2 + 1; _EXP is doubled so a sum of
# two logarithms never needs reducing.
_EXP = [0] * 512
_LOG = [0] * 256
_x = 1
for _i in range(255):
    _EXP[_i] = _x
    _LOG[_x] = _i
    _x <<= 1
    if _x & 0x100:
        _x ^= 0x11D
for _i in range(255, 512):
    _EXP[_i] = _EXP[_i - 255]
del _x, _i


class QrCodeError(ValueError):
    """The text cannot be encoded (too long, or an unknown level, version or mask)."""


@dataclass(frozen=True)
class QrCode:
    """One encoded symbol."""

    version: int
    """1-40; the symbol is ``4 * version + 17`` modules wide."""
    ecc: str
    """Error-correction level: ``L``, ``M``, ``Q`` or ``H``."""
    mask: int
    """The data mask pattern, 0-7."""
    modules: tuple[tuple[bool, ...], ...]
    """Rows top to bottom, each left to right; True is dark. No quiet zone."""

    @property
    def size(self) -> int:
        """Modules per side."""
        return len(self.modules)


def _raw_data_modules(version: int) -> int:
    """Modules left for codewords (data and error correction, plus remainder bits) in a version."""
    result = (16 * version + 128) * version + 64
    if version >= 2:
        aligns = version // 7 + 2
        result -= (25 * aligns - 10) * aligns - 55
        if version >= 7:
            result -= 36  # the two version information blocks
    return result


def data_capacity(version: int, ecc: str) -> int:
    """Data codewords (bytes) a version holds at a level, before mode and length headers."""
    return _raw_data_modules(version) // 8 - _ECC_PER_BLOCK[ecc][version] * _BLOCKS[ecc][version]


def _count_bits(version: int) -> int:
    """Width of the byte-mode character count field."""
    return 8 if version < 10 else 16


def _fits(length: int, version: int, ecc: str) -> bool:
    """Whether ``length`` bytes fit in a version at a level."""
    return length < (1 << _count_bits(version)) and \
        4 + _count_bits(version) + 8 * length <= data_capacity(version, ecc) * 8


def _data_codewords(data: bytes, version: int, ecc: str) -> bytes:
    """Mode, count, the bytes, terminator and padding: exactly the version's data capacity."""
    capacity_bits = data_capacity(version, ecc) * 8
    value = (_BYTE_MODE << _count_bits(version)) | len(data)
    nbits = 4 + _count_bits(version)
    value = (value << 8 * len(data)) | int.from_bytes(data, "big")
    nbits += 8 * len(data)
    terminator = min(4, capacity_bits - nbits)
    nbits += terminator
    value <<= terminator
    fill = -nbits % 8
    nbits += fill
    value <<= fill
    out = bytearray(value.to_bytes(nbits // 8, "big"))
    i = 0
    while len(out) * 8 < capacity_bits:
        out.append(_PAD_BYTES[i % 2])
        i += 1
    return bytes(out)


@lru_cache(maxsize=None)
def _generator(degree: int) -> tuple[int, ...]:
    """Reed-Solomon generator (x - a^0)...(x - a^(degree-1)), highest power first, leading 1 dropped."""
    poly = [1]
    for i in range(degree):
        root = _EXP[i]
        nxt = poly + [0]
        for j, coef in enumerate(poly):
            if coef:
                nxt[j + 1] ^= _EXP[_LOG[coef] + _LOG[root]]
        poly = nxt
    return tuple(poly[1:])


def _ecc_codewords(block: bytes, degree: int) -> bytes:
    """The Reed-Solomon remainder of one data block."""
    gen = _generator(degree)
    rem = [0] * degree
    for byte in block:
        factor = byte ^ rem[0]
        del rem[0]
        rem.append(0)
        if factor:
            lf = _LOG[factor]
            for i, g in enumerate(gen):
                if g:
                    rem[i] ^= _EXP[lf + _LOG[g]]
    return bytes(rem)


def _interleave(data: bytes, version: int, ecc: str) -> bytes:
    """Split the data codewords into blocks, add error correction and interleave both."""
    nblocks = _BLOCKS[ecc][version]
    degree = _ECC_PER_BLOCK[ecc][version]
    raw = _raw_data_modules(version) // 8
    nshort = nblocks - raw % nblocks
    short_len = raw // nblocks - degree  # data codewords in a short block; long ones hold one more
    blocks: list[bytes] = []
    eccs: list[bytes] = []
    pos = 0
    for b in range(nblocks):
        length = short_len + (0 if b < nshort else 1)
        block = data[pos:pos + length]
        pos += length
        blocks.append(block)
        eccs.append(_ecc_codewords(block, degree))
    assert pos == len(data)
    out = bytearray()
    for i in range(short_len + 1):
        for block in blocks:
            if i < len(block):
                out.append(block[i])
    for i in range(degree):
        for e in eccs:
            out.append(e[i])
    assert len(out) == raw
    return bytes(out)


def _alignment_positions(version: int) -> list[int]:
    """Row/column centres of the alignment patterns."""
    if version == 1:
        return []
    aligns = version // 7 + 2
    size = 4 * version + 17
    step = 26 if version == 32 else (version * 4 + aligns * 2 + 1) // (aligns * 2 - 2) * 2
    return [6] + sorted(size - 7 - i * step for i in range(aligns - 1))


def _format_bits(ecc: str, mask: int) -> int:
    """The 15 format bits: level and mask, BCH(15,5) protected, XORed with 101010000010010."""
    data = _ECC_FORMAT_BITS[ecc] << 3 | mask
    rem = data
    for _ in range(10):
        rem = (rem << 1) ^ ((rem >> 9) * 0x537)
    return ((data << 10) | rem) ^ 0x5412


def _version_bits(version: int) -> int:
    """The 18 version bits (versions 7 and up): version, BCH(18,6) protected."""
    rem = version
    for _ in range(12):
        rem = (rem << 1) ^ ((rem >> 11) * 0x1F25)
    return version << 12 | rem


class _Grid:
    """A symbol under construction: module colours and which modules are function patterns."""

    def __init__(self, version: int) -> None:
        self.version = version
        self.size = size = 4 * version + 17
        self.dark = [[False] * size for _ in range(size)]
        self.function = [[False] * size for _ in range(size)]

    def put(self, row: int, col: int, dark: bool) -> None:
        """Set a function module."""
        self.dark[row][col] = dark
        self.function[row][col] = True

    def draw_function_patterns(self) -> None:
        """Timing, finders with separators, alignment patterns, reserved format and version areas."""
        size = self.size
        for i in range(size):
            self.put(6, i, i % 2 == 0)
            self.put(i, 6, i % 2 == 0)
        for centre_row, centre_col in ((3, 3), (3, size - 4), (size - 4, 3)):
            for dr in range(-4, 5):
                for dc in range(-4, 5):
                    r, c = centre_row + dr, centre_col + dc
                    if 0 <= r < size and 0 <= c < size:
                        self.put(r, c, max(abs(dr), abs(dc)) not in (2, 4))
        positions = _alignment_positions(self.version)
        last = len(positions) - 1
        for i, row in enumerate(positions):
            for j, col in enumerate(positions):
                if (i, j) in ((0, 0), (0, last), (last, 0)):
                    continue  # a finder is there
                for dr in range(-2, 3):
                    for dc in range(-2, 3):
                        self.put(row + dr, col + dc, max(abs(dr), abs(dc)) != 1)
        self.draw_format(0)  # reserves the area; redrawn for each mask
        if self.version >= 7:
            bits = _version_bits(self.version)
            for i in range(18):
                bit = (bits >> i) & 1 == 1
                a, b = size - 11 + i % 3, i // 3
                self.put(b, a, bit)  # top right block
                self.put(a, b, bit)  # bottom left block

    def draw_format(self, bits: int, rows: list[list[bool]] | None = None) -> None:
        """Both copies of the format information (into ``rows`` if given) and the dark module."""
        target = self.dark if rows is None else rows
        for row, col, i in _format_cells(self.size):
            target[row][col] = i < 0 or (bits >> i) & 1 == 1
            self.function[row][col] = True

    def draw_codewords(self, codewords: bytes) -> None:
        """Place the bits in the two-column zigzag from the bottom right, skipping function modules."""
        size = self.size
        total = len(codewords) * 8
        i = 0
        right = size - 1
        while right >= 1:
            if right == 6:
                right = 5  # the vertical timing pattern is skipped
            upward = (right + 1) & 2 == 0
            for vert in range(size):
                row = size - 1 - vert if upward else vert
                for col in (right, right - 1):
                    if not self.function[row][col] and i < total:
                        self.dark[row][col] = (codewords[i >> 3] >> (7 - (i & 7))) & 1 == 1
                        i += 1
                    # Remainder bits stay light (then masked like any other data module).
            right -= 2
        assert i == total


def _format_cells(size: int) -> list[tuple[int, int, int]]:
    """(row, column, bit index) of both format information copies; index -1 is the dark module."""
    cells = [(i, 8, i) for i in range(6)] + [(7, 8, 6), (8, 8, 7), (8, 7, 8)]
    cells += [(8, 14 - i, i) for i in range(9, 15)]
    cells += [(8, size - 1 - i, i) for i in range(8)]
    cells += [(size - 15 + i, 8, i) for i in range(8, 15)]
    cells.append((size - 8, 8, -1))
    return cells


def _mask_predicate(mask: int, row: int, col: int) -> bool:
    """Whether a data module at (row, col) is inverted by the mask pattern."""
    if mask == 0:
        return (row + col) % 2 == 0
    if mask == 1:
        return row % 2 == 0
    if mask == 2:
        return col % 3 == 0
    if mask == 3:
        return (row + col) % 3 == 0
    if mask == 4:
        return (row // 2 + col // 3) % 2 == 0
    if mask == 5:
        return (row * col) % 2 + (row * col) % 3 == 0
    if mask == 6:
        return ((row * col) % 2 + (row * col) % 3) % 2 == 0
    return ((row + col) % 2 + (row * col) % 3) % 2 == 0


_RUN = re.compile(rb"\x00+|\x01+")


def _line_penalty(line: bytes) -> int:
    """N1 (runs of five or more) and N3 (1:1:3:1:1 finder-like patterns) of one row or column.

    The outside of the symbol counts as light (it is the quiet zone), and a finder-like pattern
    scores once for each side that has four of its units of light, as in the reference encoders.
    """
    size = len(line)
    runs = [m.end() - m.start() for m in _RUN.finditer(line)]
    score = sum(_N1 + length - 5 for length in runs if length >= 5)
    # Pad to light, dark, light, ..., light: even indices are light runs.
    if line[0]:
        runs.insert(0, size)
    else:
        runs[0] += size
    if line[-1]:
        runs.append(size)
    else:
        runs[-1] += size
    for k in range(1, len(runs) - 5, 2):
        n = runs[k]
        if runs[k + 1] == n and runs[k + 2] == 3 * n and runs[k + 3] == n and runs[k + 4] == n:
            before, after = runs[k - 1], runs[k + 5]
            score += _N3 * ((before >= 4 * n and after >= n) + (after >= 4 * n and before >= n))
    return score


def _penalty(rows: list[list[bool]]) -> int:
    """The mask evaluation score of a finished symbol: lower is better."""
    size = len(rows)
    row_bytes = [bytes(r) for r in rows]
    score = sum(_line_penalty(line) for line in row_bytes)
    score += sum(_line_penalty(bytes(col)) for col in zip(*rows))
    # N2: 2x2 blocks of one colour, counted with each row as a bit string.
    as_ints = [int.from_bytes(line, "big") for line in row_bytes]  # one byte (0/1) per module
    ones = int.from_bytes(b"\x01" * (size - 1), "big")  # low bit of each adjacent pair
    for upper, lower in zip(as_ints, as_ints[1:]):
        same_vertical = ~(upper ^ lower)
        same_horizontal = ~(upper ^ (upper >> 8))
        blocks = same_vertical & (same_vertical >> 8) & same_horizontal & ones
        score += _N2 * bin(blocks).count("1")
    # N4: 10 points for every full 5% the dark share is away from 50%.
    dark = sum(r.count(1) for r in row_bytes)
    total = size * size
    score += _N4 * (10 * abs(2 * dark - total) // total)
    return score


def _normalise_ecc(ecc: str) -> str:
    """``ecc`` as an upper-case level letter, or QrCodeError."""
    level = ecc.upper() if isinstance(ecc, str) else ""
    if level not in ECC_LEVELS:
        raise QrCodeError(f"unknown error-correction level {ecc!r}: use one of L, M, Q, H")
    return level


def choose_version(length: int, ecc: str = "M") -> int:
    """The smallest version holding ``length`` bytes at a level, or QrCodeError."""
    level = _normalise_ecc(ecc)
    for version in range(MIN_VERSION, MAX_VERSION + 1):
        if _fits(length, version, level):
            return version
    raise QrCodeError(f"too long for a QR code: {length} bytes, at most "
                      f"{data_capacity(MAX_VERSION, level) - 3} at level {level}")


def encode(data: bytes, ecc: str = "M", *, version: int | None = None,
           mask: int | None = None) -> QrCode:
    """Encode bytes in byte mode: the smallest version (or ``version``) and the best mask (or ``mask``)."""
    level = _normalise_ecc(ecc)
    if version is None:
        version = choose_version(len(data), level)
    elif not MIN_VERSION <= version <= MAX_VERSION:
        raise QrCodeError(f"no QR version {version}: versions run from 1 to 40")
    elif not _fits(len(data), version, level):
        raise QrCodeError(f"{len(data)} bytes do not fit in version {version} at level {level}")
    if mask is not None and mask not in range(8):
        raise QrCodeError(f"no mask pattern {mask}: masks run from 0 to 7")
    grid = _Grid(version)
    grid.draw_function_patterns()
    grid.draw_codewords(_interleave(_data_codewords(data, version, level), version, level))
    size = grid.size
    best: tuple[int, int, list[list[bool]]] | None = None
    for candidate in range(8) if mask is None else (mask,):
        rows = [[dark != (not function and _mask_predicate(candidate, r, c))
                 for c, (dark, function) in enumerate(zip(dark_row, function_row))]
                for r, (dark_row, function_row) in enumerate(zip(grid.dark, grid.function))]
        grid.draw_format(_format_bits(level, candidate), rows)
        score = _penalty(rows) if mask is None else 0
        if best is None or score < best[0]:
            best = (score, candidate, rows)
    assert best is not None and len(best[2]) == size
    return QrCode(version, level, best[1], tuple(tuple(r) for r in best[2]))


def qr_matrix(text: str, ecc: str = "M") -> list[list[bool]]:
    """The modules of ``text`` (UTF-8, byte mode) in the smallest version: rows of True for dark."""
    return [list(row) for row in encode(text.encode("utf-8"), ecc).modules]


def svg_path(modules: tuple[tuple[bool, ...], ...] | list[list[bool]], offset: int = QUIET_ZONE) -> str:
    """Path data covering the dark modules, one rectangle per horizontal run, shifted by ``offset``."""
    parts: list[str] = []
    for r, row in enumerate(modules):
        c = 0
        width = len(row)
        while c < width:
            if row[c]:
                start = c
                while c < width and row[c]:
                    c += 1
                parts.append(f"M{start + offset} {r + offset}h{c - start}v1h-{c - start}z")
            else:
                c += 1
    return "".join(parts)


def qr_svg(text: str, *, label: str, ecc: str = "M") -> str:
    """An ``<svg>`` of the QR code of ``text`` with a 4-module quiet zone, scaled by its viewBox."""
    code = encode(text.encode("utf-8"), ecc)
    side = code.size + 2 * QUIET_ZONE
    name = escape(label, quote=True)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="qr" viewBox="0 0 {side} {side}" '
        f'role="img" aria-label="{name}" shape-rendering="crispEdges">'
        f"<title>{name}</title>"
        f'<rect width="{side}" height="{side}" fill="#fff"/>'
        f'<path fill="#000" d="{svg_path(code.modules)}"/>'
        "</svg>"
    )
