"""One frame of a screen as markup: what every renderer returns and the page's glue draws (the table,
the scorekeeper). A value, no drawing here."""

from __future__ import annotations

from dataclasses import dataclass

from web.kit.board import Peg

__all__ = ["Rendered"]


@dataclass(frozen=True)
class Rendered:
    """The markup of one frame and the attributes for ``#app``."""

    table: str
    overlay: str
    meta: dict[str, str]
    regions: tuple[tuple[str, str], ...] = ()
    """The table as (key, markup) regions in document order, each one element with ``data-region``
    (the table is their markup inside the layout's containers): what :mod:`web.table.patch` compares."""
    board_frame: str = ""
    """What the board looks like without its pegs (its orientation): the same frame, only pegs move."""
    pegs: tuple[Peg, ...] = ()
    """The four pegs (:func:`web.kit.board.pegs`), set by attributes when only they changed."""
    board_label: str = ""
    """The board's spoken label (names and scores)."""
    crib_side: str = ""
    """Where the crib stands: ``mine`` or ``theirs`` (by its owner), or empty."""
