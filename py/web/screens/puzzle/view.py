"""The daily discard puzzle's screen as HTML (``?mode=puzzle``): pure functions from a
:class:`PuzzleScene` to the table and the overlay markup. No browser and no state here
(:mod:`web.screens.puzzle.screen` decides what the scene holds).

Before the answer the markup holds the six cards and the situation only: no coach number reaches it
until the player has laid two cards away (nothing to read in the page's source).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from html import escape
from typing import TYPE_CHECKING, Sequence

from cribbage.cards import Card
from cribbage.puzzle import FIRST_DAY, History, Puzzle, Result, keep_points, ordinal

from web.kit.cards import card_html, card_name

if TYPE_CHECKING:
    from cribbage.ai.coach import DiscardChoice

__all__ = ["PuzzleScene", "table_html", "overlay_html", "day_title", "verdict"]

_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")


@dataclass
class PuzzleScene:
    """What the screen shows now."""

    puzzle: Puzzle
    today: date
    history: History
    selected: tuple[int, ...] = ()
    """Indices (0..5) of the cards picked, in the order picked."""
    result: Result | None = None
    """This day's answer, once given."""
    ranking: Sequence["DiscardChoice"] | None = None
    """The coach's 15 discards, best first (shown only with a result)."""
    reason: str = ""
    share: str = ""
    notice: str | None = None
    dialog: str | None = None
    """``history``, ``menu`` or None."""
    copied: str = ""
    """The Copy button was pressed: ``yes``, ``refused`` (no clipboard: select the text), or empty."""


def esc(text: object) -> str:
    return escape(str(text), quote=True)


def day_title(day: date) -> str:
    """``Wednesday 2 December 2026``."""
    return f"{_WEEKDAYS[day.weekday()]} {day.day} {_MONTHS[day.month - 1]} {day.year}"


def _button(label: str, action: str, *, id_: str, cls: str = "btn", data: dict[str, object] | None = None,
            aria: str = "", key: str = "", disabled: bool = False, pressed: bool | None = None) -> str:
    attrs = [f'type="button" class="{cls}" data-action="{action}" id="{id_}"']
    for k, v in (data or {}).items():
        attrs.append(f'data-{k}="{esc(v)}"')
    if aria:
        attrs.append(f'aria-label="{esc(aria)}"')
    if key:
        attrs.append(f'aria-keyshortcuts="{esc(key)}"')
    if pressed is not None:
        attrs.append(f'aria-pressed="{"true" if pressed else "false"}"')
    if disabled:
        attrs.append('aria-disabled="true"')
    return f"<button {' '.join(attrs)}>{label}</button>"


def verdict(result: Result, ranking: Sequence["DiscardChoice"]) -> str:
    """``The best discard of the 15: the coach agrees.`` / ``The 4th best of 15: 1.2 points behind the
    best, and 41% to win against 45%.``"""
    if result.rank == 1:
        return "The best discard of the 15: the coach agrees."
    chosen = next((c for c in ranking if set(c.discard) == set(result.discard)), None)
    # The table beside shows each discard's points to one decimal: the gap said is the gap of those
    # two numbers (11.9 and 6.4: 5.5 behind, not the 5.6 of the unrounded 11.94 and 6.36).
    pts = (round(round(ranking[0].net, 1) - round(chosen.net, 1), 1) if chosen is not None and ranking
           else result.points_lost)
    if pts >= 0.05:
        cost = f"{pts:.1f} point{'' if round(pts, 1) == 1 else 's'} behind the best"
    elif pts <= -0.05:
        cost = f"{-pts:.1f} point{'' if round(-pts, 1) == 1 else 's'} more than the best"
    else:
        cost = "as many points as the best"
    if chosen is not None and ranking:
        mine, best = 100 * (chosen.win_chance or 0.0), 100 * (ranking[0].win_chance or 0.0)
        cost += f", and {mine:.1f}% to win against {best:.1f}%"
    return f"The {ordinal(result.rank)} best of 15: {cost}."


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(c.pretty for c in cards)


def _ranks(cards: Sequence[Card]) -> str:
    names = {1: "A", 10: "10", 11: "J", 12: "Q", 13: "K"}
    return "-".join(names.get(int(c.rank), str(int(c.rank))) for c in sorted(cards, key=lambda c: c.rank))


