"""The hot-seat cover: "Pass to ..." over the table while the device changes hands, with the undo
of the player who just moved."""

from __future__ import annotations

from web.kit.html import esc
from web.table.layout import name_list, others
from web.table.scene import Scene


def _cover(scene: Scene) -> str:
    seat = scene.cover_for
    assert seat is not None
    name = scene.names[seat]
    other = name_list([scene.names[s] for s in others(scene.view.rules, seat)])
    return (
        f'<div class="cover seat-{seat} side-{scene.view.rules.side_of(seat)}" role="dialog" aria-modal="true" '
        'aria-labelledby="cover-title" id="cover">'
        '<div class="cover-card">'
        f'<span class="peg-dot big" aria-hidden="true"></span>'
        f'<h2 id="cover-title">Pass to {esc(name)}</h2>'
        f"<p>{esc(other)}, please look away. {esc(name)}: your cards are next.</p>"
        f'<button type="button" class="btn btn-primary btn-big" data-action="ready" id="btn-ready">'
        f"I am {esc(name)} \u2014 tap when ready</button>{_cover_undo(scene)}</div></div>"
    )


def _cover_undo(scene: Scene) -> str:
    """Hot-seat: the player who just moved may take it back before passing the device (the
    session allows undo only of the moves of the player holding it)."""
    if not scene.can_undo:
        return ""
    holder = scene.holder
    if holder is None and scene.cover_for is not None and scene.view.players == 2:
        holder = 1 - scene.cover_for  # two players: whoever is not asked for holds the device
    other = scene.names[holder] if holder is not None else ""
    return (f'<p class="cover-undo">{esc(other)}: not the move you meant? '
            '<button type="button" class="btn btn-small" data-action="undo" id="btn-cover-undo">'
            'Undo</button></p>')
