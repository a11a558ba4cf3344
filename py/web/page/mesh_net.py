"""A table of three or four online: the page's channels (:class:`~web.sessions.online.mesh_env.MeshChannels`)
over ``window.cribbageNet`` in its mesh mode (static/net.js: one registered signalling id, one data channel
per other browser, strings only, both ways).

    factory = mesh_factory(host)              # None: no net.js, or the link names an untrusted server
    channels = factory(room, secret, my_id, events)   # registers my_id; events: a MeshEvents (the session)
    channels.dial(peer); channels.send(peer, text); channels.drop(peer); channels.close()

What net.js says (``onEvent(kind, peer, detail)``, three strings) becomes the session's calls:
"open" → ``on_registered()``; "connect" → ``on_open(peer, binding)`` (the binding read from the
detail's fingerprints by :func:`cribbage.online.link.channel_binding`, None when unreadable);
"message" → ``on_message(peer, text)``; "close" → ``on_close(peer, reason)`` (closed, dropped,
replaced, connect-timeout); "reach" → ``on_reach(peer)``; "error" → ``on_error(peer, code)``. Every
event is handled in a timed handler (:meth:`BrowserHost.timed`) and a failure in the session's
handler is caught (:func:`web.kit.caught.caught`) so no Python traceback reaches the page and the
channels go on. As at two players (:class:`web.page.net.PeerJSChannel`), a registration that fails
before it ever succeeded (the id still held by a killed page's socket, the server not answering) is
tried again :data:`~web.page.net.REOPEN_MS` later; calls asked for before the registration are made
once it is done.

No event reaches the session inside one of its own calls: net.js tells some at once, within the call
that caused them ("close" "dropped" inside ``drop``, "close" "replaced" when ``dial`` replaces a dead
channel, "error" "not-open" inside ``dial``); those wait until the call has returned and are handled,
in order, in a task of their own (:meth:`BrowserHost.soon`), so a session never sees itself re-entered.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Callable

from pyscript import document, window  # type: ignore[import-not-found]  # the page's JS objects: Any
from pyscript.ffi import create_proxy  # type: ignore[import-not-found]

from web.kit.caught import caught
from web.page.host import BrowserHost, _nn, _text
from web.page.net import REOPEN, REOPEN_MS, _binding

if TYPE_CHECKING:
    from web.sessions.online.mesh_env import MeshChannels, MeshEvents

__all__ = ["PeerJSMesh", "mesh_factory", "CLOSE_REASONS"]


CLOSE_REASONS = ("closed", "dropped", "replaced", "connect-timeout")
"""The reasons net.js's mesh mode gives with "close" (any other is passed on as "closed")."""


