"""The Scorekeeper's markup: the board, each side's pegging buttons, the pad, the entries, the New
game form and the menu, drawn from a :class:`ScoreScene` (pure strings, like the table's renderers).

The screen (:mod:`web.screens.scorekeeper.screen`) builds the scene from its state and the ledger
(:class:`cribbage.scorekeeper.Scorekeeper`); here nothing changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import Any

from cribbage.rules import Rules
from cribbage.scorekeeper import PEG_BUTTONS, Scorekeeper
from cribbage.scoring import MAX_SHOW

from web.kit.board import board_svg, layout_for
from web.kit.frame import Rendered
from web.kit.rules import printables_html

__all__ = ["ScoreScene", "Setup", "TABLES", "SERIES", "KIND_WORDS", "render"]

TABLES: dict[str, tuple[str, Rules]] = {
    "2": ("2 players", Rules()),
    "3": ("3 players", Rules(players=3)),
    "teams": ("2 teams of 2", Rules(players=4)),
}
SERIES: dict[str, tuple[str, int]] = {"1": ("One game", 1), "3": ("Best of 3", 3), "5": ("Best of 5", 5),
                                      "7": ("Best of 7", 7)}
KIND_WORDS = {"peg": "pegging", "go": "go", "hand": "hand", "crib": "crib", "heels": "his heels"}


@dataclass
class Setup:
    """The New game form."""

    table: str = "2"
    target: int = 121
    series: str = "1"
    skunks: bool = True
    names: list[str] = field(default_factory=lambda: ["", "", "", ""])
    dealer: int = 0

    def rules(self) -> Rules:
        return TABLES[self.table][1].with_(target=self.target)

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "target": self.target, "series": self.series, "skunks": self.skunks,
                "names": self.names}

    @classmethod
    def from_json(cls, data: Any) -> "Setup":
        out = cls()
        if isinstance(data, dict):
            if data.get("table") in TABLES:
                out.table = data["table"]
            if data.get("target") in (121, 61):
                out.target = data["target"]
            if data.get("series") in SERIES:
                out.series = data["series"]
            if isinstance(data.get("skunks"), bool):
                out.skunks = data["skunks"]
            names = data.get("names")
            if isinstance(names, list) and len(names) == 4 and all(isinstance(n, str) for n in names):
                out.names = [n[:24] for n in names]
        return out


def _esc(text: object) -> str:
    return escape(str(text), quote=True)


def _button(label: str, action: str, *, id_: str = "", cls: str = "btn", data: dict[str, object] | None = None,
            aria: str = "", key: str = "", pressed: bool | None = None, disabled: bool = False) -> str:
    attrs = [f'type="button" class="{cls}" data-action="{action}"']
    if id_:
        attrs.append(f'id="{id_}"')
    for k, v in (data or {}).items():
        attrs.append(f'data-{k}="{_esc(v)}"')
    if aria:
        attrs.append(f'aria-label="{_esc(aria)}"')
    if key:
        attrs.append(f'aria-keyshortcuts="{_esc(key)}"')
    if pressed is not None:
        attrs.append(f'aria-pressed="{"true" if pressed else "false"}"')
    if disabled:
        attrs.append('aria-disabled="true"')
    return f"<button {' '.join(attrs)}>{label}</button>"


@dataclass(frozen=True)
class ScoreScene:
    """What the Scorekeeper shows now."""

    keeper: Scorekeeper | None
    setup: Setup
    dialog: str | None
    """``setup``, ``pad``, ``log``, ``menu`` or None."""
    pad: tuple[int, str] | None
    """The pad's (side, "hand" | "crib")."""
    typed: str
    message: str
    refused: bool
    notice: str | None
    moved: tuple[bool, ...]
    wake: str


def render(sc: ScoreScene) -> Rendered:
    k = sc.keeper
    overlay = ""
    if sc.dialog == "setup" or k is None:
        overlay = _setup_html(sc, k is not None)
    elif sc.dialog == "pad" and sc.pad is not None:
        overlay = _pad_html(sc, k)
    elif sc.dialog == "log":
        overlay = _log_html(sc, k)
    elif sc.dialog == "menu":
        overlay = _menu_html(sc)
    meta = {"mode": "score", "dialog": sc.dialog or "", "wake": sc.wake, "phase": "score"}
    if k is not None:
        meta.update({"totals": ",".join(map(str, k.totals)), "deal": str(k.deal), "dealer": str(k.dealer),
                     "winner": "" if k.winner is None else str(k.winner),
                     "result": (k.result[2] if k.result else ""),
                     "games": ",".join(map(str, k.series_points))})
    return Rendered(_table_html(sc, k), overlay, meta)


