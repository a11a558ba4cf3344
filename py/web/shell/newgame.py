"""The controller's side of the New game dialog and of a series on the table.

:class:`NewGameScreen` belongs to one :class:`~web.shell.controller.Controller` and is reached through a
few hooks there, as the record screens are: :meth:`handler` for the ``newgame-*`` clicks,
:meth:`scene` and :meth:`series` for the drawing, :meth:`from_url` at boot. *Start* remembers the
choice (preselected next time), forgets the mode's series (a new choice starts a new one) and opens
the match through the mode's own ``new`` (:func:`web.sessions.series.open_game` reads the choice).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Protocol

from cribbage.match import Match
from cribbage.rules import CLASSIC, Rules

from web.sessions import series as series_play
from web.sessions.registry import MODES, TABLE_MODE, Mode, mode_of
from web.sessions.online.room_rules import edit_room, remember_room, remembered_room, room_sentence
from web.sessions.newgame import DEFAULT, NewGame, coming_soon, edit, from_query, preset_of, remember, remembered
from web.screens.newgame.view import NEWGAME_DIALOG, NewGameScene
from web.table.series_view import SeriesScene, series_scene
from web.sessions.storage import Storage

__all__ = ["NewGameScreen", "TablePort", "mode_for"]


class TablePort(Protocol):
    """What the dialog needs of the controller (so this module never imports it)."""

    storage: Storage
    ui: Any
    """The screen state: ``dialog``, ``focus``, ``new_level``."""
    host: Any
    """``announce(text)``."""

    @property
    def match(self) -> Match: ...
    @property
    def mode(self) -> str: ...
    @property
    def names(self) -> tuple[str, ...]: ...
    @property
    def perspective(self) -> int | None: ...
    def cover_for(self) -> int | None: ...
    def refresh(self) -> None: ...
    def _set_dialog(self, dialog: str | None) -> None: ...
    def start_new(self, mode: Mode) -> None: ...


def mode_for(game: NewGame) -> Mode:
    """The way to play ``game`` opens (three or four players: the table mode)."""
    return MODES.get(game.mode_key, TABLE_MODE)


class NewGameScreen:
    """The dialog's draft and its actions; the series' scene, read once per change of the store."""

    def __init__(self, controller: TablePort) -> None:
        self.ctl = controller
        self.draft: NewGame = DEFAULT
        self.notes: tuple[str, ...] = ()
        """What of the URL's options could not be used (shown in the dialog)."""
        self.room: Rules = CLASSIC
        """The menu's choice of a new online room's rules (from the remembered one when the menu opens)."""
        self._series: tuple[tuple[str | None, str, int, int], SeriesScene | None] | None = None

    # --- boot ------------------------------------------------------------------------------------

    def from_url(self, params: Mapping[str, str]) -> str | None:
        """Take the URL's table options as the remembered choice (the next new match plays it, and
        the dialog preselects it). Returns the key of the mode it plays, or None if the URL names none."""
        storage = self.ctl.storage
        if params.get("mode") not in (None, "", "computer", "hotseat"):
            return None  # an online room's ?rules= are its own (web.sessions.online.peer), a scorekeeper's nothing
        game, problems = from_query(params, remembered(storage))
        self.notes = problems
        if game is None:
            return None
        if coming_soon(game):
            self.notes = (*problems, *coming_soon(game))
            self.draft = game
            return None
        remember(storage, game)
        return game.mode_key

    def level(self) -> str:
        """The computer's level of new matches: the remembered choice's (its first computer's)."""
        game = remembered(self.ctl.storage)
        return game.seats[game.computers[0]].level if game.computers else "expert"

    # --- the dialog --------------------------------------------------------------------------------

    def actions(self) -> Mapping[str, Callable[[dict[str, str]], None]]:
        """Every control of this part, each with its handler (:class:`web.shell.screen.Part`)."""
        return {"newgame-open": self.open, "newgame-set": self.set, "newgame-start": self.start,
                "newgame-room": self.room_set}

    def open(self, data: dict[str, str] | None = None) -> None:
        """Open the dialog with the last choice preselected."""
        ctl = self.ctl
        if ctl.cover_for() is not None:
            return
        if not self.notes:
            self.draft = remembered(ctl.storage)
        ctl._set_dialog(NEWGAME_DIALOG)
        ctl.ui.focus = "ng-preset-" + (self._preset() or "computer")
        ctl.refresh()

    def _preset(self) -> str | None:
        return preset_of(self.draft)

    def set(self, data: dict[str, str]) -> None:
        """One control changed: the draft follows, the preview says what Start will open."""
        if self.ctl.ui.dialog != NEWGAME_DIALOG:
            return
        field, choice = data.get("field", ""), data.get("choice", "")
        self.draft = edit(self.draft, field, choice)
        self.ctl.ui.focus = (
            f"ng-{field}-{choice}"
            if not field.startswith(("pack2", "muggins", "play-muggins", "recut"))
            else (f"ng-{field}-{'off' if choice == 'on' else 'on'}")
        )  # a checkbox's next choice is the other
        self.ctl.refresh()
        self.ctl.host.announce(self.draft.describe())

    def start(self, data: dict[str, str]) -> None:
        """Start the previewed choice (refused, in words, if it cannot be played here)."""
        ctl = self.ctl
        game = self.draft
        blocked = game.problems() or coming_soon(game)
        if blocked:
            ctl.host.announce(blocked[0])
            return
        remember(ctl.storage, game)
        mode = mode_for(game)
        series_play.discard(ctl.storage, mode.key)
        if game.computers:
            ctl.ui.new_level = game.seats[game.computers[0]].level
        self.notes = ()
        ctl._set_dialog(None)
        ctl.start_new(mode)

    # --- a new online room's rules, in the menu ---------------------------------------------------

    def load_room(self) -> None:
        """The menu opens: its room rules start from the last choice."""
        self.room = remembered_room(self.ctl.storage)

    def room_scene(self) -> Rules | None:
        """The room rules to offer in the menu: when its chosen mode takes them and is not the one on
        the table (Start there offers a new match in the same room, at its own rules)."""
        ctl = self.ctl
        if ctl.ui.dialog != "menu" or not mode_of(ctl.ui.new_mode).room_rules or ctl.ui.new_mode == ctl.mode:
            return None
        return self.room

    def room_set(self, data: dict[str, str]) -> None:
        """One of the room's controls changed: the preview follows and is read out."""
        if self.room_scene() is None:
            return
        field, choice = data.get("field", ""), data.get("choice", "")
        self.room = edit_room(self.room, field, choice)
        self.ctl.ui.focus = f"room-{field}-{choice}" if field in ("to", "players") else (
            f"room-{field}-{'off' if choice == 'on' else 'on'}")  # a checkbox's next choice is the other
        self.ctl.refresh()
        self.ctl.host.announce(room_sentence(self.room))

    def start_room(self) -> Rules:
        """Start pressed on a mode that takes the room's rules: they are remembered, and opened."""
        remember_room(self.ctl.storage, self.room)
        return self.room

    def scene(self) -> NewGameScene | None:
        if self.ctl.ui.dialog != NEWGAME_DIALOG:
            return None
        game = self.draft
        return NewGameScene(game, game.problems(), coming_soon(game), self.notes)

    # --- the series on the table -------------------------------------------------------------------

    def series(self) -> SeriesScene | None:
        """The series of the match on the table (None: no series, or not a local mode's)."""
        ctl = self.ctl
        if ctl.mode not in ("computer", "hotseat", "table"):
            return None
        key = series_play.series_key(ctl.mode)
        raw = ctl.storage.get(key)
        match = ctl.match
        stamp = (raw, ctl.mode, match.seed, len(match.actions))
        if self._series is not None and self._series[0] == stamp:
            return self._series[1]
        scene = series_scene(series_play.load(ctl.storage, ctl.mode) if raw else None, match, ctl.names,
                             ctl.perspective)
        self._series = (stamp, scene)
        return scene
