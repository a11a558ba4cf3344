"""The table as HTML strings: a pure function of one seat's view plus UI-only state.

:func:`render` takes a :class:`Scene` (what the controller knows: the seat's ``SeatView``, names,
mode, the cards selected, the previews and hints it computed, which dialog is open) and returns the
markup of the table and of the overlay (dialogs, the hot-seat cover), plus a few attributes for
``#app``. Nothing here imports the browser, so every screen is testable under CPython.

The UI never decides what is legal: cards are playable when the view's ``legal_actions`` contain
them, buttons exist when an action exists. When ``Scene.private`` is False (the hot-seat cover is
up) only public information is drawn: both hands face down, no actions, no previews.
"""

from __future__ import annotations

from typing import Sequence

from cribbage.actions import Action, Count, CutForDeal, CutPack, CutStarter, Discard, Go, Muggins, Play
from cribbage.cards import Card, parse_card, parse_cards
from cribbage.scoring import PLAY_LIMIT, ScoreItem, score_hand
from cribbage.rules import Rules
from cribbage.state import Event, Phase
from cribbage.view import SeatView

from web.kit import rules
from web.table import claims
from web.kit.board import Layout, back_pegs, board_label, board_svg, layout_for, pegs_of
from web.kit.cards import back_html, card_html, card_name
from web.kit.html import attrs as _attrs
from web.kit.html import esc
from web.sessions.registry import MODES, mode_of
from web.kit.speech import event_sentence

from web.kit.frame import Rendered
from web.table.layout import PLATE_ORDER, SeatPlace, name_list, others, previous_dealer, seat_places, side_names
from web.table.scene import DELAYS, LEVELS, Button, Scene

__all__ = ["render", "buttons_for", "primary_button", "possessive", "crib_of", "deal_cuts", "final_line"]


def possessive(name: str, you: bool = False) -> str:
    """``"Your"`` for the seat spoken to (``you``), else ``"Computer's"``."""
    return "Your" if you else f"{name}\u2019s"


def _poss(scene: Scene, seat: int) -> str:
    """``possessive`` of a seat, from this device's perspective."""
    return possessive(scene.names[seat], seat == scene.me)


def crib_of(names: Sequence[str], dealer: int | None, me: int | None = None) -> str:
    """``"your crib"`` or ``"Computer’s crib"``."""
    if dealer is None:
        return "the crib"
    return ("your" if dealer == me else possessive(names[dealer])) + " crib"


def _you(scene: Scene) -> int | None:
    """The seat spoken to as "you": the device's seat, or in hot-seat the player whose cards are shown."""
    if scene.me is not None:
        return scene.me
    return scene.view.seat if scene.private else None


# --- what the seat may do now -------------------------------------------------------------------


def _legal(view: SeatView) -> tuple[Action, ...]:
    return tuple(view.legal_actions)


def _playable_codes(view: SeatView) -> set[str]:
    return {a.card.code for a in view.legal_actions if isinstance(a, Play)}


def _has(view: SeatView, kind: type) -> bool:
    return any(isinstance(a, kind) for a in view.legal_actions)


def discard_size(view: SeatView) -> int:
    """How many cards this seat lays away now: two at the classic table, one with five-card hands
    (three and four players, two cards from the pack to the crib); from the engine's legal discards."""
    return next((len(a.cards) for a in view.legal_actions if isinstance(a, Discard) and a.cards),
                view.rules.discards)


def _cards_word(n: int) -> str:
    return "one card" if n == 1 else "two cards" if n == 2 else f"{n} cards"


def _is_cut_phase(view: SeatView) -> bool:
    return view.phase in (Phase.CUT_FOR_DEAL, Phase.CUT_PACK, Phase.CUT_STARTER)


