"""Online play's glue to the page: the data channel over ``window.cribbageNet`` (static/net.js, the
vendored PeerJS client: strings only, both ways), the room link's QR code (net.js's ``qr()``, the
vendored uqr encoder: rows of 0 and 1, drawn as SVG by :mod:`web.kit.qr_svg`) and the
configuration online play gets when it is first opened (the room of the URL, the room link's
address, the test group, the trace)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Callable

from pyscript import document, window  # type: ignore[import-not-found]  # the page's JS objects: Any
from pyscript.ffi import create_proxy  # type: ignore[import-not-found]

from web.kit.caught import caught
from web.kit.qr_svg import parse_modules, qr_svg
from web.page.host import BrowserHost, _nn, _text

if TYPE_CHECKING:  # imported on first use: online play is not needed at start
    from web.sessions.online import peer as online
    from web.sessions.online.mesh_env import MeshFactory

__all__ = ["PeerJSChannel", "RoomQr", "configure_online", "BUSY"]


BUSY = '{"v":3,"k":"refuse","reason":"full"}'
"""What net.js says to a third browser calling the room's host (the link's refusal: room full; its
``v`` is ``link.PROTOCOL``, checked by tests/web)."""


REOPEN = ("unavailable-id", "open-timeout", "network", "server-error", "socket-error", "socket-closed")
"""Registration failures after which the page registers again."""


REOPEN_MS = 3000


class PeerJSChannel:
    """The online channel over ``window.cribbageNet`` (static/net.js): strings only, both ways."""

    def __init__(self, host: BrowserHost, my_id: str, host_id: str, events: online.ChannelEvents,
                 nostr_key: str | None = None) -> None:
        self.host = host
        self.nostr_key = nostr_key
        """The Nostr path's password (link.nostr_key), None: PeerJS only."""
        self.host_id = host_id
        self.events = events
        self.registered = False
        self.wanted = False
        self.closed = False
        self.sent_chars = int(_text(document.body.getAttribute("data-net-sent")) or 0)
        """Characters sent over the data channel by this page (ASCII: bytes)."""
        self._proxy = create_proxy(self._on_event)
        self.my_id = my_id
        self._reopen: Any = None
        self.net = window.cribbageNet
        self._register()

    def _register(self) -> None:
        self._reopen = None
        if not self.closed:
            options: dict[str, Any] = {"busy": BUSY, "screen": True}
            if self.nostr_key:
                options["nostr"] = {"topic": self.host_id, "key": self.nostr_key}
            self.net.open(self.my_id, self._proxy, json.dumps(options))

    def _on_event(self, kind: Any, peer: Any, detail: Any) -> None:
        if self.closed:
            return
        k, text = str(kind), str(_nn(detail) or "")
        who = str(_nn(peer) or "")
        events = self.events

        def handle() -> None:
            if k == "open":
                self.registered = True
                if self.wanted:
                    self.wanted = False
                    self.net.connect(self.host_id)
            elif k == "connect":
                document.body.setAttribute("data-net-path", _path(text))  # which signalling path found the peer
                events.on_open(_binding(text, who))
            elif k == "knock":
                # another caller while a channel is up: the link decides whether it may replace it
                # on its hello (a heartbeat or acknowledgement left over from before comes first at times)
                if _kind(text) in ("ping", "ack"):
                    return
                screen = getattr(events, "on_knock", None)
                refusal = screen(who, text) if screen is not None else BUSY
                if refusal is None:
                    self.net.admit(who)
                else:
                    self.net.refuse(who, refusal)
            elif k == "message":
                events.on_message(text)
            elif k == "close":
                events.on_close()
            elif k == "full":
                events.on_full()
            elif k == "reach":
                events.on_reach()
            elif k == "error":
                if not self.registered and text in REOPEN and self._reopen is None:
                    # e.g. our id still held by the socket of a killed page: the server frees it soon
                    self._reopen = self.host.later(REOPEN_MS, self._register)
                events.on_error(text)

        self.host.timed(handle, "channel " + k)

    def connect(self) -> None:
        if self.registered:
            self.net.connect(self.host_id)
        else:
            self.wanted = True

    def send(self, text: str) -> bool:
        self.sent_chars += len(text)
        document.body.setAttribute("data-net-sent", str(self.sent_chars))  # read by py/tools/bench_online.py
        return bool(self.net.send(text))

    def drop(self) -> None:
        self.net.drop()

    def close(self) -> None:
        self.closed = True
        if self._reopen is not None:
            self.host.cancel(self._reopen)
        self.net.close()


