"""The browser glue: the only module that touches the page (``main.py`` just calls :func:`start`).

It builds the controller with a host that writes HTML into ``#table`` and ``#overlay``, speaks
through the ``#live`` region, runs timers with ``setTimeout`` (one proxy for all of them), keeps the
match in the page's durable store (``static/store.js``: IndexedDB) and posts to the parent frame
when embedded. One delegated click handler on ``#app`` routes every control by its ``data-action``; one keydown handler serves the keyboard.
When the table is drawn it sets ``<body data-ready="true">``.
"""

from __future__ import annotations

import importlib
import itertools
import json
import sys
from typing import TYPE_CHECKING, Any, Callable, Iterator, Protocol

from pyscript import document, window  # type: ignore[import-not-found]  # the page's JS objects: Any
from pyscript.ffi import create_proxy, to_js  # type: ignore[import-not-found]

try:  # Pyodide gives JS null as its own ``jsnull`` value, not None
    from pyodide.ffi import create_once_callable  # type: ignore[import-not-found]
    from pyodide.ffi import jsnull as _JSNULL
except ImportError:  # pragma: no cover - older Pyodide
    _JSNULL = None
    create_once_callable = create_proxy

from web import modes
from web.cardfaces import sprite_svg
from web.controller import Controller
from web.patch import moves, moving, plan
from web.render import Rendered
from web.storage import DurableStorage, Storage

if TYPE_CHECKING:  # imported on first use: online play and the record screens are not needed at start
    from web import online

WIDE_QUERY = ("(min-width: 960px) and (min-height: 600px), "
              "(min-width: 640px) and (max-height: 599px) and (min-aspect-ratio: 4/3)")
"""Where the board stands upright beside the table rather than above it."""
DATA_KEYS = ("index", "depth", "step", "mode", "level", "delay", "hand", "record",
             "side", "points", "kind", "field", "choice")
"""The data-* attributes a control may pass along with its data-action."""
NAME_FIELDS = {"online-name": "online-name", "challenge-name": "challenge-make",
               "challenge-reply-name": "challenge-answer"}
"""Text fields where Enter presses a button: the field's id and the button's data-action."""


def _nn(value: Any) -> Any:
    """None for JS null/undefined, else the value."""
    if value is None or value is _JSNULL:
        return None
    return value


def _text(value: Any) -> str | None:
    """A JS string as str; None for null/undefined."""
    value = _nn(value)
    return None if value is None else str(value)


def page_storage() -> Storage:
    """The page's store (``static/store.js``: IndexedDB, strict writes), or ``localStorage`` in a page
    without it."""
    store = _nn(getattr(window, "cribbageStore", None))
    if store is None:
        return BrowserStorage()
    return DurableStorage(store, create_once_callable)


class BrowserStorage:
    """``localStorage``, failing soft (private modes may refuse it): only for a page without
    ``static/store.js``."""

    def __init__(self) -> None:
        self._memory: dict[str, str] = {}

    def get(self, key: str) -> str | None:
        try:
            value = _text(window.localStorage.getItem(key))
        except Exception:  # noqa: BLE001
            return self._memory.get(key)
        return value

    def set(self, key: str, value: str) -> None:
        try:
            window.localStorage.setItem(key, value)
        except Exception:  # noqa: BLE001
            self._memory[key] = value

    def remove(self, key: str) -> None:
        self._memory.pop(key, None)
        try:
            window.localStorage.removeItem(key)
        except Exception:  # noqa: BLE001
            pass

    def when_durable(self, fn: Callable[[], None]) -> None:
        fn()  # as durable as localStorage gets

    def failure(self) -> str | None:
        return None

    def keys(self) -> list[str]:
        names = set(self._memory)
        try:
            store = window.localStorage
            for i in range(int(store.length)):
                name = _text(store.key(i))
                if name is not None:
                    names.add(name)
        except Exception:  # noqa: BLE001
            pass
        return sorted(names)


