"""The browser glue: with :mod:`web.page.start` the only code that touches the page.

A host that writes HTML into ``#table`` and ``#overlay``, speaks
through the ``#live`` region, runs timers with ``setTimeout`` (one proxy for all of them), keeps the
match in the page's durable store (``static/store.js``: IndexedDB) and posts to the parent frame
when embedded. One delegated click handler on ``#app`` routes every control by its ``data-action``; one keydown handler serves the keyboard.
When the table is drawn it sets ``<body data-ready="true">``.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Callable, Protocol

from pyscript import document, window  # type: ignore[import-not-found]  # the page's JS objects: Any
from pyscript.ffi import create_proxy, to_js  # type: ignore[import-not-found]

try:  # Pyodide gives JS null as its own ``jsnull`` value, not None
    from pyodide.ffi import create_once_callable  # type: ignore[import-not-found]
    from pyodide.ffi import jsnull as _JSNULL
except ImportError:  # pragma: no cover - older Pyodide
    _JSNULL = None
    create_once_callable = create_proxy

from web.sessions.storage import DurableStorage, Storage
from web.table.patch import moving, plan
from web.shell.link_options import LINK_NAMES
from web.kit.frame import Rendered

TRAVEL_MS = 220.0
"""How long a piece takes to travel to its new place (ms): at most ~250."""
TRAVEL_EASING = "cubic-bezier(.25, .7, .3, 1)"

DATA_KEYS = ("index", "depth", "step", "mode", "level", "delay", "hand", "record", "digit",
             "side", "points", "kind", "field", "choice", "claim", "seat", "stage", "card", "drill", "word")
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
        self._flights: list[tuple[Any, Any, Any]] = []
        """The travels under way: (animation, the travelling copy, the piece in its new place)."""
        self._landed_proxy = create_proxy(self._landed)
        self._sky: Any = None
        """``#flights``: a layer over the whole page where the copies travel (nothing clips them)."""
        self._callbacks: dict[int, Callable[[], None]] = {}
        self._seq = 0
        self._fire_proxy = create_proxy(self._fire)
        self._channel: Any = None
        """A MessageChannel for :meth:`soon` (made on first use)."""
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
        self._travel_due: tuple[frozenset[str], dict[str, tuple[float, float, float, float, bool]]] | None = None
        """The glides of the frame just drawn (what moves, and where it was), started in its animation frame."""
        self._focus_due: tuple[str | None, str, bool] | None = None
        """The focus of the frame just drawn (focus, the element focused before, covered), set in its
        animation frame: moving the focus makes the browser work out the new regions' style and layout
        at once, which the frame's own rendering steps do anyway (measured online: 31-39 ms of a
        redraw's task)."""
        self._settle_asked = False
        self._settle_proxy = create_proxy(self._on_settle_frame)
        self._adrift = False
        """A frame took away the focused control and nothing took the focus since: the next frame
        with a next action (Deal, a card to lay away...) gives it the focus (not the page's body)."""

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

        What moves (:func:`web.table.patch.moving`: the cards, the starter and the crib named
        ``data-vt``) is measured before the patch and after it, then glides from the old place to
        the new by a transform animation of its own (FLIP, the Web Animations API). The page
        itself is drawn at once, in the same task; the compositor alone runs the glide (no frame
        is captured: a view transition re-rasterised the pieces and redrew every frame of its
        pseudo-elements' tree in software, ~3x the CPU time of this on a machine without a GPU).
        """
        self.settle()  # the frame before's glides and focus first, if its animation frame has not come
        self._target = (rendered, focus)
        self._frame_asked()
        names = moving(self._drawn, rendered) if self.animated() else frozenset()
        before: dict[str, tuple[float, float, float, float, bool]] = {}
        if names:
            self.skip_transition()
            before = self._places(names)
        self._draw()
        if names:
            self._travel_due = (names, before)
        if bool(document.hidden):  # (no animation frame comes to a hidden page)
            self.settle()
        elif not self._settle_asked:
            self._settle_asked = True
            window.requestAnimationFrame(self._settle_proxy)

    def _on_settle_frame(self, *_: Any) -> None:
        self._settle_asked = False
        self.settle()

    def settle(self) -> bool:
        """Start the glides and set the focus of the frame drawn last (its animation frame, right
        before its paint, or at once when something else needs them: a key, the next frame);
        True if there was anything to do."""
        travel, focus = self._travel_due, self._focus_due
        self._travel_due = self._focus_due = None
        if travel is not None:
            try:
                self._travel(*travel)
            except Exception:  # noqa: BLE001 - a browser without element.animate: the change is instant
                self.skip_transition()
        if focus is not None:
            began = float(window.performance.now()) if self._marks else 0.0
            self._focus(*focus)
            if self._marks:
                self.measure("\u00b7 focus (frame)", began)
        return travel is not None or focus is not None

    def skip_transition(self) -> None:
        """End the travels under way at once (a tap never waits for an animation); those not yet
        started never start (their pieces are already in place)."""
        self._travel_due = None
        flights, self._flights = self._flights, []
        for flight, copy, element in flights:
            try:
                flight.onfinish = None
                flight.cancel()
            except Exception:  # noqa: BLE001
                pass
            self._land(copy, element)

    @staticmethod
    def _land(copy: Any, element: Any) -> None:
        copy.remove()
        element.classList.remove("travel-away")

    @staticmethod
    def _js(value: Any) -> Any:
        return to_js(value, dict_converter=window.Object.fromEntries)

    @staticmethod
    def _selector(names: frozenset[str]) -> str:
        return ", ".join(f'[data-vt="{name}"]' for name in sorted(names))

    def _places(self, names: frozenset[str]) -> dict[str, tuple[float, float, float, float, bool]]:
        """{name: (centre x, centre y, width, height, face down)} of the pieces about to move."""
        out: dict[str, tuple[float, float, float, float, bool]] = {}
        found = self.table.querySelectorAll(self._selector(names))
        for i in range(int(found.length)):
            element = found.item(i)
            r = element.getBoundingClientRect()
            out[str(element.getAttribute("data-vt"))] = (
                float(r.left) + float(r.width) / 2, float(r.top) + float(r.height) / 2,
                float(r.width), float(r.height), bool(element.classList.contains("back")))
        return out

    def _travel(self, names: frozenset[str], before: dict[str, tuple[float, float, float, float, bool]]) -> None:
        """Start the glide of each named piece from its old place (``before``) to where it is now.

        A copy of the piece travels in ``#flights``, a fixed layer over the page (the table's
        scrolling middle would clip the piece itself, and the prompt would hide it), while the
        piece waits unseen in its new place; the copy's transform is all that animates."""
        ms = _nn(getattr(window, "__cribbageTravelMs", None))  # (the tests slow it down)
        options = self._js({"duration": float(ms) if ms is not None else TRAVEL_MS, "easing": TRAVEL_EASING})
        found = self.table.querySelectorAll(self._selector(names))
        for i in range(int(found.length)):
            element = found.item(i)
            name = str(element.getAttribute("data-vt"))
            r = element.getBoundingClientRect()
            cx, cy = float(r.left) + float(r.width) / 2, float(r.top) + float(r.height) / 2
            w, h = float(element.offsetWidth), float(element.offsetHeight)
            base = str(window.getComputedStyle(element).transform)
            base = "" if base == "none" else " " + base
            old = before.get(name)
            if old is None:
                if name != "starter":
                    continue
                frames = [{"transform": "perspective(500px) rotateY(90deg)" + base},
                          {"transform": base.strip() or "none"}]  # the starter turns over
            else:
                x, y, ow, oh, back = old
                dx, dy = x - cx, y - cy
                sx = ow / float(r.width) if float(r.width) else 1.0
                sy = oh / float(r.height) if float(r.height) else 1.0
                if abs(dx) < 0.5 and abs(dy) < 0.5 and abs(sx - 1) < 0.01 and abs(sy - 1) < 0.01:
                    continue
                first: dict[str, Any] = {"transform": f"translate({dx:.1f}px, {dy:.1f}px) scale({sx:.3f}, {sy:.3f}){base}"}
                last: dict[str, Any] = {"transform": base.strip() or "none"}
                if back and not bool(element.classList.contains("back")):
                    first["opacity"], last["opacity"] = 0.35, 1  # a back laid face up: it shows as it goes
                frames = [first, last]
            copy = element.cloneNode(True)
            copy.removeAttribute("id")
            copy.setAttribute("aria-hidden", "true")
            copy.classList.add("travelling")
            style = copy.style
            style.setProperty("--w", f"{w:.1f}px")
            style.width, style.height = f"{w:.1f}px", f"{h:.1f}px"
            style.left, style.top = f"{cx - w / 2:.1f}px", f"{cy - h / 2:.1f}px"
            self._layer().appendChild(copy)
            element.classList.add("travel-away")
            flight = copy.animate(self._js(frames), options)
            flight.id = "travel"
            flight.onfinish = self._landed_proxy
            self._flights.append((flight, copy, element))

    def _layer(self) -> Any:
        """``#flights`` (made on first use, beside ``#table``)."""
        if self._sky is None or not bool(self._sky.isConnected):
            self._sky = document.createElement("div")
            self._sky.id = "flights"
            self._sky.setAttribute("aria-hidden", "true")
            self.app.appendChild(self._sky)
        return self._sky

    def _landed(self, event: Any) -> None:
        """A travel ended: the piece shows in its place, the copy goes."""
        flight = _nn(getattr(event, "target", None))
        keep = []
        for entry in self._flights:
            if flight is not None and entry[0] == flight:
                self._land(entry[1], entry[2])
            else:
                keep.append(entry)
        self._flights = keep

    def _draw(self) -> None:
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
        for key, html in patch.regions:
            old = _nn(self.table.querySelector(f'[data-region="{key}"]'))
            if old is None:  # not where it should be (should not happen): draw it all
                self.table.innerHTML = rendered.table
                break
            old.outerHTML = html
            if self._marks:
                wrote = self._region_mark(key, wrote)
        if patch.pegs or patch.full is not None:
            self._set_pegs(rendered)
        if patch.overlay is not None:
            self.overlay.innerHTML = patch.overlay
        if active is not None and not active.isSameNode(document.body) and not bool(active.isConnected):
            self._adrift = True  # the focused control went with the region that held it
        self._drawn = rendered
        for key, value in rendered.meta.items():
            if self._meta.get(key) != value:  # (each call crosses into JavaScript: only what changed)
                # The player's looks (web.shell.looks) dress the whole page: the body carries them.
                (document.body if key.startswith("look-") else self.app).setAttribute(f"data-{key}", value)
                self._meta[key] = value
        covered = bool(rendered.overlay)
        if covered != self._inert:
            self.table.inert = self._inert = covered
        if self._marks:
            self._region_mark("(pegs, overlay, #app)", wrote)
        self._focus_due = (focus, previous, covered)  # set in the frame's animation frame (settle)
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
        if board.getAttribute("aria-label") != rendered.board_label:
            board.setAttribute("aria-label", rendered.board_label)  # "Cribbage board. You 12, Computer 9, ..."

    def _focus(self, focus: str | None, previous: str, covered: bool) -> None:
        target = None
        if focus == "primary":
            target = self._next_action()
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
        now = _nn(document.activeElement)
        if now is not None and not now.isSameNode(document.body):
            self._adrift = False  # the focus is somewhere (the player's or a frame's): leave it there
        elif target is None and self._adrift:
            target = self._next_action()  # None while the other side moves: try again next frame
        if target is not None:
            self._adrift = False
        if target is not None and not target.isSameNode(now):
            target.focus(self._no_scroll)

    def _next_action(self) -> Any:
        """The control of the next action: the table's primary button (Deal, Cut here, To crib...), else
        the first card of the hand that may be chosen; None if the player has nothing to do now."""
        return (_nn(document.querySelector("#table .actions .btn-primary:not([aria-disabled])"))
                or _nn(document.querySelector("#table button.hand-card:not([aria-disabled])")))

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

    def soon(self, fn: Callable[[], None]) -> Any:
        """``later(0, fn)`` without the browser's clamp: a chain of zero-delay timers, each set by the
        one before, waits at least 4 ms a link after the fifth (HTML's timer nesting rule; measured
        here: 5 ms between 8 ms slices, against 0.2 ms through a MessageChannel), which online play's
        deal, run in slices of a few ms, lost a fifth of its time to. Still after the paint of a frame
        that waits to be painted, as :meth:`later`; cancelled by :meth:`cancel`."""
        if self._unpainted and not document.hidden:
            return self.later(0, fn)
        if self._channel is None:
            self._channel = window.MessageChannel.new()
            self._channel.port1.onmessage = create_proxy(lambda event: self._fire(event.data))
        self._seq += 1
        token = self._seq
        self._callbacks[token] = fn
        self._channel.port2.postMessage(token)
        return (None, token)

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
        """Run a handler, keeping the slowest time seen in ``#app[data-handler-ms]`` (and its label in
        ``data-handler-what``)."""
        start = float(window.performance.now())
        try:
            return fn()
        finally:
            spent = float(window.performance.now()) - start
            if spent > self._slowest:
                self._slowest = spent
                self.app.setAttribute("data-handler-ms", f"{spent:.0f}")
                self.app.setAttribute("data-handler-what", label)
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
    """The address's options as given (the controller checks them: :mod:`web.shell.link_options`)."""
    search = window.URLSearchParams.new(window.location.search)
    out: dict[str, str] = {}
    for name in LINK_NAMES:
        value = _text(search.get(name))
        if value is not None:
            out[name] = str(value)
    if "room" in out:
        out["mode"] = "online"
    return out


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
    if host.settle():  # a key before the last frame's animation frame: it goes where that frame focuses
        target = _nn(document.activeElement) or target
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


def _embedded() -> bool:
    try:
        return not bool(getattr(window.Object, "is")(window.parent, window))
    except Exception:  # noqa: BLE001 - a cross-origin parent still compares fine; be safe anyway
        return False
