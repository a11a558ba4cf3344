"""The app's dialogs over the table (the score sheet, the menu, the rules, restart, the record) and
the whole frame: the table's drawing (:func:`web.table.render.render`) with the open dialog in its
overlay. Pure strings, like the table's renderers."""

from __future__ import annotations

from dataclasses import replace

from cribbage.cards import parse_card, parse_cards
from cribbage.scoring import score_hand
from cribbage.state import Phase

from web.kit import rules
from web.kit.comfort_view import comfort_block
from web.kit.frame import Rendered
from web.kit.html import esc
from web.kit.looks import looks_menu
from web.kit.speech import event_sentence
from web.sessions.registry import MODES, PAGES, mode_of
from web.table.render import _items_html, _mini, render
from web.table.scene import DELAYS, LEVELS, Scene

__all__ = ["frame", "overlay"]


def frame(scene: Scene) -> Rendered:
    """Draw one frame: the table, the overlay (the hot-seat cover, else the open dialog) and the
    attributes of ``#app``."""
    rendered = render(scene)
    if scene.shell.looks is not None:  # the player's felt and card backs (web.kit.looks), for the page's body
        rendered = replace(rendered, meta={**rendered.meta, **scene.shell.looks.meta()})
    if scene.cover_for is not None:
        return rendered
    dialog = overlay(scene)
    return replace(rendered, overlay=dialog) if dialog else rendered


def overlay(scene: Scene) -> str:
    """The open dialog's markup ('' for none)."""
    if scene.dialog == "sheet":
        return _sheet(scene)
    if scene.dialog == "menu":
        return _menu(scene)
    if scene.dialog == "restart":
        return _restart(scene)
    if scene.dialog == "rules":
        return _rules(scene)
    if scene.dialog == "newgame" and scene.shell.content is not None:
        from web.screens.newgame.view import NewGameScene, newgame_dialog  # imported when the dialog is first drawn

        return newgame_dialog(scene.shell.content) if isinstance(scene.shell.content, NewGameScene) else ""
    if scene.dialog == "record" and scene.shell.content is not None:  # record.render.RECORD_DIALOG
        from web.screens.record.view import RecordScene, record_dialog  # imported when the record dialog is first drawn

        return record_dialog(scene.shell.content) if isinstance(scene.shell.content, RecordScene) else ""
    if scene.dialog == "challenge" and scene.shell.content is not None:  # challenge_view.CHALLENGE_DIALOG
        from web.screens.challenge.view import ChallengeScene, challenge_dialog  # imported when first drawn

        return challenge_dialog(scene.shell.content) if isinstance(scene.shell.content, ChallengeScene) else ""
    return ""


def _dialog(title: str, body: str, dialog_id: str, wide: bool = False) -> str:
    return (
        f'<div class="backdrop" data-action="close-backdrop"><div class="dialog{" wide" if wide else ""}" '
        f'role="dialog" aria-modal="true" aria-labelledby="{dialog_id}-title" id="{dialog_id}">'
        f'<header class="dialog-head"><h2 id="{dialog_id}-title">{esc(title)}</h2>'
        '<button type="button" class="btn btn-small close" data-action="close" id="btn-close" '
        'aria-label="Close">\u00d7</button></header>'
        f'<div class="dialog-body">{body}</div></div></div>'
    )


def _sheet(scene: Scene) -> str:
    v = scene.view
    names = scene.names
    rows = []
    current = None
    for e in v.events:
        if not e.points and e.kind != "win":
            continue
        if e.hand != current:
            current = e.hand
            review = ""
            if scene.review_available and e.hand < v.hand_number or (
                    scene.review_available and v.phase is Phase.GAME_OVER):
                lines = scene.reviews.get(e.hand)
                if lines is None:
                    review = (f'<button type="button" class="btn btn-small" data-action="review" '
                              f'data-hand="{e.hand}" id="review-{e.hand}">Coach\u2019s review</button>')
                elif lines:
                    review = '<ul class="review">' + "".join(f"<li>{esc(t)}</li>" for t in lines) + "</ul>"
                else:
                    review = '<p class="review">Nothing to add: well played.</p>'
            rows.append(f'<tr class="hand-row"><th colspan="5" scope="colgroup" id="sheet-hand-{e.hand}">'
                        f"Hand {e.hand}{review}</th></tr>")
        if e.kind == "win":
            rows.append(f'<tr class="win-row"><td></td><td colspan="4">{esc(event_sentence(e, names, False, scene.me))}'
                        "</td></tr>")
            continue
        if e.seat is None:
            continue
        what = {"show hand": "hand", "show crib": "crib", "heels": "his heels", "put back": "put back"}.get(
            e.kind, "pegging"
        )
        if e.claim:  # muggins: what was claimed, not yet what it held
            what += " (claimed)"
        items = "".join(f"<li>{esc(i.describe())}</li>" for i in e.items)
        cards = " ".join(c.pretty for c in e.cards)
        rows.append(
            f'<tr class="seat-{e.seat}"><td class="who"><span class="peg-dot" aria-hidden="true"></span>'
            f'<span class="who-name">{esc(names[e.seat])}</span></td><td>{esc(what)}'
            f"<br><span class=\"cards\">{esc(cards)}</span></td>"
            f'<td><ul class="items">{items}</ul></td><td class="pts">{e.points}</td>'
            f'<td class="tot">{e.scores[v.rules.side_of(e.seat)]}</td></tr>'
        )
    if not rows:
        body = "<p>No points scored yet.</p>"
    else:
        body = (
            '<table class="sheet"><thead><tr><th scope="col">Who</th><th scope="col">What</th>'
            '<th scope="col">How</th><th scope="col">Points</th><th scope="col">Total</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>'
        )
    return _dialog("Score sheet", body, "dlg-sheet", wide=True)


