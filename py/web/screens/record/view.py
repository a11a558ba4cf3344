"""The player's record as HTML strings: the game-over chart and the *Your record* dialog.

Pure functions, no browser imports (like :mod:`web.table.render`, which calls :func:`game_over_html`,
and :mod:`web.shell.dialogs`, which calls :func:`record_dialog`). What they draw comes in a :class:`RecordScene` built
by
:mod:`web.screens.record.screen`: the history and statistics read from storage, the match opened from the
list (replayed from its seed and actions), a message after an export or import, an import waiting
for the player's yes. Every chart (:mod:`web.kit.charts`) sits in a ``<figure>`` whose caption says in
words what it shows; wide tables scroll inside their own box so a 360-px phone never scrolls
sideways.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from html import escape
from typing import Callable, Sequence, TypeVar

from cribbage.cards import parse_card
from cribbage.record import (
    DOUBLE_SKUNK_LINE,
    EXPERT_DEALER,
    EXPERT_PONE,
    SKUNK_LINE,
    SOURCES,
    Best,
    GroupStats,
    History,
    MatchRecord,
    Stats,
    race,
)
from cribbage.fairness import NOT_COMMITTED, Verdict, fingerprint
from cribbage.rules import Rules
from cribbage.state import Event

from web.kit.charts import (
    LINE_WORDS,
    hand_ends,
    histogram_chart,
    lead_changes,
    race_chart,
    source_rows,
    sources_chart,
    trend_chart,
)
from web.kit.speech import whose
from web.kit.winchance import ChanceScene, costliest_html

__all__ = ["RecordScene", "game_over_html", "record_dialog", "match_date", "RECORD_DIALOG"]

RECORD_DIALOG = "record"
"""The ``Scene.dialog`` value of the record dialog (its pages are in :attr:`RecordScene.page`)."""


@dataclass
class RecordScene:
    """Everything the record dialog shows."""

    page: str = "list"
    """``list`` (statistics, matches, export/import), ``match`` (one match) or ``confirm-import``."""
    history: History = field(default_factory=History)
    stats: Stats = field(default_factory=Stats)
    problem: str | None = None
    """The stored history could not be read (a sentence)."""
    message: str | None = None
    """The outcome of the last export or import."""
    error: bool = False
    """``message`` reports a refusal."""
    match: MatchRecord | None = None
    """The match opened from the list."""
    events: tuple[Event, ...] = ()
    """Its events (replayed), for the chart and the hand-by-hand table."""
    replaced: tuple[str, ...] = ()
    """confirm-import: what the import would replace, in words."""
    new_matches: int = 0
    """confirm-import: matches the history would gain."""
    can_review: bool = False
    """The coach can review the opened match hand by hand."""
    reviews: dict[int, list[str]] = field(default_factory=dict)
    """The coach's review lines of the opened match, by hand number (those asked for)."""
    race: tuple[tuple[int, float], ...] | None = None
    """The opened match: ``you``'s chance of winning after each hand (None: not worked out, or a
    table the model does not cover)."""
    you: int = 0
    verdict: Verdict | None = None
    """*Verify this match* was asked for the opened match: its outcome, hand by hand."""


def esc(text: object) -> str:
    return escape(str(text), quote=True)


def match_date(ms: int) -> str:
    """``30 Nov 2026, 23:15 UTC``."""
    when = datetime.fromtimestamp(ms / 1000, tz=timezone.utc)
    return f"{when.day} {when:%b %Y, %H:%M} UTC"


def _dialog(title: str, body: str, dialog_id: str) -> str:
    """The same frame as the table's dialogs (``web.shell.dialogs._dialog``), always wide."""
    return (
        '<div class="backdrop" data-action="close-backdrop"><div class="dialog wide record" '
        f'role="dialog" aria-modal="true" aria-labelledby="{dialog_id}-title" id="{dialog_id}">'
        f'<header class="dialog-head"><h2 id="{dialog_id}-title">{esc(title)}</h2>'
        '<button type="button" class="btn btn-small close" data-action="close" id="btn-close" '
        'aria-label="Close">\u00d7</button></header>'
        f'<div class="dialog-body">{body}</div></div></div>'
    )


