"""web.page.mesh_net under CPython: the page's channels of a table of three or four over a fake
``window.cribbageNet`` (static/net.js's mesh mode, driven for real in tests/online/test_online_mesh.py).
What net.js says becomes the session's calls (:class:`web.sessions.online.mesh_env.MeshEvents`), bad
details never crash, a failing session handler is caught, and the registration is tried again as at
two players. pyscript is replaced by stand-ins for this module only (as tests/web/start_probe.py does)."""

from __future__ import annotations

import json
import sys
import types
from collections.abc import Iterator
from typing import Any, Callable

import pytest

from cribbage.online.link import Binding, nostr_key
from cribbage.online.table_roster import host_id

FP_A = "sha-256 " + ":".join(["AB"] * 32)
FP_B = "sha-256 " + ":".join(["CD"] * 32)


class _JS:
    """Any other JS object: every attribute and call gives another one."""

    def __getattr__(self, name: str) -> Any:
        return _JS()

    def __call__(self, *args: object, **kwargs: object) -> Any:
        return _JS()


class FakeBody(_JS):
    def __init__(self) -> None:
        self.attrs: dict[str, str] = {}

    def getAttribute(self, name: str) -> str | None:  # noqa: N802 - the DOM's name
        return self.attrs.get(name)

    def setAttribute(self, name: str, value: str) -> None:  # noqa: N802
        self.attrs[name] = value


class FakeDocument(_JS):
    def __init__(self) -> None:
        self.body = FakeBody()


class FakeNet:
    """window.cribbageNet: records the calls; ``emit`` plays an event as net.js would."""

    def __init__(self, untrusted: str = "") -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.handler: Callable[[Any, Any, Any], None] | None = None
        self.open_ids: set[str] = set()
        self._untrusted = untrusted

    def open(self, my_id: str, handler: Callable[[Any, Any, Any], None], options: str) -> None:
        self.handler = handler
        self.calls.append(("open", my_id, json.loads(options)))

    def connect(self, peer: str) -> None:
        self.calls.append(("connect", peer))

    def send(self, text: str, peer: str) -> bool:
        self.calls.append(("send", peer, text))
        return peer in self.open_ids

    def drop(self, peer: str) -> None:
        self.calls.append(("drop", peer))
        self.emit("close", peer, "dropped")  # as net.js: told within the call

    def close(self) -> None:
        self.calls.append(("close",))

    def untrusted(self) -> str:
        return self._untrusted

    def emit(self, kind: Any, peer: Any, detail: Any) -> None:
        assert self.handler is not None
        self.handler(kind, peer, detail)


class FakeWindow(_JS):
    def __init__(self) -> None:
        self.cribbageNet: Any = FakeNet()


class FakeHost:
    """The part of BrowserHost the channels use: timed handlers and timers (run by hand)."""

    def __init__(self) -> None:
        self.timers: list[tuple[int, Callable[[], None]]] = []
        self.labels: list[str] = []
        self.due: list[Callable[[], None]] = []

    def timed(self, fn: Callable[[], Any], label: str = "handler") -> Any:
        self.labels.append(label)
        return fn()

    def soon(self, fn: Callable[[], None]) -> Any:
        self.due.append(fn)

    def run_soon(self) -> None:
        due, self.due = self.due, []
        for fn in due:
            fn()

    def later(self, ms: int, fn: Callable[[], None]) -> Any:
        self.timers.append((ms, fn))
        return len(self.timers) - 1

    def cancel(self, handle: Any) -> None:
        self.timers[handle] = (self.timers[handle][0], lambda: None)


