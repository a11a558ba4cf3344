"""The room's panel at a table of three or four: before the game, the lobby alone (the room link to
share with its QR code, the seats in the order people came, each named, the open ones); during it,
who is away, the answers the table asks for (next hand, a new match), the host's *End the match*, and
why the table stopped. Plain escaped text, no card: what a seat may know of the cards is the table's."""

from __future__ import annotations

from dataclasses import dataclass

from web.kit.html import esc
from web.kit.slot import PanelSlot

__all__ = ["PartyPanel", "party_html", "panel_slot"]


@dataclass(frozen=True)
class PartyPanel:
    link: str
    status: str
    rules: str
    """The table in words: ``"three players, to 61, muggins"``."""
    seats: tuple[tuple[str, bool, bool], ...]
    """(name, taken, away) of each seat, in seat order (the order people came)."""
    me: int | None
    lobby: bool
    """The game has not started: the lobby alone, no table."""
    host: bool
    stopped: str = ""
    problems: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    ask_name: bool = False
    asked: str = ""
    """What the table asks this seat now: ``next``, ``new`` or ''."""
    want: str = ""
    """This seat's answer, given ahead of the table's question."""
    waiting: str = ""
    result: str = ""
    end: bool = False
    """*End the match* is offered (the host, once the game is on)."""
    qr: str = ""


def _seats(panel: PartyPanel) -> str:
    items = []
    for i, (name, taken, away) in enumerate(panel.seats):
        state = "open" if not taken else "away" if away else "here"
        words = (esc(name) if taken else "Open seat") + (" (you)" if i == panel.me else "") + \
            (" (host)" if i == 0 and taken and i != panel.me else "") + (" \u2014 away" if away and taken else "")
        items.append(f'<li class="party-seat party-{state}" data-seat="{i}" data-state="{state}">{words}</li>')
    return f'<ol class="party-seats" id="party-seats" aria-label="Seats">{"".join(items)}</ol>'


def _button(ident: str, action: str, label: str, primary: bool = False) -> str:
    return (f'<button type="button" class="btn btn-small{" btn-primary" if primary else ""}" id="{ident}" '
            f'data-action="{action}">{esc(label)}</button>')


def _ask_name() -> str:
    return ('<div class="online-ask-name" id="online-ask-name" role="group" aria-labelledby="online-ask-label">'
            '<label id="online-ask-label" for="online-name">Your name, for the other players to see:</label>'
            '<input id="online-name" type="text" maxlength="24" value="" autocomplete="nickname">'
            '<button type="button" class="btn btn-primary btn-small" id="btn-online-name" data-action="online-name" '
            'data-input="online-name">Take a seat</button>'
            '<button type="button" class="btn btn-small" id="btn-online-name-later" data-action="online-name-later">'
            'Not now</button></div>')


def _answers(panel: PartyPanel) -> str:
    if panel.stopped or panel.lobby:
        return ""
    if panel.asked == "new":
        return ('<div class="party-agree" id="party-agree" role="group"><p>A new match? It starts when every '
                f'seat agrees.</p>{_button("btn-party-new", "party-new", "New match", True)}'
                f'{_button("btn-party-leave", "party-leave", "Leave")}</div>')
    if panel.asked == "next" and not panel.want:
        return ('<div class="party-agree" id="party-agree" role="group">'
                f'{_button("btn-party-next", "party-next", "Next hand", True)}'
                f'{_button("btn-party-new", "party-new", "Ask for a new match")}</div>')
    return ""


def party_html(panel: PartyPanel) -> str:
    kind = " online-blocked" if panel.lobby else ""
    dot = "offline" if panel.stopped else "live" if panel.status == "Everyone is here." else "waiting"
    parts = [f'<section class="online online-party{kind}" id="online" aria-label="Online table" '
             f'data-link="{dot}" data-lobby="{"true" if panel.lobby else "false"}">',
             f'<p class="online-status" id="online-status" role="status"><span class="dot dot-{dot}" '
             f'aria-hidden="true"></span>{esc(panel.status)}</p>',
             f'<p class="online-rules" id="online-rules">This table: {esc(panel.rules)}.</p>']
    if panel.stopped:
        parts.append(f'<div class="online-failure" role="alert" id="online-failure"><p>The match has stopped: '
                     f'{esc(panel.stopped)}</p></div>')
    if panel.result:
        parts.append(f'<p class="party-result" id="party-result">{esc(panel.result)}</p>')
    if panel.ask_name:
        parts.append(_ask_name())
    parts.append(_seats(panel))
    parts.append(_answers(panel))
    if panel.end:
        parts.append('<p class="party-end">' + _button("btn-party-end", "party-end", "End the match") +
                     ' <span class="note">(every seat stops; the result is not verified)</span></p>')
    messages = [m for m in (*panel.problems, *panel.notes) if m != panel.status]
    if messages:
        items = "".join(f"<li>{esc(m)}</li>" for m in messages)
        parts.append(f'<div class="online-problems" role="alert"><ul id="online-problems">{items}</ul>'
                     f'{_button("btn-online-dismiss", "online-dismiss", "OK")}</div>')
    if panel.lobby and not panel.stopped:
        qr = f'<div class="qr-wrap">{panel.qr}</div>' if panel.qr else ""
        parts.append('<div class="online-invite">'
                     '<label for="room-link">Send this link to the other players:</label>'
                     f'<input id="room-link" class="room-link" type="text" readonly value="{esc(panel.link)}">'
                     '<button type="button" class="btn btn-small" id="btn-copy-link" data-action="copy-link" '
                     f'data-copy="{esc(panel.link)}">Copy link</button>{qr}</div>')
    parts.append("</section>")
    return "".join(parts)


def panel_slot(panel: PartyPanel) -> PanelSlot:
    return PanelSlot(party_html(panel), waiting=panel.waiting, result=panel.result, blocked=panel.lobby)