class PeerJSMesh:
    """:class:`~web.sessions.online.mesh_env.MeshChannels` over ``window.cribbageNet`` (mesh mode)."""

    def __init__(self, host: BrowserHost, my_id: str, events: MeshEvents, *, connect_timeout_ms: int = 10_000,
                 signal: str = "", nostr: tuple[str, str] | None = None) -> None:
        self.host = host
        self.my_id = my_id
        self.events = events
        self.options: dict[str, Any] = {"mesh": True, "connectTimeoutMs": connect_timeout_ms}
        if signal:
            self.options["signal"] = signal
        if nostr is not None:  # (topic, key): every seat of the table in one Trystero room on the relays
            self.options["nostr"] = {"topic": nostr[0], "key": nostr[1]}
        self.registered = False
        """The id was registered at least once since this object opened it."""
        self.closed = False
        self.wanted: list[str] = []
        """Peers asked for before the registration: called, in order, once it is done."""
        self.sent_chars = int(_text(document.body.getAttribute("data-net-sent")) or 0)
        """Characters sent over the data channels by this page (ASCII: bytes), as at two players."""
        self._reopen: Any = None
        self._calling = 0
        """Inside a call into net.js (events told meanwhile wait in :attr:`_held`)."""
        self._held: list[tuple[str, str, str]] = []
        self._flush_due = False
        self._proxy = create_proxy(self._on_event)
        self.net = window.cribbageNet
        self._register()

    def _register(self) -> None:
        self._reopen = None
        if not self.closed:
            self._net("open", self.my_id, self._proxy, json.dumps(self.options))

    def _net(self, name: str, *args: Any) -> Any:
        """``window.cribbageNet[name](*args)``, holding the events it tells meanwhile (see above)."""
        self._calling += 1
        try:
            return getattr(self.net, name)(*args)
        finally:
            self._calling -= 1
            if not self._calling and self._held and not self._flush_due:
                self._flush_due = True
                self.host.soon(self._flush)

    def _flush(self) -> None:
        self._flush_due = False
        held, self._held = self._held, []
        for k, who, text in held:
            self._handle(k, who, text)

    # ---- MeshChannels ---------------------------------------------------------------------------

    def dial(self, peer: str) -> None:
        if self.closed:
            return
        if not self.registered:
            if peer not in self.wanted:
                self.wanted.append(peer)
            return
        self._net("connect", peer)  # net.js leaves a channel open or opening to it alone

    def send(self, peer: str, text: str) -> bool:
        if self.closed:
            return False
        sent = bool(self._net("send", text, peer))
        if sent:
            self.sent_chars += len(text)
            document.body.setAttribute("data-net-sent", str(self.sent_chars))  # read by the benchmarks
        return sent

    def drop(self, peer: str) -> None:
        if not self.closed:
            self._net("drop", peer)

    def close(self) -> None:
        self.closed = True
        self.wanted = []
        self._held = []
        if self._reopen is not None:
            self.host.cancel(self._reopen)
            self._reopen = None
        self.net.close()

    # ---- net.js's events ------------------------------------------------------------------------

    def _on_event(self, kind: Any, peer: Any, detail: Any) -> None:
        if self.closed:
            return
        k = str(_nn(kind) or "")
        who = str(_nn(peer) or "")
        text = str(_nn(detail) or "")
        if self._calling or self._held:  # told inside one of our calls (or behind one that was): later
            self._held.append((k, who, text))
            return
        self._handle(k, who, text)

    def _handle(self, k: str, who: str, text: str) -> None:
        if self.closed:
            return

        def handle() -> None:
            try:
                self._dispatch(k, who, text)
            except Exception as exc:  # noqa: BLE001 - one event's failure must not stop the channels
                caught(f"page.mesh_net: {k} event", exc)

        self.host.timed(handle, "mesh " + k)

    def _dispatch(self, k: str, who: str, text: str) -> None:
        events = self.events
        if k == "open":
            self.registered = True
            wanted, self.wanted = self.wanted, []
            events.on_registered()
            for peer in wanted:
                if not self.closed:
                    self._net("connect", peer)
        elif k == "connect":
            events.on_open(who, _binding(text, who))
        elif k == "message":
            events.on_message(who, text)
        elif k == "close":
            events.on_close(who, text if text in CLOSE_REASONS else "closed")
        elif k == "reach":
            events.on_reach(who)
        elif k == "error":
            if not self.registered and not who and text in REOPEN and self._reopen is None:
                # e.g. our id still held by the socket of a killed page: the server frees it soon
                self._reopen = self.host.later(REOPEN_MS, self._register)
            events.on_error(who, text)
        # anything else ("full", "knock": not in the mesh mode) is not for a table of three or four


def mesh_factory(host: BrowserHost, *, connect_timeout_ms: int = 10_000,
                 relays: bool = True) -> Callable[[str, str, str, MeshEvents], MeshChannels] | None:
    """The page's :data:`~web.sessions.online.mesh_env.MeshFactory`, or None when the page cannot go
    online this way: no ``window.cribbageNet``, or the link names a signalling server or relay the
    page does not trust (net.js's ``untrusted()``; the refusal's sentence is the two-player panel's,
    :func:`web.sessions.online.peer.refusal_text`). The factory's room and secret name the table's
    second signalling path (:func:`nostr_of`), the same for every seat; ``relays`` False: PeerJS only."""
    try:
        net = _nn(getattr(window, "cribbageNet", None))
        if net is None or str(_nn(net.untrusted()) or ""):
            return None
    except Exception as exc:  # noqa: BLE001 - no online table, said by the caller; the page goes on
        caught("page.mesh_net.mesh_factory", exc)
        return None

    def factory(room: str, secret: str, my_id: str, events: MeshEvents) -> MeshChannels:
        nostr = nostr_of(room, secret) if relays else None
        return PeerJSMesh(host, my_id, events, connect_timeout_ms=connect_timeout_ms, nostr=nostr)

    return factory


def nostr_of(room: str, secret: str) -> tuple[str, str] | None:
    """The Nostr path of a table: its topic, the host's signalling id (derived from the secret, so
    unlinkable to the room id: :func:`cribbage.online.table_roster.host_id`), and its password
    (:func:`cribbage.online.link.nostr_key`); None for a room without a valid secret (PeerJS only)."""
    from cribbage.online.link import nostr_key
    from cribbage.online.table_roster import host_id

    key = nostr_key(room, secret)
    return None if key is None else (host_id(room, secret), key)