class RoomQr:
    """The room link's QR code as SVG (:attr:`web.sessions.online.peer.OnlineEnv.qr`): the vendored encoder
    (net.js ``qr()``) gives the symbol's rows, :func:`web.kit.qr_svg.qr_svg` draws them. The encoder
    is imported on the first call, so that call (and any until it is there) gives ``""``; once the
    import is done the latest ``ready`` runs (the session then draws the code)."""

    LABEL = "QR code of the room link"

    def __init__(self, host: BrowserHost) -> None:
        self.host = host
        self.drawn: tuple[str, str] = ("", "")
        """The last link and its SVG (one room at a time)."""
        self.ready: Callable[[], None] | None = None
        self._proxy = create_proxy(self._loaded)

    def __call__(self, link: str, ready: Callable[[], None]) -> str:
        if link == self.drawn[0]:
            return self.drawn[1]
        modules = parse_modules(_text(window.cribbageNet.qr(link, self._proxy)) or "")
        if modules is None:  # loading (or a text no QR code holds: then no ready follows)
            self.ready = ready
            return ""
        self.drawn = (link, qr_svg(modules, label=self.LABEL))
        return self.drawn[1]

    def _loaded(self) -> None:
        ready, self.ready = self.ready, None
        if ready is not None:
            self.host.timed(ready, "qr ready")


def _binding(detail: str, caller: str = "") -> Any:
    """The channel's binding from net.js's "connect" detail (JSON: dir, local, remote) and the other
    end's signalling id, or None."""
    from cribbage.online.link import channel_binding

    try:
        data = json.loads(detail)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    return channel_binding(data.get("local"), data.get("remote"), caller)


def _path(detail: str) -> str:
    """The signalling path of net.js's "connect" detail: "peerjs" or "nostr" ("" if unreadable)."""
    try:
        data = json.loads(detail)
    except ValueError:
        return ""
    path = data.get("path") if isinstance(data, dict) else None
    return path if path in ("peerjs", "nostr") else ""


def _kind(text: str) -> object:
    """The ``k`` of an envelope (None if it is not one)."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return data.get("k") if isinstance(data, dict) else None


def _fragment_secret() -> str | None:
    """The room secret of the page's ``#k=`` (never sent to a server), or None."""
    fragment = str(_nn(window.location.hash) or "").lstrip("#")
    for part in fragment.split("&"):
        if part.startswith("k="):
            return part[2:]
    return None


def _hold_background(working: bool) -> None:
    """Online work is under way (or over): ``body[data-hold-background]``, which ``static/loader.mjs``
    and ``static/sw-register.js`` watch to start (or stop) the start-up snapshot's worker and to
    register the service worker only while the page is free."""
    if working:
        document.body.setAttribute("data-hold-background", "true")
    else:
        document.body.removeAttribute("data-hold-background")


def _page_trace() -> Callable[[str], None]:
    """Online play's trace (``?trace=1``): ``window.__onlineTrace`` collects "ms label" texts on the
    clock every page of the browser shares (timeOrigin + now), so two pages line up
    (read by ``py/tools/bench_online.py``)."""
    window.__onlineTrace = window.Array.new()
    perf = window.performance
    origin = float(perf.timeOrigin)

    def trace(label: str) -> None:
        window.__onlineTrace.push(f"{origin + float(perf.now()):.2f} {label}")

    def collecting(phase: str, info: dict[str, int]) -> None:
        trace(f"gc{info.get('generation', '')} {'>' if phase == 'start' else '<'}")

    import gc

    gc.callbacks.append(collecting)  # Python's cycle collector, which can stop any task for a while
    return trace