def buttons_for(scene: Scene) -> list[Button]:
    """The action buttons of this frame, in order; the primary one is what Enter does."""
    v = scene.view
    out: list[Button] = []
    if scene.dialog or scene.cover_for is not None or not scene.private:
        return out
    if v.phase is Phase.GAME_OVER:
        if scene.challenge is not None and scene.challenge.buttons:  # a challenge match's end
            return [Button(b.id, b.label, b.action, b.primary, key=b.key, data=b.data) for b in scene.challenge.buttons]
        going_on = scene.series is not None and scene.series.winner is None
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


# --- pieces of the table ------------------------------------------------------------------------


def _mini(card: Card, classes: str = "") -> str:
    return card_html(card, classes=f"mini {classes}".strip())


def _shown_dealer(scene: Scene) -> int | None:
    """The dealer of the hand on the table: while a finished hand's show stays up (the engine has
    already passed the deal on), that hand's dealer."""
    v = scene.view
    if v.dealer is not None and scene.summary is not None and scene.summary == v.hand_number - 1:
        return previous_dealer(v.rules, v.dealer)
    return v.dealer


def _shown_hand(scene: Scene) -> int:
    """The number of the hand on the table (the finished one while its show stays up)."""
    return scene.summary if scene.summary is not None else scene.view.hand_number


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


def cards_of(view: SeatView, seat: int) -> int:
    """How many cards ``seat`` holds (as the view may know it)."""
    if view.hand_counts:
        return view.hand_counts[seat]
    return len(view.hand) if seat == view.seat else view.opponent_cards


def kept_of(view: SeatView, seat: int) -> tuple[Card, ...]:
    """``seat``'s four kept cards once they lie on the table (empty before)."""
    if seat == view.seat:
        return view.kept
    if view.shown:
        return view.shown[seat]
    return view.opponent_kept if seat == view.rules.left_of(view.seat) else ()


def back_name(view: SeatView, seat: int, i: int) -> str:
    """The travel name of the ``i``-th back in ``seat``'s hand (``opp-3``; more players:
    ``opp2-3``): the card laid from it takes that name in the pile, so it travels there."""
    return f"opp-{i}" if view.players == 2 else f"opp{seat}-{i}"


def _opp_hand(scene: Scene, opp: int) -> str:
    v = scene.view
    name = scene.names[opp]
    if v.phase is Phase.SHOW or (v.phase is Phase.GAME_OVER and any(
            e.seat == opp and e.kind == "show hand" for e in show_panels_from_events(v.events, v.hand_number))):
        # Laid on the table: drawn once, in its panel of the show.
        return f'<div class="hand hand-opp shown" aria-hidden="true"></div>'
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


def _deck(scene: Scene) -> str:
    v = scene.view
    starter = ""
    if v.starter is not None and scene.summary is None:
        starter = card_html(v.starter, classes="starter", attrs={"data-vt": "starter"})
    stack = "".join(back_html("deck-card") for _ in range(3))
    label = "Starter" if v.starter is not None and scene.summary is None else "Pack"
    return (
        f'<div class="deck" role="group" aria-label="The pack{" and the starter" if starter else ""}">'
        f'<div class="deck-stack">{stack}{starter}</div>'
        f'<div class="zone-label">{label}</div></div>'
    )


def _crib(scene: Scene) -> str:
    v = scene.view
    dealer = _shown_dealer(scene)
    if dealer is None:
        return '<div class="crib empty"></div>'
    # While a finished hand's show stays up its crib (counted: its cards are in the show) stays
    # with its owner; the next hand's crib then slides over to the new dealer.
    owner = possessive(scene.names[dealer], dealer == _you(scene))
    size = v.crib_size if scene.summary is None else 0
    # In the show the crib is turned over in its own panel; here it stays a stack.
    cards = "".join(back_html("crib-card") for _ in range(size))
    side = "mine" if dealer == v.seat else "theirs"  # it stands on its owner's side of the table
    return (
        f'<div class="crib crib-{side}" role="group" aria-label="{esc(owner)} crib, {size} cards">'
        f'<div class="crib-stack" data-vt="crib">{cards or back_html("crib-card ghost")}</div>'
        f'<div class="zone-label">{esc(owner)} crib</div></div>'
    )


