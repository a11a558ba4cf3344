"""The lessons screen's markup: the progress map, a level, a drill. Pure strings from a
:class:`LessonsScene` (the screen, :mod:`web.screens.lessons.screen`, fills it in).

Every control is a button with ``data-action="lesson…"``; cards to tap are buttons with their spoken
name and ``aria-pressed``; the sentence after each answer is drawn here and spoken by the screen
through the page's one live region (so this markup holds no live region of its own).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from cribbage.cards import Card

from web.kit.cards import card_html, card_name
from web.kit.html import esc

__all__ = ["LessonsScene", "StageRow", "DrillRow", "lessons_html", "stars_text", "LESSONS_DIALOG"]

LESSONS_DIALOG = "lessons"
"""The name of the dialog while the lessons are open."""


@dataclass(frozen=True)
class StageRow:
    """One stage on the map: its title and goal, the stars of each level."""

    index: int
    title: str
    goal: str
    stars: tuple[int, ...]


@dataclass(frozen=True)
class DrillRow:
    """One drill on the map: its name, what it asks, its record."""

    key: str
    title: str
    about: str
    record: str


@dataclass
class LessonsScene:
    """What the lessons screen shows."""

    page: str = "map"
    """``map``, ``level`` or ``drill``."""
    stages: tuple[StageRow, ...] = ()
    drills: tuple[DrillRow, ...] = ()
    notice: str | None = None
    # A level or a drill.
    title: str = ""
    """``Fifteens · level 2 of 6`` or the drill's name."""
    goal: str = ""
    intro: str = ""
    answer: str = "number"
    """How it is answered: ``combos``, ``card``, ``pair``, ``number`` or ``word``."""
    cards: tuple[Card, ...] = ()
    """The cards to tap (or, for a number, to count)."""
    cards_label: str = "Cards"
    starter: Card | None = None
    pile: tuple[Card, ...] = ()
    """The play: the cards of this count, in the order laid."""
    count: int | None = None
    selected: tuple[str, ...] = ()
    found: tuple[str, ...] = ()
    """Combos already claimed, as sentences."""
    entry: str = ""
    words: tuple[tuple[str, str], ...] = ()
    """A word answer's choices: (value, label)."""
    info: str = ""
    """A line of the situation (a final score, a table)."""
    feedback: str = ""
    ok: bool = False
    solved: bool = False
    stars: int = 0
    can_next: bool = True
    next_label: str = "Next level"
    record: str = ""
    """A drill's record (accuracy, streak)."""
    extra: dict[str, str] = field(default_factory=dict)


def stars_text(n: int, of: int = 3) -> str:
    """``★★☆``."""
    return "\u2605" * n + "\u2606" * (of - n)


def _stars_html(n: int, of: int = 3) -> str:
    return (f'<span class="lesson-stars" role="img" aria-label="{n} of {of} stars">'
            f'{stars_text(n, of)}</span>')


def _dialog(title: str, body: str) -> str:
    return (
        '<div class="backdrop lessons-backdrop"><div class="dialog wide lessons" role="dialog" aria-modal="true" '
        'aria-labelledby="dlg-lessons-title" id="dlg-lessons">'
        f'<header class="dialog-head"><h2 id="dlg-lessons-title">{esc(title)}</h2>'
        '<button type="button" class="btn btn-small close" data-action="close" id="btn-close" '
        'aria-label="Close">\u00d7</button></header>'
        f'<div class="dialog-body">{body}</div></div></div>'
    )


def _btn(action: str, label: str, id_: str, primary: bool = False, data: dict[str, str] | None = None,
         disabled: bool = False, aria: str = "") -> str:
    attrs = "".join(f' data-{k}="{esc(v)}"' for k, v in (data or {}).items())
    cls = "btn btn-primary" if primary else "btn"
    label_attr = f' aria-label="{esc(aria)}"' if aria else ""
    return (f'<button type="button" class="{cls}" data-action="{action}" id="{id_}"{attrs}{label_attr}'
            f'{" disabled" if disabled else ""}>{esc(label)}</button>')