def _header(sc: ScoreScene, k: Scorekeeper | None) -> str:
    tools = ""
    if k is not None:
        tools = (_button("Undo", "sk-undo", id_="sk-undo", cls="tool", aria="Undo", key="Control+Z",
                         disabled=not k.can_undo)
                 + _button("Redo", "sk-redo", id_="sk-redo", cls="tool", aria="Redo", key="Control+Y",
                           disabled=not k.can_redo)
                 + _button("Entries", "sk-log", id_="sk-log", cls="tool", aria="Entries by deal", key="L"))
    tools += _button("Menu", "sk-menu", id_="sk-menu-btn", cls="tool", aria="Menu", key="M")
    return ('<header class="bar sk-bar"><div class="brand"><span class="brand-name">Cribbage</span>'
            '<span class="brand-mode">Scorekeeper</span></div>'
            f'<nav class="tools sk-tools" aria-label="Scorekeeper">{tools}</nav></header>')


def _table_html(sc: ScoreScene, k: Scorekeeper | None) -> str:
    notice = ""
    if sc.notice:
        notice = (f'<div class="notice" role="alert"><p>{_esc(sc.notice)}</p>'
                  + _button("OK", "sk-dismiss", id_="sk-notice-ok", cls="btn btn-small") + "</div>")
    if k is None:
        return _header(sc, k) + notice + '<div class="sk"><p class="sk-empty">No game yet.</p></div>'
    rules = k.rules
    names = [k.side_name(s) for s in range(k.sides)]
    board = board_svg(k.totals, k.previous, names, "horizontal", sc.moved[:k.sides],
                      layout_for(k.sides, rules.target), k.lines())
    dealer = k.names[k.dealer]
    crib_owner = k.side_name(k.crib_side)
    over = k.winner is not None
    deal_bar = (
        f'<div class="sk-deal" role="group" aria-label="The deal">'
        f'<p class="sk-deal-text" id="sk-deal-text"><strong>Deal {k.deal}</strong> \u00b7 {_esc(dealer)} deals'
        f" \u00b7 the crib is {_esc(crib_owner)}\u2019s</p>"
        '<div class="sk-deal-buttons">'
        + _button("His heels +2", "sk-heels", id_="sk-heels", cls="btn", disabled=over,
                  aria=f"His heels: 2 for {dealer}")
        + _button("Crib\u2026", "sk-pad", id_="sk-crib", cls="btn", data={"side": k.crib_side, "kind": "crib"},
                  disabled=over, aria=f"Count {crib_owner}\u2019s crib")
        + _button("Next deal", "sk-next", id_="sk-next", cls="btn btn-primary", key="N", disabled=over)
        + "</div></div>"
    )
    status = ""
    if over:
        status = _over_html(sc, k)
    message = (f'<p class="sk-message{" sk-refused" if sc.refused else ""}" id="sk-message" '
               f'role="status" aria-live="polite">{_esc(sc.message)}</p>')
    sides = "".join(_side_html(sc, k, s) for s in range(k.sides))
    return (_header(sc, k) + notice
            + f'<div class="sk sk-{k.sides}">'
            + f'<section class="sk-board board-wrap" aria-label="Board">{board}</section>'
            + status + deal_bar + message
            + f'<div class="sk-sides">{sides}</div>'
            + _series_html(sc, k)
            + "</div>")


def _side_html(sc: ScoreScene, k: Scorekeeper, side: int) -> str:
    over = k.winner is not None
    name = k.side_name(side)
    total = k.totals[side]
    quick = "".join(
        _button(str(p), "sk-peg", id_=f"sk-peg-{side}-{p}", cls="btn sk-q", data={"side": side, "points": p},
                aria=f"{name} pegs {p}", disabled=over) for p in PEG_BUTTONS)
    quick += _button("Go", "sk-go", id_=f"sk-go-{side}", cls="btn sk-q", data={"side": side},
                     aria=f"{name}: 1 for the go", disabled=over)
    dealer = " sk-dealer" if side == k.crib_side else ""
    badge = '<span class="sk-badge">dealer</span>' if side == k.crib_side else ""
    return (
        f'<section class="sk-side side-{side}{dealer}" aria-label="{_esc(name)}" id="sk-side-{side}">'
        f'<h2 class="sk-name"><span class="peg-dot" aria-hidden="true"></span>{_esc(name)}{badge}'
        f'<span class="sk-total" id="sk-total-{side}" aria-label="{_esc(name)} has {total}">{total}</span></h2>'
        f'<div class="sk-quick" role="group" aria-label="{_esc(name)}: pegging">{quick}</div>'
        + _button("Hand\u2026", "sk-pad", id_=f"sk-hand-{side}", cls="btn sk-hand",
                  data={"side": side, "kind": "hand"}, aria=f"Count {name}\u2019s hand", disabled=over)
        + "</section>"
    )


