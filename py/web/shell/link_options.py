"""The page address's options, checked in one place: what a link may ask for, and why a value was ignored.

:func:`read_link` takes the options as the page read them (``{"seed": "31", "level": "expert"}``) and
returns the ones that can be used, with a sentence for each one that cannot, in a player's words
(``"The link's seed was not a number from 0 to 18446744073709551615, so a random deal was used."``).
The controller shows those sentences in a dismissible notice and starts the usual game without the
bad option; nothing else reads an option before this has passed it. One check per option, in
:data:`CHECKS` (adding an option is one line there); the table's words (``rules=``, ``seats=``,
``series=``) are the New game dialog's own (:mod:`web.sessions.newgame`, one list of rule words).

What is checked::

    seed     a number from 0 to 2**64 - 1 (the deals of that seed)
    delay    the computer's pause, 0 to 10000 milliseconds
    mode     computer, hotseat, table, online, challenge, score, puzzle
    level    easy, medium, expert
    motion   on or off
    players  2, 3 or 4          seats    you,expert,...       to   121 or 61
    rules    pack2,muggins,...  series   3[,alternate,...]

``room=`` and an online room's ``rules=`` are online play's own (:mod:`web.sessions.online.peer` checks
them and says what it did instead); other names (``signal``, ``trace``, ``embed``...) belong to the
pages that read them and pass through untouched.
"""

from __future__ import annotations

from typing import Callable, Mapping

from cribbage.match import MAX_SEED
from cribbage.rules import TARGETS, RulesError

from web.sessions.newgame import LEVELS, RULE_WORDS, SeatChoice, parse_series
from web.sessions.registry import MODES, PAGES

__all__ = ["read_link", "CHECKS", "LINK_NAMES", "MAX_DELAY", "MODE_WORDS"]

MAX_DELAY = 10_000
"""The longest pause a link may give the computer (ms): the menu's slowest is 1200."""
MODE_WORDS = ("challenge",)
"""``mode=`` values beside the menu's modes and pages: a challenge's match, reopened."""

Check = Callable[[str, Mapping[str, str]], "str | None"]
"""One option's check: its value and all the options in, None if usable, else why not (a sentence)."""


def _shown(value: str) -> str:
    """The value as a sentence quotes it: short, printable."""
    text = "".join(ch if ch.isprintable() else "?" for ch in value[:16]) + ("\u2026" if len(value) > 16 else "")
    return f"\u201c{text}\u201d"


def _either(words: tuple[str, ...]) -> str:
    """``"easy, medium or expert"``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _number(value: str, lo: int, hi: int) -> int | None:
    """``value`` as a whole number from ``lo`` to ``hi`` (ASCII digits only), else None."""
    if not value.isascii() or not value.isdigit() or len(value) > len(str(hi)):
        return None  # (int() of thousands of digits raises; "²" is a digit to isdigit())
    number = int(value)
    return number if lo <= number <= hi else None


def _seed(value: str, options: Mapping[str, str]) -> str | None:
    if _number(value, 0, MAX_SEED) is None:
        return f"The link's seed was not a number from 0 to {MAX_SEED}, so a random deal was used."
    return None


def _delay(value: str, options: Mapping[str, str]) -> str | None:
    if _number(value, 0, MAX_DELAY) is None:
        return (f"The link's delay {_shown(value)} was not a pause from 0 to {MAX_DELAY} milliseconds, "
                "so the computer plays at your usual speed.")
    return None


def mode_keys() -> tuple[str, ...]:
    """Every ``mode=`` a link may name."""
    return (*MODES, *MODE_WORDS, *PAGES)


def _mode(value: str, options: Mapping[str, str]) -> str | None:
    if value not in mode_keys():
        listed = _either(tuple(k for k in mode_keys() if k not in MODE_WORDS))
        return (f"The link's mode {_shown(value)} is not a way to play here ({listed}), "
                "so your last game was opened.")
    return None


def _level(value: str, options: Mapping[str, str]) -> str | None:
    if value not in LEVELS:
        return (f"The link's level {_shown(value)} was not {_either(LEVELS)}, "
                "so the computer plays at your usual level.")
    return None


def _motion(value: str, options: Mapping[str, str]) -> str | None:
    if value not in ("on", "off"):
        return f"The link's motion {_shown(value)} was not on or off, so cards move as usual."
    return None


def _players(value: str, options: Mapping[str, str]) -> str | None:
    if value not in ("2", "3", "4"):
        return f"The link asked for {_shown(value)} players, not 2, 3 or 4, so your usual table was set."
    return None


def _seats(value: str, options: Mapping[str, str]) -> str | None:
    try:
        for token in value.split(","):
            SeatChoice.parse(token)
    except ValueError:
        return (f"The link's seats {_shown(value)} were not a list of you, player, easy, medium or "
                "expert, so your usual seats were kept.")
    return None


def _target(value: str, options: Mapping[str, str]) -> str | None:
    if value not in tuple(str(t) for t in TARGETS):
        return (f"The link asked for a game to {_shown(value)}, not to {' or '.join(str(t) for t in TARGETS)}, "
                "so the game goes to your usual score.")
    return None


def _series(value: str, options: Mapping[str, str]) -> str | None:
    try:
        parse_series(value)
    except (ValueError, RulesError) as exc:
        return f"The link's series {_shown(value)} could not be used ({exc}), so your usual series setting was kept."
    return None


def _rules(value: str, options: Mapping[str, str]) -> str | None:
    unknown = [w for w in (w.strip().lower() for w in value.split(",")) if w and w != "classic" and w not in RULE_WORDS]
    if not unknown:
        return None
    names = ", ".join(_shown(w) for w in unknown)
    return (f"The link's rule{'s' if len(unknown) > 1 else ''} {names} "
            f"{'are' if len(unknown) > 1 else 'is'} not one of {_either(tuple(RULE_WORDS))}, "
            f"so {'they were' if len(unknown) > 1 else 'it was'} left out.")


def _good_rules(value: str) -> str:
    """``rules=`` without its unknown words (the known ones still apply)."""
    return ",".join(w for w in (w.strip().lower() for w in value.split(",")) if w in RULE_WORDS or w == "classic")


CHECKS: dict[str, Check] = {"seed": _seed, "delay": _delay, "mode": _mode, "level": _level, "motion": _motion,
                            "players": _players, "seats": _seats, "to": _target, "series": _series,
                            "rules": _rules}
"""Every option checked, by name."""
LINK_NAMES = (*CHECKS, "room")
"""The names the page reads for the table (:func:`web.page.host._params`): every one checked here,
and the online room's (online play checks it)."""


def read_link(options: Mapping[str, str]) -> tuple[dict[str, str], tuple[str, ...]]:
    """The usable options of ``options`` and a sentence for each one left out (or cut down: the
    known words of ``rules=`` stay). Options it does not check pass through."""
    kept = dict(options)
    said: list[str] = []
    online = options.get("mode") == "online" or "room" in options
    for name, check in CHECKS.items():
        value = options.get(name)
        if not value or (name == "rules" and online):
            continue  # an online room's rules are online play's to check (it says what it does)
        why = check(value, options)
        if why is None:
            continue
        said.append(why)
        if name == "rules" and _good_rules(value):
            kept[name] = _good_rules(value)
        else:
            del kept[name]
    return kept, tuple(said)
