#!/usr/bin/env python3
"""Draw the app icons (a playing card with a heart over a cribbage peg board). Stdlib only.

Writes ``static/icons/icon.svg`` and PNGs at 192 and 512 px, plus maskable variants (full-bleed
felt, artwork inside the 80 % safe circle). The PNGs are rasterised here from the same
geometry as the SVG, with signed distances for anti-aliased edges, and written with
zlib/struct. Run it after changing the design; the outputs are committed:

    python py/tools/make_icons.py [--out static/icons]
"""

from __future__ import annotations

import argparse
import math
import struct
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

FELT = (0x1D, 0x4D, 0x2F)
CARD = (0xFF, 0xFD, 0xF6)
CARD_EDGE = (0x14, 0x3A, 0x22)
HEART = (0xC8, 0x1D, 0x25)
WOOD = (0xA8, 0x6B, 0x32)
HOLE = (0x3B, 0x24, 0x10)
PEG_RED = (0xE5, 0x3B, 0x2E)
PEG_BLUE = (0x2F, 0x6F, 0xE0)

# Geometry in a unit square (0..1), shared by the SVG and the rasteriser.
CARD_BOX = (0.30, 0.14, 0.70, 0.70, 0.05)  # x0, y0, x1, y1, corner radius
BOARD_BOX = (0.12, 0.66, 0.88, 0.84, 0.04)
HOLES = [(0.19 + i * 0.0689, y) for y in (0.715, 0.785) for i in range(10)]
HOLE_R = 0.014
PEGS = [((0.19 + 6 * 0.0689), 0.715, PEG_RED), ((0.19 + 3 * 0.0689), 0.785, PEG_BLUE)]
PEG_R = 0.026
HEART_C = (0.50, 0.40)
HEART_S = 0.11  # half-width of the heart


def scale_geometry(k: float) -> None:
    """Shrink the artwork about the centre (maskable icons keep it inside the safe zone)."""
    global CARD_BOX, BOARD_BOX, HOLES, HOLE_R, PEGS, PEG_R, HEART_C, HEART_S

    def p(x: float, y: float) -> tuple[float, float]:
        return 0.5 + (x - 0.5) * k, 0.5 + (y - 0.5) * k

    def box(b: tuple[float, ...]) -> tuple[float, ...]:
        x0, y0 = p(b[0], b[1])
        x1, y1 = p(b[2], b[3])
        return (x0, y0, x1, y1, b[4] * k)

    CARD_BOX, BOARD_BOX = box(CARD_BOX), box(BOARD_BOX)
    HOLES = [p(x, y) for x, y in HOLES]
    HOLE_R *= k
    PEGS = [(*p(x, y), c) for x, y, c in PEGS]
    PEG_R *= k
    HEART_C = p(*HEART_C)
    HEART_S *= k


def sd_round_box(x: float, y: float, b: tuple[float, ...]) -> float:
    x0, y0, x1, y1, r = b
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    hx, hy = (x1 - x0) / 2 - r, (y1 - y0) / 2 - r
    qx, qy = abs(x - cx) - hx, abs(y - cy) - hy
    outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
    return outside + min(max(qx, qy), 0.0) - r


def sd_circle(x: float, y: float, cx: float, cy: float, r: float) -> float:
    return math.hypot(x - cx, y - cy) - r


def sd_heart(x: float, y: float) -> float:
    """Two circles on a square turned 45 degrees, pointing down."""
    cx, cy = HEART_C
    s = HEART_S
    # the square's corners: top-left/right lobes sit on its upper edges
    u, v = (x - cx) / s, (y - cy) / s
    ru, rv = (u + v) / math.sqrt(2), (v - u) / math.sqrt(2)  # rotate 45 degrees
    half = 0.62
    square = max(abs(ru - 0.0) - half, abs(rv - 0.0) - half)
    lobe_r = half
    a = math.hypot(u - (-0.44), v - (-0.44 + 0.0)) - lobe_r
    b = math.hypot(u - 0.44, v - (-0.44)) - lobe_r
    return min(square, a, b) * s


def shapes(full_bleed: bool) -> list[tuple[tuple[float, float, float, float], object, tuple[int, int, int]]]:
    """(bbox, signed distance function, colour) in paint order."""
    bg = (0.0, 0.0, 1.0, 1.0, 0.0 if full_bleed else 0.18)
    items = [
        ((0, 0, 1, 1), lambda x, y: sd_round_box(x, y, bg), FELT),
        (_grow(CARD_BOX, 0.012), lambda x, y: sd_round_box(x, y, _grow(CARD_BOX, 0.008) + (CARD_BOX[4],)), CARD_EDGE),
        (CARD_BOX[:4], lambda x, y: sd_round_box(x, y, CARD_BOX), CARD),
        (
            (
                HEART_C[0] - 1.2 * HEART_S,
                HEART_C[1] - 1.2 * HEART_S,
                HEART_C[0] + 1.2 * HEART_S,
                HEART_C[1] + 1.2 * HEART_S,
            ),
            sd_heart,
            HEART,
        ),
        (BOARD_BOX[:4], lambda x, y: sd_round_box(x, y, BOARD_BOX), WOOD),
    ]
    for hx, hy in HOLES:
        items.append(((hx - HOLE_R, hy - HOLE_R, hx + HOLE_R, hy + HOLE_R), _circle(hx, hy, HOLE_R), HOLE))
    for px, py, colour in PEGS:
        items.append(((px - PEG_R, py - PEG_R, px + PEG_R, py + PEG_R), _circle(px, py, PEG_R), colour))
    return items