def _menu(scene: Scene) -> str:
    def choice(action: str, key: str, value: str, label: str, pressed: bool) -> str:
        return (f'<button type="button" class="chip" data-action="{action}" data-{key}="{esc(value)}" '
                f'id="{action}-{esc(value)}" aria-pressed="{"true" if pressed else "false"}">{esc(label)}</button>')

    modes = "".join(choice("new-mode", "mode", m.key, m.label, scene.new_mode == m.key) for m in MODES.values())
    room = ""
    if scene.room_rules is not None:  # a new online room: its house rules, previewed in words
        from web.screens.newgame.view import room_rules_html  # (the New game dialog's controls)
        from web.sessions.online.room_rules import room_sentence

        room = room_rules_html(scene.room_rules, room_sentence(scene.room_rules))
    resume = ""
    for key in scene.saved_modes:
        if key != scene.mode and key in MODES:
            resume += (f'<button type="button" class="btn" data-action="resume" data-mode="{esc(key)}" '
                       f'id="resume-{esc(key)}">{esc(MODES[key].resume_label)}</button>')
    # One level choice: it sets the computer of this game and of the next new game alike.
    playing_computer = mode_of(scene.mode).computer
    current = ""
    if playing_computer or mode_of(scene.new_mode).computer:
        level = scene.level if playing_computer else scene.new_level
        levels = "".join(choice("level", "level", lv, lv.capitalize(), level == lv) for lv in LEVELS)
        where = "this game and new ones" if playing_computer else "new games"
        current = (f'<h3>Computer</h3><p class="note">Level ({where}):</p>'
                   f'<div class="row" role="group" aria-label="Computer level">{levels}</div>')
        if playing_computer:
            speeds = "".join(choice("speed", "delay", str(ms), label, scene.delay == ms) for label, ms in DELAYS)
            current += f'<div class="row" role="group" aria-label="Computer speed">{speeds}</div>'
    current += _chance_switch(scene)
    current += comfort_block(scene.shell.comforts)  # sound, vibration, auto-play
    keys = (
        "<h3>Keyboard</h3><dl class=\"keys\">"
        "<dt>1\u20136, \u2190 \u2192</dt><dd>choose a card (or where to cut)</dd>"
        "<dt>Enter</dt><dd>confirm: To crib, Play, Cut, Count, Next hand</dd>"
        "<dt>G</dt><dd>Go</dd><dt>H</dt><dd>hint</dd><dt>S</dt><dd>score sheet</dd>"
        "<dt>Ctrl+Z / Ctrl+Y</dt><dd>undo / redo (also Ctrl+Shift+Z)</dd>"
        "<dt>Esc</dt><dd>close, clear the selection</dd><dt>M</dt><dd>this menu</dd>"
        "<dt>R</dt><dd>the rules</dd></dl>"
    )
    body = (
        f'<h3>New game</h3><div class="row" role="group" aria-label="Mode">{modes}</div>{room}'
        '<div class="row"><button type="button" class="btn btn-primary" data-action="start" id="btn-start">'
        "Start a new game</button>"
        '<button type="button" class="btn" data-action="newgame-open" id="btn-newgame">'
        "Players, house rules, series…</button></div>"
        + (f'<div class="row">{resume}</div>' if resume else "")
        + ('<h3>Learn to play</h3><div class="row"><button type="button" class="btn" data-action="lessons" '
           'id="btn-lessons">Lessons and practice\u2026</button></div>')
        + ('<h3>Your record</h3><div class="row"><button type="button" class="btn" data-action="record" '
           'id="btn-record">History, statistics, export and import\u2026</button></div>')
        + current
        + ('<h3>This game</h3><div class="row"><button type="button" class="btn" data-action="restart-ask" '
           'id="btn-restart">Restart (same deals)\u2026</button></div>' if mode_of(scene.mode).restart else "")
        + '<h3>Rules</h3><div class="row"><button type="button" class="btn" data-action="rules" id="btn-rules">'
        "How to play and score</button></div>"
        + "".join(f'<h3>{esc(page.heading)}</h3><div class="row"><a class="btn" href="./?mode={esc(page.key)}" '
                  f'id="{esc(page.link_id)}">{esc(page.label)}</a></div>' for page in PAGES.values())
        + (looks_menu(scene.shell.looks) if scene.shell.looks is not None else "")  # the felt and the card backs
        + keys
    )
    return _dialog("Menu", body, "dlg-menu")