class Recorder:
    """A MeshEvents that writes down every call (``fail``: the next call raises)."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.fail = False

    def _add(self, *call: Any) -> None:
        self.calls.append(call)
        if self.fail:
            self.fail = False
            raise RuntimeError("the session failed")

    def on_registered(self) -> None:
        self._add("registered")

    def on_open(self, peer: str, binding: Binding | None) -> None:
        self._add("open", peer, binding)

    def on_message(self, peer: str, text: str) -> None:
        self._add("message", peer, text)

    def on_close(self, peer: str, reason: str) -> None:
        self._add("close", peer, reason)

    def on_reach(self, peer: str) -> None:
        self._add("reach", peer)

    def on_error(self, peer: str, code: str) -> None:
        self._add("error", peer, code)


@pytest.fixture(scope="module")
def page() -> Iterator[tuple[Any, FakeWindow]]:
    """web.page.mesh_net imported over stand-ins of pyscript; every module it brought is forgotten after."""
    before = set(sys.modules)
    window, document = FakeWindow(), FakeDocument()
    pyscript = types.ModuleType("pyscript")
    ffi = types.ModuleType("pyscript.ffi")
    pyscript.window, pyscript.document = window, document  # type: ignore[attr-defined]
    ffi.create_proxy = lambda fn: fn  # type: ignore[attr-defined]
    ffi.to_js = lambda value, **kwargs: value  # type: ignore[attr-defined]
    pyscript.ffi = ffi  # type: ignore[attr-defined]
    saved = {name: sys.modules.get(name) for name in ("pyscript", "pyscript.ffi")}
    sys.modules["pyscript"], sys.modules["pyscript.ffi"] = pyscript, ffi
    try:
        import web.page.mesh_net as mesh_net

        yield mesh_net, window
    finally:
        for name in set(sys.modules) - before:
            if name.startswith(("web.page", "pyscript")):
                del sys.modules[name]
        for name, module in saved.items():
            if module is not None:
                sys.modules[name] = module


def make(page: tuple[Any, FakeWindow], my_id: str = "me") -> tuple[Any, FakeNet, Recorder, FakeHost]:
    mesh_net, window = page
    window.cribbageNet = net = FakeNet()
    host, events = FakeHost(), Recorder()
    channels = mesh_net.PeerJSMesh(host, my_id, events)
    return channels, net, events, host


def test_it_registers_in_the_mesh_mode_and_calls_once_registered(page: Any) -> None:
    channels, net, events, _ = make(page, "seat-2")
    assert net.calls == [("open", "seat-2", {"mesh": True, "connectTimeoutMs": 10_000})]
    channels.dial("seat-0")
    channels.dial("seat-1")
    channels.dial("seat-0")  # asked twice before the registration: called once
    assert len(net.calls) == 1
    net.emit("open", "seat-2", "http://127.0.0.1:9000/cribbage")
    assert events.calls == [("registered",)]
    assert net.calls[1:] == [("connect", "seat-0"), ("connect", "seat-1")]
    channels.dial("seat-1")  # registered: straight to net.js (which leaves a live channel alone)
    assert net.calls[-1] == ("connect", "seat-1")


def test_each_event_names_its_peer_and_the_binding_is_read_from_the_fingerprints(page: Any) -> None:
    channels, net, events, host = make(page)
    net.emit("open", "me", "")
    net.emit("reach", "p1", "in")
    net.emit("connect", "p1", json.dumps({"dir": "in", "local": FP_A, "remote": FP_B, "path": "peerjs"}))
    net.emit("connect", "p2", json.dumps({"dir": "out", "local": FP_A, "remote": "", "path": "peerjs"}))
    net.emit("connect", "p3", "not json {")
    net.emit("connect", "p4", None)  # JS null
    net.emit("message", "p1", "")
    net.emit("message", "p2", '{"k":"ping"}')
    net.emit("close", "p1", "replaced")
    net.emit("close", "p2", "connect-timeout")
    net.emit("close", "p3", "something new")
    net.emit("error", "p4", "peer-unavailable")
    net.emit("full", "p5", "")  # not the mesh mode's: nothing reaches the session
    net.emit("knock", "p5", "hello")
    assert events.calls[1:] == [
        ("reach", "p1"),
        ("open", "p1", Binding(FP_A, FP_B, "p1")),
        ("open", "p2", None),
        ("open", "p3", None),
        ("open", "p4", None),
        ("message", "p1", ""),
        ("message", "p2", '{"k":"ping"}'),
        ("close", "p1", "replaced"),
        ("close", "p2", "connect-timeout"),
        ("close", "p3", "closed"),
        ("error", "p4", "peer-unavailable"),
    ]
    assert host.labels[:3] == ["mesh open", "mesh reach", "mesh connect"]


def test_send_drop_and_close_act_on_the_peer_named(page: Any) -> None:
    channels, net, events, host = make(page)
    net.emit("open", "me", "")
    net.open_ids = {"p1"}
    assert channels.send("p1", "hello") is True
    assert channels.send("p2", "nobody") is False
    assert net.calls[-2:] == [("send", "p1", "hello"), ("send", "p2", "nobody")]
    assert channels.sent_chars == 5
    channels.drop("p2")
    assert net.calls[-1] == ("drop", "p2")
    channels.close()
    host.run_soon()  # the "dropped" told inside drop() was to wait for it, and close() came first
    assert net.calls[-1] == ("close",)
    count = len(net.calls)
    net.emit("message", "p1", "late")  # nothing after close
    channels.dial("p1")
    channels.drop("p1")
    assert channels.send("p1", "x") is False
    assert len(net.calls) == count and events.calls == [("registered",)]


def test_a_failed_registration_is_tried_again_and_a_failing_handler_is_caught(page: Any) -> None:
    from web.kit.caught import CAUGHT

    channels, net, events, host = make(page)
    net.emit("error", "", "unavailable-id")  # our id still held by a killed page's socket
    net.emit("error", "", "network")  # one retry at a time
    assert [ms for ms, _ in host.timers] == [3000]
    host.timers[0][1]()
    assert [c[0] for c in net.calls] == ["open", "open"]
    net.emit("open", "me", "")
    net.emit("error", "", "socket-closed")  # once registered, net.js reconnects by itself
    assert len(host.timers) == 1
    assert events.calls[-1] == ("error", "", "socket-closed")

    events.fail = True
    net.emit("message", "p1", "boom")  # the session's handler raises: caught, the channels go on
    assert CAUGHT[-1][:2] == ("page.mesh_net: message event", "RuntimeError")
    net.emit("message", "p1", "after")
    assert events.calls[-1] == ("message", "p1", "after")

    # closed while a retry waits: the retry is cancelled
    channels2, net2, _, host2 = make(page)
    net2.emit("error", "", "open-timeout")
    channels2.close()
    host2.timers[0][1]()
    assert [c[0] for c in net2.calls] == ["open", "close"]


def test_the_factory_is_none_without_net_js_or_with_an_untrusted_link(page: Any) -> None:
    mesh_net, window = page
    window.cribbageNet = None
    assert mesh_net.mesh_factory(FakeHost()) is None
    window.cribbageNet = FakeNet(untrusted=json.dumps({"what": "signal", "value": "http://evil.example/"}))
    assert mesh_net.mesh_factory(FakeHost()) is None
    window.cribbageNet = net = FakeNet()
    factory = mesh_net.mesh_factory(FakeHost(), connect_timeout_ms=4000, relays=False)
    assert factory is not None
    channels = factory("r" * 16, "s" * 43, "seat-3", Recorder())
    assert isinstance(channels, mesh_net.PeerJSMesh)
    assert net.calls == [("open", "seat-3", {"mesh": True, "connectTimeoutMs": 4000})]
    room, secret = "abcdefgh12345678", "Q" * 43
    assert nostr_key(room, secret) is not None
    with_relays = mesh_net.mesh_factory(FakeHost())
    assert with_relays is not None
    with_relays(room, secret, "seat-1", Recorder())
    assert net.calls[-1] == ("open", "seat-1", {"mesh": True, "connectTimeoutMs": 10_000,
                                                "nostr": {"topic": host_id(room, secret),
                                                          "key": nostr_key(room, secret)}})
    assert room not in json.dumps(net.calls[-1])  # the relays' topic does not name the room
    with_relays("not a room", "nor a secret", "seat-2", Recorder())  # no valid secret: PeerJS only
    assert net.calls[-1] == ("open", "seat-2", {"mesh": True, "connectTimeoutMs": 10_000})


def test_no_event_reaches_the_session_inside_its_own_call(page: Any) -> None:
    channels, net, events, host = make(page)
    net.emit("open", "me", "")

    class Reentered(Recorder):
        def on_close(self, peer: str, reason: str) -> None:
            assert not inside, "on_close within the session's own drop()"
            super().on_close(peer, reason)

    inside = True
    channels.events = watcher = Reentered()
    channels.drop("p1")
    net.emit("message", "p2", "came after the drop")  # from the page's next task: behind it, in order
    inside = False
    assert watcher.calls == []
    host.run_soon()
    assert watcher.calls == [("close", "p1", "dropped"), ("message", "p2", "came after the drop")]
    net.emit("message", "p2", "then at once")
    assert watcher.calls[-1] == ("message", "p2", "then at once")

    # an error net.js tells inside open() (here: the link names an untrusted server) waits for the factory
    mesh_net, window = page
    window.cribbageNet = refusing = FakeNet()
    refusing.open = (  # type: ignore[method-assign]
        lambda my_id, handler, options: handler("error", "", "untrusted-signal"))
    host2, late = FakeHost(), Recorder()
    mesh_net.PeerJSMesh(host2, "me", late)
    assert late.calls == []
    host2.run_soon()
    assert late.calls == [("error", "", "untrusted-signal")]
