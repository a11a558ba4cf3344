"""The show: the counted hands and crib as panels, each combination listed; muggins' claims and what
became of them; each seat's pegging of a hand (the summary line)."""

from __future__ import annotations

from typing import Sequence

from cribbage.cards import Card
from cribbage.scoring import ScoreItem
from cribbage.state import Event, Phase

from web.kit.cards import back_html
from web.kit.html import esc
from web.table import claims
from web.table.scene import Scene
from web.table.render.base import _mini, _poss, kept_of


def _items_html(items: Sequence[ScoreItem]) -> str:
    if not items:
        return '<li class="item none">Nineteen: no points</li>'
    return "".join(f'<li class="item"><span>{esc(i.describe())}</span></li>' for i in items)


def show_panels_from_events(events: Sequence[Event], hand: int) -> list[Event]:
    """The counted hands and crib of ``hand``, in counting order."""
    return [e for e in events if e.hand == hand and e.kind in ("show hand", "show crib")]


def _show_panel(title: str, cards: Sequence[Card], starter: Card | None, items: Sequence[ScoreItem] | None,
                total: int | None, seat: int, current: bool, face_down: int = 0, claim_line: str = "") -> str:
    minis = "".join(_mini(c) for c in cards)
    if face_down:
        backs = "".join(back_html("mini crib-back") for _ in range(face_down))
        minis += f'<span class="face-down" role="img" aria-label="{face_down} cards, face down">{backs}</span>'
    if starter is not None:
        minis += f'<span class="plus" aria-hidden="true">+</span>{_mini(starter, "starter-mini")}'
    body = (f'<ul class="items">{_items_html(items)}</ul>' if items is not None
            else '<p class="pending">Not counted yet</p>' if not claim_line else "")
    if claim_line:
        body = f'<p class="claim-line">{esc(claim_line)}</p>' + body
    total_html = (f'<div class="panel-total">{total}<span class="visually-hidden"> points</span></div>'
                  if total is not None else "")
    return (
        f'<section class="show-panel seat-{seat}{" current" if current else ""}">'
        f'<header><h3>{esc(title)}</h3>{total_html}</header>'
        f'<div class="panel-cards">{minis}</div>{body}</section>'
    )


def _show(scene: Scene, hand_number: int, live: bool) -> str:
    """The show: the hands from the dealer's left round to the dealer, then the crib; counted ones list
    every combination."""
    v = scene.view
    counted = show_panels_from_events(v.events, hand_number)
    panels = []
    for e in counted:
        seat = e.seat
        if seat is None:
            continue
        title = f"{_poss(scene, seat)} crib" if e.kind == "show crib" else f"{_poss(scene, seat)} hand"
        if claims.is_claim_event(e):  # muggins: the claim, then (once it stands or is called) the truth
            pending = v.claim is not None and e is counted[-1]
            items, line = claims.claim_panel(e, v.events, pending)
            panels.append(_show_panel(title, e.cards[:-1], e.cards[-1], items, e.points, seat, pending,
                                      claim_line=line))
            continue
        panels.append(_show_panel(title, e.cards[:-1], e.cards[-1], e.items, e.points, seat, False))
    if live and v.phase is Phase.SHOW:
        dealer = v.dealer
        assert dealer is not None  # the show has a dealer
        steps = [*((seat, "hand") for seat in v.rules.show_order(dealer)), (dealer, "crib")]
        for step in range(len(counted), len(steps)):
            seat, what = steps[step]
            cards: Sequence[Card]
            face_down = 0
            if what == "crib":
                cards = v.crib  # empty until counted: the crib stays face down
                face_down = 0 if cards else v.crib_size
            else:
                cards = kept_of(v, seat)
            title = f"{_poss(scene, seat)} {what}"
            panels.append(_show_panel(title, cards, v.starter, None, None, seat, step == v.show_step, face_down))
    return f'<div class="show">{"".join(panels)}</div>'


def _hand_pegging(events: Sequence[Event], hand: int, players: int = 2) -> list[int]:
    """Each seat's pegging in ``hand`` (the play, his heels: everything but the show)."""
    pts = [0] * players
    for e in events:
        if (e.hand == hand and e.points and e.kind not in ("show hand", "show crib") and e.seat is not None
                and 0 <= e.seat < players):
            pts[e.seat] += e.points
    return pts