def _figure(svg: str, caption: str, cls: str = "") -> str:
    return f'<figure class="chart-box{" " + cls if cls else ""}">{svg}<figcaption>{esc(caption)}</figcaption></figure>'


def _race_caption(events: Sequence[Event], names: Sequence[str], short: bool = False) -> str:
    steps = race(events)
    ends = hand_ends(steps)
    changes = lead_changes(steps)
    if not steps:
        return "No points were scored."
    final = steps[-1].scores
    after = "; ".join(f"hand {h} {DASH.join(str(x) for x in scores)}" for h, scores in ends)
    lines = ", ".join(f"{names[side]} ({LINE_WORDS[side]} line) {final[side]}" for side in range(len(names)))
    return (f"{lines} after {len(ends)} hands. "
            f"The lead changed {len(changes)} time{'s' if len(changes) != 1 else ''}."
            + ("" if short else f" After each hand: {after}."))


def side_names(names: Sequence[str], rules: Rules) -> tuple[str, ...]:
    """A name for each side (a line of the race): the seat's, or the partners' (``"Ann & Cid"``)."""
    return tuple(" & ".join(names[s] for s in rules.seats_of(side)) for side in range(rules.sides))


def race_figure(events: Sequence[Event], names: Sequence[str], short: bool = False, target: int = 121,
                chances: Sequence[tuple[int, float]] | None = None, you: int = 0) -> str:
    """The race to ``target`` of these events (``names`` one a side) with its text summary (``short``:
    without the hand-by-hand scores, which the chart's own description still gives); with ``chances``
    the band of ``you``'s chance of winning after each hand."""
    caption = _race_caption(events, names, short)
    if chances:
        caption += (f" The band below: {whose(names[you], capital=False)} chance of winning after each hand, "
                    f"{round(100 * chances[0][1])}% at the start.")
    return _figure(race_chart(race(events), names, target, chances, you), caption, "race")


def game_over_html(events: Sequence[Event], names: Sequence[str], chances: ChanceScene | None = None,
                   target: int = 121) -> str:
    """The game-over screen's chart of the match (with the chance band once it is worked out), the
    match's costliest decisions (against the computer) and the way to the record."""
    race_chances = chances.race if chances is not None else None
    you = chances.you if chances is not None else 0
    costly = costliest_html(chances.costly) if chances is not None and chances.costly_wanted else ""
    return (
        "<div "
        'class="game-over-chart">'
        f'{race_figure(events, names, short=True, target=target, chances=race_chances, you=you)}'
        f'{costly}<button type="button" class="btn" data-action="record" id="btn-record-open">'
        "Your record…</button></div>"
    )


# --- the list page --------------------------------------------------------------------------------


DASH = "\u2013"


def _avg(x: float | None) -> str:
    return DASH if x is None else f"{x:.1f}"


def _cards(best: Best | None) -> str:
    if best is None:
        return "none yet"
    try:
        cards = [parse_card(c).pretty for c in best.cards]
    except ValueError:
        cards = list(best.cards)
    return f"{best.points} ({' '.join(cards[:4])}, starter {cards[4]})"


def _names(group: GroupStats) -> tuple[str, str]:
    if group.key.startswith("computer:"):
        return "You", "Computer"
    return group.key.partition(":")[2], "Opponents"


