"""The daily puzzle's page glue (``?mode=puzzle``): the page's host, storage and event handlers from
:mod:`web.page.host` around :class:`web.screens.puzzle.screen.PuzzleController`, the clipboard for the share text,
and the date picker.

Imported by :func:`web.page.host.start` only when the page is opened as the puzzle.
URL options: ``?date=YYYY-MM-DD`` opens that day's puzzle; ``?today=YYYY-MM-DD`` sets the clock
(tests: the page believes it is that day, in UTC).
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
from web.page.jsvalues import _nn, _text
from web.page.storage import page_storage
from web.kit.cards import sprite_svg
from web.screens.puzzle.screen import PuzzleController
from web.kit.caught import caught

__all__ = ["start_puzzle"]


def _copy(controller: PuzzleController, host: BrowserHost, element: Any) -> None:
    """Put the share text (``data-copy``) on the clipboard; the button then says whether it worked."""
    text = _text(element.getAttribute("data-copy")) or ""

    def done(*_: Any) -> None:
        host.timed(lambda: controller.click("pz-copy", {"ok": "true"}))

    def refused(*_: Any) -> None:
        host.timed(lambda: controller.click("pz-copy", {"ok": "false"}))

    try:
        window.navigator.clipboard.writeText(text).then(create_once_callable(done), create_once_callable(refused))
    except Exception as exc:  # noqa: BLE001 - no clipboard (an insecure context): the text is on screen
        caught("page.puzzle._copy", exc)
        refused()


def _click(controller: PuzzleController, host: BrowserHost, event: Any) -> None:
    target = _nn(event.target)
    element = _nn(target.closest('[data-action="pz-copy"]')) if target is not None and hasattr(target, "closest") \
        else None
    if element is not None:
        _copy(controller, host, element)
        return
    _on_click(controller, host, event)


def _change(controller: PuzzleController, host: BrowserHost, event: Any) -> None:
    """A day chosen in the date picker opens at once."""
    target = _nn(event.target)
    if target is None or str(_nn(getattr(target, "id", None)) or "") != "pz-date-input":
        return
    value = str(target.value)
    if value:
        host.timed(lambda: controller.click("pz-date", {"value": value}))


def start_puzzle(embedded: bool) -> PuzzleController:
    """Wire the page to the puzzle and draw it."""
    search = window.URLSearchParams.new(window.location.search)
    sprites = _nn(document.getElementById("sprites"))
    if sprites is not None:
        sprites.innerHTML = sprite_svg()  # the suit shapes the cards use
    host = BrowserHost(motion=False)
    controller = PuzzleController(host, page_storage(), day=_text(search.get("date")),
                                  today=_text(search.get("today")), embedded=embedded)
    app = document.getElementById("app")
    app.addEventListener("click", create_proxy(lambda event: _click(controller, host, event)))
    app.addEventListener("change", create_proxy(lambda event: _change(controller, host, event)))
    document.addEventListener("keydown", create_proxy(lambda event: _on_key(controller, host, event)))
    document.title = "Cribbage daily discard puzzle"
    document.body.classList.add("puzzle")
    controller.boot()
    loading = _nn(document.getElementById("loading"))
    if loading is not None:
        loading.hidden = True
    document.body.dataset.ready = "true"
    return controller
