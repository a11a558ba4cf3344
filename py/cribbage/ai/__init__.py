"""The computer opponent and the coach.

- :func:`make_player` builds a :class:`Player` by name (``PLAYER_NAMES``); a player's ``choose``
  receives only a :class:`~cribbage.view.SeatView` and returns one of its legal actions, in every
  phase (cuts, discard, starter, play or Go, the show's Count, muggins), at every table of the rule
  book (:class:`~cribbage.rules.Rules`).
- The coach (:mod:`cribbage.ai.coach`): :func:`analyze_discards` (all 15 discards with exact hand
  EV, crib EV from the table, net; or the 5 of five cards, by whose crib it is),
  :func:`analyze_plays` (every legal card with its expected net pegging, or its chance of winning
  near the target; at three or four a search over the hidden hands, :mod:`cribbage.ai.table_play`),
  :func:`hint` (a suggestion with a sentence, in any phase) and :func:`review_hand` (each decision
  of a hand against the best). :func:`supports` says which parts work at which table.
- Muggins in the play: a computer seat of another side may call muggins on a card just laid, in turn
  or not. A driver asks :func:`call_for_level` (``view`` of that seat, its level) for each computer
  seat in ``view.callers`` after every claim; the answer is the same however often it is asked.
- :mod:`cribbage.ai.simulate`: duplicate matches between two players, with statistics;
  :mod:`cribbage.ai.cli`: the ``analyze`` and ``simulate`` commands.

Data made by our own tools (``py/tools/make_*_table.py``) and loaded from ``cribbage/data``:
``crib_values.json`` and ``crib1_values.json`` (see CRIB_TABLE.md), ``win_table.json`` (chance of winning from any
score) and
``peg_values.json`` (open-hand pegging value of each four-rank keep). Strength and speed: BENCH.md.

The engine's rules (cards, scoring, the state machine, views, saves) never import this package; a
few features built on both import it lazily, inside the function that needs it: the record's coach
review (:mod:`cribbage.record.coach_run`), the daily puzzle's answer (:mod:`cribbage.puzzle`), a
challenge's comparison (:mod:`cribbage.challenge`) and the terminal game (:mod:`cribbage.terminal`),
the command line too (:mod:`cribbage.__main__`). This package never imports pyscript or js.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ..actions import Action
from ..rules import Rules
from ..view import SeatView
from .coach import (
    DecisionReview,
    DiscardChoice,
    Hint,
    PlayChoice,
    analyze_discards,
    analyze_plays,
    hint,
    review_hand,
)
from .players import ExpertPlayer, GreedyPlayer, RandomPlayer, call_for_level
from .players import TablePlayer
from .levels import LEVELS, LevelPlayer

__all__ = [
    "Player",
    "PLAYER_NAMES",
    "make_player",
    "DiscardChoice",
    "PlayChoice",
    "Hint",
    "DecisionReview",
    "analyze_discards",
    "analyze_plays",
    "hint",
    "review_hand",
    "supports",
    "PARTS",
    "call_for_level",
]

PARTS: dict[str, str] = {
    "discard": "the discard analysis and the players' discards (six cards, or five where one is laid away)",
    "play": "the play search and the players' plays (two players exactly; three or four by a search "
            "over the hidden hands, cribbage.ai.table_play)",
    "endgame": "the chance of winning near the target (discards and plays) and the win table: two "
               "players with six cards, to 121 or 61",
    "peg_table": "the pegging term of a discard (peg_values.json): two players with six cards",
    "review": "the coach's review of a hand (review_hand) and the record's coach totals: every table",
    "hint": "the coach's hint in any phase (muggins claims and calls included): every table",
}
"""The parts of the computer and the coach :func:`supports` answers for, with what each covers."""


def supports(rules: Rules, part: str) -> bool:
    """Whether ``part`` (a key of :data:`PARTS`) works at the table ``rules``, so a caller can offer it
    or leave it out. Discards, plays, hints and the review work at every table; what was made from
    two-player six-card games (the win table and the endgame built on it, the pegging table) says so.
    """
    if part not in PARTS:
        raise ValueError(f"unknown part {part!r}: one of {', '.join(PARTS)}")
    two_six = rules.players == 2 and rules.discards == 2
    if part in ("discard", "play", "review", "hint"):
        return True
    return two_six


@runtime_checkable
class Player(Protocol):
    """A computer player: sees one seat's view, returns one of its legal actions."""

    name: str

    def choose(self, view: SeatView) -> Action:
        """The action to take now (``view.legal_actions`` must not be empty)."""
        ...


PLAYER_NAMES: tuple[str, ...] = ("random", "greedy", "easy", "medium", "expert")
"""The levels :func:`make_player` knows, weakest first (it also knows ``table``, a plain player for
any table: best average hand and greedy pegging; the levels play every table with the coach)."""



def make_player(name: str, seed: int | None = None) -> Player:
    """A player by name: ``random``, ``greedy``, ``easy``, ``medium``, ``expert`` (or ``table``)."""
    key = name.strip().lower() if isinstance(name, str) else name
    if key == "random":
        return RandomPlayer(seed)
    if key == "greedy":
        return GreedyPlayer(seed)
    if key == "table":
        return TablePlayer(seed)
    if key == "expert":
        return ExpertPlayer(seed)
    if key in LEVELS:  # the weaker levels: the expert's evaluation with people's mistakes (.levels)
        return LevelPlayer(seed, level=LEVELS[key])
    raise ValueError(f"unknown player {name!r}: choose one of {', '.join(PLAYER_NAMES)}")
