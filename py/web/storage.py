"""Key-value strings for saves and settings: the :class:`Storage` protocol (``localStorage`` in the
page) and :class:`MemoryStorage` (tests, private browsing)."""

from __future__ import annotations

from typing import Protocol

__all__ = ["Storage", "MemoryStorage"]


class Storage(Protocol):
    """Key-value strings (``localStorage``)."""

    def get(self, key: str) -> str | None: ...
    def set(self, key: str, value: str) -> None: ...
    def remove(self, key: str) -> None:
        """Forget a key (nothing happens if it is not there)."""
        ...
    def keys(self) -> list[str]:
        """Every key stored (the export lists them, set-aside saves included)."""
        ...


class MemoryStorage:
    """A dict standing in for ``localStorage`` (tests, private browsing)."""

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
