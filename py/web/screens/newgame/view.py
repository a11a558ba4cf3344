"""The New game dialog's markup: a pure function of :class:`NewGameScene`.

Every choice is a native radio group or checkbox in a ``<fieldset>`` with its ``<legend>`` (so a
screen reader names each group and the arrow keys move within it); each control carries
``data-action="newgame-set"`` with ``data-field`` and ``data-choice``, which the controller turns
into :func:`web.sessions.newgame.edit`. What the page cannot play yet is shown disabled with its note
(:data:`web.sessions.newgame.COMING_SOON`). The preview sentence says exactly what *Start* will open.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from cribbage.rules import Rules

from web.sessions.newgame import (
    COMING_SOON,
    LEVELS,
    PRESET_LABELS,
    PRESETS,
    SERIES_LENGTHS,
    NewGame,
    preset_of,
    skunk_choice,
)

__all__ = ["NewGameScene", "newgame_dialog", "NEWGAME_DIALOG", "rule_controls", "room_rules_html"]

NEWGAME_DIALOG = "newgame"
"""The controller's dialog name for it."""


@dataclass(frozen=True)
class NewGameScene:
    """What the dialog shows."""

    draft: NewGame
    """The choice being made (preselected: the last one started)."""
    problems: tuple[str, ...] = ()
    """Why it cannot start (sentences), or nothing."""
    soon: tuple[str, ...] = ()
    """What of it the page cannot play yet (the notes of :data:`COMING_SOON`)."""
    notes: tuple[str, ...] = ()
    """The URL's options that could not be used."""


def _esc(text: object) -> str:
    return escape(str(text), quote=True)


def _input(kind: str, field: str, choice: str, label: str, checked: bool, disabled: str | None = None,
           name: str | None = None, action: str = "newgame-set", prefix: str = "ng") -> str:
    """One radio or checkbox in its label; ``disabled`` is the note saying why it is not offered.
    ``action`` and ``prefix`` (of its id and group name) let another screen use the same control."""
    ident = f"{prefix}-{field}-{choice}"
    attrs = [f'type="{kind}"', f'id="{ident}"', f'name="{_esc(name or prefix + "-" + field)}"',
             f'data-action="{_esc(action)}"', f'data-field="{_esc(field)}"', f'data-choice="{_esc(choice)}"']
    if checked:
        attrs.append("checked")
    note = ""
    if disabled:
        attrs.append("disabled")
        attrs.append(f'aria-describedby="{ident}-note"')
        note = f' <span class="ng-soon" id="{ident}-note">{_esc(disabled)}</span>'
    return (f'<label class="ng-option{" ng-disabled" if disabled else ""}" for="{ident}">'
            f'<input {" ".join(attrs)}><span>{_esc(label)}</span>{note}</label>')


def _group(legend: str, body: str, cls: str = "") -> str:
    return f'<fieldset class="ng-group{" " + cls if cls else ""}"><legend>{_esc(legend)}</legend>{body}</fieldset>'


def _soon(*features: str) -> str | None:
    notes = [COMING_SOON[f] for f in features if f in COMING_SOON]
    return notes[0] if notes else None


def _seat_where(n: int, seat: int) -> str:
    if n == 2:
        return "across the table"
    if n == 3:
        return ("on your left", "on your right")[seat - 1]
    return ("on your left", "across: your partner", "on your right")[seat - 1]


