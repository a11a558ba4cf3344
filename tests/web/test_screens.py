"""The contract of everything on screen (web.shell.screen): every control the markup draws has a
handler in an explicit table, no handler is found by its name at run time, and every module name
written as a string (imported later, by name) still imports.

A control drawn without a handler, or a handler misspelt, used to be a tap that silently did nothing
(``getattr(self, "_on_" + action, None)``); here it is a failing test."""

from __future__ import annotations

import importlib
import importlib.util
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

import pytest

from table_fakes import FakeHost, play_human_turn
from web.kit.frame import Rendered
from web.shell.controller import Controller, MemoryStorage
from web.shell.screen import Router

ROOT = Path(__file__).resolve().parents[2]
ACTION = re.compile(r'data-action="([^"]+)"')
PAGE_ACTIONS = {"print": "web/page/input.py", "copy-link": "web/page/input.py", "record-import": "web/page/start.py"}
"""Controls the page answers itself, never routed to Python's screens: the browser's print dialog,
the clipboard, a file chosen (a change event), each with the page module that answers it."""


def actions_in(frames: list[Rendered]) -> set[str]:
    """Every ``data-action`` value the frames' markup emits."""
    found: set[str] = set()
    for f in frames:
        found.update(ACTION.findall(f.table))
        found.update(ACTION.findall(f.overlay))
    return found


def drive(params: dict[str, str], steps: int = 400) -> tuple[Controller, FakeHost]:
    """A match played through the table's clicks, with every dialog of the page opened on the way."""
    host = FakeHost()
    controller = Controller(host, MemoryStorage(), {"delay": "0", **params}, seed_source=lambda: 11)
    controller.boot()
    opened = False
    for i in range(steps):
        host.run_timers()
        if controller.match.state.is_over:
            break
        if i >= 12 and not opened and controller.cover_for() is None:  # the dialogs, once, mid-hand
            opened = True
            for action in ("menu", "close", "sheet", "close", "rules", "close", "restart-ask", "close",
                           "newgame-open", "close", "record", "close", "challenge-open", "close", "hint"):
                controller.click(action)
        seat = controller.perspective if controller.perspective is not None else controller.active_seat()
        if not play_human_turn(controller, seat):
            host.run_timers()
    return controller, host


@pytest.mark.parametrize("params", [{"mode": "computer"}, {"mode": "hotseat", "rules": "muggins"},
                                    {"mode": "hotseat", "players": "3"}])
def test_every_control_the_table_page_draws_has_a_handler(params: dict[str, str]) -> None:
    controller, host = drive(params)
    drawn = actions_in(host.frames)
    known = controller.router.table()  # every part loaded; two parts claiming one action would raise
    assert {"card", "cut-pick", "menu", "close", "record", "newgame-open"} <= drawn  # the games were drawn
    missing = sorted(drawn - set(known) - set(PAGE_ACTIONS))
    assert not missing, f"drawn without a handler: {missing}"


def test_the_controls_the_page_answers_itself_are_answered_there() -> None:
    for action, module in PAGE_ACTIONS.items():
        assert f'"{action}"' in (ROOT / "py" / module).read_text(encoding="utf-8"), (action, module)


def test_the_router_refuses_two_parts_claiming_one_action() -> None:
    class Part:
        def __init__(self, *names: str) -> None:
            self.names = names

        def actions(self) -> dict[str, Callable[[dict[str, str]], None]]:
            return {n: (lambda data: None) for n in self.names}

    a, b = Part("go", "menu"), Part("menu")
    with pytest.raises(ValueError, match="two parts answer 'menu'"):
        Router([("", lambda: a), ("", lambda: b)]).table()
    with pytest.raises(ValueError, match="outside its part's prefix"):
        Router([("record", lambda: Part("recrod-back"))]).table()
    router = Router([("", lambda: a)])
    assert router.handler("go") is not None and router.handler("og") is None


def test_an_unknown_action_does_nothing_and_a_known_one_works() -> None:
    controller, host = drive({"mode": "hotseat"}, steps=0)
    before = len(host.frames)
    controller.click("no-such-action")
    assert len(host.frames) == before  # nothing drawn, nothing raised
    controller.click("menu")
    assert host.last.meta.get("dialog") == "menu"