def _points_table(group: GroupStats) -> str:
    you, opp = _names(group)
    head = "".join(f'<th scope="col">{s}</th>' for s in SOURCES)
    rows = []
    for role, expert in (("dealer", EXPERT_DEALER), ("pone", EXPERT_PONE)):
        for name, side in ((you, group.player), (opp, group.opponent)):
            n = side.dealer_hands if role == "dealer" else side.pone_hands
            cells = "".join(f"<td>{_avg(side.average(role, s)) if n else DASH}</td>" for s in SOURCES)
            rows.append(f'<tr><th scope="row">{esc(name)} as {role} <span class="n">({n} hands)</span></th>'
                        f"{cells}<td><strong>{_avg(side.average(role))}</strong></td></tr>")
        if group.rules:  # the published figures are the classic two-player game's only
            continue
        cells = "".join(f"<td>{_avg(expert.get(s))}</td>" for s in SOURCES)
        rows.append(f'<tr class="expert"><th scope="row">Expert as {role} <span class="n">(published)</span></th>'
                    f"{cells}<td><strong>{_avg(sum(expert.values()))}</strong></td></tr>")
    return ('<div class="scroll-x"><table class="record-table"><caption>Average points a hand by source'
            f'</caption><thead><tr><th scope="col">Who</th>{head}<th scope="col">total</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div>')


def _group(group: GroupStats, index: int) -> str:
    you, opp = _names(group)
    rate = group.win_rate
    won = f"{group.matches} match{'es' if group.matches != 1 else ''}, {group.wins} won" + (
        f" ({100 * rate:.0f}%)" if rate is not None else "")
    p, o = group.player, group.opponent
    facts = [
        f"<li>Best hand: {esc(_cards(p.best_hand))}</li>",
        f"<li>Best crib: {esc(_cards(p.best_crib))}</li>",
        f"<li>29s: {p.count_of(29)}, 28s: {p.count_of(28)}, 24s: {p.count_of(24)}</li>",
        (f"<li>Lost below {SKUNK_LINE} (skunked): {esc(you)} {p.skunked}, {esc(opp)} {o.skunked}; below "
         f"{DOUBLE_SKUNK_LINE} (double-skunked): {esc(you)} {p.double_skunked}, {esc(opp)} {o.double_skunked}. "
         "Information only: a skunk counts extra in a series only.</li>") if not group.rules else
        (f"<li>Skunked: {esc(you)} {p.skunked}, {esc(opp)} {o.skunked}; double-skunked: {esc(you)} "
         f"{p.double_skunked}, {esc(opp)} {o.double_skunked}. Information only: a skunk counts extra in a series "
         "only.</li>"),
    ]
    coach_text = trend = ""
    if p.coached:
        c = p.coach
        coach_text = (f"<p>The coach reviewed {p.coached} match{'es' if p.coached != 1 else ''}: on average "
                 f"{_avg(c.per_discard)} expected points lost a discard ({c.discards} discards) and "
                 f"{_avg(c.per_play)} a play ({c.plays} plays with a real choice), against the expert\u2019s choice."
                 "</p>")
        if group.trend:
            first, last = group.trend[0], group.trend[-1]
            trend = _figure(trend_chart(group.trend),
                             f"Match by match, oldest first: a discard {_avg(first.per_discard)} \u2192 "
                             f"{_avg(last.per_discard)}, a play {_avg(first.per_play)} \u2192 "
                             f"{_avg(last.per_play)} points lost (first \u2192 latest reviewed match).")
    else:
        coach_text = "<p>The coach has not reviewed a match of this group yet.</p>"
    shows = p.shows
    counted = sum(shows.values())
    hist = ""
    if counted:
        common = max(shows.items(), key=lambda kv: (kv[1], -kv[0]))[0]
        mean = sum(k * v for k, v in shows.items()) / counted
        title = "Your hand counts" if you == "You" else f"{you}\u2019s hand counts"
        hist = _figure(histogram_chart(shows, title),
                       f"{counted} hands counted, {mean:.1f} points on average; the most common count was {common}.")
    rows = source_rows(group, you, opp)
    sources = _figure(sources_chart(rows), "The same averages as bars: pegging, hand, crib and heels stacked, "
                      "dealer rows then pone rows, the published expert figures last.")
    return (
        f'<section class="group" aria-labelledby="group-{index}"><h5 id="group-{index}">{esc(group.label)}</h5>'
        f"<p>{won}</p>{_points_table(group)}"
        f'<ul class="facts">{"".join(facts)}</ul>{coach_text}'
        f'<div class="charts">{sources}{hist}{trend}</div></section>'
    )


