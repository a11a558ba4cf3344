"""What the page gives online play (:class:`OnlineEnv`, set once by :func:`configure`), the channel it
dials through (:class:`Channel`, :class:`ChannelEvents`), and a room's names: its storage keys
(:func:`room_key`), its signalling ids (:func:`peer_ids`), its link (:func:`room_link`) and the words
of its rules in that link (:func:`rules_query`). No session here: :mod:`.peer` and :mod:`.room` read it."""

from __future__ import annotations

import dataclasses
import json
import secrets
import time
import unicodedata
from dataclasses import dataclass
from typing import Any, Callable, Protocol

from cribbage.online.game import clean_peer_text, online_rules
from cribbage.online.group import Group
from cribbage.online.link import Binding, is_room_id, is_room_secret, rendezvous
from cribbage.rules import CLASSIC, Rules, RulesError

from web.sessions.base import ONLINE_SAVE_KEY
from web.sessions.newgame import RULE_WORDS
from web.sessions.online.mesh_env import MeshFactory

__all__ = ["Channel", "ChannelEvents", "ChannelFactory", "CHANNEL_ERRORS", "OnlineEnv", "ENV", "configure",
           "CURRENT_KEY", "NAME_KEY", "room_key", "peer_ids", "room_link", "clean_name", "refusal_text",
           "rules_query", "parse_rules_query"]

CURRENT_KEY = ONLINE_SAVE_KEY
"""The room this browser last played in (also the mode's save key: the menu offers to resume it)."""
NAME_KEY = "cribbage.online.name"
"""This browser's player name."""
MAX_NAME = 24


def room_key(room: str) -> str:
    """Where a room's link and game are saved."""
    return f"cribbage.online.room.{room}"


def peer_ids(room: str, seat: int, tag: str, secret: str | None = None) -> tuple[str, str]:
    """(this browser's signalling id, the host's) for a room: the host is reachable at a fixed id,
    derived from the room secret when there is one (:func:`~cribbage.online.link.rendezvous`)."""
    name = rendezvous(room, secret)
    host = f"cribbage-{name}-0"
    return (host if seat == 0 else f"cribbage-{name}-1-{tag}"), host


def refusal_text(detail: str) -> str | None:
    """The sentence for what a room link asks that this page does not trust (net.js ``untrusted()``:
    JSON ``{"what": "signal"|"relay", "value": ...}``, or "" for nothing), or None."""
    try:
        data = json.loads(detail) if detail else None
    except ValueError:
        data = None
    if not isinstance(data, dict):
        return None
    value = "".join(ch for ch in str(data.get("value", "")) if unicodedata.category(ch)[0] != "C").strip()
    named = "\u201c" + (value if len(value) <= 80 else value[:80] + "\u2026") + "\u201d"
    if data.get("what") == "relay":
        return (f"This link asks to route the game through the relay {named}, which a link may not choose, "
                "so nothing was contacted: ask your friend for a room link made on this page.")
    return (f"This link asks to use the signalling server {named}, which this page does not trust, so it "
            "was not contacted: ask your friend for a room link made on this page.")


def clean_name(text: object) -> str | None:
    """A player name as plain text, or None: cleaned as all the other browser's text is
    (:func:`~cribbage.online.game.clean_peer_text`: no lone surrogates, no control or format
    characters, whitespace collapsed), at most 24 characters."""
    return clean_peer_text(text, MAX_NAME) or None


class Channel(Protocol):
    """A string pipe to the other browser (PeerJS in the page)."""

    def connect(self) -> None:
        """The friend: (re)dial the room's host. The host: nothing (it is called)."""
        ...

    def send(self, text: str) -> bool: ...
    def drop(self) -> None:
        """Close the current channel; stay reachable."""
        ...

    def close(self) -> None:
        """Close everything; no event follows."""
        ...


class ChannelEvents(Protocol):
    """What a channel tells its session (strings only)."""

    def on_open(self, binding: Binding | None = None) -> None:
        """The channel opened; ``binding``: its DTLS fingerprints (None: unreadable, nothing is proven)."""
        ...

    def on_message(self, text: str) -> None: ...
    def on_close(self) -> None: ...
    def on_full(self) -> None: ...
    def on_error(self, code: str) -> None: ...
    def on_reach(self) -> None:
        """The other browser is registered and a channel to it is being negotiated (not open yet)."""
        ...


CHANNEL_ERRORS = {
    "unavailable-id": "This seat is still held by another tab, or by a page that was closed abruptly; trying again.",
    "no-peerjs": "Online play could not load its connection library (is this device offline?); reload the page "
                 "to try again.",
    "bad-signal": "The signalling server named in this link cannot be used.",
    **{code: ("The signalling server, through which the two browsers find each other, cannot be reached: check "
              "this device’s internet connection (this page keeps trying).") for code in (
        "network", "signal-lost", "socket-error", "socket-closed", "server-error", "open-timeout")},
}
"""What the page says of a channel error (never its code); a code not here says nothing (the next
dial tries again)."""

ChannelFactory = Callable[[str, int, str, str, ChannelEvents], Channel]
"""(room, seat, my id, host id, events) -> a channel."""


