"""The ways to play, as a registry: the controller never compares mode names.

A :class:`Mode` says how the table looks from this device (``perspective``: the seat that is "you",
None in hot-seat where the seat to act is drawn at the bottom), where its match is saved, whether
the pass-the-device cover is used, what the menu offers (undo/redo, restart, the computer's level
and speed, the coach's review) and how to open a session (``new`` and ``resume``).

Online play's entry is here too, but not online play: its session, its deal's big-integer protocol
and their hashing live in :mod:`web.sessions.online.peer`, imported only when an online session is first opened
(a ``?room=`` link, the saved online match, the New game dialog's choice). Most players never open
it, and the page starts faster without it. The page configures online play then, through
:func:`before_online`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from web.sessions import local
from web.sessions.base import ONLINE_SAVE_KEY, Mode, OpenContext
from web.sessions.session import Session

__all__ = ["Mode", "OpenContext", "MODES", "DEFAULT_MODE", "register", "mode_of", "ONLINE_SAVE_KEY",
           "before_online", "Page", "PAGES", "register_page", "TABLE_MODE"]


MODES: dict[str, Mode] = {}
"""Every mode by key, in menu order."""
DEFAULT_MODE = "computer"
UNLISTED: dict[str, Mode] = {}
"""Modes only a link opens (a friend's challenge, :mod:`web.screens.challenge.screen`): not in the menu."""


def register(mode: Mode, listed: bool = True) -> None:
    """Add a mode to the menu (in menu order), or with ``listed=False`` only to :func:`mode_of`."""
    (MODES if listed else UNLISTED)[mode.key] = mode


def mode_of(key: str | None) -> Mode:
    """The mode of ``key``, or the default one for anything unknown."""
    return MODES.get(key or "") or UNLISTED.get(key or "") or MODES[DEFAULT_MODE]


register(Mode(
    key="computer", label="Against the computer", resume_label="Resume the game against the computer",
    title="vs Computer", names=("You", "Computer"), humans=(0,), perspective=0,
    save_key="cribbage.save.computer", ui_key="cribbage.ui.computer", cover=False, undo=True, restart=True,
    computer=True, start_sentence="New game against the computer. Cut for deal: the lower card deals first.",
    new=local.new, resume=local.resume))
register(Mode(
    key="hotseat", label="Two players, one device", resume_label="Resume the two-player game",
    title="Two players", names=("Player 1", "Player 2"), humans=(0, 1), perspective=None,
    save_key="cribbage.save.hotseat", ui_key="cribbage.ui.hotseat", cover=True, undo=True, restart=True,
    computer=False, start_sentence="New game for two players. Cut for deal: the lower card deals first.",
    new=local.new, resume=local.resume))


TABLE_MODE = Mode(
    key="table", label="Three or four players", resume_label="Resume the game of three or four",
    title="Three or four", names=("You", "West", "East"), humans=(0,), perspective=None,
    save_key="cribbage.save.table", ui_key="cribbage.ui.table", cover=True, undo=True, restart=True,
    computer=True, start_sentence="New game. Cut for deal: the lowest card deals first.",
    new=local.new, resume=local.resume)
"""Three or four players on this device (any mix of people and computers, from the New game
dialog). With one person at the table it is drawn from their seat, without a cover (the controller
takes the match's only human as its perspective); with more, the device passes round in turn order."""
register(TABLE_MODE)


_BEFORE_ONLINE: list[Callable[[], None]] = []


def before_online(fn: Callable[[], None]) -> None:
    """Run ``fn`` once, just after online play is first imported (the page configures it there)."""
    _BEFORE_ONLINE.append(fn)


def _online_ready() -> None:
    while _BEFORE_ONLINE:
        _BEFORE_ONLINE.pop(0)()


def _online_new(mode: Mode, ctx: OpenContext, seed: int, level: str) -> Session:
    """Create a room (online play is imported now, on first use)."""
    from web.sessions.online import room as online

    _online_ready()
    return online.new_room(mode, ctx, seed, level)


def _online_resume(mode: Mode, ctx: OpenContext) -> tuple[Session | None, str | None]:
    """Join or reclaim the room of the URL, else reopen the last one (online play is imported now)."""
    from web.sessions.online import room as online

    _online_ready()
    return online.resume_room(mode, ctx)


register(Mode(
    key="online", label="Play online", resume_label="Resume the online game",
    title="Online", names=("You", "Friend"), humans=(0, 1), perspective=0,
    save_key=ONLINE_SAVE_KEY, ui_key="cribbage.ui.online", cover=False, undo=False, restart=False,
    computer=False, start_sentence="A new online room is open: share its link with your friend.",
    new=_online_new, resume=_online_resume, room_rules=True))


@dataclass(frozen=True)
class Page:
    """A page of its own beside the table (``?mode=KEY``: no match, its own screen and glue, started
    by :func:`web.page.start.start`); the menu links it under its heading."""

    key: str
    """``?mode=`` of the page: ``"score"``."""
    heading: str
    """The menu's heading above the link: ``"Playing with real cards?"``."""
    label: str
    """The link: ``"Scorekeeper"``."""
    link_id: str


PAGES: dict[str, Page] = {}
"""Every page of its own by key, in menu order."""


def register_page(page: Page) -> None:
    """Add a page of its own to the menu."""
    PAGES[page.key] = page


register_page(Page("score", "Playing with real cards?", "Scorekeeper", "btn-scorekeeper"))
register_page(Page("puzzle", "Daily discard puzzle", "Today\u2019s puzzle", "btn-puzzle"))