class BrowserHost:
    """Draws frames into the page and runs the controller's timers.

    Every event it handles is timed; ``#app[data-handler-ms]`` holds the slowest so far (the
    computer's thinking included), which the browser tests keep an eye on.
    """

    def __init__(self, motion: bool = True) -> None:
        self.app = document.getElementById("app")
        self.table = document.getElementById("table")
        self.overlay = document.getElementById("overlay")
        self.live = document.getElementById("live")
        self._drawn: Rendered | None = None
        self._meta: dict[str, str] = {}
        self._inert = False
        """The ``data-*`` attributes of ``#app`` as last set (from the frames' ``meta``)."""
        """The frame the page shows now (the patch is planned from it)."""
        self._target: tuple[Rendered, str | None] | None = None
        """The latest frame asked for, and its focus (a view transition draws it a frame later)."""
        self.motion = motion
        """False with ``?motion=off``: no view transitions, no glides (reduced motion also stops them)."""
        self._reduced = window.matchMedia("(prefers-reduced-motion: reduce)")
        self._vt: Any = None
        """The view transition running, if any."""
        self._vt_waiting = False
        """A view transition has captured (or is capturing) the old frame; its update draws ``_target``."""
        self._vt_names: frozenset[str] = frozenset()
        """The names given for the transition under way: only what changes place."""
        self._vt_update = create_proxy(self._vt_draw)
        self._vt_ignore = create_proxy(lambda *_: None)
        self._callbacks: dict[int, Callable[[], None]] = {}
        self._seq = 0
        self._fire_proxy = create_proxy(self._fire)
        self._unpainted = False
        """A frame was asked for and has not been painted yet."""
        self._paint_gen = 0
        """Counts the frames waited for (a late fallback timer of an older one does nothing)."""
        self._after_paint: list[int] = []
        """Tokens of zero-delay timers held until that frame is painted."""
        self._painted_proxy = create_proxy(self._painted)
        self._frame_proxy = create_proxy(self._on_frame)
        self._flip = False
        self._slowest = 0.0
        self._no_scroll = to_js({"preventScroll": True}, dict_converter=window.Object.fromEntries)
        self._held: list[dict[str, Any]] | None = []
        """Messages for the embedding page held until ``ready`` is posted (then None): it comes first."""
        self._marks = bool(_nn(getattr(window, "__cribbageMarks", None)))
        """Write ``performance.measure`` entries (``py …``) for py/tools/bench_taps.py."""

    # Drawing.

    def perf_ms(self) -> float:
        """The page's clock (``performance.now()``), for the phases of a frame."""
        return float(window.performance.now())

    def measure(self, name: str, start: float, end: float | None = None) -> None:
        """A ``performance.measure`` entry ``py <name>`` (only when a benchmark asked for them)."""
        if self._marks:
            end = float(window.performance.now()) if end is None else end
            window.performance.measure("py " + name, to_js({"start": start, "end": end},
                                                           dict_converter=window.Object.fromEntries))

    def animated(self) -> bool:
        """May things move? Not with ``?motion=off``, nor when the player prefers reduced motion."""
        return self.motion and not bool(self._reduced.matches)

    def show(self, rendered: Rendered, focus: str | None) -> None:
        """Draw a frame: patch the regions that changed; a card that changes place travels there.

        A view transition captures the page as it is, then draws the new frame (a frame later);
        the cards, the starter and the crib named ``data-vt`` glide from the old places to the
        new. Frames asked for meanwhile are drawn by that same update: the latest one wins.
        """
        self._target = (rendered, focus)
        self._frame_asked()
        if self._vt_waiting:
            return
        start = getattr(document, "startViewTransition", None)
        if start is not None and self.animated() and moves(self._drawn, rendered):
            self.skip_transition()
            self._vt_names = moving(self._drawn, rendered)
            self._name(self.table)  # the old places of what is about to move
            self._vt_waiting = True
            try:
                vt = document.startViewTransition(self._vt_update)
            except Exception:  # noqa: BLE001 - e.g. a browser that refuses: draw at once
                self._vt_waiting = False
                self._draw()
                return
            self._vt = vt
            for promise in (vt.ready, vt.finished, vt.updateCallbackDone):
                promise.catch(self._vt_ignore)  # a skipped transition rejects: nothing to report
            # Until the new frame is drawn (a frame later) the page says it is busy, so a script
            # or a test that waits for ``data-busy="false"`` reads the table it is about to see.
            self.app.setAttribute("data-busy", "true")
            self._meta["busy"] = "true"
            return
        self._draw()

    def skip_transition(self) -> None:
        """End the running view transition at once (a tap never waits for an animation)."""
        vt, self._vt = self._vt, None
        if vt is not None:
            try:
                vt.skipTransition()
            except Exception:  # noqa: BLE001
                pass

    def _vt_draw(self, *_: Any) -> None:
        self._vt_waiting = False
        self._draw(named=True)

    def _name(self, root: Any) -> None:
        """Name the ``data-vt`` elements under ``root`` that move in the transition under way, and
        no other (CSSOM: the CSP forbids style attributes in markup)."""
        found = root.querySelectorAll("[data-vt]")
        names = self._vt_names
        for i in range(int(found.length)):
            element = found.item(i)
            name = str(element.getAttribute("data-vt"))
            element.style.viewTransitionName = name if name in names else ""

    def _draw(self, named: bool = False) -> None:
        if self._target is None:
            return
        rendered, focus = self._target
        self._target = None
        began = float(window.performance.now()) if self._marks else 0.0
        active = _nn(document.activeElement)
        previous = str(active.id) if active is not None and active.id else ""
        patch = plan(self._drawn, rendered)
        wrote = float(window.performance.now()) if self._marks else 0.0
        if patch.full is not None:
            self.table.innerHTML = patch.full
            if named:
                self._name(self.table)
        for key, html in patch.regions:
            old = _nn(self.table.querySelector(f'[data-region="{key}"]'))
            if old is None:  # not where it should be (should not happen): draw it all
                self.table.innerHTML = rendered.table
                if named:
                    self._name(self.table)
                break
            old.outerHTML = html
            if self._marks:
                wrote = self._region_mark(key, wrote)
            if named:
                new = _nn(self.table.querySelector(f'[data-region="{key}"]'))
                if new is not None:
                    self._name(new)
        if patch.pegs or patch.full is not None:
            self._set_pegs(rendered)
        if patch.overlay is not None:
            self.overlay.innerHTML = patch.overlay
        self._drawn = rendered
        for key, value in rendered.meta.items():
            if self._meta.get(key) != value:  # (each call crosses into JavaScript: only what changed)
                self.app.setAttribute(f"data-{key}", value)
                self._meta[key] = value
        covered = bool(rendered.overlay)
        if covered != self._inert:
            self.table.inert = self._inert = covered
        if self._marks:
            wrote = self._region_mark("(pegs, overlay, #app)", wrote)
        self._focus(focus, previous, covered)
        if self._marks:
            self._region_mark("(focus)", wrote)
        if self._marks:
            self.measure("\u00b7 dom", began)

    def _region_mark(self, key: str, since: float) -> float:
        """A ``py · region <key>`` measure of one region's write (for the benchmark); returns now."""
        now = float(window.performance.now())
        self.measure("\u00b7 region " + key, since, now)
        return float(window.performance.now())

    def _set_pegs(self, rendered: Rendered) -> None:
        """Move the pegs by their transform (a CSS transition carries them along), keep the rest."""
        board = _nn(self.table.querySelector("svg.board"))
        if board is None or not rendered.board_label:
            return  # (a screen that draws its own board whole: the scorekeeper)
        for peg in rendered.pegs:
            element = _nn(board.querySelector(f'[data-peg="{peg.key}"]'))
            if element is None:
                continue
            element.setAttribute("class", peg.cls)
            element.setAttribute("data-hole", str(peg.hole))
            element.setAttribute("transform", f"translate({peg.x:g} {peg.y:g})")
            element.style.transform = peg.translate
            title = _nn(element.querySelector("title"))
            if title is not None:
                title.textContent = peg.title

    def _focus(self, focus: str | None, previous: str, covered: bool) -> None:
        target = None
        if focus == "primary":
            target = (_nn(document.querySelector("#table .actions .btn-primary:not([aria-disabled])"))
                      or _nn(document.querySelector("#table button.hand-card:not([aria-disabled])")))
        elif focus and focus.startswith("hand-cursor:"):
            step = int(focus.split(":")[1])
            cards = document.querySelectorAll("#table button.hand-card")
            n = cards.length
            if n:
                current = int(previous[5:]) if previous.startswith("hand-") and previous[5:].isdigit() else -1
                index = 0 if current < 0 else max(0, min(n - 1, current + step))
                target = _nn(cards.item(index))
        elif focus:
            target = _nn(document.getElementById(focus))
        if target is None and previous:
            target = _nn(document.getElementById(previous))
        if target is None and covered:
            target = _nn(self.overlay.querySelector("button"))
        if target is not None and not target.isSameNode(_nn(document.activeElement)):
            target.focus(self._no_scroll)

    def announce(self, text: str) -> None:
        # A trailing zero-width space alternates so the same sentence twice is still read.
        self._flip = not self._flip
        self.live.textContent = text + ("\u200b" if self._flip else "")

    # Timers: one proxy for all, each call carries a token.

    def later(self, ms: int, fn: Callable[[], None]) -> Any:
        """Run ``fn`` after ``ms`` ms. A zero-delay timer asked for while a frame waits to be
        painted (the computer's move after a tap, at ``?delay=0``) runs after that paint: Chromium
        runs ready timers before a frame that is due, so the tap's answer waited for the computer's
        thinking, slice after slice (up to ~100 ms of "tap to next paint")."""
        self._seq += 1
        token = self._seq
        self._callbacks[token] = fn
        if ms <= 0 and self._unpainted and not document.hidden:  # (a hidden page paints nothing)
            if not self._after_paint:
                # Should no animation frame come (the page hidden meanwhile), wait no longer than this.
                window.setTimeout(self._painted_proxy, 100, self._paint_gen)
            self._after_paint.append(token)
            return (None, token)
        handle = window.setTimeout(self._fire_proxy, max(0, int(ms)), token)
        return (handle, token)

    def _frame_asked(self) -> None:
        """A frame is on its way: note when it has been painted (one animation frame per frame)."""
        if not self._unpainted:
            self._unpainted = True
            self._paint_gen += 1
            window.requestAnimationFrame(self._frame_proxy)

    def _on_frame(self, *_: Any) -> None:
        # The frame's rendering steps run right after this callback: a task queued now runs after them.
        window.setTimeout(self._painted_proxy, 0, self._paint_gen)

    def _painted(self, gen: Any = None) -> None:
        """The frame is painted (or we waited long enough): start the timers held for it."""
        if gen is not None and int(gen) != self._paint_gen:
            return
        self._unpainted = False
        held, self._after_paint = self._after_paint, []
        for token in held:
            if token in self._callbacks:
                window.setTimeout(self._fire_proxy, 0, token)

    def _fire(self, token: Any) -> None:
        fn = self._callbacks.pop(int(token), None)
        if fn is not None:
            self.timed(fn, "timer " + str(getattr(fn, "__qualname__", "?")))

    def timed(self, fn: Callable[[], Any], label: str = "handler") -> Any:
        """Run a handler, keeping the slowest time seen in ``#app[data-handler-ms]``."""
        start = float(window.performance.now())
        try:
            return fn()
        finally:
            spent = float(window.performance.now()) - start
            if spent > self._slowest:
                self._slowest = spent
                self.app.setAttribute("data-handler-ms", f"{spent:.0f}")
            if self._marks:
                self.measure(label, start)

    def cancel(self, handle: Any) -> None:
        timer, token = handle
        if timer is not None:
            window.clearTimeout(timer)
        self._callbacks.pop(token, None)

    # The embedding page.

    def post(self, message: dict[str, Any]) -> None:
        if self._held is not None:
            self._held.append(message)
            return
        try:
            data = to_js(message, dict_converter=window.Object.fromEntries)
            window.parent.postMessage(data, "*")
        except Exception as exc:  # noqa: BLE001 - the game goes on without its host page
            print(f"postMessage failed: {exc}", file=sys.stderr)

    def post_ready(self) -> None:
        """Tell the embedding page the table is ready, then send what was held (e.g. ``match-start``)."""
        held, self._held = self._held or [], None
        if _embedded():
            for message in [{"source": "cribbage", "version": 1, "type": "ready"}, *held]:
                self.post(message)

    def now_ms(self) -> int:
        return int(window.Date.now())

    def download(self, filename: str, text: str) -> None:
        """Offer ``text`` as a file to save: a Blob behind a temporary ``<a download>``."""
        blob = window.Blob.new(to_js([text]), to_js({"type": "application/json"},
                                                    dict_converter=window.Object.fromEntries))
        url = window.URL.createObjectURL(blob)
        link = document.createElement("a")
        link.href = url
        link.download = filename
        link.hidden = True
        document.body.appendChild(link)
        link.click()
        link.remove()
        window.setTimeout(create_once_callable(lambda: window.URL.revokeObjectURL(url)), 10_000)