def _fan(scene: Scene) -> str:
    """The face-down pack spread in an arc; a card's place is its cut depth, nothing more."""
    v = scene.view
    n = v.pack_size
    if n <= 0:
        return ""
    lo, hi = v.cut_depths
    interactive = scene.private and bool(v.legal_actions)
    spread = min(56.0, 1.1 * n)
    parts = []
    for i in range(n):
        angle = -spread / 2 + (spread * i / (n - 1) if n > 1 else 0)
        legal = interactive and lo <= i <= hi
        cls = "fan-card" + (" legal" if legal else "") + (" picked" if legal and scene.cut_pick == i else "")
        data = f' data-action="cut-pick" data-depth="{i}"' if legal else ""
        parts.append(
            f'<g class="{cls}"{data} transform="rotate({angle:.2f} 210 430)">'
            '<rect x="188" y="46" width="44" height="64" rx="5"/></g>'
        )
    label = ("Face-down pack: click a card to cut there, or use the arrow keys and Enter"
             if interactive else "Face-down pack")
    return (
        f'<svg class="fan{" interactive" if interactive else ""}" viewBox="0 14 420 142" role="group" '
        f'aria-label="{label}">{"".join(parts)}</svg>'
    )


def deal_cuts(events: Sequence[Event]) -> dict[int, Card]:
    """The cards of the last round of the cut for deal (a tie starts the round again)."""
    cuts: dict[int, Card] = {}
    for e in events:
        if e.hand != 0 or e.kind != "cut for deal":
            continue
        if e.seat is None:
            cuts = {}
        elif e.cards:
            cuts[e.seat] = e.cards[0]
    return cuts


def _cut_for_deal_cards(scene: Scene) -> str:
    v = scene.view
    if v.phase is Phase.CUT_FOR_DEAL:
        cuts = {s: c for s, c in enumerate(v.cut_cards) if c is not None}
    else:
        cuts = deal_cuts(v.events)
    out = []
    for seat in v.rules.order_from(v.seat):
        card = cuts.get(seat)
        name = scene.names[seat]
        inner = (card_html(card, classes="cut-card", attrs={"data-vt": f"c-{card.code}"}) if card is not None
                 else back_html("cut-card ghost"))
        low = ""
        if len(cuts) == v.players and v.dealer == seat:
            low = '<span class="badge">Deals</span>'
        out.append(f'<div class="cut-show seat-{seat}">{inner}<div class="zone-label">{esc(name)}</div>{low}</div>')
    return f'<div class="cut-cards">{"".join(out)}</div>'


def _pile(scene: Scene) -> str:
    v = scene.view
    me = v.seat
    cards = []
    for i, (seat, card) in enumerate(v.pile):
        who = "mine" if seat == me else "theirs"
        # The opponent's latest card keeps the name of the back it was laid from (see _opp_hand).
        last_theirs = seat != me and i == len(v.pile) - 1 and v.phase is Phase.PLAY
        name = back_name(v, seat, cards_of(v, seat)) if last_theirs else f"c-{card.code}"
        # More than two at the table: a small name tag under each card says who laid it.
        tag = "" if v.players == 2 else f'<span class="pile-who" aria-hidden="true">{esc(scene.names[seat])}</span>'
        tag += _pile_claim(v, card)
        cards.append(f'<li class="pile-slot {who} seat-{seat} side-{v.rules.side_of(seat)}">'
                     f'{card_html(card, classes="pile-card", attrs={"data-vt": name})}{tag}</li>')
    ghost = ""
    if scene.private and scene.play_preview is not None and len(scene.selected) == 1 and not v.rules.play_muggins:
        code = scene.selected[0]
        match = [c for c in v.hand if c.code == code]
        if match:
            count, items = scene.play_preview
            pts = sum(i.points for i in items)
            tag = f'<span class="ghost-points">+{pts}</span>' if pts else ""
            ghost = (f'<li class="pile-slot ghost" aria-hidden="true">'
                     f'{card_html(match[0], classes="pile-card ghost-card", label=False)}{tag}</li>')
    earlier = ""
    if v.played:
        rows = []
        for count_cards in v.played:
            minis = "".join(card_html(c, classes="mini earlier-card", attrs={"data-vt": f"c-{c.code}"})
                            for _, c in count_cards)
            total = sum(c.value for _, c in count_cards)
            rows.append(f'<div class="earlier-count" role="group" aria-label="Earlier count of {total}">{minis}</div>')
        earlier = f'<div class="earlier" role="group" aria-label="Earlier counts of this hand">{"".join(rows)}</div>'
    count = v.count
    empty = "" if cards else '<li class="pile-empty">New count</li>'
    return (
        '<div class="pile-area">'
        f'<div class="count-badge{" count-31" if count == PLAY_LIMIT else ""}" id="count">'
        f'<span>Count</span><strong data-count="{count}">{count}</strong></div>'
        f'<ol class="pile" aria-label="Cards of this count">{"".join(cards)}{empty}{ghost}</ol>'
        f"{earlier}</div>"
    )