def _header(scene: PuzzleScene) -> str:
    tools = (_button("History", "pz-history", id_="pz-history-btn", cls="tool", aria="Your puzzle history", key="H")
             + _button("Menu", "pz-menu", id_="pz-menu-btn", cls="tool", aria="Menu", key="M"))
    return ('<header class="bar pz-bar"><div class="brand"><span class="brand-name">Cribbage</span>'
            '<span class="brand-mode">Daily puzzle</span></div>'
            f'<nav class="tools pz-tools" aria-label="Puzzle">{tools}</nav></header>')


def _days(scene: PuzzleScene) -> str:
    p = scene.puzzle
    day, today = p.day, scene.today
    first = day <= FIRST_DAY
    last = day >= today
    nav = (
        _button("\u2190 Previous day", "pz-prev", id_="pz-prev", cls="btn btn-small", key="ArrowLeft",
                disabled=first)
        + f'<h2 class="pz-day" id="pz-day" data-day="{day.isoformat()}">{esc(day_title(day))}'
        f'<span class="pz-number">#{p.number}</span></h2>'
        + _button("Next day \u2192", "pz-next", id_="pz-next", cls="btn btn-small", key="ArrowRight",
                  disabled=last)
    )
    picker = (
        '<div class="pz-picker"><label for="pz-date-input">Another day</label>'
        f'<input type="date" id="pz-date-input" min="{FIRST_DAY.isoformat()}" max="{today.isoformat()}" '
        f'value="{day.isoformat()}">'
        + _button("Open", "pz-date", id_="pz-date-open", cls="btn btn-small", data={"input": "pz-date-input"})
        + ("" if day == today else _button("Today", "pz-today", id_="pz-today", cls="btn btn-small", key="T"))
        + "</div>"
    )
    past = "" if day == today else (
        '<p class="pz-past note">A past day: your answer goes into your history, not your streak.</p>')
    return f'<div class="pz-days" role="group" aria-label="Which day">{nav}</div>{picker}{past}'


def _situation(p: Puzzle) -> str:
    me, other = p.scores
    them = "Pone" if p.dealer else "Dealer"
    return (
        '<section class="pz-situation" aria-label="The situation">'
        f'<div class="pz-score pz-you"><span class="pz-who">You{" (dealer)" if p.dealer else " (pone)"}</span>'
        f'<span class="pz-pts" id="pz-you">{me}</span></div>'
        f'<div class="pz-score pz-them"><span class="pz-who">{them}</span>'
        f'<span class="pz-pts" id="pz-them">{other}</span></div>'
        f'<p class="pz-role" id="pz-situation">{esc(p.situation())} Which two cards do you lay away?</p>'
        "</section>"
    )


def _hand(scene: PuzzleScene) -> str:
    p = scene.puzzle
    solved = scene.result is not None
    laid = set(scene.result.discard) if scene.result is not None else set()
    out = []
    for i, card in enumerate(p.hand):
        classes = ["hand-card", "pz-card"]
        if solved:
            if card in laid:
                classes.append("laid")
            out.append(card_html(card, classes=" ".join(classes),
                                 name=card_name(card) + (", laid away" if card in laid else "")))
            continue
        selected = i in scene.selected
        if selected:
            classes.append("selected")
        attrs = {"id": f"pz-card-{i}", "data-action": "pz-card", "data-index": str(i),
                 "aria-pressed": "true" if selected else "false", "aria-keyshortcuts": str(i + 1)}
        out.append(card_html(card, tag="button", classes=" ".join(classes), attrs=attrs, name=card_name(card)))
    return f'<div class="hand pz-hand" role="group" aria-label="Your six cards">{"".join(out)}</div>'