def _params() -> dict[str, str]:
    search = window.URLSearchParams.new(window.location.search)
    out: dict[str, str] = {}
    for name in ("delay", "mode", "seed", "level", "room", "players", "seats", "to", "rules", "series"):
        value = _text(search.get(name))
        if value is not None:
            out[name] = str(value)
    if "room" in out:
        out["mode"] = "online"
    return out


BUSY = '{"v":3,"k":"refuse","reason":"full"}'
"""What net.js says to a third browser calling the room's host (the link's refusal: room full; its
``v`` is ``link.PROTOCOL``, checked by tests/web)."""


REOPEN = ("unavailable-id", "open-timeout", "network", "server-error", "socket-error", "socket-closed")
"""Registration failures after which the page registers again."""
REOPEN_MS = 3000


class PeerJSChannel:
    """The online channel over ``window.cribbageNet`` (static/net.js): strings only, both ways."""

    def __init__(self, host: BrowserHost, my_id: str, host_id: str, events: online.ChannelEvents) -> None:
        self.host = host
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
            self.net.open(self.my_id, self._proxy, json.dumps({"busy": BUSY}))

    def _on_event(self, kind: Any, peer: Any, detail: Any) -> None:
        if self.closed:
            return
        k, text = str(kind), str(_nn(detail) or "")
        events = self.events

        def handle() -> None:
            if k == "open":
                self.registered = True
                if self.wanted:
                    self.wanted = False
                    self.net.connect(self.host_id)
            elif k == "connect":
                events.on_open(_binding(text))
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

        self.host.timed(handle)

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


