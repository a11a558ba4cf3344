"""Discard arithmetic: the exact expected points of each four-card keep, and the crib table.

The hand part is exact: every keep is scored with each of the 46 starters this seat cannot see
(:func:`cribbage.scoring.hand_points`). The crib part comes from ``cribbage/data/crib_values.json``,
a table of expected crib points for each pair of discarded ranks (off-suit and suited), made by
``py/tools/make_crib_table.py`` and described in ``CRIB_TABLE.md``. Where each player lays away one
card (three players, four in partnerships, two with two cards from the pack) it comes from
``crib1_values.json`` (``py/tools/make_crib1_table.py``): one value per rank for each role of the
crib (own, partner's, an opponent's).
"""

from __future__ import annotations

import json
from functools import lru_cache
from itertools import combinations
from pathlib import Path
from typing import Any, Sequence

from ..cards import DECK, Card
from ..rules import Rules
from ..scoring import hand_points

__all__ = ["hand_ev", "crib_ev", "crib_table", "keeps", "starters_for", "load_data", "crib1_table", "crib1_ev",
           "crib_role", "crib_sign", "one_card_table", "ROLES"]

TABLE_FILE = "crib_values.json"
CRIB1_FILE = "crib1_values.json"
ROLES = ("own", "partner", "opponent")
"""Whose crib a card goes to, seen by the player laying it: his own (he deals), his partner's (his
side's, four players), an opponent's (another player's at a table of three; the other side's)."""


def load_data(name: str) -> dict[str, Any]:
    """A JSON file of ``cribbage/data`` (works from a wheel, a checkout or Pyodide's file system)."""
    text: str | None = None
    try:
        from importlib import resources

        text = resources.files("cribbage").joinpath("data", name).read_text("utf-8")
    except Exception:  # noqa: BLE001 - fall back to a path next to this file
        text = None
    if text is None:
        text = (Path(__file__).resolve().parent.parent / "data" / name).read_text("utf-8")
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError(f"{name} is not a table")
    return data


@lru_cache(maxsize=1)
def crib_table() -> dict[str, Any]:
    """The shipped crib table (loaded once)."""
    data = load_data(TABLE_FILE)
    if data.get("format") != "cribbage-crib-values":
        raise ValueError(f"{TABLE_FILE} is not a crib table")
    return data


@lru_cache(maxsize=4)
def _role_table(role: str) -> tuple[tuple[tuple[float, ...], ...], tuple[tuple[float, ...], ...]]:
    table = crib_table()[role]
    off = tuple(tuple(float(x) for x in row) for row in table["offsuit"])
    suited = tuple(tuple(float(x) if x is not None else 0.0 for x in row) for row in table["suited"])
    return off, suited


def crib_ev(a: Card, b: Card, dealer: bool) -> float:
    """Expected points of a crib holding ``a`` and ``b`` (a positive number for either role).

    As dealer the opponent is assumed to throw what a sensible pone throws (low-value cards for
    your crib); as pone, what a sensible dealer throws into his own crib. See CRIB_TABLE.md.
    """
    off, suited = _role_table("dealer" if dealer else "pone")
    rows = suited if a.suit is b.suit and a.rank != b.rank else off
    return rows[a.rank - 1][b.rank - 1]


@lru_cache(maxsize=1)
def crib1_table() -> dict[str, Any]:
    """The one-card crib table (``crib1_values.json``, made by ``py/tools/make_crib1_table.py``), loaded
    on first use."""
    data = load_data(CRIB1_FILE)
    if data.get("format") != "cribbage-crib1-values":
        raise ValueError(f"{CRIB1_FILE} is not a one-card crib table")
    return data


# The table's role names for (own, partner, opponent), per table.
_ROLE_KEYS: dict[str, dict[str, str]] = {
    "three": {"own": "dealer", "opponent": "other"},
    "partners": {"own": "dealer", "partner": "partner", "opponent": "opponent"},
    "two_pack": {"own": "dealer", "opponent": "pone"},
}


def one_card_table(rules: Rules) -> str:
    """The key of ``rules``'s table in the one-card crib table: ``three``, ``partners`` or ``two_pack``.

    Raises ValueError for the classic deal (two cards each: see :func:`crib_ev`)."""
    if rules.discards != 1:
        raise ValueError("each player lays away two cards at this table: use the two-card crib table")
    if rules.players == 3:
        return "three"
    if rules.players == 4:
        return "partners"
    return "two_pack"


def crib_role(rules: Rules, seat: int, dealer: int) -> str:
    """Whose crib it is for ``seat`` when ``dealer`` deals: ``own``, ``partner`` or ``opponent``."""
    if seat == dealer:
        return "own"
    if rules.side_of(seat) == rules.side_of(dealer):
        return "partner"
    return "opponent"


def crib_sign(role: str) -> int:
    """+1 when the crib counts for the player's side (his own, his partner's), -1 when it counts against."""
    if role not in ROLES:
        raise ValueError(f"unknown crib role {role!r}: one of {', '.join(ROLES)}")
    return -1 if role == "opponent" else 1


@lru_cache(maxsize=16)
def _crib1_row(table: str, role: str) -> tuple[float, ...]:
    keys = _ROLE_KEYS[table]
    if role not in keys:
        raise ValueError(f"there is no {role} crib at the {table} table")
    return tuple(float(x) for x in crib1_table()["values"][table][keys[role]])


def crib1_ev(card: Card, rules: Rules, role: str) -> float:
    """Expected points of the crib ``card`` is laid away to (a positive number for every role), at a
    table where each player lays away one card. The other players are assumed to lay away sensibly for
    their own role; see CRIB_TABLE.md."""
    return _crib1_row(one_card_table(rules), role)[int(card.rank) - 1]


def starters_for(hand: Sequence[Card]) -> list[Card]:
    """The cards that could still be the starter, seen from a seat holding ``hand``."""
    held = set(hand)
    return [c for c in DECK if c not in held]


def hand_ev(keep: Sequence[Card], starters: Sequence[Card]) -> float:
    """Exact average of the kept four's show over the given starters."""
    total = 0
    for s in starters:
        total += hand_points(keep, s)
    return total / len(starters)


def keeps(hand: Sequence[Card], away: int | None = None) -> list[tuple[tuple[Card, ...], tuple[Card, ...]]]:
    """Every way to keep four: (cards laid away, kept four), in hand order. Six cards give 15 splits
    (two laid away), five cards give 5 (one laid away)."""
    n = len(hand) - 4 if away is None else away
    out = []
    for chosen in combinations(range(len(hand)), n):
        discard = tuple(hand[i] for i in chosen)
        keep = tuple(c for i, c in enumerate(hand) if i not in chosen)
        out.append((discard, keep))
    return out