def _pile_claim(v: SeatView, card: Card) -> str:
    """Muggins in the play: what was claimed for a card of the count ("claims 2" while open to a call;
    once settled, what it scored, and what was put back or taken)."""
    if not v.rules.play_muggins:
        return ""
    events = v.events
    i = next((i for i in range(len(events) - 1, -1, -1) if events[i].kind == "play" and events[i].claim
              and events[i].cards[:1] == (card,) and events[i].hand == v.hand_number), None)
    if i is None:
        return ""
    claimed = events[i].points
    open_claim = claims.open_play_claim(v)
    if open_claim is not None and open_claim[2] == card:
        return f'<span class="pile-claim open">claims {claimed}</span>'
    line = f"claimed {claimed}"
    for e in events[i + 1:]:
        if e.kind == "counted":
            break
        if e.kind == "put back":
            line += f", put back {-e.points}"
        elif e.kind == "muggins" and e.points and "overmarked" not in e.text:
            line += f", muggins took {e.points}"
    return f'<span class="pile-claim">{esc(line)}</span>'


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
    names = scene.names
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


def _center(scene: Scene) -> str:
    v = scene.view
    if scene.summary is not None:
        return _show(scene, scene.summary, live=False)
    phase = v.phase
    if phase is Phase.CUT_FOR_DEAL:
        return f'<div class="cutting">{_fan(scene)}{_cut_for_deal_cards(scene)}</div>'
    if phase in (Phase.CUT_PACK, Phase.CUT_STARTER):
        extra = ""
        if phase is Phase.CUT_PACK and v.hand_number == 1 and len(deal_cuts(v.events)) == v.players:
            extra = _cut_for_deal_cards(scene)
        return f'<div class="cutting">{_fan(scene)}{extra}</div>'
    if phase is Phase.DISCARD:
        if not scene.private:
            return '<div class="discard-stage"></div>'
        if len(scene.selected) == discard_size(v) and _has(v, Discard):
            keep = [c for c in v.hand if c.code not in scene.selected]
            toss = [c for c in v.hand if c.code in scene.selected]
            minis = "".join(_mini(c) for c in keep)
            tossed = "".join(_mini(c, "tossed") for c in toss)
            pts = scene.keep_points
            ev = f'<p class="keep-ev">{esc(scene.keep_ev)}</p>' if scene.keep_ev else ""
            return (
                '<div class="discard-stage preview" aria-live="off">'
                f'<div class="keep"><div class="keep-cards">{minis}</div>'
                f'<p class="keep-points">keep <strong>{pts}</strong> point{"s" if pts != 1 else ""} '
                '(before the starter)</p></div>'
                f'<div class="toss"><div class="keep-cards">{tossed}</div>'
                f'<p>to {esc(crib_of(scene.names, v.dealer, _you(scene)))}</p></div>'
                f"{ev}</div>"
            )
        return (f'<div class="discard-stage"><p class="stage-hint">Lay {_cards_word(discard_size(v))} away '
                'to the crib</p></div>')
    if phase is Phase.PLAY:
        return _pile(scene)
    if phase is Phase.SHOW:
        return _show(scene, v.hand_number, live=True)
    if phase is Phase.GAME_OVER:
        winner = v.winner
        if winner is None:
            return ""
        sides = side_names(scene.names, v.rules)  # the winner is a side: a seat, or a partnership
        name = sides[winner]
        last = show_panels_from_events(v.events, v.hand_number)
        shows = _show(scene, v.hand_number, live=False) if last else ""
        you = scene.me is not None and v.rules.side_of(scene.me) == winner
        verb = "win" if you or len(v.rules.seats_of(winner)) > 1 else "wins"  # "Ann & Cid win"
        from web.screens.record.view import game_over_html  # the race chart: only a finished match has one

        chart = game_over_html(v.events, sides, scene.chances, target=v.rules.target)  # a line a side
        return (
            f'<div class="game-over"><h2 class="winner seat-{winner}" data-winner="{winner}">'
            f'{esc(name)} {verb}!</h2>'
            f'<p class="final">{esc(final_line(v.scores, sides, winner, _game_kind(scene), verb))}</p></div>'
            f'{chart}{_series_summary(scene)}{shows}'
        )
    return ""


