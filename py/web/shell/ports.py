"""The app's ports to the browser: what the controller needs of the page (:class:`Host`), besides
the storage (:class:`~web.sessions.storage.Storage`), and the device's sound and vibration (:class:`Cues`).
``web.page`` implements them; the tests fake them."""

from __future__ import annotations

from typing import Callable, Protocol

from web.kit.frame import Rendered

__all__ = ["Host", "Cues"]


class Host(Protocol):
    """The browser side: everything the controller cannot do in pure Python."""

    def show(self, rendered: Rendered, focus: str | None) -> None: ...
    def announce(self, text: str) -> None: ...
    def later(self, ms: int, fn: Callable[[], None]) -> object: ...
    def cancel(self, handle: object) -> None: ...
    def post(self, message: dict[str, object]) -> None: ...
    def now_ms(self) -> int: ...


class Cues(Protocol):
    """The device's sound and vibration (:mod:`web.page.cues`): the controller says which cue, never how."""

    @property
    def can_vibrate(self) -> bool:
        """Can this device vibrate (a phone whose browser has ``navigator.vibrate``)?"""
        ...

    def unlock(self) -> None:
        """Called inside a user gesture (a tap, a key): make the audio ready to sound (the browsers'
        autoplay policy lets audio start only from a gesture)."""
        ...

    def sound(self, cue: str) -> None:
        """Sound one of :data:`web.kit.comfort_view.CUES` (cues asked for together play one after another)."""
        ...

    def vibrate(self, ms: int) -> None:
        """A short pulse (where the device can)."""
        ...
