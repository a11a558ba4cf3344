"""The prompt's action buttons: which ones this frame offers (:func:`buttons_for`, from the view's
legal actions only), the primary one Enter confirms, and their markup."""

from __future__ import annotations

from cribbage.actions import Count, Discard, Go, Muggins, Play
from cribbage.state import Phase
from cribbage.view import SeatView

from web.kit.html import attrs as _attrs
from web.kit.html import esc
from web.table import claims
from web.table.scene import Button, Scene
from web.table.render.base import _has, _is_cut_phase, _playable_codes, discard_size


def buttons_for(scene: Scene) -> list[Button]:
    """The action buttons of this frame, in order; the primary one is what Enter does."""
    v = scene.view
    out: list[Button] = []
    if scene.dialog or scene.cover_for is not None or not scene.private:
        return out
    if v.phase is Phase.GAME_OVER:
        if scene.shell.end_buttons:  # a challenge match's end
            return list(scene.shell.end_buttons)
        going_on = scene.shell.series is not None and scene.shell.series.winner is None
        out.append(Button("btn-new", "Next game" if going_on else "New game", "new-game", primary=True, key="Enter"))
        out.append(Button("btn-sheet2", "Score sheet", "sheet", key="S"))
        if scene.mode == "computer" and v.players == 2:
            out.append(Button("btn-challenge", "Challenge a friend", "challenge-open"))
        return out
    if scene.summary is not None:
        out.append(Button("btn-next", "Next hand", "next-hand", primary=True, key="Enter"))
        return out
    if scene.deal_cut_shown:
        out.append(Button("btn-next", "Deal", "next-hand", primary=True, key="Enter"))
        return out
    if _is_cut_phase(v) and v.legal_actions:
        out.append(Button("btn-cut-left", "\u25c0", "cut-step", data=(("step", "-1"),)))
        out.append(Button("btn-cut", "Cut here", "cut", primary=True, disabled=scene.cut_pick is None,
                          key="Enter"))
        out.append(Button("btn-cut-right", "\u25b6", "cut-step", data=(("step", "1"),)))
    elif v.phase is Phase.DISCARD and _has(v, Discard):
        out.append(Button("btn-discard", "To crib", "discard", primary=True,
                          disabled=len(scene.selected) != discard_size(v), key="Enter"))
    elif v.phase is Phase.PLAY and _has(v, Go):
        out.append(Button("btn-go", "Go", "go", primary=True, key="G"))
    elif v.phase is Phase.PLAY and claims.play_claiming(v):  # muggins in the play: the card's claim
        chosen = len(scene.selected) == 1 and scene.selected[0] in _playable_codes(v)
        out.extend(claims.play_claim_buttons(chosen, scene.claim_entry))
    elif v.phase is Phase.PLAY and _has(v, Play):
        ok = len(scene.selected) == 1 and scene.selected[0] in _playable_codes(v)
        out.append(Button("btn-play", "Play", "play", primary=True, disabled=not ok, key="Enter"))
    elif claims.claiming(v) or claims.calling(v):
        pad = claims.pad_buttons(v, scene.claim_entry) if claims.claiming(v) else claims.call_buttons()
        out.extend(pad)
    elif v.phase is Phase.SHOW and _has(v, Count):
        label = "Count crib" if v.show_step == v.players else "Count hand"
        out.append(Button("btn-count", label, "count", primary=True, key="Enter"))
    out.extend(_play_calls(scene))
    return out


def _play_calls(scene: Scene) -> list[Button]:
    """Muggins in the play: *Muggins!* while another side's card claim is open, for the seat shown and
    (hot-seat) the other seats of this device that may call it."""
    v = scene.view
    if v.claim_what != "play":
        return []
    seats = [(v.seat, "")] if _has(v, Muggins) else []
    seats += [(s, scene.names[s]) for s in scene.play_callers if s != v.seat]
    return claims.call_in_play(seats)


def my_move(view: SeatView) -> bool:
    """This seat has a move to make now (a call of muggins in the play is optional, not a move)."""
    return any(not isinstance(a, Muggins) for a in view.legal_actions) or (
        view.claim_what != "play" and bool(view.legal_actions))


def primary_button(scene: Scene) -> Button | None:
    """The enabled primary button (what Enter confirms), if any."""
    for b in buttons_for(scene):
        if b.primary and not b.disabled:
            return b
    return None


def _button_html(b: Button) -> str:
    cls = "btn" + (" btn-primary" if b.primary else "") + (" btn-step" if b.action == "cut-step" else "")
    if b.action in ("claim-digit", "claim-back", "play-claim"):
        cls += " btn-pad"
    attrs: dict[str, object] = {"type": "button", "id": b.id, "class": cls, "data-action": b.action}
    for k, val in b.data:
        if k == "pressed":  # the claim typed on the keyboard (Enter confirms it)
            attrs["aria-pressed"] = val
            continue
        attrs[f"data-{k}"] = val
    if b.action == "play-claim":
        attrs["aria-label"] = f"Claim {b.label}"
    if b.action == "cut-step":
        attrs["aria-label"] = "Move the cut one card " + ("left" if b.data[0][1] == "-1" else "right")
    if b.action == "claim-back":
        attrs["aria-label"] = "Rub out the last digit"
    if b.disabled:
        attrs["aria-disabled"] = "true"
    if b.key:
        attrs["aria-keyshortcuts"] = b.key
    key = f'<kbd aria-hidden="true">{esc(b.key)}</kbd>' if b.key and b.key != "Enter" else ""
    return f"<button {_attrs(attrs)}>{esc(b.label)}{key}</button>"
