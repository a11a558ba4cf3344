"""The room link's QR code as SVG markup, from the symbol's modules (the encoding is a library's:
the page asks the vendored ``qrcode-generator`` through ``static/net.js``, see
:mod:`web.page.net`). Pure: text in, markup out.

:func:`parse_modules` reads the modules as the page hands them over (one line of ``0``/``1`` per
row, dark is ``1``) and refuses anything that is not a square symbol of a QR size; :func:`qr_svg`
draws them with a 4-module quiet zone, one rectangle per horizontal run of dark modules.
"""

from __future__ import annotations

from html import escape
from typing import Sequence

__all__ = ["QUIET_ZONE", "parse_modules", "svg_path", "qr_svg"]

QUIET_ZONE = 4
"""Light modules around the symbol that a scanner needs (the standard's minimum)."""

Modules = Sequence[Sequence[bool]]


def parse_modules(text: str) -> tuple[tuple[bool, ...], ...] | None:
    """The modules of ``"0101…\\n1100…"`` (rows top to bottom, ``1`` dark), or None if the text is
    not a symbol of QR model 2 (a square of side 21, 25, … 177 made of ``0`` and ``1`` only)."""
    rows = text.split("\n") if text else []
    size = len(rows)
    if not 21 <= size <= 177 or size % 4 != 1:
        return None
    if any(len(row) != size or row.strip("01") for row in rows):
        return None
    return tuple(tuple(ch == "1" for ch in row) for row in rows)


def svg_path(modules: Modules, offset: int = QUIET_ZONE) -> str:
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


def qr_svg(modules: Modules, *, label: str) -> str:
    """An ``<svg>`` of the symbol with a 4-module quiet zone, scaled by its viewBox (no width or
    height: its box sizes it), named by ``label`` (escaped) for screen readers."""
    side = len(modules) + 2 * QUIET_ZONE
    name = escape(label, quote=True)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="qr" viewBox="0 0 {side} {side}" '
        f'role="img" aria-label="{name}" shape-rendering="crispEdges">'
        f"<title>{name}</title>"
        f'<rect width="{side}" height="{side}" fill="#fff"/>'
        f'<path fill="#000" d="{svg_path(modules)}"/>'
        "</svg>"
    )
