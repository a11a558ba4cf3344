"""The page's input: one delegated click handler on ``#app`` routes every control by its
``data-action`` (with its ``data-*`` and the text fields it takes along), one keydown handler serves
the keyboard (Enter in a name field presses its button); the address's options as given; whether the
page is embedded."""

from __future__ import annotations

import json
from typing import Any, Callable, Protocol

from pyscript import document, window  # type: ignore[import-not-found]  # the page's JS objects: Any

from web.page.jsvalues import _nn, _text
from web.page.promises import handled
from web.shell.link_options import LINK_NAMES
from web.kit.caught import caught

__all__ = ["Routed", "PageHost", "DATA_KEYS", "NAME_FIELDS"]

DATA_KEYS = ("index", "depth", "step", "mode", "level", "delay", "hand", "record", "digit",
             "side", "points", "kind", "field", "choice", "claim", "seat", "stage", "card", "drill", "word")
"""The data-* attributes a control may pass along with its data-action."""
NAME_FIELDS = {"online-name": "online-name", "challenge-name": "challenge-make",
               "challenge-reply-name": "challenge-answer"}
"""Text fields where Enter presses a button: the field's id and the button's data-action."""
COPIED = "Copied"
"""The Copy button once the browser has put the text on the clipboard (and only then)."""
NOT_COPIED = "Not copied: copy the selected text yourself"
"""The Copy button when the browser refused the clipboard: the link is selected in its field."""


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


class PageHost(Protocol):
    """What the handlers need of the page's host (:class:`web.page.host.BrowserHost`)."""

    app: Any

    def timed(self, fn: Callable[[], Any], label: str = "handler") -> Any: ...
    def settle(self) -> bool: ...
    def skip_transition(self) -> None: ...


def _on_click(controller: Routed, host: PageHost, event: Any, target: Any = None) -> None:
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


def _on_root_click(controller: Routed, host: PageHost, event: Any) -> None:
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
    else the room link's) as well. The button says "Copied" only once the browser has put it there;
    a browser that refuses (no permission, an insecure page) leaves the link selected for a manual
    copy and opens the share sheet where there is one. Every promise here has both its outcomes
    handled: a refusal never becomes a Python error on the page."""
    text = _text(element.getAttribute("data-copy")) or ""
    field = _nn(document.getElementById(_text(element.getAttribute("data-field")) or "room-link"))
    if field is not None:
        field.select()

    def done(*_: Any) -> None:
        element.textContent = COPIED

    def refused(*_: Any) -> None:
        if field is not None:
            field.select()
        element.textContent = NOT_COPIED
        _share(text)

    try:
        promise = window.navigator.clipboard.writeText(text)
    except Exception as exc:  # noqa: BLE001 - no clipboard (insecure context): the text stays selected
        caught("page.input._copy", exc)
        refused()
        return
    handled(promise, "page.input._copy", done, refused)


def _share(text: str) -> None:
    """Offer the system's share sheet for ``text`` where the browser has one (its outcome handled:
    a closed sheet is no error)."""
    try:
        share = _nn(getattr(window.navigator, "share", None))
        if share is None:
            return
        data = window.JSON.parse(json.dumps({"url": text}))
        handled(window.navigator.share(data), "page.input._share", _ignore, _ignore)
    except Exception as exc:  # noqa: BLE001 - no share sheet, or it refused at once: the link stays selected
        caught("page.input._share", exc)


def _ignore(*_: Any) -> None:
    """A share sheet closed, used or not: nothing to do."""


def _on_key(controller: Routed, host: PageHost, event: Any) -> None:
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
    except Exception as exc:  # noqa: BLE001 - a cross-origin parent still compares fine; be safe anyway
        caught("page.input._embedded", exc)
        return False