def lessons_html(s: LessonsScene) -> str:
    """The whole dialog for the scene."""
    if s.page == "map":
        return _dialog("Learn to play", _map(s))
    return _dialog(s.title, _level(s))


def _map(s: LessonsScene) -> str:
    notice = f'<p class="lesson-notice">{esc(s.notice)}</p>' if s.notice else ""
    rows = []
    for st in s.stages:
        got, of = sum(st.stars), 3 * len(st.stars)
        levels = "".join(
            f'<li><button type="button" class="chip lesson-level" data-action="lesson-level" '
            f'data-stage="{st.index}" data-level="{i}" id="lesson-level-{st.index}-{i}" '
            f'aria-label="Level {i + 1}, {n} of 3 stars">{i + 1}<span aria-hidden="true"> {stars_text(n)}</span>'
            f"</button></li>" for i, n in enumerate(st.stars))
        done = " done" if all(st.stars) else ""
        rows.append(
            f'<li class="lesson-stage{done}"><button type="button" class="btn lesson-stage-btn" '
            f'data-action="lesson-stage" data-stage="{st.index}" id="lesson-stage-{st.index}">'
            f'<span class="lesson-stage-num" aria-hidden="true">{st.index + 1}</span>'
            f'<span class="lesson-stage-title">{esc(st.title)}</span>'
            f'<span class="visually-hidden">, {got} of {of} stars</span></button>'
            f'<p class="lesson-stage-goal">{esc(st.goal)}</p>'
            f'<ol class="lesson-levels" aria-label="{esc(st.title)}: levels">{levels}</ol></li>')
    drills = "".join(
        f'<li>{_btn("lesson-drill", d.title, f"lesson-drill-{d.key}", data={"drill": d.key})}'
        f'<p class="note">{esc(d.about)} <span class="lesson-record">{esc(d.record)}</span></p></li>'
        for d in s.drills)
    return (
        f'{notice}<p class="lesson-lead">Eleven short stages, one idea each: tap the cards or enter the count; '
        'every answer is checked by the game\u2019s own scoring.</p>'
        f'<h3>Lessons</h3><ol class="lesson-map">{"".join(rows)}</ol>'
        f'<h3>Practice</h3><ul class="lesson-drills">{drills}</ul>'
        '<h3>Then play</h3><p class="note">Play the computer counting your own hands: with muggins, whatever '
        'you miss it takes, and the table shows exactly what it was. A new game replaces the one against the '
        'computer on the table.</p><div class="row"><button type="button" class="btn btn-primary" '
        'data-action="lesson-muggins" id="lesson-muggins">New game: count my own hands</button></div>'
    )


def _card_buttons(s: LessonsScene) -> str:
    out = []
    for i, c in enumerate(s.cards):
        pressed = "true" if c.code in s.selected else "false"
        out.append(card_html(c, tag="button", classes="lesson-card", name=f"{i + 1}: {card_name(c)}",
                             attrs={"data-action": "lesson-card", "id": f"lesson-card-{i}", "aria-pressed": pressed}))
    return f'<div class="lesson-cards" role="group" aria-label="{esc(s.cards_label)}">{"".join(out)}</div>'


def _card_images(cards: Sequence[Card], label: str, cls: str = "lesson-cards") -> str:
    return (f'<div class="{cls}" role="group" aria-label="{esc(label)}">'
            f'{"".join(card_html(c) for c in cards)}</div>')


