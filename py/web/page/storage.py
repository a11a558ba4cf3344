"""The page's storage: the durable store of ``static/store.js`` (IndexedDB, strict writes) behind the
:class:`~web.sessions.storage.Storage` port, or ``localStorage`` in a page without it."""

from __future__ import annotations

from typing import Callable

from pyscript import window  # type: ignore[import-not-found]  # the page's JS objects: Any

from web.page.jsvalues import _nn, _text, create_once_callable
from web.sessions.storage import DurableStorage, Storage
from web.kit.caught import caught

__all__ = ["page_storage", "BrowserStorage"]


def page_storage() -> Storage:
    """The page's store (``static/store.js``: IndexedDB, strict writes), or ``localStorage`` in a page
    without it."""
    store = _nn(getattr(window, "cribbageStore", None))
    if store is None:
        return BrowserStorage()
    return DurableStorage(store, create_once_callable)


class BrowserStorage:
    """``localStorage``, failing soft (private modes may refuse it): only for a page without
    ``static/store.js``."""

    def __init__(self) -> None:
        self._memory: dict[str, str] = {}

    def get(self, key: str) -> str | None:
        try:
            value = _text(window.localStorage.getItem(key))
        except Exception as exc:  # noqa: BLE001
            caught("page.storage.BrowserStorage.get", exc)
            return self._memory.get(key)
        return value

    def set(self, key: str, value: str) -> None:
        try:
            window.localStorage.setItem(key, value)
        except Exception as exc:  # noqa: BLE001
            caught("page.storage.BrowserStorage.set", exc)
            self._memory[key] = value

    def remove(self, key: str) -> None:
        self._memory.pop(key, None)
        try:
            window.localStorage.removeItem(key)
        except Exception as exc:  # noqa: BLE001
            caught("page.storage.BrowserStorage.remove", exc)

    def when_durable(self, fn: Callable[[], None]) -> None:
        fn()  # as durable as localStorage gets

    def failure(self) -> str | None:
        return None

    def keys(self) -> list[str]:
        names = set(self._memory)
        try:
            store = window.localStorage
            for i in range(int(store.length)):
                name = _text(store.key(i))
                if name is not None:
                    names.add(name)
        except Exception as exc:  # noqa: BLE001
            caught("page.storage.BrowserStorage.keys", exc)
        return sorted(names)
