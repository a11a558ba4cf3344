"""The table as HTML strings: a pure function of one seat's view plus UI-only state.

:func:`render` takes a :class:`Scene` (what the controller knows: the seat's ``SeatView``, names,
mode, the cards selected, the previews and hints it computed, which dialog is open) and returns the
markup of the table and of the overlay (dialogs, the hot-seat cover), plus a few attributes for
``#app``. Nothing here imports the browser, so every screen is testable under CPython.

The UI never decides what is legal: cards are playable when the view's ``legal_actions`` contain
them, buttons exist when an action exists. When ``Scene.private`` is False (the hot-seat cover is
up) only public information is drawn: both hands face down, no actions, no previews.

The drawing is split by region, one module each: :mod:`~web.table.render.base` (what they all read),
:mod:`~web.table.render.header` (the bar, the notice, online play's panel, the chance bar),
:mod:`~web.table.render.hands` (the seats' hands), :mod:`~web.table.render.centre` (the pack, crib,
cuts, pile and game over: its chart is the shell's markup), :mod:`~web.table.render.show`,
:mod:`~web.table.render.status` (the
prompt), :mod:`~web.table.render.buttons` and :mod:`~web.table.render.cover`; this module assembles
the frame (:func:`render`) and its regions.
"""

from __future__ import annotations

from cribbage.rules import Rules
from cribbage.state import Phase
from cribbage.view import SeatView

from web.kit.board import Layout, back_pegs, board_label, board_svg, layout_for, pegs_of
from web.kit.frame import Rendered
from web.table.layout import side_names
from web.table.scene import Scene
from web.table.render.base import _mini, _plates, _shown_dealer, crib_of, discard_size, possessive
from web.table.render.buttons import _play_calls, buttons_for, my_move, primary_button
from web.table.render.centre import _center, _crib, _deck, deal_cuts, final_line
from web.table.render.cover import _cover
from web.table.render.hands import _my_hand, _seat_zone
from web.table.render.header import _header, _notice, _online, _winbar
from web.table.render.show import _items_html
from web.table.render.status import _prompt, _recent

__all__ = ["render", "buttons_for", "primary_button", "possessive", "crib_of", "deal_cuts", "final_line",
           "discard_size", "_items_html", "_mini"]
# (``_items_html`` and ``_mini``: the score sheet's dialog draws with them, web.shell.dialogs)


def _table(scene: Scene) -> tuple[str, tuple[tuple[str, str], ...]]:
    """The table's markup and its regions (each one element, compared frame by frame)."""
    if scene.online is not None and scene.online.blocked:
        regions = (("bar", _keyed("bar", _header(scene, scores=False))), ("notice", _keyed("notice", _notice(scene))),
                   ("online", _keyed("online", _online(scene))))  # no seat here: no table
        return "".join(html for _, html in regions), tuple((k, h) for k, h in regions if h)
    v = scene.view
    me = v.seat
    sides = side_names(scene.names, v.rules)
    board = board_svg(v.scores, _back(v), sides, scene.orientation, scene.moved, _board_layout(v.rules))
    hand_zone = ""
    if v.phase in (Phase.DISCARD, Phase.CUT_STARTER, Phase.PLAY, Phase.SHOW) or (
            v.phase is Phase.GAME_OVER and (v.hand or v.kept)):
        hand_zone = _my_hand(scene) if scene.summary is None else ""
    seats = dict(_seat_zone(scene, p) for p in _plates(scene) if p.seat != me)
    r = {
        "bar": _header(scene),
        "notice": _notice(scene),
        "online": _online(scene),
        "board": f'<section class="board-wrap" aria-label="Board">{board}</section>',
        "winbar": _winbar(scene),
        **seats,
        "deck": _deck(scene),
        "stage": f'<div class="stage">{_center(scene)}</div>',
        "crib": _crib(scene),
        "prompt": _prompt(scene),
        "me": f'<div class="seat seat-me seat-{me}">{hand_zone}</div>',
        "recent": _recent(scene),
    }
    k = {key: _keyed(key, html) for key, html in r.items()}
    table = (
        k["bar"]
        + k["notice"]
        + k["online"]
        + f'<div class="layout{" with-winbar" if k["winbar"] else ""}">'
        + k["board"]
        + k["winbar"]
        + '<section class="felt" aria-label="Table">'
        + "".join(k[key] for key in seats)
        + '<div class="middle" tabindex="0" role="group" aria-label="The table">'
        + k["deck"]
        + k["stage"]
        + k["crib"]
        + "</div>"
        + k["prompt"]
        + k["me"]
        + k["recent"]
        + "</section></div>"
    )
    return table, tuple((key, html) for key, html in k.items() if html)


def _keyed(key: str, html: str) -> str:
    """``html`` (one element) marked as the region ``key``."""
    if not html:
        return ""
    end = html.index(">")
    space = html.find(" ", 0, end)
    cut = space if space != -1 else end
    return f'{html[:cut]} data-region="{key}"{html[cut:]}'


def render(scene: Scene) -> Rendered:
    """Draw one frame of the table: the table, the hot-seat cover (the overlay) and the attributes of
    ``#app``. The dialogs are the app's (:func:`web.shell.dialogs.frame` adds the open one)."""
    v = scene.view
    overlay = _cover(scene) if scene.cover_for is not None else ""  # the app draws its dialogs over the table
    meta = {
        "phase": str(v.phase) if scene.summary is None and not scene.deal_cut_shown else "hand over",
        "hand": str(v.hand_number),
        "mode": scene.mode,
        "covered": "true" if scene.cover_for is not None else "false",
        "busy": "true" if scene.busy else "false",
        "turn": "me" if ((my_move(v) and scene.private and scene.summary is None)
                         or scene.deal_cut_shown) else "other",
        "call": "true" if scene.private and scene.summary is None and bool(_play_calls(scene)) else "false",
        "seat": str(v.seat),
        "dialog": scene.dialog or "",
    }
    table, regions = _table(scene)
    v = scene.view
    scores, previous = v.scores, _back(v)
    sides, layout = side_names(scene.names, v.rules), _board_layout(v.rules)
    shown = _shown_dealer(scene)
    crib_side = "" if shown is None else "mine" if shown == v.seat else "theirs"
    return Rendered(table, overlay, meta, regions, board_frame=scene.orientation,
                    pegs=pegs_of(scores, previous, sides, scene.orientation, scene.moved, layout),
                    board_label=board_label(scores, sides, layout), crib_side=crib_side)


def _back(v: SeatView) -> tuple[int, ...]:
    """The back pegs (a put back leaves the back peg behind the front: :func:`back_pegs`)."""
    if all(p <= s for p, s in zip(v.previous_scores, v.scores)):
        return v.previous_scores
    return back_pegs(v.scores, v.previous_scores, [e.scores for e in v.events])


def _board_layout(rules: Rules) -> Layout:
    """The board of the table: a track per side (three for three players, one per partnership), 120
    or 60 holes."""
    return layout_for(rules.sides, rules.target)
