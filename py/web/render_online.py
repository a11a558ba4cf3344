"""The online panel of the table: the room link (copy button, QR code), the connection, whose turn,
names, the friend's offer, problems and a failed audit's evidence. Everything is escaped text."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .qr import QrCodeError, qr_svg
from .render import esc

__all__ = ["online_html", "qr_of"]


@lru_cache(maxsize=4)
def qr_of(link: str) -> str:
    """The QR code of a room link as SVG ('' if it cannot be encoded)."""
    try:
        return qr_svg(link, label="QR code of the room link")
    except (QrCodeError, ValueError):
        return ""


def _invite(panel: Any, full: bool) -> str:
    """The room link with a copy button; the QR code too until the friend has joined."""
    qr = f'<div class="qr-wrap">{qr_of(panel.link)}</div>' if full else ""
    return (
        '<div class="online-invite">'
        f'<label for="room-link">{"Send this link to your friend:" if full else "Room link:"}</label>'
        f'<input id="room-link" class="room-link" type="text" readonly value="{esc(panel.link)}">'
        f'<button type="button" class="btn btn-small" id="btn-copy-link" data-action="copy-link" '
        f'data-copy="{esc(panel.link)}">Copy link</button>{qr}</div>'
    )


def online_html(panel: Any) -> str:
    """The panel for an :class:`~web.online.OnlinePanel` (duck-typed to keep imports one way)."""
    parts = [
        f'<section class="online" id="online" aria-label="Online" data-link="{esc(panel.state)}" '
        f'data-joined="{"true" if panel.joined else "false"}">',
        f'<p class="online-status" id="online-status" role="status"><span class="dot dot-{esc(panel.state)}" '
        f'aria-hidden="true"></span>{esc(panel.status)} <span id="online-turn">{esc(panel.turn)}</span></p>',
    ]
    if panel.failure:
        parts.append(f'<div class="online-failure" role="alert" id="online-failure"><p>The match has stopped: '
                     f'{esc(panel.failure)}</p><pre class="evidence">{esc(panel.evidence)}</pre></div>')
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
    if panel.state not in ("refused", "expired"):
        parts.append(_invite(panel, full=panel.seat == 0 and not panel.joined))
    parts.append(
        '<div class="online-names">'
        f'<span>Playing with <span id="peer-name">{esc(panel.peer_name)}</span>.</span> '
        '<label for="online-name">Your name</label>'
        f'<input id="online-name" type="text" maxlength="24" value="{esc(panel.my_name)}" autocomplete="nickname">'
        '<button type="button" class="btn btn-small" id="btn-online-name" data-action="online-name" '
        'data-input="online-name">Save name</button></div>')
    parts.append("</section>")
    return "".join(parts)
