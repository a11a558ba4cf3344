"""Key-value strings for saves and settings: the :class:`Storage` protocol, :class:`MemoryStorage`
(tests, private browsing) and :class:`DurableStorage`, the page's store over ``static/store.js``
(IndexedDB written in strict transactions, read whole into memory before Python starts).

Reads are synchronous (from memory); writes go through to disk in the background. Whoever must
not let anything out before a write is on disk (online play: a message, an acknowledgement) asks
``when_durable(fn)``: ``fn`` runs once every write made so far is durable."""

from __future__ import annotations

from typing import Any, Callable, Protocol
from web.kit.caught import caught

__all__ = ["Storage", "MemoryStorage", "DurableStorage"]


class Storage(Protocol):
    """Key-value strings that survive the page."""

    def get(self, key: str) -> str | None: ...
    def set(self, key: str, value: str) -> None: ...
    def remove(self, key: str) -> None:
        """Forget a key (nothing happens if it is not there)."""
        ...
    def keys(self) -> list[str]:
        """Every key stored (the export lists them, set-aside saves included)."""
        ...
    def when_durable(self, fn: Callable[[], None]) -> None:
        """Call ``fn`` once every write made so far is on disk (at once if it already is)."""
        ...
    def failure(self) -> str | None:
        """Why writes are not reaching the disk now (a phrase), or None."""
        ...


class MemoryStorage:
    """A dict standing in for the page's store (tests, private browsing): every write is durable at once."""

    def __init__(self, data: dict[str, str] | None = None) -> None:
        self.data = dict(data or {})

    def get(self, key: str) -> str | None:
        return self.data.get(key)

    def set(self, key: str, value: str) -> None:
        self.data[key] = value

    def remove(self, key: str) -> None:
        self.data.pop(key, None)

    def keys(self) -> list[str]:
        return list(self.data)

    def when_durable(self, fn: Callable[[], None]) -> None:
        fn()

    def failure(self) -> str | None:
        return None


class DurableStorage:
    """The :class:`Storage` over a store object with ``static/store.js``'s interface (``get``,
    ``set``, ``remove``, ``keys``, ``whenDurable``, ``error``): ``window.cribbageStore`` in the page,
    a fake in the tests. ``callback`` turns a Python function into one the store may call later
    (a once-callable proxy in Pyodide; the identity in CPython). Never raises: a store that fails
    keeps the values in memory and says so through :meth:`failure`."""

    def __init__(self, store: Any, callback: Callable[[Callable[[], None]], Any] = lambda fn: fn) -> None:
        self.store = store
        self.callback = callback
        self._memory: dict[str, str | None] = {}  # written while the store refused (kept for this visit)
        self._broken: str | None = None

    def get(self, key: str) -> str | None:
        if key in self._memory:
            return self._memory[key]
        try:
            value = self.store.get(key)
        except Exception as exc:  # noqa: BLE001
            caught("sessions.storage.DurableStorage.get", exc)
            return None
        return None if value is None else _str(value)

    def set(self, key: str, value: str) -> None:
        self._write(key, value)

    def remove(self, key: str) -> None:
        self._write(key, None)

    def _write(self, key: str, value: str | None) -> None:
        try:
            if value is None:
                self.store.remove(key)
            else:
                self.store.set(key, value)
            self._memory.pop(key, None)
        except Exception as exc:  # noqa: BLE001 - the store itself broke: keep the value for this visit
            caught("sessions.storage.DurableStorage._write", exc)
            self._memory[key] = value
            self._broken = f"the browser refused to save ({exc})"

    def keys(self) -> list[str]:
        try:
            names = {_str(k) for k in self.store.keys()}
        except Exception as exc:  # noqa: BLE001
            caught("sessions.storage.DurableStorage.keys", exc)
            names = set()
        names |= {k for k, v in self._memory.items() if v is not None}
        names -= {k for k, v in self._memory.items() if v is None}
        return sorted(names)

    def when_durable(self, fn: Callable[[], None]) -> None:
        if self._memory:
            return  # a write only memory holds is never durable: whatever waits on it stays held
        try:
            self.store.whenDurable(self.callback(fn))
        except Exception as exc:  # noqa: BLE001
            caught("sessions.storage.DurableStorage.when_durable", exc)
            self._broken = f"the browser refused to save ({exc})"

    def failure(self) -> str | None:
        try:
            error = self.store.error
        except Exception as exc:  # noqa: BLE001
            caught("sessions.storage.DurableStorage.failure", exc)
            error = None
        text = None if error is None or _str(error) in ("", "undefined", "null") else _str(error)
        return text or self._broken


def _str(value: object) -> str:
    return str(value)