def _binding(detail: str) -> Any:
    """The channel's binding from net.js's "connect" detail (JSON: dir, local, remote), or None."""
    from cribbage.online.link import channel_binding

    try:
        data = json.loads(detail)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    return channel_binding(data.get("local"), data.get("remote"))


def _take_challenge(params: dict[str, str]) -> None:
    """A challenge link's ``#challenge=`` text (never sent to a server) into ``params``, with the page's
    own address for the links it makes; the text leaves the address bar (a reload resumes the saved
    challenge match, it does not open the link again)."""
    params["page"] = str(window.location.origin) + str(window.location.pathname)
    fragment = str(_nn(window.location.hash) or "").lstrip("#")
    if not fragment.startswith("challenge="):
        return
    params["challenge"] = fragment[len("challenge="):]
    search = window.URLSearchParams.new(window.location.search)
    if _text(search.get("mode")) == "challenge":
        search.delete("mode")
    query = str(search.toString())
    window.history.replaceState(None, "", str(window.location.pathname) + (f"?{query}" if query else ""))


def _fragment_secret() -> str | None:
    """The room secret of the page's ``#k=`` (never sent to a server), or None."""
    fragment = str(_nn(window.location.hash) or "").lstrip("#")
    for part in fragment.split("&"):
        if part.startswith("k="):
            return part[2:]
    return None


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


