"""The browser glue: with :mod:`web.page.start` the only code that touches the page.

:class:`BrowserHost` writes frames into ``#table`` and ``#overlay`` (only the regions that changed),
moves the focus and starts the glides in the frame's animation frame, speaks through the ``#live``
region and posts to the parent frame when embedded. Beside it, one module a concern:
:mod:`web.page.glide` (cards travelling between frames), :mod:`web.page.timers` (``setTimeout`` behind
one proxy, every handler timed), :mod:`web.page.input` (the delegated click and key handlers, the
address's options), :mod:`web.page.storage` (the durable store) and :mod:`web.page.jsvalues`.
When the table is drawn it sets ``<body data-ready="true">``.
"""

from __future__ import annotations

import sys
from typing import Any, Callable

from pyscript import document, window  # type: ignore[import-not-found]  # the page's JS objects: Any
from pyscript.ffi import create_proxy, to_js  # type: ignore[import-not-found]

from web.kit.frame import Rendered
from web.page.glide import Glide, Places
from web.page.input import _embedded
from web.page.jsvalues import _nn, _text, create_once_callable
from web.page.timers import Timers
from web.table.patch import moving, plan
from web.kit.caught import caught

__all__ = ["BrowserHost", "_nn", "_text"]  # (_nn, _text: web.page.net imports them from here)


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
        self._flip = False
        self._no_scroll = to_js({"preventScroll": True}, dict_converter=window.Object.fromEntries)
        self._held: list[dict[str, Any]] | None = []
        """Messages for the embedding page held until ``ready`` is posted (then None): it comes first."""
        self._marks = bool(_nn(getattr(window, "__cribbageMarks", None)))
        """Write ``performance.measure`` entries (``py …``) for py/tools/bench_taps.py."""
        self.glide = Glide(self.app, self.table)
        """The travels of the cards between frames (:mod:`web.page.glide`)."""
        self.timers = Timers(self.app, self.measure, self._marks)
        """The controller's timers and the timing of every handler (:mod:`web.page.timers`)."""
        self._travel_due: tuple[frozenset[str], Places] | None = None
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
        self.timers.frame_asked()
        names = moving(self._drawn, rendered) if self.animated() else frozenset()
        before: Places = {}
        if names:
            self.skip_transition()
            before = self.glide.places(names)
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
                self.glide.travel(*travel)
            except Exception as exc:  # noqa: BLE001 - a browser without element.animate: the change is instant
                caught("page.host.BrowserHost.settle", exc)
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
        self.glide.skip()

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
    # Timers (web.page.timers): one proxy for all, each call carries a token.

    def later(self, ms: int, fn: Callable[[], None]) -> Any:
        """Run ``fn`` after ``ms`` ms (after the paint of a frame that waits for it: :meth:`Timers.later`)."""
        return self.timers.later(ms, fn)

    def soon(self, fn: Callable[[], None]) -> Any:
        """``later(0, fn)`` without the browser's clamp (:meth:`Timers.soon`)."""
        return self.timers.soon(fn)

    def timed(self, fn: Callable[[], Any], label: str = "handler") -> Any:
        """Run a handler, keeping the slowest time seen in ``#app[data-handler-ms]``."""
        return self.timers.timed(fn, label)

    def cancel(self, handle: Any) -> None:
        self.timers.cancel(handle)

    # The embedding page.

    def post(self, message: dict[str, Any]) -> None:
        if self._held is not None:
            self._held.append(message)
            return
        try:
            data = to_js(message, dict_converter=window.Object.fromEntries)
            window.parent.postMessage(data, "*")
        except Exception as exc:  # noqa: BLE001 - the game goes on without its host page
            caught("page.host.BrowserHost.post", exc)
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