def _over_html(sc: ScoreScene, k: Scorekeeper) -> str:
    sentence = k.result_sentence() or ""
    done = k.series_winner is not None
    first_to = k.series.series.first_to
    extra = ""
    if first_to > 1:
        extra = (f" {k.side_name(k.series_winner)} win{'' if len(k.rules.seats_of(k.series_winner)) > 1 else 's'}"
                 " the series." if done and k.series_winner is not None else "")
    buttons = ""
    if not done:
        nxt = k.series.add(k.totals, k.first_dealer).next_first_dealer()
        if nxt is None:  # the cut decides who deals the next game
            buttons += '<span class="sk-cut">Cut for the next deal: who deals?</span>'
            buttons += "".join(
                _button(f"{_esc(k.names[seat])} deals", "sk-next-game", id_=f"sk-next-game-{seat}",
                        cls="btn btn-primary", data={"choice": seat}) for seat in range(k.rules.players))
        else:
            buttons += _button(f"Next game ({_esc(k.names[nxt])} deals)", "sk-next-game", id_="sk-next-game",
                               cls="btn btn-primary", data={"choice": nxt})
    buttons += _button("New game\u2026", "sk-setup", id_="sk-new-after", cls="btn")
    return (f'<div class="sk-over" role="alert" id="sk-over"><p><strong>{_esc(sentence)}</strong>{_esc(extra)}'
            f'</p><div class="row">{buttons}</div></div>')


def _series_html(sc: ScoreScene, k: Scorekeeper) -> str:
    points = k.series_points
    first_to = k.series.series.first_to
    parts = " \u00b7 ".join(f"{_esc(k.side_name(s))} {p}" for s, p in enumerate(points))
    lines = ", ".join(f"{name} below {score}" for name, score in k.lines())
    what = f"Games (first to {first_to})" if first_to > 1 else "Game points"
    return (f'<p class="sk-series" id="sk-series">{what}: {parts}. Game to {k.rules.target}; '
            f"{_esc(lines)}.</p>")


def _dialog(title: str, body: str, dialog_id: str, wide: bool = False) -> str:
    return (
        f'<div class="backdrop" data-action="sk-close-backdrop"><div class="dialog{" wide" if wide else ""} sk-dialog" '
        f'role="dialog" aria-modal="true" aria-labelledby="{dialog_id}-title" id="{dialog_id}">'
        f'<header class="dialog-head"><h2 id="{dialog_id}-title">{_esc(title)}</h2>'
        '<button type="button" class="btn btn-small close" data-action="sk-close" id="btn-close" '
        'aria-label="Close">\u00d7</button></header>'
        f'<div class="dialog-body">{body}</div></div></div>'
    )


def _setup_html(sc: ScoreScene, closable: bool) -> str:
    s = sc.setup
    rules = s.rules()
    inputs = " ".join(f"sk-name-{i}" for i in range(rules.players))

    def chip(label: str, field_: str, value: str, pressed: bool) -> str:
        return _button(_esc(label), "sk-set", id_=f"sk-set-{field_}-{value}", cls="chip",
                       data={"field": field_, "choice": value, "inputs": inputs}, pressed=pressed)

    tables = "".join(chip(label, "table", key, s.table == key) for key, (label, _) in TABLES.items())
    targets = "".join(chip(str(t), "target", str(t), s.target == t) for t in (121, 61))
    series = "".join(chip(label, "series", key, s.series == key) for key, (label, _) in SERIES.items())
    skunks = chip("Skunks count double (and triple)", "skunks", "yes" if not s.skunks else "no", s.skunks)
    names = ""
    for i in range(rules.players):
        team = ""
        if rules.partners:
            team = f" (team {'A' if i % 2 == 0 else 'B'})"
        names += (f'<label class="sk-field">Player {i + 1}{team}'
                  f'<input id="sk-name-{i}" type="text" maxlength="24" autocomplete="off" '
                  f'value="{_esc(s.names[i])}" placeholder="Player {i + 1}"></label>')
    dealer = s.dealer if s.dealer < rules.players else 0
    dealers = "".join(chip(s.names[i] or f"Player {i + 1}", "dealer", str(i), dealer == i)
                      for i in range(rules.players))
    note = ("Partners sit opposite: players 1 and 3 against 2 and 4." if rules.partners else "")
    body = (
        f'<h3>Players</h3><div class="row" role="group" aria-label="Players">{tables}</div>'
        f'<div class="sk-names">{names}</div>' + (f'<p class="note">{note}</p>' if note else "")
        + f'<h3>Game to</h3><div class="row" role="group" aria-label="Game to">{targets}</div>'
        + f'<h3>Who deals first</h3><p class="note">Cut for deal: the lower card deals.</p>'
        f'<div class="row" role="group" aria-label="First dealer">{dealers}</div>'
        + f'<h3>Series</h3><div class="row" role="group" aria-label="Series">{series}</div>'
        f'<div class="row">{skunks}</div>'
        + '<div class="row">'
        + _button("Start scoring", "sk-start", id_="sk-start", cls="btn btn-primary", data={"inputs": inputs})
        + "</div>"
        + '<p class="note"><a href="./" id="sk-back">Back to the card game</a></p>'
    )
    dialog = _dialog("New game: score real cards", body, "sk-setup")
    if not closable:  # nothing behind it yet: no close button
        dialog = dialog.replace(
            '<button type="button" class="btn btn-small close" data-action="sk-close" id="btn-close" '
            'aria-label="Close">\u00d7</button>', "")
    return dialog


