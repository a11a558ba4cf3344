"""The table's menu and the dialogs the shell opens over it: the score sheet, the menu (new match,
level, speed, the chance of winning, looks), the rules, restart, and the notice's dismissal.

A part of the table page (:class:`web.shell.screen.Part`): its controls are listed in
:meth:`TableMenu.actions`; the markup is :mod:`web.shell.dialogs`. It reaches the controller through
:class:`AppPort` (so this module never imports it).
"""

from __future__ import annotations

import json
from typing import Any, Callable, Mapping, Protocol

from cribbage.match import Match
from cribbage.rules import Rules
from cribbage.state import Phase

from web.kit.looks import label_of
from web.sessions.registry import DEFAULT_MODE, MODES, Mode, mode_of
from web.sessions.session import Offer, Session
from web.sessions.storage import Storage
from web.table.render import primary_button
from web.table.ports import Ui
from web.table.scene import DELAYS, LEVELS, Scene
from web.kit.caught import caught

__all__ = ["TableMenu", "AppPort", "SETTINGS_KEY"]

SETTINGS_KEY = "cribbage.settings"


class AppPort(Protocol):
    """What the menu needs of the controller."""

    ui: Ui
    session: Session
    mode_def: Mode
    storage: Storage
    delay: int
    host: Any
    """``announce(text)``."""
    newgame: Any
    """The New game dialog (:class:`web.shell.newgame.NewGameScreen`): ``load_room``, ``start_room``."""
    chances: Any
    """:class:`web.shell.chances.TableChances`: ``toggle``, ``reload``."""
    looks: Any
    """:class:`web.shell.looks.Looks`: ``choose``, ``reload``."""
    comforts: Any
    """:class:`web.shell.comforts.TableComforts`: ``reload``."""

    @property
    def match(self) -> Match: ...
    @property
    def mode(self) -> str: ...
    @property
    def level(self) -> str: ...
    def cover_for(self) -> int | None: ...
    def refresh(self) -> None: ...
    def scene(self) -> Scene: ...
    def _set_dialog(self, dialog: str | None) -> None: ...
    def start_new(self, mode: Mode, rules: Rules | None = None) -> None: ...
    def _resume(self, mode: Mode) -> bool: ...
    def _new_match(self, mode: Mode, level: str, rules: Rules | None = None) -> None: ...
    def _read_json(self, key: str) -> object: ...


