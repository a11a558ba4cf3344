"""A slot of the table that another layer fills: online play's panel reaches the table as a
:class:`PanelSlot` (its markup and the few words the table's prompt says for it), so the table
draws it without importing online play (:mod:`web.sessions.online.panel` fills it). A value, no
drawing here."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PanelSlot"]


@dataclass(frozen=True)
class PanelSlot:
    """A panel drawn into the table above the board, with what the table says because of it."""

    markup: str
    """The panel's markup: one element (``<section class="online" ...>``), or empty."""
    waiting: str = ""
    """Why nobody at this table can act now, naming whom we wait for ('' when this player may act):
    the prompt says it instead of "You to play"."""
    result: str = ""
    """The end of the match in words (the game-over detail; '' for the table's usual words)."""
    blocked: bool = False
    """This browser has no seat at this table: only the bar, the notice and the panel are drawn."""