def test_the_puzzle_and_the_scorekeeper_route_through_their_tables() -> None:
    from web.screens.puzzle.screen import PuzzleController
    from web.screens.scorekeeper.screen import ScoreController

    class Host(FakeHost):
        def now_ms(self) -> int:
            return int(datetime(2026, 12, 2, 12, tzinfo=timezone.utc).timestamp() * 1000)

    screens: list[tuple[Any, FakeHost, tuple[str, ...]]] = []
    host = Host()
    puzzle = PuzzleController(host, MemoryStorage())
    puzzle.boot()
    host.run_timers()
    for action, data in (("pz-card", {"index": "0"}), ("pz-card", {"index": "1"}), ("pz-confirm", {}),
                         ("pz-history", {}), ("pz-close", {}), ("pz-menu", {}), ("pz-close", {})):
        puzzle.click(action, data)
        host.run_timers()
    screens.append((puzzle, host, ("pz-card", "pz-menu")))
    host = Host()
    keeper = ScoreController(host, MemoryStorage())
    keeper.boot()
    for action, data in (
        ("sk-start", {}),
        ("sk-peg", {"side": "0", "points": "2"}),
        ("sk-pad", {"side": "1", "kind": "hand"}),
        ("sk-close", {}),
        ("sk-log", {}),
        ("sk-close", {}),
        ("sk-menu", {}),
        ("sk-close", {}),
    ):
        keeper.click(action, data)
    screens.append((keeper, host, ("sk-peg", "sk-menu", "sk-undo")))
    for screen, h, expected in screens:
        drawn = actions_in(h.frames)
        assert set(expected) <= drawn
        missing = sorted(drawn - set(screen.actions()))
        assert not missing, f"{type(screen).__name__} draws without a handler: {missing}"
        frames = len(h.frames)
        screen.click("no-such-action")
        assert len(h.frames) == frames


def test_no_handler_is_found_by_its_name_at_run_time() -> None:
    """The four ``getattr(self, "_on_" + action)`` routers are gone (an explicit table instead)."""
    found = [f"{p.relative_to(ROOT)}:{i}" for p in sorted((ROOT / "py" / "web").rglob("*.py"))
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"""getattr\(\s*self\s*,\s*(f?["']_on_|["']_on_["']\s*\+)""", line)]
    assert not found, found


def names_written_as_strings() -> list[str]:
    """Every module the code names in a string to import later: the page's later modules, the
    computer's modules, the memory snapshot's start modules and page-only prefix, the site's entry,
    and every ``importlib.import_module("...")`` with a literal name in py/web."""
    import sys

    sys.path.insert(0, str(ROOT / "py" / "tools"))
    try:
        import build_site
        import memory_snapshot
    finally:
        sys.path.remove(str(ROOT / "py" / "tools"))
    from web.sessions.seats import AI_MODULES

    start = (ROOT / "py" / "web" / "page" / "start.py").read_text(encoding="utf-8")
    later = re.search(r"LATER_MODULES = \(([^)]*)\)", start)
    assert later is not None
    names = re.findall(r'"([\w.]+)"', later.group(1))
    names += ["cribbage.ai." + n for n in AI_MODULES]
    names += [p.removesuffix(".py").replace("/", ".") for p in memory_snapshot.BROWSER]
    names += [n for n in memory_snapshot.PAGE_ONLY if n.startswith(("web", "cribbage"))]
    names.append(build_site.ENTRY_MODULE)
    for p in sorted((ROOT / "py" / "web").rglob("*.py")):
        names += re.findall(r'import_module\(\s*"([\w.]+)"\s*\)', p.read_text(encoding="utf-8"))
    return names


def test_every_module_named_in_a_string_exists_and_imports() -> None:
    names = names_written_as_strings()
    assert "web.screens.record.screen" in names and "cribbage.ai.coach" in names and "web.main" in names
    for name in names:
        assert importlib.util.find_spec(name) is not None, f"{name!r} is named in a string but is no module"
        if not name.startswith(("web.page", "web.main")):  # the page's modules need the browser's js
            importlib.import_module(name)
