"""The app's ports to the browser: what the controller needs of the page (:class:`Host`), besides
the storage (:class:`~web.play.storage.Storage`). ``web.page`` implements them; the tests fake them."""

from __future__ import annotations

from typing import Callable, Protocol

from web.kit.frame import Rendered

__all__ = ["Host"]


class Host(Protocol):
    """The browser side: everything the controller cannot do in pure Python."""

    def show(self, rendered: Rendered, focus: str | None) -> None: ...
    def announce(self, text: str) -> None: ...
    def later(self, ms: int, fn: Callable[[], None]) -> object: ...
    def cancel(self, handle: object) -> None: ...
    def post(self, message: dict[str, object]) -> None: ...
    def now_ms(self) -> int: ...
