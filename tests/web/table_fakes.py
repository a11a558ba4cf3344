"""A fake browser for the controller: records frames, runs timers on demand."""

from __future__ import annotations

from typing import Any, Callable

from web.kit.frame import Rendered


class FakeHost:
    """Collects what the controller draws, says and posts; timers run when ``run_timers`` is called."""

    def __init__(self) -> None:
        self.frames: list[Rendered] = []
        self.said: list[str] = []
        self.posted: list[dict[str, Any]] = []
        self.timers: dict[int, Callable[[], None]] = {}
        self.focus: list[str | None] = []
        self._next = 0
        self.clock = 1_700_000_000_000

    def show(self, rendered: Rendered, focus: str | None) -> None:
        self.frames.append(rendered)
        self.focus.append(focus)

    @property
    def last(self) -> Rendered:
        return self.frames[-1]

    def announce(self, text: str) -> None:
        self.said.append(text)

    def later(self, ms: int, fn: Callable[[], None]) -> int:
        self._next += 1
        self.timers[self._next] = fn
        return self._next

    def cancel(self, handle: int) -> None:
        self.timers.pop(handle, None)

    def post(self, message: dict[str, Any]) -> None:
        self.posted.append(message)

    def now_ms(self) -> int:
        self.clock += 1
        return self.clock

    def run_timers(self, limit: int = 1000) -> int:
        """Fire pending timers (and those they schedule) until none is left; returns how many ran."""
        ran = 0
        while self.timers and ran < limit:
            key = min(self.timers)
            fn = self.timers.pop(key)
            fn()
            ran += 1
        return ran


# --- reading the markup ------------------------------------------------------------------------

import functools  # noqa: E402
from html.parser import HTMLParser  # noqa: E402


class Element:
    """A start tag and its attributes (enough to check what the table offers)."""

    def __init__(self, tag: str, attrs: dict[str, str]) -> None:
        self.tag = tag
        self.attrs = attrs

    def __repr__(self) -> str:
        return f"<{self.tag} {self.attrs}>"

    def has_class(self, name: str) -> bool:
        return name in self.attrs.get("class", "").split()


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append(Element(tag, {k: v or "" for k, v in attrs}))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def elements(html: str) -> list[Element]:
    return list(_parsed(html)[0])


def text_of(html: str) -> str:
    return _parsed(html)[1]


@functools.lru_cache(maxsize=32)
def _parsed(html: str) -> tuple[tuple[Element, ...], str]:
    """The start tags and the text of a page, parsed once: tests ask several questions of the same
    frame (a whole-match sweep spent 90% of its time parsing the same table again, docs/testing.md)."""
    parser = _Collector()
    parser.feed(html)
    return tuple(parser.elements), " ".join(parser.text)


def select(html: str, *, tag: str | None = None, cls: str | None = None, **attrs: str) -> list[Element]:
    """Elements matching a tag, a class and attribute values (``data_action="card"``)."""
    out = []
    for e in elements(html):
        if tag and e.tag != tag:
            continue
        if cls and not e.has_class(cls):
            continue
        if any(e.attrs.get(k.replace("_", "-")) != v for k, v in attrs.items()):
            continue
        out.append(e)
    return out


# --- playing through the controller --------------------------------------------------------------

def play_human_turn(controller, seat: int = 0) -> bool:
    """Make one human decision for ``seat`` by clicking, with a simple rule; False if none was due."""
    if controller.waiting_to_move_on():
        controller.click("next-hand")
        return True
    if controller.cover_for() is not None:
        controller.click("ready")
        return True
    view = controller.match.view(seat)
    if not view.legal_actions:
        return False
    return click_first_legal(controller, view, cut_offset=5)


def click_first_legal(controller, view, cut_offset: int) -> bool:
    """Click the table's way to the first of ``view``'s legal actions (a cut ``cut_offset`` cards
    past the shallowest depth); False if there is no such action."""
    from cribbage.actions import Count, CutForDeal, CutPack, CutStarter, Discard, Go, Muggins, Pass, Play

    first = view.legal_actions[0]
    if isinstance(first, (CutForDeal, CutPack, CutStarter)):
        controller.click("cut-pick", {"depth": str(view.cut_depths[0] + cut_offset)})
    elif isinstance(first, Discard):
        controller.click("card", {"index": "0"})
        controller.click("card", {"index": "1"})
        controller.click("discard")
    elif isinstance(first, Go):
        controller.click("go")
    elif isinstance(first, Play):
        index = next(i for i, c in enumerate(view.hand) if c == first.card)
        controller.click("card", {"index": str(index)})
        controller.click("card", {"index": str(index)})
    elif isinstance(first, Count) and first.claim is not None:  # muggins: claim nothing, on the pad
        controller.click("claim-digit", {"digit": "0"})
        controller.click("claim")
    elif isinstance(first, Count):
        controller.click("count")
    elif isinstance(first, (Muggins, Pass)):
        controller.click("let-stand")
    else:
        return False
    return True