GAME_KINDS = {"skunk": "a skunk", "double skunk": "a double skunk", "lurch": "a lurch"}
"""How the game-over line names a win worth more than one game."""


def final_line(scores: Sequence[int], sides: Sequence[str], winner: int, kind: str = "win",
               verb: str = "wins") -> str:
    """The game-over line under the winner, the winner first: its name and score, then each losing
    side's (by name when there are more than one), and a skunk (or double skunk, or lurch) where that
    table counts it.

    >>> final_line((62, 121), ("You", "Computer"), 1, "skunk")
    'Computer wins 121 to 62: a skunk'
    >>> final_line((121, 97), ("You", "Computer"), 0, verb="win")
    'You win 121 to 97'
    >>> final_line((105, 121, 80), ("You", "West", "East"), 1, "skunk")
    'West wins 121 to You 105 and East 80: a skunk'
    """
    others = [side for side in range(len(sides)) if side != winner]
    rest = ([str(scores[others[0]])] if len(others) == 1
            else [f"{sides[side]} {scores[side]}" for side in others])
    losers = rest[0] if len(rest) == 1 else ", ".join(rest[:-1]) + " and " + rest[-1]
    tail = f": {GAME_KINDS[kind]}" if kind in GAME_KINDS else ""
    return f"{sides[winner]} {verb} {scores[winner]} to {losers}{tail}"


def _game_kind(scene: Scene) -> str:
    """The finished game's kind (``win``, ``skunk``...): the series' rule when one is played, else the
    classic count of skunks (a single game's skunk is named, information only)."""
    if scene.series is not None and scene.series.game_kind:
        return scene.series.game_kind
    from cribbage.series import SeriesRules, game_value

    try:
        return game_value(scene.view.rules, SeriesRules(), scene.view.scores)[2]
    except ValueError:  # not a finished game of these rules: name no skunk
        return "win"


def _status(scene: Scene) -> tuple[str, str]:
    """(headline, detail) for the prompt area; in hot-seat the player it speaks to is named."""
    head, detail = _status_text(scene)
    v = scene.view
    if (scene.me is None and scene.private and v.legal_actions and scene.summary is None
            and v.phase is not Phase.GAME_OVER):
        head = f"{scene.names[v.seat]} \u2014 {head[0].lower()}{head[1:]}"
    return head, detail