def _grow(b: tuple[float, ...], d: float) -> tuple[float, float, float, float]:
    return (b[0] - d, b[1] - d, b[2] + d, b[3] + d)


def _circle(cx: float, cy: float, r: float):
    return lambda x, y: sd_circle(x, y, cx, cy, r)


def rasterise(size: int, full_bleed: bool) -> bytes:
    """RGBA pixels, painter's algorithm with coverage from the signed distance."""
    pixels = [[0.0, 0.0, 0.0, 0.0] for _ in range(size * size)]
    for (x0, y0, x1, y1), sdf, colour in shapes(full_bleed):
        c = [channel / 255 for channel in colour]
        for py in range(max(0, int(y0 * size) - 1), min(size, int(y1 * size) + 2)):
            y = (py + 0.5) / size
            row = py * size
            for px in range(max(0, int(x0 * size) - 1), min(size, int(x1 * size) + 2)):
                cover = 0.5 - sdf((px + 0.5) / size, y) * size
                if cover <= 0:
                    continue
                a = min(cover, 1.0)
                p = pixels[row + px]
                for i in range(3):
                    p[i] = c[i] * a + p[i] * (1 - a)
                p[3] = a + p[3] * (1 - a)
    out = bytearray()
    for py in range(size):
        out.append(0)  # PNG filter: none
        for px in range(size):
            r, g, b, a = pixels[py * size + px]
            # colours were blended onto transparent black: un-premultiply
            k = 1 / a if a > 0 else 0
            out += bytes(
                (round(min(r * k, 1) * 255), round(min(g * k, 1) * 255), round(min(b * k, 1) * 255), round(a * 255))
            )
    return bytes(out)


def png(size: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def svg() -> str:
    def hexc(c: tuple[int, int, int]) -> str:
        return "#%02x%02x%02x" % c

    def rect(b: tuple[float, ...], colour: tuple[int, int, int]) -> str:
        x0, y0, x1, y1, r = (v * 512 for v in b)
        return (f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{x1 - x0:.1f}" height="{y1 - y0:.1f}" rx="{r:.1f}" '
                f'fill="{hexc(colour)}"/>')

    def circle(x: float, y: float, r: float, colour: tuple[int, int, int]) -> str:
        return f'<circle cx="{x * 512:.1f}" cy="{y * 512:.1f}" r="{r * 512:.1f}" fill="{hexc(colour)}"/>'

    cx, cy, s = HEART_C[0] * 512, HEART_C[1] * 512, HEART_S * 512
    heart = (
        f'<path fill="{hexc(HEART)}" d="M{cx:.1f} {cy + 1.05 * s:.1f} '
        f"C{cx - 0.35 * s:.1f} {cy + 0.7 * s:.1f} {cx - 1.1 * s:.1f} {cy + 0.1 * s:.1f} {cx - 1.05 * s:.1f} "
        f"{cy - 0.45 * s:.1f} "
        f"C{cx - 1.0 * s:.1f} {cy - 1.05 * s:.1f} {cx - 0.2 * s:.1f} {cy - 1.15 * s:.1f} {cx:.1f} {cy - 0.6 * s:.1f} "
        f"C{cx + 0.2 * s:.1f} {cy - 1.15 * s:.1f} {cx + 1.0 * s:.1f} {cy - 1.05 * s:.1f} {cx + 1.05 * s:.1f} "
        f"{cy - 0.45 * s:.1f} "
        f'C{cx + 1.1 * s:.1f} {cy + 0.1 * s:.1f} {cx + 0.35 * s:.1f} {cy + 0.7 * s:.1f} {cx:.1f} '
        f'{cy + 1.05 * s:.1f}Z"/>'
    )
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">',
        "<title>Cribbage</title>",
        rect((0, 0, 1, 1, 0.18), FELT),
        rect(_grow(CARD_BOX, 0.008) + (CARD_BOX[4],), CARD_EDGE),
        rect(CARD_BOX, CARD),
        heart,
        rect(BOARD_BOX, WOOD),
        *(circle(x, y, HOLE_R, HOLE) for x, y in HOLES),
        *(circle(x, y, PEG_R, c) for x, y, c in PEGS),
        "</svg>",
    ]
    return "\n".join(parts) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "static" / "icons"))
    out = Path(parser.parse_args().out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "icon.svg").write_text(svg())
    for size in (192, 512):
        (out / f"icon-{size}.png").write_bytes(png(size, rasterise(size, full_bleed=False)))
    scale_geometry(0.78)  # maskable: keep the artwork inside the 80 % safe circle
    for size in (192, 512):
        (out / f"icon-maskable-{size}.png").write_bytes(png(size, rasterise(size, full_bleed=True)))
    print(f"make_icons: wrote {out}")


if __name__ == "__main__":
    main()
