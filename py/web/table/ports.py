"""What the table screen needs of the shell above it, and the screen's own state.

The table (:mod:`web.table.screen`) sits below the shell (:mod:`web.shell`): it may not import it, so
what it uses of the shell is written here as a protocol, which the shell's
:class:`~web.shell.controller.Controller` fulfils (mypy checks it where the controller hands itself
to the screen).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from cribbage.actions import Action
from cribbage.match import Match
from cribbage.view import SeatView

from web.sessions.registry import DEFAULT_MODE, Mode
from web.sessions.session import Session
from web.table.scene import Scene

__all__ = ["Ui", "Speaker", "TableShell", "Felt"]


@dataclass
class Ui:
    """State that belongs to the screen, not to the match."""

    selected: list[str] = field(default_factory=list)
    cut_pick: int | None = None
    viewer: int | None = None
    """Hot-seat: the seat whose private cards may be drawn now (None: nobody confirmed yet)."""
    dialog: str | None = None
    hint: tuple[str, tuple[str, ...]] | None = None
    notice: str | None = None
    moved: tuple[bool, ...] = (False, False)
    """For each side: its front peg has just moved (it pops once)."""
    reviews: dict[int, list[str]] = field(default_factory=dict)
    new_mode: str = DEFAULT_MODE
    new_level: str = "expert"
    focus: str | None = None
    claim: str = ""
    """Muggins: the digits typed on the claim pad."""
    claim_note: str | None = None
    """Muggins: why the last claim was refused."""


class Speaker(Protocol):
    def announce(self, text: str) -> None: ...


class TableShell(Protocol):
    """What the table screen needs of the shell above it."""

    ui: Ui
    session: Session
    mode_def: Mode

    @property
    def match(self) -> Match: ...
    @property
    def host(self) -> Speaker: ...
    @property
    def perspective(self) -> int | None: ...
    @property
    def names(self) -> tuple[str, ...]: ...
    @property
    def mode(self) -> str: ...
    @property
    def level(self) -> str: ...
    def refresh(self) -> None: ...
    def act(self, action: Action) -> None: ...
    def post(self, kind: str, **extra: object) -> None: ...
    def start_new(self, mode: Mode) -> None: ...
    def match_changed(self) -> None: ...
    def scene(self) -> Scene: ...
    def cover_for(self) -> int | None: ...
    def summary_hand(self) -> int | None: ...
    def waiting_to_move_on(self) -> bool: ...
    def click(self, action: str, data: dict[str, str] | None = None) -> None: ...
    def press(self, action: str, data: dict[str, str] | None = None) -> None: ...


class Felt(Protocol):
    """What the pad needs of the table screen (:class:`web.table.screen.TableScreen`), for its parts."""

    shell: TableShell

    def view(self) -> SeatView: ...
    def can_act_privately(self) -> bool: ...