T = TypeVar("T")


def table_name(rules: str) -> str:
    """A heading for a table from its rules' description (``""``: the classic game)."""
    if not rules or rules == "classic":
        return "Classic: two players, to 121"
    words = rules[:1].upper() + rules[1:]
    return words if words.startswith(("Three", "Four")) else f"Two players, {rules}"


def _by_table(items: Sequence[T], rules_of: Callable[[T], str]) -> list[tuple[str, list[T]]]:
    """``items`` grouped by table (in order of first appearance; the classic game first)."""
    groups: dict[str, list[T]] = {}
    for item in items:
        groups.setdefault(rules_of(item), []).append(item)
    order = sorted(groups, key=lambda k: (k != "", list(groups).index(k)))
    return [(table_name(k), groups[k]) for k in order]


def _list_page(rs: RecordScene) -> str:
    parts = []
    if rs.message:
        role = "alert" if rs.error else "status"
        parts.append(f'<p class="record-message{" error" if rs.error else ""}" role="{role}">{esc(rs.message)}</p>')
    if rs.problem:
        parts.append(f'<p class="record-message error" role="alert">{esc(rs.problem)}</p>')
    groups = rs.stats.sorted_groups()
    parts.append("<h3>Statistics</h3>")
    if groups:
        parts.append(f"<p>{rs.stats.matches} finished match{'es' if rs.stats.matches != 1 else ''}.</p>")
        for n, (table, members) in enumerate(_by_table(groups, lambda g: g.rules)):  # a heading per table
            parts.append(f'<h4 class="table-heading" id="stats-table-{n}">{esc(table)}</h4>')
            parts += [_group(g, groups.index(g)) for g in members]
    else:
        parts.append("<p>No finished matches yet: finish one and it appears here.</p>")
    parts.append("<h3>Matches</h3>")
    records = list(reversed(rs.history.records))
    if records:
        tables = _by_table(records, lambda r: "" if r.rules.is_classic else r.rules.describe())
        for n, (table, kept) in enumerate(tables):
            items = "".join(
                f'<li><button type="button" class="match-link" data-action="record-match" data-record="{esc(r.id)}" '
                f'id="match-{esc(r.id)}"><span class="headline">{esc(r.headline())}</span>'
                f'<span class="when">{esc(match_date(r.played_at))}</span></button></li>'
                for r in kept)
            parts.append(f'<h4 class="table-heading" id="matches-table-{n}">{esc(table)}</h4>'
                         f'<ol class="match-list" aria-labelledby="matches-table-{n}">{items}</ol>')
    else:
        parts.append("<p>None yet.</p>")
    if rs.history.folded:
        parts.append(f"<p>{len(rs.history.folded)} older matches are kept as totals only (they count in the "
                     "statistics).</p>")
    parts.append('<p><button type="button" class="btn btn-small" data-action="record-fair" id="btn-fair">'
                 "How the computer plays (and how to check it)</button></p>")
    parts.append(
        "<h3>Keep your games</h3>"
        "<p>Export saves everything (games in progress, this record, settings) to a file; import it on another "
        "device or after clearing this site\u2019s data. Importing the same file twice adds nothing twice.</p>"
        '<div class="row"><button type="button" class="btn" data-action="record-export" id="btn-export">'
        "Export to a file</button>"
        '<input type="file" id="import-file" class="visually-hidden file-input" accept=".json,application/json" '
        'data-action="record-import">'
        '<label class="btn file-button" for="import-file">Import a file\u2026</label></div>'
    )
    return "".join(parts)


