"""What the page caught and carried on from, where a maintainer can see it.

The web layer keeps a game going after a failure that must not stop it: a full or blocked
storage, a coach that could not review a hand, an optional module that did not load, a name that
could not be read. Each such place catches broadly, says in a comment why carrying on is right,
and calls :func:`caught` with what it was doing, so nothing is swallowed unseen:

- the line goes to standard output (in the browser, Pyodide writes it to the console as a log
  line, not an error: carrying on is by design), once per place and kind of error, so a loop that
  keeps failing does not flood the console;
- the last :data:`KEEP` are kept in :data:`CAUGHT` (tests read it; so can a maintainer in the
  page's Python console).

>>> clear(); caught("settings: read", ValueError("bad json"), quiet=True)
>>> CAUGHT[-1]
('settings: read', 'ValueError', 'bad json')
"""

from __future__ import annotations

import sys
from collections import deque

KEEP = 50
CAUGHT: deque[tuple[str, str, str]] = deque(maxlen=KEEP)
_SAID: set[tuple[str, str]] = set()


def caught(where: str, exc: BaseException, *, quiet: bool = False) -> None:
    """Record that ``where`` caught ``exc`` and carried on."""
    kind = type(exc).__name__
    CAUGHT.append((where, kind, str(exc)[:300]))
    if not quiet and (where, kind) not in _SAID:
        _SAID.add((where, kind))
        print(f"cribbage: carried on after {kind} in {where}: {str(exc)[:300]}", file=sys.stdout)


def clear() -> None:
    """Forget what was caught (tests)."""
    CAUGHT.clear()
    _SAID.clear()