def _status_text(scene: Scene) -> tuple[str, str]:
    v = scene.view
    names = scene.names
    me = v.seat
    mine = bool(v.legal_actions) and scene.private
    if scene.summary is not None:
        h = scene.summary
        per = _hand_pegging(v.events, h, v.players)
        for e in show_panels_from_events(v.events, h):
            if e.seat is not None and 0 <= e.seat < v.players:
                per[e.seat] += e.points
        detail = "This hand: " + ", ".join(f"{names[s]} {per[s]}" for s in range(v.players)) + "."
        return f"Hand {h} is over", detail
    phase = v.phase
    online = scene.online
    if phase is Phase.GAME_OVER:
        return "Game over", (online.result if online is not None and online.result
                             else "Start a new game when you are ready.")
    if not scene.private and scene.cover_for is not None:
        return f"Pass to {names[scene.cover_for]}", ""
    if online is not None and online.waiting and not mine:
        return online.waiting, ""  # nobody can act: say whom (or what) we wait for, never "You to play"
    actor = v.actors[0] if v.actors else None
    actor_name = names[actor] if actor is not None else ""
    waiting = f"{actor_name} is thinking\u2026" if actor in scene.computer_seats else f"{actor_name} to play"
    if phase is Phase.CUT_FOR_DEAL:
        last = v.events[-1] if v.events else None
        tie = last is not None and last.kind == "cut for deal" and last.seat is None
        detail = "Equal ranks: the pack is reshuffled, both cut again. " if tie else ""
        detail += "The lower card deals first (ace low)."
        return ("Cut for deal: pick a card in the pack" if mine else waiting), detail
    if phase is Phase.CUT_PACK:
        assert v.dealer is not None  # decided by the cut for deal
        dealer = names[v.dealer]
        deal = "deal" if v.dealer == scene.me else "deals"
        detail = f"Hand {v.hand_number}. {dealer} {deal}"
        cuts = deal_cuts(v.events)
        if v.hand_number == 1 and len(cuts) == v.players:
            said = ", ".join(f"{names[s]} cut {cuts[s].pretty}" for s in sorted(cuts))
            detail = f"{said}: {dealer} {deal} first"
        if scene.deal_cut_shown:
            return f"{dealer} {deal} first", detail.split(": ")[0] + "."
        return ("Cut the pack for the deal" if mine else waiting), detail + "."
    if phase is Phase.DISCARD:
        if mine:
            n, need = len(scene.selected), discard_size(v)
            if need == 1:
                tail = "Choose a card." if n == 0 else "Press To crib to lay it away."
            else:
                tail = {0: "Choose two cards.", 1: "Choose one more card."}.get(n, "Press To crib to lay them away.")
            return f"Lay {_cards_word(need)} away to {crib_of(names, v.dealer, _you(scene))}", tail
        if v.discards and any(s in scene.computer_seats for s in v.actors):
            return waiting, "You have laid away your card." if len(v.discards) == 1 else \
                "You have laid away your two cards."
        return waiting, ""
    if phase is Phase.CUT_STARTER:
        return ("Cut the pack for the starter" if mine else waiting), \
            "A jack turned up is his heels: two for the dealer."
    if phase is Phase.PLAY and v.rules.play_muggins:
        return _play_muggins_status(scene, waiting)
    if phase is Phase.PLAY:
        if mine and _has(v, Go):
            return "No card fits: say Go", f"The count is {v.count}; nothing you hold keeps it at 31 or less."
        if mine:
            if scene.play_preview is not None and len(scene.selected) == 1:
                count, items = scene.play_preview
                sel = scene.selected[0]
                card = next((c for c in v.hand if c.code == sel), None)
                what = ", ".join(i.describe() for i in items) if items else "no score"
                pretty = card.pretty if card else sel
                return (f"Play {pretty}? It makes {count}: {what}",
                        "Tap it again, press Play or Enter to confirm.")
            return "Your turn: play a card", f"The count is {v.count}."
        return waiting, ""
    if phase is Phase.SHOW and mine and (claims.claiming(v) or claims.calling(v)):
        head, detail = claims.status(v, scene.claim_entry, scene.claim_note, names, you=scene.me == me)
        return head, _with_call(scene, detail)
    if phase is Phase.SHOW:
        seat = actor
        crib = v.show_step == v.players
        what = "the crib" if crib else "the hand"
        if mine:
            return (f"Count {_poss(scene, me).lower()} "
                    f"{'crib' if crib else 'hand'}"), _with_call(scene, "Pone first, then the dealer, then the crib.")
        return (f"{names[seat]} counts {what}\u2026" if seat is not None else ""), _with_call(scene, "")
    return "", ""