def _preview(scene: PuzzleScene) -> str:
    p = scene.puzzle
    whose = "your crib" if p.dealer else "the dealer\u2019s crib"
    if scene.result is not None:
        return ""
    if len(scene.selected) != 2:
        left = 2 - len(scene.selected)
        text = (f"Pick two cards to lay away to {whose}." if left == 2
                else f"Pick one more card to lay away to {whose}.")
        return (f'<div class="pz-preview"><p class="stage-hint" id="pz-prompt">{esc(text)}</p>'
                + _button("Lay away", "pz-confirm", id_="pz-confirm", cls="btn btn-primary", key="Enter",
                          disabled=True) + "</div>")
    toss = [p.hand[i] for i in sorted(scene.selected)]
    keep = [c for i, c in enumerate(p.hand) if i not in scene.selected]
    pts = keep_points(keep)
    minis = "".join(card_html(c, classes="mini") for c in keep)
    tossed = "".join(card_html(c, classes="mini tossed") for c in toss)
    return (
        '<div class="pz-preview preview">'
        f'<div class="keep"><div class="keep-cards">{minis}</div>'
        f'<p class="keep-points" id="pz-keep">keep <strong>{pts}</strong> point{"s" if pts != 1 else ""} '
        "(before the starter)</p></div>"
        f'<div class="toss"><div class="keep-cards">{tossed}</div><p>to {esc(whose)}</p></div>'
        + _button(f"Lay away {esc(_cards(toss))}", "pz-confirm", id_="pz-confirm", cls="btn btn-primary", key="Enter")
        + _button("Clear", "pz-clear", id_="pz-clear", cls="btn btn-small", key="Escape")
        + "</div>"
    )


def _answer(scene: PuzzleScene) -> str:
    result = scene.result
    if result is None:
        return ""
    if scene.ranking is None:
        return ('<section class="pz-answer" id="pz-answer" aria-busy="true"><p class="pz-working">'
                "The coach is working out the 15 discards\u2026</p></section>")
    from cribbage.ai.discard_wins import ranking_key  # loaded already: the answer came from it

    chosen = set(result.discard)
    rows = []
    rank = 0
    previous: tuple[float, float] | None = None
    for n, c in enumerate(scene.ranking, start=1):
        key = ranking_key(c)
        if key != previous:
            rank = n
            previous = key
        mine = set(c.discard) == chosen
        cls = " ".join(x for x in ("pz-best" if rank == 1 else "", "pz-mine" if mine else "") if x)
        mark = ' <span class="pz-tag">yours</span>' if mine else ""
        attrs = (f' class="{cls}"' if cls else "") + (' id="pz-mine"' if mine else "")
        crib_sign = "+" if c.crib_counts_for_you else "\u2212"
        rows.append(
            f"<tr{attrs}>"
            f'<td class="pz-rank">{rank}</td><td class="pz-toss">{esc(_cards(c.discard))}{mark}</td>'
            f'<td class="pz-keep">{esc(_ranks(c.keep))}</td><td class="num pz-wide">{c.hand_ev:.1f}</td>'
            f'<td class="num pz-wide">{crib_sign}{c.crib_ev:.1f}</td>'
            f'<td class="num">{c.net:.1f}</td><td class="num">{100 * (c.win_chance or 0.0):.1f}%</td></tr>'
        )
    table = ('<table class="sheet pz-ranking" id="pz-ranking"><caption>The coach\u2019s 15 discards, best first '
             "(by the chance of winning)</caption><thead><tr>"
             '<th scope="col">#</th><th scope="col">Lay away</th><th scope="col" class="pz-keep">Keep</th>'
             '<th scope="col" class="num pz-wide">Hand</th><th scope="col" class="num pz-wide">Crib</th>'
             '<th scope="col" class="num">Points</th><th scope="col" class="num">Win</th></tr></thead>'
             f'<tbody>{"".join(rows)}</tbody></table>')
    history = scene.history
    streak = history.streak(scene.today)
    best = history.best_streak()
    solved = len(history.results)
    copy_label = {"yes": "Copied", "refused": "Select the text to copy"}.get(scene.copied, "Copy")
    share = (
        '<div class="pz-share"><p class="pz-share-label">Share your result (no cards in it):</p>'
        f'<p class="pz-share-text" id="pz-share-text">{esc(scene.share)}</p>'
        + _button(copy_label, "pz-copy", id_="pz-copy", cls="btn btn-small", data={"copy": scene.share})
        + "</div>"
    )
    return (
        '<section class="pz-answer" id="pz-answer" aria-labelledby="pz-verdict">'
        f'<h3 class="pz-verdict" id="pz-verdict" tabindex="-1">You laid away {esc(_cards(result.discard))}. '
        f"{esc(verdict(result, scene.ranking))}</h3>"
        f'<p class="pz-reason" id="pz-reason">{esc(scene.reason)}</p>'
        f"{table}"
        f'<p class="pz-streak" id="pz-streak" data-streak="{streak}">Streak: <strong>{streak}</strong> '
        f'day{"" if streak == 1 else "s"} \u00b7 best {best} \u00b7 {solved} solved</p>'
        f"{share}</section>"
    )