def _configure_online(host: BrowserHost, params: dict[str, str]) -> None:
    """Tell online play the room of the URL, the room link's address, and how to reach the peer.

    Run when online play is first opened (:func:`web.modes.before_online`), not at start."""
    from cribbage.online.group import MODP_TEST, Group
    from web import online

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
    delay = _text(search.get("delay"))
    if delay and delay.isdigit():
        query += f"&delay={delay}"

    def factory(room: str, seat: int, me: str, host_id: str, events: online.ChannelEvents) -> online.Channel:
        return PeerJSChannel(host, me, host_id, events)

    trace = None
    if _text(search.get("trace")) == "1":
        trace = _page_trace()
        query += "&trace=1"  # the friend's page traces too

    online.configure(channel=factory if net is not None and refusal is None else None,
                     room=params.get("room"), secret=_fragment_secret(), page_url=str(window.location.origin) + str(window.location.pathname),
                     link_query=query, group=group, wall=lambda: float(window.Date.now()) / 1000.0, refusal=refusal,
                     rules_text=_text(search.get("rules")), trace=trace)


class Routed(Protocol):
    """What the page's click and key handlers drive: the game's controller or the scorekeeper's."""

    def click(self, action: str, data: dict[str, str] | None = None) -> None: ...
    def key(self, key: str, ctrl: bool = False, shift: bool = False, alt: bool = False,
            target_action: str | None = None) -> bool: ...


