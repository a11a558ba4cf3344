"""The hands: the seat at the bottom (face up and clickable when it may act, face down under the
hot-seat cover) and the other seats' places (their backs, named so a card laid travels from them to
the pile; their name tags at a table of three or four)."""

from __future__ import annotations

from typing import Sequence

from cribbage.actions import Discard
from cribbage.cards import Card
from cribbage.state import Phase

from web.kit.cards import back_html, card_html, card_name
from web.kit.html import esc
from web.table.layout import SeatPlace
from web.table.scene import Scene
from web.table.render.base import _has, _playable_codes, _poss, _shown_dealer, back_name, cards_of, kept_of
from web.table.render.show import show_panels_from_events


def _my_hand(scene: Scene) -> str:
    v = scene.view
    if not scene.private:
        n = len(v.hand)
        backs = "".join(back_html("hand-card") for _ in range(n))
        return f'<div class="hand hand-me covered" role="img" aria-label="{n} cards, face down">{backs}</div>'
    cards: Sequence[Card] = v.hand
    if v.phase is Phase.SHOW or (v.phase is Phase.GAME_OVER and v.kept and not v.hand):
        cards = v.hand or v.kept
    phase = v.phase
    playable = _playable_codes(v)
    choosing = phase is Phase.DISCARD and _has(v, Discard)
    playing = phase is Phase.PLAY and bool(v.legal_actions)
    hinted = set(scene.hint[1]) if scene.hint else set()
    out = []
    for i, card in enumerate(cards):
        code = card.code
        classes = ["hand-card"]
        attrs: dict[str, str] = {"id": f"hand-{i}", "data-action": "card", "data-index": str(i), "data-vt": f"c-{code}"}
        selected = code in scene.selected
        if selected:
            classes.append("selected")
        if code in hinted:
            classes.append("hinted")
        if choosing or playing:
            attrs["aria-pressed"] = "true" if selected else "false"
            if playing and code not in playable:
                attrs["aria-disabled"] = "true"
                classes.append("disabled")
            label = card_name(card)
            if playing and code not in playable:
                label += ", too high for the count"
            attrs["aria-keyshortcuts"] = str(i + 1)
            out.append(card_html(card, tag="button", classes=" ".join(classes), attrs=attrs, name=label))
        else:
            out.append(card_html(card, classes=" ".join(classes) + " still", attrs={"data-vt": f"c-{code}"}))
    label = f"{_poss(scene, v.seat)} cards"
    return f'<div class="hand hand-me" role="group" aria-label="{esc(label)}">{"".join(out)}</div>'


def _opp_hand(scene: Scene, opp: int) -> str:
    v = scene.view
    name = scene.names[opp]
    if v.phase is Phase.SHOW or (v.phase is Phase.GAME_OVER and any(
            e.seat == opp and e.kind == "show hand" for e in show_panels_from_events(v.events, v.hand_number))):
        # Laid on the table: drawn once, in its panel of the show.
        return '<div class="hand hand-opp shown" aria-hidden="true"></div>'
    kept = kept_of(v, opp)
    if kept and v.phase is Phase.GAME_OVER:
        cards = "".join(card_html(c, classes="opp-card", attrs={"data-vt": f"c-{c.code}"}) for c in kept)
        return f'<div class="hand hand-opp" role="group" aria-label="{esc(_poss(scene, opp))} hand">{cards}</div>'
    n = cards_of(v, opp)
    # A back is named by its place only (nothing tells which card it is): the card laid from it
    # takes that name in the pile (see _pile), so it travels from the hand to the pile.
    backs = "".join(back_html("opp-card", vt=back_name(v, opp, i)) for i in range(n))
    return (f'<div class="hand hand-opp" role="img" aria-label="{esc(name)} holds {n} '
            f'card{"s" if n != 1 else ""}">{backs}</div>')


def _seat_zone(scene: Scene, place: SeatPlace) -> tuple[str, str]:
    """(region key, markup) of another seat's place at the table: its name and its hand. With two
    players the seat across is the region ``opp``; with more, ``opp-left``, ``opp-top``..."""
    v = scene.view
    seat = place.seat
    zone = _opp_hand(scene, seat) if scene.summary is None and v.phase not in (
        Phase.CUT_FOR_DEAL, Phase.CUT_PACK) else ""
    two = v.players == 2
    key = "opp" if two else f"opp-{place.where}"
    where = "" if two else f" seat-{place.where} side-{v.rules.side_of(seat)}"
    return key, (f'<div class="seat seat-opp seat-{seat}{where}" role="group" '
                 f'aria-label="{esc(scene.names[seat])}">{"" if two else _seat_tag(scene, seat)}{zone}</div>')


def _seat_tag(scene: Scene, seat: int) -> str:
    """At a table of three or four, the name tag beside another seat's hand: its colour, name, score,
    cards in hand and the dealer's badge (the header's plates say the same, read once: this is hidden
    from screen readers)."""
    v = scene.view
    n = cards_of(v, seat) if v.phase in (Phase.DISCARD, Phase.CUT_STARTER, Phase.PLAY) else 0
    held = f'<span class="tag-cards">{n} {"card" if n == 1 else "cards"}</span>' if n else ""
    dealer = '<span class="badge badge-dealer">D</span>' if _shown_dealer(scene) == seat else ""
    go = '<span class="badge badge-go">Go</span>' if v.phase is Phase.PLAY and v.go_said == seat else ""
    return (f'<div class="seat-tag" aria-hidden="true"><span class="peg-dot"></span>'
            f'<span class="tag-name">{esc(scene.names[seat])}</span>'
            f'<span class="tag-score">{v.score_of(seat)}</span>{dealer}{go}{held}</div>')
