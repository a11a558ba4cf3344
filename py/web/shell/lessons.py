"""The shell's side of the lessons (:mod:`web.screens.lessons`): opened from the first screen's
"New to cribbage?" and from the menu, drawn in the overlay while they are up, their clicks and keys
routed to them, and "count my own hands" (a muggins game against the computer).

A part of the table page (:class:`web.shell.screen.Part`): the controller's router names it by the
prefix ``lesson``, so this module and the lessons are imported only when a lesson's control is first
used; the start does not import them (tests/web/test_lazy_start.py)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol

from web.kit.controls import Handler
from web.kit.frame import Rendered
from web.sessions.registry import Mode, mode_of
from web.sessions.storage import Storage
from web.table.ports import Ui
from web.table.scene import Scene

if TYPE_CHECKING:
    from web.screens.lessons.screen import LessonsScreen

__all__ = ["LESSONS_KEY", "LessonsPart"]

LESSONS_KEY = "cribbage.lessons"
"""The lessons' progress (:data:`web.screens.lessons.screen.PROGRESS_KEY`): none yet, the first
screen offers the lessons."""


class LessonsApp(Protocol):
    """What the lessons need of the shell."""

    ui: Ui
    storage: Storage
    host: Any
    """``announce(text)``."""
    newgame: Any
    """The New game dialog (:class:`web.shell.newgame.NewGameScreen`): ``from_url``."""
    seed_source: Callable[[], int]

    def cover_for(self) -> int | None: ...
    def refresh(self) -> None: ...
    def _set_dialog(self, dialog: str | None) -> None: ...
    def start_new(self, mode: Mode, rules: Any = None) -> None: ...


class LessonsPart:
    """The lessons while the table page shows them."""

    def __init__(self, app: LessonsApp) -> None:
        self.app = app
        self._screen: LessonsScreen | None = None

    @property
    def screen(self) -> LessonsScreen:
        if self._screen is None:
            from web.screens.lessons.screen import LessonsScreen

            self._screen = LessonsScreen(self.app.storage, self.app.host.announce, self.app.seed_source())
        return self._screen

    @property
    def up(self) -> bool:
        return self.app.ui.dialog == "lessons" and self._screen is not None

    def actions(self) -> Mapping[str, Handler]:
        table: dict[str, Handler] = {"lessons": self._on_open, "lesson-muggins": self._on_muggins}
        for action, handler in self.screen.actions().items():
            table[action] = self._while_up(handler)
        return table

    def _while_up(self, handler: Handler) -> Handler:
        def run(data: dict[str, str]) -> None:
            if self.up:
                handler(data)
                self.app.refresh()
        return run

    def _on_open(self, data: dict[str, str]) -> None:
        if self.app.cover_for() is not None:  # hot-seat: the hand-over cover stays until the holder changes
            return
        self.screen.open_map()
        self.app._set_dialog("lessons")
        self.app.host.announce("Learn to play: eleven short lessons, then practice.")
        self.app.refresh()

    def _on_muggins(self, data: dict[str, str]) -> None:
        """"Count my own hands": a two-player game against the computer with muggins (remembered)."""
        if not self.up:
            return
        key = self.app.newgame.from_url({"mode": "computer", "players": "2", "rules": "muggins"})
        self.app._set_dialog(None)
        self.app.start_new(mode_of(key or "computer"))

    def dress(self, rendered: Rendered, scene: Scene) -> Rendered:
        """The frame with the lessons' own markup in the overlay while they are up."""
        if not self.up or scene.dialog != "lessons":
            return rendered
        self.app.ui.focus = self.screen.take_focus() or self.app.ui.focus
        return replace(rendered, overlay=self.screen.render(self.screen.scene()))

    def key(self, key: str, ctrl: bool, shift: bool, alt: bool, target_action: str | None) -> bool:
        """The lessons' keys first while they are up."""
        if self.up and self.screen.key(key, ctrl, shift, alt, target_action):
            self.app.refresh()
            return True
        return False
