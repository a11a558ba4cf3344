"""The scorekeeper's screen (``?mode=score``): a renderer and input router over the engine's ledger,
:class:`cribbage.scorekeeper.Scorekeeper`, for games played with real cards.

No browser here (like :mod:`web.shell.controller`): the page's glue (:mod:`web.page.scorekeeper`) hands
it a host that shows frames and speaks, and a storage; the tests hand it fakes. Every rule — what may
be entered, the end of the game, the skunk lines, the series — is the ledger's; this module draws it,
routes taps and keys to it, saves it after every entry, and sets aside a save it cannot read.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from html import escape
from typing import Any, Callable, Protocol

from cribbage.rules import Rules
from cribbage.scorekeeper import PEG_BUTTONS, NextDeal, Score, ScoreError, Scorekeeper
from cribbage.scoring import MAX_SHOW
from cribbage.series import Series, SeriesRules

from web.kit.board import board_svg, layout_for
from web.kit.frame import Rendered
from web.kit.rules import printables_html
from web.sessions.storage import Storage

__all__ = ["ScoreController", "SAVE_KEY", "SETUP_KEY", "TABLES", "SERIES"]

SAVE_KEY = "cribbage.scorekeeper"
"""The ledger in progress."""
SETUP_KEY = "cribbage.scorekeeper.setup"
"""The last setup chosen (names, table, series): a new game starts from it."""
TABLES: dict[str, tuple[str, Rules]] = {
    "2": ("2 players", Rules()),
    "3": ("3 players", Rules(players=3)),
    "teams": ("2 teams of 2", Rules(players=4)),
}
SERIES: dict[str, tuple[str, int]] = {"1": ("One game", 1), "3": ("Best of 3", 3), "5": ("Best of 5", 5),
                                      "7": ("Best of 7", 7)}
KIND_WORDS = {"peg": "pegging", "go": "go", "hand": "hand", "crib": "crib", "heels": "his heels"}


class Host(Protocol):
    def show(self, rendered: Rendered, focus: str | None) -> None: ...
    def announce(self, text: str) -> None: ...
    def now_ms(self) -> int: ...


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


class ScoreController:
    """The scorekeeper on the page: the ledger, the screen state, saves."""

    def __init__(self, host: Host, storage: Storage, embedded: bool = False) -> None:
        self.host = host
        self.storage = storage
        self.embedded = embedded
        self.keeper: Scorekeeper | None = None
        self.setup = Setup()
        self.dialog: str | None = None
        """``setup``, ``pad``, ``log``, ``menu`` or None."""
        self.pad: tuple[int, str] | None = None
        """The pad's (side, "hand" | "crib")."""
        self.typed = ""
        """Digits typed on the keyboard into the pad."""
        self.message = ""
        """The latest refusal or entry, in a sentence (shown under the board)."""
        self.refused = False
        self.notice: str | None = None
        self.moved: list[bool] = [False] * 3
        self.focus: str | None = None
        self.wake = "off"
        """The screen wake lock: on, off, unsupported (set by the page's glue, shown in the menu)."""
        self.on_change: Callable[[], None] | None = None

    # --- start and saves -----------------------------------------------------------------------

    def boot(self) -> None:
        self.setup = Setup.from_json(self._read(SETUP_KEY))
        raw = self.storage.get(SAVE_KEY)
        if raw is not None:
            try:
                self.keeper = Scorekeeper.from_json(json.loads(raw))
            except Exception as exc:  # noqa: BLE001 - any unreadable save is set aside, never lost
                aside = f"{SAVE_KEY}.corrupt.{self.host.now_ms()}"
                try:
                    self.storage.set(aside, raw)
                    self.storage.remove(SAVE_KEY)
                except Exception:  # noqa: BLE001
                    aside = "(it could not be copied)"
                reason = str(exc) or type(exc).__name__
                self.notice = (f"Your saved score sheet could not be read ({reason}). It was set aside as "
                               f"\u201c{aside}\u201d: start a new game.")
        if self.keeper is None:
            self.dialog = "setup"
            self.focus = "sk-start"
        self.refresh()

    def _read(self, key: str) -> Any:
        try:
            raw = self.storage.get(key)
            return json.loads(raw) if raw else None
        except Exception:  # noqa: BLE001 - a setting is a convenience
            return None

    def save(self) -> None:
        try:
            if self.keeper is not None:
                self.storage.set(SAVE_KEY, json.dumps(self.keeper.to_json(), separators=(",", ":")))
            self.storage.set(SETUP_KEY, json.dumps(self.setup.to_json()))
        except Exception as exc:  # noqa: BLE001 - a full storage must not stop the scoring
            self.message = f"The score could not be saved ({exc})."

    # --- drawing -------------------------------------------------------------------------------

    def refresh(self) -> None:
        self.host.show(self.render(), self.focus)
        self.focus = None
        self.moved = [False] * 3

    def render(self) -> Rendered:
        k = self.keeper
        overlay = ""
        if self.dialog == "setup" or k is None:
            overlay = self._setup_html(k is not None)
        elif self.dialog == "pad" and self.pad is not None:
            overlay = self._pad_html(k)
        elif self.dialog == "log":
            overlay = self._log_html(k)
        elif self.dialog == "menu":
            overlay = self._menu_html()
        meta = {"mode": "score", "dialog": self.dialog or "", "wake": self.wake, "phase": "score"}
        if k is not None:
            meta.update({"totals": ",".join(map(str, k.totals)), "deal": str(k.deal), "dealer": str(k.dealer),
                         "winner": "" if k.winner is None else str(k.winner),
                         "result": (k.result[2] if k.result else ""),
                         "games": ",".join(map(str, k.series_points))})
        return Rendered(self._table_html(k), overlay, meta)

    def _header(self, k: Scorekeeper | None) -> str:
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

    def _table_html(self, k: Scorekeeper | None) -> str:
        notice = ""
        if self.notice:
            notice = (f'<div class="notice" role="alert"><p>{_esc(self.notice)}</p>'
                      + _button("OK", "sk-dismiss", id_="sk-notice-ok", cls="btn btn-small") + "</div>")
        if k is None:
            return self._header(k) + notice + '<div class="sk"><p class="sk-empty">No game yet.</p></div>'
        rules = k.rules
        names = [k.side_name(s) for s in range(k.sides)]
        board = board_svg(k.totals, k.previous, names, "horizontal", self.moved[:k.sides],
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
            status = self._over_html(k)
        message = (f'<p class="sk-message{" sk-refused" if self.refused else ""}" id="sk-message" '
                   f'role="status" aria-live="polite">{_esc(self.message)}</p>')
        sides = "".join(self._side_html(k, s) for s in range(k.sides))
        return (self._header(k) + notice
                + f'<div class="sk sk-{k.sides}">'
                + f'<section class="sk-board board-wrap" aria-label="Board">{board}</section>'
                + status + deal_bar + message
                + f'<div class="sk-sides">{sides}</div>'
                + self._series_html(k)
                + "</div>")

    def _side_html(self, k: Scorekeeper, side: int) -> str:
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

    def _over_html(self, k: Scorekeeper) -> str:
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

    def _series_html(self, k: Scorekeeper) -> str:
        points = k.series_points
        first_to = k.series.series.first_to
        parts = " \u00b7 ".join(f"{_esc(k.side_name(s))} {p}" for s, p in enumerate(points))
        lines = ", ".join(f"{name} below {score}" for name, score in k.lines())
        what = f"Games (first to {first_to})" if first_to > 1 else "Game points"
        return (f'<p class="sk-series" id="sk-series">{what}: {parts}. Game to {k.rules.target}; '
                f"{_esc(lines)}.</p>")

    # --- dialogs -------------------------------------------------------------------------------

    @staticmethod
    def _dialog(title: str, body: str, dialog_id: str, wide: bool = False) -> str:
        return (
            f'<div class="backdrop" data-action="sk-close-backdrop"><div class="dialog{" wide" if wide else ""} sk-dialog" '
            f'role="dialog" aria-modal="true" aria-labelledby="{dialog_id}-title" id="{dialog_id}">'
            f'<header class="dialog-head"><h2 id="{dialog_id}-title">{_esc(title)}</h2>'
            '<button type="button" class="btn btn-small close" data-action="sk-close" id="btn-close" '
            'aria-label="Close">\u00d7</button></header>'
            f'<div class="dialog-body">{body}</div></div></div>'
        )

    def _setup_html(self, closable: bool) -> str:
        s = self.setup
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
        dialog = self._dialog("New game: score real cards", body, "sk-setup")
        if not closable:  # nothing behind it yet: no close button
            dialog = dialog.replace(
                '<button type="button" class="btn btn-small close" data-action="sk-close" id="btn-close" '
                'aria-label="Close">\u00d7</button>', "")
        return dialog

    def _pad_html(self, k: Scorekeeper | None) -> str:
        assert self.pad is not None and k is not None
        side, kind = self.pad
        name = k.side_name(side)
        title = f"{name}\u2019s {'crib' if kind == 'crib' else 'hand'}"
        keys = "".join(
            _button(str(n), "sk-count", id_=f"sk-count-{n}", cls="btn sk-num", data={"points": n},
                    aria=f"{n} points") for n in range(MAX_SHOW + 1))
        typed = f'<p class="sk-typed" aria-live="polite">Typed: {_esc(self.typed)}</p>' if self.typed else ""
        body = (f'<p class="note">Tap the count (or type it and press Enter). '
                'No hand counts 19, 25, 26 or 27.</p>'
                f'<div class="sk-pad" role="group" aria-label="Count">{keys}</div>{typed}'
                + (f'<p class="sk-message sk-refused" role="alert">{_esc(self.message)}</p>' if self.refused else ""))
        return self._dialog(title, body, "sk-pad")

    def _log_html(self, k: Scorekeeper | None) -> str:
        assert k is not None
        rows = []
        for d in reversed(k.deals()):
            rows.append(f'<tr class="hand-row"><th colspan="4" scope="colgroup">Deal {d.number}: '
                        f"{_esc(k.names[d.dealer])} deals</th></tr>")
            if not d.entries:
                rows.append('<tr><td colspan="4">Nothing scored yet.</td></tr>')
            for index, e, totals in reversed(d.entries):
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
        return self._dialog("Entries by deal", body, "sk-log-dlg", wide=True)

    def _menu_html(self) -> str:
        wake = {"on": "The screen stays on while the scorekeeper is open.",
                "unsupported": "This browser cannot keep the screen on: it may dim as usual.",
                }.get(self.wake, "The screen is allowed to dim (the browser refused to keep it on).")
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
        return self._dialog("Scorekeeper", body, "sk-menu")

    # --- input ---------------------------------------------------------------------------------

    def click(self, action: str, data: dict[str, str] | None = None) -> None:
        data = data or {}
        handler = getattr(self, "_on_" + action.replace("-", "_"), None)
        if handler is None or data.get("disabled") == "true":
            return
        handler(data)

    def _enter(self, fn: Callable[[Scorekeeper], Any], said: Callable[[Scorekeeper], str]) -> bool:
        """Make an entry; say what it did (or why it was refused), save, redraw."""
        k = self.keeper
        if k is None:
            return False
        before = k.totals
        try:
            fn(k)
        except ScoreError as refused:
            self.message, self.refused = str(refused), True
            self.refresh()
            self.host.announce(str(refused))
            return False
        self.refused = False
        self.moved = [a != b for a, b in zip(k.totals, before)] + [False] * 3
        self.message = said(k)
        if k.winner is not None:
            self.message += f" {k.result_sentence()}"
            self.focus = "sk-new-after" if k.series_winner is not None else (
                "sk-next-game" if k.series.add(k.totals, k.first_dealer).next_first_dealer() is not None
                else "sk-next-game-0")
        self.save()
        self.refresh()
        self.host.announce(self.message)
        return True

    def _side(self, data: dict[str, str]) -> int | None:
        k = self.keeper
        try:
            side = int(data.get("side", ""))
        except ValueError:
            return None
        return side if k is not None and 0 <= side < k.sides else None

    @staticmethod
    def _said(side: int, kind: str, points: int) -> Callable[[Scorekeeper], str]:
        return lambda k: f"{k.side_name(side)}: {KIND_WORDS[kind]} {points}, now {k.totals[side]}."

    def _on_sk_peg(self, data: dict[str, str]) -> None:
        side = self._side(data)
        try:
            points = int(data.get("points", ""))
        except ValueError:
            return
        if side is not None:
            self._enter(lambda k: k.peg(side, points), self._said(side, "peg", points))

    def _on_sk_go(self, data: dict[str, str]) -> None:
        side = self._side(data)
        if side is not None:
            self._enter(lambda k: k.go(side), self._said(side, "go", 1))

    def _on_sk_heels(self, data: dict[str, str]) -> None:
        k = self.keeper
        if k is not None:
            self._enter(lambda k: k.heels(), self._said(k.crib_side, "heels", 2))

    def _on_sk_pad(self, data: dict[str, str]) -> None:
        side, kind = self._side(data), data.get("kind", "")
        if side is None or kind not in ("hand", "crib") or self.keeper is None or self.keeper.winner is not None:
            return
        self.pad = (side, kind)
        self.typed = ""
        self.refused = False
        self.message = ""
        self.dialog = "pad"
        self.focus = "sk-count-0"
        self.refresh()

    def _on_sk_count(self, data: dict[str, str]) -> None:
        try:
            points = int(data.get("points", ""))
        except ValueError:
            return
        self._count(points)

    def _count(self, points: int) -> None:
        if self.pad is None:
            return
        side, kind = self.pad
        self.typed = ""
        # Close the pad first: an accepted count is drawn on the table behind it.
        self.dialog, self.pad = None, None
        self.focus = "sk-next" if kind == "crib" else f"sk-hand-{side}"
        ok = self._enter((lambda k: k.crib(points)) if kind == "crib" else (lambda k: k.hand(side, points)),
                         self._said(side, kind, points))
        if not ok:
            self.dialog, self.pad = "pad", (side, kind)
            self.focus = f"sk-count-{points}" if 0 <= points <= MAX_SHOW else None
            self.refresh()

    def _on_sk_next(self, data: dict[str, str]) -> None:
        k = self.keeper
        if k is None:
            return
        self.focus = "sk-next"
        self._enter(lambda k: k.next_deal(),
                    lambda k: f"Deal {k.deal}: {k.names[k.dealer]} deals; the crib is {k.side_name(k.crib_side)}\u2019s.")

    def _on_sk_undo(self, data: dict[str, str]) -> None:
        k = self.keeper
        if k is None or self.dialog:
            return
        event = k.undo()
        if event is None:
            return
        self.refused = False
        self.message = "Undone: " + self._event_words(k, event) + "."
        self.save()
        self.focus = "sk-undo" if k.can_undo else None
        self.refresh()
        self.host.announce(self.message)

    def _on_sk_redo(self, data: dict[str, str]) -> None:
        k = self.keeper
        if k is None or self.dialog:
            return
        event = k.redo()
        if event is None:
            return
        self.refused = False
        self.message = "Redone: " + self._event_words(k, event) + "."
        self.save()
        self.focus = "sk-redo" if k.can_redo else None
        self.refresh()
        self.host.announce(self.message)

    def _event_words(self, k: Scorekeeper, event: Score | NextDeal) -> str:
        if isinstance(event, NextDeal):
            return "next deal"
        return f"{k.side_name(event.side)} {KIND_WORDS[event.kind]} {event.points}"

    def _on_sk_log(self, data: dict[str, str]) -> None:
        if self.keeper is not None:
            self._open("log")

    def _on_sk_menu(self, data: dict[str, str]) -> None:
        self._open("menu")

    def _open(self, dialog: str) -> None:
        self.dialog = dialog
        self.focus = "btn-close"
        self.refresh()

    def _on_sk_close(self, data: dict[str, str]) -> None:
        if self.keeper is None:
            return  # the setup is all there is
        back = {"pad": f"sk-hand-{self.pad[0]}" if self.pad and self.pad[1] == "hand" else "sk-crib",
                "log": "sk-log", "menu": "sk-menu-btn", "setup": "sk-menu-btn"}.get(self.dialog or "")
        self.dialog, self.pad, self.typed = None, None, ""
        if self.refused:
            self.refused, self.message = False, ""
        self.focus = back
        self.refresh()

    def _on_sk_close_backdrop(self, data: dict[str, str]) -> None:
        self._on_sk_close(data)

    def _on_sk_dismiss(self, data: dict[str, str]) -> None:
        self.notice = None
        self.refresh()

    def _on_sk_setup(self, data: dict[str, str]) -> None:
        if self.keeper is not None:
            self.setup.names = list(self.keeper.names) + [""] * (4 - len(self.keeper.names))
        self.dialog = "setup"
        self.focus = "sk-start"
        self.refresh()

    def _take_names(self, data: dict[str, str]) -> None:
        raw = data.get("inputs")
        if not raw:
            return
        try:
            values = json.loads(raw)
        except ValueError:
            return
        if isinstance(values, dict):
            for i in range(4):
                value = values.get(f"sk-name-{i}")
                if isinstance(value, str):
                    self.setup.names[i] = value.strip()[:24]

    def _on_sk_set(self, data: dict[str, str]) -> None:
        self._take_names(data)
        s, choice, which = self.setup, data.get("choice", ""), data.get("field", "")
        if which == "table" and choice in TABLES:
            s.table = choice
        elif which == "target" and choice in ("121", "61"):
            s.target = int(choice)
        elif which == "series" and choice in SERIES:
            s.series = choice
        elif which == "skunks":
            s.skunks = choice == "yes"
        elif which == "dealer" and choice.isdigit():
            s.dealer = int(choice)
        self.focus = f"sk-set-{which}-{choice if which != 'skunks' else ('no' if s.skunks else 'yes')}"
        self.refresh()

    def _on_sk_start(self, data: dict[str, str]) -> None:
        self._take_names(data)
        s = self.setup
        rules = s.rules()
        names = [s.names[i] or f"Player {i + 1}" for i in range(rules.players)]
        series = Series(rules, SeriesRules.best_of(SERIES[s.series][1], skunks=s.skunks))
        self.keeper = Scorekeeper(rules, names, s.dealer if s.dealer < rules.players else 0, series)
        self.dialog, self.pad = None, None
        self.refused = False
        self.message = f"New game to {rules.target}. {self.keeper.names[self.keeper.dealer]} deals first."
        self.save()
        self.focus = "sk-peg-0-1"
        self.refresh()
        self.host.announce(self.message)

    def _on_sk_next_game(self, data: dict[str, str]) -> None:
        k = self.keeper
        if k is None or k.winner is None:
            return
        choice = data.get("choice", "")
        try:
            # The series names the next first dealer (the loser), or the players cut and tap who.
            k.next_game(int(choice) if choice.isdigit() else None)
        except ScoreError as refused:
            self.message, self.refused = str(refused), True
            self.refresh()
            return
        self.refused = False
        self.message = f"Game {len(k.series.games) + 1}: {k.names[k.dealer]} deals first."
        self.save()
        self.focus = "sk-peg-0-1"
        self.refresh()
        self.host.announce(self.message)

    # --- keyboard ------------------------------------------------------------------------------

    def key(self, key: str, ctrl: bool = False, shift: bool = False, alt: bool = False,
            target_action: str | None = None) -> bool:
        if alt:
            return False
        lower = key.lower()
        if ctrl:
            if lower == "z" and not shift:
                self._on_sk_undo({})
                return True
            if lower == "y" or (lower == "z" and shift):
                self._on_sk_redo({})
                return True
            return False
        if key == "Escape":
            if self.dialog and self.keeper is not None:
                self._on_sk_close({})
                return True
            return False
        if self.dialog == "pad":
            if key.isdigit() and len(key) == 1:
                self.typed = (self.typed + key)[-2:]
                self.refresh()
                return True
            if key == "Backspace" and self.typed:
                self.typed = self.typed[:-1]
                self.refresh()
                return True
            if key == "Enter" and self.typed:
                self._count(int(self.typed))
                return True
            return False
        if self.dialog:
            return False
        if lower == "n" and self.keeper is not None:
            self._on_sk_next({})
            return True
        if lower == "l":
            self._on_sk_log({})
            return True
        if lower == "m":
            self._on_sk_menu({})
            return True
        return False

    def set_wake(self, state: str) -> None:
        if state != self.wake:
            self.wake = state
            self.refresh()