def _with_call(scene: Scene, detail: str) -> str:
    """``detail``, then (muggins in the play) the open card claim this device may call."""
    if not (_play_calls(scene) and scene.private):
        return detail
    said = claims.play_status(scene.view, scene.names, _you(scene)).rstrip(".")
    return f"{detail} {said}: muggins (M) if it is wrong.".strip()


def _play_muggins_status(scene: Scene, waiting: str) -> tuple[str, str]:
    """The play with muggins in the play: the card's claim asked for (never what it scores), and the
    open claim of another side to call."""
    v = scene.view
    if not scene.private or not my_move(v):
        return waiting, _with_call(scene, "")
    if _has(v, Go):
        return ("No card fits: say Go",
                _with_call(scene, f"The count is {v.count}; nothing you hold keeps it at 31 or less."))
    card = next((c for c in v.hand if [c.code] == list(scene.selected)), None)
    if card is None:
        return ("Your turn: play a card and claim its points",
                _with_call(scene, f"The count is {v.count}. Choose a card, then what it scores."))
    value = claims.play_claim_value(scene.claim_entry)
    head = f"Play {card.pretty} (count {v.count + card.value}): what does it score?"
    if value is not None:
        return head, _with_call(scene, f"Claim {value}? Press Enter, or tap a number.")
    return head, _with_call(scene, "Tap its points (missed points can be taken).")


def _recent(scene: Scene) -> str:
    v = scene.view
    lines = []
    for e in v.events[-40:]:
        if e.kind in ("deal",) or (e.kind == "discard"):
            continue
        lines.append(event_sentence(e, scene.names, spoken=False, me=scene.me))
    lines = lines[-3:]
    if not lines:
        return ""
    return '<ol class="recent" aria-label="Latest">' + "".join(f"<li>{esc(t)}</li>" for t in lines) + "</ol>"


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
        + tool("tool-undo", "Undo", "undo", _ICONS["undo"], not scene.can_undo, "Control+Z")
        + tool("tool-redo", "Redo", "redo", _ICONS["redo"], not scene.can_redo, "Control+Y")
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
    if scene.series is None:
        return ""
    from web.table.series_view import series_badge

    return series_badge(scene.series)


def _series_summary(scene: Scene) -> str:
    if scene.series is None:
        return ""
    from web.table.series_view import series_summary

    return series_summary(scene.series)


def _winbar(scene: Scene) -> str:
    """The chance of winning by the board (two players, when switched on: ``web.kit.winchance``)."""
    if scene.chances is None or scene.chances.bar is None:
        return ""
    from web.kit.winchance import bar_html

    return bar_html(scene.chances.bar)


def _header(scene: Scene, scores: bool = True) -> str:
    v = scene.view
    how = mode_of(scene.mode)
    mode = f"{how.title} \u00b7 {scene.level.capitalize()}" if how.computer else how.title
    if scene.challenge is not None and scene.challenge.title:  # "Challenge from Ann · Medium"
        mode = scene.challenge.title
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


def _counted(scene: Scene) -> str:
    """Muggins in the show: the cards being counted (or whose claim waits for a call) in the prompt,
    beside the pad, so no screen hides them behind it (issue 29: the crib's panel could scroll out of
    the middle on a phone while the page asked for its count)."""
    v = scene.view
    if v.phase is Phase.PLAY and scene.private and v.rules.play_muggins:
        return _count_strip(scene)
    shown = claims.counted_cards(v) if scene.private and v.phase is Phase.SHOW and scene.summary is None else None
    if shown is None:
        return ""
    what, cards, starter = shown
    owner = v.seat if claims.claiming(v) else v.claim[0] if v.claim is not None else v.seat
    minis = "".join(_mini(c) for c in cards)
    minis += f'<span class="plus" aria-hidden="true">+</span>{_mini(starter, "starter-mini")}'
    label = f"{_poss(scene, owner)} {what}, with the starter"
    return f'<div class="counted" role="group" aria-label="{esc(label)}">{minis}</div>'


