"""What a way to play is: :class:`Mode` (one entry of :mod:`web.sessions.registry`) and the
:class:`OpenContext` a mode opens its session with. Only types: the registry and each mode's module
(:mod:`web.sessions.online.peer`) import them from here, so neither imports the other's module at start.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from cribbage.rules import Rules

from web.sessions.seats import Timer
from web.sessions.session import Session
from web.sessions.storage import Storage

__all__ = ["Mode", "OpenContext", "ONLINE_SAVE_KEY"]

ONLINE_SAVE_KEY = "cribbage.online.current"
"""The room this browser last played in (``web.sessions.online.peer.CURRENT_KEY``): the menu offers to resume it."""


@dataclass(frozen=True)
class OpenContext:
    """What a mode needs from the page to open a session."""

    storage: Storage
    timer: Timer
    delay: Callable[[], int]
    """The computer's pacing now (ms)."""
    now_ms: Callable[[], int]
    rules: Rules | None = None
    """The table the player chose for this new match where the mode takes it from the page (online:
    the room's house rules from the menu); None: the mode's own default."""
    nonce: str | None = None
    """A new match against the computer commits to its deals with this nonce (:mod:`cribbage.fairness`);
    None: no commitment (a seed the address chose)."""


@dataclass(frozen=True)
class Mode:
    """One way to play."""

    key: str
    """Stable id in saves, the URL (``?mode=``) and the markup: ``"computer"``."""
    label: str
    """In the New game dialog: ``"Against the computer"``."""
    resume_label: str
    title: str
    """In the header: ``"vs Computer"``."""
    names: tuple[str, ...]
    """The seats' names in a new match."""
    humans: tuple[int, ...]
    perspective: int | None
    """The seat that is "you" on this device; None: whichever seat acts (hot-seat)."""
    save_key: str
    ui_key: str
    cover: bool
    """Pass-the-device cover before private cards are drawn."""
    undo: bool
    """Undo and redo offered."""
    restart: bool
    computer: bool
    """The computer's level and speed in the menu, its level badge, the coach's review."""
    start_sentence: str
    """Said when a new match starts."""
    new: Callable[["Mode", OpenContext, int, str], Session]
    """Open a new match: (mode, context, seed, level)."""
    resume: Callable[["Mode", OpenContext], tuple[Session | None, str | None]]
    """Reopen the saved match: (session or None if nothing usable, a notice for the player)."""
    room_rules: bool = False
    """The menu offers the two-player house rules for a new match of this mode (online: the room's
    rules, :mod:`web.sessions.online.room_rules`), passed in :attr:`OpenContext.rules`."""
