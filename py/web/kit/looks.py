"""Looks: the felt's colour and the card backs' design (pure: the choices, their value type and the
menu's block). :mod:`web.shell.looks` keeps the player's choice with the other settings.

The frame carries the choice to the page as ``look-felt`` and ``look-back`` (the page sets them on
``<body>`` as ``data-look-felt`` and ``data-look-back``, and the stylesheet draws the felt and the
backs from them: CSS only, nothing downloaded). :func:`looks_menu` draws the menu's small block of
choices (``data-action="look"``).
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

__all__ = ["FELTS", "BACKS", "KINDS", "LookChoice", "label_of", "looks_menu"]

FELTS = (("green", "Green"), ("blue", "Blue"), ("claret", "Claret"))
"""The felt's colours (value, label); the first is the default."""
BACKS = (("red", "Red lattice"), ("navy", "Navy lattice"), ("diamonds", "Gold diamonds"))
"""The card backs' designs (value, label); the first is the default."""
KINDS = {"felt": FELTS, "back": BACKS}
"""Each kind of choice and its values."""


@dataclass(frozen=True)
class LookChoice:
    """What the table looks like."""

    felt: str = FELTS[0][0]
    back: str = BACKS[0][0]

    def meta(self) -> dict[str, str]:
        """The frame's attributes that carry the choice to the page."""
        return {"look-felt": self.felt, "look-back": self.back}


def label_of(kind: str, value: str) -> str:
    """A choice's words (the announcement after a change)."""
    return dict(KINDS.get(kind, ())).get(value, value)


def looks_menu(choice: LookChoice) -> str:
    """The menu's block: the felt and the card back, each a row of chips with a swatch."""
    def row(kind: str, title: str) -> str:
        chips = "".join(
            f'<button type="button" class="chip look-chip" data-action="look" data-kind="{kind}" '
            f'data-choice="{escape(value)}" id="look-{kind}-{escape(value)}" '
            f'aria-pressed="{"true" if getattr(choice, kind) == value else "false"}">'
            f'<span class="look-swatch look-{kind}-{escape(value)}" aria-hidden="true"></span>{escape(label)}</button>'
            for value, label in KINDS[kind])
        return f'<div class="row" role="group" aria-label="{title}">{chips}</div>'

    return (f'<h3>Looks</h3><p class="note">The felt and the card backs (kept for every game).</p>'
            f'{row("felt", "Felt")}{row("back", "Card backs")}')
