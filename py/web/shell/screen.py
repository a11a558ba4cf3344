"""The contract of everything on screen, and the one router of clicks.

A **screen** is what fills the page: the table (:mod:`web.table.screen`), the Puzzle
(:mod:`web.screens.puzzle.screen`), the Scorekeeper (:mod:`web.screens.scorekeeper.screen`). It has a
scene (what it shows, a plain value), draws the scene as markup, and answers the page's clicks and keys.
A **part** is a piece of a screen with controls of its own: the dialogs over the table (New game,
Your record, a friend's Challenge, the menu, the comforts). Both name their controls in one explicit
table, ``data-action`` value -> bound method, instead of a method found by its name at run time
(a method looked up by a name made from the action): a handler misspelt or a control the markup draws without a handler
is a test failure (tests/web/test_screens.py), not a tap that silently does nothing.

Why a table rather than ``click(action, data) -> bool`` alone: a table can be listed. The test reads
every ``data-action`` the markup emits over scripted games and checks that the router knows it; the
router refuses two parts claiming one action (the second would never run). :func:`route`
(:mod:`web.kit.controls`, below the screens so each can use it) is the ``click`` every screen shares:
``disabled`` controls do nothing, unknown actions are refused (False).

Why ``key(key, ctrl, shift, alt, target_action)`` rather than a record of modifiers: it is how the
page (:func:`web.page.host.on_key`) calls every screen today, positionally.

The shell (:class:`web.shell.controller.Controller`) owns the :class:`Router`: the table screen's
actions, the menu's, the comforts', and the parts imported on first use (the record, New game and
challenge dialogs) by the prefix of their actions, so the start stays lazy.

Nothing here imports a screen: screens implement the contract structurally (mypy checks each against
:class:`Screen` where the shell or the page holds it), so ``table`` and ``screens`` sit below ``shell``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol, Sequence, TypeVar

from web.kit.controls import Handler, route
from web.kit.frame import Rendered

__all__ = ["Handler", "Part", "Screen", "Router", "route"]

S = TypeVar("S")


class Part(Protocol):
    """A piece of a screen with controls: its table of ``data-action`` -> handler."""

    def actions(self) -> Mapping[str, Handler]:
        """Every control this part draws, each with the bound method that answers it."""
        ...


class Screen(Part, Protocol[S]):
    """What fills the page: its scene, its markup, its clicks (:meth:`Part.actions`) and its keys."""

    def scene(self) -> S:
        """What the screen shows now (a plain value: the tests read it, the markup is drawn from it)."""
        ...

    def render(self, scene: S) -> Rendered:
        """The markup of ``scene`` (pure: the same scene, the same bytes)."""
        ...

    def key(self, key: str, ctrl: bool = False, shift: bool = False, alt: bool = False,
            target_action: str | None = None) -> bool:
        """A key press; True if it was used (the page then prevents the browser's default).
        ``target_action``: the ``data-action`` of the focused element (Enter on a button presses it)."""
        ...


class Router:
    """One table of actions over the parts of a screen.

    ``parts`` are (prefix, part getter): the getter is called the first time an action starting with
    its prefix comes ("" : the part is asked for every action, in order). A part imported on first
    use is named by a getter, so the start does not import it."""

    def __init__(self, parts: Sequence[tuple[str, Callable[[], Part]]]) -> None:
        self._parts = list(parts)

    def handler(self, action: str) -> Handler | None:
        """The handler of ``action`` (None: no part knows it)."""
        for prefix, part in self._parts:
            if action.startswith(prefix):
                found = part().actions().get(action)
                if found is not None:
                    return found
        return None

    def table(self) -> dict[str, Handler]:
        """Every action of every part (each part loaded): for the tests. Two parts claiming one
        action, or an action outside its part's prefix, is a ValueError."""
        out: dict[str, Handler] = {}
        for prefix, part in self._parts:
            for action, handler in part().actions().items():
                if action in out:
                    raise ValueError(f"two parts answer {action!r}")
                if not action.startswith(prefix):
                    raise ValueError(f"{action!r} is outside its part's prefix {prefix!r}: it is never routed")
                out[action] = handler
        return out


if TYPE_CHECKING:  # mypy holds each screen to the contract (a member missing or mistyped fails it)
    from web.screens.puzzle.screen import PuzzleController
    from web.screens.scorekeeper.screen import ScoreController
    from web.table.screen import TableScreen

    def _screens(table: TableScreen, puzzle: PuzzleController, keeper: ScoreController) -> tuple[Screen[Any], ...]:
        return (table, puzzle, keeper)