def _on_click(controller: Routed, host: BrowserHost, event: Any, target: Any = None) -> None:
    target = target if target is not None else _nn(event.target)
    if target is None or not hasattr(target, "closest"):
        return
    element = _nn(target.closest("[data-action]"))
    if element is None:
        return
    action = str(element.getAttribute("data-action"))
    if action == "close-backdrop" and not element.isSameNode(target):
        return  # a click inside the dialog, not on the dimmed page around it
    if action == "copy-link":
        _copy(element)
        return
    if action == "print":
        window.print()
        return
    # All its data-* at once (one call into JavaScript, not one per key).
    dataset = json.loads(str(window.JSON.stringify(element.dataset)))
    data = {key: str(dataset[key]) for key in DATA_KEYS if key in dataset}
    if element.getAttribute("aria-disabled") == "true":
        data["disabled"] = "true"
    source = dataset.get("input")  # a text field the control submits (a name)
    if source:
        field = _nn(document.getElementById(source))
        data["value"] = str(field.value) if field is not None else ""
    inputs = dataset.get("inputs")  # text fields a control takes along (names)
    if inputs:
        values = {}
        for name in inputs.split():
            field = _nn(document.getElementById(name))
            if field is not None:
                values[name] = str(field.value)
        data["inputs"] = json.dumps(values)
    host.timed(lambda: controller.click(action, data), "click " + action)


def _on_root_click(controller: Routed, host: BrowserHost, event: Any) -> None:
    """A click the browser gave the document itself: between the start of a view transition and
    its update (one frame) input goes to the root. Route it to what lies under the pointer."""
    target = _nn(event.target)
    if target is None or not target.isSameNode(document.documentElement):
        return
    host.skip_transition()
    under = _nn(document.elementFromPoint(event.clientX, event.clientY))
    if under is not None and bool(host.app.contains(under)):
        _on_click(controller, host, event, under)


def _copy(element: Any) -> None:
    """Copy the room link (``data-copy``) to the clipboard; select it in its field (``data-field``,
    else the room link's) as well."""
    text = _text(element.getAttribute("data-copy")) or ""
    field = _nn(document.getElementById(_text(element.getAttribute("data-field")) or "room-link"))
    if field is not None:
        field.select()
    try:
        window.navigator.clipboard.writeText(text)
        element.textContent = "Copied"
    except Exception:  # noqa: BLE001 - no clipboard (insecure context): the text stays selected
        element.textContent = "Select and copy"


def _on_key(controller: Routed, host: BrowserHost, event: Any) -> None:
    if event.defaultPrevented or event.isComposing:
        return
    target = _nn(event.target)
    tag = str(_nn(getattr(target, "tagName", None)) or "").upper()
    if tag in ("INPUT", "TEXTAREA", "SELECT") and not (str(event.key) == "Escape" and str(
            _nn(getattr(target, "type", None)) or "") in ("radio", "checkbox")):  # Esc closes the New game dialog
        submits = NAME_FIELDS.get(str(_nn(getattr(target, "id", None)) or ""))
        if str(event.key) == "Enter" and submits:
            value = str(target.value)
            event.preventDefault()
            host.timed(lambda: controller.click(submits, {"value": value}))
        return
    action = None
    if target is not None and hasattr(target, "closest"):
        element = _nn(target.closest("[data-action]"))
        if element is not None and element.getAttribute("aria-disabled") != "true":
            action = _text(element.getAttribute("data-action"))  # a disabled control takes no Enter
    key, ctrl, shift, alt = str(event.key), bool(event.ctrlKey or event.metaKey), bool(event.shiftKey), \
        bool(event.altKey)
    used = host.timed(lambda: controller.key(key, ctrl, shift, alt, action), "key " + key)
    if used:
        event.preventDefault()


