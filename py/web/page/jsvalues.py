"""JavaScript values as Python sees them in the page: JS null and undefined as None, JS strings as str,
and a callback that runs once. Shared by the page's modules (:mod:`web.page.host` and the rest)."""

from __future__ import annotations

from typing import Any

from pyscript.ffi import create_proxy  # type: ignore[import-not-found]

try:  # Pyodide gives JS null as its own ``jsnull`` value, not None
    from pyodide.ffi import create_once_callable  # type: ignore[import-not-found]
    from pyodide.ffi import jsnull as _JSNULL  # noqa: N812 - a constant here
except ImportError:  # pragma: no cover - older Pyodide
    _JSNULL = None
    create_once_callable = create_proxy

__all__ = ["_nn", "_text", "create_once_callable"]


def _nn(value: Any) -> Any:
    """None for JS null/undefined, else the value."""
    if value is None or value is _JSNULL:
        return None
    return value


def _text(value: Any) -> str | None:
    """A JS string as str; None for null/undefined."""
    value = _nn(value)
    return None if value is None else str(value)