def configure_online(host: BrowserHost, params: dict[str, str], mesh: MeshFactory | None = None) -> None:
    """Tell online play the room of the URL, the room link's address, and how to reach the peer
    (``mesh``: the channels of a table of three or four, :func:`web.page.mesh_net.mesh_factory`).

    Run when online play is first opened (:func:`web.sessions.registry.before_online`), not at start."""
    from cribbage.online.group import MODP_TEST, Group
    from web.sessions.online import peer as online

    search = window.URLSearchParams.new(window.location.search)
    net = _nn(getattr(window, "cribbageNet", None))
    # net.js's allow-list: a link naming a signalling server or relay this page does not trust is
    # refused in a sentence, and nothing is contacted (net.js would refuse to open anyway).
    refusal = online.refusal_text(str(_nn(net.untrusted()) or "")) if net is not None else None
    query = ""
    signal = _text(search.get("signal"))
    if signal and refusal is None:
        query += "&signal=" + str(window.encodeURIComponent(signal))
    group: Group | None = None  # NIST P-256
    loopback = str(window.location.hostname) in ("127.0.0.1", "localhost", "[::1]", "::1")
    if _text(search.get("group")) == "test" and loopback:
        # Test-only, and only on a page served from this machine: the small group of the deal (a
        # link with it from elsewhere must not weaken a real match), so a browser test is quick.
        group = MODP_TEST
        query += "&group=test"
    delay = params.get("delay")  # checked (web.shell.link_options)
    if delay:
        query += f"&delay={delay}"

    def factory(room: str, seat: int, me: str, host_id: str, events: online.ChannelEvents) -> online.Channel:
        from cribbage.online.link import nostr_key

        # the room secret, from the session asking (its room's link); none: PeerJS only
        secret = getattr(getattr(events, "net", None), "secret", None)
        return PeerJSChannel(host, me, host_id, events, nostr_key(room, secret if isinstance(secret, str) else None))

    trace = None
    if _text(search.get("trace")) == "1":
        trace = _page_trace()
        query += "&trace=1"  # the friend's page traces too
        slice_ms = _text(search.get("slice")) or ""
        if slice_ms.isdigit() and 2 <= int(slice_ms) <= 50:  # the benchmark's other slice budgets
            online.SLICE_MS = float(slice_ms)
            query += f"&slice={slice_ms}"

    online.configure(
        channel=factory if net is not None and refusal is None else None,
        room=params.get("room"),
        secret=_fragment_secret(),
        page_url=str(window.location.origin) + str(window.location.pathname),
        link_query=query,
        group=group,
        wall=lambda: float(window.Date.now()) / 1000.0,
        refusal=refusal,
        rules_text=_text(search.get("rules")),
        trace=trace,
        hold=_hold_background,
        qr=RoomQr(host) if net is not None and _nn(getattr(net, "qr", None)) is not None else None,
        relay=_names_turn_relay(),
        mesh=mesh if refusal is None else None,  # a table of three or four (web.sessions.online.party)
        players=params.get("players"),
    )


def _names_turn_relay() -> bool:
    """Whether the page's ``cribbage-ice-servers`` meta names a TURN server (net.js reads the same meta)."""
    try:
        meta = _nn(document.querySelector('meta[name="cribbage-ice-servers"]'))
        content = _text(meta.getAttribute("content")) if meta is not None else None
    except Exception as exc:  # noqa: BLE001 - a page without it plays as before
        caught("page.net._names_turn_relay", exc)
        return False
    text = str(content or "").lower()
    return "turn:" in text or "turns:" in text

