"""The page's start: wire the table (or, for ``?mode=score``, the scorekeeper) to the page and draw it.

:func:`start` is what ``main.py`` calls. It builds the controller on a :class:`~web.page.host.BrowserHost`,
routes the page's clicks, keys and file choices to it, and warms the computer up in idle moments.
"""

from __future__ import annotations

import importlib
import itertools
from typing import Any, Iterator

from pyscript import document, window  # type: ignore[import-not-found]  # the page's JS objects: Any
from pyscript.ffi import create_proxy  # type: ignore[import-not-found]

try:
    from pyodide.ffi import create_once_callable  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - older Pyodide
    create_once_callable = create_proxy

from web.shell.controller import Controller
from web.shell.link_options import read_link
from web.kit.cards import sprite_svg
from web.sessions import registry as modes
from web.page.cues import BrowserCues
from web.page.host import BrowserHost
from web.page.input import Routed, _embedded, _on_click, _on_key, _on_root_click, _params
from web.page.jsvalues import _nn, _text
from web.page.storage import page_storage
from web.kit.caught import caught

WIDE_QUERY = ("(min-width: 960px) and (min-height: 600px), "
              "(min-width: 640px) and (max-height: 599px) and (min-aspect-ratio: 4/3)")
"""Where the board stands upright beside the table rather than above it."""
LARGE_BOARD_QUERY = "(min-width: 640px) and (max-height: 420px) and (min-aspect-ratio: 4/3)"
"""A phone on its side: the board lies across the top, as large as the window's width allows (upright
beside the table it was a strip too thin to read); static/style.css has the same query."""


def _orientation(wide: Any, large: Any) -> str:
    """The board's orientation for the window as the two queries find it."""
    return "vertical" if bool(wide.matches) and not bool(large.matches) else "horizontal"


def _on_change(controller: Controller, host: BrowserHost, event: Any) -> None:
    """A file chosen in the record dialog's import input: its text goes to Python."""
    target = _nn(event.target)
    if target is None or _text(target.getAttribute("data-action")) != "record-import":
        return
    files = _nn(target.files)
    if files is None or not files.length:
        return
    file = files.item(0)
    target.value = ""  # choosing the same file again fires another change
    size = int(file.size)
    from web.screens.record.screen import IMPORT_LIMIT  # loaded already: the record dialog is open

    if size > IMPORT_LIMIT:
        host.timed(lambda: controller.records.import_text(None, size))
        return

    def loaded(text: Any) -> None:
        host.timed(lambda: controller.records.import_text(str(text), size))

    def failed(error: Any) -> None:
        host.timed(lambda: controller.records.import_text(None, size))

    file.text().then(create_once_callable(loaded), create_once_callable(failed))


def start() -> Routed:
    """Wire the page and draw the table (or a page of its own: :data:`web.sessions.registry.PAGES`)."""
    if _params().get("mode") == "score":
        from web.page.scorekeeper import start_scorekeeper  # only the scorekeeper's page needs it

        return start_scorekeeper(_embedded())
    if _params().get("mode") == "puzzle":
        from web.page.puzzle import start_puzzle  # only the daily puzzle's page needs it

        return start_puzzle(_embedded())
    sprites = _nn(document.getElementById("sprites"))
    if sprites is not None:
        sprites.innerHTML = sprite_svg()
    embedded = _embedded()
    params = _params()
    _take_challenge(params)
    motion = read_link(params)[0].get("motion") != "off"  # (the controller says why a bad one was ignored)
    if not motion:
        document.documentElement.classList.add("motion-off")  # the stylesheet stops every glide
    host = BrowserHost(motion=motion)
    controller = Controller(host, page_storage(), params, embedded=embedded, cues=BrowserCues())
    modes.before_online(lambda: _configure_online(host, controller.params))
    wide, large = window.matchMedia(WIDE_QUERY), window.matchMedia(LARGE_BOARD_QUERY)
    controller.orientation = _orientation(wide, large)

    app = document.getElementById("app")
    app.addEventListener("click", create_proxy(lambda event: _on_click(controller, host, event)))
    # A tap never waits for an animation: it ends the running view transition at once.
    document.addEventListener("pointerdown", create_proxy(lambda event: host.skip_transition()), True)
    document.addEventListener("click", create_proxy(lambda event: _on_root_click(controller, host, event)))
    document.addEventListener("keydown", create_proxy(lambda event: _on_key(controller, host, event)))
    app.addEventListener("change", create_proxy(lambda event: _on_change(controller, host, event)))
    for query in (wide, large):
        query.addEventListener("change", create_proxy(
            lambda event: controller.set_orientation(_orientation(wide, large))))

    controller.boot()
    loading = _nn(document.getElementById("loading"))
    if loading is not None:
        loading.hidden = True
    document.body.dataset.ready = "true"
    host.post_ready()
    _warm_in_idle(host)
    return controller


def _take_challenge(params: dict[str, str]) -> None:
    """A challenge link's ``#challenge=`` text (never sent to a server) into ``params``, with the page's
    own address for the links it makes; the text leaves the address bar (a reload resumes the saved
    challenge match, it does not open the link again)."""
    params["page"] = str(window.location.origin) + str(window.location.pathname)
    fragment = str(_nn(window.location.hash) or "").lstrip("#")
    if not fragment.startswith("challenge="):
        return
    params["challenge"] = fragment[len("challenge="):]
    search = window.URLSearchParams.new(window.location.search)
    if _text(search.get("mode")) == "challenge":
        search.delete("mode")
    query = str(search.toString())
    window.history.replaceState(None, "", str(window.location.pathname) + (f"?{query}" if query else ""))


def _configure_online(host: BrowserHost, params: dict[str, str]) -> None:
    """Online play's page glue, imported with online play (:mod:`web.page.net`; a table of three or
    four: :mod:`web.page.mesh_net`)."""
    from web.page.mesh_net import mesh_factory
    from web.page.net import configure_online

    configure_online(host, params, mesh_factory(host))


LATER_MODULES = ("datetime", "cribbage.record", "web.screens.record.store", "web.kit.charts", "web.screens.record.view",
                 "web.screens.record.screen")
"""Imported in idle time after the computer: what the game-over screen draws with (importing them
when the match ended made that frame's task 0.1 s longer)."""


def _import_steps(names: tuple[str, ...]) -> Iterator[str]:
    """Import ``names`` one per step (a module that fails is left for its first real use)."""
    for name in names:
        try:
            importlib.import_module(name)
        except Exception as exc:  # noqa: BLE001
            caught("page.start._import_steps", exc)
        yield name


def _warm_in_idle(host: BrowserHost) -> None:
    """Import the computer and the coach in the page's idle moments after the table is drawn, one
    small step per idle callback (:func:`web.sessions.seats.warming`): the first hint no longer freezes."""
    from web.sessions.seats import warming

    steps = itertools.chain(warming(), _import_steps(LATER_MODULES))
    idle = _nn(getattr(window, "requestIdleCallback", None))

    def step(*_: Any) -> None:
        start = float(window.performance.now())
        name = next(steps, None)
        if name is None:
            proxy.destroy()
            return
        host.measure(f"warm {name}", start)
        schedule()

    def schedule() -> None:
        if idle is not None:
            window.requestIdleCallback(proxy)
        else:  # Safari: no idle callbacks; a short timer between frames does
            window.setTimeout(proxy, 40)

    proxy = create_proxy(step)
    schedule()
