"""A screen's controls: each ``data-action`` answered by a handler found in an explicit table.

:func:`route` is the ``click`` every screen shares (the contract is :mod:`web.shell.screen`; it lives
here, below the screens, so that each of them can use it).
"""

from __future__ import annotations

from typing import Callable, Mapping, Sequence

__all__ = ["Handler", "route"]

Handler = Callable[[dict[str, str]], None]
"""What a control does, given the element's other ``data-*`` values."""


def route(table: Mapping[str, Handler], action: str, data: dict[str, str] | None, *,
          disabled_ok: Sequence[str] = ()) -> bool:
    """Call the handler of ``action`` (True), or refuse an unknown one (False). A control marked
    ``data-disabled="true"`` does nothing, unless it is one of ``disabled_ok``."""
    handler = table.get(action)
    if handler is None:
        return False
    data = data or {}
    if data.get("disabled") == "true" and action not in disabled_ok:
        return True
    handler(data)
    return True