def table_html(scene: PuzzleScene) -> str:
    notice = ""
    if scene.notice:
        notice = (f'<div class="notice" role="alert"><p>{esc(scene.notice)}</p>'
                  + _button("OK", "pz-dismiss", id_="pz-notice-ok", cls="btn btn-small") + "</div>")
    return (_header(scene) + notice + '<div class="pz">' + _days(scene) + _situation(scene.puzzle)
            + _hand(scene) + _preview(scene) + _answer(scene) + "</div>")


def _dialog(title: str, body: str, dialog_id: str) -> str:
    return (
        f'<div class="backdrop" data-action="pz-close-backdrop"><div class="dialog pz-dialog" role="dialog" '
        f'aria-modal="true" aria-labelledby="{dialog_id}-title" id="{dialog_id}">'
        f'<header class="dialog-head"><h2 id="{dialog_id}-title">{esc(title)}</h2>'
        '<button type="button" class="btn btn-small close" data-action="pz-close" id="btn-close" '
        'aria-label="Close">\u00d7</button></header>'
        f'<div class="dialog-body">{body}</div></div></div>'
    )


def _history_html(scene: PuzzleScene) -> str:
    h = scene.history
    recent = h.recent(60)
    if not recent:
        body = "<p>No puzzle solved in this browser yet.</p>"
    else:
        rows = []
        for r in recent:
            rank = "best" if r.rank == 1 else ordinal(r.rank)
            pts = "" if r.rank == 1 else f"{-r.points_lost:+.1f}".replace("-", "\u2212")
            iso = r.day.isoformat()
            open_day = _button(esc(iso), "pz-open", id_=f"pz-open-{iso}", cls="btn btn-small", data={"choice": iso})
            when = "on the day" if r.on_day else "later"
            rows.append(f'<tr><td>{open_day}</td><td>{rank}</td><td class="num">{pts}</td><td>{when}</td></tr>')
        body = (f'<p>Streak {h.streak(scene.today)} \u00b7 best {h.best_streak()} \u00b7 {len(h.results)} solved '
                f'\u00b7 {sum(1 for r in h.results.values() if r.rank == 1)} best answers.</p>'
                '<table class="sheet pz-history"><thead><tr><th scope="col">Day</th><th scope="col">Your rank</th>'
                '<th scope="col" class="num">Points</th><th scope="col">Solved</th></tr></thead>'
                f'<tbody>{"".join(rows)}</tbody></table>'
                '<p class="note">Kept in this browser only (with your games: Export in the card game\u2019s '
                "record).</p>")
    return _dialog("Your daily puzzles", body, "pz-history-dlg")


def _menu_html() -> str:
    body = (
        "<p>Every day the same six cards for everyone (from the date, in UTC), a score and a role. Lay two "
        "away; the coach then ranks all 15 discards by the chance of winning from that score, with the "
        "points each is expected to bring. Everything is worked out in this browser, offline too.</p>"
        '<h3>Keyboard</h3><dl class="keys"><dt>1\u20136</dt><dd>pick a card</dd><dt>Enter</dt><dd>lay away</dd>'
        "<dt>Esc</dt><dd>clear, close</dd><dt>\u2190 \u2192</dt><dd>the day before, after</dd>"
        "<dt>T</dt><dd>today</dd><dt>H</dt><dd>history</dd></dl>"
        '<h3>More</h3><p><a href="./" id="pz-to-game">Play cribbage against the computer</a></p>'
    )
    return _dialog("Daily discard puzzle", body, "pz-menu")


def overlay_html(scene: PuzzleScene) -> str:
    if scene.dialog == "history":
        return _history_html(scene)
    if scene.dialog == "menu":
        return _menu_html()
    return ""
