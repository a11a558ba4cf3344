"""Cribbage for two, three or four players (four as partners): cards, scoring, the match state machine,
what one seat may see, saves and the match record. Standard library only.

The core, importable from here: :class:`Match` (a seed and its actions: play, undo, redo, saves),
:class:`Rules` (the table: players, target, muggins...), :class:`SeatView` (what one seat may know,
the only thing a UI or a bot receives), the actions (:class:`Discard`, :class:`Play`, :class:`Go`...)
and the errors (:class:`IllegalActionError`, :class:`SaveError`, :class:`RulesError`...).

>>> from cribbage import Match, Rules, Discard, IllegalActionError
>>> match = Match(seed=7)
>>> match.apply("cutdeal 0 4")
>>> match.apply("cutdeal 1 47")
>>> match.apply(match.legal_actions()[0])  # the pone cuts the pack: the deal
>>> view = match.view(0)
>>> " ".join(card.code for card in view.hand)
'3C 6H TS TC JD KS'
>>> match.apply(Discard(0, view.hand[:2]))
>>> try:
...     match.apply("play 0 KS")
... except IllegalActionError as exc:
...     print(exc)
that is not something to do now: it is time for the discard
>>> Match.from_json(match.to_json()).actions == match.actions
True
>>> Match(seed=7, rules=Rules(players=3)).rules.describe()
'three players'
>>> from cribbage import parse_card, parse_cards, score_hand
>>> score_hand(parse_cards("5H 5C 5S JD"), parse_card("5D")).total
29

Cards and scoring load with the package; the rest (the state machine, views, saves) on first use of
one of its names (a module ``__getattr__``), so ``import cribbage.cards`` alone stays as light as
before.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .cards import Card, CardError, Rank, Suit, parse_card, parse_cards
from .scoring import HandScore, ScoreItem, ScoreKind, score_hand, score_play

if TYPE_CHECKING:
    from .actions import (Action, ActionError, Count, CutForDeal, CutPack, CutStarter, Discard, Go, Muggins, Pass,
                          Play, parse_action)
    from .match import Match, SaveError
    from .rules import CLASSIC, Rules, RulesError
    from .state import GameState, IllegalActionError, Phase
    from .view import SeatView

_LAZY = {
    "Match": "match", "SaveError": "match",
    "Rules": "rules", "RulesError": "rules", "CLASSIC": "rules",
    "SeatView": "view",
    "GameState": "state", "IllegalActionError": "state", "Phase": "state",
    **{name: "actions" for name in ("Action", "ActionError", "Count", "CutForDeal", "CutPack", "CutStarter",
                                    "Discard", "Go", "Muggins", "Pass", "Play", "parse_action")},
}
"""Names loaded on first use, and the module of each."""

__all__ = [
    # cards and scoring (loaded with the package)
    "Card", "CardError", "Rank", "Suit", "parse_card", "parse_cards",
    "HandScore", "ScoreItem", "ScoreKind", "score_hand", "score_play",
    # the match, its table, a seat's view (loaded on first use)
    "Match", "SaveError", "Rules", "RulesError", "CLASSIC", "SeatView", "GameState", "IllegalActionError", "Phase",
    # the actions
    "Action", "ActionError", "Count", "CutForDeal", "CutPack", "CutStarter", "Discard", "Go", "Muggins", "Pass",
    "Play", "parse_action",
]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    """A core name from its module, imported on first use (``from cribbage import Match``)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'cribbage' has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
