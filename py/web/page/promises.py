"""A JavaScript promise called from Python, with both its outcomes handled (:func:`handled`): a
rejection the page did not wait for must never reach the player as a Python error banner
("PyodideFuture exception was never retrieved"). Every promise py/web starts without awaiting goes
through here or gives ``.then`` both handlers itself."""

from __future__ import annotations

from typing import Any, Callable

try:
    from pyodide.ffi import create_once_callable  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - older Pyodide, or CPython
    def create_once_callable(fn: Callable[..., Any]) -> Callable[..., Any]:
        return fn

from web.kit.caught import caught

__all__ = ["handled"]


def handled(promise: Any, where: str, ok: Callable[..., Any] | None = None,
            failed: Callable[..., Any] | None = None) -> None:
    """Give ``promise`` both outcomes: ``ok(value)`` when it resolves, ``failed(reason)`` when it is
    rejected (by default the rejection is recorded as caught at ``where``, never shown)."""

    def on_ok(*args: Any) -> None:
        if ok is not None:
            ok(*args)

    def on_failed(*args: Any) -> None:
        if failed is not None:
            failed(*args)
        else:
            caught(where, RuntimeError(str(args[0]) if args else "rejected"))

    try:
        promise.then(create_once_callable(on_ok), create_once_callable(on_failed))
    except Exception as exc:  # noqa: BLE001 - not a promise (an older browser's plain value): nothing pends
        caught(where, exc)