class TableMenu:
    """The handlers of the menu's and the shell dialogs' controls."""

    def __init__(self, app: AppPort) -> None:
        self.app = app

    def actions(self) -> Mapping[str, Callable[[dict[str, str]], None]]:
        return {
            "sheet": self._on_sheet, "menu": self._on_menu, "rules": self._on_rules, "close": self._on_close,
            "close-backdrop": self._on_close_backdrop, "restart-ask": self._on_restart_ask,
            "restart-confirm": self._on_restart_confirm, "new-mode": self._on_new_mode, "start": self._on_start,
            "new-game": self._on_new_game, "resume": self._on_resume, "level": self._on_level,
            "speed": self._on_speed, "winbar": self._on_winbar, "look": self._on_look,
            "dismiss-notice": self._on_dismiss_notice,
        }

    def _on_sheet(self, data: dict[str, str]) -> None:
        if self.app.cover_for() is not None:
            return
        self._open("sheet")

    def _on_menu(self, data: dict[str, str]) -> None:
        if self.app.cover_for() is not None:
            return
        self.app.ui.new_mode = (
            self.app.mode if self.app.mode in MODES else DEFAULT_MODE
        )  # a challenge: not a menu choice
        self.app.ui.new_level = self.app.level
        self.app.newgame.load_room()
        self._open("menu")

    def _on_rules(self, data: dict[str, str]) -> None:
        if self.app.cover_for() is not None:
            return
        self._open("rules")

    def _open(self, dialog: str) -> None:
        self.app._set_dialog(dialog)
        self.app.ui.focus = "btn-close"
        self.app.refresh()

    def _on_close(self, data: dict[str, str]) -> None:
        previous = self.app.ui.dialog
        self.app._set_dialog(None)
        # Back to the table's pending choice (Enter then confirms it), else to the tool that opened it.
        scene = self.app.scene()
        pending = primary_button(scene) is not None or (
            scene.private and bool(scene.view.legal_actions) and scene.view.phase in (Phase.DISCARD, Phase.PLAY))
        self.app.ui.focus = "primary" if pending else {
            "sheet": "tool-sheet", "menu": "tool-menu", "restart": "tool-menu", "rules": "tool-menu",
            "record": "tool-menu", "newgame": "tool-menu", "lessons": "tool-menu"}.get(previous or "")
        self.app.refresh()

    def _on_close_backdrop(self, data: dict[str, str]) -> None:
        self._on_close(data)

    def _on_restart_ask(self, data: dict[str, str]) -> None:
        if not self.app.mode_def.restart:
            return
        self.app._set_dialog("restart")
        self.app.ui.focus = "btn-restart-confirm"
        self.app.refresh()

    def _on_restart_confirm(self, data: dict[str, str]) -> None:
        if self.app.mode_def.restart:
            self.app.session.request(Offer.RESTART)

    def _on_new_mode(self, data: dict[str, str]) -> None:
        key = data.get("mode", "")
        if key in MODES:
            self.app.ui.new_mode = key
            self.app.ui.focus = f"new-mode-{key}"
            self.app.refresh()

    def _on_start(self, data: dict[str, str]) -> None:
        mode = mode_of(self.app.ui.new_mode)
        if mode is self.app.mode_def:
            self.app.session.request(Offer.NEW_MATCH)  # online: once the other side agrees
        else:
            self.app.start_new(mode, self.app.newgame.start_room() if mode.room_rules else None)

    def _on_new_game(self, data: dict[str, str]) -> None:
        """Game over: a new game of the same kind, at once."""
        if self.app.ui.dialog or not self.app.match.state.is_over:
            return
        self.app.ui.new_mode, self.app.ui.new_level = (
            (self.app.mode if self.app.mode in MODES else DEFAULT_MODE),
            self.app.level,
        )
        self._on_start({})

    def _on_resume(self, data: dict[str, str]) -> None:
        key = data.get("mode", "")
        if key not in MODES or key == self.app.mode:
            return
        mode = MODES[key]
        self.app.ui.dialog = None
        if not self.app._resume(mode):
            self.app._new_match(mode, self.app.ui.new_level)
        self.app.refresh()

    def _on_level(self, data: dict[str, str]) -> None:
        level = data.get("level", "")
        if level not in LEVELS:
            return
        self.app.ui.new_level = level  # the one level choice: this game (against the computer) and new ones
        if self.app.mode_def.computer:
            self.app.match.options["level"] = level  # a setting of the match, not a move
            self.app.match.options.pop("levels", None)  # every computer of the match plays at it now
            self.app.session.save()
        self.app.ui.focus = f"level-{level}"
        self.app.refresh()

    def _on_speed(self, data: dict[str, str]) -> None:
        try:
            delay = int(data.get("delay", ""))
        except ValueError:
            return
        if delay in {ms for _, ms in DELAYS}:
            self.app.delay = delay
            self.app.ui.focus = f"speed-{delay}"
            try:
                settings = self.app._read_json(SETTINGS_KEY)
                settings = settings if isinstance(settings, dict) else {}
                settings["delay"] = delay  # the other settings (the chance of winning) stay
                self.app.storage.set(SETTINGS_KEY, json.dumps(settings))
            except Exception as exc:  # noqa: BLE001
                caught("shell.menu.TableMenu._on_speed", exc)
            self.app.refresh()

    def _on_winbar(self, data: dict[str, str]) -> None:
        """The menu's switch of the chance-of-winning bar (remembered for this kind of game)."""
        on = self.app.chances.toggle()
        self.app.ui.focus = "winbar-toggle"
        self.app.refresh()
        self.app.host.announce("The chance of winning is shown by the board." if on
                           else "The chance of winning is hidden.")

    def _on_look(self, data: dict[str, str]) -> None:
        """The menu's Looks: a felt or a card back chosen (kept with the settings)."""
        kind, value = data.get("kind", ""), data.get("choice", "")
        if self.app.looks.choose(kind, value):
            self.app.ui.focus = f"look-{kind}-{value}"
            self.app.refresh()
            self.app.host.announce(f"{'Felt' if kind == 'felt' else 'Card backs'}: {label_of(kind, value)}.")

    def _on_dismiss_notice(self, data: dict[str, str]) -> None:
        self.app.ui.notice = None
        self.app.refresh()

    def reload_after_import(self, keys: set[str]) -> None:
        """An import rewrote these storage keys: reopen the match on the table and the settings."""
        if SETTINGS_KEY in keys:
            self.app.chances.reload()
            self.app.comforts.reload()
            self.app.looks.reload()
            settings = self.app._read_json(SETTINGS_KEY)
            delay = settings.get("delay") if isinstance(settings, dict) else None
            if isinstance(delay, int) and delay >= 0:
                self.app.delay = delay
        if self.app.mode_def.save_key in keys or self.app.mode_def.ui_key in keys:
            dialog = self.app.ui.dialog
            if not self.app._resume(self.app.mode_def):
                self.app._new_match(self.app.mode_def, self.app.ui.new_level)
            self.app._set_dialog(dialog)
