"""The scorekeeper's page glue (``?mode=score``): the page's host, storage and event handlers from
:mod:`web.page.host` around :class:`web.screens.scorekeeper.screen.ScoreController`, and the screen wake lock.

Imported by :func:`web.page.start.start` only when the page is opened as the scorekeeper.
"""

from __future__ import annotations

from typing import Any

from pyscript import document, window  # type: ignore[import-not-found]  # the page's JS objects: Any
from pyscript.ffi import create_proxy  # type: ignore[import-not-found]

try:
    from pyodide.ffi import create_once_callable  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - older Pyodide
    create_once_callable = create_proxy

from web.page.host import BrowserHost
from web.page.input import _on_click, _on_key
from web.page.jsvalues import _nn
from web.page.storage import page_storage
from web.screens.scorekeeper.screen import ScoreController
from web.kit.caught import caught

__all__ = ["start_scorekeeper", "WakeLock"]


class WakeLock:
    """Keeps the screen on while the scorekeeper is open (a phone lying on the table), where the
    browser has the Screen Wake Lock API and allows it (an embedding iframe must say
    ``allow="screen-wake-lock"``). The browser releases the lock when the page is hidden; it is
    asked for again when the page is shown."""

    def __init__(self, controller: ScoreController) -> None:
        self.controller = controller
        self.sentinel: Any = None
        lock = _nn(getattr(window.navigator, "wakeLock", None))
        if lock is None:
            controller.set_wake("unsupported")
            return
        self._visible_proxy = create_proxy(self._visible)
        document.addEventListener("visibilitychange", self._visible_proxy)
        self._released_proxy = create_proxy(lambda event: self.controller.set_wake("off"))
        self.request()

    def request(self) -> None:
        try:
            promise = window.navigator.wakeLock.request("screen")
            promise.then(create_once_callable(self._got), create_once_callable(self._refused))
        except Exception as exc:  # noqa: BLE001 - e.g. refused by a permissions policy
            caught("page.scorekeeper.WakeLock.request", exc)
            self.controller.set_wake("off")

    def _got(self, sentinel: Any) -> None:
        self.sentinel = sentinel
        sentinel.addEventListener("release", self._released_proxy)
        self.controller.set_wake("on")

    def _refused(self, error: Any) -> None:
        self.controller.set_wake("off")

    def _visible(self, event: Any) -> None:
        if str(document.visibilityState) == "visible" and (self.sentinel is None or bool(self.sentinel.released)):
            self.request()


def start_scorekeeper(embedded: bool) -> ScoreController:
    """Wire the page to the scorekeeper and draw it."""
    host = BrowserHost()
    controller = ScoreController(host, page_storage(), embedded=embedded)
    app = document.getElementById("app")
    app.addEventListener("click", create_proxy(lambda event: _on_click(controller, host, event)))
    document.addEventListener("keydown", create_proxy(lambda event: _on_key(controller, host, event)))
    document.title = "Cribbage scorekeeper"
    document.body.classList.add("scorekeeper")
    controller.boot()
    controller.wake_lock = WakeLock(controller)  # type: ignore[attr-defined]
    loading = _nn(document.getElementById("loading"))
    if loading is not None:
        loading.hidden = True
    document.body.dataset.ready = "true"
    return controller
