"""The page's timers: one proxy for all of them, each call carrying a token; zero-delay timers held
until a frame that waits to be painted is painted (the tap's answer first); a chain of them through a
MessageChannel without the browser's clamp; every handler timed (``#app[data-handler-ms]`` keeps the
slowest, which the browser tests watch)."""

from __future__ import annotations

from typing import Any, Callable

from pyscript import document, window  # type: ignore[import-not-found]  # the page's JS objects: Any
from pyscript.ffi import create_proxy  # type: ignore[import-not-found]

__all__ = ["Timers"]


class Timers:
    """The timers of the page's ``app`` element (``measure``: the benchmark's marks, when ``marks``)."""

    def __init__(self, app: Any, measure: Callable[[str, float], None], marks: bool) -> None:
        self.app = app
        self.measure = measure
        self._marks = marks
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
        self._slowest = 0.0

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

    def frame_asked(self) -> None:
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
