"""Run by tests/web/test_lazy_start.py in a fresh interpreter: import what the page imports at start,
then open online play or the record the way a player does, and print what was imported when (JSON).

``python start_probe.py SCENARIO [ARG]`` with ``py`` and ``tests/web`` on the path. pyscript is replaced
by stand-ins (the page's JS objects are never touched by importing ``web.page.start``).
"""

from __future__ import annotations

import json
import sys
import types
from typing import Any, Callable

LAZY = (
    "cribbage.online",
    "cribbage.online.pack",
    "cribbage.online.game",
    "web.sessions.online.peer",
    "web.sessions.online.panel",
    "web.page.net",
    "web.kit.qr_svg",
    "cribbage.record",
    "web.screens.record.screen",
    "web.screens.record.view",
    "web.screens.record.store",
    "web.kit.charts",
    "cribbage.challenge",
    "web.screens.challenge.screen",
    "web.screens.challenge.view",
    "cribbage.lessons",
    "web.screens.lessons.screen",
    "web.screens.lessons.view",
    "web.screens.lessons.scenes",
)
"""Modules a start of the page must leave for later."""


class _JS:
    """Any JS object: every attribute and call gives another one."""

    def __getattr__(self, name: str) -> _JS:
        return _JS()

    def __call__(self, *args: object, **kwargs: object) -> _JS:
        return _JS()


def _stub_pyscript() -> None:
    pyscript = types.ModuleType("pyscript")
    ffi = types.ModuleType("pyscript.ffi")
    pyscript.document = pyscript.window = _JS()  # type: ignore[attr-defined]
    ffi.create_proxy = lambda fn: fn  # type: ignore[attr-defined]
    ffi.to_js = lambda value, **kwargs: value  # type: ignore[attr-defined]
    pyscript.ffi = ffi  # type: ignore[attr-defined]
    sys.modules["pyscript"], sys.modules["pyscript.ffi"] = pyscript, ffi


def loaded() -> list[str]:
    """Which of :data:`LAZY` are imported now."""
    return [name for name in LAZY if name in sys.modules]


def start() -> list[str]:
    """Import the start modules (as the page does: web.main imports web.page.start)."""
    _stub_pyscript()
    import web.page.start
    import web.shell.controller
    import web.table.render  # noqa: F401

    return loaded()


def table(storage: dict[str, str] | None = None, params: dict[str, str] | None = None) -> Any:
    """A controller on a fake page (booted)."""
    from table_fakes import FakeHost

    from web.shell.controller import Controller, MemoryStorage

    host = FakeHost()
    controller = Controller(host, MemoryStorage(dict(storage or {})), {"delay": "0", **(params or {})},
                            seed_source=lambda: 7)
    controller.boot()
    return controller


def html(controller: Any) -> str:
    frame = controller.host.last
    return str(frame.table + frame.overlay)


ROOM_SECRET = "A" * 43
"""The ``#k=`` of a room link in these scenarios (any well-formed secret: the host here is a fake)."""


def before_online(page_url: str, room: str | None, calls: list[str]) -> None:
    """What page/start.py does at start: configure online play once it is first opened."""
    from web.sessions import registry as modes

    def configure() -> None:
        from web.sessions.online import peer as online

        calls.append("configured; loaded: " + ",".join(loaded()))
        online.configure(room=room, secret=ROOM_SECRET if room else None, page_url=page_url)

    modes.before_online(configure)


def scenario_online_new(report: dict[str, Any]) -> None:
    """Boot against the computer, open the menu, then choose Play online in the New game dialog."""
    calls: list[str] = []
    before_online("http://127.0.0.1/lazy/", None, calls)
    c = table()
    c.click("menu")
    report["menu"] = html(c)
    report["after_menu"] = loaded()
    c.click("new-mode", {"mode": "online"})
    c.click("start")
    report["after_start"] = loaded()
    report["calls"] = calls
    report["session"] = type(c.session).__name__
    report["mode"] = c.mode
    report["room"] = getattr(getattr(c.session, "net", None), "room", None)
    report["html"] = html(c)
    report["saved_room"] = c.storage.get("cribbage.online.current")
    # Online play works from here: two browsers through the registry, over in-memory channels.
    from online_fakes import Browser, Clock, Hub, pass_time, settle, turn

    clock, hub = Clock(), Hub()
    ann = Browser("Ann", clock, hub)
    ann.load()
    ann.c.click("menu")
    ann.c.click("new-mode", {"mode": "online"})
    ann.c.click("start")
    settle(ann)
    bob = Browser("Bob", clock, hub, room=ann.session.net.room, secret=ann.session.net.secret)
    bob.load()
    settle(ann, bob)
    pass_time(clock, 1.0, ann, bob)
    for _ in range(40):  # both cut for deal
        settle(ann, bob)
        if not (turn(ann.c) or turn(bob.c)):
            pass_time(clock, 0.5, ann, bob)
        if ann.c.match.state.dealer is not None and bob.c.match.state.dealer is not None:
            break
    report["links"] = [ann.session.net.state, bob.session.net.state]
    report["dealers"] = [ann.c.match.state.dealer, bob.c.match.state.dealer]
    report["names"] = [list(ann.c.names), list(bob.c.names)]


def scenario_online_room(report: dict[str, Any], room: str) -> None:
    """Open the page with ``?room=ID`` (page/host.py then passes mode=online): the friend's seat."""
    calls: list[str] = []
    before_online("http://127.0.0.1/", room, calls)
    report["before_boot"] = loaded()
    c = table(params={"mode": "online"})
    report["after_boot"] = loaded()
    report["calls"] = calls
    report["session"] = type(c.session).__name__
    report["seat"] = c.session.perspective
    report["room"] = c.session.net.room


def scenario_online_saved(report: dict[str, Any], storage_json: str) -> None:
    """Reload a page whose last match was online: the saved room is reopened."""
    calls: list[str] = []
    before_online("http://127.0.0.1/", None, calls)
    report["before_boot"] = loaded()
    c = table(storage=json.loads(storage_json))
    report["after_boot"] = loaded()
    report["calls"] = calls
    report["session"] = type(c.session).__name__
    report["room"] = c.session.net.room
    report["mode"] = c.mode


def scenario_game_over(report: dict[str, Any], storage_json: str) -> None:
    """Reload on a finished match: the game-over screen draws its chart, the match is kept."""
    report["before_boot"] = loaded()
    c = table(storage=json.loads(storage_json))
    report["after_boot"] = loaded()
    report["html"] = html(c)
    from web.screens.record.view import game_over_html

    report["chart"] = game_over_html(c.match.state.events, c.names, c.scene().shell.chances)  # its chance band: later
    report["history"] = c.storage.get("cribbage.history")


def scenario_record(report: dict[str, Any]) -> None:
    """Play a few moves, then open Your record from the menu."""
    c = table()
    for _ in range(3):
        view = c.scene().view
        if view.legal_actions:
            c.act(view.legal_actions[0])
            c.host.run_timers()
    c.click("menu")
    report["before_open"] = loaded()
    report["actions"] = len(c.match.actions)
    c.click("record")
    report["after_open"] = loaded()
    report["html"] = html(c)


SCENARIOS: dict[str, Callable[..., None]] = {
    "online-new": scenario_online_new, "online-room": scenario_online_room,
    "online-saved": scenario_online_saved, "game-over": scenario_game_over, "record": scenario_record,
}


def main(argv: list[str]) -> None:
    report: dict[str, Any] = {"at_start": start()}
    SCENARIOS[argv[0]](report, *argv[1:])
    print(json.dumps(report))


if __name__ == "__main__":
    main(sys.argv[1:])
