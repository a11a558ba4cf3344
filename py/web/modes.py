"""The ways to play, as a registry: the controller never compares mode names.

A :class:`Mode` says how the table looks from this device (``perspective``: the seat that is "you",
None in hot-seat where the seat to act is drawn at the bottom), where its match is saved, whether
the pass-the-device cover is used, what the menu offers (undo/redo, restart, the computer's level
and speed, the coach's review) and how to open a session (``new`` and ``resume``).

Online play's entry is here too, but not online play: its session, its deal's big-integer protocol
and their hashing live in :mod:`web.online`, imported only when an online session is first opened
(a ``?room=`` link, the saved online match, the New game dialog's choice). Most players never open
it, and the page starts faster without it. The page configures online play then, through
:func:`before_online`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Callable

from cribbage.match import Match

from .newgame import levels_of
from .seats import Computer, LocalHuman, Seat, Timer
from .series_play import open_game
from .session import LocalSession, Session
from .storage import Storage

__all__ = ["Mode", "OpenContext", "MODES", "DEFAULT_MODE", "register", "mode_of", "ONLINE_SAVE_KEY",
           "before_online", "Page", "PAGES", "register_page"]


@dataclass(frozen=True)
class OpenContext:
    """What a mode needs from the page to open a session."""

    storage: Storage
    timer: Timer
    delay: Callable[[], int]
    """The computer's pacing now (ms)."""
    now_ms: Callable[[], int]


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


def _seats(mode: Mode, match: Match, ctx: OpenContext) -> tuple[Seat, ...]:
    """One driver per seat of the match's table (2, 3 or 4): a person at this device, or the computer
    at its own level (the match's ``levels`` by seat, else its ``level``: the menu may change it)."""
    def level_of(seat: int) -> Callable[[], str]:
        return lambda: levels_of(match.options, match.rules.players)[seat]

    def seed() -> int:
        return (match.seed * 1_000_003 + len(match.actions)) % (2**61)

    out: list[Seat] = []
    for seat in range(match.rules.players):
        if seat in match.humans:
            out.append(LocalHuman(match.names[seat]))
        else:
            out.append(Computer(match.names[seat], ctx.timer, level_of(seat), ctx.delay, seed))
    return tuple(out)


def _local_new(mode: Mode, ctx: OpenContext, seed: int, level: str) -> Session:
    """The next game of the mode's series, or a new match of the New game dialog's remembered choice."""
    match, acked = open_game(ctx.storage, mode.key, mode.save_key, seed, level)
    session = LocalSession(match, _seats(mode, match, ctx), ctx.storage, mode.save_key, mode.ui_key, acked_hand=acked)
    session.save()
    return session


def _local_resume(mode: Mode, ctx: OpenContext) -> tuple[Session | None, str | None]:
    """Load the saved match; set aside a save that cannot be read (never lost) with a notice."""
    key = mode.save_key
    raw = ctx.storage.get(key)
    if raw is None:
        return None, None
    try:
        match = Match.from_json(raw)
        if set(match.humans) != set(mode.humans) and mode.key != "table":
            raise ValueError("it belongs to the other mode")
    except Exception as exc:  # noqa: BLE001 - any unreadable save is set aside, never lost
        aside = f"{key}.corrupt.{ctx.now_ms()}"
        try:
            ctx.storage.set(aside, raw)
        except Exception:  # noqa: BLE001
            aside = "(it could not be copied)"
        reason = str(exc) or type(exc).__name__
        return None, (f"Your saved game could not be read ({reason}). It was set aside as "
                      f"\u201c{aside}\u201d and a new game has started.")
    ack = 0
    try:
        raw_ui = ctx.storage.get(mode.ui_key)
        value = json.loads(raw_ui).get("ack", 0) if raw_ui else 0
        ack = value if isinstance(value, int) else 0
    except Exception:  # noqa: BLE001 - the acknowledgement is a convenience
        ack = 0
    return LocalSession(match, _seats(mode, match, ctx), ctx.storage, key, mode.ui_key, acked_hand=ack), None


