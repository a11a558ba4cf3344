"""The prompt: what the frame says to do (headline and detail, per phase; muggins' claims and calls),
the cards being counted beside the pad, the coach's hint, and the last few sentences of the game."""

from __future__ import annotations

from cribbage.actions import Go
from cribbage.state import Phase

from web.kit.html import esc
from web.kit.speech import event_sentence
from web.table import claims
from web.table.scene import Scene
from web.table.render.base import _cards_word, _has, _mini, _poss, _you, crib_of, discard_size
from web.table.render.buttons import _button_html, _play_calls, buttons_for, my_move
from web.table.render.centre import deal_cuts
from web.table.render.fair import fair_html
from web.table.render.header import _ICONS
from web.table.render.show import _hand_pegging, show_panels_from_events


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


def _learn(scene: Scene) -> str:
    """The first screen's way to the lessons (web.shell.lessons), until one is done."""
    if not scene.shell.learn or scene.view.phase is not Phase.CUT_FOR_DEAL:
        return ""
    return ('<p class="learn-entry"><button type="button" class="btn btn-small" data-action="lessons" '
            'id="btn-learn">New to cribbage? Learn in 10 minutes</button></p>')


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
        f'<p class="detail">{esc(detail)}</p>{hint}{_learn(scene)}{fair_html(scene)}</div>'
        f'<div class="actions">{buttons}</div>'
        "</section>"
    )


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