def _on_change(controller: Controller, host: BrowserHost, event: Any) -> None:
    """A file chosen in the record dialog's import input: its text goes to Python."""
    target = _nn(event.target)
    if target is None or _text(target.getAttribute("data-action")) != "record-import":
        return
    files = _nn(target.files)
    if files is None or not files.length:
        return
    file = files.item(0)
    target.value = ""  # choosing the same file again fires another change
    size = int(file.size)
    from web.record_screens import IMPORT_LIMIT  # loaded already: the record dialog is open

    if size > IMPORT_LIMIT:
        host.timed(lambda: controller.records.import_text(None, size))
        return

    def loaded(text: Any) -> None:
        host.timed(lambda: controller.records.import_text(str(text), size))

    def failed(error: Any) -> None:
        host.timed(lambda: controller.records.import_text(None, size))

    file.text().then(create_once_callable(loaded), create_once_callable(failed))


def start() -> Routed:
    """Wire the page and draw the table (or a page of its own: :data:`web.modes.PAGES`)."""
    if _params().get("mode") == "score":
        from web.scorekeeper_browser import start_scorekeeper  # only the scorekeeper's page needs it

        return start_scorekeeper(_embedded())
    if _params().get("mode") == "puzzle":
        from web.puzzle_browser import start_puzzle  # only the daily puzzle's page needs it

        return start_puzzle(_embedded())
    sprites = _nn(document.getElementById("sprites"))
    if sprites is not None:
        sprites.innerHTML = sprite_svg()
    embedded = _embedded()
    motion = _text(window.URLSearchParams.new(window.location.search).get("motion")) != "off"
    if not motion:
        document.documentElement.classList.add("motion-off")  # the stylesheet stops every glide
    host = BrowserHost(motion=motion)
    params = _params()
    _take_challenge(params)
    modes.before_online(lambda: _configure_online(host, params))
    controller = Controller(host, page_storage(), params, embedded=embedded)
    wide = window.matchMedia(WIDE_QUERY)
    controller.orientation = "vertical" if wide.matches else "horizontal"

    app = document.getElementById("app")
    app.addEventListener("click", create_proxy(lambda event: _on_click(controller, host, event)))
    # A tap never waits for an animation: it ends the running view transition at once.
    document.addEventListener("pointerdown", create_proxy(lambda event: host.skip_transition()), True)
    document.addEventListener("click", create_proxy(lambda event: _on_root_click(controller, host, event)))
    document.addEventListener("keydown", create_proxy(lambda event: _on_key(controller, host, event)))
    app.addEventListener("change", create_proxy(lambda event: _on_change(controller, host, event)))
    wide.addEventListener("change", create_proxy(
        lambda event: controller.set_orientation("vertical" if event.matches else "horizontal")))

    controller.boot()
    loading = _nn(document.getElementById("loading"))
    if loading is not None:
        loading.hidden = True
    document.body.dataset.ready = "true"
    host.post_ready()
    _warm_in_idle(host)
    return controller


LATER_MODULES = ("datetime", "cribbage.record", "web.records_store", "web.charts", "web.render_record",
                 "web.record_screens")
"""Imported in idle time after the computer: what the game-over screen draws with (importing them
when the match ended made that frame's task 0.1 s longer)."""


def _import_steps(names: tuple[str, ...]) -> Iterator[str]:
    """Import ``names`` one per step (a module that fails is left for its first real use)."""
    for name in names:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001
            pass
        yield name


def _warm_in_idle(host: BrowserHost) -> None:
    """Import the computer and the coach in the page's idle moments after the table is drawn, one
    small step per idle callback (:func:`web.seats.warming`): the first hint no longer freezes."""
    from web.seats import warming

    steps = itertools.chain(warming(), _import_steps(LATER_MODULES))
    idle = _nn(getattr(window, "requestIdleCallback", None))

    def step(*_: Any) -> None:
        start = float(window.performance.now())
        name = next(steps, None)
        if name is None:
            proxy.destroy()
            return
        host.measure(f"warm {name}", start)
        schedule()

    def schedule() -> None:
        if idle is not None:
            window.requestIdleCallback(proxy)
        else:  # Safari: no idle callbacks; a short timer between frames does
            window.setTimeout(proxy, 40)

    proxy = create_proxy(step)
    schedule()


def _embedded() -> bool:
    try:
        return not bool(getattr(window.Object, "is")(window.parent, window))
    except Exception:  # noqa: BLE001 - a cross-origin parent still compares fine; be safe anyway
        return False
