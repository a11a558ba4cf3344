"""The house rules of an online room, as words and as a choice (light: no online play imported).

The menu offers them when *Play online* is chosen (the New game dialog's controls,
:func:`web.screens.newgame.view.room_rules_html`): two, three or four players (in two partnerships;
three and four: :mod:`web.sessions.online.party`), a game to 121 or 61, two cards to the crib from the
pack, muggins, muggins in the play, cutting again on tens. The choice is remembered
(:data:`ROOM_RULES_KEY`) and preselected next time; *Start* opens the room at it
(:attr:`web.sessions.base.OpenContext.rules`).
Both pages, and the friend asked to join, read the same sentence (:func:`room_sentence`).
"""

from __future__ import annotations

from typing import Any

from cribbage.rules import CLASSIC, Rules

from web.sessions.newgame import NewGame, edit, keep_choice, read_choice

__all__ = ["ROOM_RULES_KEY", "ROOM_FIELDS", "rules_sentence", "room_sentence", "edit_room", "remembered_room",
           "remember_room"]

ROOM_RULES_KEY = "cribbage.online.newroom"
"""The rules last chosen for a new online room (JSON of ``Rules.to_json``)."""
ROOM_FIELDS = ("players", "to", "pack2", "muggins", "play-muggins", "recut")
"""The controls of a room's rules (the New game dialog's fields of the same names)."""


def rules_sentence(rules: Rules) -> str:
    """``"This room plays: to 61, muggins."``; ``""`` for the classic game."""
    return "" if rules.is_classic else f"This room plays: {rules.describe()}."


def room_sentence(rules: Rules) -> str:
    """The menu's preview of a new room: :func:`rules_sentence`, or the classic game in words."""
    return rules_sentence(rules) or "This room plays: the classic game, to 121."


def edit_room(rules: Rules, field: str, choice: str) -> Rules:
    """The room's rules after one of its controls (the New game dialog's :func:`~web.sessions.newgame.edit`
    on a two-player table); anything else leaves them as they were."""
    if field not in ROOM_FIELDS:
        return rules
    return _online(edit(NewGame(rules=_online(rules)), field, choice).rules)


def _online(rules: Rules) -> Rules:
    """A table online play offers: two players with any house rule, or three, or four in two
    partnerships (:mod:`web.sessions.online.party`) without muggins in the play, which the table of
    three and four does not offer online yet."""
    if rules.players > 2 and rules.play_muggins:
        return rules.with_(play_muggins=False)
    return rules


def remembered_room(storage: Any) -> Rules:
    """The rules last chosen for a room (classic if none, or unreadable)."""
    return read_choice(storage, ROOM_RULES_KEY, lambda data: _online(Rules.from_json(data)), CLASSIC)


def remember_room(storage: Any, rules: Rules) -> None:
    """Keep the choice for next time."""
    keep_choice(storage, ROOM_RULES_KEY, rules.to_json())
