"""Small helpers of markup shared by every screen: escaping text and attributes."""

from __future__ import annotations

from html import escape

__all__ = ["esc", "attrs"]


def esc(text: object) -> str:
    """``text`` as HTML text or an attribute value (quotes escaped too)."""
    return escape(str(text), quote=True)


def attrs(pairs: dict[str, object]) -> str:
    """``k="v"`` pairs, escaped, leaving out those whose value is None."""
    return " ".join(f'{k}="{esc(v)}"' for k, v in pairs.items() if v is not None)