def _pad_html(sc: ScoreScene, k: Scorekeeper | None) -> str:
    assert sc.pad is not None and k is not None
    side, kind = sc.pad
    name = k.side_name(side)
    title = f"{name}\u2019s {'crib' if kind == 'crib' else 'hand'}"
    keys = "".join(
        _button(str(n), "sk-count", id_=f"sk-count-{n}", cls="btn sk-num", data={"points": n},
                aria=f"{n} points") for n in range(MAX_SHOW + 1))
    typed = f'<p class="sk-typed" aria-live="polite">Typed: {_esc(sc.typed)}</p>' if sc.typed else ""
    body = (f'<p class="note">Tap the count (or type it and press Enter). '
            'No hand counts 19, 25, 26 or 27.</p>'
            f'<div class="sk-pad" role="group" aria-label="Count">{keys}</div>{typed}'
            + (f'<p class="sk-message sk-refused" role="alert">{_esc(sc.message)}</p>' if sc.refused else ""))
    return _dialog(title, body, "sk-pad")


def _log_html(sc: ScoreScene, k: Scorekeeper | None) -> str:
    assert k is not None
    rows = []
    for d in reversed(k.deals()):
        rows.append(f'<tr class="hand-row"><th colspan="4" scope="colgroup">Deal {d.number}: '
                    f"{_esc(k.names[d.dealer])} deals</th></tr>")
        if not d.entries:
            rows.append('<tr><td colspan="4">Nothing scored yet.</td></tr>')
        for _index, e, totals in reversed(d.entries):
            rows.append(f'<tr class="seat-{e.side}"><td class="who"><span class="peg-dot" aria-hidden="true"></span>'
                        f'{_esc(k.side_name(e.side))}</td><td>{KIND_WORDS[e.kind]}</td>'
                        f'<td class="pts">{e.points}</td><td class="tot">{totals[e.side]}</td></tr>')
    games = ""
    if k.series.games:
        items = []
        for n, (g, (side, value, kind)) in enumerate(zip(k.series.games, k.series.values()), 1):
            scores = " \u2013 ".join(map(str, g.scores))
            items.append(f"<li>Game {n}: {_esc(k.side_name(side))} {kind} ({value}), {scores}</li>")
        games = f"<h3>Games of this series</h3><ol>{''.join(items)}</ol>"
    body = ('<table class="sheet sk-log"><thead><tr><th scope="col">Who</th><th scope="col">What</th>'
            '<th scope="col">Points</th><th scope="col">Total</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>{games}')
    return _dialog("Entries by deal", body, "sk-log-dlg", wide=True)


def _menu_html(sc: ScoreScene) -> str:
    wake = {"on": "The screen stays on while the scorekeeper is open.",
            "unsupported": "This browser cannot keep the screen on: it may dim as usual.",
            }.get(sc.wake, "The screen is allowed to dim (the browser refused to keep it on).")
    body = (
        '<div class="row">' + _button("New game\u2026", "sk-setup", id_="sk-new", cls="btn btn-primary") + "</div>"
        + f'<p class="note" id="sk-wake">{_esc(wake)}</p>'
        '<h3>Keyboard</h3><dl class="keys"><dt>Tab, Enter</dt><dd>any button</dd>'
        "<dt>N</dt><dd>next deal</dd><dt>L</dt><dd>entries by deal</dd>"
        "<dt>0\u20139, Enter</dt><dd>type a count in the pad</dd>"
        "<dt>Ctrl+Z / Ctrl+Y</dt><dd>undo / redo</dd><dt>Esc</dt><dd>close</dd></dl>"
        '<h3>More</h3><p><a href="./" id="sk-to-game">Play cribbage against the computer</a></p>'
        '<h3>Print (PDF)</h3>' + printables_html()
    )
    return _dialog("Scorekeeper", body, "sk-menu")