def newgame_dialog(scene: NewGameScene) -> str:
    """The whole dialog (backdrop included)."""
    game = scene.draft
    n = game.rules.players
    names = game.names()
    preset = preset_of(game)
    presets = "".join(
        _input("radio", "preset", key, PRESET_LABELS[key], preset == key,
               _soon(*(f for f in PRESETS[key].features() if f in ("three", "four"))))
        for key in PRESETS)
    players = "".join(
        _input("radio", "players", str(k), f"{k} players" + (" (two partnerships)" if k == 4 else ""), n == k,
               _soon({3: "three", 4: "four"}.get(k, "")))
        for k in (2, 3, 4))
    seats = [f'<p class="ng-seat-you">Seat 1: <strong>{_esc(names[0])}</strong> (you, at the bottom of the table)</p>']
    for i in range(1, n):
        s = game.seats[i]
        options = _input("radio", f"seat-{i}", "player", "Another player on this device", s.kind == "player")
        options += "".join(_input("radio", f"seat-{i}", lv, f"Computer: {lv}", s.kind == "computer" and s.level == lv)
                           for lv in LEVELS)
        seats.append(_group(f"Seat {i + 1}: {names[i]}, {_seat_where(n, i)}", options, "ng-seat"))
    target, house = rule_controls(game.rules)
    length = 2 * game.series.first_to - 1
    series = "".join(_input("radio", "series", str(k), "One game" if k == 1 else f"Best of {k}", length == k)
                     for k in SERIES_LENGTHS)
    series_more = ""
    if game.is_series:
        skunk = skunk_choice(game.series)
        double = game.rules.double_skunk_line is not None
        skunks = (
            _input(
                "radio", "skunks", "3", "A skunk counts 2" + (", a double skunk 3" if double else ""), skunk == "3"
            )
            + (_input("radio", "skunks", "4", "A skunk counts 2, a double skunk 4", skunk == "4") if double else "")
            + _input(
                "radio", "skunks", "lurch", f"The lurch instead (below {game.rules.lurch_line}: 2)", skunk == "lurch"
            )
            + _input("radio", "skunks", "off", "Skunks count as plain wins", skunk == "off")
        )
        deal = (_input("radio", "deal", "loser", "The loser of a game deals first in the next",
                       game.series.next_dealer == "loser")
                + _input("radio", "deal", "alternate", "The first deal alternates (the cut decides every other game)",
                         game.series.next_dealer == "alternate"))
        series_more = _group("Skunks in the series", skunks) + _group("Who deals first in the next game", deal)
    problems = "".join(f'<p class="ng-problem" role="alert">{_esc(p)}</p>' for p in scene.problems)
    soon = "".join(f'<p class="ng-problem">{_esc(p)}</p>' for p in scene.soon)
    notes = "".join(f'<p class="note">The address asked for something unknown: {_esc(p)}</p>' for p in scene.notes)
    blocked = bool(scene.problems or scene.soon)
    start_attrs = ' aria-disabled="true" aria-describedby="ng-preview"' if blocked else ' aria-describedby="ng-preview"'
    body = (
        notes
        + _group("Presets", players_note(preset) + presets, "ng-presets")
        + _group("Players", players)
        + _group("Who sits where", "".join(seats))
        + _group("The game", target)
        + _group("House rules", house)
        + _group("Series", series)
        + series_more
        + f'<p class="ng-preview" id="ng-preview" aria-live="polite"><strong>You will play:</strong> '
        f"{_esc(game.describe())}</p>"
        + problems + soon
        + '<div class="row"><button type="button" class="btn btn-primary" data-action="newgame-start" '
        f'id="btn-newgame-start"{start_attrs}>Start</button>'
        '<button type="button" class="btn" data-action="close" id="btn-newgame-cancel">Cancel</button></div>'
    )
    return (
        '<div class="backdrop" data-action="close-backdrop"><div class="dialog wide" role="dialog" aria-modal="true" '
        'aria-labelledby="dlg-newgame-title" id="dlg-newgame">'
        '<header class="dialog-head"><h2 id="dlg-newgame-title">New game</h2>'
        '<button type="button" class="btn btn-small close" data-action="close" id="btn-close" '
        'aria-label="Close">\u00d7</button></header>'
        f'<div class="dialog-body newgame">{body}</div></div></div>'
    )


def rule_controls(rules: Rules, action: str = "newgame-set", prefix: str = "ng") -> tuple[str, str]:
    """The controls of the game's length and of the house rules (the one place of their words): the
    New game dialog's, and the menu's for a new online room (``action`` ``newgame-room``, ``prefix``
    ``room``). Returns (the radios of the length, the house rules' checkboxes)."""
    target = "".join(_input("radio", "to", str(t), f"To {t}" + (" (a short game)" if t == 61 else ""),
                            rules.target == t, action=action, prefix=prefix) for t in (121, 61))
    house = ""
    if rules.players == 2:
        on = rules.crib_from_pack == 2
        house += _input(
            "checkbox",
            "pack2",
            "off" if on else "on",
            "Two cards dealt to the crib (five each, one laid away)",
            on,
            _soon("pack2"),
            name=f"{prefix}-pack2",
            action=action,
            prefix=prefix,
        )
    on = rules.muggins
    house += _input(
        "checkbox",
        "muggins",
        "off" if on else "on",
        "Muggins (count your own hand; missed points can be taken)",
        on,
        _soon("muggins"),
        name=f"{prefix}-muggins",
        action=action,
        prefix=prefix,
    )
    on = rules.play_muggins
    house += _input("checkbox", "play-muggins", "off" if on else "on",
                    "Muggins in the play (claim each card\u2019s points; missed points can be taken)",
                    on, name=f"{prefix}-play-muggins", action=action, prefix=prefix)
    on = rules.recut_tens
    house += _input("checkbox", "recut", "off" if on else "on", "Cut again on two ten-cards at the cut for deal", on,
                    name=f"{prefix}-recut", action=action, prefix=prefix)
    return target, house


def room_rules_html(rules: Rules, sentence: str) -> str:
    """The menu's choice of a new online room's table (two, three or four players) and rules: the New
    game dialog's controls and a preview of what the room will play (``sentence``), read out as it changes."""
    target, house = rule_controls(rules, "newgame-room", "room")
    players = "".join(_input("radio", "players", str(n), label, rules.players == n, action="newgame-room",
                             prefix="room") for n, label in ((2, "Two players"), (3, "Three players"),
                                                             (4, "Four players, in two partnerships")))
    return ('<div class="newgame room-rules" id="room-rules">'
            + _group("The room\u2019s table", players)
            + _group("The room\u2019s game", target) + _group("The room\u2019s house rules", house)
            + f'<p class="ng-preview" id="room-preview" aria-live="polite"><strong>{_esc(sentence)}</strong></p>'
            "</div>")


def players_note(preset: str | None) -> str:
    """A line under the presets' legend when the seats are a choice of one's own."""
    return "" if preset is not None else '<p class="note">Your own seating (no preset).</p>'
