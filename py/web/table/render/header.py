"""The header bar: the brand, the mode and hand, the seats' plates (name, score, dealer, Go, level),
the series badge, the tools (hint, undo, redo, sheet, menu); and what stands over the table: a notice,
online play's panel, the chance-of-winning bar."""

from __future__ import annotations

from cribbage.state import Phase

from web.kit.html import attrs as _attrs
from web.kit.html import esc
from web.sessions.registry import mode_of
from web.table.scene import Scene
from web.table.render.base import _plates, _shown_dealer, _shown_hand


def _plate(scene: Scene, seat: int, where: str) -> str:
    v = scene.view
    name = scene.names[seat]
    badges = []
    if _shown_dealer(scene) == seat:
        badges.append('<span class="badge badge-dealer" title="Deals this hand; the crib is theirs">'
                      '<span class="badge-long">Dealer</span><span class="badge-short" aria-hidden="true">D</span>'
                      "</span>")
    if v.phase is Phase.PLAY and v.go_said == seat:
        badges.append('<span class="badge badge-go">Go</span>')
    if seat in scene.computer_seats:
        badges.append(f'<span class="badge badge-level">{esc(scene.level.capitalize())}</span>')
    turn = seat in v.actors and scene.summary is None and v.phase is not Phase.GAME_OVER
    return (
        f'<div class="plate plate-{where} seat-{seat} side-{v.rules.side_of(seat)}{" on-turn" if turn else ""}">'
        f'<span class="peg-dot" aria-hidden="true"></span>'
        f'<span class="plate-name">{esc(name)}</span>'
        f'<span class="plate-score" data-seat-score="{seat}">{v.score_of(seat)}</span>'
        + "".join(badges)
        + "</div>"
    )


def _tools(scene: Scene) -> str:
    def tool(id_: str, label: str, action: str, icon: str, disabled: bool = False, key: str = "") -> str:
        attrs: dict[str, object] = {"type": "button", "id": id_, "class": "tool", "data-action": action,
                                    "aria-label": label, "title": label + (f" ({key})" if key else "")}
        if disabled:
            attrs["aria-disabled"] = "true"
        if key:
            attrs["aria-keyshortcuts"] = key
        return f'<button {_attrs(attrs)}>{icon}<span class="tool-label">{esc(label.split(" (")[0])}</span></button>'

    v = scene.view
    can_hint = scene.private and bool(v.legal_actions) and v.phase in (Phase.DISCARD, Phase.PLAY) \
        and scene.summary is None and not scene.dialog
    return (
        '<nav class="tools" aria-label="Game">'
        + tool("tool-hint", "Hint", "hint", _ICONS["hint"], not can_hint, "H")
        + ("" if scene.online is not None else  # online has no take-back: no Undo/Redo, not two dead buttons
           tool("tool-undo", "Undo", "undo", _ICONS["undo"], not scene.can_undo, "Control+Z")
           + tool("tool-redo", "Redo", "redo", _ICONS["redo"], not scene.can_redo, "Control+Y"))
        + tool("tool-sheet", "Score sheet", "sheet", _ICONS["sheet"], False, "S")
        + tool("tool-menu", "Menu", "menu", _ICONS["menu"], False, "M")
        + "</nav>"
    )


_ICONS = {
    "hint": '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M9 18h6M10 21h4M12 3a6 6 0 0 0-3.5 10.9c.6.5 1 '
            '1.2 1 2.1h5c0-.9.4-1.6 1-2.1A6 6 0 0 0 12 3z"/></svg>',
    "undo": '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M9 7 4 12l5 5M4 12h10a6 6 0 0 1 0 12h-2" '
            'transform="translate(0 -3)"/></svg>',
    "redo": '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="m15 7 5 5-5 5M20 12H10a6 6 0 0 0 0 12h2" '
            'transform="translate(0 -3)"/></svg>',
    "sheet": '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6 3h9l4 4v14H6zM9 10h7M9 14h7M9 18h4"/></svg>',
    "menu": '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M4 6h16M4 12h16M4 18h16"/></svg>',
}


def _series_badge(scene: Scene) -> str:
    if scene.shell.series is None:
        return ""
    from web.table.series_view import series_badge

    return series_badge(scene.shell.series)


def _winbar(scene: Scene) -> str:
    """The chance of winning by the board (two players, when switched on: ``web.kit.winchance``)."""
    if scene.shell.chances is None or scene.shell.chances.bar is None:
        return ""
    from web.kit.winchance import bar_html

    return bar_html(scene.shell.chances.bar)


def _header(scene: Scene, scores: bool = True) -> str:
    v = scene.view
    how = mode_of(scene.mode)
    mode = f"{how.title} \u00b7 {scene.level.capitalize()}" if how.computer else how.title
    if scene.shell.title:  # "Challenge from Ann · Medium"
        mode = scene.shell.title
    hand = f"Hand {_shown_hand(scene)}" if v.hand_number else "Cut for deal"
    hand = f" \u00b7 {hand}" if scores else ""  # no seat at the table: no hand to name
    return (
        '<header class="bar">'
        '<div class="brand"><span class="brand-mark" aria-hidden="true">'
        '<svg viewBox="0 0 100 100"><use href="#suit-H" width="100" height="100"/></svg></span>'
        f'<span class="brand-name">Cribbage</span><span class="brand-mode">{esc(mode)}{esc(hand)}</span>'
        f'{_series_badge(scene)}</div>'
        + (f'<div class="scores">{"".join(_plate(scene, p.seat, p.where) for p in _plates(scene))}</div>'
           if scores else "")
        + _tools(scene)
        + "</header>"
    )


NOTICE_DETAILS = "\n"
"""A notice's sentence and its technical details (a reason, a storage key) are parted by this: the
sentence is shown, the details sit folded under it (``<details>``) for whoever wants them."""


def _notice(scene: Scene) -> str:
    if not scene.notice:
        return ""
    said, _, details = scene.notice.partition(NOTICE_DETAILS)
    more = (f'<details class="notice-details"><summary>Details</summary><p>{esc(details)}</p></details>'
            if details.strip() else "")
    return (
        f'<div class="notice" role="alert"><div class="notice-text"><p>{esc(said)}</p>{more}</div>'
        '<button type="button" class="btn btn-small" data-action="dismiss-notice" id="btn-notice">OK</button></div>'
    )


def _online(scene: Scene) -> str:
    """Online play's panel: the slot its session filled (web.sessions.online.panel draws it)."""
    return scene.online.markup if scene.online is not None else ""