MODES: dict[str, Mode] = {}
"""Every mode by key, in menu order."""
UNLISTED: dict[str, Mode] = {}
"""Modes only a link opens (a friend's challenge, :mod:`web.challenge_mode`): not in the menu."""
DEFAULT_MODE = "computer"


def register(mode: Mode, listed: bool = True) -> None:
    """Add a mode to the menu (online play registers itself from its own module), or with
    ``listed=False`` only to :func:`mode_of`."""
    (MODES if listed else UNLISTED)[mode.key] = mode


def mode_of(key: str | None) -> Mode:
    """The mode of ``key``, or the default one for anything unknown."""
    return MODES.get(key or "") or UNLISTED.get(key or "") or MODES[DEFAULT_MODE]


register(Mode(
    key="computer", label="Against the computer", resume_label="Resume the game against the computer",
    title="vs Computer", names=("You", "Computer"), humans=(0,), perspective=0,
    save_key="cribbage.save.computer", ui_key="cribbage.ui.computer", cover=False, undo=True, restart=True,
    computer=True, start_sentence="New game against the computer. Cut for deal: the lower card deals first.",
    new=_local_new, resume=_local_resume))
register(Mode(
    key="hotseat", label="Two players, one device", resume_label="Resume the two-player game",
    title="Two players", names=("Player 1", "Player 2"), humans=(0, 1), perspective=None,
    save_key="cribbage.save.hotseat", ui_key="cribbage.ui.hotseat", cover=True, undo=True, restart=True,
    computer=False, start_sentence="New game for two players. Cut for deal: the lower card deals first.",
    new=_local_new, resume=_local_resume))


TABLE_MODE = Mode(
    key="table", label="Three or four players", resume_label="Resume the game of three or four",
    title="Three or four", names=("You", "West", "East"), humans=(0,), perspective=None,
    save_key="cribbage.save.table", ui_key="cribbage.ui.table", cover=True, undo=True, restart=True,
    computer=True, start_sentence="New game. Cut for deal: the lowest card deals first.",
    new=_local_new, resume=_local_resume)
"""Three or four players on this device (any mix of people and computers, from the New game
dialog). Its sessions and saves work; it joins the menu (``register(TABLE_MODE)``) once the table
draws three and four seats (``web.newgame.COMING_SOON``)."""


ONLINE_SAVE_KEY = "cribbage.online.current"
"""The room this browser last played in (``web.online.CURRENT_KEY``): the menu offers to resume it."""
_BEFORE_ONLINE: list[Callable[[], None]] = []


def before_online(fn: Callable[[], None]) -> None:
    """Run ``fn`` once, just after online play is first imported (the page configures it there)."""
    _BEFORE_ONLINE.append(fn)


def _online_ready() -> None:
    while _BEFORE_ONLINE:
        _BEFORE_ONLINE.pop(0)()


def _online_new(mode: Mode, ctx: OpenContext, seed: int, level: str) -> Session:
    """Create a room (online play is imported now, on first use)."""
    from . import online

    _online_ready()
    return online.new_room(mode, ctx, seed, level)


def _online_resume(mode: Mode, ctx: OpenContext) -> tuple[Session | None, str | None]:
    """Join or reclaim the room of the URL, else reopen the last one (online play is imported now)."""
    from . import online

    _online_ready()
    return online.resume_room(mode, ctx)


register(Mode(
    key="online", label="Play online", resume_label="Resume the online game",
    title="Online", names=("You", "Friend"), humans=(0, 1), perspective=0,
    save_key=ONLINE_SAVE_KEY, ui_key="cribbage.ui.online", cover=False, undo=False, restart=False,
    computer=False, start_sentence="A new online room is open: share its link with your friend.",
    new=_online_new, resume=_online_resume))


@dataclass(frozen=True)
class Page:
    """A page of its own beside the table (``?mode=KEY``: no match, its own screen and glue, started
    by :func:`web.browser.start`); the menu links it under its heading."""

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