def _count_strip(scene: Scene) -> str:
    """Muggins in the play: the cards of the count beside the claim buttons (the card chosen last), or
    of the count a card claim to call was made in, so a phone never scrolls them away behind the pad."""
    v = scene.view
    chosen = next((c for c in v.hand if [c.code] == list(scene.selected)), None)
    pile = [c for _, c in v.pile]
    if chosen is not None and claims.play_claiming(v):
        cards = [*pile, chosen]
    elif _play_calls(scene):
        open_claim = claims.open_play_claim(v)
        counts = [pile, *([c for _, c in p] for p in reversed(v.played))]
        cards = next((k for k in counts if open_claim is not None and open_claim[2] in k), pile)
    else:
        return ""
    if not cards:
        return ""
    minis = "".join(_mini(c, "chosen" if c is chosen else "") for c in cards)
    total = sum(c.value for c in cards)
    return (f'<div class="counted count-strip" role="group" aria-label="The count: {total}">{minis}'
            f'<span class="plus" aria-hidden="true">= {total}</span></div>')


def _prompt(scene: Scene) -> str:
    head, detail = _status(scene)
    buttons = "".join(_button_html(b) for b in buttons_for(scene))
    hint = ""
    if scene.hint and scene.private:
        hint = (f'<p class="hint" role="note"><span class="hint-icon" aria-hidden="true">{_ICONS["hint"]}</span>'
                f"{esc(scene.hint[0])}</p>")
    return (
        '<section class="prompt" aria-label="What to do">'
        f'<div class="prompt-text"><p class="headline" id="headline">{esc(head)}</p>{_counted(scene)}'
        f'<p class="detail">{esc(detail)}</p>{hint}{_learn(scene)}</div>'
        f'<div class="actions">{buttons}</div>'
        "</section>"
    )


def _learn(scene: Scene) -> str:
    """The first screen's way to the lessons (web.screens.lessons), until one is done."""
    if not scene.learn or scene.view.phase is not Phase.CUT_FOR_DEAL:
        return ""
    return ('<p class="learn-entry"><button type="button" class="btn btn-small" data-action="lessons" '
            'id="btn-learn">New to cribbage? Learn in 10 minutes</button></p>')


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
    if scene.online is None:
        return ""
    from web.sessions.online.panel import online_html  # online play draws its own panel

    return online_html(scene.online)


def _keyed(key: str, html: str) -> str:
    """``html`` (one element) marked as the region ``key``."""
    if not html:
        return ""
    end = html.index(">")
    space = html.find(" ", 0, end)
    cut = space if space != -1 else end
    return f'{html[:cut]} data-region="{key}"{html[cut:]}'


def _plates(scene: Scene) -> list[SeatPlace]:
    """The seats in the header's order: the far ones first, the seat at the bottom last."""
    places = seat_places(scene.view.rules, scene.view.seat)
    return sorted(places, key=lambda p: PLATE_ORDER.index(p.where))


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
        k["bar"] + k["notice"] + k["online"]
        + f'<div class="layout{" with-winbar" if k["winbar"] else ""}">' + k["board"] + k["winbar"]
        + '<section class="felt" aria-label="Table">' + "".join(k[key] for key in seats)
        + '<div class="middle" tabindex="0" role="group" aria-label="The table">' + k["deck"] + k["stage"] + k["crib"] + "</div>"
        + k["prompt"] + k["me"] + k["recent"]
        + "</section></div>"
    )
    return table, tuple((key, html) for key, html in k.items() if html)


# --- dialogs and the cover ----------------------------------------------------------------------


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