@dataclass
class OnlineEnv:
    """What the page gives online play (``browser.py`` fills it; the tests give in-memory channels)."""

    channel: ChannelFactory | None = None
    room: str | None = None
    """The room id of ``?room=`` (None: none in the URL)."""
    secret: str | None = None
    """The room secret of the link's ``#k=`` (None: none, or malformed: the link is incomplete)."""
    bad_room: str | None = None
    """A ``?room=`` that is not a room id (the page says the link is broken)."""
    page_url: str = "./"
    """The page's address without its query (the room link starts with it)."""
    link_query: str = ""
    """Extra query for the room link, e.g. ``&signal=...`` (same signalling server)."""
    refusal: str | None = None
    """Why online play contacts nothing on this page (its link names an untrusted signalling server
    or relay, see :func:`refusal_text`), or None."""
    wall: Callable[[], float] = time.time
    randbelow: Callable[[int], int] = secrets.randbelow
    """The deal's random source (this browser's key share and shuffles): the system's, always, in
    the page; a test gives a seeded one, so a match it plays is the same on every run."""
    relay: bool = False
    """The page names a TURN relay (a ``turn:`` server in its ``cribbage-ice-servers`` meta): when no
    connection opens, the page says the relay failed too, not that one is missing."""
    group: Group | None = None
    """The group of the deal: None is NIST P-256 (tests on loopback may use a small one)."""
    rules: Rules = CLASSIC
    """The table of ``?rules=``: a new room's (``?mode=online&rules=to61,muggins``), or the room's
    own in its link (the friend plays by them; the host's browser checks they are its own)."""
    bad_rules: str | None = None
    """Why the link's ``?rules=`` cannot be played online (the page says so), or None."""
    hold: Callable[[bool], None] | None = None
    """Called with True while this page's online work is under way (the channel opening and its
    handshake, the key set-up, a move to check or prove, the shuffles ahead) and False once it is
    done: the page then holds its own background jobs (the start-up snapshot's worker and the service
    worker's install, which took a core from the deal's slices on a 2-core machine), see
    ``static/loader.mjs`` and ``static/sw-register.js``."""
    qr: Callable[[str, Callable[[], None]], str] | None = None
    """The room link's QR code as SVG markup, drawn by the page (``web.page.net.RoomQr``: a vendored
    library encodes it): ``qr(link, ready)`` gives ``""`` while the library loads and calls
    ``ready()`` once it is there. None: no QR code."""
    mesh: MeshFactory | None = None
    """The page's channels for a table of three or four (:mod:`.mesh_env`: one signalling id, one data
    channel per other browser); None: this page cannot play at three or four (the party says so)."""
    players: int = 2
    """The seats of the room of ``?players=`` (3 or 4: a table of three or four, :mod:`.party`; 2 or
    none: the two-player room, as every room link made before tables of three and four)."""
    trace: Callable[[str], None] | None = None
    """Called with a short label at each step of the session (a payload in or out, a slice of work,
    a save, a redraw), for ``py/tools/bench_online.py``: kinds and durations only, never a card or
    a value (the page turns it on with ``?trace=1``)."""


ENV = OnlineEnv()

_RULE_WORDS: dict[str, dict[str, Any]] = {"to61": RULE_WORDS["to61"], **RULE_WORDS}
"""The words of ``?rules=``, comma-separated: the New game dialog's list (:data:`web.sessions.newgame.RULE_WORDS`),
``to61`` first as room links have always written it (none: the classic game)."""


def rules_query(rules: Rules) -> str:
    """The ``rules=`` value of a room link (``""`` for the classic table)."""
    data = rules.to_json()
    return ",".join(word for word, choice in _RULE_WORDS.items() if all(data.get(k) == v for k, v in choice.items()))


def parse_rules_query(text: str) -> Rules:
    """The table a ``?rules=`` names; :class:`RulesError` (in words) for a word online play does not know."""
    data: dict[str, Any] = {}
    for word in (w.strip() for w in text.split(",")):
        if not word or word == "classic":
            continue
        if word not in _RULE_WORDS:
            raise RulesError(f"unknown rule {clean_peer_text(word, 20)!r} (online: {', '.join(_RULE_WORDS)})")
        data.update(_RULE_WORDS[word])
    return online_rules(data)


def configure(**values: Any) -> OnlineEnv:
    """Set the environment of online play (the page, or a test)."""
    global ENV
    room = values.get("room")
    if room is not None and not is_room_id(room):
        values = {**values, "room": None, "bad_room": str(room)[:80]}
    if not is_room_secret(values.get("secret")):
        values = {**values, "secret": None}
    players = str(values.get("players"))
    values = {**values, "players": int(players) if players in ("3", "4") else 2}
    text = values.pop("rules_text", None)
    if text:
        try:
            values = {**values, "rules": parse_rules_query(str(text)[:200])}
        except RulesError as exc:
            values = {**values, "bad_rules": f"This link names rules online play does not have: {exc}."}
    ENV = dataclasses.replace(OnlineEnv(), **values)
    return ENV


def room_link(env: OnlineEnv, room: str, secret: str | None = None, rules: Rules = CLASSIC) -> str:
    """The address a friend opens to join ``room``; the secret goes in the fragment (``#k=``), which
    the browser never sends to any server. The room's rules ride in the query (``&rules=``): the friend
    sees them before playing, and both browsers check them in the first payload of every match."""
    words = rules_query(rules)
    table = f"&players={rules.players}" if rules.players > 2 else ""  # (a table of three or four: .party)
    link = f"{env.page_url}?room={room}{table}{'&rules=' + words if words else ''}{env.link_query}"
    return f"{link}#k={secret}" if secret else link
