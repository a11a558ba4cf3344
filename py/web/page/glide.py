"""The glides: a card that changes place between two frames travels there (FLIP, the Web Animations
API). Its place is measured before the frame is written and after; a copy of it then travels in
``#flights``, a fixed layer over the page, from the old place to the new by a transform animation of its
own while the piece waits unseen in its new place. A tap never waits for it (:meth:`Glide.skip`)."""

from __future__ import annotations

from typing import Any

from pyscript import document, window  # type: ignore[import-not-found]  # the page's JS objects: Any
from pyscript.ffi import create_proxy, to_js  # type: ignore[import-not-found]

from web.page.jsvalues import _nn
from web.kit.caught import caught

__all__ = ["Glide", "TRAVEL_MS", "TRAVEL_EASING", "Places"]

TRAVEL_MS = 220.0
"""How long a piece takes to travel to its new place (ms): at most ~250."""
TRAVEL_EASING = "cubic-bezier(.25, .7, .3, 1)"

Places = dict[str, tuple[float, float, float, float, bool]]
"""{name: (centre x, centre y, width, height, face down)} of the pieces named ``data-vt``."""


class Glide:
    """The travels of the pieces of ``table`` (copies flying in a layer of ``app``)."""

    def __init__(self, app: Any, table: Any) -> None:
        self.app = app
        self.table = table
        self._flights: list[tuple[Any, Any, Any]] = []
        """The travels under way: (animation, the travelling copy, the piece in its new place)."""
        self._landed_proxy = create_proxy(self._landed)
        self._sky: Any = None
        """``#flights``: a layer over the whole page where the copies travel (nothing clips them)."""

    def skip(self) -> None:
        """End the travels under way at once (a tap never waits for an animation); those not yet
        started never start (their pieces are already in place)."""
        flights, self._flights = self._flights, []
        for flight, copy, element in flights:
            try:
                flight.onfinish = None
                flight.cancel()
            except Exception as exc:  # noqa: BLE001
                caught("page.glide.Glide.skip", exc)
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

    def places(self, names: frozenset[str]) -> Places:
        """{name: (centre x, centre y, width, height, face down)} of the pieces about to move."""
        out: Places = {}
        found = self.table.querySelectorAll(self._selector(names))
        for i in range(int(found.length)):
            element = found.item(i)
            r = element.getBoundingClientRect()
            out[str(element.getAttribute("data-vt"))] = (
                float(r.left) + float(r.width) / 2, float(r.top) + float(r.height) / 2,
                float(r.width), float(r.height), bool(element.classList.contains("back")))
        return out

    def travel(self, names: frozenset[str], before: Places) -> None:
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
                first: dict[str, Any] = {
                    "transform": f"translate({dx:.1f}px, {dy:.1f}px) scale({sx:.3f}, {sy:.3f}){base}"
                }
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