# --- one match ------------------------------------------------------------------------------------


def _review_cell(rs: RecordScene, hand: int) -> str:
    lines = rs.reviews.get(hand)
    if lines is not None:
        items = "".join(f"<li>{esc(t)}</li>" for t in lines)
        return f'<ul class="review" id="record-review-{hand}" tabindex="-1">{items}</ul>'
    if not rs.can_review:
        return ""
    return (f'<button type="button" class="btn btn-small" data-action="record-review" data-hand="{hand}" '
            f'id="record-review-{hand}">Coach\u2019s review</button>')


def _hands_table(record: MatchRecord, rs: RecordScene | None = None) -> str:
    names = record.names
    seats = range(len(names))  # a column a seat (partners' points are their own here)
    head = "".join(f'<th scope="col">{esc(names[s])}</th>' for s in seats)
    rows = []
    totals = [0] * len(names)
    for h in record.hands:
        cells = []
        for s in seats:
            pts = h.points[s]
            got = sum(pts.values())
            totals[s] += got
            parts = ", ".join(f"{k} {v}" for k, v in pts.items() if v)
            cells.append(f"<td><strong>{got}</strong>{' (' + parts + ')' if parts else ''}"
                         f'<span class="n"> \u2192 {totals[s]}</span></td>')
        rows.append(f'<tr><th scope="row">{h.number}</th><td>{esc(names[h.dealer])}</td>{"".join(cells)}</tr>')
        review = _review_cell(rs, h.number) if rs is not None else ""
        if review:
            rows.append(f'<tr class="review-row"><td></td><td colspan="{len(names) + 1}">{review}</td></tr>')
    return ('<div class="scroll-x"><table class="record-table hands"><caption>Points hand by hand (total after it)'
            f'</caption><thead><tr><th scope="col">Hand</th><th scope="col">Dealer</th>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div>')


def _match_page(rs: RecordScene) -> str:
    r = rs.match
    back = ('<div class="row"><button type="button" class="btn" data-action="record-back" id="btn-record-back">'
            "\u2190 All matches</button></div>")
    if r is None:
        return back + "<p>This match is no longer in your history.</p>"
    coach = ""
    if r.coach is not None:
        bits = []
        for s in r.humans:
            c = r.coach[s]
            if c is not None:
                bits.append(f"{esc(r.names[s])}: {_avg(c.per_discard)} expected points lost a discard, "
                            f"{_avg(c.per_play)} a play")
        coach = f'<p>The coach\u2019s view: {"; ".join(bits)}.</p>' if bits else ""
    else:
        coach = "<p>The coach has not reviewed this match yet.</p>"
    best = "".join(f"<li>{esc(r.names[s])}: best hand {esc(_cards(r.best_hand[s]))}, best crib "
                   f"{esc(_cards(r.best_crib[s]))}</li>" for s in range(len(r.names)))
    chart = (race_figure(rs.events, side_names(r.names, r.rules), target=r.rules.target, chances=rs.race,
                         you=r.rules.side_of(rs.you)) if rs.events else "")
    return (
        back
        + f'<p class="match-headline"><strong>{esc(r.headline())}</strong><br>{esc(match_date(r.played_at))} '
        f"\u00b7 {len(r.hands)} hands \u00b7 seed {r.seed}</p>"
        + chart + _hands_table(r, rs) + f'<ul class="facts">{best}</ul>' + coach + _fair_section(rs)
    )


