"""The middle of the table: the pack and the starter, the crib, the face-down fan to cut from, the
cut for deal, the stage (the discard preview, the pile and its earlier counts, the show, the game's
end: its race chart and a won series' summary arrive drawn, ``Scene.chart``)."""

from __future__ import annotations

from typing import Sequence

from cribbage.actions import Discard
from cribbage.cards import Card
from cribbage.scoring import PLAY_LIMIT
from cribbage.state import Event, Phase
from cribbage.view import SeatView

from web.kit.cards import back_html, card_html
from web.kit.html import esc
from web.table import claims
from web.table.layout import side_names
from web.table.scene import Scene
from web.table.render.base import (_cards_word, _has, _mini, _shown_dealer, _you, back_name, cards_of, crib_of,
                                   discard_size, possessive)
from web.table.render.show import _show, show_panels_from_events


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
        return (
            f'<div class="game-over"><h2 class="winner seat-{winner}" data-winner="{winner}">'
            f'{esc(name)} {verb}!</h2>'
            f'<p class="final">{esc(final_line(v.scores, sides, winner, _game_kind(scene), verb))}</p></div>'
            f'{scene.shell.chart}{shows}'  # the race chart and a won series' summary (the shell's)
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
    if scene.shell.series is not None and scene.shell.series.game_kind:
        return scene.shell.series.game_kind
    from cribbage.series import SeriesRules, game_value

    try:
        return game_value(scene.view.rules, SeriesRules(), scene.view.scores)[2]
    except ValueError:  # not a finished game of these rules: name no skunk
        return "win"
