"""What to change in the page from one frame to the next: a keyed patch of the table's regions.

The renderer gives the table as regions (``Rendered.regions``: the bar, the board, each seat, the
pack, the stage, the crib, the prompt...), each one root element carrying ``data-region``. Drawing a
frame replaces only the regions whose markup changed (each region's HTML string compared with the
last one drawn); the pegs move by attributes, so the board's few hundred holes are never parsed
again and a peg's CSS transition can carry it along. When the set of regions itself changes (a
notice appears, online play blocks the table) the whole table is written once.

Pure: :func:`plan` compares two :class:`~web.kit.frame.Rendered` frames and returns a :class:`Patch`;
``host.py`` applies it. Also here: which travel names (``data-vt``) a frame carries and what a
frame moves that a player should see travel (:func:`moving`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from web.kit.frame import Rendered

__all__ = ["Patch", "plan", "vt_names", "moves", "moving"]

_VT = re.compile(r'data-vt="([\w-]+)"')


@dataclass(frozen=True)
class Patch:
    """The operations that turn the page's table from one frame into the next."""

    full: str | None = None
    """The whole table's markup, when it must be written at once (else None)."""
    regions: tuple[tuple[str, str], ...] = ()
    """(key, markup) of each region to replace, in document order."""
    pegs: bool = False
    """The pegs (and the board's label) are to be set from the new frame."""
    overlay: str | None = None
    """The overlay's new markup (None: unchanged)."""
    names: dict[str, str] = field(default_factory=dict)
    """The travel names of the new frame, by name: the region holding each."""

    @property
    def empty(self) -> bool:
        return self.full is None and not self.regions and not self.pegs and self.overlay is None


def vt_names(rendered: Rendered) -> dict[str, str]:
    """{travel name: key of the region holding it} of a frame."""
    out: dict[str, str] = {}
    for key, html in rendered.regions:
        for name in _VT.findall(html):
            out[name] = key
    return out


def _shape(rendered: Rendered) -> tuple[str, ...]:
    """The keys of the frame's regions in order: the table's skeleton."""
    return tuple(key for key, _ in rendered.regions)


def plan(before: Rendered | None, after: Rendered) -> Patch:
    """The patch from the frame ``before`` (None: nothing drawn yet) to the frame ``after``."""
    overlay = after.overlay if before is None or before.overlay != after.overlay else None
    names = vt_names(after)
    if before is None or not after.regions or _shape(before) != _shape(after):
        full = after.table if before is None or before.table != after.table else None
        return Patch(full=full, pegs=full is not None, overlay=overlay, names=names)
    old = dict(before.regions)
    changed = []
    pegs = False
    for key, html in after.regions:
        if old.get(key) == html:
            continue
        if key == "board" and before.board_frame == after.board_frame and after.board_frame:
            pegs = True  # the same board: only the pegs and its label move
            continue
        changed.append((key, html))
    return Patch(regions=tuple(changed), pegs=pegs, overlay=overlay, names=names)


def moving(before: Rendered | None, after: Rendered) -> frozenset[str]:
    """The travel names of what changes place from ``before`` to ``after``: a card that
    changes region, appears or leaves; the crib when it goes over to the other player. Only these
    travel (``web/page/host.py`` measures each one twice and animates it: fewer is cheaper)."""
    if before is None:
        return frozenset()
    a, b = vt_names(before), vt_names(after)
    # Travel only: a card in both frames, in another region (cards dealt or gathered just appear
    # or go: capturing a dozen of them costs more than it shows). The starter turns over.
    out = {name for name in a.keys() & b.keys() if a[name] != b[name]}
    if "starter" in b and "starter" not in a:
        out.add("starter")
    if before.crib_side != after.crib_side and "crib" in b:
        out.add("crib")
    return frozenset(out)


def moves(before: Rendered | None, after: Rendered) -> bool:
    """Does the frame move something the player should see travel (:func:`moving`)? (Pegs glide
    by a CSS transition of their own.)"""
    return bool(moving(before, after))