def _fair_section(rs: RecordScene) -> str:
    """The opened match's commitment, revealed, and *Verify this match* (its outcome once asked)."""
    r = rs.match
    assert r is not None
    head = '<h3 id="fair-head">Fair deals</h3>'
    if r.fair is None:
        return head + f"<p>{esc(NOT_COMMITTED)}</p>"
    said = (f"<p>Before the first cut the table showed the fingerprint <code>{esc(fingerprint(r.fair.commitment))}"
            f"</code>: a SHA-256 commitment to this match’s seed. Revealed now: seed <code>{r.seed}</code>, "
            f"nonce <code>{esc(r.fair.nonce)}</code>.</p>")
    v = rs.verdict
    if v is None:
        return head + said + ('<div class="row"><button type="button" class="btn" data-action="record-verify" '
                              'id="btn-verify">Verify this match</button></div>')
    mark = "✓" if v.ok else "✗"
    lines = "".join(f"<li>{esc(line)}</li>" for line in v.lines)
    return (head + said + f'<p class="verdict {"ok" if v.ok else "error"}" id="verdict" tabindex="-1" '
            f'role="{"status" if v.ok else "alert"}"><strong>{mark}</strong> {esc(v.summary)}</p>'
            f'<details class="redealt"><summary>Every deal, re-dealt from the seed</summary><ol>{lines}</ol>'
            "</details>")


FAIR_HELP = (
    ("What the computer sees",
     "The computer sees only its own cards and the cards the rules put on the table: the starter, the "
     "cards played, and every hand and crib once it is counted. That is not a promise but how the code "
     "is built: a computer player receives nothing but a SeatView, which holds that seat’s own cards "
     "and the other hands only as counts, and never the order of the pack. The game’s tests play "
     "matches and check that no view ever holds a hidden card."),
    ("Deals fixed before the first cut",
     "Every pack of a match is shuffled from one secret number, the seed, and the only other thing that "
     "decides which cards come up is where each cut is made. Before the first cut the table shows a short "
     "fingerprint of a commitment to the seed (a SHA-256 digest of the seed and a random nonce). The "
     "commitment fixes the seed without showing it, so no deal can be changed once play has begun, not by "
     "the computer and not by the page. The computer never learns the seed: its own random habits come "
     "from a one-way digest of it."),
    ("Check a match yourself",
     "When the match ends the table reveals the seed and the nonce. In Your record, open the match and "
     "tap Verify this match: the page checks that they give the fingerprint you saw, re-deals every hand "
     "from the seed, cut where it was cut, and shows that every card is the card that was played, or "
     "names the first hand that differs. On a computer, `cribbage verify FILE` does the same for an "
     "exported file."),
)
"""The page *How the computer plays* (also a section of docs/playing.md)."""


def _fair_help_page() -> str:
    back = ('<div class="row"><button type="button" class="btn" data-action="record-back" id="btn-record-back">'
            "← Your record</button></div>")
    body = "".join(f"<h3>{esc(h)}</h3><p>{esc(p)}</p>" for h, p in FAIR_HELP)
    return back + body


def _confirm_page(rs: RecordScene) -> str:
    what = ", ".join(rs.replaced)
    return (
        f'<p>This file holds {esc(what)}, which would replace what is stored here now'
        f"{' (your game in progress is lost)' if 'a saved game' in what else ''}. "
        f"It adds {rs.new_matches} match{'es' if rs.new_matches != 1 else ''} to your history.</p>"
        '<div class="row"><button type="button" class="btn btn-primary" data-action="record-import-confirm" '
        'id="btn-import-confirm">Import and replace</button>'
        '<button type="button" class="btn" data-action="record-back" id="btn-import-cancel">Cancel</button></div>'
    )


def record_dialog(rs: RecordScene) -> str:
    """The record dialog on its current page."""
    if rs.page == "match":
        return _dialog("A finished match", _match_page(rs), "dlg-record")
    if rs.page == "fair":
        return _dialog("How the computer plays", _fair_help_page(), "dlg-record")
    if rs.page == "confirm-import":
        return _dialog("Replace what is stored?", _confirm_page(rs), "dlg-record")
    return _dialog("Your record", _list_page(rs), "dlg-record")