def _pad(s: LessonsScene) -> str:
    digits = "".join(
        f'<button type="button" class="btn lesson-digit" data-action="lesson-digit" data-digit="{d}" '
        f'id="lesson-digit-{d}">{d}</button>' for d in "1234567890")
    shown = s.entry or "\u2013"
    return (
        f'<div class="lesson-entry"><span class="lesson-entry-label" id="lesson-entry-label">Your answer</span> '
        '<output class="lesson-entry-value" id="lesson-entry" '
        f'aria-labelledby="lesson-entry-label">{esc(shown)}</output></div>'
        f'<div class="lesson-pad" role="group" aria-label="Number pad">{digits}'
        '<button type="button" class="btn lesson-digit" data-action="lesson-erase" id="lesson-erase" '
        'aria-label="Erase">\u232b</button></div>'
        f'<div class="row">{_btn("lesson-check", "Check", "lesson-check", primary=True, disabled=not s.entry)}</div>'
    )


def _level(s: LessonsScene) -> str:
    parts = []
    if s.intro:
        parts.append(f'<p class="lesson-intro">{esc(s.intro)}</p>')
    parts.append(f'<p class="lesson-goal" id="lesson-goal"><strong>{esc(s.goal)}</strong></p>')
    if s.info:
        parts.append(f'<p class="lesson-info">{esc(s.info)}</p>')
    if s.pile or s.count is not None:
        parts.append(f'<p class="lesson-caption">Laid so far: count <strong>{s.count}</strong></p>'
                     + (_card_images(s.pile, f"Laid so far, count {s.count}", "lesson-cards lesson-pile")
                        if s.pile else ""))
    tappable = s.answer in ("combos", "card", "pair") and not s.solved
    if s.cards:
        if s.pile or s.count is not None or s.starter is not None:
            parts.append(f'<p class="lesson-caption">{esc(s.cards_label)}</p>')
        parts.append(_card_buttons(s) if tappable else _card_images(s.cards, s.cards_label))
    if s.starter is not None:
        parts.append(f'<div class="lesson-starter"><span>Starter</span>{card_html(s.starter)}</div>')
    if s.found:
        parts.append('<ul class="lesson-found" aria-label="Found">' + "".join(
            f"<li>{esc(f)}</li>" for f in s.found) + "</ul>")
    if not s.solved:
        if s.answer == "combos":
            parts.append('<div class="row">'
                         + _btn("lesson-claim", "Count it", "lesson-claim", primary=True, disabled=not s.selected)
                         + _btn("lesson-done", "Done: that is all", "lesson-done") + "</div>")
        elif s.answer == "pair":
            parts.append('<div class="row">' + _btn("lesson-claim", "Lay these away", "lesson-claim", primary=True,
                                                    disabled=len(s.selected) != 2) + "</div>")
        elif s.answer == "number":
            parts.append(_pad(s))
        elif s.answer == "word":
            parts.append('<div class="row" role="group" aria-label="Answers">' + "".join(
                _btn("lesson-word", label, f"lesson-word-{i}", data={"word": value})
                for i, (value, label) in enumerate(s.words)) + "</div>")
    keys = {"combos": "1\u20136 tap a card, Enter counts it, D when all are found",
            "card": "1\u20136 tap a card", "pair": "1\u20136 tap a card, Enter lays the two away",
            "number": "type the number, Backspace erases, Enter checks",
            "word": "A, B or C chooses"}.get(s.answer, "")
    if keys and not s.solved:
        parts.append(f'<p class="note lesson-keys">Keys: {esc(keys)}; Esc: all lessons.</p>')
    if s.feedback:
        cls = "ok" if s.ok else "wrong"
        parts.append(f'<p class="lesson-feedback {cls}" id="lesson-feedback">{esc(s.feedback)}</p>')
    if s.record:
        parts.append(f'<p class="lesson-record">{esc(s.record)}</p>')
    nav = []
    if s.solved:
        if s.page == "level":
            nav.append(f'<p class="lesson-earned">{_stars_html(s.stars)}</p>')
        if s.can_next:
            nav.append(_btn("lesson-next", s.next_label, "lesson-next", primary=True))
        nav.append(_btn("lesson-retry", "Again" if s.page == "level" else "Another", "lesson-retry"))
    nav.append(_btn("lesson-map", "All lessons", "lesson-map"))
    parts.append('<div class="row lesson-nav">' + "".join(nav) + "</div>")
    return "".join(parts)