def _chance_switch(scene: Scene) -> str:
    """The menu's switch of the chance-of-winning bar (two-player tables: the model covers no other)."""
    chances = scene.shell.chances
    if chances is None or chances.setting is None:
        return ""
    on = chances.setting
    note = ("Each side’s chance of winning by the board, from the scores, the deal and the cards you "
            "can see (never the other hand).")
    if chances.online:
        note += (" Online it shows only your own view, on your screen: your friend sees it only if they "
                 "turn it on too.")
    return (f'<h3>Chance of winning</h3><p class="note">{esc(note)}</p><div class="row">'
            f'<button type="button" class="chip" data-action="winbar" id="winbar-toggle" '
            f'aria-pressed="{"true" if on else "false"}">Show the chance of winning</button></div>')


def _rules(scene: Scene) -> str:
    """How to play and how scoring works, with a worked play and a worked count (from docs/RULES.md)."""
    parts = []
    for heading, paragraphs in rules.SECTIONS:
        parts.append(f"<h3>{esc(heading)}</h3>" + "".join(f"<p>{esc(p)}</p>" for p in paragraphs))
    rows = []
    for who, code, count, points, why in rules.PLAY_EXAMPLE:
        card = "Go" if code == "go" else parse_card(code).pretty
        rows.append(f"<tr><td>{esc(who)}</td><td>{esc(card)}</td><td>{count}</td><td>{points or ''}</td>"
                    f"<td>{esc(why)}</td></tr>")
    parts.append(
        f"<h3>Worked example: a play</h3><p>{esc(rules.PLAY_EXAMPLE_INTRO)}</p>"
        '<table class="sheet rules-play"><thead><tr><th scope="col">Who</th><th scope="col">Card</th>'
        '<th scope="col">Count</th><th scope="col">Pegs</th><th scope="col">Why</th></tr></thead>'
        f'<tbody>{"".join(rows)}</tbody></table>')
    example = dict(rules.COUNT_EXAMPLE)
    hand, starter = parse_cards(example["hand"]), parse_card(example["starter"])
    scored = score_hand(hand, starter)  # the engine counts the example: the page never re-derives rules
    minis = (
        "".join(_mini(c) for c in hand)
        + f'<span class="plus" aria-hidden="true">+</span>{_mini(starter, "starter-mini")}'
    )
    parts.append(
        f'<h3>Worked example: a hand</h3><div class="panel-cards">{minis}</div>'
        f'<ul class="items">{_items_html(scored.items)}</ul>'
        f"<p><strong>{scored.total} points.</strong> {esc(rules.COUNT_EXAMPLE_NOTE)}</p>")
    parts.append('<h3>Print</h3><div class="row rules-print"><button type="button" class="btn" data-action="print" '
                 'id="btn-print-rules">Print these rules</button></div><p>Sheets to print (PDF):</p>'
                 + rules.printables_html())
    return _dialog("Rules", '<div class="rules">' + "".join(parts) + "</div>", "dlg-rules", wide=True)


def _restart(scene: Scene) -> str:
    body = (
        "<p>Play this match again from the cut for deal, with the same shuffles. The scores go back to 0.</p>"
        '<div class="row"><button type="button" class="btn btn-primary" data-action="restart-confirm" '
        'id="btn-restart-confirm">Restart</button>'
        '<button type="button" class="btn" data-action="close" id="btn-restart-cancel">Cancel</button></div>'
    )
    return _dialog("Restart this game?", body, "dlg-restart")

