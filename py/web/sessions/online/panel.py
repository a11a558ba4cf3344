"""The online panel of the table: the room link (copy button, QR code), the connection, whose turn,
names, the friend's offer, problems and a failed audit's evidence. Everything is escaped text."""

from __future__ import annotations

from typing import Any

from web.kit.html import esc
from web.kit.slot import PanelSlot

__all__ = ["online_html", "panel_slot"]

CONTROLS = ' aria-controls="online-more"'


def _invite(panel: Any, full: bool) -> str:
    """The room link with a copy button; the QR code too until the friend has joined (the page draws
    it: ``panel.qr`` is its SVG markup, empty while the page's QR library loads)."""
    qr = f'<div class="qr-wrap">{getattr(panel, "qr", "")}</div>' if full else ""
    return (
        '<div class="online-invite">'
        f'<label for="room-link">{"Send this link to your friend:" if full else "Room link:"}</label>'
        f'<input id="room-link" class="room-link" type="text" readonly value="{esc(panel.link)}">'
        f'<button type="button" class="btn btn-small" id="btn-copy-link" data-action="copy-link" '
        f'data-copy="{esc(panel.link)}">Copy link</button>{qr}</div>'
    )


def _names(panel: Any) -> str:
    return (
        '<div class="online-names">'
        f'<span>Playing with <span id="peer-name">{esc(panel.peer_name)}</span>.</span> '
        '<label for="online-name">Your name</label>'
        f'<input id="online-name" type="text" maxlength="24" value="{esc(panel.my_name)}" autocomplete="nickname">'
        '<button type="button" class="btn btn-small" id="btn-online-name" data-action="online-name" '
        'data-input="online-name">Save name</button></div>')


def _ask_name(panel: Any) -> str:
    """Asked once per browser: the name the other player sees (kept here for every later room)."""
    return ('<div class="online-ask-name" id="online-ask-name" role="group" aria-labelledby="online-ask-label">'
            '<label id="online-ask-label" for="online-name">Your name, for the other player to see:</label>'
            '<input id="online-name" type="text" maxlength="24" value="" autocomplete="nickname">'
            '<button type="button" class="btn btn-primary btn-small" id="btn-online-name" data-action="online-name" '
            'data-input="online-name">Save name</button>'
            '<button type="button" class="btn btn-small" id="btn-online-name-later" data-action="online-name-later">'
            'Not now</button></div>')


def _failure(panel: Any) -> str:
    """Why the match stopped (our words), our evidence, and apart from both, in quotes, what the
    other browser said (its claim: nothing here checked it)."""
    parts = [f'<div class="online-failure" role="alert" id="online-failure"><p>The match has stopped: '
             f'{esc(panel.failure)}</p>']
    if panel.evidence:
        parts.append(f'<pre class="evidence" aria-label="What this browser found">{esc(panel.evidence)}</pre>')
    if panel.peer_words:
        parts.append('<figure class="peer-words"><figcaption>The other browser\u2019s own words (not checked '
                     f'here):</figcaption><blockquote id="peer-words"><q>{esc(panel.peer_words)}</q></blockquote>'
                     '</figure>')
    parts.append("</div>")
    return "".join(parts)


def _invitation(panel: Any) -> str:
    """The friend asked to a room with house rules: the rules in words, *Join* and *Not now*; after
    *Not now*, a game against the computer. Nothing else (no link, no name: nothing is sent yet)."""
    if getattr(panel, "declined", False):
        return ('<div class="online-invitation" id="online-invitation"><button type="button" class="btn btn-primary" '
                'id="btn-online-computer" data-action="resume" data-mode="computer">Play against the computer'
                "</button></div>")
    if not getattr(panel, "invited", False):
        return ""
    return ('<div class="online-invitation" id="online-invitation" role="alert">'
            f'<p class="online-rules" id="online-rules"><strong>{esc(panel.rules)}</strong></p>'
            '<div class="row"><button type="button" class="btn btn-primary" id="btn-online-join" '
            'data-action="online-join">Join</button>'
            '<button type="button" class="btn" id="btn-online-not-now" data-action="online-not-now">Not now</button>'
            "</div></div>")


def online_html(panel: Any) -> str:
    """The panel for an :class:`~web.sessions.online.peer.OnlinePanel` (duck-typed to keep imports one way).

    Whose turn it is, and whom we wait for, is the prompt's (one message per fact); a browser
    without a seat (``blocked``) sees the status sentence alone."""
    folded = panel.folded and not panel.expanded
    kind = " online-blocked" if panel.blocked else " online-folded" if folded else ""
    head = (f'<section class="online{kind}" id="online" aria-label="Online" data-link="{esc(panel.state)}" '
            f'data-joined="{"true" if panel.joined else "false"}">')
    dot = "invited" if getattr(panel, "invited", False) else panel.state  # not joined: no connection to show
    if dot == "offline" and panel.seat == 0 and not panel.joined and not panel.failure:
        dot = "idle"  # the host waits for the friend to open the link: normal, not an error
    status = (f'<p class="online-status" id="online-status" role="status"><span class="dot dot-{esc(dot)}" '
              f'aria-hidden="true"></span>{esc(panel.status)}</p>')
    if panel.blocked:
        return head + status + _invitation(panel) + "</section>"
    fold = ""
    if panel.folded:
        fold = ('<button type="button" class="btn btn-small online-fold" id="btn-online-fold" '
                f'data-action="online-fold" aria-expanded="{"false" if folded else "true"}"'
                f'{"" if folded else CONTROLS}>Link and name</button>')
    parts = [head, f'<div class="online-line">{status}{fold}</div>']
    if getattr(panel, "rules", ""):
        parts.append(f'<p class="online-rules" id="online-rules">{esc(panel.rules)}</p>')
    if panel.failure:
        parts.append(_failure(panel))
    if panel.question:
        parts.append(
            f'<div class="online-question" role="alert"><p>{esc(panel.question)}</p>'
            '<button type="button" class="btn btn-primary btn-small" id="btn-online-accept" '
            'data-action="online-accept">Accept</button>'
            '<button type="button" class="btn btn-small" id="btn-online-decline" '
            'data-action="online-decline">Decline</button></div>')
    elif panel.offered:
        parts.append(f'<p class="online-offered">Waiting for {esc(panel.peer_name)} to answer your offer of a '
                     "new match.</p>")
    if panel.problems:
        items = "".join(f"<li>{esc(p)}</li>" for p in panel.problems)
        parts.append(f'<div class="online-problems" role="alert"><ul id="online-problems">{items}</ul>'
                     '<button type="button" class="btn btn-small" data-action="online-dismiss" '
                     'id="btn-online-dismiss">OK</button></div>')
    asking = getattr(panel, "ask_name", False)
    if asking:
        parts.append(_ask_name(panel))
    if not folded:
        parts.append(
            f'<div class="online-more" id="online-more">{_invite(panel, full=panel.seat == 0 and not panel.joined)}'
            f"{'' if asking else _names(panel)}</div>"
        )
    parts.append("</section>")
    return "".join(parts)


def panel_slot(panel: Any) -> PanelSlot:
    """The table's slot for an :class:`~web.sessions.online.peer.OnlinePanel`: its markup and words."""
    return PanelSlot(online_html(panel), waiting=panel.waiting, result=panel.result, blocked=panel.blocked)
