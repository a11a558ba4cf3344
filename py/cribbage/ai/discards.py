"""Discard arithmetic: the exact expected points of each four-card keep, and the crib table.

The hand part is exact: every keep is scored with each of the 46 starters this seat cannot see
(:func:`cribbage.scoring.hand_points`). The crib part comes from ``cribbage/data/crib_values.json``,
a table of expected crib points for each pair of discarded ranks (off-suit and suited), made by
``py/tools/make_crib_table.py`` and described in ``CRIB_TABLE.md``.
"""

from __future__ import annotations

import json
from functools import lru_cache
from itertools import combinations
from pathlib import Path
from typing import Any, Sequence

from ..cards import DECK, Card
from ..scoring import hand_points

__all__ = ["hand_ev", "crib_ev", "crib_table", "keeps", "starters_for", "load_data"]

TABLE_FILE = "crib_values.json"


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


def keeps(hand: Sequence[Card]) -> list[tuple[tuple[Card, ...], tuple[Card, ...]]]:
    """Every way to keep four: (cards laid away, kept four), in hand order. Six cards give the 15
    splits of the classic game, five cards the five single discards of the other tables."""
    out = []
    for pair in combinations(range(len(hand)), len(hand) - 4):
        discard = tuple(hand[i] for i in pair)
        keep = tuple(c for i, c in enumerate(hand) if i not in pair)
        out.append((discard, keep))
    return out
