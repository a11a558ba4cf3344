"""Work in steps: a search that pauses between its pieces, so a page can spread it over short slices.

A ``*_steps`` function is a generator that yields ``None`` between pieces of its work (one opponent
holding of the play search, one draw of the endgame search) and returns its result; the plain
function of the same name runs it to the end with :func:`finish`. Both do exactly the same work in
the same order (the same random draws), so a choice made in slices is the choice made at once.
"""

from __future__ import annotations

from typing import Generator, TypeVar

__all__ = ["Steps", "finish"]

T = TypeVar("T")
Steps = Generator[None, None, T]
"""Work that yields between pieces and returns a ``T``."""


def finish(steps: Steps[T]) -> T:
    """Run ``steps`` to the end; its result.

    >>> def two() -> Steps[int]:
    ...     yield
    ...     return 2
    >>> finish(two())
    2
    """
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            result: T = stop.value
            return result
